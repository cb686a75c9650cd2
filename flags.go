package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
)

// The command line is read in two stretches. Before a command come --plain,
// --help and the settings flags; the first word that is not a flag is the
// command, and everything after it belongs to the command: its own flags,
// the settings flags again, and its words (the jobs). A flag is written
// --name value or --name=value, with one dash or two; -- ends the flags.
// The settings are checked only once both stretches are read, so
// "--longest 500 crowd --first-wait 100" is as good as its reverse.

// flagSet is the flags one stretch of the command line takes.
type flagSet struct {
	who      string   // "before a command", or the command's name: for messages
	valued   []string // flags that take a value, without dashes
	switches []string // flags that take none
}

// flagUse is one flag as given.
type flagUse struct {
	name  string // without dashes
	value string // "" for a switch
}

// scan reads args against fs. With stopAtWord it stops at the first word
// that is not a flag and returns it and all after it in rest; otherwise the
// words are collected and the flags read on past them. After "--" every
// argument is a word.
func (fs flagSet) scan(args []string, stopAtWord bool) (uses []flagUse, words, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if stopAtWord {
				return uses, words, args[i+1:], nil
			}
			return uses, append(words, args[i+1:]...), nil, nil
		}
		if len(a) < 2 || a[0] != '-' {
			if stopAtWord {
				return uses, words, args[i:], nil
			}
			words = append(words, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if name == "h" && slices.Contains(fs.switches, "help") {
			name = "help"
		}
		switch {
		case slices.Contains(fs.switches, name):
			if hasValue {
				return nil, nil, nil, usagef("--%s takes no value, got %q", name, a)
			}
			uses = append(uses, flagUse{name: name})
		case slices.Contains(fs.valued, name):
			if !hasValue {
				if i+1 == len(args) {
					return nil, nil, nil, usagef("--%s needs a value: %s", name, allowedValue(name))
				}
				i++
				value = args[i]
			}
			uses = append(uses, flagUse{name: name, value: value})
		default:
			return nil, nil, nil, usagef("unknown flag %q: %s takes %s", a, fs.who, fs.list())
		}
	}
	return uses, words, nil, nil
}

// list is the flags of fs for a message: "--format, --seeds and --help".
func (fs flagSet) list() string {
	var names []string
	for _, n := range append(append([]string(nil), fs.valued...), fs.switches...) {
		names = append(names, "--"+n)
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// usagef is a *usageError with a formatted message.
func usagef(format string, a ...any) error {
	return &usageError{msg: fmt.Sprintf(format, a...)}
}

// settingFlag is a settings flag and the setting it sets.
type settingFlag struct {
	name  string
	field backoff.Field
}

// settingFlags are the settings flags in the settings form's order, the
// slot last.
func settingFlags() []settingFlag {
	return []settingFlag{
		{"first-wait", backoff.FirstWait},
		{"longest", backoff.LongestWait},
		{"attempts", backoff.Attempts},
		{"clients", backoff.Clients},
		{"outage", backoff.Outage},
		{"seed", backoff.Seed},
		{"slot", backoff.Slot},
	}
}

func settingNames(withSlot bool) []string {
	var names []string
	for _, sf := range settingFlags() {
		if sf.field != backoff.Slot || withSlot {
			names = append(names, sf.name)
		}
	}
	return names
}

func fieldOf(name string) (backoff.Field, bool) {
	for _, sf := range settingFlags() {
		if sf.name == name {
			return sf.field, true
		}
	}
	return 0, false
}

// settingsDraft gathers the settings flags from both stretches of the
// command line; the last of a repeated flag wins. Each value's form is
// checked as it is read, its range once all are read.
type settingsDraft struct {
	settings backoff.Settings
	typed    map[backoff.Field]string // the value as typed, for messages
}

func newSettingsDraft(s backoff.Settings) settingsDraft {
	return settingsDraft{settings: s, typed: map[backoff.Field]string{}}
}

// take applies u, a settings flag, after checking that its value is a
// number or a time.
func (d *settingsDraft) take(u flagUse) error {
	f, ok := fieldOf(u.name)
	if !ok {
		return usagef("--%s is not a setting", u.name)
	}
	var v int
	if f.IsTime() {
		ms, ok := parseMillis(u.value)
		if !ok {
			return usagef("--%s %s: want %s", u.name, quoteOdd(u.value), d.allowedTime(f))
		}
		v = ms
	} else {
		n, ok := parseNumber(u.value)
		if !ok {
			return usagef("--%s %s: want %s", u.name, quoteOdd(u.value), d.allowed(f))
		}
		v = n
	}
	d.settings.Set(f, v)
	d.typed[f] = u.value
	return nil
}

// has reports whether a flag set field f.
func (d *settingsDraft) has(f backoff.Field) bool {
	_, ok := d.typed[f]
	return ok
}

// check returns the settings, or an error naming the first flag, in the
// form's order, whose value is out of its range.
func (d *settingsDraft) check() (backoff.Settings, error) {
	for _, sf := range settingFlags() {
		typed, ok := d.typed[sf.field]
		if !ok {
			continue
		}
		v := d.settings.Get(sf.field)
		if err := d.settings.Check(sf.field, v); err != nil {
			shown := typed
			if sf.field.IsTime() && typed != strconv.Itoa(v) {
				shown = fmt.Sprintf("%s (%d ms)", typed, v)
			}
			return d.settings, usagef("--%s %s: want %s", sf.name, shown, d.allowed(sf.field))
		}
	}
	return d.settings, nil
}

// allowed is what a settings flag may be: "1 to 10000 ms".
func (d *settingsDraft) allowed(f backoff.Field) string {
	low, high := d.settings.Range(f)
	switch {
	case f == backoff.LongestWait:
		return fmt.Sprintf("%d ms (the first wait) to %d ms", low, high)
	case f.IsTime():
		return fmt.Sprintf("%d to %d ms", low, high)
	}
	return fmt.Sprintf("a whole number from %d to %d", low, high)
}

// allowedTime is what a time flag may be, and how to write it.
func (d *settingsDraft) allowedTime(f backoff.Field) string {
	return "a time of " + d.allowed(f) + ": whole milliseconds (1000) or a duration of whole ms (1s, 250ms)"
}

// allowedValue is what a flag's value may be, for "--x needs a value".
func allowedValue(name string) string {
	if f, ok := fieldOf(name); ok {
		d := newSettingsDraft(backoff.Defaults())
		if f.IsTime() {
			return d.allowedTime(f)
		}
		return d.allowed(f)
	}
	switch name {
	case "format":
		return formatList()
	case "policy":
		return policyList()
	case "client":
		return "a whole number from 1 to the clients"
	case "seeds":
		return fmt.Sprintf("a whole number from 1 to %d", backoff.MaxSeeds)
	}
	return "a value"
}

// numberDigits is the most digits a number may have, as --plain and the
// settings form read one: every range ends below ten million.
const numberDigits = 7

// parseNumber reads a whole number as --plain reads one: 1 to numberDigits
// ASCII digits and nothing else, no sign, no spaces. The one rule for every
// number on the command line, the settings, --seeds and --client.
func parseNumber(v string) (int, bool) {
	return backoff.ParseDigits(v, numberDigits)
}

// parseMillis reads a time: a whole number of milliseconds, as parseNumber
// reads one ("1000"), or a Go duration that is a whole number of them ("1s",
// "250ms", "1.5s"), with no sign: a number has none anywhere else. Ranges are
// checked elsewhere.
func parseMillis(v string) (int, bool) {
	if n, ok := parseNumber(v); ok {
		return n, true
	}
	if strings.HasPrefix(v, "+") || strings.HasPrefix(v, "-") {
		return 0, false // time.ParseDuration takes a sign
	}
	d, err := time.ParseDuration(v)
	if err != nil || d%time.Millisecond != 0 {
		return 0, false
	}
	// Clamped, not wrapped, where int is 32 bits: a time past the range must
	// be refused by the range, not come back as a small one.
	return int(min(d/time.Millisecond, math.MaxInt)), true
}

// quoteOdd quotes a value for a message when it holds anything but letters,
// digits and the marks of a number, so that "" and spaces show.
func quoteOdd(v string) string {
	if v == "" || strings.ContainsFunc(v, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || strings.ContainsRune("-+.:", r))
	}) {
		return strconv.Quote(v)
	}
	return v
}

// parsePolicy reads a policy by its name ("full jitter") or with a hyphen
// for the space ("full-jitter"), which needs no quotes in a shell.
func parsePolicy(v string) (backoff.Shape, error) {
	p, err := backoff.ParseShape(strings.ReplaceAll(v, "-", " "))
	if err != nil {
		return 0, usagef("--policy %s: want %s", strconv.Quote(v), policyList())
	}
	return p, nil
}

func policyList() string {
	return backoff.ShapeList() + " (full-jitter and equal-jitter work too)"
}
