// Command retry-planner shows how long clients wait between retries under
// the policies real libraries use, and what a crowd of them does to a
// service that comes back after an outage.
//
// With no arguments it opens the full-screen program; --plain runs the
// original program's line menu; a command (schedule, crowd, timeline,
// jobs) prints one report and exits. retry-planner help tells the rest.
package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/retryplanner/retry-planner/model/cli"
)

func main() {
	// A reader that goes away (| head) makes a write fail with EPIPE instead
	// of killing the process, so that every mode can end quietly.
	signal.Ignore(syscall.SIGPIPE)
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
