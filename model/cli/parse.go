package cli

import (
	"bytes"
	"errors"
	"fmt"
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
	// offable is a switch that also takes =false, which turns off what a
	// plan turned on (--drop-expired=false); it is recorded as "false".
	offable bool
}

// switchValueError is a value given to a switch: --plain=yes.
type switchValueError struct {
	name, value string
	offable     bool
}

func (e *switchValueError) Error() string {
	if e.offable {
		return fmt.Sprintf("--%s takes no value but false, got %q: give --%s, or --%s=false to turn off a plan's", e.name, "--"+e.name+"="+e.value, e.name, e.name)
	}
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
		switch {
		case v == "false" && r.offable:
		case v != "true":
			return &switchValueError{r.name, v, r.offable}
		default:
			v = ""
		}
	}
	r.p.uses = append(r.p.uses, flagUse{name: r.name, value: v})
	return nil
}

// flagUse is one flag as given.
type flagUse struct {
	name  string // without dashes
	value string // "" for a switch; "false" for an offable switch turned off
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

// addOffSwitch declares a switch of fs that also takes =false.
func (p *parse) addOffSwitch(fs *pflag.FlagSet, name, usage string) {
	fs.Var(&recorder{p: p, name: name, toggle: true, offable: true}, name, usage)
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
		if c.takes(name) {
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
