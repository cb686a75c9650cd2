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
	// OverloadedMark follows "yes" where the service was still overloaded
	// when the load ended: a failure that outlived its trigger, marked as
	// plainly as the best, in a style of its own.
	OverloadedMark = "!!"
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
	// bad, if set, marks a value the worst whatever the others are: a
	// service still overloaded is bad even when every policy leaves it so.
	bad func(f backoff.Figures) bool
	// alarm, if set, marks a value with OverloadedMark in the Overloaded
	// style, over any other mark.
	alarm func(f backoff.Figures) bool
	// perSlot is a count in a slot, held against the slot's capacity: far
	// above it, it is no merit (words.FarAboveCapacity).
	perSlot bool
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

// notThroughCell is the clients not through and their share of the
// clients the outage touched: "95,000 · 51.4%".
func notThroughCell(_ RunData, f backoff.Figures) string {
	return words.Count(f.NotThrough) + " · " + words.NotThroughShare(f)
}

// touchedDiffers reports whether the outage touched fewer than all the
// clients under some policy of the run: then the share of clients not
// through is of fewer than the clients, and the table shows of how many.
func touchedDiffers(d RunData) bool {
	for _, r := range d.Crowds {
		if words.Touched(r.Figures) != r.Figures.Clients {
			return true
		}
	}
	return false
}

// paneCrowdColumns are the crowd table's: the clients not through and
// their share first, then the reference's, with the retries per client and
// the busiest slot as a rate.
func paneCrowdColumns(d RunData) []figureColumn {
	retries := func(f backoff.Figures) int { return f.Retries }
	most := func(f backoff.Figures) int { return f.MostInASlot }
	gaveUp := func(f backoff.Figures) int { return f.GaveUp }
	notThrough := func(f backoff.Figures) int { return f.NotThrough }
	cols := []figureColumn{{head: "not through", short: "not through", cell: notThroughCell, spread: "not_through", value: always(notThrough)}}
	if touchedDiffers(d) {
		// What the share is of, where it is not every client.
		cols = append(cols, figureColumn{head: "clients touched", short: "touched", cell: count(words.Touched), spread: "clients_touched"})
	}
	return append(cols, []figureColumn{
		{head: "retries", short: "retries", cell: count(retries), spread: "retries", value: always(retries)},
		{head: "per client", short: "per client", cell: func(_ RunData, f backoff.Figures) string { return words.PerClient(f.Retries, f.Clients) }},
		{head: "most in a slot", short: "most", cell: withRate(most), spread: "most_in_a_slot", value: always(most), perSlot: true},
		{head: "busiest slot starts", short: "starts", cell: timeCell(func(f backoff.Figures) int { return f.BusiestSlotFrom })},
		{head: "gave up", short: "gave up", cell: count(gaveUp), spread: "gave_up", value: always(gaveUp)},
	}...)
}

// backColumns are the figures once the service is back. With a fresh load,
// all through by is when the load stops: the crowd's own is shown instead.
// Where a policy leaves clients not through, either is the last success
// (words.LastSuccess), and named so.
func backColumns(d RunData) []figureColumn {
	peak := func(f backoff.Figures) int { return f.PeakAfterBack }
	through := func(f backoff.Figures) int { return f.AllThroughBy }
	lost := words.AnyLost(d.Crowds)
	throughCol := figureColumn{head: words.LastSuccess(lost), short: "through by", cell: timeCell(through), spread: "all_through_by_ms", value: present(through)}
	if lost {
		throughCol.short = "last success"
	}
	if d.Settings.Load > 0 {
		crowd := func(f backoff.Figures) int { return f.CrowdAllThroughBy }
		throughCol = figureColumn{head: words.CrowdLastSuccess(lost), short: "crowd by", cell: timeCell(crowd), spread: "crowd_all_through_by_ms", value: present(crowd)}
		if lost {
			throughCol.short = "crowd's last"
		}
	}
	return []figureColumn{
		{head: "peak after back", short: "peak", cell: withRate(peak), spread: "peak_after_back", value: always(peak), perSlot: true},
		{head: "peak starts", short: "starts", cell: timeCell(func(f backoff.Figures) int { return f.PeakAfterBackFrom })},
		throughCol,
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
		{head: "served", short: "served", cell: count(get("served")), spread: "served", value: always(get("served")), better: backoff.Higher},
		{head: "rejected", short: "rejected", cell: count(get("rejected")), spread: "rejected", value: always(get("rejected"))},
	}
	if s.HasQueue() {
		// Timed out is wasted + dropped: what the service did with the
		// expired requests, and how many it kept waiting.
		cols = append(cols, figureColumn{head: "timed out", short: "timed out", cell: count(get("timed_out")), spread: "timed_out", value: always(get("timed_out"))})
		if s.DropExpired {
			cols = append(cols, figureColumn{head: "dropped", short: "dropped", cell: count(get("dropped")), spread: "dropped", value: always(get("dropped"))})
		} else {
			cols = append(cols, figureColumn{head: "wasted", short: "wasted", cell: count(get("wasted")), spread: "wasted", value: always(get("wasted"))})
		}
		cols = append(cols, figureColumn{head: "queue peak", short: "queue", cell: count(get("queue_peak")), spread: "queue_peak", value: always(get("queue_peak"))})
	}
	if s.Breaker.On() {
		cols = append(cols, figureColumn{head: "short-circuited", short: "short", cell: count(get("short_circuited")), spread: "short_circuited", value: always(get("short_circuited"))},
			figureColumn{head: "breaker opened", short: "opened", cell: count(get("breaker_opened")), spread: "breaker_opened", value: always(get("breaker_opened"))})
	}
	if s.Budget.Kind != backoff.BudgetNone {
		cols = append(cols, figureColumn{head: "throttled", short: "throttled", cell: count(get("throttled")), spread: "throttled", value: always(get("throttled"))})
	}
	for _, p := range d.Policies {
		if p.MaxElapsed > 0 {
			cols = append(cols, figureColumn{head: "out of time", short: "out of time", cell: count(get("out_of_time")), spread: "out_of_time", value: always(get("out_of_time"))})
			break
		}
	}
	// Recovered after is absent while the service is still overloaded: the
	// worst, whatever the others are.
	recovered := get("recovered_after_ms")
	cols = append(cols, figureColumn{head: "recovered after", short: "recovered",
		cell: func(_ RunData, f backoff.Figures) string {
			if f.StillOverloaded {
				return "overloaded"
			}
			return words.Human(recovered(f))
		},
		spread: "recovered_after_ms", value: present(recovered), bad: func(f backoff.Figures) bool { return f.StillOverloaded },
		alarm: func(f backoff.Figures) bool { return f.StillOverloaded }})
	p50, p99 := get("latency_p50_ms"), get("latency_p99_ms")
	return append(cols,
		figureColumn{head: "latency p50", short: "p50", cell: timeCell(p50), spread: "latency_p50_ms", value: present(p50)},
		figureColumn{head: "latency p99", short: "p99", cell: timeCell(p99), spread: "latency_p99_ms", value: present(p99)})
}

// marks says, for each policy and column, whether its value is the best
// (+1) or the worst (-1) of the column, by words.Marks: the best only among
// the policies with the fewest clients not through, never for a policy no
// good for the service (words.FailureOver, on the one seed and, once it
// has landed, over the spread's seeds sp) nor for a count far above the
// slot's capacity, the worst wherever the values differ. A column's bad
// values are the worst whatever the others are.
func marks(s backoff.Settings, crowds []backoff.Result, sp *backoff.SeedsCrowd, cols []figureColumn) [][]int {
	out := make([][]int, len(crowds))
	for i := range out {
		out[i] = make([]int, len(cols))
	}
	notThrough := make([]int, len(crowds))
	for i, r := range crowds {
		notThrough[i] = r.Figures.NotThrough
	}
	for c, col := range cols {
		if col.value != nil {
			values := make([]words.Value, len(crowds))
			for i, r := range crowds {
				v, ok := col.value(r.Figures)
				disaster := words.FailureOver(s, crowds, i, sp) != "" || col.perSlot && words.FarAboveCapacity(s, v)
				values[i] = words.Value{V: v, OK: ok, Disaster: disaster}
			}
			for i, m := range words.Marks(values, notThrough, col.better) {
				switch m {
				case words.Best:
					out[i][c] = 1
				case words.Worst:
					out[i][c] = -1
				}
			}
		}
		if col.bad != nil {
			for i, r := range crowds {
				if col.bad(r.Figures) {
					out[i][c] = -1
				}
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
	mk := marks(d.Settings, d.Crowds, d.Evidence().Spread, cols)
	var rows [][]string
	var kinds [][]int // per cell: 1 best, -1 worst, 2 a spread row, 3 still overloaded
	for i, r := range d.Crowds {
		name := r.Policy.Name
		if cutShort(d, r.Policy) > 0 {
			name += " " + CutMark
		}
		row := []string{name}
		kind := []int{0}
		// A service still overloaded marks the policy's name too, which no
		// narrow pane cuts.
		for _, col := range cols {
			if col.alarm != nil && col.alarm(r.Figures) {
				row[0], kind[0] = name+" "+OverloadedMark, 3
				break
			}
		}
		for c, col := range cols {
			mark := " "
			switch mk[i][c] {
			case 1:
				mark = BestMark
			case -1:
				mark = WorstMark
			}
			k := mk[i][c]
			if col.alarm != nil && col.alarm(r.Figures) {
				mark, k = OverloadedMark, 3
			}
			row = append(row, col.cell(d, r.Figures)+mark)
			kind = append(kind, k)
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
		case 3:
			return st.Overloaded
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
	switch {
	case s.HasQueue():
		order := "the oldest first"
		if s.QueueOrder == backoff.LIFO {
			order = "the newest first"
		}
		parts = append(parts, fmt.Sprintf("The service then serves %s a second from a queue of at most %s requests, %s, and rejects an attempt that finds it full",
			words.Count(s.Capacity), words.Count(s.Queue), order))
		switch {
		case s.Timeout == 0:
			parts = append(parts, "clients wait for their answer for ever")
		case s.DropExpired:
			parts = append(parts, fmt.Sprintf("a client waits %s for its answer, then fails and may retry, and the service drops its expired request unworked", words.Human(s.Timeout)))
		default:
			parts = append(parts, fmt.Sprintf("a client waits %s for its answer, then fails and may retry, while the service still works on its expired request, for nothing", words.Human(s.Timeout)))
		}
	case s.Capacity > 0:
		parts = append(parts, fmt.Sprintf("The service then serves %s a second (%s a %s slot) and rejects the rest",
			words.Count(s.Capacity), words.Count(ceilDiv(s.Capacity*s.Slot, 1000)), words.Human(s.Slot)))
	default:
		parts = append(parts, "The service then serves every attempt")
	}
	if s.Load > 0 {
		parts = append(parts, fmt.Sprintf("%s fresh requests a second arrive until %s", words.Count(s.Load), words.Human(s.LoadEnd())))
	}
	if s.Budget.Kind != backoff.BudgetNone {
		procs := "1 process"
		switch {
		case s.Processes == backoff.PerClient:
			procs = words.Count(s.ProcessCount()) + " processes, one a client"
		case s.Processes != 1:
			procs = words.Count(s.Processes) + " processes"
		}
		parts = append(parts, fmt.Sprintf("retries are limited by the budget %s in each of %s", s.Budget, procs))
	}
	if g := words.Guards(s); g != "" {
		parts = append(parts, g)
	}
	return strings.Join(parts, "; ") + "."
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// DescribePolicy is a policy's fields in one line, in human units: "first
// 1 s, x2, longest 16 s, no jitter, 6 attempts". Linear growth stands where
// the multiplier, which it ignores, would: "first 1 s, linear (+1 s each
// retry), longest 5 s, ...".
func DescribePolicy(p backoff.Policy) string {
	jitter := "jitter " + p.Jitter.String()
	if !p.Jitter.Draws() {
		jitter = "no jitter"
	}
	growth := "x" + backoff.FormatThousandths(p.Multiplier)
	if p.Growth == backoff.GrowthLinear {
		growth = "linear (+" + words.Human(p.FirstWait) + " each retry)"
	}
	out := fmt.Sprintf("first %s, %s, longest %s, %s, %d attempts", words.Human(p.FirstWait), growth,
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
	out := fmt.Sprintf("%s the best of its column among the policies with the fewest clients not through (a policy does no better by losing clients), "+
		"never a policy no good for your service (still overloaded, or most of its crowd lost) nor a slot more than twice the capacity, "+
		"%s the worst of its column. not through: the clients that never got through, gave up, throttled or out of time, and their share of the clients the outage touched "+
		"(clients touched: those that start no later than the run's last failure; a later one meets nothing but success); "+
		"most in a slot: the most retries in one %s slot, and that as a rate a second; "+
		"busiest slot starts: where the first such slot starts; peak after back: the most attempts in one slot once the service is back. "+
		"- means there is none: no retries, or no client got through.", BestMark, WorstMark, words.Human(s.Slot))
	lost := words.AnyLost(d.Crowds)
	switch {
	case s.Load > 0 && lost:
		out += " crowd's last success: when the last client of the crowd, not of the fresh load, to get through did; some never did."
	case s.Load > 0:
		out += " crowd all through by: when the last client of the crowd, not of the fresh load, got through."
	case lost:
		out += " last success: the latest served attempt; some clients never got through."
	}
	if s.HasService() {
		out += " recovered after: from the outage's end until the service is stable; overloaded: still overloaded when the fresh load stops."
	}
	out += ownPolicy(d)
	for _, r := range d.Crowds {
		if r.Figures.StillOverloaded {
			out += fmt.Sprintf(" %s: the service was still overloaded, failing attempts in the load's last second, a failure that outlived the outage.", OverloadedMark)
			break
		}
	}
	if s.HasQueue() {
		out += fmt.Sprintf(" timed out: attempts whose client stopped waiting; wasted: expired requests the service worked on for nothing (%s in pane 3), "+
			"dropped: those it dropped; queue peak: the most requests waiting, of at most %s.", WastedGlyph, words.Count(s.Queue))
	}
	if s.Breaker.On() {
		out += " " + words.BreakerLegend
	}
	switch {
	case d.Seeds > 0 && d.Spread != nil && d.SpreadSoFar:
		out += fmt.Sprintf(" Under each policy, %s: the median and the 95th percentile over the %s, seeds %d to %d, with %s; the figures beside the name are seed %d's alone. The rest are on their way.",
			strings.TrimSpace(SpreadRowLabel), SeedsSoFar(d), d.Spread.First, d.Spread.First+d.Spread.Count-1, DrawsName(d.SpreadDraws), s.Seed)
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

// SeedsSoFar is how many of the spread's seeds are done: "37 of 100
// seeds done so far".
func SeedsSoFar(d RunData) string {
	if d.Spread == nil {
		return ""
	}
	return words.Count(d.Spread.Count) + " of " + words.Count(d.Seeds) + " seeds done so far"
}

// spreadSoFarNote stands beside a spread that is the seeds' done so far:
// how many, and that it settles as the rest land; "" for a whole spread.
func spreadSoFarNote(d RunData) string {
	if !d.SpreadSoFar || d.Spread == nil {
		return ""
	}
	return strings.TrimSpace(SpreadRowLabel) + " over the " + SeedsSoFar(d) + "; they settle as the rest land."
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
	left := min(w, crowdTablesWidth)
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

// crowdTablesWidth is the most pane 2's tables take beside the bars: the
// reference's columns and the clients not through, with their long heads;
// its sentences keep to ProseWidth.
const crowdTablesWidth = ProseWidth + 10

// crowdTables are pane 2's tables and sentences, at most w wide.
func crowdTables(d RunData, w int, st *Styles) string {
	s := d.Settings
	parts := []string{
		verdicts(d, w, st),
		"",
		st.Text.Render(prose(CrowdIntroFull(s, d.Policies), w)),
		"",
		figureTable(d, paneCrowdColumns(d), w, st),
	}
	if note := spreadSoFarNote(d); note != "" {
		parts = append(parts, st.Note.Render(prose(note, w)))
	}
	if note := crowdCutNote(d); note != "" {
		parts = append(parts, st.Warn.Render(prose(note, w)))
	}
	parts = append(parts, "",
		st.Title.Render(cut("Once the service is back at "+words.Human(s.Outage), w)),
		figureTable(d, backColumns(d), w, st))
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

// VerdictTitle heads pane 2's verdicts.
const VerdictTitle = "Will the service survive the retries?"

// verdicts are the policy to choose and why, the answer a person came
// for, then each policy's verdict, its name first, then the run's ranking.
func verdicts(d RunData, w int, st *Styles) string {
	lines := []string{st.Title.Render(cut(VerdictTitle, w))}
	ranking, choice := words.RankingAndChoice(d.Settings, d.Crowds, d.Evidence())
	if len(d.Crowds) > 1 {
		lines = append(lines, st.Answer.Render(prose(choice, w)))
	}
	for _, r := range d.Crowds {
		lines = append(lines, st.Text.Render(prose(r.Policy.Name+": "+words.Verdict(d.Settings, r.Figures), w)))
	}
	if len(d.Crowds) > 1 {
		lines = append(lines, st.Note.Render(prose(ranking, w)))
	}
	return strings.Join(lines, "\n")
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
	over := words.Count(d.Spread.Count) + " seeds"
	if d.SpreadSoFar {
		over = "the " + SeedsSoFar(d)
	}
	title := fmt.Sprintf("Peak after back over %s (%s): %s median, %s 95th percentile, %s worst",
		over, DrawsName(d.SpreadDraws), MedianMark, P95Mark, WorstBox)
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
