package backoff

import (
	"reflect"
	"testing"
)

// crowdsScenarios are settings that take each way through the core: the
// fast path, the engine with a capacity and a load, a budget, and a queue
// with a timeout.
func crowdsScenarios() map[string]Settings {
	fast := Defaults()
	fast.Clients = 500
	service := fast
	service.Capacity, service.Load, service.LoadUntil = 300, 100, 40000
	budget := service
	budget.Budget, budget.Processes = Budget{Kind: BudgetGRPC, A: 10, B: 100}, 3
	queue := service
	queue.Queue, queue.Timeout = 200, 1000
	aws := queue
	aws.Budget, aws.DropExpired, aws.QueueOrder = Budget{Kind: BudgetAWS, A: 50, B: 5}, true, LIFO
	return map[string]Settings{"fast": fast, "service": service, "budget": budget, "queue": queue, "aws and lifo": aws}
}

// One Crowds running policy after policy, seed after seed, gives what
// RunSeeds gives each seed: SpreadOf its figures is RunSeeds's spread.
func TestCrowdsRunAsRunSeeds(t *testing.T) {
	for name, s := range crowdsScenarios() {
		s.Draws = Independent
		ps := append(s.Five(), Presets()[0].Policy, Presets()[2].Policy)
		want, err := runSeeds(t, ps, s, 6, SeedOptions{Workers: 2})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var c Crowds // one for every run, as a search's worker keeps it
		for i, p := range ps {
			figs := make([]Figures, 6)
			for seed := range figs {
				one := s
				one.Seed = s.Seed + seed
				if figs[seed], err = runCrowds(t, &c, p, one, nil); err != nil {
					t.Fatalf("%s, %s, seed %d: %v", name, p, one.Seed, err)
				}
				if r, _ := run(t, p, one, Options{}); r.Figures != figs[seed] {
					t.Errorf("%s, %s, seed %d: Crowds %+v, Run %+v", name, p, one.Seed, figs[seed], r.Figures)
				}
			}
			if got := SpreadOf(p, figs); !reflect.DeepEqual(got, want.Policies[i]) {
				t.Errorf("%s, %s: SpreadOf %+v, RunSeeds %+v", name, p, got, want.Policies[i])
			}
		}
	}
}

// A policy without jitter draws nothing, so every seed gives the same
// figures; one with jitter does not (else the test could not fail), but
// decorrelated jitter from a first wait of 2 s to a longest of 2 s: each
// wait drawn from 2 s up, capped at 2 s, is 2 s. From 1,999 ms each draw
// is 1,999 or 2,000 ms, and the seeds differ (where a budget throttles
// the retries, they may not). A breaker's scenario too.
func TestSameEverySeed(t *testing.T) {
	scenarios := crowdsScenarios()
	breaker := scenarios["service"]
	breaker.Breaker, breaker.Processes = Breaker{Failures: 5, Open: 5000}, 3
	scenarios["breaker"] = breaker
	decorrelated := func(first int) Policy {
		return Policy{Name: "custom", FirstWait: first, LongestWait: 2000, Multiplier: 2000, Jitter: Jitter{Kind: JitterDecorrelated}, Attempts: 4}
	}
	below := 0 // the scenarios where 1,999 ms differs over seeds
	for name, s := range scenarios {
		s.Draws = Independent
		for _, p := range append(s.Five(), Presets()[3].Policy, Presets()[6].Policy, decorrelated(2000), decorrelated(1999)) {
			var c Crowds
			first, err := runCrowds(t, &c, p, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			differs := false
			for seed := 1; seed < 5; seed++ {
				one := s
				one.Seed = s.Seed + seed
				f, _ := runCrowds(t, &c, p, one, nil)
				differs = differs || f != first
			}
			if p.FirstWait == 1999 {
				if differs {
					below++
				}
				if p.SameEverySeed() {
					t.Errorf("%s, %s: SameEverySeed, want not", name, p)
				}
				continue
			}
			if differs == p.SameEverySeed() {
				t.Errorf("%s, %s: figures differ over seeds %v, SameEverySeed %v", name, p, differs, p.SameEverySeed())
			}
		}
	}
	if below < 3 {
		t.Errorf("decorrelated from 1,999 ms differs over seeds in %d scenarios, want 3 or more", below)
	}
}

// SpreadOf by hand: 20 seeds put the 95th percentile at rank 19 of the
// values from best to worst, a seed still overloaded (recovered after
// absent) ranking after every other.
func TestSpreadOfByHand(t *testing.T) {
	figs := make([]Figures, 20)
	for i := range figs {
		figs[i] = noFigures()
		figs[i].NotThrough = 20 - i // 20, 19, ..., 1
		figs[i].Through = i
		figs[i].RecoveredAfter = 1000 * i
	}
	figs[3].RecoveredAfter, figs[3].StillOverloaded = -1, true
	sp := SpreadOf(Policy{Name: "x"}, figs)
	if got := sp.Spread("not_through"); got != (Spread{Median: 10, P95: 19, Worst: 20}) {
		t.Errorf("not_through: got %+v, want median 10, p95 19, worst 20", got)
	}
	// Sorted: 0, 1000, 2000, 4000, ..., 19000, then absent: rank 19 is 19000.
	if got := sp.Spread("recovered_after_ms"); got != (Spread{Median: 10000, P95: 19000, Worst: -1}) {
		t.Errorf("recovered_after_ms: got %+v, want median 10000, p95 19000, worst -1", got)
	}
	if sp.Overloaded != 1 || sp.NoneThrough != 1 {
		t.Errorf("overloaded %d, none through %d; want 1 and 1", sp.Overloaded, sp.NoneThrough)
	}
	// Two seeds overloaded: the 19th value is absent.
	figs[5].RecoveredAfter = -1
	if got := SpreadOf(Policy{}, figs).Spread("recovered_after_ms").P95; got != -1 {
		t.Errorf("two seeds absent of 20: p95 %d, want -1", got)
	}
}

func TestCrowdsWorkers(t *testing.T) {
	s := Defaults()
	s.Clients, s.Capacity = 1_000_000, 1000
	ps := []Policy{s.Policy(FullJitter), s.Policy(Exponential)}
	ss := []Settings{s, s}
	per := workerScratch(newPlan(ps[0], s.Draws), s)
	if got, want := CrowdsWorkers(ps, ss, 64), int(SeedsMemory/(1+per)); got != want || got < 1 {
		t.Errorf("CrowdsWorkers: got %d, want %d (one engine's scratch %d bytes)", got, want, per)
	}
	if got := CrowdsWorkers(ps, ss, 1); got != 1 {
		t.Errorf("CrowdsWorkers of want 1: got %d", got)
	}
}

// Crowds.Run takes the seeds RunSeeds runs: a seed up to MaxSeeds-1 past
// the range's top, 999,999 + 9,999 = 1,009,998, and no further (the
// search of advice holds its figures to RunSeeds's there).
func TestCrowdsRunPastTheLastSeed(t *testing.T) {
	s := Defaults()
	s.Clients, s.Draws = 50, Independent
	_, top := s.RangeIn(WideLimits, Seed)
	var c Crowds
	for _, tt := range []struct {
		seed int
		ok   bool
	}{{top, true}, {top + 1, true}, {top + MaxSeeds - 1, true}, {top + MaxSeeds, false}, {-1, false}} {
		s.Seed = tt.seed
		if _, err := c.Run(s.Policy(FullJitter), s, nil); (err == nil) != tt.ok {
			t.Errorf("seed %d: got %v, want ok %v", tt.seed, err, tt.ok)
		}
	}
}

// RunWatched asks its watch, on the engine, what the figures are at least
// so far: each ask's are at most the next's and at most the run's end's
// (StableFrom from the outage's end), and a watch that never says stop
// leaves the figures Run's. A watch that says stop at its third ask stops
// the run there with ErrStopped, and a stop that says stop first is never
// followed by the watch.
func TestRunWatchedSaysTheFiguresSoFar(t *testing.T) {
	for _, name := range []string{"service", "budget", "queue", "aws and lifo"} {
		s := crowdsScenarios()[name]
		s.Clients, s.Outage, s.Draws = 50000, 60000, Independent // long enough for several asks
		p := s.Policy(FullJitter)
		var c Crowds
		want, err := runCrowds(t, &c, p, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		var asks []SoFar
		got, err := runCrowdsWatched(t, &c, p, s, nil, func(so SoFar) bool { asks = append(asks, so); return false })
		if err != nil || got != want {
			t.Fatalf("%s: got %+v, %v, want Run's %+v", name, got, err, want)
		}
		if len(asks) < 3 {
			t.Fatalf("%s: the watch was asked %d times, want 3 or more", name, len(asks))
		}
		end := SoFar{Attempts: want.Attempts, NotThrough: want.NotThrough, PeakAfterBack: want.PeakAfterBack, StableFrom: want.StableFrom}
		prev := SoFar{StableFrom: s.Outage}
		for i, so := range append(asks, end) {
			if so.Attempts < prev.Attempts || so.NotThrough < prev.NotThrough || so.PeakAfterBack < prev.PeakAfterBack || so.StableFrom < prev.StableFrom {
				t.Errorf("%s: ask %d got %+v, below the one before, %+v", name, i, so, prev)
			}
			prev = so
		}
		n := 0
		if _, err := runCrowdsWatched(t, &c, p, s, nil, func(SoFar) bool { n++; return n == 3 }); err != ErrStopped || n != 3 {
			t.Errorf("%s: a watch that says stop at its third ask: got %v after %d asks, want ErrStopped after 3", name, err, n)
		}
		n = 0
		if _, err := runCrowdsWatched(t, &c, p, s, func() bool { return true }, func(SoFar) bool { n++; return false }); err != ErrStopped || n != 0 {
			t.Errorf("%s: told to stop: got %v after %d asks of the watch, want ErrStopped after none", name, err, n)
		}
	}
}
