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
			log, opened := driveSlots(sc, s)
			got, missing := Measure(sc, log, 0, opened)
			if missing != 0 {
				t.Errorf("%s seed %d: %d clients missing from the log, want 0", sc.Name, seed, missing)
			}
			if got != want {
				t.Errorf("%s seed %d:\n got %+v\nwant %+v", sc.Name, seed, got, want)
			}
		}
	}
}

// The same with the client's guards (MODEL.md section 7): outages that
// hang and pushback, the clients playing both, each alone and together,
// on every scenario; then with circuit breakers, each on every scenario:
// alone, with hangs and with pushback, in one process and in several,
// breakers that open on the first failure and probe every 100 ms (a probe
// fails while the service is down, and a rejected one while it is
// overloaded), 1 ms open, and breakers that never open. Every figure
// equals backoff.Run's, short_circuited and breaker_opened among them.
func TestDrivenGuardsAreTheModel(t *testing.T) {
	type guards struct {
		hang, retryAfter int
		breaker          backoff.Breaker
		procs            int
	}
	var cases []guards
	scenarios := modelScenarios()
	for i := range scenarios {
		cases = append(cases, []guards{{hang: 1}, {hang: 700}, {retryAfter: 1}, {retryAfter: 1500}, {hang: 300, retryAfter: 250},
			{hang: 3000, retryAfter: 4000}}[i%6])
	}
	for _, g := range []guards{
		{breaker: backoff.Breaker{Failures: 5, Open: 2000}},
		{breaker: backoff.Breaker{Failures: 20, Open: 5000}},
		{breaker: backoff.Breaker{Failures: 1, Open: 100}, hang: 300},
		{breaker: backoff.Breaker{Failures: 5, Open: 200}, retryAfter: 150, procs: 3},
		{breaker: backoff.Breaker{Failures: 20, Open: 500}, hang: 700, retryAfter: 1500, procs: 7},
		{breaker: backoff.Breaker{Failures: 1, Open: 1}, hang: 1, retryAfter: 1},
		{breaker: backoff.Breaker{Failures: 1000, Open: 300}},
	} {
		for range scenarios {
			cases = append(cases, g)
		}
	}
	for i, g := range cases {
		sc := scenarios[i%len(scenarios)]
		sc.Breaker, sc.Processes = g.breaker, g.procs
		for _, seed := range []int{1, 2} {
			s := sc.Settings(seed)
			s.OutageHang, s.RetryAfter = g.hang, g.retryAfter
			what := fmt.Sprintf("%s seed %d, hang %d ms, retry after %d ms, breaker %v in %d processes", sc.Name, seed, g.hang, g.retryAfter, g.breaker, s.Processes)
			r, err := backoff.Run(sc.Policy(), s, backoff.Options{Series: true})
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			want := simFigures(sc, r)
			log, opened := driveSlots(sc, s)
			got, missing := Measure(sc, log, 0, opened)
			if missing != 0 {
				t.Errorf("%s: %d clients missing from the log, want 0", what, missing)
			}
			if got != want {
				t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
			}
			if g.breaker.On() && g.breaker.Failures <= 20 && want.ShortCircuited == 0 {
				t.Errorf("%s: no attempt short-circuited: the case does not try the breaker", what)
			}
		}
	}
}

// guardCase is a small storm with MODEL.md section 7's guards set, and
// the figures worked out by hand.
type guardCase struct {
	name                    string
	sc                      Scenario
	hang, retryAfter        int
	attempts, served        int
	down, rejected, shorted int
	opened, through, gaveUp int
}

// fixedWait is 100 ms between attempts, no jitter: the hand-worked cases'
// clients, each attempt at a whole 100 ms after the failure before it.
func fixedWait(attempts int) backoff.Policy {
	return backoff.Policy{Name: "fixed", FirstWait: 100, LongestWait: 100, Multiplier: 1000, Attempts: attempts}
}

// The breaker of MODEL.md section 7 worked by hand on 2 to 4 clients that
// wait 100 ms between attempts: the driven clients' breakers (the live
// clients' own, breakers) and Measure of their log give these figures,
// and so does backoff.Run. "c1@0 down" is client 1's attempt at 0 ms,
// failed while down; "sc" short-circuited.
func TestDrivenBreakerByHand(t *testing.T) {
	sc := func(clients, outage, capacity, attempts int, b backoff.Breaker, procs int) Scenario {
		return Scenario{Kind: PlannerFullJitter, Clients: clients, Outage: outage, Slot: 100, Capacity: capacity,
			Custom: fixedWait(attempts), Breaker: b, Processes: procs}
	}
	for _, tc := range []guardCase{
		// F = 2: c1@0 down (1 in a row), c2@0 down (2: opens at 0 until
		// 500), c3@0 sc: the arrival after the F-th failure in the same
		// ms. Every attempt at 100 and 200 is before 500: sc. 9 attempts,
		// 2 down, 7 sc.
		{name: "the F-th failure at 0 ms, 2:500", sc: sc(3, 1000, 0, 3, backoff.Breaker{Failures: 2, Open: 500}, 1),
			attempts: 9, down: 2, shorted: 7, opened: 1, gaveUp: 3},
		// F = 3: the third first attempt is the F-th failure; 3 down, 6 sc.
		{name: "the F-th failure is the last at 0 ms, 3:500", sc: sc(3, 1000, 0, 3, backoff.Breaker{Failures: 3, Open: 500}, 1),
			attempts: 9, down: 3, shorted: 6, opened: 1, gaveUp: 3},
		// F = 4: 3 failures at 0 ms leave it closed; c1@100 down is the
		// 4th (opens at 100 until 600), c2@100 and c3@100 sc, every
		// attempt at 200 sc: 4 down, 5 sc.
		{name: "one failure short at 0 ms, 4:500", sc: sc(3, 1000, 0, 3, backoff.Breaker{Failures: 4, Open: 500}, 1),
			attempts: 9, down: 4, shorted: 5, opened: 1, gaveUp: 3},
		// Open at 0 until 0 + 200: at 100 all sc; c1@200 is the probe
		// (200 >= 200), served (the outage ended at 150): closed; c2@200
		// and c3@200 served. 9 attempts: 3 served, 2 down, 4 sc.
		{name: "the probe at exactly D after opening, 2:200", sc: sc(3, 150, 0, 4, backoff.Breaker{Failures: 2, Open: 200}, 1),
			attempts: 9, served: 3, down: 2, shorted: 4, opened: 1, through: 3},
		// Open until 201: every attempt at 200 is sc too (200 < 201);
		// the probe is c1@300, served, then c2@300, c3@300. 12 attempts:
		// 3 served, 2 down, 7 sc.
		{name: "1 ms before the probe, 2:201", sc: sc(3, 150, 0, 4, backoff.Breaker{Failures: 2, Open: 201}, 1),
			attempts: 12, served: 3, down: 2, shorted: 7, opened: 1, through: 3},
		// The outage ends at 250: the probe c1@200 fails while down and
		// opens it again at 200 until 400 (opened 2); c2@200 and c3@200
		// sc, then every attempt at 300. c1: down, sc, down, sc; c2:
		// down, sc, sc, sc; c3: 4 sc. 12 attempts: 3 down, 9 sc.
		{name: "a probe that fails opens it again, 2:200", sc: sc(3, 250, 0, 4, backoff.Breaker{Failures: 2, Open: 200}, 1),
			attempts: 12, down: 3, shorted: 9, opened: 2, gaveUp: 3},
		// Attempts hang 50 ms. c1@0 and c2@0 both hang (closed: no
		// outcome known at 0). At 50 c1's failure opens it (F = 1) until
		// 150; c2's, at 50 too, finds it open and changes nothing. c1@150
		// is the probe and hangs; c2@150 sc while the probe is out (c2
		// next at 250). At 200 the probe fails: open again until 300
		// (opened 2). c2@250 sc, its last. c1@300 is the probe, hangs,
		// fails at 350: opened 3. 6 attempts: 4 down, 2 sc.
		{name: "a hanging probe, 1:100, hang 50", sc: sc(2, 1000, 0, 3, backoff.Breaker{Failures: 1, Open: 100}, 1), hang: 50,
			attempts: 6, down: 4, shorted: 2, opened: 3, gaveUp: 2},
		// One served a slot (10 a second), rejections come back after
		// 400. c1@0, c2@0 down: open until 300; c3@0 sc, all sc at 100
		// and 200. At 300: c1 the probe, served (closed, 0 in a row);
		// c2 rejected (1); c3 rejected (2: opens at 300 until 600,
		// opened 2). Both come back at 300 + 400 = 700 >= 600: c2 the
		// probe, served, closed; c3 rejected, its 5th and last. 14
		// attempts: 2 served, 2 down, 3 rejected, 7 sc.
		{name: "pushback past the open time, 2:300, retry after 400", sc: sc(3, 100, 10, 5, backoff.Breaker{Failures: 2, Open: 300}, 1), retryAfter: 400,
			attempts: 14, served: 2, down: 2, rejected: 3, shorted: 7, opened: 2, through: 2, gaveUp: 1},
		// The order within a ms: a failure that comes due before the
		// arrivals, whatever the clients' numbers. c1 (the crowd) and c2
		// (fresh, at 0) hang from 0 to 100: 2 in a row, both back at 200;
		// c3 (fresh, at 100) hangs to 200. At 200 c3's failure comes first,
		// the 3rd (opens at 200 until 1200), then c1@200 and c2@200
		// arrive: sc, their last; c3@300 sc. 6 attempts: 3 down, 3 sc (in
		// client order alone, c1@200 and c2@200 would hang: 5 down).
		{name: "a hang's failure comes before the arrivals, 3:1s, hang 100",
			sc: func() Scenario {
				s := sc(1, 1000, 0, 2, backoff.Breaker{Failures: 3, Open: 1000}, 1)
				s.Load, s.LoadUntil = 10, 200
				return s
			}(), hang: 100, attempts: 6, down: 3, shorted: 3, opened: 1, gaveUp: 3},
		// Two processes: c1, c3 in the first, c2, c4 in the second. F = 1:
		// c1@0 opens the first, c2@0 the second; c3@0, c4@0 and every
		// attempt at 100 sc. 8 attempts: 2 down, 6 sc, opened 2.
		{name: "a breaker per process, 1:500, 2 processes", sc: sc(4, 1000, 0, 2, backoff.Breaker{Failures: 1, Open: 500}, 2),
			attempts: 8, down: 2, shorted: 6, opened: 2, gaveUp: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.sc.Name = tc.name
			if err := tc.sc.Validate(); err != nil {
				t.Fatal(err)
			}
			s := tc.sc.Settings(1)
			s.OutageHang, s.RetryAfter = tc.hang, tc.retryAfter
			r, err := backoff.Run(tc.sc.Policy(), s, backoff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			log, opened := driveSlots(tc.sc, s)
			driven, missing := Measure(tc.sc, log, 0, opened)
			if missing != 0 {
				t.Errorf("driven: %d clients missing from the log, want 0", missing)
			}
			for _, side := range []struct {
				what string
				f    backoff.Figures
			}{{"backoff.Run", r.Figures}, {"driven", driven.Figures}} {
				f := side.f
				got := [...]int{f.Attempts, f.Served, f.FailedWhileDown, f.Rejected, f.ShortCircuited, f.BreakerOpened, f.Through, f.GaveUp}
				want := [...]int{tc.attempts, tc.served, tc.down, tc.rejected, tc.shorted, tc.opened, tc.through, tc.gaveUp}
				if got != want {
					t.Errorf("%s: got attempts, served, down, rejected, short-circuited, opened, through, gave up %v, want %v", side.what, got, want)
				}
			}
		})
	}
}
