package livecheck

import (
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		live, median int
		tol          float64
		want         bool
	}{
		{103, 100, 0.03, true}, {104, 100, 0.03, false}, {97, 100, 0.03, true}, {96, 100, 0.03, false},
		{115, 100, 0.15, true}, {116, 100, 0.15, false}, {3300, 3000, 0.10, true}, {3301, 3000, 0.10, false},
		{1, 0, 0.03, true}, {2, 0, 0.03, false}, {11, 10, 0.03, true}, {12, 10, 0.03, false},
	} {
		if got := Within(tc.live, tc.median, tc.tol); got != tc.want {
			t.Errorf("Within(%d, %d, %v): got %v, want %v", tc.live, tc.median, tc.tol, got, tc.want)
		}
	}
}

// fakeSims are 50 seeds whose through runs 976 to 1025 (median 1000,
// p5-p95 978-1023, inside 3% of it) and whose gave up runs 80 to 129
// (median 104, p5-p95 82-127, far wider than 3% of it).
func fakeSims() []Figures {
	out := make([]Figures, 50)
	for i := range out {
		out[i].Through = 976 + i
		out[i].GaveUp = 80 + i
		out[i].PeakAfterBack = 100
		out[i].LatencyP50, out[i].LatencyP99 = 3000, 5000
		out[i].StableFrom = 4000
	}
	return out
}

func fakeRun(kept bool, through, gaveUp int) *Run {
	r := &Run{Kept: kept, Why: "the machine did not keep time: test"}
	r.Figures.Through, r.Figures.GaveUp = through, gaveUp
	r.Figures.PeakAfterBack, r.Figures.LatencyP50, r.Figures.LatencyP99, r.Figures.StableFrom = 100, 3000, 5000, 4000
	return r
}

func row(t *testing.T, rep Report, name string) Row {
	t.Helper()
	for _, r := range rep.Rows {
		if r.Check.Name == name {
			return r
		}
	}
	t.Fatalf("no row %q in %+v", name, rep.Rows)
	return Row{}
}

// The comparison fails where it should: through 4% off the median is
// beyond 3%; gave up, whose seeds spread wider than 3%, is held to the
// band and fails outside it; a client without jitter is never asserted,
// and its row says which way it differs; runs not kept are not measured.
func TestCompareCanFail(t *testing.T) {
	jittered := Scenario{Name: "j", Kind: PlannerFullJitter}
	lockstep := Scenario{Name: "l", Kind: RetryableDefault}
	sims := fakeSims()
	for _, tc := range []struct {
		name              string
		sc                Scenario
		through, gaveUp   int
		throughOK, gaveOK bool
	}{
		{"at the medians", jittered, 1000, 104, true, true},
		{"through 3% high", jittered, 1030, 104, true, true},
		{"through 4% high", jittered, 1040, 104, false, true},
		{"through 4% low", jittered, 960, 104, false, true},
		{"gave up 15% high, inside the band", jittered, 1000, 120, true, true},
		{"gave up above the band", jittered, 1000, 135, true, false},
		{"gave up below the band", jittered, 1000, 70, true, false},
	} {
		rep := Compare(tc.sc, []*Run{fakeRun(true, tc.through, tc.gaveUp)}, sims)
		if got := row(t, rep, "through"); got.Agrees != tc.throughOK || !got.Asserted {
			t.Errorf("%s: through: got agrees %v (%s), want %v", tc.name, got.Agrees, got.Verdict, tc.throughOK)
		}
		if got := row(t, rep, "gave up"); got.Agrees != tc.gaveOK {
			t.Errorf("%s: gave up: got agrees %v (%s), want %v", tc.name, got.Agrees, got.Verdict, tc.gaveOK)
		}
		if want := 2 - b2i(tc.throughOK) - b2i(tc.gaveOK); len(rep.Failed()) != want {
			t.Errorf("%s: got %d failed rows, want %d", tc.name, len(rep.Failed()), want)
		}
	}

	rep := Compare(lockstep, []*Run{fakeRun(true, 1200, 50)}, sims)
	if len(rep.Failed()) != 0 || row(t, rep, "through").Asserted {
		t.Errorf("lockstep: got asserted rows, want none: %+v", rep.Rows)
	}
	if v := row(t, rep, "through").Verdict; !strings.Contains(v, "pessimistic") || !strings.Contains(v, "+200") {
		t.Errorf("lockstep through 1200 against 1000: got %q, want +200 and pessimistic", v)
	}

	rep = Compare(jittered, []*Run{fakeRun(false, 2000, 0), fakeRun(false, 2000, 0)}, sims)
	if rep.Kept != 0 || len(rep.Rows) != 0 || len(rep.Failed()) != 0 || len(rep.Discarded) != 2 || !strings.Contains(rep.Note, "not measured") {
		t.Errorf("two runs not kept: got %+v, want not measured, no rows", rep)
	}
	if tab := Table([]Report{rep}); !strings.Contains(tab, "not measured") || !strings.Contains(tab, "did not keep time") {
		t.Errorf("the table of runs not kept says neither that nor why:\n%s", tab)
	}
}

// With several kept runs the median of them is held to the model, not
// one run: three runs of which one is 10% off still agree, the median
// being the one in the middle; and a run not kept is left out.
func TestCompareTakesTheMedianOfKeptRuns(t *testing.T) {
	sims := fakeSims()
	runs := []*Run{fakeRun(true, 1100, 104), fakeRun(true, 1001, 104), fakeRun(true, 995, 104), fakeRun(false, 5000, 0)}
	rep := Compare(Scenario{Kind: CenkaltiV4}, runs, sims)
	r := row(t, rep, "through")
	if r.LiveMid != 1001 || !r.Agrees || r.Inside != 2 || len(r.Live) != 3 || rep.Kept != 3 {
		t.Errorf("got median %d, agrees %v, %d of %d inside, %d kept; want 1001, true, 2 of 3, 3", r.LiveMid, r.Agrees, r.Inside, len(r.Live), rep.Kept)
	}
}

// The short version holds its jittered scenarios to the stated
// tolerances, never to a wider band: for each asserted figure, the
// simulator's own p5-p95 lies within the tolerance of its median, so that
// a failure means the live storm left the model, not the model's own
// spread.
func TestShortTableHeldToTolerances(t *testing.T) {
	for _, sc := range ShortTable() {
		if !sc.Kind.Jittered() {
			continue
		}
		sims, err := Simulate(sc, 1, SimSeeds)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range Checks() {
			sp := SpreadOf(sims, c.Get)
			if c.Tol == 0 || c.Queue || sp.P95 == 0 {
				continue
			}
			if !TolerancesHold(sp, c.Tol) {
				t.Errorf("%s, %s: the simulator's p5-p95 %d-%d is wider than %.0f%% of its median %d", sc.Name, c.Name, sp.P5, sp.P95, 100*c.Tol, sp.Median)
			}
		}
	}
}

// SpreadOf is nearest rank over the values sorted from low to high, the
// absent ones left out and counted.
func TestSpreadOf(t *testing.T) {
	var runs []Figures
	for v := 1; v <= 20; v++ {
		runs = append(runs, Figures{Figures: backoff.Figures{LatencyP50: 21 - v}})
	}
	runs = append(runs, Figures{Figures: backoff.Figures{LatencyP50: -1}})
	sp := SpreadOf(runs, func(f Figures) int { return f.LatencyP50 })
	// 20 values: p5 at rank 1, median at rank 10, p95 at rank 19.
	if want := (Spread{P5: 1, Median: 10, P95: 19, Absent: 1}); sp != want {
		t.Errorf("got %+v, want %+v", sp, want)
	}
	if !sp.Inside(1) || !sp.Inside(19) || sp.Inside(0) || sp.Inside(20) {
		t.Errorf("Inside: got the band's ends wrong for %+v", sp)
	}
}
