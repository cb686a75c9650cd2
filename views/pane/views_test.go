package pane

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/retryplanner/retry-planner/backoff"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

func TestBar(t *testing.T) {
	tests := []struct {
		n, most, width int
		want           string
		cells          int
	}{
		{200, 200, 4, "████", 4},
		{100, 200, 4, "██", 2},
		{1, 200, 4, "▏", 1}, // never less than an eighth
		{0, 200, 4, "", 0},
		{3, 8, 1, "▍", 1},
		{5, 8, 2, "█▎", 2},
		{7, 8, 1, "▉", 1},
		{9, 8, 1, "█", 1}, // never past the width
		{5, 0, 3, "", 0},
		{5, 5, 0, "", 0},
		{5, 5, -3, "", 0},
	}
	for _, tt := range tests {
		got, cells := Bar(tt.n, tt.most, tt.width)
		if got != tt.want || cells != tt.cells {
			t.Errorf("Bar(%d, %d, %d): got %q, %d cells, want %q, %d cells", tt.n, tt.most, tt.width, got, cells, tt.want, tt.cells)
		}
		if w := ansi.StringWidth(got); w != cells {
			t.Errorf("Bar(%d, %d, %d): %q is %d cells wide, but says %d", tt.n, tt.most, tt.width, got, w, cells)
		}
	}
}

func TestClipHeight(t *testing.T) {
	tests := []struct {
		s    string
		h    int
		want string
	}{
		{"a\nb\nc", 2, "a\nb"},
		{"a", 3, "a\n\n"},
		{"a\nb", 2, "a\nb"},
		{"a", 0, ""},
		{"", 1, ""},
	}
	for _, tt := range tests {
		if got := ClipHeight(tt.s, tt.h); got != tt.want {
			t.Errorf("ClipHeight(%q, %d): got %q, want %q", tt.s, tt.h, got, tt.want)
		}
	}
}

// Colours follow the terminal's background: the same style gives another
// colour on a light terminal than on a dark one, and none without colour.
func TestAdaptiveColours(t *testing.T) {
	defer func() {
		lipgloss.SetColorProfile(termenv.Ascii)
		lipgloss.SetHasDarkBackground(true)
	}()
	lipgloss.SetColorProfile(termenv.ANSI)
	render := func(st *Styles, dark bool) string {
		lipgloss.SetHasDarkBackground(dark)
		return st.Bar.Render("█")
	}
	dark, light := render(DefaultStyles(), true), render(DefaultStyles(), false)
	if dark == light || !strings.Contains(dark, "\x1b[") || !strings.Contains(light, "\x1b[") {
		t.Errorf("bar on dark %q and on light %q: want two different colours", dark, light)
	}
	if got := render(NoColorStyles(), true); got != "█" {
		t.Errorf("bar without colour: got %q, want no escape codes", got)
	}
}

// five is the five shapes' crowds under s, with their series when asked.
func five(t testing.TB, s backoff.Settings, series bool) []backoff.Result {
	t.Helper()
	results, err := backoff.RunAll(s.Five(), s, backoff.Options{Series: series}, 2)
	if err != nil {
		t.Fatal(err)
	}
	return results
}

// scheduleOf is client's schedule under shape sh.
func scheduleOf(sh backoff.Shape, s backoff.Settings, client int) backoff.Schedule {
	return backoff.ScheduleOf(s.Policy(sh), s, client)
}
