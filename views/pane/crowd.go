package pane

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/plain"
	"github.com/retryplanner/retry-planner/views/words"
)

// BestMark follows the best value of a column, WorstMark the worst, so that
// both stand out without colour too.
const (
	BestMark  = "*"
	WorstMark = "!"
)

// CrowdData is what pane 2 shows: the plan's run (B) and, when a plan is
// pinned and differs, the pinned one (A).
type CrowdData struct {
	B      RunData
	A      *RunData // nil unless comparing
	Stale  bool     // B is the last run; the current settings' is on its way
	Pinned bool     // a plan is pinned and it is B's
}

// figureColumn is one column of pane 2's tables.
type figureColumn struct {
	head, short string                                    // the head, and a shorter one for a narrow pane
	cell        func(d RunData, f backoff.Figures) string // the one seed's value
	spread      string                                    // the figure whose median and p95 go under it; "" for none
	value       func(f backoff.Figures) (int, bool)       // what the marks compare; nil for none
	better      backoff.Better
	worst       bool // mark the worst as well as the best
	// bad, if set, marks a value the worst whatever the others are: a
	// service still overloaded is bad even when every policy leaves it so.
	bad func(f backoff.Figures) bool
}

// count is a column cell of a whole-number figure.
func count(get func(backoff.Figures) int) func(RunData, backoff.Figures) string {
	return func(_ RunData, f backoff.Figures) string { return words.Count(get(f)) }
}

// time is a column cell of a time; a time that does not exist is "-".
func timeCell(get func(backoff.Figures) int) func(RunData, backoff.Figures) string {
	return func(_ RunData, f backoff.Figures) string { return words.Human(get(f)) }
}

// withRate is a per-slot count and its rate a second: "28 · 280/s".
func withRate(get func(backoff.Figures) int) func(RunData, backoff.Figures) string {
	return func(d RunData, f backoff.Figures) string {
		return words.Count(get(f)) + " · " + words.Rate(get(f), d.Settings.Slot)
	}
}

func always(get func(backoff.Figures) int) func(backoff.Figures) (int, bool) {
	return func(f backoff.Figures) (int, bool) { return get(f), true }
}

func present(get func(backoff.Figures) int) func(backoff.Figures) (int, bool) {
	return func(f backoff.Figures) (int, bool) { v := get(f); return v, v >= 0 }
}

// paneCrowdColumns are the crowd table's: the reference's, with the retries
// per client and the busiest slot as a rate.
func paneCrowdColumns() []figureColumn {
	retries := func(f backoff.Figures) int { return f.Retries }
	most := func(f backoff.Figures) int { return f.MostInASlot }
	gaveUp := func(f backoff.Figures) int { return f.GaveUp }
	return []figureColumn{
		{head: "retries", short: "retries", cell: count(retries), spread: "retries", value: always(retries)},
		{head: "per client", short: "each", cell: func(_ RunData, f backoff.Figures) string { return words.Each(f.Retries, f.Clients) }},
		{head: "most in a slot", short: "busiest", cell: withRate(most), spread: "most_in_a_slot", value: always(most)},
		{head: "busiest slot starts", short: "starts", cell: timeCell(func(f backoff.Figures) int { return f.BusiestSlotFrom })},
		{head: "gave up", short: "gave up", cell: count(gaveUp), spread: "gave_up", value: always(gaveUp)},
	}
}

// backColumns are the figures once the service is back.
func backColumns() []figureColumn {
	peak := func(f backoff.Figures) int { return f.PeakAfterBack }
	through := func(f backoff.Figures) int { return f.AllThroughBy }
	return []figureColumn{
		{head: "peak after back", short: "peak", cell: withRate(peak), spread: "peak_after_back", value: always(peak)},
		{head: "peak starts", short: "starts", cell: timeCell(func(f backoff.Figures) int { return f.PeakAfterBackFrom })},
		{head: "all through by", short: "through by", cell: timeCell(through), spread: "all_through_by_ms", value: present(through)},
	}
}

// serviceColumns are the service's figures: those of its settings.
func serviceColumns(d RunData) []figureColumn {
	s := d.Settings
	get := func(name string) func(backoff.Figures) int {
		f, _ := backoff.FindField(name)
		return f.Get
	}
	cols := []figureColumn{
		{head: "served", short: "served", cell: count(get("served")), spread: "served", value: always(get("served")), better: backoff.Higher, worst: true},
		{head: "rejected", short: "rejected", cell: count(get("rejected")), spread: "rejected", value: always(get("rejected")), worst: true},
	}
	if s.Budget.Kind != backoff.BudgetNone {
		cols = append(cols, figureColumn{head: "throttled", short: "throttled", cell: count(get("throttled")), spread: "throttled", value: always(get("throttled")), worst: true})
	}
	for _, p := range d.Policies {
		if p.MaxElapsed > 0 {
			cols = append(cols, figureColumn{head: "out of time", short: "late", cell: count(get("out_of_time")), spread: "out_of_time", value: always(get("out_of_time")), worst: true})
			break
		}
	}
	stable := get("stable_from_ms")
	cols = append(cols, figureColumn{head: "stable from", short: "stable", cell: timeCell(stable), spread: "stable_from_ms", value: always(stable), worst: true})
	if s.Load > 0 {
		cols = append(cols, figureColumn{head: "still overloaded", short: "overloaded",
			cell: func(_ RunData, f backoff.Figures) string {
				if f.StillOverloaded {
					return "yes"
				}
				return "no"
			},
			bad: func(f backoff.Figures) bool { return f.StillOverloaded }})
	}
	p50, p99 := get("latency_p50_ms"), get("latency_p99_ms")
	return append(cols,
		figureColumn{head: "latency p50", short: "p50", cell: timeCell(p50), spread: "latency_p50_ms", value: present(p50)},
		figureColumn{head: "latency p99", short: "p99", cell: timeCell(p99), spread: "latency_p99_ms", value: present(p99), worst: true})
}

// marks says, for each policy and column, whether its value is the best
// (+1) or the worst (-1) of the column. Ties are all marked; a column where
// all are alike, or none has a value, has no marks.
func marks(crowds []backoff.Result, cols []figureColumn) [][]int {
	out := make([][]int, len(crowds))
	for i := range out {
		out[i] = make([]int, len(cols))
	}
	for c, col := range cols {
		if col.bad != nil {
			for i, r := range crowds {
				if col.bad(r.Figures) {
					out[i][c] = -1
				}
			}
		}
		if col.value == nil {
			continue
		}
		rank := func(v int) int { // lower is better
			if col.better == backoff.Higher {
				return -v
			}
			return v
		}
		lo, hi, found := 0, 0, false
		for _, r := range crowds {
			if v, ok := col.value(r.Figures); ok {
				if !found || rank(v) < lo {
					lo = rank(v)
				}
				if !found || rank(v) > hi {
					hi = rank(v)
				}
				found = true
			}
		}
		if !found || lo == hi {
			continue
		}
		for i, r := range crowds {
			v, ok := col.value(r.Figures)
			switch {
			case !ok && col.worst:
				out[i][c] = -1 // a time that does not exist ranks after every time
			case ok && rank(v) == lo:
				out[i][c] = 1
			case ok && rank(v) == hi && col.worst:
				out[i][c] = -1
			}
		}
	}
	return out
}

// paneSpreadCell is a figure's median and 95th percentile over seeds: "31/36".
func paneSpreadCell(sp backoff.PolicySpread, name string) string {
	field, _ := backoff.FindField(name)
	v := sp.Spread(name)
	show := func(x int) string {
		if field.Time {
			return words.Human(x)
		}
		return words.Count(x)
	}
	return show(v.Median) + "/" + show(v.P95)
}

// SpreadRowLabel begins the row under a policy's one-seed figures.
const SpreadRowLabel = "  median/p95"

// figureTable is a table of the run's policies under cols: each policy's
// one-seed figures, the best and, where the column says, the worst marked;
// under each, once the spread has landed, the median and p95 over seeds. A
// pane too narrow for it takes shorter heads, then wraps it: its columns in
// groups, each a table of its own under the one before, the policies down
// the side of each. No figure is left out or cut (issue 19, item 5).
func figureTable(d RunData, cols []figureColumn, w int, st *Styles) string {
	if tbl, fits := figureTableOf(d, cols, w, st); fits {
		return tbl
	}
	var parts []string
	for start := 0; start < len(cols); {
		end := start + 1
		for end < len(cols) {
			if _, fits := figureTableOf(d, cols[start:end+1], w, st); !fits {
				break
			}
			end++
		}
		tbl, _ := figureTableOf(d, cols[start:end], w, st)
		parts = append(parts, tbl)
		start = end
	}
	return strings.Join(parts, "\n\n")
}

func figureTableOf(d RunData, cols []figureColumn, w int, st *Styles) (string, bool) {
	mk := marks(d.Crowds, cols)
	var rows [][]string
	var kinds [][]int // per cell: 1 best, -1 worst, 2 a spread row
	for i, r := range d.Crowds {
		name := r.Policy.Name
		if cutShort(d, r.Policy) > 0 {
			name += " " + CutMark
		}
		row := []string{name}
		kind := []int{0}
		for c, col := range cols {
			mark := " "
			switch mk[i][c] {
			case 1:
				mark = BestMark
			case -1:
				mark = WorstMark
			}
			row = append(row, col.cell(d, r.Figures)+mark)
			kind = append(kind, mk[i][c])
		}
		rows, kinds = append(rows, row), append(kinds, kind)
		sp, ok := d.policySpread(i)
		if !ok {
			continue
		}
		row, kind = []string{SpreadRowLabel}, []int{2}
		for _, col := range cols {
			cell := ""
			if col.spread != "" {
				cell = paneSpreadCell(sp, col.spread) + " "
			}
			row, kind = append(row, cell), append(kind, 2)
		}
		rows, kinds = append(rows, row), append(kinds, kind)
	}
	right := []bool{false}
	long, short := []string{"policy"}, []string{"policy"}
	for _, col := range cols {
		right = append(right, true)
		long, short = append(long, col.head+" "), append(short, col.short+" ")
	}
	style := func(row, col int) lipgloss.Style {
		if row < 0 || row >= len(kinds) {
			return st.Cell
		}
		switch kinds[row][col] {
		case 1:
			return st.Best
		case -1:
			return st.Worst
		case 2:
			return st.Muted
		}
		return st.Cell
	}
	tbl := readTable(long, rows, right, 1<<16, st, style)
	if Width(tbl) <= w {
		return tbl, true
	}
	tbl = readTable(short, rows, right, 1<<16, st, style)
	if Width(tbl) <= w {
		return tbl, true
	}
	return readTable(short, rows, right, w, st, style), false
}

// cutShort is the first retry of p whose band the run's reference draws
// cut short; 0 for none, or with independent draws.
func cutShort(d RunData, p backoff.Policy) int {
	if d.Settings.Draws != backoff.Reference {
		return 0
	}
	return p.CutShort()
}

// crowdCutNote says which policies' waits reference draws cut short, from
// which retry, and how to switch; "" for none.
func crowdCutNote(d RunData) string {
	var parts []string
	for _, p := range d.Policies {
		if k := cutShort(d, p); k > 0 {
			parts = append(parts, fmt.Sprintf("%s from retry %d", p.Name, k))
		}
	}
	if parts == nil {
		return ""
	}
	return CutMark + " Reference draws never reach past the lowest wait + 65,535 ms, so the widest waits are cut short: " +
		strings.Join(parts, ", ") + ". These figures draw less than the policy would; press d for independent draws."
}

// PinnedNote is what panes 2 and 3 say once p has pinned the plan they
// show, until a change gives them A and B to set side by side.
const PinnedNote = "This plan is pinned as A: change a setting, the policy or the service to compare it (x swaps, P drops it)."

// CrowdIntroFull is pane 2's first sentences: the crowd, how many times
// each of policies ps tries at most, the service and the load, the slot,
// the seed and the draws, in human units.
func CrowdIntroFull(s backoff.Settings, ps []backoff.Policy) string {
	out := fmt.Sprintf("%s fail at 0 ms; the service is back at %s; %s. Retries are counted per %s slot; %s.",
		clients(s.Clients), words.Human(s.Outage), plain.TriesAtMost(s.Attempts, ps), words.Human(s.Slot), SeedAndDraws(s))
	if s.HasService() {
		out += " " + ServiceSentence(s)
	}
	return out
}

func clients(n int) string {
	if n == 1 {
		return "1 client"
	}
	return words.Count(n) + " clients"
}

// ServiceSentence says what the service does once it is back, and the load
// and budget on it.
func ServiceSentence(s backoff.Settings) string {
	var parts []string
	if s.Capacity > 0 {
		parts = append(parts, fmt.Sprintf("The service then serves %s a second (%s a %s slot) and rejects the rest",
			words.Count(s.Capacity), words.Count(ceilDiv(s.Capacity*s.Slot, 1000)), words.Human(s.Slot)))
	} else {
		parts = append(parts, "The service then serves every attempt")
	}
	if s.Load > 0 {
		parts = append(parts, fmt.Sprintf("%s fresh requests a second arrive until %s", words.Count(s.Load), words.Human(s.LoadEnd())))
	}
	if s.Budget.Kind != backoff.BudgetNone {
		procs := "1 process"
		if s.Processes != 1 {
			procs = words.Count(s.Processes) + " processes"
		}
		parts = append(parts, fmt.Sprintf("retries are limited by the budget %s in each of %s", s.Budget, procs))
	}
	return strings.Join(parts, "; ") + "."
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// DescribePolicy is a policy's fields in one line, in human units: "first
// 1 s, x2, longest 16 s, no jitter, 6 attempts".
func DescribePolicy(p backoff.Policy) string {
	jitter := "jitter " + p.Jitter.String()
	if !p.Jitter.Draws() {
		jitter = "no jitter"
	}
	out := fmt.Sprintf("first %s, x%s, longest %s, %s, %d attempts", words.Human(p.FirstWait), backoff.FormatThousandths(p.Multiplier),
		words.Human(p.LongestWait), jitter, p.Attempts)
	if p.MaxElapsed > 0 {
		out += ", at most " + words.Human(p.MaxElapsed) + " in all"
	}
	return out
}

// ownPolicy says what each policy beyond the five is: the settings' own
// (custom, or the preset it equals), or a preset.
func ownPolicy(d RunData) string {
	five := d.Settings.Five()
	custom := d.Settings.Custom()
	var out strings.Builder
	for _, p := range d.Policies {
		if slices.Contains(five, p) {
			continue
		}
		if p == custom {
			fmt.Fprintf(&out, " %s is your own policy (pane 5, page 3): %s.", p.Name, DescribePolicy(p))
		} else {
			fmt.Fprintf(&out, " %s is a preset: %s.", p.Name, DescribePolicy(p))
		}
	}
	return out.String()
}

// crowdLegend explains the crowd tables' heads, marks and spread rows.
func crowdLegend(d RunData) string {
	s := d.Settings
	out := fmt.Sprintf("%s the best of its column, %s the worst. most in a slot (busiest): the most retries in one %s slot, and that as a rate a second; "+
		"busiest slot starts: where the first such slot starts; peak after back: the most attempts in one slot once the service is back. "+
		"- means there is none: no retries, or no client got through.", BestMark, WorstMark, words.Human(s.Slot)) + ownPolicy(d)
	switch {
	case d.Seeds > 0 && d.Spread != nil:
		out += fmt.Sprintf(" Under each policy, %s: the median and the 95th percentile over %s seeds from seed %d with %s; the figures beside the name are seed %d's alone.",
			strings.TrimSpace(SpreadRowLabel), words.Count(d.Spread.Count), d.Spread.First, DrawsName(d.SpreadDraws), s.Seed)
	case d.Seeds > 0 && d.SpreadErr != nil:
		out += " The spread over seeds did not run: " + d.SpreadErr.Error() + "."
	case d.Seeds > 0:
		out += " The spread over " + words.Count(d.Seeds) + " seeds is on its way."
	}
	return out
}

// CrowdPane is pane 2's whole content at width w, for a viewport to scroll.
func CrowdPane(d CrowdData, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 {
		return ""
	}
	var head []string
	if d.Stale {
		head = append(head, st.Note.Render(prose("Recomputing for the new settings; these are the last settings' figures.", w)))
	}
	b := d.B
	switch {
	case !b.Landed():
		return Fit(strings.Join(append(head, st.Muted.Render(prose("Computing "+Computing(b.Settings, len(b.Policies))+"…", w))), "\n"), w, 1<<20)
	case b.Err != nil:
		return Fit(strings.Join(append(head, st.Error.Render(prose("The crowd could not run: "+b.Err.Error(), w))), "\n"), w, 1<<20)
	}
	if d.A != nil && d.A.Landed() && d.A.Err == nil {
		head = append(head, CompareView(*d.A, b, w, st))
		return Fit(strings.Join(head, "\n"), w, 1<<20)
	}
	if d.Pinned {
		head = append(head, st.Note.Render(prose(PinnedNote, w)))
	}
	left := min(w, max(ProseWidth, 0))
	tables := crowdTables(b, left, st)
	bars := crowdBars(b, w, st)
	var body string
	if w >= WideFrom {
		barW := w - Width(tables) - 4
		body = lipgloss.JoinHorizontal(lipgloss.Top, tables, "    ", crowdBars(b, barW, st))
	} else {
		body = tables + "\n\n" + bars
	}
	return Fit(strings.Join(append(head, body), "\n"), w, 1<<20)
}

// crowdTables are pane 2's tables and sentences, at most w wide.
func crowdTables(d RunData, w int, st *Styles) string {
	s := d.Settings
	parts := []string{
		st.Text.Render(prose(CrowdIntroFull(s, d.Policies), w)),
		"",
		figureTable(d, paneCrowdColumns(), w, st),
	}
	if note := crowdCutNote(d); note != "" {
		parts = append(parts, st.Warn.Render(prose(note, w)))
	}
	parts = append(parts, "",
		st.Title.Render(cut("Once the service is back at "+words.Human(s.Outage), w)),
		figureTable(d, backColumns(), w, st))
	if s.HasService() {
		parts = append(parts, "", st.Title.Render(cut("What the service did", w)), figureTable(d, serviceColumns(d), w, st))
	}
	parts = append(parts, st.Muted.Render(prose(crowdLegend(d), w)))
	if five := theFive(d); five != nil {
		parts = append(parts, "", st.Text.Render(prose(plain.CrowdExplained(five), w)))
		if note, ok := plain.CrowdGaveUpNote(five); ok {
			parts = append(parts, st.Text.Render(prose(note, w)))
		}
	}
	return Fit(strings.Join(parts, "\n"), w, 1<<20)
}

// theFive are the run's results of the reference's five, when its first
// five are they and nothing but the reference's crowd is set: the
// reference's sentences speak of them.
func theFive(d RunData) []backoff.Result {
	if len(d.Crowds) < backoff.NumShapes || d.Settings.HasService() {
		return nil
	}
	five := d.Crowds[:backoff.NumShapes]
	if !plain.AreTheFive(d.Settings, five) {
		return nil
	}
	return five
}

// crowdBars are pane 2's bars of one figure per policy, the peak once the
// service is back, with the slot's capacity drawn across them; then the
// spread of that figure over seeds as a box per policy.
func crowdBars(d RunData, w int, st *Styles) string {
	if w < 20 {
		return ""
	}
	s := d.Settings
	label := 0
	for _, p := range d.Policies {
		label = max(label, len(p.Name))
	}
	label = min(label, w/3)
	most, capacity := 0, -1
	for _, r := range d.Crowds {
		most = max(most, r.Figures.PeakAfterBack)
	}
	if s.Capacity > 0 {
		capacity = ceilDiv(s.Capacity*s.Slot, 1000)
		most = max(most, capacity)
	}
	digits := len(words.Count(most))
	barW := max(w-label-digits-2, 1)
	title := fmt.Sprintf("Peak after back, seed %d: the most attempts in one %s slot once the service is back", s.Seed, words.Human(s.Slot))
	if capacity >= 0 {
		title += fmt.Sprintf("; %s the slot's capacity, %s", CapacityMark, words.Count(capacity))
	}
	lines := []string{st.Title.Render(prose(title, w))}
	bar, line := newPaint(st.BarAfter), newPaint(st.Back)
	for _, r := range d.Crowds {
		n := r.Figures.PeakAfterBack
		drawn, cells := drawStack([]segment{{n, ServedGlyph, bar}}, most, barW, capLine(capacity, most, barW), line)
		lines = append(lines, padRight(cut(r.Policy.Name, label), label)+" "+drawn+strings.Repeat(" ", max(barW-cells, 0))+" "+words.Count(n))
	}
	if d.Spread != nil {
		lines = append(lines, "", boxStrip(d, w, st))
	}
	return Fit(strings.Join(lines, "\n"), w, 1<<20)
}

// The box strip's marks.
const (
	MedianMark = "●"
	P95Mark    = "◆"
	WorstBox   = "┤"
)

// boxStrip draws each policy's peak after back over the seeds on one
// scale: a line to the worst seed, the median and the 95th percentile
// marked on it.
func boxStrip(d RunData, w int, st *Styles) string {
	label := 0
	for _, p := range d.Policies {
		label = max(label, len(p.Name))
	}
	label = min(label, w/3)
	most := 1
	for _, ps := range d.Spread.Policies {
		most = max(most, ps.Spread("peak_after_back").Worst)
	}
	tail := len(words.Count(most))*3 + 2
	width := max(w-label-tail-2, 4)
	pos := func(v int) int { return min(int(int64(v)*int64(width-1)/int64(most)), width-1) }
	title := fmt.Sprintf("Peak after back over %s seeds (%s): %s median, %s 95th percentile, %s worst",
		words.Count(d.Spread.Count), DrawsName(d.SpreadDraws), MedianMark, P95Mark, WorstBox)
	lines := []string{st.Title.Render(prose(title, w))}
	for _, ps := range d.Spread.Policies {
		sp := ps.Spread("peak_after_back")
		cells := []rune(strings.Repeat("─", pos(sp.Worst)+1))
		cells[pos(sp.Worst)] = []rune(WorstBox)[0]
		cells[pos(sp.P95)] = []rune(P95Mark)[0]
		cells[pos(sp.Median)] = []rune(MedianMark)[0]
		strip := padRight(string(cells), width)
		lines = append(lines, padRight(cut(ps.Policy.Name, label), label)+" "+st.Bar.Render(strip)+" "+
			st.Muted.Render(fmt.Sprintf("%s/%s/%s", words.Count(sp.Median), words.Count(sp.P95), words.Count(sp.Worst))))
	}
	return Fit(strings.Join(lines, "\n"), w, 1<<20)
}
