// Command retry-planner shows how long clients wait between retries under
// five policies, and what a crowd of them does to a service that comes back
// after an outage.
//
// With no arguments it opens the full-screen program; --plain runs the
// line-oriented menu for scripts and pipes; a report command (schedule,
// crowd, timeline, jobs) prints one report as text, CSV or JSON and exits.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/model"
)

func main() {
	// A reader that goes away (| head) makes a write fail with EPIPE instead
	// of killing the process, so that every mode can end quietly.
	signal.Ignore(syscall.SIGPIPE)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// options are what the command line asks for.
type options struct {
	plain    bool
	settings backoff.Settings
	rest     []string // a report command and its arguments, if any
	report   report   // rest, read and checked
}

// usageError is a command line the program cannot run: one line on standard
// error, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// parseArgs reads the command line (see flags.go): the flags before a
// command, then the command's stretch, then the settings' ranges.
func parseArgs(args []string) (options, error) {
	opts := options{settings: backoff.Defaults()}
	draft := newSettingsDraft(opts.settings)
	global := flagSet{who: "before a command, retry-planner", valued: settingNames(true), switches: []string{"plain", "help"}}
	uses, _, rest, err := global.scan(args, true)
	if err != nil {
		return opts, err
	}
	for _, u := range uses {
		if u.name == "help" {
			return opts, &helpRequest{}
		}
	}
	for _, u := range uses {
		if u.name == "plain" {
			opts.plain = true
		} else if err := draft.take(u); err != nil {
			return opts, err
		}
	}
	opts.rest = rest
	var ra reportArgs
	if len(rest) > 0 {
		if opts.plain && rest[0] != "help" {
			return opts, usagef("--plain runs the menu and takes no command, got %q; drop one of them", rest[0])
		}
		if ra, err = readReport(rest, &draft); err != nil {
			return opts, err
		}
	}
	if opts.settings, err = draft.check(); err != nil {
		return opts, err
	}
	if len(rest) > 0 {
		opts.report, err = ra.finish(opts.settings, draft.has(backoff.Slot))
	}
	return opts, err
}

// run is the whole program, minus the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := parseArgs(args)
	var help *helpRequest
	if errors.As(err, &help) {
		_, err := io.WriteString(stdout, commandHelp(help.topic))
		return writeStatus(err, "the help", stderr)
	}
	var uerr *usageError
	if errors.As(err, &uerr) {
		fmt.Fprintf(stderr, "retry-planner: %s\n", uerr.msg)
		return 2
	}
	switch {
	case opts.plain:
		return runPlain(opts.settings, stdin, stdout, stderr)
	case len(opts.rest) > 0:
		return runReport(opts.report, opts.settings, stdout, stderr)
	default:
		return runTUI(opts.settings, stdin, stdout, stderr)
	}
}

// runPlain runs the line menu. Answers are echoed after their prompts unless
// a terminal already echoes them. The session stops at the first write that
// fails.
func runPlain(s backoff.Settings, stdin io.Reader, stdout, stderr io.Writer) int {
	echo := !isTerminal(stdin)
	return writeStatus(model.NewPlain(stdin, stdout, echo, s).Run(), "the screen", stderr)
}

// writeStatus is the exit status after writing what: 0 when it was written
// or when the reader went away (a closed pipe, as with | head: it asked for
// no more, so that is no failure); otherwise 1, with the error on standard
// error.
func writeStatus(err error, what string, stderr io.Writer) int {
	if err == nil || errors.Is(err, syscall.EPIPE) {
		return 0
	}
	fmt.Fprintf(stderr, "retry-planner: writing %s: %v\n", what, err)
	return 1
}

func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}
