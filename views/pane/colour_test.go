package pane

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/retryplanner/retry-planner/backoff"
)

// One pane in colour: the crowd pane setting a run with a service (B)
// against one without (A), at 100 columns, in 256 colours on a dark
// background. Every other golden is in Ascii, where a style lost or
// changed (a mark's colour, the better and worse of a change, bold, faint)
// shows as nothing; here it changes the golden. The profile is set only
// for this test: TestMain's Ascii is put back after.
//
//	go test ./views/pane -run TestCrowdPaneInColour -update
func TestCrowdPaneInColour(t *testing.T) {
	plainText := func() string {
		s := backoff.Defaults()
		served := s
		served.Capacity, served.Load, served.Budget = 500, 100, backoff.Budget{Kind: backoff.BudgetGRPC, A: 10, B: 100}
		a := six(t, s, 0)
		return CrowdPane(CrowdData{B: six(t, served, 0), A: &a}, 100, DefaultStyles())
	}
	ascii := plainText()
	lipgloss.SetColorProfile(termenv.ANSI256)
	lipgloss.SetHasDarkBackground(true)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	colour := plainText()
	// The better and the worse of a change: bold bright green and red.
	if !strings.Contains(colour, "\x1b[1;92m") || !strings.Contains(colour, "\x1b[1;91m") {
		t.Fatalf("got no colours for better and worse in:\n%q", colour)
	}
	if got := ansi.Strip(colour); got != ascii {
		t.Errorf("in colour, without its escapes, the pane reads\n%s\nwant what it reads in Ascii:\n%s", got, ascii)
	}
	golden.RequireEqualEscape(t, []byte(colour), true)
}
