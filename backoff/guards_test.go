package backoff

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// withGuards adds MODEL.md section 7's settings to s, each on or off, with
// values near the policies' waits and the outage, so that hangs end on
// both sides of the outage's end, breakers open and probe, and pushback
// meets the limit on total time.
func withGuards(rng *rand.Rand, s Settings) Settings {
	if rng.IntN(3) > 0 {
		s.OutageHang = []int{1, pick(rng, 1, 50), pick(rng, 1, 3000), pick(rng, 1, 20000)}[rng.IntN(4)]
	}
	if rng.IntN(3) > 0 {
		s.Breaker = Breaker{Failures: []int{1, 2, pick(rng, 1, 10), pick(rng, 1, 60)}[rng.IntN(4)],
			Open: []int{1, pick(rng, 1, 100), pick(rng, 1, 5000), pick(rng, 1, 30000)}[rng.IntN(4)]}
	}
	if rng.IntN(3) > 0 {
		s.RetryAfter = []int{1, pick(rng, 1, 100), pick(rng, 1, 5000)}[rng.IntN(3)]
	}
	return s
}

// randomGuarded draws settings with a service, with a queue or without,
// and the guards, and a policy, small enough for the model.
func randomGuarded(rng *rand.Rand) (Settings, Policy) {
	if rng.IntN(2) == 0 {
		s := randomService(rng)
		return withGuards(rng, s), randomPolicy(rng)
	}
	s := randomQueue(rng)
	return withGuards(rng, s), randomQueuePolicy(rng, s)
}

// The engine with the client's guards gives the model's figures, every
// one, and its series is the model's slots, over random policies and
// services, without a queue and with one: every policy, both draws,
// budgets and processes, loads.
func TestGuardsAgreeWithModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 7))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := range n {
		s, p := randomGuarded(rng)
		if i%4 == 0 { // clients that wait alike go as cohorts, which meet one breaker
			p.Jitter, s.Processes, s.Budget = Jitter{}, 1, Budget{}
		}
		sameRun(t, fmt.Sprintf("case %d: %+v under %+v", i, p, s), p, s)
	}
}

// Without a service, an outage that hangs leaves the crowd on the fast
// path, which agrees with the engine and the model on every figure and
// series; pushback, with nothing rejected, changes nothing there.
func TestFastPathHangs(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 8))
	for i := range 1500 {
		s := randomService(rng)
		s.Capacity, s.Load, s.Budget = 0, 0, Budget{}
		s.Clients = pick(rng, 1, 300)
		s.OutageHang = []int{1, pick(rng, 1, 3000), pick(rng, 1, 40000)}[rng.IntN(3)]
		if rng.IntN(2) == 0 {
			s.RetryAfter = pick(rng, 1, 5000)
		}
		if s.needsClock() {
			t.Fatalf("case %d: %+v: an outage that hangs needs no clock", i, s)
		}
		fastAgrees(t, fmt.Sprintf("case %d", i), randomPolicy(rng), s)
	}
}

// Over thousands of random settings with the guards, larger than the model
// takes: the outcomes add up to the attempts, short-circuits included, and
// the endings to the clients; nothing is short-circuited and no breaker
// opens without a breaker; a breaker opens before it short-circuits; the
// series adds up to the figures.
func TestGuardsInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 9))
	n := 1500
	if testing.Short() {
		n = 150
	}
	for i := range n {
		s, p := randomGuarded(rng)
		s.Clients = pick(rng, 1, 2000)
		what := fmt.Sprintf("case %d: %+v under %+v", i, p, s)
		r, err := Run(p, s, Options{Series: true})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		f := r.Figures
		if f.Served+f.Rejected+f.FailedWhileDown+f.TimedOut+f.ShortCircuited != f.Attempts ||
			f.Through+f.GaveUp+f.Throttled+f.OutOfTime != f.Clients || f.Served != f.Through ||
			f.Clients != s.Clients+s.FreshRequests() || f.Attempts-f.Retries != f.Clients || f.Wasted+f.Dropped != f.TimedOut {
			t.Fatalf("%s: figures do not add up: %+v", what, f)
		}
		if !s.Breaker.On() && (f.ShortCircuited != 0 || f.BreakerOpened != 0) {
			t.Fatalf("%s: no breaker, yet %d short-circuited and %d opened", what, f.ShortCircuited, f.BreakerOpened)
		}
		if f.ShortCircuited > 0 && f.BreakerOpened == 0 {
			t.Fatalf("%s: %d short-circuited by breakers that never opened", what, f.ShortCircuited)
		}
		if r.Series.Truncated {
			continue
		}
		var sum Figures
		attempts := 0
		for i := range r.Series.Len() {
			sum.Retries += r.Series.Retries[i]
			sum.FailedWhileDown += r.Series.FailedWhileDown[i]
			if r.Series.Breaker {
				sum.ShortCircuited += r.Series.ShortCircuited[i]
				sum.BreakerOpened += r.Series.Opened[i]
			}
			attempts += r.Series.Attempts(i)
		}
		if sum.Retries != f.Retries || sum.FailedWhileDown != f.FailedWhileDown || sum.ShortCircuited != f.ShortCircuited ||
			sum.BreakerOpened != f.BreakerOpened || attempts != f.Attempts {
			t.Fatalf("%s: the series adds up to %+v and %d attempts, the figures are %+v", what, sum, attempts, f)
		}
	}
}

// A guard that never acts changes nothing: a breaker that never opens
// (its failures in a row never reach F) gives the figures and series of
// the run without it, though with it every client goes alone and in
// order; pushback where nothing is rejected changes no figure.
func TestIdleGuardsChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 10))
	idle := 0
	for i := range 600 {
		s := randomService(rng)
		p := randomPolicy(rng)
		if rng.IntN(2) == 0 {
			s = randomQueue(rng)
			p = randomQueuePolicy(rng, s)
		}
		what := fmt.Sprintf("case %d: %+v under %+v", i, p, s)
		without, err := Run(p, s, Options{Series: true})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		with := s
		with.Breaker = Breaker{Failures: pick(rng, 1, MaxBreakerFailures), Open: pick(rng, 1, MaxWait)}
		r, err := Run(p, with, Options{Series: true})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if r.Figures.BreakerOpened == 0 {
			idle++
			got := r.Figures
			got.BreakerOpened, got.ShortCircuited = 0, 0
			series := *r.Series
			series.Breaker, series.ShortCircuited, series.Opened = false, nil, nil
			if got != without.Figures || !reflect.DeepEqual(&series, without.Series) {
				t.Fatalf("%s: a breaker of %v that never opened changed the run:\n got %+v\nwant %+v", what, with.Breaker, got, without.Figures)
			}
		}
		if without.Figures.Rejected == 0 {
			pushed := s
			pushed.RetryAfter = pick(rng, 1, MaxWait)
			if r, _ := Run(p, pushed, Options{}); r.Figures != without.Figures {
				t.Fatalf("%s: pushback with nothing rejected changed the figures:\n got %+v\nwant %+v", what, r.Figures, without.Figures)
			}
		}
	}
	if idle < 100 {
		t.Errorf("only %d of 600 breakers never opened, want at least 100", idle)
	}
}

// The guards' settings are checked with a message that says what to do,
// each range on both sides of both ends, and --plain refuses all three.
func TestGuardsValidation(t *testing.T) {
	checkValidation(t, []validationCase{
		{"all off", WideLimits, func(s *Settings) {}, ""},
		{"the least of each", WideLimits, func(s *Settings) {
			s.OutageHang, s.RetryAfter, s.Breaker = 1, 1, Breaker{Failures: 1, Open: 1}
		}, ""},
		{"the most of each", WideLimits, func(s *Settings) {
			s.OutageHang, s.RetryAfter, s.Breaker = MaxWait, MaxWait, Breaker{Failures: MaxBreakerFailures, Open: MaxWait}
		}, ""},
		{"a negative hang", WideLimits, func(s *Settings) { s.OutageHang = -1 },
			"outage hang: -1 is not from 1 to 3600000 ms (an hour), or 0 for an outage that refuses at once"},
		{"a hang past an hour", WideLimits, func(s *Settings) { s.OutageHang = MaxWait + 1 }, "outage hang: 3600001 is not from 1 to 3600000 ms"},
		{"a negative pushback", WideLimits, func(s *Settings) { s.RetryAfter = -1 },
			"retry after: -1 is not from 1 to 3600000 ms (an hour), or 0 for no pushback"},
		{"pushback past an hour", WideLimits, func(s *Settings) { s.RetryAfter = MaxWait + 1 }, "retry after: 3600001 is not"},
		{"a breaker of no failures", WideLimits, func(s *Settings) { s.Breaker = Breaker{Open: 1000} },
			"breaker: 0 consecutive failures is not from 1 to 1000: write F:D, such as 5:30s, or none"},
		{"a breaker of 1001 failures", WideLimits, func(s *Settings) { s.Breaker = Breaker{Failures: 1001, Open: 1000} },
			"breaker: 1001 consecutive failures is not from 1 to 1000"},
		{"a breaker open for 0 ms", WideLimits, func(s *Settings) { s.Breaker = Breaker{Failures: 5} },
			"breaker: open for 0 ms is not from 1 to 3600000 ms (an hour)"},
		{"a breaker open past an hour", WideLimits, func(s *Settings) { s.Breaker = Breaker{Failures: 5, Open: MaxWait + 1} },
			"breaker: open for 3600001 ms is not"},
		{"--plain refuses a hang", PlainLimits, func(s *Settings) { s.OutageHang = 1 }, "no outage hang, breaker or retry-after"},
		{"--plain refuses a breaker", PlainLimits, func(s *Settings) { s.Breaker = Breaker{Failures: 5, Open: 30000} }, "no outage hang, breaker or retry-after"},
		{"--plain refuses pushback", PlainLimits, func(s *Settings) { s.RetryAfter = 1 }, "no outage hang, breaker or retry-after"},
	})
}

// What decides the fast path: a breaker makes the clients of a process
// depend on one another, and needs the engine; a hang or pushback alone
// does not. Any of the three is beyond the reference's crowd (HasService).
func TestGuardsNeedTheEngine(t *testing.T) {
	for _, tt := range []struct {
		name                         string
		change                       func(s *Settings)
		guards, service, needsEngine bool
	}{
		{"none", func(s *Settings) {}, false, false, false},
		{"a hang", func(s *Settings) { s.OutageHang = 3000 }, true, true, false},
		{"pushback", func(s *Settings) { s.RetryAfter = 2000 }, true, true, false},
		{"a breaker", func(s *Settings) { s.Breaker = Breaker{Failures: 5, Open: 30000} }, true, true, true},
		{"a capacity", func(s *Settings) { s.Capacity = 100 }, false, true, true},
	} {
		s := Defaults()
		tt.change(&s)
		if s.HasGuards() != tt.guards || s.HasService() != tt.service || s.needsClock() != tt.needsEngine {
			t.Errorf("%s: HasGuards %v, HasService %v, needsClock %v; want %v, %v, %v", tt.name,
				s.HasGuards(), s.HasService(), s.needsClock(), tt.guards, tt.service, tt.needsEngine)
		}
	}
}

// Crowds and RunSeeds, which keep an engine's scratch from one run to the
// next (the hanging attempts' ring among it), give Run's figures with the
// guards, run after run.
func TestGuardsCrowdsKeepScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 11))
	var c Crowds
	for i := range 300 {
		s := withGuards(rng, randomService(rng))
		p := randomPolicy(rng)
		what := fmt.Sprintf("case %d: %+v under %+v", i, p, s)
		want, err := Run(p, s, Options{})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got, err := c.Run(p, s, nil)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		sameFigures(t, what+" (Crowds)", got, want.Figures)
	}
	s := withGuards(rng, randomService(rng))
	s.OutageHang, s.Breaker = 500, Breaker{Failures: 3, Open: 2000}
	ps := []Policy{s.Policy(FullJitter), s.Policy(Exponential)}
	sc, err := RunSeeds(ps, s, 8, SeedOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		seeded := s
		seeded.Seed = s.Seed + 7
		r, _ := Run(p, seeded, Options{})
		if got := sc.Policies[i].Spread("short_circuited").Worst; got < r.Figures.ShortCircuited {
			t.Errorf("%s: the worst of 8 seeds short-circuited %d, seed %d alone %d", p.Name, got, seeded.Seed, r.Figures.ShortCircuited)
		}
	}
}
