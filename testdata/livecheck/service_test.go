package livecheck

import (
	"fmt"
	"testing"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
)

// The admission rule on the slots' boundaries: an attempt a nanosecond
// before slot i's start counts in slot i-1, one at its start in slot i;
// each slot serves exactly the planner's SlotCapacity, even where the
// capacity does not divide into the slots (333 a second in 100 ms slots:
// 33, 33, 34); a nanosecond before the outage's end is down, its end is
// not; the crowd's first attempt is down whatever the time.
func TestSlotsOnTheBoundaries(t *testing.T) {
	for _, tc := range []struct{ capacity, slot, outage int }{
		{300, 100, 2500}, {333, 100, 2500}, {7, 100, 1000}, {1000, 1, 5}, {2500, 30, 90}, {150, 1000, 0},
	} {
		t.Run(fmt.Sprintf("C%d_S%d", tc.capacity, tc.slot), func(t *testing.T) {
			s := backoff.Defaults()
			s.Capacity = tc.capacity
			svc := newSlots(tc.outage, tc.slot, tc.capacity)
			msd := func(m int) time.Duration { return time.Duration(m) * time.Millisecond }
			if tc.outage > 0 {
				if got := svc.admit(msd(tc.outage)-1, false); got != Down {
					t.Errorf("1 ns before the outage's end: got %v, want down", got)
				}
			}
			if got := svc.admit(msd(tc.outage+tc.slot*3), true); got != Down {
				t.Errorf("a crowd client's first attempt after the outage: got %v, want down", got)
			}
			first := (tc.outage + tc.slot - 1) / tc.slot // the first whole slot after the outage's end
			for i := first; i < first+12; i++ {
				start := msd(i * tc.slot)
				want := s.SlotCapacity(i, tc.slot)
				served := 0
				// Far more than the slot can take, all at its first
				// nanosecond, then one at its last.
				for range want + 5 {
					if svc.admit(start, false) == Served {
						served++
					}
				}
				if got := svc.admit(start+msd(tc.slot)-1, false); got != Rejected {
					t.Errorf("slot %d's last nanosecond, after %d served: got %v, want rejected", i, served, got)
				}
				if served != want {
					t.Errorf("slot %d from %v: got %d served, want cap(%d) = %d", i, start, served, i, want)
				}
			}
		})
	}
}

// Slot i's count starts afresh at its first nanosecond and not before: an
// attempt 1 ns before the boundary is refused by the full slot behind it,
// and one at the boundary is served by the next.
func TestSlotsTurnAtTheBoundary(t *testing.T) {
	svc := newSlots(0, 100, 10) // one a slot
	ms100 := 100 * time.Millisecond
	for _, tc := range []struct {
		at   time.Duration
		want Outcome
	}{
		{ms100 - 2, Served}, {ms100 - 1, Rejected}, {ms100, Served}, {ms100 + 1, Rejected},
		{2*ms100 - 1, Rejected}, {5 * ms100, Served}, {5*ms100 + 99*time.Millisecond, Rejected},
	} {
		if got := svc.admit(tc.at, false); got != tc.want {
			t.Errorf("admit(%v): got %v, want %v", tc.at, got, tc.want)
		}
	}
}

// modelScenarios are scenarios to hold the live server's rule and Measure
// to the planner with: every kind's policy, capacity below and above the
// storm and none, fresh load, a limit on total time that binds, a capacity
// that does not divide into slots, waits of 0 ms and an outage of 0.
func modelScenarios() []Scenario {
	tiny := backoff.Policy{Name: "tiny", FirstWait: 1, LongestWait: 4, Multiplier: 2000,
		Jitter: backoff.Jitter{Kind: backoff.JitterFull}, Attempts: 12}
	limited := CenkaltiV5.Policy()
	limited.MaxElapsed = 2300
	var out []Scenario
	for _, k := range Kinds() {
		for _, c := range []int{0, 333, 2000, 20000} {
			out = append(out, Scenario{Name: fmt.Sprintf("%s C%d", k, c), Kind: k, Clients: 500, Outage: 2500, Slot: 100, Capacity: c})
			out = append(out, Scenario{Name: fmt.Sprintf("%s C%d load", k, c), Kind: k, Clients: 300, Outage: 2500, Slot: 100, Capacity: c,
				Load: 150, LoadUntil: 4500})
		}
	}
	return append(out,
		Scenario{Name: "limit binds", Kind: CenkaltiV5, Clients: 400, Outage: 2000, Slot: 100, Capacity: 300, Custom: limited},
		Scenario{Name: "limit binds, load", Kind: CenkaltiV5, Clients: 200, Outage: 2000, Slot: 50, Capacity: 300, Custom: limited, Load: 77, LoadUntil: 3000},
		Scenario{Name: "waits of 0", Kind: PlannerFullJitter, Clients: 300, Outage: 7, Slot: 1, Capacity: 9000, Custom: tiny},
		Scenario{Name: "outage 0", Kind: PlannerFullJitter, Clients: 300, Outage: 0, Slot: 20, Capacity: 1000},
	)
}

// The live server's admission rule and the measurement from its log are
// the model exactly: driven in virtual time with the planner's own draws,
// every figure, and the busiest slot during the outage from the planner's
// series, equals backoff.Run's, for every scenario and several seeds.
func TestDrivenServerIsTheModel(t *testing.T) {
	for _, sc := range modelScenarios() {
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, seed := range []int{1, 2, 3} {
			s := sc.Settings(seed)
			r, err := backoff.Run(sc.Policy(), s, backoff.Options{Series: true})
			if err != nil {
				t.Fatalf("%s seed %d: %v", sc.Name, seed, err)
			}
			want := simFigures(sc, r)
			got, missing := Measure(sc, driveSlots(sc, s), 0)
			if missing != 0 {
				t.Errorf("%s seed %d: %d clients missing from the log, want 0", sc.Name, seed, missing)
			}
			if got != want {
				t.Errorf("%s seed %d:\n got %+v\nwant %+v", sc.Name, seed, got, want)
			}
		}
	}
}

// The same with the client's guards that need no breaker (MODEL.md section
// 7): outages that hang and pushback, the clients playing both, each
// alone and together, on every scenario. Every figure equals backoff.Run's
// (short_circuited and breaker_opened 0 on both sides: no breaker).
func TestDrivenGuardsAreTheModel(t *testing.T) {
	guards := []struct{ hang, retryAfter int }{{1, 0}, {700, 0}, {0, 1}, {0, 1500}, {300, 250}, {3000, 4000}}
	for i, sc := range modelScenarios() {
		g := guards[i%len(guards)]
		for _, seed := range []int{1, 2} {
			s := sc.Settings(seed)
			s.OutageHang, s.RetryAfter = g.hang, g.retryAfter
			what := fmt.Sprintf("%s seed %d, hang %d ms, retry after %d ms", sc.Name, seed, g.hang, g.retryAfter)
			r, err := backoff.Run(sc.Policy(), s, backoff.Options{Series: true})
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			want := simFigures(sc, r)
			got, missing := Measure(sc, driveSlots(sc, s), 0)
			if missing != 0 {
				t.Errorf("%s: %d clients missing from the log, want 0", what, missing)
			}
			if got != want {
				t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
			}
		}
	}
}
