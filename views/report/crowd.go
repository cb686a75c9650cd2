package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/plain"
	"github.com/retryplanner/retry-planner/views/words"
)

// The crowd report: the crowd table of the policies, in text, CSV and
// JSON. Every MODEL.md figure is a CSV column and a JSON field under its
// MODEL.md name; the reference's six columns come first, in their order,
// so that scripts written for them keep working.

// firstColumns are the figures of the reference's crowd table, which come
// first in the CSV and the JSON.
var firstColumns = []string{"retries", "most_in_a_slot", "busiest_slot_from_ms", "all_through_by_ms", "gave_up"}

// orderedFields is every figure: the reference's table's first, then the
// rest in MODEL.md's order.
func orderedFields() []backoff.FigureField { return fieldsFirst(firstColumns) }

// fieldsFirst is every figure, those named in first first, in their order,
// then the rest in MODEL.md's.
func fieldsFirst(first []string) []backoff.FigureField {
	var out []backoff.FigureField
	for _, name := range first {
		f, _ := backoff.FindField(name)
		out = append(out, f)
	}
	for _, f := range backoff.FigureFields() {
		if !slices.Contains(first, f.Name) {
			out = append(out, f)
		}
	}
	return out
}

// figureValue is a figure as a CSV cell and a JSON value: an absent one
// (-1) is an empty cell and null.
func figureValue(ff backoff.FigureField, f backoff.Figures) (string, any) {
	v := ff.Get(f)
	if ff.Optional && v < 0 {
		return "", nil
	}
	return itoa(v), v
}

// crowdColumns is one policy's row: its name, its verdict, every figure, whether it was
// still overloaded, the retries a client and the per-slot counts as rates
// a second, then the policy's settings.
func crowdColumns(s backoff.Settings, r backoff.Result) (cols []column, doc object) {
	f := r.Figures
	verdict := words.Verdict(s, f)
	cols = append(cols, column{"policy", r.Policy.String()}, column{"verdict", verdict})
	doc = append(doc, member{"policy", r.Policy.String()}, member{"verdict", verdict})
	for _, ff := range orderedFields() {
		cell, value := figureValue(ff, f)
		cols = append(cols, column{ff.Name, cell})
		doc = append(doc, member{ff.Name, value})
	}
	extra := []struct {
		name  string
		value any
		cell  string
	}{
		{"still_overloaded", f.StillOverloaded, fmt.Sprint(f.StillOverloaded)},
		{"retries_per_client", json.Number(words.PerClient(f.Retries, f.Clients)), words.PerClient(f.Retries, f.Clients)},
		{"most_in_a_slot_per_s", json.Number(words.PerSecond(f.MostInASlot, s.Slot)), words.PerSecond(f.MostInASlot, s.Slot)},
		{"peak_after_back_per_s", json.Number(words.PerSecond(f.PeakAfterBack, s.Slot)), words.PerSecond(f.PeakAfterBack, s.Slot)},
	}
	for _, e := range extra {
		cols = append(cols, column{e.name, e.cell})
		doc = append(doc, member{e.name, e.value})
	}
	cutCell, cutValue := cutShortFrom(s, r.Policy)
	cols = append(cols, column{"cut_short_from_attempt", cutCell})
	doc = append(doc, member{"cut_short_from_attempt", cutValue})
	cols = append(cols, policyColumns(r.Policy)...)
	doc = append(doc, member{"policy_settings", policySettings(r.Policy)})
	return cols, doc
}

// cutShortFrom is the first attempt whose band reference draws cut short,
// as a CSV cell and a JSON value: empty and null where none is, or where
// the draws are independent.
func cutShortFrom(s backoff.Settings, p backoff.Policy) (string, any) {
	k := p.CutShort()
	if s.Draws != backoff.Reference || k == 0 {
		return "", nil
	}
	return itoa(k + 1), k + 1
}

// CrowdReportCSV is the crowd table, one row per policy: policy, verdict
// (words.Verdict's sentence), then the reference's columns (retries, most_in_a_slot, busiest_slot_from_ms,
// all_through_by_ms, gave_up), then every other MODEL.md figure in its
// order, still_overloaded, retries_per_client, most_in_a_slot_per_s,
// peak_after_back_per_s, cut_short_from_attempt (the first attempt whose
// band reference draws cut short; empty if none) and the policy's settings
// (policy_first_wait_ms, ...).
func CrowdReportCSV(s backoff.Settings, crowds []backoff.Result) string {
	var header []string
	var records [][]string
	for i, c := range crowds {
		cols, _ := crowdColumns(s, c)
		var row []string
		for _, col := range cols {
			if i == 0 {
				header = append(header, col.name)
			}
			row = append(row, col.cell)
		}
		records = append(records, row)
	}
	if len(crowds) == 0 {
		cols, _ := crowdColumns(s, backoff.Result{})
		for _, col := range cols {
			header = append(header, col.name)
		}
	}
	return csvDoc(header, records)
}

// CrowdReportDoc is the crowd table as a JSON document: the settings, the
// slot, for each policy its verdict and every figure under its MODEL.md
// name, then the ranking (null without policies); remedies as for
// VerdictBlock.
func CrowdReportDoc(s backoff.Settings, crowds []backoff.Result, remedies []words.Remedy) string {
	policies := []object{}
	for _, c := range crowds {
		_, doc := crowdColumns(s, c)
		policies = append(policies, doc)
	}
	return jsonDoc(object{{"settings", settingsJSON(s)}, {"slot_ms", s.Slot}, {"policies", policies}, {"ranking", rankingDoc(s, crowds, remedies)}})
}

// CrowdReport is the crowd report's text: the reference's block (the table
// and, for the five, its sentences) as --plain writes it, then each
// policy's verdict, the ranking and the figures they rest on, the policies
// beyond the five, the retries a client and the busiest slots as rates, the
// service's table when there is a service, and the draws; remedies as
// for VerdictBlock.
func CrowdReport(s backoff.Settings, crowds []backoff.Result, remedies []words.Remedy) string {
	var b strings.Builder
	b.WriteString(plain.CrowdText(s, crowds))
	b.WriteString(VerdictBlock(s, crowds, remedies))
	if len(crowds) > backoff.NumShapes && plain.AreTheFive(s, crowds[:backoff.NumShapes]) {
		// The five and more: the reference's sentences speak of the five.
		b.WriteString(plain.CrowdExplained(crowds[:backoff.NumShapes]) + "\n")
		if note, ok := plain.CrowdGaveUpNote(crowds[:backoff.NumShapes]); ok {
			b.WriteString(note + "\n")
		}
	}
	var ps []backoff.Policy
	for _, c := range crowds {
		ps = append(ps, c.Policy)
	}
	b.WriteString(PoliciesNote(s, ps))
	b.WriteString(ratesTable(s, crowds))
	if s.HasService() {
		b.WriteString(ServiceTable(s, crowds))
	}
	b.WriteString(CutShortNote(s, ps))
	b.WriteString(DrawsLine(s))
	return b.String()
}

// ratesTable is the retries a client and the busiest slots as rates a
// second, and the busiest slot once the service is back.
func ratesTable(s backoff.Settings, crowds []backoff.Result) string {
	var rows [][]string
	for _, c := range crowds {
		f := c.Figures
		rows = append(rows, []string{c.Policy.String(), words.PerClient(f.Retries, f.Clients),
			fmt.Sprintf("%d (%s/s)", f.MostInASlot, words.PerSecond(f.MostInASlot, s.Slot)),
			fmt.Sprintf("%d (%s/s)", f.PeakAfterBack, words.PerSecond(f.PeakAfterBack, s.Slot)),
			plain.ThroughBy(f.PeakAfterBackFrom)})
	}
	return fmt.Sprintf("Retries a client, and the busiest slots as rates a second; the peak after back is the busiest slot from %d ms on, when the service is back:\n", s.Outage) +
		textTable([]string{"policy", "retries a client", "most in a slot", "peak after back", "the peak from"}, rows)
}

// ServiceTable is "when the service is back": what the service did with the
// crowd's attempts and the fresh load's, and when it was stable again.
func ServiceTable(s backoff.Settings, crowds []backoff.Result) string {
	var b strings.Builder
	b.WriteString("When the service is back: " + ServiceLine(s) + ":\n")
	var counts, times, queued [][]string
	for _, c := range crowds {
		f := c.Figures
		name := c.Policy.String()
		row := []string{name, itoa(f.Clients), itoa(f.Attempts), itoa(f.Served), itoa(f.Rejected), itoa(f.FailedWhileDown)}
		if s.HasQueue() {
			row = append(row, itoa(f.TimedOut))
			queued = append(queued, []string{name, itoa(f.Wasted), itoa(f.Dropped), itoa(f.QueuePeak)})
		}
		if s.Breaker.On() {
			row = append(row, itoa(f.ShortCircuited))
		}
		counts = append(counts, append(row, itoa(f.Through), itoa(f.GaveUp), itoa(f.Throttled), itoa(f.OutOfTime)))
		capacity := "-"
		if f.SlotCapacity >= 0 {
			capacity = itoa(f.SlotCapacity)
		}
		overloaded := "no"
		if f.StillOverloaded {
			overloaded = "yes"
		}
		row = []string{name, capacity, plain.Millis(f.StableFrom), overloaded, plain.ThroughBy(f.LatencyP50), plain.ThroughBy(f.LatencyP99), plain.ThroughBy(f.LatencyMax)}
		if s.Breaker.On() {
			row = append(row, itoa(f.BreakerOpened))
		}
		times = append(times, row)
	}
	head := []string{"policy", "clients", "attempts", "served", "rejected", "failed while down"}
	if s.HasQueue() {
		head = append(head, "timed out")
	}
	timesHead := []string{"policy", "slot capacity", "stable from", "still overloaded", "latency p50", "latency p99", "latency max"}
	if s.Breaker.On() {
		head, timesHead = append(head, "short-circuited"), append(timesHead, "breaker opened")
	}
	b.WriteString(textTable(append(head, "through", "gave up", "throttled", "out of time"), counts))
	b.WriteString(textTable(timesHead, times))
	if s.Breaker.On() {
		b.WriteString(strings.ToUpper(words.BreakerLegend[:1]) + words.BreakerLegend[1:] + "\n")
	}
	if s.HasQueue() {
		b.WriteString(textTable([]string{"policy", "wasted", "dropped", "queue peak"}, queued))
		fmt.Fprintf(&b, "Stable from: the end of the slot of the last rejection, timeout, wasted or dropped request (the outage's end if none). "+
			"Still overloaded: one of those in the load's last second. Timed out: attempts whose client stopped waiting for the queue; "+
			"wasted: expired requests the service worked on for nothing; dropped: those it discarded (wasted + dropped = timed out). "+
			"Queue peak: the most requests waiting after a millisecond's arrivals, of at most %d. "+
			"Latency: from a client's start to its served attempt, over the clients that got through; \"-\" if none did.\n", s.Queue)
		return b.String()
	}
	b.WriteString("Stable from: the end of the slot of the last rejection (the outage's end if none). Still overloaded: an attempt was rejected in the load's last second. " +
		"Latency: from a client's start to its served attempt, over the clients that got through; \"-\" if none did.\n")
	return b.String()
}

// ServiceLine is the service in words: "capacity 50000 a second (5000 a
// slot of 100 ms), fresh load 10000 a second until 90000 ms (900000
// requests), no budget".
func ServiceLine(s backoff.Settings) string {
	var parts []string
	switch {
	case s.HasQueue():
		parts = append(parts, fmt.Sprintf("capacity %d a second from a queue of at most %d requests (%s)", s.Capacity, s.Queue, QueueWords(s)))
	case s.Capacity > 0:
		parts = append(parts, fmt.Sprintf("capacity %d a second (%d a slot of %d ms at most)", s.Capacity, (int64(s.Capacity)*int64(s.Slot)+999)/1000, s.Slot))
	default:
		parts = append(parts, "no limit on capacity")
	}
	if s.Load > 0 {
		parts = append(parts, fmt.Sprintf("fresh load %d a second until %d ms (%d requests)", s.Load, s.LoadEnd(), s.FreshRequests()))
	} else {
		parts = append(parts, "no fresh load")
	}
	switch {
	case s.Budget.Kind == backoff.BudgetNone:
		parts = append(parts, "no retry budget")
	case s.Processes == backoff.PerClient:
		parts = append(parts, fmt.Sprintf("budget %s in each of %d processes, one a client", s.Budget, s.ProcessCount()))
	case s.Processes > 1:
		parts = append(parts, fmt.Sprintf("budget %s in each of %d processes", s.Budget, s.Processes))
	default:
		parts = append(parts, fmt.Sprintf("budget %s", s.Budget))
	}
	out := strings.Join(parts, ", ")
	if g := words.Guards(s); g != "" {
		out += "; " + g
	}
	return out
}

// QueueWords is how a queue serves, in a few words: "fifo: the oldest
// first; timeout 1000 ms, expired requests wasted".
func QueueWords(s backoff.Settings) string {
	order := "fifo: the oldest first"
	if s.QueueOrder == backoff.LIFO {
		order = "lifo: the newest first"
	}
	switch {
	case s.Timeout == 0:
		return order + "; no timeout"
	case s.DropExpired:
		return fmt.Sprintf("%s; timeout %d ms, expired requests dropped", order, s.Timeout)
	}
	return fmt.Sprintf("%s; timeout %d ms, expired requests wasted", order, s.Timeout)
}

// PoliciesNote says what each policy beyond the five is, one line each,
// and which of the five a limit on total time stops.
func PoliciesNote(s backoff.Settings, ps []backoff.Policy) string {
	var b strings.Builder
	var limited []string
	for _, p := range ps {
		if !isOneOfTheFive(s, p) {
			fmt.Fprintf(&b, "%s: %s; %s.\n", p.Name, p.Describe(), words.Formula(p))
		} else if p.MaxElapsed > 0 {
			limited = append(limited, p.Name)
		}
	}
	if len(limited) > 0 {
		verb := "stop"
		if len(limited) == 1 {
			verb = "stops"
		}
		fmt.Fprintf(&b, "With --max-elapsed %s, %s %s a client once its next attempt would come more than %d ms after its start.\n",
			backoff.FormatTime(s.MaxElapsed), words.And(limited), verb, s.MaxElapsed)
	}
	return b.String()
}

func isOneOfTheFive(s backoff.Settings, p backoff.Policy) bool {
	for _, q := range s.Five() {
		if q == p {
			return true
		}
	}
	return false
}
