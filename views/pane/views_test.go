package pane

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
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

// brokenJoin is the first place in text where a line ends between two
// words words.Keeps together (a number and its unit; a legend's mark, one
// of the panes' own, and its word) or at a hyphen inside a word; "" if
// none. A table's cell that ends in a mark ("-!") is no legend's.
func brokenJoin(text string) string {
	legendMarks := []string{BestMark, WorstMark, OverloadedMark, NotJudgedMark, BetterMark, WorseMark, MedianMark, P95Mark, WorstBox}
	lines := strings.Split(ansi.Strip(text), "\n")
	for i := 0; i+1 < len(lines); i++ {
		end := strings.Fields(lines[i])
		next := strings.Fields(lines[i+1])
		if len(end) == 0 || len(next) == 0 {
			continue
		}
		last := end[len(end)-1]
		// Only a mark keeps any word after it, "a" among them; a table's
		// row, its cells two spaces apart or more, ends in a change's mark
		// as it may.
		isMark, table := words.Keeps(last, "a"), strings.Contains(strings.TrimSpace(lines[i]), "  ")
		if words.Keeps(last, next[0]) && (!isMark || slices.Contains(legendMarks, last) && !table) {
			return fmt.Sprintf("line %d ends %q, line %d starts %q", i+1, last, i+2, next[0])
		}
		if r := []rune(last); len(r) > 1 && r[len(r)-1] == '-' && unicode.IsLetter(r[len(r)-2]) {
			return fmt.Sprintf("line %d ends in a hyphen: %q", i+1, last)
		}
	}
	return ""
}

// Issue 24, item 10: prose never breaks between a number and its unit, a
// legend's mark and its word, or at a hyphen.
func TestWrapKeepsNumbersWithTheirUnits(t *testing.T) {
	tests := []struct {
		text string
		w    int
		want string
	}{
		// ansi.Wrap gave "recovers at 40\ns".
		{"recovers at 40 s", 15, "recovers at\n40 s"},
		{"recovers 2 min 5 s after", 14, "recovers\n2 min 5 s\nafter"},
		{"with --goal not-through<=1%", 18, "with --goal\nnot-through<=1%"},
		{"* the best of its column", 6, "* the\nbest\nof its\ncolumn"},
		{"the worst, ! the worst", 11, "the worst,\n! the worst"},
		{"  indented, 600 ms", 12, "  indented,\n600 ms"},
		{"a longwordthatdoesnotfit here", 10, "a\nlongwordth\natdoesnotf\nit here"},
		{"", 10, ""},
		{"two  spaces kept", 40, "two  spaces kept"},
	}
	for _, tt := range tests {
		if got := Wrap(tt.text, tt.w); got != tt.want {
			t.Errorf("Wrap(%q, %d): got %q, want %q", tt.text, tt.w, got, tt.want)
		}
	}
	st := DefaultStyles()
	s := backoff.Defaults()
	service := s
	service.Clients, service.Capacity, service.Load = 2000, 300, 100
	queued := service
	queued.Queue, queued.Timeout = 500, 2000
	for _, sc := range []backoff.Settings{s, service, queued} {
		d := six(t, sc, 0)
		for _, w := range []int{80, 120} {
			if where := brokenJoin(CrowdPane(CrowdData{B: d}, w, st)); where != "" {
				t.Errorf("pane 2 at %d columns, %s", w, where)
			}
		}
	}
}

// Issue 24, item 10, across the whole program: no golden of the
// full-screen program (every pane, the help, the forms, at 80x24, 120x40
// and the rest) nor of a pane breaks a line between a number and its
// unit, a legend's mark and its word, or at a hyphen.
func TestNoGoldenBreaksAJoin(t *testing.T) {
	var files []string
	for _, pattern := range []string{"testdata/*.golden", "../../model/testdata/*.golden", "../../model/testdata/*/*.golden"} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, found...)
	}
	if len(files) < 100 {
		t.Fatalf("found %d goldens, want the program's", len(files))
	}
	for _, name := range files {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if where := brokenJoin(string(text)); where != "" {
			t.Errorf("%s: %s", name, where)
		}
	}
}
