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

// sameRun holds Run's figures and series for p under s to the model's.
func sameRun(t *testing.T, what string, p Policy, s Settings) Figures {
	t.Helper()
	want, slots := modelRun(p, s)
	got, err := Run(p, s, Options{Series: true})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	sameFigures(t, what, got.Figures, want)
	sameSeries(t, what, got.Series, slots)
	return got.Figures
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
		var s Settings
		var p Policy
		if rng.IntN(2) == 0 {
			s = randomService(rng)
			p = randomPolicy(rng)
		} else {
			s = randomQueue(rng)
			p = randomQueuePolicy(rng, s)
		}
		s = withGuards(rng, s)
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
		p := randomPolicy(rng)
		what := fmt.Sprintf("case %d: %+v under %+v", i, p, s)
		if s.needsClock() {
			t.Fatalf("%s: an outage that hangs needs no clock", what)
		}
		want, _ := modelRun(p, s)
		fast, err := Run(p, s, Options{})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		sameFigures(t, what+" (fast path)", fast.Figures, want)
		slow, err := Run(p, s, Options{Engine: true, Series: true})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		sameFigures(t, what+" (engine)", slow.Figures, want)
		withSeries, err := Run(p, s, Options{Series: true})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		sameFigures(t, what+" (fast path with a series)", withSeries.Figures, want)
		if !reflect.DeepEqual(withSeries.Series, slow.Series) {
			t.Fatalf("%s: the fast path's series differs from the engine's", what)
		}
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
		var s Settings
		var p Policy
		if rng.IntN(2) == 0 {
			s = randomService(rng)
			s.Clients = pick(rng, 1, 2000)
			p = randomPolicy(rng)
		} else {
			s = randomQueue(rng)
			s.Clients = pick(rng, 1, 2000)
			p = randomQueuePolicy(rng, s)
		}
		s = withGuards(rng, s)
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
