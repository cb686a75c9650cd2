package pane

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// The marks of a change from plan A to plan B.
const (
	BetterMark = "✓"
	WorseMark  = "✗"
	SameMark   = "="
	// NotJudgedMark follows a change that the side doing better on it
	// owes to losing more of its clients (words.Judge).
	NotJudgedMark = "~"
)

// compareFields are the figures A and B are held against, by JSON name:
// the crowd's, with the clients the outage touched where that is not
// every client on a side (the share of clients not through is of them),
// then the service's when either plan has one, and its queue's when either
// queues.
func compareFields(a, b RunData) []backoff.FigureField {
	names := []string{"not_through"}
	if touchedDiffers(a) || touchedDiffers(b) {
		names = append(names, "clients_touched")
	}
	names = append(names, "retries", "most_in_a_slot", "peak_after_back", "all_through_by_ms", "stable_from_ms", "gave_up", "latency_p99_ms")
	if a.Settings.HasService() || b.Settings.HasService() {
		names = append(names, "served", "rejected")
		if a.Settings.Budget.Kind != backoff.BudgetNone || b.Settings.Budget.Kind != backoff.BudgetNone {
			names = append(names, "throttled")
		}
		if a.Settings.HasQueue() || b.Settings.HasQueue() {
			names = append(names, "timed_out", "wasted", "dropped", "queue_peak")
		}
	}
	out := make([]backoff.FigureField, 0, len(names))
	for _, n := range names {
		if f, ok := backoff.FindField(n); ok {
			out = append(out, f)
		}
	}
	return out
}

// Change is B's value of a figure against A's, each side losing its
// clients as lostA and lostB: how much it moved, and whether that is
// better (+1), worse (-1), neither (0) or notJudged, as words.Judge
// decides. A figure that does not exist (-1: no client got through) ranks
// after every value.
func Change(f backoff.FigureField, a, b int, lostA, lostB words.Lost) (text string, better int) {
	switch words.Judge(f, a, b, lostA, lostB) {
	case words.Better:
		better = 1
	case words.Worse:
		better = -1
	case words.ByLosing:
		better = notJudged
	}
	absentA, absentB := f.Optional && a < 0, f.Optional && b < 0
	switch {
	case absentA && absentB, a == b:
		return SameMark, better
	case absentB:
		return "none now", better
	case absentA:
		return "some now", better
	}
	d := b - a
	sign := "+"
	if d < 0 {
		sign, d = "−", -d
	}
	text = sign + words.Count(d)
	if f.Time {
		text = sign + words.Human(d)
	}
	return text, better
}

func paneFigureValue(f backoff.FigureField, v int) string {
	if f.Time {
		return words.Human(v)
	}
	return words.Count(v)
}

// notJudged marks 2 for a change, better or worse, that the side doing
// better owes to leaving more of its clients not through (words.ByLosing).
const notJudged = 2

// CompareView is pane 2 while a pinned plan A differs from the plan B now:
// for each policy, each figure of both and the change, marked better or
// worse by character and colour; under each, the medians over seeds once
// both spreads have landed.
func CompareView(a, b RunData, w int, st *Styles) string {
	changes := PlanChanges(a.Settings, b.Settings)
	if !samePolicies(a, b) {
		changes = strings.TrimPrefix(changes+", the policies compared", ", ")
	}
	if changes == "" {
		changes = "the spread's seeds or draws"
	}
	intro := "A is the pinned plan, B the plan now; B differs in " + changes + "."
	legend := fmt.Sprintf("%s B is better than A, %s worse: fewer clients not through, fewer retries, a lower peak, an earlier time, fewer who gave up and a lower p99 are better. "+
		"%s not judged: the side that does better on it leaves more of its clients not through (by count, or where A and B run different clients by share of the clients the outage touched), so it does better by losing clients. x swaps A and B; P drops A.",
		BetterMark, WorseMark, NotJudgedMark)
	lines := []string{st.Title.Render(prose("Plans A and B, side by side", w)), st.Text.Render(prose(intro, w)), st.Muted.Render(prose(legend, w)), ""}
	fields := compareFields(a, b)
	pairs, onlyA, onlyB := comparePairs(a, b)
	if len(onlyA)+len(onlyB) > 0 {
		var parts []string
		if len(onlyA) > 0 {
			parts = append(parts, "only A compares "+words.And(onlyA))
		}
		if len(onlyB) > 0 {
			parts = append(parts, "only B compares "+words.And(onlyB))
		}
		lines = append(lines[:len(lines)-1], st.Muted.Render(prose(Sentence(strings.Join(parts, "; "))+".", w)), "")
	}
	var blocks []string
	bw := 0
	for _, pr := range pairs {
		bl := compareBlock(a, b, pr[0], pr[1], fields, w, st)
		blocks = append(blocks, bl)
		bw = max(bw, Width(bl))
	}
	perRow := max(min((w+2)/(bw+2), 3), 1)
	for i := 0; i < len(blocks); i += perRow {
		row := blocks[i:min(i+perRow, len(blocks))]
		spaced := []string{}
		for j, bl := range row {
			if j > 0 {
				spaced = append(spaced, "  ")
			}
			spaced = append(spaced, lipgloss.NewStyle().Width(bw).Render(bl))
		}
		lines = append(lines, lipgloss.JoinHorizontal(lipgloss.Top, spaced...), "")
	}
	return Fit(strings.TrimRight(strings.Join(lines, "\n"), "\n"), w, 1<<20)
}

// samePolicies reports whether both runs compare the same policies, by
// name, in the same order.
func samePolicies(a, b RunData) bool {
	if len(a.Policies) != len(b.Policies) {
		return false
	}
	for i := range a.Policies {
		if a.Policies[i].Name != b.Policies[i].Name {
			return false
		}
	}
	return true
}

// comparePairs are the policies of A and B held against each other: place
// by place when both compare as many (so that custom, renamed after the
// preset it now equals, is still itself), else by name, and the names only
// one of them compares.
func comparePairs(a, b RunData) (pairs [][2]int, onlyA, onlyB []string) {
	if len(a.Crowds) == len(b.Crowds) {
		for i := range b.Crowds {
			pairs = append(pairs, [2]int{i, i})
		}
		return pairs, nil, nil
	}
	inB := map[string]bool{}
	for j, cb := range b.Crowds {
		inB[cb.Policy.Name] = true
		found := false
		for i, ca := range a.Crowds {
			if ca.Policy.Name == cb.Policy.Name {
				pairs, found = append(pairs, [2]int{i, j}), true
				break
			}
		}
		if !found {
			onlyB = append(onlyB, cb.Policy.Name)
		}
	}
	for _, ca := range a.Crowds {
		if !inB[ca.Policy.Name] {
			onlyA = append(onlyA, ca.Policy.Name)
		}
	}
	return pairs, onlyA, onlyB
}

// Sentence is s with its first letter in capitals.
func Sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// compareBlock is A's policy i against B's policy j as a table: figure, A,
// B, the change; once both spreads have landed, the medians over seeds and
// their change beside them.
func compareBlock(a, b RunData, i, j int, fields []backoff.FigureField, w int, st *Styles) string {
	fa, fb := a.Crowds[i].Figures, b.Crowds[j].Figures
	spA, okA := a.policySpread(i)
	spB, okB := b.policySpread(j)
	medians := okA && okB && !a.SpreadSoFar && !b.SpreadSoFar // the whole spreads, not the seeds done so far
	name := b.Crowds[j].Policy.Name
	if an := a.Crowds[i].Policy.Name; an != name {
		name = an + " → " + name
	}
	lostA, lostB := words.LostOf(fa), words.LostOf(fb)
	var medLostA, medLostB words.Lost
	if medians {
		medLost := func(sp backoff.PolicySpread) words.Lost {
			return words.Lost{NotThrough: sp.Spread("not_through").Median, Clients: sp.Spread("clients").Median, Touched: sp.Spread("clients_touched").Median}
		}
		medLostA, medLostB = medLost(spA), medLost(spB)
	}
	// A share of clients not through is of the clients the outage touched.
	value := func(f backoff.FigureField, v, touched int) string {
		if f.Name == "not_through" {
			return words.Count(v) + " · " + words.Percent(v, touched)
		}
		return paneFigureValue(f, v)
	}
	var rows [][]string
	var kinds [][2]int // the change's and the median change's: 1 better, -1 worse, 0 neither, notJudged
	for _, f := range fields {
		va, vb := f.Get(fa), f.Get(fb)
		text, better := Change(f, va, vb, lostA, lostB)
		// Where a side loses clients, all through by is the last success.
		label := words.FigureLabel(f, fa.NotThrough > 0 || fb.NotThrough > 0)
		row := []string{label, value(f, va, lostA.Touched), value(f, vb, lostB.Touched), changeCell(text, better)}
		kind := [2]int{better, 0}
		if medians {
			ma, mb := spA.Spread(f.Name).Median, spB.Spread(f.Name).Median
			text, better := Change(f, ma, mb, medLostA, medLostB)
			row = append(row, value(f, ma, medLostA.Touched), value(f, mb, medLostB.Touched), changeCell(text, better))
			kind[1] = better
		}
		rows, kinds = append(rows, row), append(kinds, kind)
	}
	heads := []string{name, "A", "B", "change"}
	right := []bool{false, true, true, true}
	if medians {
		heads = append(heads, "median A", "median B", "change")
		right = append(right, true, true, true)
	}
	// A block too wide for w is wrapped, never cut: the one seed's
	// figures, then the medians', each a table of its own; then, where
	// even those do not fit, a line a figure.
	table := func(cols []int) string {
		var hs []string
		var rs []bool
		for _, c := range cols {
			hs, rs = append(hs, heads[c]), append(rs, right[c])
		}
		var sub [][]string
		for _, row := range rows {
			var r []string
			for _, c := range cols {
				r = append(r, row[c])
			}
			sub = append(sub, r)
		}
		return readTable(hs, sub, rs, 1<<16, st, func(row, col int) lipgloss.Style {
			if row < 0 || row >= len(kinds) || col >= len(cols) {
				return st.Cell
			}
			k := 0
			switch cols[col] {
			case 3:
				k = kinds[row][0]
			case 6:
				k = kinds[row][1]
			case 4, 5:
				return st.Muted
			}
			switch k {
			case 1:
				return st.Best
			case -1:
				return st.Worst
			case notJudged:
				return st.Muted
			}
			return st.Cell
		})
	}
	all := []int{0, 1, 2, 3}
	if medians {
		all = append(all, 4, 5, 6)
	}
	if t := table(all); Width(t) <= w {
		return t
	}
	parts := []string{table([]int{0, 1, 2, 3})}
	if medians {
		parts = append(parts, table([]int{0, 4, 5, 6}))
	}
	fits := true
	for _, p := range parts {
		fits = fits && Width(p) <= w
	}
	if fits {
		return strings.Join(parts, "\n")
	}
	lines := []string{st.Header.Render(Wrap(name, w))}
	for _, row := range rows {
		line := row[0] + ": A " + row[1] + ", B " + row[2] + ", " + strings.TrimSpace(row[3])
		if medians {
			line += "; medians " + row[4] + ", " + row[5] + ", " + strings.TrimSpace(row[6])
		}
		lines = append(lines, st.Cell.Render(WrapAtSpaces(line, w)))
	}
	return strings.Join(lines, "\n")
}

// changeCell is a change and its mark: "−114 ✓".
func changeCell(text string, better int) string {
	switch better {
	case 1:
		return text + " " + BetterMark
	case -1:
		return text + " " + WorseMark
	case notJudged:
		return text + " " + NotJudgedMark
	}
	return text + "  "
}
