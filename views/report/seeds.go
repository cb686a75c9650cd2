package report

import (
	"fmt"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/plain"
	"github.com/retryplanner/retry-planner/views/words"
)

// The crowd over many seeds: each figure's median, 95th percentile and
// worst, in text, CSV and JSON.

// seedFigures are the figures the text over many seeds shows: the
// reference's four, the peak after back and the clients not through, and
// with a service what it did, its queue's and its breakers' too; CSV and
// JSON hold every figure.
func seedFigures(s backoff.Settings) []string {
	names := []string{"retries", "most_in_a_slot", "peak_after_back", "all_through_by_ms", "gave_up", "not_through"}
	if s.HasService() {
		names = append(names, "rejected", "throttled", "out_of_time", "stable_from_ms", "latency_p99_ms")
	}
	if s.HasQueue() {
		names = append(names, "timed_out", "wasted", "dropped", "queue_peak")
	}
	if s.Breaker.On() {
		names = append(names, "short_circuited", "breaker_opened")
	}
	return names
}

// SeedsText is the crowd over many seeds: for each policy and figure, the
// median, the 95th percentile and the worst.
func SeedsText(s backoff.Settings, sc backoff.SeedsCrowd) string {
	var b strings.Builder
	var ps []backoff.Policy
	for _, p := range sc.Policies {
		ps = append(ps, p.Policy)
	}
	b.WriteString(plain.CrowdIntroOf(s, ps) + ".\n")
	fmt.Fprintf(&b, "Will the service survive the retries? Each policy's verdict over %s, figure by figure (each figure's median, 95th percentile and worst is a figure one of the seeds gave, not all the same seed's):\n", seedRange(sc))
	for _, p := range sc.Policies {
		b.WriteString("  " + p.Policy.String() + ": " + words.SeedsVerdict(s, p, sc.Count) + "\n")
	}
	fmt.Fprintf(&b, "Over %s, each figure's median, 95th percentile and worst:\n", seedRange(sc))
	lost := false
	for _, p := range sc.Policies {
		lost = lost || p.Spread("not_through").Worst > 0
	}
	var rows [][]string
	for _, p := range sc.Policies {
		for i, name := range seedFigures(s) {
			ff, _ := backoff.FindField(name)
			sp := p.Spread(name)
			policy := ""
			if i == 0 {
				policy = p.Policy.String()
			}
			rows = append(rows, []string{policy, words.FigureLabel(ff, lost), spreadCell(ff, sp.Median), spreadCell(ff, sp.P95), spreadCell(ff, sp.Worst)})
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
		return plain.Millis(v)
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
func seedsFields() []backoff.FigureField { return fieldsFirst(seedsFirst) }

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
func seedsColumns(s backoff.Settings, p backoff.PolicySpread, count int) []column {
	cols := []column{{"policy", p.Policy.String()}, {"verdict", words.SeedsVerdict(s, p, count)}}
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
// its verdict over the seeds (words.SeedsVerdict), the median, p95 and worst of retries, most_in_a_slot, all_through_by (ms)
// and gave_up, seeds_none_through, then the same of every other MODEL.md
// figure in its order, seeds_still_overloaded, cut_short_from_attempt and
// the policy's settings.
func SeedsCSV(s backoff.Settings, sc backoff.SeedsCrowd) string {
	var header []string
	var records [][]string
	for i, p := range sc.Policies {
		var row []string
		for _, col := range seedsColumns(s, p, sc.Count) {
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
// policy, its verdict over the seeds and every figure's {median, p95, worst} under its MODEL.md name.
func SeedsDoc(s backoff.Settings, sc backoff.SeedsCrowd) string {
	policies := []object{}
	for _, p := range sc.Policies {
		doc := object{{"policy", p.Policy.String()}, {"verdict", words.SeedsVerdict(s, p, sc.Count)}}
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
