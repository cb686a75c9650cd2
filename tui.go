package main

import (
	"fmt"
	"io"

	"github.com/retryplanner/retry-planner/backoff"
)

// runTUI opens the full-screen program.
func runTUI(_ backoff.Settings, _ io.Reader, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "retry-planner: the full-screen program is not built yet; use --plain")
	return 2
}
