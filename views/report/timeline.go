package report

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/plain"
)

// The timeline report: a crowd's attempts over time, one policy or several
// side by side. The crowd is counted in the settings' slots, the slot
// crowd counts in and the capacity is shared out by (MODEL.md); a row of
// the report groups RowMs / slot of them, a display choice only, so that
// summed over its rows the timeline gives the crowd's counts exactly. The
// text of one policy is the reference's histogram (a row for each row with
// retries), and its tables, as those of several policies side by side, a
// row for each row with any attempt, retry or, with a queue, request the
// service reached or left waiting (in any of the policies); CSV and JSON
// list every row from the first to the last with any attempt, empty ones
// too, so that a chart's time axis is even. With a
// queue every face adds each row's timed out, wasted and dropped requests
// and the queue's length at its end; without one the timeline is as it
// was. A series
// may hold millions of slots, so the report is written row by row as it
// goes, never built whole.

// Timeline is a timeline report.
type Timeline struct {
	Settings backoff.Settings // their slot is the model's: the runs' series count in it
	Runs     []backoff.Result // each with its series
	SideBy   bool             // several policies side by side, even if one
	RowMs    int              // a row's width, a whole number of slots; 0 for the slot
	FromBack bool             // the rows start at the slot the service is back in
}

// DefaultRowMs is a timeline's rows without --every: the fewest whole slots
// that span at least a second, so that the text reads as the reference's
// retries in each second (1 s of 100 ms slots; 1.2 s of 300 ms slots; a
// slot of a second or more alone).
func DefaultRowMs(slot int) int {
	slot = max(slot, 1)
	return (1000 + slot - 1) / slot * slot
}

// slot is the model's slot; per how many a row groups; first the first
// slot the rows count from.
func (tl Timeline) slot() int  { return max(tl.Settings.Slot, 1) }
func (tl Timeline) per() int   { return max(tl.RowMs/tl.slot(), 1) }
func (tl Timeline) rowMs() int { return tl.per() * tl.slot() }
func (tl Timeline) first() int {
	if tl.FromBack {
		return tl.Settings.Outage / tl.slot()
	}
	return 0
}

// rowFrom is row j's start in ms.
func (tl Timeline) rowFrom(j int) int { return (tl.first() + j*tl.per()) * tl.slot() }

// slots is how many slots the timeline counts: up to the last one with any
// attempt in any of the runs, with a queue any request the service
// reached or left waiting, or a breaker that opened.
func (tl Timeline) slots() int {
	n := 0
	for _, r := range tl.Runs {
		for i := r.Series.Len() - 1; i >= n; i-- {
			if r.Series.Attempts(i) > 0 || r.Series.Retries[i] > 0 || r.Series.Queued && (r.Series.Wasted[i] > 0 || r.Series.Dropped[i] > 0 || r.Series.Queue[i] > 0) ||
				r.Series.Breaker && r.Series.Opened[i] > 0 {
				n = i + 1
				break
			}
		}
	}
	return n
}

// rows is how many rows the timeline lists: up to the last with any
// attempt.
func (tl Timeline) rows() int {
	n := tl.slots() - tl.first()
	if n <= 0 {
		return 0
	}
	return (n + tl.per() - 1) / tl.per()
}

// slotCounts is a row of a run's series, zero past its end.
type slotCounts struct {
	retries, attempts, served, rejected, down int
	timedOut, wasted, dropped, queue          int // with a queue; 0 without
	short, opened                             int // with a breaker; 0 without
}

// countsAt is row j of a run's series: its slots summed.
func (tl Timeline) countsAt(sr *backoff.Series, j int) slotCounts {
	var c slotCounts
	from := tl.first() + j*tl.per()
	for i := from; i < min(from+tl.per(), sr.Len()); i++ {
		c.retries += sr.Retries[i]
		c.attempts += sr.Attempts(i)
		c.served += sr.Served[i]
		c.rejected += sr.Rejected[i]
		c.down += sr.FailedWhileDown[i]
		if sr.Queued {
			c.timedOut += sr.TimedOut[i]
			c.wasted += sr.Wasted[i]
			c.dropped += sr.Dropped[i]
			c.queue = sr.Queue[i] // the row's last slot's, at its end
		}
		if sr.Breaker {
			c.short += sr.ShortCircuited[i]
			c.opened += sr.Opened[i]
		}
	}
	return c
}

// capacityAt is row j's capacity: the summed capacity of its slots in
// which the service is back at some moment, slot i = [i*S, (i+1)*S) being
// one when (i+1)*S > outage (the slot the service comes back in serves
// its cap(i) from then). -1 without a capacity, and for a row the service
// is down through (issue 24, item 14): it serves nothing there.
func (tl Timeline) capacityAt(j int) int {
	if tl.Settings.Capacity <= 0 {
		return -1
	}
	sum, up := 0, false
	from := tl.first() + j*tl.per()
	for i := from; i < from+tl.per(); i++ {
		if (i+1)*tl.slot() > tl.Settings.Outage {
			sum += tl.Settings.SlotCapacity(i, tl.slot())
			up = true
		}
	}
	if !up {
		return -1
	}
	return sum
}

var slotHeader = []string{"from_ms", "retries", "attempts", "served", "rejected", "failed_while_down", "capacity"}

// rowHeader are the columns that say what a row is, last.
var rowHeader = []string{"slot_ms", "row_ms"}

// each is what a row spans, for the text: "second" for a row of 1000 ms.
func (tl Timeline) each() string {
	if tl.rowMs() == 1000 {
		return "second"
	}
	return plain.Millis(tl.rowMs())
}

// queueHeader are the columns a queue adds after slotHeader's.
var queueHeader = []string{"timed_out", "wasted", "dropped", "queue"}

// breakerHeader are the columns a breaker adds after those.
var breakerHeader = []string{"short_circuited", "breaker_opened"}

// rowNames are a row's columns in CSV and JSON, before rowHeader's.
func (tl Timeline) rowNames() []string {
	names := slices.Clone(slotHeader)
	if tl.Settings.HasQueue() {
		names = append(names, queueHeader...)
	}
	if tl.Settings.Breaker.On() {
		names = append(names, breakerHeader...)
	}
	return names
}

// outcomeTable writes one policy's table of every row's attempts by
// outcome and its capacity, with a queue its timed out, wasted and dropped
// requests and its length, with a breaker the attempts short-circuited and
// the breakers opened.
func (tl Timeline) outcomeTable(bw *bufio.Writer, busy []int, r backoff.Result) {
	s := tl.Settings
	head := []string{"attempts", "served", "rejected", "failed while down"}
	if s.HasQueue() {
		head = append(head, "timed out", "wasted", "dropped")
	}
	head = append(head, "capacity")
	if s.HasQueue() {
		head = append(head, "queue")
	}
	if s.Breaker.On() {
		head = append(head, "short-circuited", "breaker opened")
	}
	tl.slotTable(bw, busy, head, func(i int, cells []int) {
		c := tl.countsAt(r.Series, i)
		out := append(cells[:0], c.attempts, c.served, c.rejected, c.down)
		if s.HasQueue() {
			out = append(out, c.timedOut, c.wasted, c.dropped)
		}
		out = append(out, tl.capacityAt(i))
		if s.HasQueue() {
			out = append(out, c.queue)
		}
		if s.Breaker.On() {
			out = append(out, c.short, c.opened)
		}
	})
}

// WriteText writes the timeline as text. One policy: the reference's
// histogram of retries, then, with a service, every row's attempts by
// outcome and its capacity. Side by side: every row's retries of each
// policy, and with a service their rejected attempts. Then what a row is,
// the notes and the draws.
func (tl Timeline) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	s, n := tl.Settings, tl.rows()
	var busy []int // the tables' rows, found once
	if tl.SideBy || s.HasService() {
		busy = tl.busyRows(n)
	}
	if !tl.SideBy {
		r := tl.Runs[0]
		tl.writeHistogram(bw, r, n)
		if s.HasQueue() {
			fmt.Fprintf(bw, "Every row's attempts by outcome, each in the slot it came in: served when the service completed it, timed out when its client stopped waiting "+
				"(the first attempts and the fresh load's included); the expired requests the service wasted or dropped when it reached them; "+
				"the queue's length at the row's end; %s:\n", ServiceLine(s))
			tl.outcomeTable(bw, busy, r)
		} else if s.HasService() {
			fmt.Fprintf(bw, "Every row's attempts, the first ones and the fresh load's included, by outcome; %s:\n", ServiceLine(s))
			tl.outcomeTable(bw, busy, r)
		}
		if s.Breaker.On() {
			bw.WriteString(breakerRowsNote)
		}
	} else {
		var names []string
		for _, r := range tl.Runs {
			names = append(names, r.Policy.String())
		}
		side := func(count func(slotCounts) int) func(int, []int) {
			return func(j int, cells []int) {
				for p, r := range tl.Runs {
					cells[p] = count(tl.countsAt(r.Series, j))
				}
			}
		}
		fmt.Fprintf(bw, "Retries in each %s%s, side by side:\n", tl.each(), tl.fromWords())
		tl.slotTable(bw, busy, names, side(func(c slotCounts) int { return c.retries }))
		if s.HasService() {
			fmt.Fprintf(bw, "Attempts rejected in each %s; %s:\n", tl.each(), ServiceLine(s))
			tl.slotTable(bw, busy, names, side(func(c slotCounts) int { return c.rejected }))
			if s.HasQueue() {
				fmt.Fprintf(bw, "Attempts timed out in each %s:\n", tl.each())
				tl.slotTable(bw, busy, names, side(func(c slotCounts) int { return c.timedOut }))
				if s.DropExpired {
					fmt.Fprintf(bw, "Expired requests dropped in each %s:\n", tl.each())
					tl.slotTable(bw, busy, names, side(func(c slotCounts) int { return c.dropped }))
				} else {
					fmt.Fprintf(bw, "Expired requests wasted in each %s: capacity spent on clients that had left:\n", tl.each())
					tl.slotTable(bw, busy, names, side(func(c slotCounts) int { return c.wasted }))
				}
				fmt.Fprintf(bw, "The queue's length at the end of each %s, of at most %d:\n", tl.each(), s.Queue)
				tl.slotTable(bw, busy, names, side(func(c slotCounts) int { return c.queue }))
			}
			if s.Breaker.On() {
				fmt.Fprintf(bw, "Attempts short-circuited in each %s, by a breaker open, never reaching the service:\n", tl.each())
				tl.slotTable(bw, busy, names, side(func(c slotCounts) int { return c.short }))
				fmt.Fprintf(bw, "Breakers opened in each %s:\n", tl.each())
				tl.slotTable(bw, busy, names, side(func(c slotCounts) int { return c.opened }))
			}
			guarded := ""
			if s.Breaker.On() {
				guarded = "; with the breaker, its short-circuited attempts and breakers opened"
			}
			if s.HasQueue() {
				bw.WriteString("CSV and JSON give every row's attempts, served, rejected, failed while down, its capacity, and timed out, wasted, dropped and the queue's length" + guarded + ".\n")
			} else {
				bw.WriteString("CSV and JSON give every row's attempts, served, rejected and failed while down, and its capacity" + guarded + ".\n")
			}
		}
	}
	bw.WriteString(tl.rowsLine())
	bw.WriteString(tl.notes())
	return bw.Flush()
}

// fromWords says where the rows start, when not at 0 ms.
func (tl Timeline) fromWords() string {
	if tl.first() == 0 {
		return ""
	}
	return fmt.Sprintf(" from %d ms, when the service is back", tl.rowFrom(0))
}

// rowsLine says what a row is, when it groups slots or starts late: the
// model's slot bounds the capacity, the row only sums what the slots
// counted.
func (tl Timeline) rowsLine() string {
	if tl.per() == 1 && tl.first() == 0 {
		return ""
	}
	out := fmt.Sprintf("The crowd is counted per %d ms slot, as crowd counts it (the slot shares out the capacity); a row sums %d of them, %d ms (--every)",
		tl.slot(), tl.per(), tl.rowMs())
	if tl.first() > 0 {
		out += fmt.Sprintf(", from the slot the service is back in, %d ms (--from back)", tl.rowFrom(0))
	}
	return out + ".\n"
}

// writeHistogram writes the reference's histogram (plain.HistogramText) of
// n rows as it goes: a row of # for each row with retries, scaled to the
// busiest row. With rows of a second from 0 ms it is the reference's, byte
// for byte.
func (tl Timeline) writeHistogram(w *bufio.Writer, r backoff.Result, n int) {
	most := 0
	for j := range n {
		most = max(most, tl.countsAt(r.Series, j).retries)
	}
	scale := plain.HashScale(most)
	fmt.Fprintf(w, "%s: retries in each %s%s, # for every %d:\n", r.Policy, tl.each(), tl.fromWords(), scale)
	for j := range n {
		if c := tl.countsAt(r.Series, j).retries; c > 0 {
			fmt.Fprintf(w, "  %7d ms %5d  %s\n", tl.rowFrom(j), c, strings.Repeat("#", (c+scale-1)/scale))
		}
	}
}

// busy reports whether row j has anything in any run: an attempt, a
// retry, with a queue a request the service reached or left waiting, or a
// breaker that opened.
func (tl Timeline) busy(j int) bool {
	for _, r := range tl.Runs {
		c := tl.countsAt(r.Series, j)
		if c.attempts > 0 || c.retries > 0 || c.wasted > 0 || c.dropped > 0 || c.queue > 0 || c.opened > 0 {
			return true
		}
	}
	return false
}

// busyRows are the rows of the first n that are busy.
func (tl Timeline) busyRows(n int) []int {
	var rows []int
	for j := range n {
		if tl.busy(j) {
			rows = append(rows, j)
		}
	}
	return rows
}

// slotTable writes a table of rows (the busy ones) under head, the row's
// start first: a first pass over fill finds each column's width, a second
// writes the rows, as timeTable would lay them out. A cell below 0 is "-".
func (tl Timeline) slotTable(w *bufio.Writer, rows []int, head []string, fill func(j int, cells []int)) {
	cells := make([]int, len(head))
	widths := make([]int, len(head)+1)
	last := 0
	if len(rows) > 0 {
		last = rows[len(rows)-1]
	}
	widths[0] = max(len("from"), len(plain.Millis(tl.rowFrom(last))))
	for j, h := range head {
		widths[j+1] = max(len(h), 1)
	}
	for _, i := range rows {
		fill(i, cells)
		for j, c := range cells {
			widths[j+1] = max(widths[j+1], len(countCell(c)))
		}
	}
	fmt.Fprintf(w, "  %*s", widths[0], "from")
	for j, h := range head {
		fmt.Fprintf(w, "   %*s", widths[j+1], h)
	}
	w.WriteString("\n")
	var line []byte
	for _, i := range rows {
		fill(i, cells)
		line = append(append(line[:0], "  "...), rightAligned(plain.Millis(tl.rowFrom(i)), widths[0])...)
		for j, c := range cells {
			line = append(append(line, "   "...), rightAligned(countCell(c), widths[j+1])...)
		}
		w.Write(append(line, '\n'))
	}
}

// rightAligned is cell with spaces before it to width.
func rightAligned(cell string, width int) string {
	if pad := width - len(cell); pad > 0 {
		return strings.Repeat(" ", pad) + cell
	}
	return cell
}

func countCell(n int) string {
	if n < 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

// notes are the lines under a timeline: a series cut at its longest, the
// policies beyond the five, reference draws cut short, and the draws.
func (tl Timeline) notes() string {
	var b strings.Builder
	var ps []backoff.Policy
	for _, r := range tl.Runs {
		ps = append(ps, r.Policy)
		if r.Series.Truncated {
			fmt.Fprintf(&b, "%s's slots stop at %d, %d ms: a longer series is not kept; a wider --slot shows it all.\n",
				r.Policy, backoff.MaxSeriesSlots, backoff.MaxSeriesSlots*r.Series.Slot)
		}
	}
	b.WriteString(PoliciesNote(tl.Settings, ps))
	b.WriteString(CutShortNote(tl.Settings, ps))
	b.WriteString(DrawsLine(tl.Settings))
	return b.String()
}

// WriteCSV writes a row for every row of the timeline up to the last with
// any attempt: from_ms, retries, attempts, served, rejected,
// failed_while_down, capacity (empty without one), with a queue
// timed_out, wasted, dropped and queue (its length at the row's end), then
// slot_ms (the model's slot) and row_ms (the row's width). Side by side, each row starts with
// its policy (long form, which tools group by the policy column), every
// policy listing the same rows.
func (tl Timeline) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	header := append(tl.rowNames(), rowHeader...)
	if tl.SideBy {
		header = append([]string{"policy"}, header...)
	}
	_ = cw.Write(safeRow(header))
	n := tl.rows()
	row := make([]string, len(header))
	var values []int
	for _, r := range tl.Runs {
		for j := range n {
			cells := row
			if tl.SideBy {
				row[0] = safeCell(r.Policy.String())
				cells = row[1:]
			}
			values = tl.fields(tl.countsAt(r.Series, j), j, values)
			for k, v := range values {
				cells[k] = itoa(v)
			}
			if values[6] < 0 {
				cells[6] = "" // no capacity
			}
			k := len(values)
			cells[k], cells[k+1] = itoa(tl.slot()), itoa(tl.rowMs())
			_ = cw.Write(row)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteJSON writes the timeline as one JSON document, indented as every
// report is: the settings, the model's slot_ms and the rows' row_ms, then
// one policy's fields and rows, or side by side {"settings", "slot_ms",
// "row_ms", "policies": [...]}, every policy with the same rows.
func (tl Timeline) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	jw := &jsonWriter{w: bw}
	n := tl.rows()
	bw.WriteString("{\n")
	jw.member(1, "settings", settingsJSON(tl.Settings), true)
	jw.member(1, "slot_ms", tl.slot(), true)
	jw.member(1, "row_ms", tl.rowMs(), true)
	if tl.SideBy {
		jw.key(1, "policies")
		bw.WriteString("[\n")
		for p, r := range tl.Runs {
			jw.pad(2)
			bw.WriteString("{\n")
			tl.writeRun(jw, 3, r, n)
			jw.pad(2)
			bw.WriteString("}")
			jw.comma(p < len(tl.Runs)-1)
		}
		jw.pad(1)
		bw.WriteString("]\n")
	} else {
		tl.writeRun(jw, 1, tl.Runs[0], n)
	}
	bw.WriteString("}\n")
	if jw.err != nil {
		return jw.err
	}
	return bw.Flush()
}

// writeRun writes one policy's fields at depth d: policy, policy_settings,
// retries, attempts, truncated, cut_short_from_attempt and rows.
func (tl Timeline) writeRun(jw *jsonWriter, d int, r backoff.Result, n int) {
	jw.member(d, "policy", r.Policy.String(), true)
	jw.member(d, "policy_settings", policySettings(r.Policy), true)
	_, cut := cutShortFrom(tl.Settings, r.Policy)
	jw.member(d, "retries", r.Figures.Retries, true)
	jw.member(d, "attempts", r.Figures.Attempts, true)
	jw.member(d, "truncated", r.Series.Truncated, true)
	jw.member(d, "cut_short_from_attempt", cut, true)
	jw.key(d, "rows")
	if n == 0 {
		jw.w.WriteString("[]\n")
		return
	}
	jw.w.WriteString("[\n")
	// Each row's object is appended to one buffer, reused: a timeline can
	// have millions of rows.
	open, field, shut := jw.indent(d+1)+"{\n", jw.indent(d+2), jw.indent(d+1)+"}"
	names := tl.jsonNames()
	var values []int
	var buf []byte
	for j := range n {
		values = tl.fields(tl.countsAt(r.Series, j), j, values)
		buf = append(buf[:0], open...)
		for k, v := range values {
			buf = append(append(buf, field...), names[k]...)
			if v < 0 && k == 6 { // a capacity that does not exist
				buf = append(buf, "null"...)
			} else {
				buf = strconv.AppendInt(buf, int64(v), 10)
			}
			if k < len(values)-1 {
				buf = append(buf, ',')
			}
			buf = append(buf, '\n')
		}
		buf = append(buf, shut...)
		if j < n-1 {
			buf = append(buf, ',')
		}
		buf = append(buf, '\n')
		jw.w.Write(buf)
	}
	jw.pad(d)
	jw.w.WriteString("]\n")
}

// jsonNames are rowNames as a JSON row writes each: `"from_ms": `.
func (tl Timeline) jsonNames() []string {
	names := tl.rowNames()
	for i, n := range names {
		names[i] = `"` + n + `": `
	}
	return names
}

// breakerRowsNote says the breaker's two columns.
const breakerRowsNote = "Short-circuited: attempts a breaker failed at once, in the row they were made, which never reached the service; " +
	"breaker opened: the moments a breaker opened in the row.\n"

// jsonWriter writes a JSON document a piece at a time, as
// json.MarshalIndent with two spaces would write it whole.
type jsonWriter struct {
	w   *bufio.Writer
	err error
}

func (jw *jsonWriter) pad(depth int) { jw.w.WriteString(jw.indent(depth)) }

func (jw *jsonWriter) indent(depth int) string { return strings.Repeat("  ", depth) }

func (jw *jsonWriter) comma(more bool) {
	if more {
		jw.w.WriteString(",")
	}
	jw.w.WriteString("\n")
}

func (jw *jsonWriter) key(depth int, k string) {
	jw.pad(depth)
	fmt.Fprintf(jw.w, "%q: ", k)
}

// member writes "key": value at depth, the value indented below it.
func (jw *jsonWriter) member(depth int, k string, v any, more bool) {
	jw.key(depth, k)
	out, err := json.MarshalIndent(v, strings.Repeat("  ", depth), "  ")
	if err != nil && jw.err == nil {
		jw.err = err
	}
	jw.w.Write(out)
	jw.comma(more)
}
