// Command retry-planner shows how long clients wait between retries under
// five policies, and what a crowd of them does to a service that comes back
// after an outage.
package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/model"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "--plain" {
		echo := true
		if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			echo = false
		}
		if err := model.NewPlain(stdin, stdout, echo, backoff.Defaults()).Run(); err != nil {
			return 0
		}
		return 0
	}
	fmt.Fprintln(stderr, "usage: retry-planner --plain")
	return 2
}
