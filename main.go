// Command retry-planner shows how long clients wait between retries under
// five policies, and what a crowd of them does to a service that comes back
// after an outage.
//
// With no arguments it opens the full-screen program; --plain runs the
// line-oriented menu for scripts and pipes.
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
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// options are what the command line asks for.
type options struct {
	plain    bool
	settings backoff.Settings
	rest     []string // a report command and its arguments, if any
}

// usageError is a command line the program cannot run: one line on standard
// error, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func parseArgs(args []string) (options, error) {
	opts := options{settings: backoff.Defaults()}
	for i, a := range args {
		switch a {
		case "--plain", "-plain":
			opts.plain = true
		case "--help", "-help", "-h":
			return opts, errHelp
		default:
			opts.rest = args[i:]
			return opts, nil
		}
	}
	return opts, nil
}

var errHelp = errors.New("help")

const usage = `Retry Planner: how long clients wait between retries, and what a crowd of them
does to a service that comes back after an outage.

Usage:
  retry-planner           the full-screen program (needs a terminal)
  retry-planner --plain   the line-oriented menu, for scripts and pipes
`

// run is the whole program, minus the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := parseArgs(args)
	if errors.Is(err, errHelp) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	var uerr *usageError
	if errors.As(err, &uerr) {
		fmt.Fprintf(stderr, "retry-planner: %s\n", uerr.msg)
		return 2
	}
	switch {
	case opts.plain:
		return runPlain(opts.settings, stdin, stdout)
	case len(opts.rest) > 0:
		fmt.Fprintf(stderr, "retry-planner: unknown argument %q; try --help\n", opts.rest[0])
		return 2
	default:
		return runTUI(opts.settings, stdin, stdout, stderr)
	}
}

// runPlain runs the line menu. Answers are echoed after their prompts unless
// a terminal already echoes them. A reader that goes away (| head) ends the
// session quietly: SIGPIPE is ignored so the failed write comes back as an
// error, and the session stops at it.
func runPlain(s backoff.Settings, stdin io.Reader, stdout io.Writer) int {
	signal.Ignore(syscall.SIGPIPE)
	echo := !isTerminal(stdin)
	// Run fails only when the screen cannot be written: no one is left to
	// tell, and the session has already stopped.
	_ = model.NewPlain(stdin, stdout, echo, s).Run()
	return 0
}

func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}
