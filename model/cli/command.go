package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/retryplanner/retry-planner/backoff"
)

// The command line is a tree of cobra commands: the root opens the
// full-screen program (or --plain's menu), and each report command prints
// one report. Every flag only records what was typed, in order
// (recorder); once cobra has found the command and read the flags, the
// command's RunE reads them into options, checking each value and naming
// what is wrong in one line (settingsDraft, reportArgs). Nothing runs while
// the line is read: parseArgs returns the options, and Run acts on them.

// parse is one reading of the command line.
type parse struct {
	files files
	uses  []flagUse // every flag, in the order typed
	opts  *options  // what the line asks for; nil after help, --version, completion or man
}

// recorder is a flag's value: it keeps each use, as typed, for the
// command's RunE to read. A switch takes no value.
type recorder struct {
	p      *parse
	name   string
	typ    string // the value's placeholder in help: N, T, FILE, ...
	toggle bool   // a switch (--plain, --force)
}

// switchValueError is a value given to a switch: --plain=yes.
type switchValueError struct{ name, value string }

func (e *switchValueError) Error() string {
	return fmt.Sprintf("--%s takes no value, got %q", e.name, "--"+e.name+"="+e.value)
}

func (r *recorder) String() string { return "" }

// Type is the value's placeholder in help; a switch's is "bool", which
// pflag shows as none.
func (r *recorder) Type() string {
	if r.toggle {
		return "bool"
	}
	return r.typ
}
func (r *recorder) IsBoolFlag() bool {
	return r.toggle
}

func (r *recorder) Set(v string) error {
	if r.toggle {
		if v != "true" {
			return &switchValueError{r.name, v}
		}
		v = ""
	}
	r.p.uses = append(r.p.uses, flagUse{name: r.name, value: v})
	return nil
}

// flagUse is one flag as given.
type flagUse struct {
	name  string // without dashes
	value string // "" for a switch
}

// addFlag declares a flag of fs that records into p.
func (p *parse) addFlag(fs *pflag.FlagSet, name, typ, usage string) {
	fs.Var(&recorder{p: p, name: name, typ: typ}, name, usage)
}

// addSwitch declares a flag of fs that takes no value.
func (p *parse) addSwitch(fs *pflag.FlagSet, name, usage string) {
	fs.Var(&recorder{p: p, name: name, toggle: true}, name, usage)
	fs.Lookup(name).NoOptDefVal = "true"
}

// ordered is the uses in the order they apply: every --plan first, in
// order, then every other flag in order, so that a flag overrides a
// plan's value wherever it stands on the line.
func (p *parse) ordered() []flagUse {
	var plans, rest []flagUse
	for _, u := range p.uses {
		if u.name == "plan" {
			plans = append(plans, u)
		} else {
			rest = append(rest, u)
		}
	}
	return append(plans, rest...)
}

func (p *parse) has(name string) bool {
	return slices.ContainsFunc(p.uses, func(u flagUse) bool { return u.name == name })
}

// newRoot is the command tree, writing its help, completion scripts and
// man page to out.
func newRoot(p *parse, out io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "retry-planner [--plain] [SETTINGS]",
		Short: "How long clients wait between retries, and what a crowd of them does to a service",
		Long: `Retry Planner: how long clients wait between retries, and what a crowd of them
does to a service that comes back after an outage.

With no command it opens the full-screen program (a terminal); --plain runs
the original program's line menu instead, for scripts and pipes. A command
prints one report and exits.`,
		Example: `  retry-planner crowd --clients 50000 --outage 30s --capacity 2000 --load 1500
  retry-planner crowd --policies grpc,aws --seeds 100 --format json
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
	root.InitDefaultHelpFlag()
	root.InitDefaultVersionFlag()
	root.Flags().Lookup("version").Usage = "the version, from the build"
	p.addSettingsFlags(root.PersistentFlags())
	for _, c := range reportCommands() {
		root.AddCommand(p.newReportCommand(c))
	}
	root.AddCommand(newVersionCommand(), newManCommand(root))
	addTopics(root)
	root.SetHelpCommand(newHelpCommand(root))
	root.SetFlagErrorFunc(p.flagError)
	root.SetUsageTemplate(usageTemplate)
	root.SetHelpTemplate(helpTemplate)
	root.CompletionOptions.HiddenDefaultCmd = false
	addCompletions(root)
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

// flagError turns pflag's errors into the program's one line: the flag,
// where it belongs or the nearest name, and what the command takes.
func (p *parse) flagError(cmd *cobra.Command, err error) error {
	var missing *pflag.NotExistError
	var needs *pflag.ValueRequiredError
	var invalid *pflag.InvalidValueError
	var sw *switchValueError
	switch {
	case errors.As(err, &sw):
		return usagef("%s", sw.Error())
	case errors.As(err, &missing):
		if short := missing.GetSpecifiedShortnames(); short != "" {
			return unknownShort(cmd, short)
		}
		return unknownFlag(cmd, missing.GetSpecifiedName())
	case errors.As(err, &needs):
		name := needs.GetSpecifiedName()
		limits := backoff.WideLimits
		if p.has("plain") {
			limits = backoff.PlainLimits
		}
		allowed := allowedValue(name, limits)
		if c, ok := findCommand(cmd.Name()); ok && name == "format" && c.pictures {
			allowed = pictureFormatList()
		}
		return usagef("--%s needs a value: %s", name, allowed)
	case errors.As(err, &invalid) && invalid.GetFlag().Value.Type() == "bool":
		return usagef("--%s takes no value, got %q", invalid.GetFlag().Name, "--"+invalid.GetFlag().Name+"="+invalid.GetValue())
	case errors.As(err, &invalid):
		return usagef("--%s %s: %v", invalid.GetFlag().Name, quoteOdd(invalid.GetValue()), errors.Unwrap(err))
	}
	return usagef("%s", oneLine(err.Error()))
}

// unknownShort is the message for one dash and letters that are no flag:
// a long flag written with one dash, or letters that are none.
func unknownShort(cmd *cobra.Command, letters string) error {
	if cmd.Flags().Lookup(letters) != nil {
		return usagef("unknown flag %q: a flag's name takes two dashes, --%s", "-"+letters, letters)
	}
	return usagef("unknown flag %q: %s takes %s", "-"+letters, who(cmd), takes(cmd))
}

// unknownFlag is the message for a flag cmd does not take.
func unknownFlag(cmd *cobra.Command, name string) error {
	var owners []string
	for _, c := range reportCommands() {
		if slices.Contains(c.flags, name) || slices.Contains(c.switches, name) || name == "format" {
			owners = append(owners, c.name)
		}
	}
	if name == "plain" && cmd.HasParent() {
		return usagef("--plain runs the original program's line menu and takes no command, got %q; drop one of them", cmd.Name())
	}
	if len(owners) > 0 && !cmd.HasParent() {
		return usagef("flag %q goes after a command, %s: %s takes %s", "--"+name, orList(owners), who(cmd), takes(cmd))
	}
	if len(owners) > 0 {
		return usagef("flag %q is for %s, not %s: it takes %s", "--"+name, orList(owners), cmd.Name(), takes(cmd))
	}
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if near := nearest(name, names); near != "" {
		return usagef("unknown flag %q (did you mean --%s?): %s takes %s", "--"+name, near, who(cmd), takes(cmd))
	}
	return usagef("unknown flag %q: %s takes %s", "--"+name, who(cmd), takes(cmd))
}

// who names cmd in a message.
func who(cmd *cobra.Command) string {
	if !cmd.HasParent() {
		return "retry-planner"
	}
	return cmd.Name()
}

// takes is what cmd takes, for a message: its own flags, then the settings
// flags as one item.
func takes(cmd *cobra.Command) string {
	if c, ok := findCommand(cmd.Name()); ok && cmd.HasParent() {
		return commandTakes(c)
	}
	return andList([]string{"--plain", "--help", "--version", settingsItem})
}

// settingsItem is the settings flags as one item of a list.
const settingsItem = "the settings flags (see retry-planner help settings)"

// commandList is the report commands by name, for a message.
func commandList() string {
	var names []string
	for _, c := range reportCommands() {
		names = append(names, c.name)
	}
	return orList(names)
}

// parseArgs reads the command line with the process's files.
func parseArgs(args []string) (options, error) { return parseArgsIn(osFiles{}, args) }

// textRequest is a command line that asks for text and nothing else: help,
// the version, a completion script or the man page.
type textRequest struct{ text string }

func (*textRequest) Error() string { return "text requested" }

// parseArgsIn reads the command line, reading plans, and looking for files
// a report would overwrite, in fsys: the options it asks for, a
// *textRequest, or a *usageError.
func parseArgsIn(fsys files, args []string) (options, error) {
	p := &parse{files: fsys}
	var out bytes.Buffer
	root := newRoot(p, &out)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	var uerr *usageError
	switch {
	case errors.As(err, &uerr):
		return options{}, err
	case err != nil:
		// cobra's own refusals: a command it cannot find, an argument it
		// does not take.
		return options{}, usagef("%s (see %s --help)", oneLine(err.Error()), cmd.CommandPath())
	case p.opts == nil:
		return options{}, &textRequest{text: out.String()}
	}
	return *p.opts, nil
}

// root reads the line of the full-screen program or --plain.
func (p *parse) root() error {
	plain := p.has("plain")
	draft := newSettingsDraft(backoff.Defaults(), p.files)
	if plain {
		draft.limits = backoff.PlainLimits
	}
	draft.tui = !plain
	for _, u := range p.ordered() {
		if u.name != "plain" {
			if err := draft.take(u); err != nil {
				return err
			}
		}
	}
	limits := backoff.WideLimits
	if plain {
		limits = backoff.PlainLimits
	}
	s, err := draft.check(limits)
	if err != nil {
		return err
	}
	opts := options{plain: plain, settings: s}
	if !plain {
		opts.tui = newTUIStart(&draft, s)
	}
	p.opts = &opts
	return nil
}

// report reads the line of a report command: words are its words (the
// jobs).
func (p *parse) report(c reportCommand, words []string) error {
	draft := newSettingsDraft(backoff.Defaults(), p.files)
	ra := reportArgs{cmd: c, report: report{command: c.name, format: "text", client: 1}}
	for _, u := range p.ordered() {
		if err := ra.take(u, &draft); err != nil {
			return err
		}
	}
	if c.jobs {
		jobs, err := readJobs(words)
		if err != nil {
			return err
		}
		ra.report.jobs = jobs
	} else if len(words) > 0 {
		return usagef("%s takes no arguments but flags, got %q; it takes %s", c.name, words[0], commandTakes(c))
	}
	s, err := draft.check(backoff.WideLimits)
	if err != nil {
		return err
	}
	r, err := ra.finish(s, &draft)
	if err != nil {
		return err
	}
	p.opts = &options{settings: r.settings, rest: []string{c.name}, report: r}
	return nil
}

// commandTakes is a report command's flags, for a message.
func commandTakes(c reportCommand) string {
	var names []string
	for _, n := range append(append(slices.Clone(c.flags), "format"), c.switches...) {
		names = append(names, "--"+n)
	}
	return andList(append(names, settingsItem))
}

// newReportCommand is a report command.
func (p *parse) newReportCommand(c reportCommand) *cobra.Command {
	h := commandHelps[c.name]
	cmd := &cobra.Command{
		Use:                   h.use,
		DisableFlagsInUseLine: true,
		Short:                 h.short,
		Long:                  h.long,
		Example:               h.example,
		Args:                  cobra.ArbitraryArgs,
		// The settings flags apply: its help says so.
		Annotations: map[string]string{"settings": "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			return p.report(c, args)
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	for _, f := range commandFlagHelp(c) {
		if f.toggle {
			p.addSwitch(fs, f.name, f.usage)
		} else {
			p.addFlag(fs, f.name, f.typ, f.usage)
		}
	}
	return cmd
}

func init() {
	// Commands take any case, as every name on the command line does
	// (CROWD, --format JSON, --policy Full_Jitter).
	cobra.EnableCaseInsensitive = true
}
