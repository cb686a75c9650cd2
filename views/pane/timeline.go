package pane

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// partialBlocks is the ramp of a bar's last cell, in eighths of a cell:
// a bar of n eighths is n/8 full blocks and partialBlocks[n%8].
var partialBlocks = [8]string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

const fullBlock = "█"

// BackMark is put between a row's time and its bar when the service is back
// in that row.
const BackMark = "▶"

// Bar is n against most drawn in at most width cells, to an eighth of a
// cell, and the cells it takes; any n above 0 shows at least an eighth.
func Bar(n, most, width int) (bar string, cells int) {
	if n <= 0 || most <= 0 || width <= 0 {
		return "", 0
	}
	eighths := int(int64(min(n, most)) * int64(width) * 8 / int64(most))
	eighths = max(eighths, 1)
	return strings.Repeat(fullBlock, eighths/8) + partialBlocks[eighths%8], (eighths + 7) / 8
}

// SlotRow is one row of pane 3: the attempts of the slots it covers, by
// what the service did, and the retries among them. With a queue an
// attempt that timed out is counted where the service reached its expired
// request: Wasted (it worked on it for nothing) or Dropped; Queue is the
// queue's length at the row's end. With a breaker, Short are the attempts
// it failed at once and Opened the moments a breaker opened.
type SlotRow struct {
	Served, Rejected, Down, Retries int
	Wasted, Dropped, Queue          int
	Short, Opened                   int
}

// Attempts is the row's attempts, each once: with a queue, those that timed
// out where their requests were wasted or dropped.
func (r SlotRow) Attempts() int {
	return r.Served + r.Rejected + r.Down + r.Wasted + r.Dropped + r.Short
}

// Reached is the row's attempts that reached the service: all but those a
// breaker failed at once, as peak_after_back counts them (MODEL.md
// section 7).
func (r SlotRow) Reached() int { return r.Attempts() - r.Short }

// AggregateRows sums a series into rows of rowMs, which must be a multiple
// of the series' slot: row j covers [j*rowMs, (j+1)*rowMs).
func AggregateRows(se *backoff.Series, rowMs int) []SlotRow { return AggregateRowsFrom(se, 0, rowMs) }

// AggregateRowsFrom sums a series into rows of rowMs from fromMs on, both
// multiples of the series' slot: row j covers [fromMs + j*rowMs, fromMs +
// (j+1)*rowMs).
func AggregateRowsFrom(se *backoff.Series, fromMs, rowMs int) []SlotRow {
	if se == nil || se.Slot <= 0 || rowMs < se.Slot {
		return nil
	}
	k := rowMs / se.Slot
	first := max(fromMs, 0) / se.Slot
	n := se.Len() - first
	if n <= 0 {
		return nil
	}
	out := make([]SlotRow, (n+k-1)/k)
	for i := range n {
		r, slot := &out[i/k], first+i
		r.Served += se.Served[slot]
		r.Rejected += se.Rejected[slot]
		r.Down += se.FailedWhileDown[slot]
		r.Retries += se.Retries[slot]
		if se.Queued {
			r.Wasted += se.Wasted[slot]
			r.Dropped += se.Dropped[slot]
			r.Queue = se.Queue[slot] // the row's last slot's, at its end
		}
		if se.Breaker {
			r.Short += se.ShortCircuited[slot]
			r.Opened += se.Opened[slot]
		}
	}
	return out
}

// niceSteps are the multiples of a slot a row may take.
var niceSteps = []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000, 2000000, 5000000}

// TimelineRowMs is how wide pane 3's rows are: the first of unit x 1, 2,
// 5, 10, 20, ... whose rows for slots slots of unit ms (the longest
// series) fit in two screens of room lines.
func TimelineRowMs(unit, slots, room int) int {
	unit = max(unit, 1)
	fit := max(2*room, 1)
	for _, k := range niceSteps {
		if (slots+k-1)/k <= fit {
			return unit * k
		}
	}
	return unit * niceSteps[len(niceSteps)-1]
}

// TimelineRun is one run's rows for pane 3.
type TimelineRun struct {
	Settings  backoff.Settings
	Policies  []backoff.Policy
	Rows      [][]SlotRow // per policy, rows of the data's RowMs
	Truncated bool        // a series stopped at its most slots
}

// TimelineData is what pane 3 shows.
type TimelineData struct {
	B      TimelineRun
	A      *TimelineRun // the pinned plan, when it differs
	Chosen int
	All    bool
	RowMs  int
	Stale  bool
	// FromBack shows the time from the service's return on (the b key),
	// its rows from FromMs, scaled to what happens there.
	FromBack bool
	FromMs   int
	Pinned   bool // B is pinned as A: nothing to set beside it yet
}

// rowCount is how many rows the pane draws: the longest of the runs shown,
// and at least the row the service is back in.
func (d TimelineData) rowCount() int {
	n := 0
	for _, r := range d.runs() {
		for _, rows := range r.Rows {
			n = max(n, len(rows))
		}
		if d.RowMs > 0 {
			n = max(n, (r.Settings.Outage-d.FromMs)/d.RowMs+1)
		}
	}
	return n
}

func (d TimelineData) runs() []TimelineRun {
	if d.A != nil {
		return []TimelineRun{*d.A, d.B}
	}
	return []TimelineRun{d.B}
}

// barColumn is one bar of a row: whose rows, and the settings for its capacity.
type barColumn struct {
	name string
	rows []SlotRow
	s    backoff.Settings
}

// columns are the bars of each row: the chosen policy; all of them; or the
// chosen policy of A and of B.
func (d TimelineData) columns() []barColumn {
	pick := func(r TimelineRun, i int) barColumn {
		if i < 0 || i >= len(r.Rows) {
			return barColumn{s: r.Settings}
		}
		return barColumn{name: r.Policies[i].Name, rows: r.Rows[i], s: r.Settings}
	}
	switch {
	case d.A != nil:
		// A's policy of B's chosen one's name, where A compares others.
		ai := d.Chosen
		if len(d.A.Policies) != len(d.B.Policies) && d.Chosen < len(d.B.Policies) {
			ai = -1
			for i, p := range d.A.Policies {
				if p.Name == d.B.Policies[d.Chosen].Name {
					ai = i
				}
			}
		}
		a, b := pick(*d.A, ai), pick(d.B, d.Chosen)
		a.name, b.name = "A: "+a.name, "B: "+b.name
		return []barColumn{a, b}
	case d.All:
		cols := make([]barColumn, len(d.B.Rows))
		for i := range cols {
			cols[i] = pick(d.B, i)
		}
		return cols
	}
	return []barColumn{pick(d.B, d.Chosen)}
}

// rowCapacity is the attempts the row of rowMs from fromMs serves under
// s's capacity, its slots' shares summed (they add up to floor(C x end /
// 1000) - floor(C x start / 1000)); -1 without one.
func rowCapacity(s backoff.Settings, fromMs, rowMs int) int {
	if s.Capacity <= 0 {
		return -1
	}
	c := int64(s.Capacity)
	return int(c*int64(fromMs+rowMs)/1000 - c*int64(fromMs)/1000)
}

// scale is the most any bar shown reaches, its capacity included.
func (d TimelineData) scale(cols []barColumn) int {
	most := 1
	for _, c := range cols {
		for _, r := range c.rows {
			most = max(most, r.Attempts())
		}
		if c.s.Capacity > 0 && d.RowMs > 0 {
			most = max(most, ceilDiv(c.s.Capacity*d.RowMs, 1000))
		}
	}
	return most
}

// TimelineHead is the fixed top of pane 3: the policies, what each row
// counts, the busiest row once the service is back, and the legend.
func TimelineHead(d TimelineData, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 || len(d.B.Policies) == 0 {
		return ""
	}
	s := d.B.Settings
	each := "each " + words.Human(d.RowMs)
	if d.RowMs == 1000 {
		each = "each second"
	}
	if d.RowMs != s.Slot {
		each += fmt.Sprintf(" (%s slots of %s)", words.Count(d.RowMs/max(s.Slot, 1)), words.Human(s.Slot))
	}
	if d.FromBack {
		each += ", from the service's return"
	}
	cols := d.columns()
	var title string
	switch {
	case d.A != nil:
		title = fmt.Sprintf("A and B of %s: attempts in %s", d.B.Policies[min(d.Chosen, len(d.B.Policies)-1)].Name, each)
	case d.All:
		title = fmt.Sprintf("All %d on one scale: attempts in %s", len(d.B.Policies), each)
	default:
		title = fmt.Sprintf("%s: attempts in %s", cols[0].name, each)
	}
	var lines []string
	if !d.All || d.A != nil {
		lines = append(lines, PolicyRow(PolicyNames(d.B.Policies), d.Chosen, w, st))
	}
	lines = append(lines, st.Title.Render(Wrap(title, w)))
	if d.Stale {
		lines = append(lines, st.Note.Render(prose("Recomputing for the new settings; these are the last settings' attempts.", w)))
	}
	if d.Pinned && d.A == nil {
		lines = append(lines, st.Note.Render(prose(PinnedNote, w)))
	}
	if len(cols) == 1 {
		lines = append(lines, st.Muted.Render(prose(d.busiestAfterBack(cols[0]), w)))
	}
	if d.A != nil {
		if changes := PlanChanges(d.A.Settings, d.B.Settings); changes != "" {
			lines = append(lines, st.Text.Render(prose("B differs from A in "+changes+".", w)))
		}
	}
	legend := ServedGlyph + " served  "
	switch {
	case s.HasQueue() && s.DropExpired:
		legend += DroppedGlyph + " dropped: its client had left  "
	case s.HasQueue():
		legend += WastedGlyph + " wasted: work for a client that had left  "
	}
	legend += fmt.Sprintf("%s rejected  %s failed while down", RejectedGlyph, DownGlyph)
	if s.Breaker.On() {
		legend += fmt.Sprintf("  %s %s  %s %s", ShortGlyph, words.ShortCircuitedKey, OpenedMark, words.BreakerOpenedKey)
	}
	if s.Capacity > 0 {
		legend += "  " + CapacityMark + " capacity"
	}
	if s.HasQueue() && len(cols) == 1 {
		legend += fmt.Sprintf("  %s the queue's length at the row's end, of %s", QueueMark, words.Count(s.Queue))
	}
	legend += "  " + BackMark + " back at " + words.Human(s.Outage)
	lines = append(lines, st.Muted.Render(prose(legend, w)))
	if len(cols) > 1 && len(d.columnGroups(cols, w)) == 1 {
		lines = append(lines, columnNames(d, cols, w, st))
	}
	return strings.Join(lines, "\n")
}

// busiestAfterBack is the row with the most attempts at or after the
// service is back, and that as a rate.
func (d TimelineData) busiestAfterBack(c barColumn) string {
	rowMs := d.RowMs
	if rowMs <= 0 {
		return ""
	}
	from := max(c.s.Outage-d.FromMs, 0) / rowMs
	best, at := -1, -1
	for j := from; j < len(c.rows); j++ {
		if n := c.rows[j].Reached(); n > best {
			best, at = n, j
		}
	}
	if at < 0 {
		return "No attempts once the service is back."
	}
	busiest, bat := 0, 0
	for j, r := range c.rows {
		if n := r.Attempts(); n > busiest {
			busiest, bat = n, j
		}
	}
	reached := words.Count(best)
	if c.s.Breaker.On() {
		reached += " reaching it" // short-circuited attempts never do
	}
	if d.FromBack {
		return fmt.Sprintf("Busiest row once the service is back %s at %s (%s); b shows the whole run.",
			reached, words.Human(d.FromMs+at*rowMs), words.Rate(best, rowMs))
	}
	return fmt.Sprintf("Busiest row %s at %s (%s); once the service is back, %s at %s (%s); b shows the time from then on, scaled to it.",
		words.Count(busiest), words.Human(bat*rowMs), words.Rate(busiest, rowMs), reached, words.Human(at*rowMs), words.Rate(best, rowMs))
}

// QueueMark begins the queue's length after a row of pane 3.
const QueueMark = "q"

// OpenedMark marks a row in which a breaker opened, in the gutter (where
// the service is not back in it) and, with one column, before how many
// opened after the row.
const OpenedMark = "⊗"

// geometry is the widths of pane 3's rows.
type geometry struct {
	label, count, column, bar int
	rate                      bool
	queue                     int // the queue's length after the count, with its mark: 0 for none
	opened                    int // the breakers opened after that, with their mark: 0 for none
}

func (d TimelineData) geometry(cols []barColumn, w int) geometry { return d.geometryOf(cols, cols, w) }

// geometryOf is the widths of rows of cols, among all on one scale.
func (d TimelineData) geometryOf(cols, all []barColumn, w int) geometry {
	rows := d.rowCount()
	g := geometry{label: len(words.Human(d.FromMs + max(rows-1, 0)*d.RowMs)), count: len(words.Count(d.scale(all)))}
	rest := max(w-g.label-3, 0) // the label, then " ▶ "
	g.column = rest / max(len(cols), 1)
	if len(cols) == 1 {
		// A row of a second counts its rate a second already.
		g.rate = d.RowMs != 1000
		g.bar = max(rest-g.count-1, 0) // bar, " ", count
		if g.rate {
			g.bar = max(g.bar-len(words.Rate(d.scale(cols), d.RowMs))-3, 0) // " · ", rate
		}
		if s := cols[0].s; s.HasQueue() {
			g.queue = len(QueueMark) + 4 + len(words.Count(s.Queue)) // "  q ", the longest
			g.bar = max(g.bar-g.queue, 0)
		}
		if s := cols[0].s; s.Breaker.On() {
			most := 0
			for _, r := range cols[0].rows {
				most = max(most, r.Opened)
			}
			g.opened = 3 + len(words.Count(most)) // "  ⊗ ", one cell for the mark
			g.bar = max(g.bar-g.opened-1, 0)
		}
	} else {
		g.bar = max(g.column-g.count-2, 0) // bar, space, count, space
	}
	return g
}

func columnNames(d TimelineData, cols []barColumn, w int, st *Styles) string {
	return columnNamesOf(d, cols, cols, 0, w, st)
}

// minColumnBar is the least bar each of several columns gets: past it, the
// columns are shown in groups, one after another (columnGroups).
const minColumnBar = 4

// columnGroups are the columns in groups as wide as w holds, each column
// with its count whole and a bar of at least minColumnBar: one group when
// all fit, else as few groups, as even, as it takes.
func (d TimelineData) columnGroups(cols []barColumn, w int) [][]barColumn {
	if len(cols) < 2 {
		return [][]barColumn{cols}
	}
	g := d.geometry(cols, w)
	per := max(max(w-g.label-3, 0)/(g.count+2+minColumnBar), 1)
	n := (len(cols) + per - 1) / per
	size := (len(cols) + n - 1) / n
	var out [][]barColumn
	for i := 0; i < len(cols); i += size {
		out = append(out, cols[i:min(i+size, len(cols))])
	}
	return out
}

// columnNamesOf is the names over cols, the offset-th of all on.
func columnNamesOf(d TimelineData, cols, all []barColumn, offset, w int, st *Styles) string {
	g := d.geometryOf(cols, all, w)
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", g.label+3))
	for i, c := range cols {
		name := " " + c.name
		style := st.Muted
		if d.A == nil && i+offset == d.Chosen {
			name, style = "["+c.name+"]", st.PolicySelected
		}
		name = cut(name, max(g.column-1, 0))
		b.WriteString(style.Render(name) + strings.Repeat(" ", max(g.column-ansi.StringWidth(name), 0)))
	}
	return Fit(b.String(), w, 1)
}

// TimelineColumnAt is the column of the all-policies view under x, or -1.
func TimelineColumnAt(d TimelineData, w, x int) int {
	cols := d.columns()
	if len(cols) < 2 || d.A != nil || len(d.columnGroups(cols, w)) > 1 {
		return -1
	}
	g := d.geometry(cols, w)
	x -= g.label + 3
	if x < 0 || g.column <= 0 {
		return -1
	}
	if i := x / g.column; i < len(cols) {
		return i
	}
	return -1
}

// TimelineBody is pane 3's rows at width w, for a viewport to scroll: every
// row of the time axis, empty ones included, its start, the back mark, then
// each column's stacked bar (served, with a queue wasted and dropped,
// rejected, failed while down, with a breaker short-circuited) with the
// row's capacity drawn across it, and its count; with one column also the
// count as a rate a second, with a queue its length at the row's end, and
// with a breaker how many opened in the row. A row in which a breaker
// opened has OpenedMark in its gutter, unless the service is back in it.
func TimelineBody(d TimelineData, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 || d.RowMs <= 0 || len(d.B.Policies) == 0 {
		return ""
	}
	all := d.columns()
	groups := d.columnGroups(all, w)
	if len(groups) == 1 {
		return d.body(all, all, w, st)
	}
	// Too many columns for the width: each group of them over the whole
	// time axis, its names above it, all on one scale.
	var parts []string
	offset := 0
	for _, cols := range groups {
		parts = append(parts, columnNamesOf(d, cols, all, offset, w, st)+"\n"+d.body(cols, all, w, st))
		offset += len(cols)
	}
	return strings.Join(parts, "\n\n")
}

// body is the rows of cols, among all on one scale.
func (d TimelineData) body(cols, all []barColumn, w int, st *Styles) string {
	g := d.geometryOf(cols, all, w)
	most := d.scale(all)
	// Each style is worked out once; a row then only joins strings.
	muted, back, num, line := newPaint(st.Muted), newPaint(st.Back), newPaint(st.Count), newPaint(st.Capacity)
	served, rejected, down := newPaint(st.Served), newPaint(st.Rejected), newPaint(st.FailDown)
	wasted, dropped, queue := newPaint(st.Wasted), newPaint(st.Dropped), newPaint(st.Queue)
	short, opened := newPaint(st.Short), newPaint(st.Opened)
	mark, openedMark := back.paint(BackMark), opened.paint(OpenedMark)
	backRow := (d.B.Settings.Outage - d.FromMs) / d.RowMs
	var b strings.Builder
	for j := range d.rowCount() {
		if j > 0 {
			b.WriteByte('\n')
		}
		label, gutter := muted, " "
		for _, c := range cols {
			if j < len(c.rows) && c.rows[j].Opened > 0 {
				gutter = openedMark
			}
		}
		if j == backRow {
			label, gutter = back, mark
		}
		b.WriteString(label.paint(padLeft(words.Human(d.FromMs+j*d.RowMs), g.label)))
		b.WriteString(" " + gutter + " ")
		for i, c := range cols {
			var r SlotRow
			if j < len(c.rows) {
				r = c.rows[j]
			}
			capLn := -1
			if c.s.Capacity > 0 && d.FromMs+(j+1)*d.RowMs > c.s.Outage {
				capLn = capLine(rowCapacity(c.s, d.FromMs+j*d.RowMs, d.RowMs), most, g.bar)
			}
			bar, cells := drawStack([]segment{{r.Served, ServedGlyph, served}, {r.Wasted, WastedGlyph, wasted}, {r.Dropped, DroppedGlyph, dropped},
				{r.Rejected, RejectedGlyph, rejected}, {r.Down, DownGlyph, down}, {r.Short, ShortGlyph, short}},
				most, g.bar, capLn, line)
			digits := words.Count(r.Attempts())
			if r.Attempts() == 0 {
				digits = ""
			}
			if len(cols) == 1 {
				waiting := ""
				if g.queue > 0 && r.Queue > 0 {
					waiting = "  " + queue.paint(QueueMark+" "+words.Count(r.Queue))
				}
				if g.opened > 0 && r.Opened > 0 {
					waiting += "  " + opened.paint(OpenedMark+" "+words.Count(r.Opened))
				}
				switch {
				case digits == "" && waiting == "":
					b.WriteString(strings.TrimRight(bar, " "))
				case digits == "":
					b.WriteString(bar + waiting)
				case g.rate:
					b.WriteString(bar + " " + num.paint(digits) + muted.paint(" · "+words.Rate(r.Attempts(), d.RowMs)) + waiting)
				default:
					b.WriteString(bar + " " + num.paint(digits) + waiting)
				}
				continue
			}
			b.WriteString(bar + " " + num.paint(digits))
			if i < len(cols)-1 {
				b.WriteString(strings.Repeat(" ", max(g.column-cells-1-len(digits), 0)))
			}
		}
	}
	out := b.String()
	if note := truncatedNote(d); note != "" {
		out += "\n" + st.Note.Render(prose(note, w))
	}
	// The geometry keeps every row within w unless w is too narrow for even
	// an empty bar and its count.
	if g.bar == 0 || Width(out) > w {
		out = Fit(out, w, Height(out))
	}
	return out
}

func truncatedNote(d TimelineData) string {
	for _, r := range d.runs() {
		if r.Truncated {
			return fmt.Sprintf("The count stops after %s slots: the crowd runs longer than the program counts it.", words.Count(backoff.MaxSeriesSlots))
		}
	}
	return ""
}

// paint is a style worked out once as the codes before and after the text,
// for views that style hundreds of short strings.
type paint struct{ pre, post string }

func newPaint(s lipgloss.Style) paint {
	pre, post, _ := strings.Cut(s.Render("x"), "x")
	return paint{pre, post}
}

func (p paint) paint(text string) string {
	if text == "" {
		return ""
	}
	return p.pre + text + p.post
}
