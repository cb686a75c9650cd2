package pane

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
)

// six is the six policies' run under s, its series kept, and its spread
// over seeds seeds.
func six(t testing.TB, s backoff.Settings, seeds int) RunData {
	t.Helper()
	ps := append(s.Five(), s.Custom())
	results, err := backoff.RunAll(ps, s, backoff.Options{Series: true}, 2)
	if err != nil {
		t.Fatal(err)
	}
	d := RunData{Settings: s, Policies: ps, Crowds: results, Seeds: seeds, SpreadDraws: backoff.Independent}
	if seeds > 0 {
		sp := s
		sp.Draws = backoff.Independent
		sc, err := backoff.RunSeeds(ps, sp, seeds, backoff.SeedOptions{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		d.Spread = &sc
	}
	return d
}

// The best of a column and, where it is marked, the worst; ties are all
// marked; a column where all are alike has neither.
func TestMarks(t *testing.T) {
	d := six(t, backoff.Defaults(), 0)
	cols := paneCrowdColumns()
	mk := marks(d.Crowds, cols)
	name := func(c int) string { return cols[c].head }
	want := map[[2]int]int{
		{int(backoff.Decorrelated), 0}: 1, // fewest retries
		{int(backoff.Decorrelated), 2}: 1, // lowest busiest slot
		{int(backoff.Exponential), 4}:  1, // fewest gave up, with equal jitter and custom
		{int(backoff.EqualJitter), 4}:  1,
		{5, 4}:                         1,
	}
	for p := range mk {
		for c := range mk[p] {
			if got := mk[p][c]; got != want[[2]int{p, c}] {
				t.Errorf("%s, %s: got mark %d, want %d", d.Policies[p].Name, name(c), got, want[[2]int{p, c}])
			}
		}
	}
	// All alike is no mark: with a first wait of 100 ms every policy makes
	// 1000 retries.
	s := backoff.Defaults()
	s.FirstWait = 100
	for p, row := range marks(six(t, s, 0).Crowds, cols) {
		if row[0] != 0 {
			t.Errorf("%d: retries marked %d although all are 1000", p, row[0])
		}
	}
	// The service's worst: the latest stable, and the one still overloaded.
	s = backoff.Defaults()
	s.Capacity, s.Load = 100, 150 // more load than it serves: still overloaded
	sd := six(t, s, 0)
	scols := serviceColumns(sd)
	smk := marks(sd.Crowds, scols)
	for c, col := range scols {
		if col.head != "stable from" && col.head != "still overloaded" {
			continue
		}
		worst := 0
		for p := range smk {
			if smk[p][c] == -1 {
				worst++
			}
		}
		if worst == 0 {
			t.Errorf("%s: no policy marked the worst: %v", col.head, smk)
		}
	}
}

// Every view copes with any width, 0 included, and keeps its lines within
// it.
func TestViewsFitAnyWidth(t *testing.T) {
	st := DefaultStyles()
	s := backoff.Defaults()
	run := six(t, s, 20)
	served := s
	served.Capacity, served.Load, served.Budget = 500, 100, backoff.Budget{Kind: backoff.BudgetGRPC, A: 10, B: 100}
	withService := six(t, served, 5)
	jobs, err := ledger.Parse("alpha:0 bravo:2 charlie:9 delta:fatal")
	if err != nil {
		t.Fatal(err)
	}
	report := ledger.RunAll(jobs, s)
	ps := run.Policies
	scheds := make([]backoff.Schedule, len(ps))
	for i, p := range ps {
		scheds[i] = backoff.ScheduleOf(p, s, 1)
	}
	client := ClientData{Policies: ps, Chosen: int(backoff.Decorrelated), Client: 1, Settings: s, Schedules: scheds}
	timeline := func(d RunData, all bool, a *RunData) TimelineData {
		tr := func(d RunData) TimelineRun {
			r := TimelineRun{Settings: d.Settings, Policies: d.Policies}
			for _, c := range d.Crowds {
				r.Rows = append(r.Rows, AggregateRows(c.Series, 1000))
			}
			return r
		}
		out := TimelineData{B: tr(d), Chosen: 3, All: all, RowMs: 1000}
		if a != nil {
			ta := tr(*a)
			out.A = &ta
		}
		return out
	}
	for w := 0; w <= 210; w += 1 + w/60 {
		views := map[string]string{
			"header":   Header(2, w, "computing", SeedAndDraws(s), st),
			"policies": PolicyRow(PolicyNames(ps), 3, w, st),
			"client":   ClientHead(client, w, st) + "\n" + ClientBody(client, NewClientTables(client, w, st), w, 30, st),
			"strip":    TimelineStrip(scheds[4].Retries, s.Outage, w, st),
			"crowd":    CrowdPane(CrowdData{B: run}, w, st),
			"service":  CrowdPane(CrowdData{B: withService, Stale: true}, w, st),
			"compare":  CrowdPane(CrowdData{B: withService, A: &run}, w, st),
			"head":     TimelineHead(timeline(run, false, nil), w, st),
			"bars":     TimelineBody(timeline(withService, false, nil), w, st),
			"all":      TimelineBody(timeline(run, true, nil), w, st),
			"ab":       TimelineBody(timeline(withService, false, &run), w, st),
			"jobs":     JobsBody(report, true, w, st),
			"summary":  JobsSummary(report, false, w, st),
			"settings": SettingsSummary(s, 100, backoff.Independent, w, st),
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

// The figures on screen are --plain's, in human units: the crowd table's
// full jitter row, and the reference's sentences under it.
func TestCrowdPaneFigures(t *testing.T) {
	out := CrowdPane(CrowdData{B: six(t, backoff.Defaults(), 0)}, 100, DefaultStyles())
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "full jitter") {
			row = l
			break
		}
	}
	if got, want := strings.Join(strings.Fields(row), " "), "full jitter 962 4.8 28 · 280/s 400 ms 36"; got != want {
		t.Errorf("full jitter row: got %q, want %q", got, want)
	}
	if !strings.Contains(out, "here 28, 44 and 15 against 200.") {
		t.Error("the first sentence is missing or wrong")
	}
	if !strings.Contains(out, "36 and 0 clients gave up") {
		t.Error("the second sentence is missing or wrong")
	}
}

// Attempt 1 is always down, as in the core, where every client fails at
// 0 ms; with an outage of 0 ms the first retry, attempt 2, gets through.
func TestClientLandingOutageZero(t *testing.T) {
	st := DefaultStyles()
	s := backoff.Defaults()
	s.Outage = 0
	sched := backoff.ScheduleOf(s.Policy(backoff.Exponential), s, 1)
	table := scheduleTable(sched, 0, 100, st)
	want := []string{"× down", "✓ gets through"}
	for range sched.Retries[1:] {
		want = append(want, "○ not needed")
	}
	rows := strings.Split(table, "\n")[2:]
	for i, r := range rows {
		if !strings.HasSuffix(strings.TrimSpace(r), want[i]) {
			t.Errorf("attempt %d: got %q, want it to end %q", i+1, r, want[i])
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

// Where reference draws cut a band short, the schedule says so beside the
// band, and how to switch: a first wait of 10 s and a longest of 10 min.
func TestCutShortIsSaid(t *testing.T) {
	s := backoff.Defaults()
	s.FirstWait, s.LongestWait, s.Attempts = 10000, 600000, 12
	sched := backoff.ScheduleOf(s.Policy(backoff.FullJitter), s, 1)
	ps := append(s.Five(), s.Custom())
	scheds := make([]backoff.Schedule, len(ps))
	for i, p := range ps {
		scheds[i] = backoff.ScheduleOf(p, s, 1)
	}
	d := ClientData{Policies: ps, Chosen: int(backoff.FullJitter), Client: 1, Settings: s, Schedules: scheds}
	body := ClientBody(d, NewClientTables(d, 100, DefaultStyles()), 100, 60, DefaultStyles())
	if !strings.Contains(body, CutMark) || !strings.Contains(body, "press d for independent draws") {
		t.Errorf("no cut mark or sentence:\n%s", body)
	}
	cut := 0
	for _, r := range sched.Retries {
		if r.Cut {
			cut++
		}
	}
	if got := strings.Count(body, CutMark); got != cut+1 { // each cut band, and the sentence
		t.Errorf("%d cut marks, want %d (the %d cut bands and the sentence):\n%s", got, cut+1, cut, body)
	}
	s.Draws = backoff.Independent
	d.Settings = s
	for i, p := range ps {
		d.Schedules[i] = backoff.ScheduleOf(p, s, 1)
	}
	if body := ClientBody(d, NewClientTables(d, 100, DefaultStyles()), 100, 60, DefaultStyles()); strings.Contains(body, CutMark) {
		t.Errorf("independent draws: a cut mark, want none:\n%s", body)
	}
}

// Stacked bars: each part its own character, the capacity drawn across.
func TestDrawStack(t *testing.T) {
	p := paint{}
	tests := []struct {
		served, rejected, down, most, width, line int
		want                                      string
	}{
		{4, 2, 2, 8, 8, -1, "████▒▒░░"},
		{0, 0, 8, 8, 8, -1, "░░░░░░░░"},
		{1, 0, 0, 100, 8, -1, "█"}, // a part above 0 takes a cell
		{2, 0, 0, 8, 8, 5, "██   │"},
		{8, 0, 0, 8, 8, 3, "███│████"},
		{0, 0, 0, 8, 8, -1, ""},
	}
	for _, tt := range tests {
		got, cells := drawStack([]segment{{tt.served, ServedGlyph, p}, {tt.rejected, RejectedGlyph, p}, {tt.down, DownGlyph, p}}, tt.most, tt.width, tt.line, p)
		if got != tt.want || cells != ansi.StringWidth(tt.want) {
			t.Errorf("%+v: got %q (%d cells), want %q", tt, got, cells, tt.want)
		}
	}
}

// The rows of pane 3 add up to the series they sum.
func TestAggregateRows(t *testing.T) {
	d := six(t, backoff.Defaults(), 0)
	for i, c := range d.Crowds {
		for _, rowMs := range []int{100, 500, 1000, 3000} {
			rows := AggregateRows(c.Series, rowMs)
			retries, attempts := 0, 0
			for _, r := range rows {
				retries += r.Retries
				attempts += r.Attempts()
			}
			if retries != c.Figures.Retries || attempts != c.Figures.Attempts {
				t.Errorf("%s at %d ms: rows hold %d retries and %d attempts, want %d and %d", d.Policies[i].Name, rowMs, retries, attempts, c.Figures.Retries, c.Figures.Attempts)
			}
		}
	}
	if got := TimelineRowMs(100, 260, 16); got != 1000 {
		t.Errorf("rows for 260 slots of 100 ms in 16 lines: got %d ms, want 1000", got)
	}
}

// Which way is better is the figure's: fewer retries, an earlier time, more
// served; a figure that does not exist ranks last.
func TestChange(t *testing.T) {
	field := func(name string) backoff.FigureField {
		f, ok := backoff.FindField(name)
		if !ok {
			t.Fatalf("no figure %s", name)
		}
		return f
	}
	tests := []struct {
		name   string
		a, b   int
		text   string
		better int
	}{
		{"retries", 962, 848, "−114", 1},
		{"retries", 800, 1000, "+200", -1},
		{"served", 100, 150, "+50", 1},
		{"all_through_by_ms", 24563, 25666, "+1.1 s", -1},
		{"all_through_by_ms", 15000, -1, "none now", -1},
		{"all_through_by_ms", -1, 15000, "some now", 1},
		{"gave_up", 0, 0, SameMark, 0},
	}
	for _, tt := range tests {
		text, better := Change(field(tt.name), tt.a, tt.b)
		if text != tt.text || better != tt.better {
			t.Errorf("%s %d → %d: got %q, %d; want %q, %d", tt.name, tt.a, tt.b, text, better, tt.text, tt.better)
		}
	}
}

func TestTabAt(t *testing.T) {
	st := DefaultStyles()
	for _, w := range []int{50, 80, 120, 200} {
		line := strings.Split(Header(1, w, "", "", st), "\n")[0]
		for i, name := range shortPaneNames() {
			at := strings.Index(ansi.Strip(line), name)
			at = ansi.StringWidth(ansi.Strip(line)[:at])
			if got := TabAt(1, w, at); got != i {
				t.Errorf("width %d: the tab at column %d (%s): got %d, want %d", w, at, name, got, i)
			}
		}
		if got := TabAt(1, w, w+5); got != -1 {
			t.Errorf("width %d: past the tabs: got %d, want -1", w, got)
		}
	}
}

// The quick tables draw what lipgloss/table draws.
func TestQuickTableIsLipglosss(t *testing.T) {
	st := DefaultStyles()
	d := six(t, backoff.Defaults(), 10)
	tables := []struct {
		heads []string
		rows  [][]string
		right []bool
	}{
		{[]string{"a", "bb", "c"}, [][]string{{"1", "22", "333"}, {"4444", "", "6"}}, []bool{true, false, true}},
		{[]string{"policy", "x"}, nil, []bool{false, true}},
		{[]string{"日本", "×"}, [][]string{{"é", "✓ gets through"}}, nil},
	}
	for _, tt := range tables {
		quick, ok := quickTable(tt.heads, tt.rows, tt.right, 200, st, nil)
		if want := lipglossTable(tt.heads, tt.rows, tt.right, 200, st, nil); !ok || quick != want {
			t.Errorf("%v: quick\n%s\nwant\n%s", tt.heads, quick, want)
		}
	}
	// Pane 2's tables keep within any width, drawn the quick way or,
	// where they must shrink, by lipgloss.
	for w := 40; w <= 200; w += 7 {
		for _, cols := range [][]figureColumn{paneCrowdColumns(), backColumns()} {
			got := figureTable(d, cols, w, st)
			if Width(got) > w {
				t.Errorf("width %d: a table %d wide", w, Width(got))
			}
		}
	}
}
