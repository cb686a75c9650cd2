package cli

import (
	"fmt"
	"io"
	"runtime"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/backoff/plan"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The root command: the full-screen program or --plain's line menu, and
// the settings flags every mode takes, with their completions.

// newRoot is the command tree, writing its help, completion scripts and
// man page to out.
func newRoot(p *parse, out io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "retry-planner [--plain] [--policies L] [SETTINGS]",
		Short: "How long clients wait between retries, and what a crowd of them does to a service",
		Long: `Retry Planner: how long clients wait between retries, and what a crowd of them
does to a service that comes back after an outage.

With no command it opens the full-screen program (a terminal); --plain runs
the original program's line menu instead, for scripts and pipes. A command
prints one report and exits.`,
		Example: `  retry-planner --policies grpc,aws,full-jitter --clients 50000
  retry-planner crowd --clients 50000 --outage 30s --capacity 2000 --load 1500
  retry-planner crowd --policies grpc,aws --seeds 100 --format json
  retry-planner advise --plan storm.toml --goal 'recovered<=60s'
  retry-planner schedule --policy full-jitter --client 2
  retry-planner --plain < answers.txt`,
		Version:               versionLine(readBuildInfo()),
		Args:                  rootArgs,
		SilenceErrors:         true,
		SilenceUsage:          true,
		DisableAutoGenTag:     true,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return p.root()
		},
	}
	// Before the completion command is made: it keeps the writer it finds.
	root.SetOut(out)
	root.SetErr(out)
	root.SetVersionTemplate("{{.Version}}\n")
	root.Flags().SortFlags = false
	root.PersistentFlags().SortFlags = false
	p.addSwitch(root.Flags(), "plain", "run the original program's line menu on standard input and output")
	p.addFlag(root.Flags(), "policies", "L", "the policies the panes compare, separated by commas, each once: "+backoff.PolicyNames()+" (default: the five and custom, or the plan's)")
	root.InitDefaultHelpFlag()
	root.InitDefaultVersionFlag()
	root.Flags().Lookup("version").Usage = "the version, from the build"
	p.addSettingsFlags(root.PersistentFlags())
	p.addLimitFlags(root.PersistentFlags())
	for _, c := range reportCommands() {
		root.AddCommand(p.newReportCommand(c))
	}
	root.AddCommand(newVersionCommand(), newManCommand(root))
	addTopics(root)
	root.SetHelpCommand(newHelpCommand(root))
	root.SetFlagErrorFunc(p.flagError)
	root.SetUsageTemplate(usageTemplate)
	root.SetHelpTemplate(helpTemplate)
	addCompletion(root)
	_ = root.RegisterFlagCompletionFunc("policies", completePolicyList)
	for name, f := range settingsCompletions() {
		_ = root.RegisterFlagCompletionFunc(name, f)
	}
	return root
}

// rootArgs refuses a word where a command would be: the root takes none.
func rootArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q: want %s, or none for the full-screen program; see --help", args[0], commandList())
	if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
		msg = fmt.Sprintf("unknown command %q (did you mean %s?): want %s, or none for the full-screen program", args[0], near[0], commandList())
	}
	return usagef("%s", msg)
}

// root reads the line of the full-screen program or --plain.
func (p *parse) root() error {
	plain := p.has("plain")
	draft := newSettingsDraft(plan.DefaultSettings(), p.files)
	if plain {
		// --plain is the original program: its settings, its draws.
		draft = newSettingsDraft(backoff.Defaults(), p.files)
		draft.limits = backoff.PlainLimits
	}
	var policies []string // as named, by who
	who := "--policies"
	limits := newRunLimits()
	for _, u := range p.ordered() {
		switch u.name {
		case "plain":
		case "policies":
			if plain {
				return usagef("--plain shows the reference's five policies and takes no --policies: drop it, or use the full-screen program or crowd, which take it")
			}
			names, err := readPolicies(u.value)
			if err != nil {
				return err
			}
			policies, who = names, "--policies"
		case "max-memory", "max-time":
			if err := limits.take(u); err != nil {
				return err
			}
		default:
			if err := draft.take(u); err != nil {
				return err
			}
			if u.name == "plan" && !p.has("policies") && draft.plan != nil {
				policies, who = draft.plan.plan.Policies, "--plan "+shownFile(draft.plan.file)+": policies"
			}
		}
	}
	ranges := backoff.WideLimits
	if plain {
		ranges = backoff.PlainLimits
	}
	s, err := draft.check(ranges)
	if err != nil {
		return err
	}
	opts := options{plain: plain, settings: s, limits: limits}
	if !plain {
		// Each once, now that custom's settings are known.
		ps, err := lookupPolicies(s, policies, who)
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			ps = append(s.Five(), s.Custom()) // the program's own six
		}
		if err := draft.runnable(s, ps); err != nil {
			return err
		}
		opts.tui = newTUIStart(&draft, policies)
		if err := limits.check("the full-screen program's first crowd", opts.tui.cost(s, ps, runtime.GOMAXPROCS(0)), runtime.GOMAXPROCS(0)); err != nil {
			return err
		}
	}
	p.opts = &opts
	return nil
}

// settingsFlags are the settings flags, with their help: their range (the
// wide one; help settings gives --plain's) and default.
func (p *parse) addSettingsFlags(fs *pflag.FlagSet) {
	add := func(name, typ, usage string) { p.addFlag(fs, name, typ, usage) }
	// A time T says its unit (help settings): the ranges' tops as one.
	maxWait, maxTime := backoff.FormatTime(backoff.MaxWait), backoff.FormatTime(backoff.MaxTime)
	add("plan", "FILE", "every setting, the policies and the seeds from a plan (TOML, as --save-plan writes it); the flags override it wherever they stand")
	add("first-wait", "T", fmt.Sprintf("the wait before the first retry: 1ms to %s (default 1s); the five's, and custom's unless it has its own", maxWait))
	add("longest", "T", fmt.Sprintf("no base wait is longer: the first wait to %s (default 16s); the five's, and custom's unless it has its own", maxWait))
	add("attempts", "N", fmt.Sprintf("attempts per client, the first included: 2 to %d (default 6); the five's, and custom's unless it has its own", backoff.MaxAttempts))
	add("clients", "N", fmt.Sprintf("how many clients fail together at 0 ms: 1 to %d (default 200)", backoff.MaxClients))
	add("outage", "T", fmt.Sprintf("the service is down before this: 0 to %s (default 10s)", maxTime))
	add("seed", "N", "seeds every client's draws: 0 to 999999 (default 7)")
	add("slot", "T", fmt.Sprintf("the crowd counts per slot this wide: 1ms to %s (default 100ms); crowd, timeline and the full-screen program", maxWait))
	add("preset", "NAME", "your own policy (custom) takes a preset's first wait, longest wait, attempts, growth, multiplier, jitter and limit on total time, the five keeping theirs: "+backoff.PresetNames())
	add("custom-first-wait", "T", fmt.Sprintf("custom: its own first wait: 1ms to %s (default --first-wait's)", maxWait))
	add("custom-longest", "T", fmt.Sprintf("custom: its own longest wait: its first wait to %s (default --longest's)", maxWait))
	add("custom-attempts", "N", fmt.Sprintf("custom: its own attempts, the first included: 2 to %d (default --attempts's)", backoff.MaxAttempts))
	add("growth", "G", "custom: how each base wait grows, up to the longest: exponential (times --multiplier) or linear (plus the first wait: the n-th is n times it, the multiplier ignored) (default exponential)")
	add("multiplier", "X", "custom: each base wait is the one before times X, up to the longest: 1 to 10, three decimals at most (default 2); --growth linear ignores it")
	add("jitter", "J", "custom: none, full, equal, decorrelated, spread:F or up:F, F from 0.001 to 1 (default none)")
	add("max-elapsed", "T", fmt.Sprintf("a client stops when its next attempt would come more than T after its first: 0 (no limit) to %s (default 0); the five's, and custom's unless it has its own", maxTime))
	add("custom-max-elapsed", "T", fmt.Sprintf("custom: its own limit on total time: 0 (no limit) to %s (default --max-elapsed's)", maxTime))
	add("draws", "D", "independent (a PCG per client) or reference (the original program's generator, as --plain always draws) (default independent)")
	add("seed-draws", "D", "the draws of the spread over seeds: reference or independent (default independent, or --draws's)")
	add("capacity", "N", fmt.Sprintf("requests a second the service serves once back: 0 (no limit) to %d (default 0)", backoff.MaxCapacity))
	add("load", "N", fmt.Sprintf("fresh requests a second, each a client of its own: 0 to %d, at most %d in all (default 0)", backoff.MaxLoad, backoff.MaxFreshRequests))
	add("load-until", "T", fmt.Sprintf("when the fresh load stops: 0 to %s (default the outage + 1m)", maxTime))
	add("budget", "B", "retries a process allows: none, grpc:MAX:RATIO (gRPC's retryThrottling) or aws:QUOTA:COST (the AWS SDKs' retry quota) (default none)")
	add("processes", "N", fmt.Sprintf("the clients are spread over N processes, each with its own budget: 1 to %d, or clients for one a client, the fresh requests included (default 1)", backoff.MaxProcesses))
	add("queue", "N", fmt.Sprintf("the service queues up to N requests once back, serving them at its capacity (needs --capacity): 0 (no queue: each attempt is served or rejected as it arrives) to %d (default 0)", backoff.MaxQueue))
	add("timeout", "T", fmt.Sprintf("a client waits this long for its answer from the queue, then fails and may retry while its request stays queued (needs --queue): 0 (for ever) to %s (default 0)", backoff.FormatTime(backoff.MaxTimeout)))
	p.addOffSwitch(fs, "drop-expired", "the service drops a request whose client timed out, using no capacity, instead of working on it for nothing (needs --queue; =false turns off a plan's)")
	add("queue-order", "O", "which waiting request the service takes next: fifo (the oldest) or lifo (the newest; needs --queue) (default fifo)")
	add("outage-hang", "T", fmt.Sprintf("while the service is down an attempt hangs this long, then fails (a partition; the client's connect timeout): 0 (it fails at once) to %s (default 0)", maxWait))
	add("breaker", "B", "a circuit breaker in each process: F:D opens after F failures in a row (1 to 1000) and fails the process's attempts at once for D (1ms to 1h), then lets one probe through; none, or a library's: "+backoff.BreakerPresetValues()+" (default none)")
	add("retry-after", "T", fmt.Sprintf("a rejected attempt's client comes back this long after it, not after its own wait (Retry-After, gRPC's pushback): 0 (none) to %s (default 0)", maxWait))
	add("goal", "G", "a goal advise and the advice pane search for, once for each: not-through<=P%, recovered<=T, peak<=Fx or peak<=R/s, p99<=T, attempts<=Fx; quoted for the shell ('recovered<=60s'); see help goals")
}

// addLimitFlags declares the ceilings' flags, which every mode takes.
func (p *parse) addLimitFlags(fs *pflag.FlagSet) {
	p.addFlag(fs, "max-memory", "M", "refuse a run whose estimate holds more memory: 8GB, 500MB, 2GiB, or none (default half the machine's memory)")
	p.addFlag(fs, "max-time", "T", "refuse a run whose estimate takes longer: 30m, 2h, or none (default 1h)")
}

func init() {
	// Commands take any case, as every name on the command line does
	// (CROWD, --format JSON, --policy Full_Jitter).
	cobra.EnableCaseInsensitive = true
}

// breakerPresetNames are the breaker presets' names, as --breaker takes them.
func breakerPresetNames() []string {
	var names []string
	for _, pr := range backoff.BreakerPresets() {
		names = append(names, pr.Name)
	}
	return names
}

// settingsCompletions are how the shells complete the settings flags'
// values, by flag.
func settingsCompletions() map[string]cobra.CompletionFunc {
	var presets []string
	for _, pr := range backoff.Presets() {
		presets = append(presets, pr.Name)
	}
	out := map[string]cobra.CompletionFunc{
		"plan":        completePlanFile,
		"preset":      fixed(presets...),
		"growth":      fixed("exponential", "linear"),
		"jitter":      fixed("none", "full", "equal", "decorrelated", "spread:0.2", "up:0.1"),
		"draws":       fixed("reference", "independent"),
		"seed-draws":  fixed("reference", "independent"),
		"budget":      fixed("none", "grpc:10:0.1", "aws:500:5"),
		"queue-order": fixed("fifo", "lifo"),
		"breaker":     fixed(append([]string{"none", "5:30s"}, breakerPresetNames()...)...),
		"processes":   fixed("clients"),
		"goal":        fixed(advice.Examples...),
	}
	// A number: nothing to offer, and no file is one; a time, its units.
	for _, sf := range settingFlags() {
		switch {
		case sf.kind == timeValue:
			out[sf.name] = completeTime
		case sf.field != noField && out[sf.name] == nil:
			out[sf.name] = cobra.NoFileCompletions
		}
	}
	out["max-time"] = completeTime
	return out
}
