// Package quietterm keeps the terminal from being asked anything while the
// program's packages start.
//
// bubbletea v1 asks the terminal for its background colour in its
// package's init (tea_init.go, through lipgloss and termenv), whatever the
// program goes on to do: termenv writes OSC 11 and a cursor position
// query, then waits up to termenv.OSCTimeout, 5 s, for the answer. A
// terminal that answers neither makes every run of the program wait 5 s
// before its first frame (or its report), and termenv's reader takes the
// keys typed meanwhile. termenv asks no terminal whose TERM starts with
// "dumb": this package sets TERM so in its own init, and Restore puts it
// back before anything reads it. The program decides whether the
// background is dark itself (see cli's chooseStyles), without asking.
//
// The package imports only os, so Go initialises it as soon as os is
// (packages are initialised in the order of their import paths, each once
// what it imports is), long before termenv, which waits for
// github.com/rivo/uniseg, a path after this one. TestSilentTerminalFirstFrame
// fails if that ever changes.
package quietterm

import "os"

// term is TERM as the program was started with it; had whether it was set.
var term, had = os.LookupEnv("TERM")

func init() {
	_ = os.Setenv("TERM", "dumb")
}

// Restore puts TERM back as it was. Call it before anything reads TERM:
// lipgloss's colour profile does, the first time a style is drawn.
func Restore() {
	if had {
		_ = os.Setenv("TERM", term)
	} else {
		_ = os.Unsetenv("TERM")
	}
}
