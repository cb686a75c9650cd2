package views

import (
	"encoding/csv"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
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

func TestPolicyTextsNameEveryPolicy(t *testing.T) {
	if want := "policy (" + backoff.ShapeList() + ")> "; PolicyPrompt != want {
		t.Errorf("PolicyPrompt: got %q, want %q", PolicyPrompt, want)
	}
	if want := "Type " + backoff.ShapeList() + "."; PolicyError != want {
		t.Errorf("PolicyError: got %q, want %q", PolicyError, want)
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

func TestFormula(t *testing.T) {
	s := backoff.Defaults()
	want := map[string]string{
		"fixed":         "wait = first",
		"exponential":   "wait = min(longest, first x 2^(n-1))",
		"full jitter":   "wait = random 0 to min(longest, first x 2^(n-1))",
		"equal jitter":  "wait = d/2 + random 0 to d/2, d = min(longest, first x 2^(n-1))",
		"decorrelated":  "wait = min(longest, random first to 3 x the previous wait), the previous starting at first",
		"grpc":          "wait = d - 0.2d to d + 0.2d at random, d = min(longest, first x 1.6^(n-1)) (may pass longest)",
		"client-go":     "wait = d to d + 0.1d at random, d = min(longest, first x 5^(n-1)) (may pass longest)",
		"polly":         "wait = first",
		"retryablehttp": "wait = min(longest, first x 2^(n-1))",
	}
	for name, f := range want {
		p, err := backoff.LookupPolicy(s, name)
		if err != nil {
			t.Fatal(err)
		}
		if got := Formula(p); got != f {
			t.Errorf("%s: got %q, want %q", name, got, f)
		}
	}
}

// A cell a spreadsheet would run as a formula gets a leading ', whatever
// its first character; any other cell is written as it is.
func TestCSVNeutralisesFormulas(t *testing.T) {
	tests := []struct {
		name string
		want string
	}{
		{"=cmd()|calc", "'=cmd()|calc"},
		{"+1+1", "'+1+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"alpha", "alpha"},
		{"a=b", "a=b"},
		{"'quoted", "'quoted"},
		{" =x", " =x"},
	}
	for _, tt := range tests {
		r := ledger.RunAll([]ledger.Job{{Name: tt.name}}, backoff.Defaults())
		doc := JobsCSV(r)
		records, err := csv.NewReader(strings.NewReader(doc)).ReadAll()
		if err != nil || len(records) != 2 {
			t.Fatalf("%q: got %d records, %v; want a header and a row:\n%s", tt.name, len(records), err, doc)
		}
		if got := records[1][0]; got != tt.want {
			t.Errorf("%q: cell got %q, want %q", tt.name, got, tt.want)
		}
	}
	// Every CSV goes through it, the header and the numbers too, which
	// never begin so.
	if got := CrowdCSV(five(t, backoff.Defaults(), false)); strings.Contains(got, "'") {
		t.Errorf("the crowd's CSV: got a quote mark in\n%s", got)
	}
}
