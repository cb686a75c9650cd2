package pane

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
	"github.com/retryplanner/retry-planner/views/words"
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

// At the defaults: the best of a column only among the policies with the
// fewest clients not through (exponential, equal jitter and custom, none),
// the worst of every column where the values differ; ties are all marked;
// a column where all are alike has neither.
func TestMarks(t *testing.T) {
	d := six(t, backoff.Defaults(), 0)
	cols := paneCrowdColumns(d)
	mk := marks(d.Settings, d.Crowds, nil, cols)
	fixed, exp, equal, custom := 0, 1, 3, 5 // full jitter 2 and decorrelated 4 carry none
	const notThrough, retries, mostInASlot, gaveUp = 0, 1, 3, 5
	want := map[[2]int]int{
		{fixed, notThrough}: -1, {exp, notThrough}: 1, {equal, notThrough}: 1, {custom, notThrough}: 1,
		// decorrelated's 770 is lower, but 19 of its clients gave up.
		{fixed, retries}: -1, {exp, retries}: 1, {custom, retries}: 1,
		{fixed, mostInASlot}: -1, {exp, mostInASlot}: -1, {custom, mostInASlot}: -1, {equal, mostInASlot}: 1,
		// fixed's 200 who gave up carry the worst mark, as the legend says.
		{fixed, gaveUp}: -1, {exp, gaveUp}: 1, {equal, gaveUp}: 1, {custom, gaveUp}: 1,
	}
	for p := range mk {
		for c := range mk[p] {
			if got := mk[p][c]; got != want[[2]int{p, c}] {
				t.Errorf("%s, %s: got mark %d, want %d", d.Policies[p].Name, cols[c].head, got, want[[2]int{p, c}])
			}
		}
	}
	// Once the service is back: fixed's peak of 0 comes from clients who
	// all gave up before it was back; it is not the best.
	bcols := backColumns(d)
	bmk := marks(d.Settings, d.Crowds, nil, bcols)
	if bmk[fixed][0] == 1 || bmk[equal][0] != 1 || bmk[exp][0] != -1 {
		t.Errorf("peak after back: fixed %d, equal jitter %d, exponential %d; want not best, best, worst", bmk[fixed][0], bmk[equal][0], bmk[exp][0])
	}
	if bmk[fixed][2] != -1 || bmk[exp][2] != 1 {
		t.Errorf("all through by: fixed %d, exponential %d; want worst (none got through), best", bmk[fixed][2], bmk[exp][2])
	}
	// All alike is no mark: with a first wait of 100 ms every policy makes
	// 1000 retries.
	s := backoff.Defaults()
	s.FirstWait = 100
	for p, row := range marks(s, six(t, s, 0).Crowds, nil, cols) {
		if row[retries] != 0 {
			t.Errorf("%d: retries marked %d although all are 1000", p, row[retries])
		}
	}
	// The service's worst: the one still overloaded.
	s = backoff.Defaults()
	s.Capacity, s.Load = 100, 150 // more load than it serves: still overloaded
	sd := six(t, s, 0)
	scols := serviceColumns(sd)
	smk := marks(sd.Settings, sd.Crowds, nil, scols)
	for c, col := range scols {
		if col.head != "recovered after" {
			continue
		}
		for p, r := range sd.Crowds {
			if r.Figures.StillOverloaded && smk[p][c] != -1 {
				t.Errorf("%s is still overloaded, marked %d, want the worst", r.Policy.Name, smk[p][c])
			}
		}
	}
}

// The rule over random figures: no best on a policy with more clients not
// through than another shown; the best is the best value among those with
// the fewest; every column whose values differ has a worst, on its worst
// value.
func TestMarkRuleOverRandomFigures(t *testing.T) {
	rnd := rand.New(rand.NewPCG(16, 2))
	s := backoff.Defaults()
	s.Capacity, s.Load, s.Budget = 100, 50, backoff.Budget{Kind: backoff.BudgetGRPC, A: 10, B: 100}
	d := RunData{Settings: s}
	cols := append(append(paneCrowdColumns(d), backColumns(d)...), serviceColumns(d)...)
	pick := func(n int) int { return rnd.IntN(n) }
	for trial := range 2000 {
		n := 1 + pick(6)
		crowds := make([]backoff.Result, n)
		for i := range crowds {
			f := backoff.Figures{Clients: 200}
			// Few distinct values, so that ties are common.
			f.NotThrough = pick(3) * 50
			f.GaveUp = f.NotThrough
			f.Retries, f.MostInASlot, f.PeakAfterBack = pick(4)*100, pick(4)*10, pick(4)*10
			f.Served, f.Rejected, f.Throttled = pick(4)*100, pick(4)*10, pick(3)
			f.StillOverloaded = pick(4) == 0
			f.RecoveredAfter, f.AllThroughBy, f.CrowdAllThroughBy = pick(4)*1000, pick(3)*1000-1000, pick(3)*1000-1000
			if f.StillOverloaded {
				f.RecoveredAfter = -1
			}
			f.LatencyP50, f.LatencyP99 = pick(3)*100-100, pick(3)*100-100
			crowds[i].Figures = f
		}
		mk := marks(s, crowds, nil, cols)
		fewest := crowds[0].Figures.NotThrough
		for _, r := range crowds {
			fewest = min(fewest, r.Figures.NotThrough)
		}
		for c, col := range cols {
			if col.value == nil {
				continue
			}
			rank := func(f backoff.Figures) int64 {
				v, ok := col.value(f)
				switch {
				case !ok:
					return 1 << 62
				case col.better == backoff.Higher:
					return -int64(v)
				}
				return int64(v)
			}
			worst, bestOfFewest := int64(-1<<62), int64(1<<62)
			for _, r := range crowds {
				worst = max(worst, rank(r.Figures))
				if r.Figures.NotThrough == fewest {
					bestOfFewest = min(bestOfFewest, rank(r.Figures))
				}
			}
			differ, worstMarked := false, false
			for i, r := range crowds {
				if rank(r.Figures) != rank(crowds[0].Figures) {
					differ = true
				}
				switch mk[i][c] {
				case 1:
					if r.Figures.NotThrough > fewest {
						t.Fatalf("trial %d, %s: policy %d has %d not through, more than %d, and is marked best", trial, col.head, i, r.Figures.NotThrough, fewest)
					}
					if rank(r.Figures) != bestOfFewest {
						t.Fatalf("trial %d, %s: policy %d marked best is not the best of those with the fewest not through", trial, col.head, i)
					}
				case -1:
					if rank(r.Figures) == worst {
						worstMarked = true
					} else if col.bad == nil || !col.bad(r.Figures) {
						t.Fatalf("trial %d, %s: policy %d marked worst is not the worst", trial, col.head, i)
					}
				}
			}
			if differ && !worstMarked {
				t.Fatalf("trial %d, %s: the values differ and no worst is marked: %v", trial, col.head, mk)
			}
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
// full jitter row, after the clients not through and their share, and the
// reference's sentences under it.
func TestCrowdPaneFigures(t *testing.T) {
	out := CrowdPane(CrowdData{B: six(t, backoff.Defaults(), 0)}, 100, DefaultStyles())
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "full jitter ") {
			row = l
			break
		}
	}
	if got, want := strings.Join(strings.Fields(row), " "), "full jitter 36 · 18% 962 4.81 28 · 280/s 400 ms 36"; got != want {
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
	even := words.Lost{NotThrough: 10, Clients: 100, Touched: 100}
	for _, tt := range tests {
		text, better := Change(field(tt.name), tt.a, tt.b, even, even)
		if text != tt.text || better != tt.better {
			t.Errorf("%s %d → %d: got %q, %d; want %q, %d", tt.name, tt.a, tt.b, text, better, tt.text, tt.better)
		}
	}
	// Issue 25, item 2: B's 150 through of 200 against A's 90 of 100 is
	// more through, but B leaves 25% not through against A's 10%: worse;
	// and B's fewer retries are then won by losing clients.
	lostB := words.Lost{NotThrough: 50, Clients: 200, Touched: 200}
	if text, better := Change(field("through"), 90, 150, even, lostB); text != "+60" || better != -1 {
		t.Errorf("through 90 of 100 → 150 of 200: got %q, %d; want \"+60\", -1 (worse)", text, better)
	}
	if _, better := Change(field("retries"), 900, 800, even, lostB); better != notJudged {
		t.Errorf("retries 900 → 800 while losing 25%% against 10%%: got %d, want %d (not judged)", better, notJudged)
	}
}

func TestTabAt(t *testing.T) {
	st := DefaultStyles()
	for _, w := range []int{50, 55, 80, 120, 200} {
		line := strings.Split(Header(1, w, "", "", st), "\n")[0]
		if strings.Contains(line, "…") {
			t.Errorf("width %d: a tab is cut: %q", w, line)
		}
		for i, name := range shortPaneNames() {
			at := strings.Index(ansi.Strip(line), name)
			if at < 0 && w < 60 && i != 1 {
				// A window this narrow names the focused tab alone, the
				// others by their numbers.
				name = " " + strconv.Itoa(i+1) + " "
				at = strings.Index(ansi.Strip(line), name) + 1
				name = strings.TrimSpace(name)
			}
			if at < 0 {
				t.Fatalf("width %d: no tab %s in %q", w, name, line)
			}
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
		for _, cols := range [][]figureColumn{paneCrowdColumns(d), backColumns(d)} {
			got := figureTable(d, cols, w, st)
			if Width(got) > w {
				t.Errorf("width %d: a table %d wide", w, Width(got))
			}
		}
	}
}

// The A/B view follows the same rule: with a budget that throttles every
// client of the crowd, B's fewer who gave up are not better (~), and no
// figure of B carries ✓ while B leaves a larger share not through.
func TestCompareViewDoesNotPraiseLosingClients(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Load = 2000, 30000, 200, 150
	a := six(t, s, 0)
	s.Budget = backoff.Budget{Kind: backoff.BudgetGRPC, A: 10, B: 100}
	b := six(t, s, 0)
	out := ansi.Strip(CompareView(a, b, 200, DefaultStyles()))
	checked := 0
	for i := range b.Crowds {
		fa, fb := a.Crowds[i].Figures, b.Crowds[i].Figures
		if fb.NotThrough <= fa.NotThrough {
			continue
		}
		block := ansi.Strip(compareBlock(a, b, i, i, compareFields(a, b), 200, DefaultStyles()))
		for _, line := range strings.Split(block, "\n") {
			if strings.Contains(line, BetterMark) && !strings.HasPrefix(strings.TrimSpace(line), "not through") {
				t.Errorf("%s: B leaves %d not through against A's %d, yet: %q", b.Crowds[i].Policy.Name, fb.NotThrough, fa.NotThrough, line)
			}
			if strings.HasPrefix(strings.TrimSpace(line), "gave up") && fb.GaveUp < fa.GaveUp && !strings.Contains(line, NotJudgedMark) {
				t.Errorf("%s: fewer gave up because throttled, want %s: %q", b.Crowds[i].Policy.Name, NotJudgedMark, line)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no policy loses more clients with the budget: the test tests nothing")
	}
	if !strings.Contains(out, NotJudgedMark+" not judged") {
		t.Error("the legend does not explain " + NotJudgedMark)
	}
}

// Issue 24, item 1: pane 2's share of clients not through is of the
// clients the outage touched, so a longer load window that touches no more
// (the service is stable long before 70 s, the window's first end) leaves
// its cells and verdicts as they are; the table says of how many.
func TestPaneShareOfClientsTouched(t *testing.T) {
	st := DefaultStyles()
	run := func(until int) RunData {
		s := backoff.Defaults()
		s.Clients, s.Outage, s.Capacity, s.Load, s.LoadUntil = 2000, 10000, 200, 150, until
		return six(t, s, 0)
	}
	short, long := run(70000), run(300000)
	if got, want := verdicts(long, 100, st), verdicts(short, 100, st); got != want {
		t.Errorf("load until 5 min:\n%s\nwant what load until 70 s says:\n%s", got, want)
	}
	for i := range short.Crowds {
		a, b := short.Crowds[i].Figures, long.Crowds[i].Figures
		if got, want := notThroughCell(long, b), notThroughCell(short, a); got != want || a.Clients == b.Clients {
			t.Errorf("%s: got %q of %d clients, want %q of %d", short.Policies[i].Name, got, b.Clients, want, a.Clients)
		}
	}
	cols := paneCrowdColumns(long)
	if len(cols) < 2 || cols[1].head != "clients touched" {
		t.Errorf("got the columns %v, want the clients touched after the clients not through", cols)
	}
}

// Issue 24, item 13: where a policy leaves clients not through, the latest
// served attempt is the last success, not "all through by"; with a fresh
// load, the crowd's. Where none is lost it is all through by.
func TestLastSuccessIsNamedSo(t *testing.T) {
	tests := []struct {
		name     string
		s        func() backoff.Settings
		policies []backoff.Shape
		head     string
	}{
		// fixed's 200 clients all give up at the defaults.
		{"the defaults: fixed loses every client", backoff.Defaults, []backoff.Shape{backoff.Fixed, backoff.Exponential}, "last success"},
		{"exponential alone: all through", backoff.Defaults, []backoff.Shape{backoff.Exponential}, "all through by"},
		{"a load: the crowd's", func() backoff.Settings {
			s := backoff.Defaults()
			s.Capacity, s.Load = 100, 50
			return s
		}, []backoff.Shape{backoff.Fixed}, "crowd's last success"},
	}
	for _, tt := range tests {
		s := tt.s()
		var ps []backoff.Policy
		for _, i := range tt.policies {
			ps = append(ps, s.Five()[i])
		}
		rs, err := backoff.RunAll(ps, s, backoff.Options{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		d := RunData{Settings: s, Policies: ps, Crowds: rs}
		cols := backColumns(d)
		if got := cols[len(cols)-1].head; got != tt.head {
			t.Errorf("%s: got the column %q, want %q", tt.name, got, tt.head)
		}
		if legend := crowdLegend(d); !strings.Contains(legend, tt.head+":") && tt.head != "all through by" {
			t.Errorf("%s: the legend does not say what %q is:\n%s", tt.name, tt.head, legend)
		}
	}
}

// Issue 24, item 12: pane 2's retries a client are words.PerClient's, as
// in the reports and the pictures: 5,548 over 10,000 clients read 0.55
// (they read 0.6).
func TestPaneRoundsAsWordsDoes(t *testing.T) {
	f := backoff.Figures{Clients: 10000, ClientsTouched: 10000, Retries: 5548}
	d := RunData{Settings: backoff.Defaults(), Crowds: []backoff.Result{{Figures: f}}}
	for _, col := range paneCrowdColumns(d) {
		if col.head == "per client" {
			if got := col.cell(d, f); got != "0.55" {
				t.Errorf("per client: got %q, want \"0.55\"", got)
			}
			return
		}
	}
	t.Error("no per client column")
}

// Issue 24, item 11: one name per thing. A column's short head, for a
// narrow pane, takes its words from its head (not "lost" for not
// through, "late" for out of time, "each" for per client); the strip of
// pane 1 names its marks as the schedule's table does ("○ not needed",
// which it called "not made").
func TestOneNamePerThing(t *testing.T) {
	s := backoff.Defaults()
	s.Capacity, s.Load, s.Queue, s.Timeout, s.MaxElapsed = 100, 50, 100, 1000, 20000
	s.Budget = backoff.Budget{Kind: backoff.BudgetGRPC, A: 10, B: 100}
	for _, lost := range []bool{false, true} {
		f := backoff.Figures{Clients: 10, ClientsTouched: 5}
		if lost {
			f.NotThrough = 1
		}
		d := RunData{Settings: s, Policies: s.Five(), Crowds: []backoff.Result{{Policy: s.Five()[0], Figures: f}}}
		for _, col := range append(append(paneCrowdColumns(d), backColumns(d)...), serviceColumns(d)...) {
			for _, w := range strings.Fields(col.short) {
				if !slices.Contains(strings.Fields(strings.ReplaceAll(col.head, "'s", "")), strings.ReplaceAll(w, "'s", "")) {
					t.Errorf("the column %q is short for %q: %q is none of its words", col.short, col.head, w)
				}
			}
		}
	}
	// Exponential at the defaults: through at 15 s, the attempt after it
	// not needed.
	d := backoff.Defaults()
	sc := backoff.ScheduleOf(d.Five()[backoff.Exponential], d, 1)
	strip := ansi.Strip(TimelineStrip(sc.Retries, 10000, 60, DefaultStyles()))
	if !strings.Contains(strip, "○ not needed") || strings.Contains(strip, "not made") {
		t.Errorf("the strip's legend:\n%s\nwant ○ not needed, as the table says", strip)
	}
}

// Issue 24, item 3: a best mark means good for the service. The issue's
// run (the gRPC preset, 120,000 clients, capacity 4,000 a second, a load of
// 3,000, a 45 s outage, a queue of 10,000, 3 s timeouts): both policies
// lose the whole crowd, so neither takes a best mark, not for its fewer
// clients not through, nor for a busiest slot of 18,690 (186,900/s) against
// a slot that serves 400. Where policies are good, a busiest slot more than
// twice the capacity still takes none: 900 and 1,000 against 400 (2 x 400
// = 800), while 700 is the best.
func TestNoBestMarkForADisaster(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Capacity, s.Load, s.Outage, s.Queue, s.Timeout = 120000, 4000, 3000, 45000, 10000, 3000
	grpc := backoff.Figures{Clients: 435000, ClientsTouched: 304167, NotThrough: 228135, GaveUp: 228135, Retries: 1065056, MostInASlot: 30207,
		RecoveredAfter: 16400, CrowdAllThroughBy: -1, PeakAfterBack: 1518}
	full := backoff.Figures{Clients: 435000, ClientsTouched: 356682, NotThrough: 210650, GaveUp: 210650, Retries: 1503895, MostInASlot: 18690,
		RecoveredAfter: 33900, CrowdAllThroughBy: -1, PeakAfterBack: 1816}
	d := RunData{Settings: s, Crowds: []backoff.Result{{Policy: backoff.Policy{Name: "grpc"}, Figures: grpc}, {Policy: backoff.Policy{Name: "full jitter"}, Figures: full}}}
	cols := append(append(paneCrowdColumns(d), backColumns(d)...), serviceColumns(d)...)
	for p, row := range marks(s, d.Crowds, nil, cols) {
		for c, m := range row {
			if m == 1 {
				t.Errorf("%s, %s: got a best mark, want none: the policy loses the whole crowd", d.Crowds[p].Policy.Name, cols[c].head)
			}
		}
	}
	good := func(most int) backoff.Result {
		return backoff.Result{Figures: backoff.Figures{Clients: 435000, ClientsTouched: 120000, MostInASlot: most, CrowdAllThroughBy: 15000}}
	}
	most := []figureColumn{paneCrowdColumns(RunData{Settings: s})[3]}
	if most[0].head != "most in a slot" {
		t.Fatalf("got the column %q, want most in a slot", most[0].head)
	}
	for _, tt := range []struct {
		values []int
		want   []int
	}{{[]int{900, 1000}, []int{0, -1}}, {[]int{700, 1000}, []int{1, -1}}} {
		mk := marks(s, []backoff.Result{good(tt.values[0]), good(tt.values[1])}, nil, most)
		if mk[0][0] != tt.want[0] || mk[1][0] != tt.want[1] {
			t.Errorf("most in a slot %v against 400 a slot: got marks %d, %d; want %v", tt.values, mk[0][0], mk[1][0], tt.want)
		}
	}
}
