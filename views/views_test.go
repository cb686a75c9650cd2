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

func TestCrowdBest(t *testing.T) {
	best := CrowdBest(five(t, backoff.Defaults(), false))
	want := map[[2]int]bool{
		{int(backoff.Decorrelated), colRetries}: true,
		{int(backoff.Decorrelated), colMost}:    true,
		{int(backoff.Exponential), colThrough}:  true,
		{int(backoff.Exponential), colGaveUp}:   true,
		{int(backoff.EqualJitter), colGaveUp}:   true,
	}
	for p := range best {
		for col := range best[p] {
			if got := best[p][col]; got != want[[2]int{p, col}] {
				t.Errorf("%v, column %d: got best %v, want %v", backoff.Shape(p), col, got, !got)
			}
		}
	}
	// All alike is no best: with a first wait of 100 ms every policy makes
	// 1000 retries.
	s := backoff.Defaults()
	s.FirstWait = 100
	for p, row := range CrowdBest(five(t, s, false)) {
		if row[colRetries] {
			t.Errorf("%v: retries picked out although all five are 1000", backoff.Shape(p))
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

// Every view copes with any width, 0 included, and keeps its lines within it.
func TestViewsFitAnyWidth(t *testing.T) {
	st := DefaultStyles()
	s := backoff.Defaults()
	crowds := five(t, s, false)
	bySecond := s
	bySecond.Slot = 1000
	perSecond := five(t, bySecond, true)
	jobs, err := ledger.Parse("alpha:0 bravo:2 charlie:9 delta:fatal")
	if err != nil {
		t.Fatal(err)
	}
	report := ledger.RunAll(jobs, s)
	client := ClientData{Policy: backoff.Decorrelated, Client: 1, Clients: 200, Outage: s.Outage, Schedule: scheduleOf(backoff.Decorrelated, s, 1)}
	for w := 0; w <= 130; w++ {
		views := map[string]string{
			"header":   Header(2, w, st),
			"policies": PolicyRow(backoff.FullJitter, w, st),
			"client":   ClientHead(client, w, st) + "\n" + ClientBody(client, w, 30, st),
			"strip":    TimelineStrip(client.Schedule.Retries, client.Outage, w, st),
			"crowd":    CrowdPane(s, crowds, w, st),
			"head":     TimelineHead(TimelineData{Crowds: perSecond, Outage: s.Outage}, w, st),
			"bars":     TimelineBody(TimelineData{Crowds: perSecond, Policy: backoff.EqualJitter, Outage: s.Outage}, w, st),
			"all":      TimelineBody(TimelineData{Crowds: perSecond, All: true, Outage: s.Outage}, w, st),
			"jobs":     JobsBody(report, w, st),
			"summary":  JobsSummary(report, w, st),
			"settings": SettingsSummary(s, w, st),
			"small":    TooSmall(w, 10, 50, 14, st),
			"hint":     ScrollHint(3, 10, 40, w, "↑/↓, pgup/pgdn", st),
		}
		for name, v := range views {
			for i, l := range strings.Split(v, "\n") {
				if n := ansi.StringWidth(l); n > w {
					t.Fatalf("%s at width %d: line %d is %d wide: %q", name, w, i, n, l)
				}
			}
			if w == 0 && strings.TrimSpace(v) != "" {
				t.Errorf("%s at width 0: got %q, want nothing", name, v)
			}
		}
	}
}

// The figures on screen are --plain's: the crowd table's full jitter row.
func TestCrowdPaneFigures(t *testing.T) {
	s := backoff.Defaults()
	out := CrowdPane(s, five(t, s, false), 100, DefaultStyles())
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "full jitter") {
			row = l
		}
	}
	if got := strings.Fields(row); strings.Join(got, " ") != "full jitter 962 28 400 ms 24563 ms 36" {
		t.Errorf("full jitter row: got %q, want 962 / 28 / 400 ms / 24563 ms / 36", row)
	}
	if !strings.Contains(out, "here 28, 44 and 15 against 200.") {
		t.Error("the first sentence is missing or wrong")
	}
	if !strings.Contains(out, "36 and 0 clients gave up") {
		t.Error("the second sentence is missing or wrong")
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

// Attempt 1 is always down, as in the core, where every client fails at
// 0 ms; with an outage of 0 ms the first retry, attempt 2, gets through.
func TestClientLandingOutageZero(t *testing.T) {
	st := DefaultStyles()
	s := backoff.Defaults()
	s.Outage = 0
	sched := scheduleOf(backoff.Exponential, s, 1)
	d := ClientData{Policy: backoff.Exponential, Client: 1, Clients: s.Clients, Outage: 0, Schedule: sched}
	rows := scheduleRows(d)
	want := []string{"× down", "✓ gets through"}
	for range rows[2:] {
		want = append(want, "○ not needed")
	}
	for i, r := range rows {
		if r[3] != want[i] {
			t.Errorf("attempt %s: got %q, want %q", r[0], r[3], want[i])
		}
	}
	strip := TimelineStrip(sched.Retries, 0, 60, st)
	line := []rune(strings.Split(strip, "\n")[0])
	if line[0] != '×' {
		t.Errorf("strip at 0 ms: got %q, want ×: %s", line[0], strip)
	}
	// The first retry is at 1000 ms of a strip that ends at 31000 ms.
	if at := 1000 * 59 / sched.DrawnTotal(); line[at] != '✓' {
		t.Errorf("strip at 1000 ms (column %d): got %q, want ✓: %s", at, line[at], strip)
	}
	if got := strings.Count(string(line), "✓"); got != 1 {
		t.Errorf("strip: %d ✓, want 1: %s", got, strip)
	}
	legend := strings.Split(strip, "\n")[2]
	if !strings.Contains(legend, "× down") || !strings.Contains(legend, "✓ gets through") {
		t.Errorf("legend: got %q, want × down and ✓ gets through", legend)
	}
}

// Attempt 1 keeps the strip's first column, as × down, even when a retry
// comes so soon after it that it would share the column: with an outage of
// 0 ms, full jitter's first retry at 152 ms gets through.
func TestStripKeepsAttemptOne(t *testing.T) {
	st := DefaultStyles()
	s := backoff.Defaults()
	s.Outage = 0
	for _, p := range backoff.Shapes() {
		sched := scheduleOf(p, s, 1)
		for _, w := range []int{3, 50, 80, 100} {
			line := []rune(strings.Split(TimelineStrip(sched.Retries, 0, w, st), "\n")[0])
			if line[0] != '×' {
				t.Errorf("%v at width %d: column 0 is %q, want ×: %s", p, w, line[0], string(line))
			}
			if got := strings.Count(string(line), "✓"); got != 1 {
				t.Errorf("%v at width %d: %d ✓, want 1: %s", p, w, got, string(line))
			}
		}
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
