package views

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
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
func orderedFields() []backoff.FigureField {
	var out []backoff.FigureField
	for _, name := range firstColumns {
		f, _ := backoff.FindField(name)
		out = append(out, f)
	}
	for _, f := range backoff.FigureFields() {
		if !strings.Contains(" "+strings.Join(firstColumns, " ")+" ", " "+f.Name+" ") {
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

// perSecond is a count in a slot of slot ms as a rate a second, rounded
// down to a thousandth: 28 in 100 ms is 280.
func perSecond(count, slot int) string {
	return backoff.FormatThousandths(int(int64(count) * 1000 * 1000 / int64(max(slot, 1))))
}

// perClient is retries a client, rounded down to a thousandth: 962 for 200
// is 4.81.
func perClient(retries, clients int) string {
	return backoff.FormatThousandths(int(int64(retries) * 1000 / int64(max(clients, 1))))
}

// crowdColumns is one policy's row: its name, every figure, whether it was
// still overloaded, the retries a client and the per-slot counts as rates
// a second, then the policy's settings.
func crowdColumns(s backoff.Settings, r backoff.Result) (cols []column, doc object) {
	f := r.Figures
	cols = append(cols, column{"policy", r.Policy.String()})
	doc = append(doc, member{"policy", r.Policy.String()})
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
		{"retries_per_client", json.Number(perClient(f.Retries, f.Clients)), perClient(f.Retries, f.Clients)},
		{"most_in_a_slot_per_s", json.Number(perSecond(f.MostInASlot, s.Slot)), perSecond(f.MostInASlot, s.Slot)},
		{"peak_after_back_per_s", json.Number(perSecond(f.PeakAfterBack, s.Slot)), perSecond(f.PeakAfterBack, s.Slot)},
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

// CrowdReportCSV is the crowd table, one row per policy: policy, then the
// reference's columns (retries, most_in_a_slot, busiest_slot_from_ms,
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
// slot, and for each policy every figure under its MODEL.md name.
func CrowdReportDoc(s backoff.Settings, crowds []backoff.Result) string {
	policies := []object{}
	for _, c := range crowds {
		_, doc := crowdColumns(s, c)
		policies = append(policies, doc)
	}
	return jsonDoc(object{{"settings", settingsJSON(s)}, {"slot_ms", s.Slot}, {"policies", policies}})
}

// CrowdReport is the crowd report's text: the reference's block (the table
// and, for the five, its sentences) as --plain writes it, then the policies
// beyond the five, the retries a client and the busiest slots as rates, the
// service's table when there is a service, and the draws.
func CrowdReport(s backoff.Settings, crowds []backoff.Result) string {
	var b strings.Builder
	b.WriteString(CrowdText(s, crowds))
	if len(crowds) > backoff.NumShapes && AreTheFive(s, crowds[:backoff.NumShapes]) {
		// The five and more: the reference's sentences speak of the five.
		b.WriteString(CrowdExplained(crowds[:backoff.NumShapes]) + "\n")
		if note, ok := CrowdGaveUpNote(crowds[:backoff.NumShapes]); ok {
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
		rows = append(rows, []string{c.Policy.String(), decimals2(f.Retries, f.Clients),
			fmt.Sprintf("%d (%s/s)", f.MostInASlot, perSecond(f.MostInASlot, s.Slot)),
			fmt.Sprintf("%d (%s/s)", f.PeakAfterBack, perSecond(f.PeakAfterBack, s.Slot)),
			throughBy(f.PeakAfterBackFrom)})
	}
	return fmt.Sprintf("Retries a client, and the busiest slots as rates a second; the peak after back is the busiest slot from %d ms on, when the service is back:\n", s.Outage) +
		textTable([]string{"policy", "retries a client", "most in a slot", "peak after back", "the peak from"}, rows)
}

// decimals2 is n/d with two decimals, rounded half up: 962/200 is "4.81".
func decimals2(n, d int) string {
	d = max(d, 1)
	hundredths := (int64(n)*200 + int64(d)) / (2 * int64(d))
	return fmt.Sprintf("%d.%02d", hundredths/100, hundredths%100)
}

// ServiceTable is "when the service is back": what the service did with the
// crowd's attempts and the fresh load's, and when it was stable again.
func ServiceTable(s backoff.Settings, crowds []backoff.Result) string {
	var b strings.Builder
	b.WriteString("When the service is back: " + ServiceLine(s) + ":\n")
	var counts, times [][]string
	for _, c := range crowds {
		f := c.Figures
		name := c.Policy.String()
		counts = append(counts, []string{name, itoa(f.Clients), itoa(f.Attempts), itoa(f.Served), itoa(f.Rejected), itoa(f.FailedWhileDown),
			itoa(f.Through), itoa(f.GaveUp), itoa(f.Throttled), itoa(f.OutOfTime)})
		capacity := "-"
		if f.SlotCapacity >= 0 {
			capacity = itoa(f.SlotCapacity)
		}
		overloaded := "no"
		if f.StillOverloaded {
			overloaded = "yes"
		}
		times = append(times, []string{name, capacity, Millis(f.StableFrom), overloaded,
			throughBy(f.LatencyP50), throughBy(f.LatencyP99), throughBy(f.LatencyMax)})
	}
	b.WriteString(textTable([]string{"policy", "clients", "attempts", "served", "rejected", "failed while down", "through", "gave up", "throttled", "out of time"}, counts))
	b.WriteString(textTable([]string{"policy", "slot capacity", "stable from", "still overloaded", "latency p50", "latency p99", "latency max"}, times))
	b.WriteString("Stable from: the end of the slot of the last rejection (the outage's end if none). Still overloaded: an attempt was rejected in the load's last second. " +
		"Latency: from a client's start to its served attempt, over the clients that got through; \"-\" if none did.\n")
	return b.String()
}

// ServiceLine is the service in words: "capacity 50000 a second (5000 a
// slot of 100 ms), fresh load 10000 a second until 90000 ms (900000
// requests), no budget".
func ServiceLine(s backoff.Settings) string {
	var parts []string
	if s.Capacity > 0 {
		parts = append(parts, fmt.Sprintf("capacity %d a second (%d a slot of %d ms at most)", s.Capacity, (int64(s.Capacity)*int64(s.Slot)+999)/1000, s.Slot))
	} else {
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
	case s.Processes > 1:
		parts = append(parts, fmt.Sprintf("budget %s in each of %d processes", s.Budget, s.Processes))
	default:
		parts = append(parts, fmt.Sprintf("budget %s", s.Budget))
	}
	return strings.Join(parts, ", ")
}

// PoliciesNote says what each policy beyond the five is, one line each,
// and which of the five a limit on total time stops.
func PoliciesNote(s backoff.Settings, ps []backoff.Policy) string {
	var b strings.Builder
	var limited []string
	for _, p := range ps {
		if !isOneOfTheFive(s, p) {
			fmt.Fprintf(&b, "%s: %s; %s.\n", p.Name, p.Describe(), Formula(p))
		} else if p.MaxElapsed > 0 {
			limited = append(limited, p.Name)
		}
	}
	if len(limited) > 0 {
		verb := "stop"
		if len(limited) == 1 {
			verb = "stops"
		}
		fmt.Fprintf(&b, "With --max-elapsed %d, %s %s a client once its next attempt would come more than %d ms after its start.\n",
			s.MaxElapsed, joinAnd(limited), verb, s.MaxElapsed)
	}
	return b.String()
}

// joinAnd is "a", "a and b", "a, b and c".
func joinAnd(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func isOneOfTheFive(s backoff.Settings, p backoff.Policy) bool {
	for _, q := range s.Five() {
		if q == p {
			return true
		}
	}
	return false
}

// seedFigures are the figures the text over many seeds shows: the
// reference's four and the peak after back, and with a service what it
// did; CSV and JSON hold every figure.
func seedFigures(s backoff.Settings) []string {
	names := []string{"retries", "most_in_a_slot", "peak_after_back", "all_through_by_ms", "gave_up"}
	if s.HasService() {
		names = append(names, "rejected", "throttled", "out_of_time", "stable_from_ms", "latency_p99_ms")
	}
	return names
}

// SeedsText is the crowd over many seeds: for each policy and figure, the
// median, the 95th percentile and the worst.
func SeedsText(s backoff.Settings, sc backoff.SeedsCrowd) string {
	var b strings.Builder
	b.WriteString(CrowdIntro(s) + ".\n")
	fmt.Fprintf(&b, "Over %s, each figure's median, 95th percentile and worst:\n", seedRange(sc))
	var rows [][]string
	for _, p := range sc.Policies {
		for i, name := range seedFigures(s) {
			ff, _ := backoff.FindField(name)
			sp := p.Spread(name)
			policy := ""
			if i == 0 {
				policy = p.Policy.String()
			}
			rows = append(rows, []string{policy, ff.Label, spreadCell(ff, sp.Median), spreadCell(ff, sp.P95), spreadCell(ff, sp.Worst)})
		}
	}
	b.WriteString(seedsTable(rows))
	b.WriteString("Median and 95th percentile by nearest rank: each is a figure that one of the seeds gave. " +
		"\"-\" is a seed in which no client got through, which counts as later than any time. " +
		"CSV and JSON hold every figure.\n")
	var none, over []string
	for _, p := range sc.Policies {
		if p.NoneThrough > 0 {
			none = append(none, fmt.Sprintf("%s in %d", p.Policy, p.NoneThrough))
		}
		if p.Overloaded > 0 {
			over = append(over, fmt.Sprintf("%s in %d", p.Policy, p.Overloaded))
		}
	}
	if len(none) > 0 {
		fmt.Fprintf(&b, "Seeds in which no client got through, of %d: %s.\n", sc.Count, strings.Join(none, ", "))
	}
	if len(over) > 0 {
		fmt.Fprintf(&b, "Seeds in which the service was still overloaded in the load's last second, of %d: %s.\n", sc.Count, strings.Join(over, ", "))
	}
	if s.HasService() {
		b.WriteString("The service: " + ServiceLine(s) + ".\n")
	}
	var ps []backoff.Policy
	for _, p := range sc.Policies {
		ps = append(ps, p.Policy)
	}
	b.WriteString(PoliciesNote(s, ps))
	b.WriteString(CutShortNote(s, ps))
	b.WriteString(SeedsDrawsLine(s))
	return b.String()
}

// seedsTable is the table over many seeds, in the reference's look: the
// policy and the figure left-aligned, the three spreads in 12 columns.
func seedsTable(rows [][]string) string {
	labelWidth := 14
	for _, r := range rows {
		labelWidth = max(labelWidth, len(r[1]))
	}
	var b strings.Builder
	line := func(r []string) {
		fmt.Fprintf(&b, "  %-14s  %-*s%12s%12s%12s\n", r[0], labelWidth, r[1], r[2], r[3], r[4])
	}
	line([]string{"policy", "figure", "median", "p95", "worst"})
	for _, r := range rows {
		line(r)
	}
	return b.String()
}

// spreadCell is one spread value: a count, a time ("15000 ms"), or "-"
// where the figure does not exist.
func spreadCell(ff backoff.FigureField, v int) string {
	switch {
	case ff.Optional && v < 0:
		return "-"
	case ff.Time:
		return Millis(v)
	}
	return itoa(v)
}

func seedRange(sc backoff.SeedsCrowd) string {
	if sc.Count == 1 {
		return fmt.Sprintf("seed %d alone", sc.First)
	}
	return fmt.Sprintf("%d seeds, %d to %d", sc.Count, sc.First, sc.First+sc.Count-1)
}

// seedsFirst are the figures of the old seeds report, which come first in
// its CSV and JSON, with seeds_none_through after them.
var seedsFirst = []string{"retries", "most_in_a_slot", "all_through_by_ms", "gave_up"}

// seedsFields is every figure over the seeds: the old report's first.
func seedsFields() []backoff.FigureField {
	var out []backoff.FigureField
	for _, name := range seedsFirst {
		f, _ := backoff.FindField(name)
		out = append(out, f)
	}
	for _, f := range backoff.FigureFields() {
		if !strings.Contains(" "+strings.Join(seedsFirst, " ")+" ", " "+f.Name+" ") {
			out = append(out, f)
		}
	}
	return out
}

// spreadColumns are a figure's three spread columns: retries_median,
// retries_p95, retries_worst; a time's keep _ms last
// (all_through_by_median_ms).
func spreadColumns(ff backoff.FigureField, sp backoff.Spread) []column {
	base, unit := ff.Name, ""
	if strings.HasSuffix(base, "_ms") {
		base, unit = strings.TrimSuffix(base, "_ms"), "_ms"
	}
	cell := func(v int) string {
		if ff.Optional && v < 0 {
			return ""
		}
		return itoa(v)
	}
	return []column{
		{base + "_median" + unit, cell(sp.Median)},
		{base + "_p95" + unit, cell(sp.P95)},
		{base + "_worst" + unit, cell(sp.Worst)},
	}
}

// seedsColumns is one policy's row over the seeds.
func seedsColumns(s backoff.Settings, p backoff.PolicySpread) []column {
	cols := []column{{"policy", p.Policy.String()}}
	for i, ff := range seedsFields() {
		cols = append(cols, spreadColumns(ff, p.Spread(ff.Name))...)
		if i == len(seedsFirst)-1 {
			cols = append(cols, column{"seeds_none_through", itoa(p.NoneThrough)})
		}
	}
	cut, _ := cutShortFrom(s, p.Policy)
	cols = append(cols, column{"seeds_still_overloaded", itoa(p.Overloaded)}, column{"cut_short_from_attempt", cut})
	return append(cols, policyColumns(p.Policy)...)
}

// SeedsCSV is the crowd over many seeds, one row per policy: the policy,
// the median, p95 and worst of retries, most_in_a_slot, all_through_by (ms)
// and gave_up, seeds_none_through, then the same of every other MODEL.md
// figure in its order, seeds_still_overloaded, cut_short_from_attempt and
// the policy's settings.
func SeedsCSV(s backoff.Settings, sc backoff.SeedsCrowd) string {
	var header []string
	var records [][]string
	for i, p := range sc.Policies {
		var row []string
		for _, col := range seedsColumns(s, p) {
			if i == 0 {
				header = append(header, col.name)
			}
			row = append(row, col.cell)
		}
		records = append(records, row)
	}
	return csvDoc(header, records)
}

// spreadJSON is a figure's spread: null where a percentile lands on a seed
// in which the figure does not exist.
func spreadJSON(ff backoff.FigureField, sp backoff.Spread) object {
	value := func(v int) any {
		if ff.Optional && v < 0 {
			return nil
		}
		return v
	}
	return object{{"median", value(sp.Median)}, {"p95", value(sp.P95)}, {"worst", value(sp.Worst)}}
}

// SeedsDoc is the crowd over many seeds as a JSON document: for each
// policy, every figure's {median, p95, worst} under its MODEL.md name.
func SeedsDoc(s backoff.Settings, sc backoff.SeedsCrowd) string {
	policies := []object{}
	for _, p := range sc.Policies {
		doc := object{{"policy", p.Policy.String()}}
		for i, ff := range seedsFields() {
			doc = append(doc, member{ff.Name, spreadJSON(ff, p.Spread(ff.Name))})
			if i == len(seedsFirst)-1 {
				doc = append(doc, member{"seeds_none_through", p.NoneThrough})
			}
		}
		_, cut := cutShortFrom(s, p.Policy)
		doc = append(doc, member{"seeds_still_overloaded", p.Overloaded}, member{"cut_short_from_attempt", cut},
			member{"policy_settings", policySettings(p.Policy)})
		policies = append(policies, doc)
	}
	seeds := object{{"first", sc.First}, {"last", sc.First + sc.Count - 1}, {"count", sc.Count}}
	return jsonDoc(object{{"settings", settingsJSON(s)}, {"slot_ms", s.Slot}, {"seeds", seeds}, {"policies", policies}})
}
