package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/picture"
	"github.com/retryplanner/retry-planner/views/words"
)

// helpWidth is the width every line of help fits: a terminal's 80 columns.
const helpWidth = 80

// usageTemplate is cobra's usage with the flags wrapped to helpWidth, the
// settings in a section of their own, and the help topics listed.
const usageTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} COMMAND [FLAGS]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Commands:{{range .Commands}}{{if .IsAvailableCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{if .HasParent}}{{(.LocalFlags.FlagUsagesWrapped 80) | trimTrailingWhitespaces}}{{else}}{{(.LocalNonPersistentFlags.FlagUsagesWrapped 80) | trimTrailingWhitespaces}}{{end}}{{end}}{{if not .HasParent}}

Settings, before or after the command, in every mode:
{{(.PersistentFlags.FlagUsagesWrapped 80) | trimTrailingWhitespaces}}{{else if index .Annotations "settings"}}

Settings: every settings flag, before or after the command; see
retry-planner help settings.{{end}}{{if .HasHelpSubCommands}}

Help topics (retry-planner help TOPIC):{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}
`

// helpTemplate is the text before the usage: the command's description.
const helpTemplate = `{{with (or .Long .Short)}}{{. | trimTrailingWhitespaces}}

{{end}}{{if or .Runnable .HasSubCommands}}{{.UsageString}}{{end}}`

// flagHelp is one of a command's own flags.
type flagHelp struct {
	name, typ, usage string
	toggle           bool
}

// commandFlagHelp is command c's own flags, in the order its help lists
// them: the flags of its table (reportCommands), then --format and the
// files.
func commandFlagHelp(c reportCommand) []flagHelp {
	usage := map[string]flagHelp{
		"policy":    {typ: "P", usage: "one of the five, custom, or a preset (retry-planner help presets)"},
		"policies":  {typ: "L", usage: "policies separated by commas, each once: " + backoff.PolicyNames()},
		"client":    {typ: "N", usage: "which client: 1 to --clients (default 1)"},
		"seeds":     {typ: "N", usage: fmt.Sprintf("run seeds S to S+N-1 (S is --seed) and give each figure's median, p95 and worst: 1 to %d", backoff.MaxSeeds)},
		"compare":   {typ: "FILE", usage: "a plan (A) to set beside this crowd (B), figure by figure"},
		"width":     {typ: "N", usage: fmt.Sprintf("a picture's width: %d to %d, points for svg, pixels for png (default %d points)", picture.MinPictureSide, picture.MaxPictureSide, picture.DefaultPictureWidth)},
		"height":    {typ: "N", usage: fmt.Sprintf("a picture's height: %d to %d (default: as tall as its panels need)", picture.MinPictureSide, picture.MaxPictureSide)},
		"out":       {typ: "FILE", usage: "write the report to FILE, not standard output"},
		"save-plan": {typ: "FILE", usage: "write the plan the report ran to FILE (TOML), for --plan"},
		"force":     {toggle: true, usage: "let --out and --save-plan overwrite a file that is there"},
	}
	switch c.name {
	case "timeline":
		usage["policy"] = flagHelp{typ: "P", usage: "one of the five, custom, a preset, or all (side by side)"}
		usage["policies"] = flagHelp{typ: "L", usage: "policies separated by commas, side by side on one time axis"}
	case "jobs":
		usage["policy"] = flagHelp{typ: "P", usage: "the policy the jobs wait by (default exponential)"}
	}
	var out []flagHelp
	for _, name := range c.flags {
		f := usage[name]
		f.name = name
		out = append(out, f)
	}
	formats := "text, csv or json (default text)"
	if c.pictures {
		formats = "text, csv, json, or svg or png for a picture (default text)"
	}
	out = append(out, flagHelp{name: "format", typ: "F", usage: formats})
	for _, name := range c.switches {
		f := usage[name]
		f.name = name
		out = append(out, f)
	}
	return out
}

// settingsFlags are the settings flags, with their help: their range (the
// wide one; help settings gives --plain's) and default.
func (p *parse) addSettingsFlags(fs *pflag.FlagSet) {
	add := func(name, typ, usage string) { p.addFlag(fs, name, typ, usage) }
	add("plan", "FILE", "every setting, the policies and the seeds from a plan (TOML, as --save-plan writes it); the flags override it wherever they stand")
	add("first-wait", "T", fmt.Sprintf("the wait before the first retry: 1 to %d ms (default 1s)", backoff.MaxWait))
	add("longest", "T", fmt.Sprintf("no base wait is longer: the first wait to %d ms (default 16s)", backoff.MaxWait))
	add("attempts", "N", fmt.Sprintf("tries per client, the first included: 2 to %d (default 6)", backoff.MaxAttempts))
	add("clients", "N", fmt.Sprintf("how many clients fail together at 0 ms: 1 to %d (default 200)", backoff.MaxClients))
	add("outage", "T", fmt.Sprintf("the service is down before this: 0 to %d ms (default 10s)", backoff.MaxTime))
	add("seed", "N", "seeds every client's draws: 0 to 999999 (default 7)")
	add("slot", "T", fmt.Sprintf("the crowd counts per slot this wide: 1 to %d ms (default 100ms); crowd, timeline and the full-screen program", backoff.MaxWait))
	add("preset", "NAME", "your own policy (custom) takes a preset's waits: "+backoff.PresetNames())
	add("multiplier", "X", "custom: each base wait is the one before times X, up to the longest: 1 to 10, three decimals at most (default 2)")
	add("jitter", "J", "custom: none, full, equal, decorrelated, spread:F or up:F, F from 0.001 to 1 (default none)")
	add("max-elapsed", "T", fmt.Sprintf("a client stops when its next attempt would come more than T after its first: 0 (no limit) to %d ms (default 0)", backoff.MaxTime))
	add("draws", "D", "reference (the original program's generator) or independent (a PCG per client) (default reference)")
	add("seed-draws", "D", "the draws of the spread over seeds: reference or independent (default independent, or --draws's)")
	add("capacity", "N", fmt.Sprintf("requests a second the service serves once back: 0 (no limit) to %d (default 0)", backoff.MaxCapacity))
	add("load", "N", fmt.Sprintf("fresh requests a second, each a client of its own: 0 to %d, at most %d in all (default 0)", backoff.MaxLoad, backoff.MaxFreshRequests))
	add("load-until", "T", fmt.Sprintf("when the fresh load stops: 0 to %d ms (default the outage + 60 s)", backoff.MaxTime))
	add("budget", "B", "retries a process allows: none, grpc:MAX:RATIO (gRPC's retryThrottling) or aws:QUOTA:COST (the AWS SDKs' retry quota) (default none)")
	add("processes", "N", fmt.Sprintf("the clients are spread over N processes, each with its own budget: 1 to %d (default 1)", backoff.MaxProcesses))
}

// commandHelp is a report command's words in its help.
type commandHelp struct{ use, short, long, example string }

// commandHelps are the report commands' helps, by name.
var commandHelps = map[string]commandHelp{
	"schedule": {
		use:   "schedule --policy P [--client N] [FLAGS]",
		short: "one client's retries: when each happens, its band and outcome",
		long: `One client's retries under policy P: each retry's attempt number, the wait
before it, when it happens (in ms after the first attempt at 0 ms), the band
its wait is drawn from, and its outcome against a service that is down
until the outage's end: down, through, not needed (after one got through) or
past the limit (--max-elapsed). Then how the client ends. Each client draws
its own waits, from the seed and its number. Every policy's formula:
retry-planner help presets; the columns: retry-planner help formats.`,
		example: `  retry-planner schedule --policy decorrelated --client 3 --attempts 8
  retry-planner schedule --policy grpc --client 3 --format csv`,
	},
	"crowd": {
		use:   "crowd [--policies L] [--seeds N] [--compare FILE] [FLAGS]",
		short: "what a crowd of clients does to the service, policy by policy",
		long: `The crowd: every client fails at 0 ms and retries on its own schedule; a
retry at or after the outage's end gets through while the service has room
(--capacity). For each policy: the retries, the busiest slot, when the last
client got through, how many never did; with a capacity, a load or a budget,
what the service did once back.

--seeds N runs seeds S to S+N-1 and gives each figure's median, 95th
percentile and worst over them, with independent draws unless
--seed-draws reference. --compare FILE sets the crowd of a plan (A) beside
this one (B), figure by figure, with the change and whether it is better.`,
		example: `  retry-planner crowd --clients 50000 --outage 30s --capacity 2000 --load 1500
  retry-planner crowd --policies exponential,grpc,aws --seeds 100 --format json
  retry-planner crowd --policies full-jitter --save-plan before.toml
  retry-planner crowd --compare before.toml --plan before.toml --attempts 8
  retry-planner crowd --seeds 100 --format svg --out crowd.svg`,
	},
	"timeline": {
		use:   "timeline --policy P|all [--policies L] [FLAGS]",
		short: "a crowd's retries and attempts, slot by slot",
		long: `The crowd's retries over time under policy P: how many fall in each slot,
as a row of # for every slot that has any. With a capacity, a load or a
budget, every slot's attempts by outcome (served, rejected, failed while
down) and its capacity too. --policy all, or --policies, puts several
policies side by side on one time axis. The slot is 1 s unless --slot or a
plan sets it.`,
		example: `  retry-planner timeline --policy full-jitter --slot 100ms --clients 1000
  retry-planner timeline --policy all --format png --out timeline.png`,
	},
	"jobs": {
		use:   "jobs [--policy P] NAME:FAILURES ... [FLAGS]",
		short: "jobs through a retry loop, and the ledger of every attempt",
		long: `Runs up to 8 jobs through a retry loop, waiting as policy P does (job i
waits as the crowd's client i), and prints how each ended and the ledger of
every attempt. A job is name:N for one that fails its first N attempts (0 to
999), or name:fatal for one no retry can cure. Each job has a name of its
own, of printable text with no invisible or direction-changing character.
Put -- before the jobs if a name starts with a dash.`,
		example: `  retry-planner jobs alpha:0 bravo:2 charlie:9 delta:fatal --attempts 4
  retry-planner jobs --policy grpc alpha:0 bravo:2 --format json`,
	},
}

// newHelpCommand is "help [COMMAND|TOPIC]": a command's help or a topic,
// and one line naming what there is for anything else.
func newHelpCommand(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND|TOPIC]",
		Short: "help on a command or a topic",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("help takes one command or topic, got %d words: want %s", len(args), helpList(root))
			}
			target := root
			if len(args) == 1 {
				target = nil
				for _, c := range root.Commands() {
					if strings.EqualFold(c.Name(), args[0]) && c != cmd {
						target = c
					}
				}
				if target == nil {
					return usagef("help on %q: want %s", args[0], helpList(root))
				}
			}
			target.InitDefaultHelpFlag()
			return target.Help()
		},
	}
}

// helpList is every command and topic help can give, for a message.
func helpList(root *cobra.Command) string {
	var commands, topics []string
	for _, c := range root.Commands() {
		switch {
		case c.IsAdditionalHelpTopicCommand():
			topics = append(topics, c.Name())
		case c.Name() != "help" && !c.Hidden:
			commands = append(commands, c.Name())
		}
	}
	return "a command (" + orList(commands) + ") or a topic (" + orList(topics) + ")"
}

// topics are the reference material help gives beyond the commands, each
// a help topic command of the root.
func addTopics(root *cobra.Command) {
	for _, t := range []struct{ name, short, long string }{
		{"settings", "every settings flag, its range and default", settingsTopic()},
		{"model", "the exact model: draws, policies, the service, budgets, figures", modelTopic},
		{"presets", "the libraries' policies: their waits, sources and differences", presetsTopic()},
		{"plans", "plans in files: what a plan holds, and how flags meet it", plansTopic},
		{"formats", "the reports' text, CSV columns and JSON documents", formatsTopic},
		{"plain", "--plain: the original program's line menu", plainTopic},
	} {
		root.AddCommand(&cobra.Command{Use: t.name, Short: t.short, Long: t.long})
	}
}

// settingsTopic is "help settings".
func settingsTopic() string {
	var b strings.Builder
	b.WriteString(`Settings: the flags every mode takes (the full-screen program, --plain and
every command), before or after the command, written --name value or
--name=value. --plan sets them all from a file; the flags override it
wherever they stand. A later flag overrides an earlier one of the same name.

`)
	fs := pflag.NewFlagSet("settings", pflag.ContinueOnError)
	fs.SortFlags = false
	(&parse{}).addSettingsFlags(fs)
	b.WriteString(fs.FlagUsagesWrapped(helpWidth))
	b.WriteString(`
A number N is digits and nothing else (no sign, no spaces, at most 10). A
time T is whole milliseconds (1000) or a duration of whole ms (1s, 250ms,
1m30s), no sign.

--plain keeps the original program's settings and ranges: first wait 1 to
10000 ms, longest to 600000 ms, attempts 2 to 12, clients 1 to 1000, outage
0 to 600000 ms, slot 1 to 600000 ms; it refuses every other setting.

--preset, --multiplier, --jitter: your own policy, custom, which the crowd
adds after the five. A preset sets its first wait, longest wait, multiplier,
jitter, attempts and limit; the flags after it override them.

A budget's tokens are shared by the clients of one process (--processes
spreads the clients over processes, each with its own bucket). A total
outage empties a bucket: every failure takes a token, so the clients that
fail during it stop retrying once half the tokens are gone. Typical values:
gRPC's example grpc:10:0.1, the AWS SDKs' standard aws:500:5.
`)
	return b.String()
}

// presetsTopic is "help presets": each preset's waits, formula, library,
// source and where our model differs from it.
func presetsTopic() string {
	var b strings.Builder
	b.WriteString(`Presets: policies with the defaults of libraries people run, as the model says
them. Use one with --policy NAME or --policies a,NAME, or make it your own
policy with --preset NAME (later flags override its settings).

The five: each wait before retry n, with d = min(longest, first x 2^(n-1)):
`)
	s := backoff.Defaults()
	for _, p := range s.Five() {
		b.WriteString(wrapHanging(fmt.Sprintf("  %-13s ", p.Name), strings.Repeat(" ", 16), words.Formula(p)))
	}
	b.WriteString("\n")
	for _, pr := range backoff.Presets() {
		b.WriteString(wrapHanging(pr.Name+": ", "  ", pr.Library))
		b.WriteString(wrapHanging("  ", "    ", pr.Policy.Describe()))
		b.WriteString(wrapHanging("  ", "    ", words.Formula(pr.Policy)))
		b.WriteString(wrapHanging("  ", "    ", "source: "+pr.Source))
		if pr.Differs != "" {
			b.WriteString(wrapHanging("  ", "    ", "differs: "+pr.Differs))
		}
		b.WriteString("\n")
	}
	b.WriteString("Example:\n  retry-planner crowd --policies exponential,grpc,aws,cenkalti --format csv\n")
	return b.String()
}

// wrapHanging is text wrapped at spaces to helpWidth: its first line
// after first, the others after rest.
func wrapHanging(first, rest, text string) string {
	var b strings.Builder
	line := first
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
			line += w
		case len(line)+1+len(w) > helpWidth:
			b.WriteString(line + "\n")
			line = rest + w
		default:
			line += " " + w
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}

// newVersionCommand is "version": the version, from the build.
func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "the version, from the build",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), cmd.Root().Version)
			return err
		},
	}
}
