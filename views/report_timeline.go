package views

import (
	"fmt"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
)

// The timeline report: a crowd's attempts per slot, one policy or several
// side by side. The text of one policy is the reference's histogram (a row
// for each slot with retries); CSV and JSON list every slot from the first
// to the last with any attempt, empty ones too, so that a chart's time axis
// is even.

// slotsOf is how many slots a timeline lists: up to the last one with any
// attempt in any of the runs.
func slotsOf(runs []backoff.Result) int {
	n := 0
	for _, r := range runs {
		for i := r.Series.Len() - 1; i >= n; i-- {
			if r.Series.Attempts(i) > 0 || r.Series.Retries[i] > 0 {
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
}

func countsAt(sr *backoff.Series, i int) slotCounts {
	if i >= sr.Len() {
		return slotCounts{}
	}
	return slotCounts{sr.Retries[i], sr.Attempts(i), sr.Served[i], sr.Rejected[i], sr.FailedWhileDown[i]}
}

// slotColumns are slot i's columns: from_ms, retries, attempts, served,
// rejected, failed_while_down, capacity (empty without one).
func slotColumns(s backoff.Settings, sr *backoff.Series, i int) ([]column, object) {
	c := countsAt(sr, i)
	capCell, capValue := "", any(nil)
	if n := s.SlotCapacity(i, sr.Slot); n >= 0 {
		capCell, capValue = itoa(n), n
	}
	cols := []column{{"from_ms", itoa(i * sr.Slot)}, {"retries", itoa(c.retries)}, {"attempts", itoa(c.attempts)},
		{"served", itoa(c.served)}, {"rejected", itoa(c.rejected)}, {"failed_while_down", itoa(c.down)}, {"capacity", capCell}}
	doc := object{{"from_ms", i * sr.Slot}, {"retries", c.retries}, {"attempts", c.attempts}, {"served", c.served},
		{"rejected", c.rejected}, {"failed_while_down", c.down}, {"capacity", capValue}}
	return cols, doc
}

var slotHeader = []string{"from_ms", "retries", "attempts", "served", "rejected", "failed_while_down", "capacity"}

// TimelineReport is one policy's timeline as text: the reference's
// histogram of retries, then, with a service, every slot's attempts by
// outcome and its capacity, and the draws.
func TimelineReport(s backoff.Settings, r backoff.Result) string {
	var b strings.Builder
	b.WriteString(HistogramText(r))
	if s.HasService() {
		n := slotsOf([]backoff.Result{r})
		var rows [][]string
		for i := range n {
			c := countsAt(r.Series, i)
			capacity := "-"
			if v := s.SlotCapacity(i, r.Series.Slot); v >= 0 {
				capacity = itoa(v)
			}
			rows = append(rows, []string{Millis(i * r.Series.Slot), itoa(c.attempts), itoa(c.served), itoa(c.rejected), itoa(c.down), capacity})
		}
		fmt.Fprintf(&b, "Every slot's attempts, the first ones and the fresh load's included, by outcome; %s:\n", ServiceLine(s))
		b.WriteString(timeTable([]string{"from", "attempts", "served", "rejected", "failed while down", "capacity"}, rows))
	}
	b.WriteString(timelineNotes(s, []backoff.Result{r}))
	return b.String()
}

// timelineNotes are the lines under a timeline: a series cut at its
// longest, the policies beyond the five, reference draws cut short, and the
// draws.
func timelineNotes(s backoff.Settings, runs []backoff.Result) string {
	var b strings.Builder
	var ps []backoff.Policy
	for _, r := range runs {
		ps = append(ps, r.Policy)
		if r.Series.Truncated {
			fmt.Fprintf(&b, "%s's slots stop at %d, %d ms: a longer series is not kept; a wider --slot shows it all.\n",
				r.Policy, backoff.MaxSeriesSlots, backoff.MaxSeriesSlots*r.Series.Slot)
		}
	}
	b.WriteString(PoliciesNote(s, ps))
	b.WriteString(CutShortNote(s, ps))
	b.WriteString(DrawsLine(s))
	return b.String()
}

// TimelineCSV is one policy's timeline, a row for every slot up to the
// last with any attempt: from_ms, retries, attempts, served, rejected,
// failed_while_down, capacity (empty without one).
func TimelineCSV(s backoff.Settings, r backoff.Result) string {
	var records [][]string
	for i := range slotsOf([]backoff.Result{r}) {
		cols, _ := slotColumns(s, r.Series, i)
		records = append(records, cells(cols))
	}
	return csvDoc(slotHeader, records)
}

func cells(cols []column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.cell
	}
	return out
}

// timelineObject is one policy's timeline in JSON.
func timelineObject(s backoff.Settings, r backoff.Result, n int) object {
	slots := make([]object, 0, n)
	for i := range n {
		_, doc := slotColumns(s, r.Series, i)
		slots = append(slots, doc)
	}
	_, cut := cutShortFrom(s, r.Policy)
	return object{{"policy", r.Policy.String()}, {"policy_settings", policySettings(r.Policy)},
		{"retries", r.Figures.Retries}, {"attempts", r.Figures.Attempts}, {"truncated", r.Series.Truncated},
		{"cut_short_from_attempt", cut}, {"slots", slots}}
}

// TimelineDoc is one policy's timeline as a JSON document.
func TimelineDoc(s backoff.Settings, r backoff.Result) string {
	doc := object{{"settings", settingsJSON(s)}}
	for _, m := range timelineObject(s, r, slotsOf([]backoff.Result{r})) {
		doc = append(doc, m)
		if m.key == "policy_settings" {
			doc = append(doc, member{"slot_ms", r.Series.Slot})
		}
	}
	return jsonDoc(doc)
}

// TimelinesReport is several policies' retries side by side, one row for
// every slot up to the last with any attempt in any of them, and with a
// service their rejected attempts the same way.
func TimelinesReport(s backoff.Settings, runs []backoff.Result) string {
	var b strings.Builder
	n := slotsOf(runs)
	each := "second"
	if s.Slot != 1000 {
		each = Millis(s.Slot)
	}
	table := func(title string, count func(slotCounts) int) {
		head := []string{"from"}
		for _, r := range runs {
			head = append(head, r.Policy.String())
		}
		var rows [][]string
		for i := range n {
			row := []string{Millis(i * s.Slot)}
			for _, r := range runs {
				row = append(row, itoa(count(countsAt(r.Series, i))))
			}
			rows = append(rows, row)
		}
		b.WriteString(title)
		b.WriteString(timeTable(head, rows))
	}
	table(fmt.Sprintf("Retries in each %s, side by side:\n", each), func(c slotCounts) int { return c.retries })
	if s.HasService() {
		table(fmt.Sprintf("Attempts rejected in each %s; %s:\n", each, ServiceLine(s)), func(c slotCounts) int { return c.rejected })
		b.WriteString("CSV and JSON give every slot's attempts, served, rejected and failed while down, and its capacity.\n")
	}
	b.WriteString(timelineNotes(s, runs))
	return b.String()
}

// TimelinesCSV is several policies' timelines in one table, a row for each
// policy and slot (long form, which tools group by the policy column):
// policy, then the columns of TimelineCSV. Every policy lists the same
// slots.
func TimelinesCSV(s backoff.Settings, runs []backoff.Result) string {
	n := slotsOf(runs)
	var records [][]string
	for _, r := range runs {
		for i := range n {
			cols, _ := slotColumns(s, r.Series, i)
			records = append(records, append([]string{r.Policy.String()}, cells(cols)...))
		}
	}
	return csvDoc(append([]string{"policy"}, slotHeader...), records)
}

// TimelinesDoc is several policies' timelines as a JSON document: one
// array of slots for each policy, all of the same slots.
func TimelinesDoc(s backoff.Settings, runs []backoff.Result) string {
	n := slotsOf(runs)
	policies := make([]object, 0, len(runs))
	for _, r := range runs {
		policies = append(policies, timelineObject(s, r, n))
	}
	return jsonDoc(object{{"settings", settingsJSON(s)}, {"slot_ms", s.Slot}, {"policies", policies}})
}
