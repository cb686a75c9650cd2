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

// The timeline report: a crowd's attempts per slot, one policy or several
// side by side. The text of one policy is the reference's histogram (a row
// for each slot with retries); CSV and JSON list every slot from the first
// to the last with any attempt, empty ones too, so that a chart's time axis
// is even. With a queue every face adds each slot's timed out, wasted and
// dropped requests and the queue's length at its end; without one the
// timeline is as it was. A series may hold millions of slots, so the report is written
// slot by slot as it goes, never built whole.

// Timeline is a timeline report.
type Timeline struct {
	Settings backoff.Settings // their slot is the timeline's
	Runs     []backoff.Result // each with its series
	SideBy   bool             // several policies side by side, even if one
}

// slots is how many slots the timeline lists: up to the last one with any
// attempt in any of the runs, or with a queue any request the service
// reached or left waiting.
func (tl Timeline) slots() int {
	n := 0
	for _, r := range tl.Runs {
		for i := r.Series.Len() - 1; i >= n; i-- {
			if r.Series.Attempts(i) > 0 || r.Series.Retries[i] > 0 || r.Series.Queued && (r.Series.Wasted[i] > 0 || r.Series.Dropped[i] > 0 || r.Series.Queue[i] > 0) {
				n = i + 1
				break
			}
		}
	}
	return n
}

// slotCounts is slot i of a run's series, zero past its end.
type slotCounts struct {
	retries, attempts, served, rejected, down int
	timedOut, wasted, dropped, queue          int // with a queue; 0 without
}

func countsAt(sr *backoff.Series, i int) slotCounts {
	if i >= sr.Len() {
		return slotCounts{}
	}
	c := slotCounts{retries: sr.Retries[i], attempts: sr.Attempts(i), served: sr.Served[i], rejected: sr.Rejected[i], down: sr.FailedWhileDown[i]}
	if sr.Queued {
		c.timedOut, c.wasted, c.dropped, c.queue = sr.TimedOut[i], sr.Wasted[i], sr.Dropped[i], sr.Queue[i]
	}
	return c
}

// capacityAt is slot i's capacity, -1 without one.
func (tl Timeline) capacityAt(i int) int { return tl.Settings.SlotCapacity(i, tl.Settings.Slot) }

var slotHeader = []string{"from_ms", "retries", "attempts", "served", "rejected", "failed_while_down", "capacity"}

// queueHeader are the columns a queue adds after slotHeader's.
var queueHeader = []string{"timed_out", "wasted", "dropped", "queue"}

// WriteText writes the timeline as text. One policy: the reference's
// histogram of retries, then, with a service, every slot's attempts by
// outcome and its capacity. Side by side: every slot's retries of each
// policy, and with a service their rejected attempts. Then the notes and
// the draws.
func (tl Timeline) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	s, n := tl.Settings, tl.slots()
	if !tl.SideBy {
		r := tl.Runs[0]
		writeHistogram(bw, r)
		if s.HasQueue() {
			fmt.Fprintf(bw, "Every slot's attempts by outcome, each in the slot it came in: served when the service completed it, timed out when its client stopped waiting "+
				"(the first attempts and the fresh load's included); the expired requests the service wasted or dropped when it reached them; "+
				"the queue's length at the slot's end; %s:\n", ServiceLine(s))
			tl.slotTable(bw, n, []string{"attempts", "served", "rejected", "failed while down", "timed out", "wasted", "dropped", "capacity", "queue"}, func(i int, cells []int) {
				c := countsAt(r.Series, i)
				cells[0], cells[1], cells[2], cells[3], cells[4] = c.attempts, c.served, c.rejected, c.down, c.timedOut
				cells[5], cells[6], cells[7], cells[8] = c.wasted, c.dropped, tl.capacityAt(i), c.queue
			})
		} else if s.HasService() {
			fmt.Fprintf(bw, "Every slot's attempts, the first ones and the fresh load's included, by outcome; %s:\n", ServiceLine(s))
			tl.slotTable(bw, n, []string{"attempts", "served", "rejected", "failed while down", "capacity"}, func(i int, cells []int) {
				c := countsAt(r.Series, i)
				cells[0], cells[1], cells[2], cells[3], cells[4] = c.attempts, c.served, c.rejected, c.down, tl.capacityAt(i)
			})
		}
	} else {
		each := "second"
		if s.Slot != 1000 {
			each = plain.Millis(s.Slot)
		}
		var names []string
		for _, r := range tl.Runs {
			names = append(names, r.Policy.String())
		}
		side := func(count func(slotCounts) int) func(int, []int) {
			return func(i int, cells []int) {
				for p, r := range tl.Runs {
					cells[p] = count(countsAt(r.Series, i))
				}
			}
		}
		fmt.Fprintf(bw, "Retries in each %s, side by side:\n", each)
		tl.slotTable(bw, n, names, side(func(c slotCounts) int { return c.retries }))
		if s.HasService() {
			fmt.Fprintf(bw, "Attempts rejected in each %s; %s:\n", each, ServiceLine(s))
			tl.slotTable(bw, n, names, side(func(c slotCounts) int { return c.rejected }))
			if s.HasQueue() {
				fmt.Fprintf(bw, "Attempts timed out in each %s:\n", each)
				tl.slotTable(bw, n, names, side(func(c slotCounts) int { return c.timedOut }))
				if s.DropExpired {
					fmt.Fprintf(bw, "Expired requests dropped in each %s:\n", each)
					tl.slotTable(bw, n, names, side(func(c slotCounts) int { return c.dropped }))
				} else {
					fmt.Fprintf(bw, "Expired requests wasted in each %s: capacity spent on clients that had left:\n", each)
					tl.slotTable(bw, n, names, side(func(c slotCounts) int { return c.wasted }))
				}
				fmt.Fprintf(bw, "The queue's length at the end of each %s, of at most %d:\n", each, s.Queue)
				tl.slotTable(bw, n, names, side(func(c slotCounts) int { return c.queue }))
				bw.WriteString("CSV and JSON give every slot's attempts, served, rejected, failed while down, its capacity, and timed out, wasted, dropped and the queue's length.\n")
			} else {
				bw.WriteString("CSV and JSON give every slot's attempts, served, rejected and failed while down, and its capacity.\n")
			}
		}
	}
	bw.WriteString(tl.notes())
	return bw.Flush()
}

// writeHistogram writes HistogramText(r) as it goes: the same bytes.
func writeHistogram(w *bufio.Writer, r backoff.Result) {
	scale := plain.HashScale(r.Figures.MostInASlot)
	each := "second"
	if r.Series.Slot != 1000 {
		each = plain.Millis(r.Series.Slot)
	}
	fmt.Fprintf(w, "%s: retries in each %s, # for every %d:\n", r.Policy, each, scale)
	for i, n := range r.Series.Retries {
		if n > 0 {
			fmt.Fprintf(w, "  %7d ms %5d  %s\n", i*r.Series.Slot, n, strings.Repeat("#", (n+scale-1)/scale))
		}
	}
}

// slotTable writes a table of n slots under head, the slot's start first:
// a first pass over fill finds each column's width, a second writes the
// rows, as timeTable would lay them out. A cell below 0 is "-".
func (tl Timeline) slotTable(w *bufio.Writer, n int, head []string, fill func(i int, cells []int)) {
	cells := make([]int, len(head))
	widths := make([]int, len(head)+1)
	widths[0] = max(len("from"), len(plain.Millis(max(n-1, 0)*tl.Settings.Slot)))
	for j, h := range head {
		widths[j+1] = max(len(h), 1)
	}
	for i := range n {
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
	for i := range n {
		fill(i, cells)
		line = append(append(line[:0], "  "...), rightAligned(plain.Millis(i*tl.Settings.Slot), widths[0])...)
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

// WriteCSV writes a row for every slot up to the last with any attempt:
// from_ms, retries, attempts, served, rejected, failed_while_down, capacity
// (empty without one), and with a queue timed_out, wasted, dropped and
// queue (its length at the slot's end). Side by side, each row starts with its policy (long
// form, which tools group by the policy column), every policy listing the
// same slots.
func (tl Timeline) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	header := slotHeader
	queued := tl.Settings.HasQueue()
	if queued {
		header = append(slices.Clone(slotHeader), queueHeader...)
	}
	if tl.SideBy {
		header = append([]string{"policy"}, header...)
	}
	_ = cw.Write(safeRow(header))
	n := tl.slots()
	row := make([]string, len(header))
	for _, r := range tl.Runs {
		for i := range n {
			cells := row
			if tl.SideBy {
				row[0] = safeCell(r.Policy.String())
				cells = row[1:]
			}
			c := countsAt(r.Series, i)
			cells[0], cells[1], cells[2] = itoa(i*tl.Settings.Slot), itoa(c.retries), itoa(c.attempts)
			cells[3], cells[4], cells[5] = itoa(c.served), itoa(c.rejected), itoa(c.down)
			cells[6] = ""
			if v := tl.capacityAt(i); v >= 0 {
				cells[6] = itoa(v)
			}
			if queued {
				cells[7], cells[8], cells[9], cells[10] = itoa(c.timedOut), itoa(c.wasted), itoa(c.dropped), itoa(c.queue)
			}
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
// report is: the settings, then one policy's fields and slots, or side by
// side {"settings", "slot_ms", "policies": [...]}, every policy with the
// same slots.
func (tl Timeline) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	jw := &jsonWriter{w: bw}
	n := tl.slots()
	bw.WriteString("{\n")
	jw.member(1, "settings", settingsJSON(tl.Settings), true)
	if tl.SideBy {
		jw.member(1, "slot_ms", tl.Settings.Slot, true)
		jw.key(1, "policies")
		bw.WriteString("[\n")
		for p, r := range tl.Runs {
			jw.pad(2)
			bw.WriteString("{\n")
			tl.writeRun(jw, 3, r, n, false)
			jw.pad(2)
			bw.WriteString("}")
			jw.comma(p < len(tl.Runs)-1)
		}
		jw.pad(1)
		bw.WriteString("]\n")
	} else {
		tl.writeRun(jw, 1, tl.Runs[0], n, true)
	}
	bw.WriteString("}\n")
	if jw.err != nil {
		return jw.err
	}
	return bw.Flush()
}

// writeRun writes one policy's fields at depth d: policy, policy_settings,
// slot_ms (for one policy alone), retries, attempts, truncated,
// cut_short_from_attempt and slots.
func (tl Timeline) writeRun(jw *jsonWriter, d int, r backoff.Result, n int, withSlot bool) {
	jw.member(d, "policy", r.Policy.String(), true)
	jw.member(d, "policy_settings", policySettings(r.Policy), true)
	if withSlot {
		jw.member(d, "slot_ms", tl.Settings.Slot, true)
	}
	_, cut := cutShortFrom(tl.Settings, r.Policy)
	jw.member(d, "retries", r.Figures.Retries, true)
	jw.member(d, "attempts", r.Figures.Attempts, true)
	jw.member(d, "truncated", r.Series.Truncated, true)
	jw.member(d, "cut_short_from_attempt", cut, true)
	jw.key(d, "slots")
	if n == 0 {
		jw.w.WriteString("[]\n")
		return
	}
	jw.w.WriteString("[\n")
	// Each slot's object is appended to one buffer, reused: a timeline can
	// have millions of slots.
	open, field, shut := jw.indent(d+1)+"{\n", jw.indent(d+2), jw.indent(d+1)+"}"
	names := []string{`"from_ms": `, `"retries": `, `"attempts": `, `"served": `, `"rejected": `, `"failed_while_down": `, `"capacity": `}
	queued := tl.Settings.HasQueue()
	if queued {
		names = append(names, `"timed_out": `, `"wasted": `, `"dropped": `, `"queue": `)
	}
	values := make([]int, len(names))
	var buf []byte
	for i := range n {
		c := countsAt(r.Series, i)
		values[0], values[1], values[2], values[3], values[4], values[5], values[6] = i*tl.Settings.Slot, c.retries, c.attempts, c.served, c.rejected, c.down, tl.capacityAt(i)
		if queued {
			values[7], values[8], values[9], values[10] = c.timedOut, c.wasted, c.dropped, c.queue
		}
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
		if i < n-1 {
			buf = append(buf, ',')
		}
		buf = append(buf, '\n')
		jw.w.Write(buf)
	}
	jw.pad(d)
	jw.w.WriteString("]\n")
}

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
