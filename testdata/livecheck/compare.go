package livecheck

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Check is how one figure is held to the model.
type Check struct {
	Name string
	Get  func(Figures) int
	// Tol is how far from the simulator's median a live figure of a
	// jittered client may be, as a share of the median: the agreement the
	// model must show. 0: shown, not asserted.
	Tol float64
	// HigherIsBetter says which way the figure improves, to say of a
	// lockstep herd whether the model was pessimistic.
	HigherIsBetter bool
	// Queue marks the queue's own figures, shown for scenarios that queue;
	// Breaker the breaker's, shown for scenarios with one.
	Queue, Breaker bool
}

// Checks are the figures compared, with the agreement the model must show
// for jittered clients: clients through and gave up within 3% of the
// median, peak after back within 15%, latency p50 and p99 within 10%,
// and with a breaker, how often the breakers opened within 10%.
// Stable-from, the busiest slot during the outage and the attempts
// short-circuited are shown, not asserted: the first is the end of a 100
// ms slot, so it moves a whole slot at a time; the second is known to err
// (the live herd's first answers spread over tens of ms and shift a wave
// by a good part of a slot); the third too: the model's breakers hear the
// crowd's first failures at 0 ms and short-circuit the rest of the crowd
// at once, N - P*F attempts, which live are all sent before the first
// answer comes back (RESULTS.md).
func Checks() []Check {
	return []Check{
		{Name: "through", Get: func(f Figures) int { return f.Through }, Tol: 0.03, HigherIsBetter: true},
		{Name: "gave up", Get: func(f Figures) int { return f.GaveUp }, Tol: 0.03},
		{Name: "out of time", Get: func(f Figures) int { return f.OutOfTime }, Tol: 0.03},
		{Name: "peak after back", Get: func(f Figures) int { return f.PeakAfterBack }, Tol: 0.15},
		{Name: "stable from ms", Get: func(f Figures) int { return f.StableFrom }},
		{Name: "latency p50 ms", Get: func(f Figures) int { return f.LatencyP50 }, Tol: 0.10},
		{Name: "latency p99 ms", Get: func(f Figures) int { return f.LatencyP99 }, Tol: 0.10},
		{Name: "busiest in outage", Get: func(f Figures) int { return f.BusiestInOutage }},
		{Name: "timed out", Get: func(f Figures) int { return f.TimedOut }, Queue: true},
		{Name: "wasted", Get: func(f Figures) int { return f.Wasted }, Queue: true},
		{Name: "dropped", Get: func(f Figures) int { return f.Dropped }, Queue: true},
		{Name: "queue peak", Get: func(f Figures) int { return f.QueuePeak }, Queue: true},
		{Name: "still overloaded", Get: func(f Figures) int { return b2i(f.StillOverloaded) }, Queue: true},
		{Name: "short circuited", Get: func(f Figures) int { return f.ShortCircuited }, Breaker: true},
		{Name: "breaker opened", Get: func(f Figures) int { return f.BreakerOpened }, Tol: 0.10, Breaker: true},
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Row is one figure of one scenario: the kept live runs' values and the
// simulator's spread, and what they say.
type Row struct {
	Check    Check
	Live     []int  // each kept run's value
	LiveMid  int    // their nearest-rank median: the value held to the model
	Sim      Spread // over the simulator's seeds
	Inside   int    // kept runs inside the simulator's p5-p95 band
	Asserted bool   // a jittered client's figure with a tolerance
	Agrees   bool   // asserted, and the live median within the tolerance of the simulator's
	Verdict  string
}

// Report is one scenario's comparison.
type Report struct {
	Scenario  Scenario
	Runs      int      // live runs made
	Kept      int      // of them, kept
	Discarded []string // why each other one was not measured
	Rows      []Row
	Note      string // why there is no comparison, if there is none
}

// Failed returns the asserted rows that do not agree.
func (r Report) Failed() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Asserted && !row.Agrees {
			out = append(out, row)
		}
	}
	return out
}

// Within reports whether live is within tol of the median: |live - median|
// <= tol*median, or 1 where that is less than 1 (a count or a millisecond
// is the grain of every figure).
func Within(live, median int, tol float64) bool {
	return math.Abs(float64(live-median)) <= slack(median, tol)
}

func slack(median int, tol float64) float64 { return max(tol*float64(median), 1) }

// TolerancesHold reports whether the simulator's own p5-p95 band lies
// within tol of its median: then one live run can be held to the
// tolerance. Where the seeds spread wider, the model itself says the
// figure varies more than that from one storm to the next, and a live
// run is held to the band instead (see Compare).
func TolerancesHold(sp Spread, tol float64) bool {
	return Within(sp.P5, sp.Median, tol) && Within(sp.P95, sp.Median, tol)
}

// Compare sets the kept live runs of scenario sc against the simulator's
// runs sims (normally Simulate(sc, 1, SimSeeds); a test may pass another
// scenario's, to see the comparison fail). The value held to the model is
// the median of the kept runs (the one run, with one). For a jittered
// client it agrees when within the figure's tolerance of the simulator's
// median, or, where the simulator's own p5-p95 band is wider than the
// tolerance, inside that band. A client without jitter is not held to the
// model: its row says which way the live figure differs.
func Compare(sc Scenario, runs []*Run, sims []Figures) Report {
	rep := Report{Scenario: sc, Runs: len(runs)}
	var kept []*Run
	for _, r := range runs {
		if r.Kept {
			kept = append(kept, r)
		} else {
			rep.Discarded = append(rep.Discarded, r.Why)
		}
	}
	rep.Kept = len(kept)
	if len(kept) == 0 {
		rep.Note = "not measured: no live run kept time"
		return rep
	}
	if len(sims) == 0 {
		rep.Note = "live only: the simulator cannot run it"
	}
	for _, c := range Checks() {
		if c.Queue && !sc.Queue.On() || c.Breaker && !sc.Breaker.On() {
			continue
		}
		row := Row{Check: c, Sim: Spread{P5: -1, Median: -1, P95: -1}}
		for _, r := range kept {
			row.Live = append(row.Live, c.Get(r.Figures))
		}
		sorted := slices.Clone(row.Live)
		slices.Sort(sorted)
		row.LiveMid = sorted[(len(sorted)+1)/2-1]
		if len(sims) > 0 {
			row.Sim = SpreadOf(sims, c.Get)
		}
		if c.Name == "out of time" && row.Sim.P95 <= 0 && row.LiveMid == 0 && slices.Max(row.Live) == 0 {
			continue // no limit on total time binds: nothing to show
		}
		for _, v := range row.Live {
			if row.Sim.Inside(v) {
				row.Inside++
			}
		}
		row.Asserted = c.Tol > 0 && sc.Kind.Jittered() && row.Sim.Median >= 0
		row.Verdict = verdict(&row, sc)
		rep.Rows = append(rep.Rows, row)
	}
	return rep
}

func verdict(row *Row, sc Scenario) string {
	c, med, live := row.Check, row.Sim.Median, row.LiveMid
	switch {
	case med < 0 && live < 0:
		return "none in either"
	case med < 0:
		return "live only"
	case live < 0:
		return "none live"
	}
	diff := "="
	if live != med {
		diff = fmt.Sprintf("%+d", live-med)
		if med != 0 {
			diff += fmt.Sprintf(" (%+.0f%%)", 100*float64(live-med)/float64(med))
		}
	}
	if row.Asserted {
		switch {
		case Within(live, med, c.Tol):
			row.Agrees = true
			return fmt.Sprintf("agrees: %s, within %.0f%%", diff, 100*c.Tol)
		case !TolerancesHold(row.Sim, c.Tol) && row.Sim.Inside(live):
			row.Agrees = true
			return fmt.Sprintf("agrees: %s, inside p5-p95 (the seeds spread wider than %.0f%%)", diff, 100*c.Tol)
		}
		return fmt.Sprintf("DIFFERS: %s, beyond %.0f%%", diff, 100*c.Tol)
	}
	if c.Tol > 0 && !sc.Kind.Jittered() && live != med {
		better := (live > med) == c.HigherIsBetter
		if c.Name == "peak after back" || c.Name == "through" || c.Name == "gave up" {
			if better {
				return "lockstep: " + diff + ", the model is pessimistic"
			}
			return "lockstep: " + diff + ", the model is optimistic"
		}
		return "lockstep: " + diff
	}
	return "shown: " + diff
}

// Table writes the reports as one Markdown table: scenario, figure, each
// kept live run's value, the simulator's median and p5-p95 band, how many
// live runs fell inside it, and the verdict; then, per scenario, the runs
// that were not measured and why.
func Table(reps []Report) string {
	var b strings.Builder
	b.WriteString("| scenario | figure | live runs | sim median | sim p5-p95 | inside | verdict |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, rep := range reps {
		name := rep.Scenario.Name
		if rep.Note != "" && (len(rep.Rows) == 0 || strings.HasPrefix(rep.Note, "FAULT")) {
			fmt.Fprintf(&b, "| %s | | | | | | %s (%d runs) |\n", name, rep.Note, rep.Runs)
			continue
		}
		for _, row := range rep.Rows {
			live := make([]string, len(row.Live))
			for i, v := range row.Live {
				live[i] = strconv.Itoa(v)
			}
			sim, band := "-", "-"
			if row.Sim.Median >= 0 {
				sim, band = strconv.Itoa(row.Sim.Median), fmt.Sprintf("%d-%d", row.Sim.P5, row.Sim.P95)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d/%d | %s |\n", name, row.Check.Name, strings.Join(live, " "),
				sim, band, row.Inside, len(row.Live), row.Verdict)
			name = ""
		}
	}
	var notes []string
	for _, rep := range reps {
		for _, why := range rep.Discarded {
			notes = append(notes, fmt.Sprintf("- %s: not measured, %s", rep.Scenario.Name, why))
		}
	}
	if len(notes) > 0 {
		b.WriteString("\nRuns discarded:\n\n")
		b.WriteString(strings.Join(notes, "\n"))
		b.WriteString("\n")
	}
	return b.String()
}

// Summary sums the reports up, in a few lines: for the jittered clients,
// how many asserted figures agree and how far each figure strays from the
// simulator's median at most; how many live values fell inside the
// simulator's p5-p95 band; for the lockstep herd, which way and how far
// its figures differ; and the runs not measured.
func Summary(reps []Report) string {
	type span struct {
		lo, hi float64
		n      int
	}
	jit := map[string]*span{}
	herd := map[string]*span{}
	var names []string
	asserted, agree, byBand, inside, values, runs, kept := 0, 0, 0, 0, 0, 0, 0
	for _, rep := range reps {
		runs += rep.Runs
		kept += rep.Kept
		for _, row := range rep.Rows {
			if row.Sim.Median <= 0 || row.LiveMid < 0 {
				continue
			}
			values += len(row.Live)
			inside += row.Inside
			d := 100 * float64(row.LiveMid-row.Sim.Median) / float64(row.Sim.Median)
			m := herd
			if rep.Scenario.Kind.Jittered() {
				m = jit
			}
			sp, ok := m[row.Check.Name]
			if !ok {
				sp = &span{lo: d, hi: d}
				m[row.Check.Name] = sp
				if !slices.Contains(names, row.Check.Name) {
					names = append(names, row.Check.Name)
				}
			}
			sp.lo, sp.hi, sp.n = min(sp.lo, d), max(sp.hi, d), sp.n+1
			if row.Asserted {
				asserted++
				if row.Agrees {
					agree++
					if !Within(row.LiveMid, row.Sim.Median, row.Check.Tol) {
						byBand++
					}
				}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Live runs: %d made, %d kept, %d not measured (the machine did not keep time).\n", runs, kept, runs-kept)
	fmt.Fprintf(&b, "Jittered clients: %d of %d asserted figures agree (%d of them by the simulator's band, where its seeds spread wider than the tolerance).\n",
		agree, asserted, byBand)
	fmt.Fprintf(&b, "Live values inside the simulator's p5-p95: %d of %d.\n", inside, values)
	for _, part := range []struct {
		what string
		m    map[string]*span
	}{{"Jittered clients, live median against the simulator's", jit}, {"Lockstep herd (retryablehttp default), live against the model", herd}} {
		if len(part.m) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s, from the lowest to the highest over the scenarios:\n", part.what)
		for _, n := range names {
			if sp, ok := part.m[n]; ok {
				fmt.Fprintf(&b, "  %-18s %+6.1f%% to %+6.1f%% (%d scenarios)\n", n, sp.lo, sp.hi, sp.n)
			}
		}
	}
	return b.String()
}
