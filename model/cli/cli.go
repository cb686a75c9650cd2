// Package cli is the command line: it reads the arguments into settings
// and runs what they ask for, the full-screen program, --plain's line menu
// or one report.
package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"syscall"

	"golang.org/x/term"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/model"
	"github.com/retryplanner/retry-planner/model/cli/quietterm"
	"github.com/retryplanner/retry-planner/views/words"
)

// options are what the command line asks for.
type options struct {
	plain    bool
	settings backoff.Settings
	rest     []string  // a report command and its arguments, if any
	report   report    // rest, read and checked
	tui      tuiStart  // for the full-screen program: what it starts with beside the settings
	limits   runLimits // the ceilings of memory and time a run must stay under
}

// usageError is a command line the program cannot run: one line on standard
// error, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// Run is the whole program, minus the process: it returns the exit status.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	quietterm.Restore() // TERM as the program was given it (see quietterm)
	opts, err := parseArgs(args)
	var text *textRequest
	var uerr *usageError
	switch {
	case errors.As(err, &text):
		_, err := io.WriteString(stdout, text.text)
		return writeStatus(err, "the help", stderr)
	case errors.As(err, &uerr):
		fmt.Fprintf(stderr, "retry-planner: %s\n", uerr.msg)
		return 2
	}
	switch {
	case opts.plain:
		return runPlain(opts.settings, stdin, stdout, stderr)
	case len(opts.rest) > 0:
		return runReport(opts.report, opts.limits, stdout, stderr)
	default:
		return runTUI(opts, stdin, stdout, stderr)
	}
}

// versionLine is "retry-planner VERSION" from the build information: the
// module's version ("(devel)" when built from a checkout), then the
// revision it was built from and whether the checkout had changes, when the
// build recorded them.
// readBuildInfo is the binary's build information, for versionLine.
func readBuildInfo() (*debug.BuildInfo, bool) { return debug.ReadBuildInfo() }

func versionLine(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "retry-planner (unknown version: built without module information)"
	}
	line := "retry-planner " + cmp.Or(info.Main.Version, "(devel)")
	var revision, modified string
	for _, bs := range info.Settings {
		switch bs.Key {
		case "vcs.revision":
			revision = bs.Value
		case "vcs.modified":
			modified = bs.Value
		}
	}
	if revision != "" {
		line += ", revision " + revision
		if modified == "true" {
			line += " (modified)"
		}
	}
	return line
}

// runPlain runs the line menu. Answers are echoed after their prompts unless
// a terminal already echoes them. The session stops at the first write that
// fails.
func runPlain(s backoff.Settings, stdin io.Reader, stdout, stderr io.Writer) int {
	echo := !isTerminal(stdin)
	err := model.NewPlain(stdin, stdout, echo, s).Run()
	var in *model.InputError
	if errors.As(err, &in) {
		fmt.Fprintf(stderr, "retry-planner: reading standard input: %s\n", words.FileReason(in.Err, "no such file"))
		return 1
	}
	return writeStatus(err, "the screen", stderr)
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
