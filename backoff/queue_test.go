package backoff

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// randomQueue draws settings with a queue, small enough for the model,
// which takes every millisecond in turn while a request waits.
func randomQueue(rng *rand.Rand) Settings {
	s := randomService(rng)
	s.Clients = pick(rng, 1, 80)
	s.Capacity = []int{pick(rng, 1, 30), pick(rng, 1, 400), pick(rng, 400, 5000)}[rng.IntN(3)]
	if s.Load > 0 {
		s.Load = pick(rng, 1, 30)
		s.LoadUntil = pick(rng, 0, 30000)
	}
	s.Queue = []int{1, 2, pick(rng, 1, 20), pick(rng, 1, 300)}[rng.IntN(4)]
	if rng.IntN(4) > 0 {
		s.Timeout = []int{1, 2, pick(rng, 1, 300), pick(rng, 1, 5000)}[rng.IntN(4)]
	}
	s.DropExpired = rng.IntN(2) == 0
	s.QueueOrder = QueueOrder(rng.IntN(2))
	return s
}

// randomQueuePolicy is randomPolicy, with waits short enough at 1 ms
// slots that a series of every millisecond stays small.
func randomQueuePolicy(rng *rand.Rand, s Settings) Policy {
	p := randomPolicy(rng)
	if s.Slot == 1 {
		p.LongestWait = max(min(p.LongestWait, 20000), p.FirstWait)
	}
	return p
}

// The engine with a queue gives the model's figures, every one, and its
// series is the model's slots, over random policies and services: both
// orders, wasted and dropped, budgets and processes, loads.
func TestQueueAgreesWithModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 6))
	n := 3000
	if testing.Short() {
		n = 300
	}
	start := time.Now()
	for i := range n {
		s := randomQueue(rng)
		p := randomQueuePolicy(rng, s)
		sameRun(t, fmt.Sprintf("case %d: %+v under %+v", i, p, s), p, s)
	}
	t.Logf("%d cases in %v", n, time.Since(start))
}

// The worked metastable failure (issue 15), whose figures its own
// implementation of MODEL.md gave: 2,000 clients, outage 30 s, 4 attempts,
// exponential (first wait 1 s, longest 16 s), capacity 100 a second, a
// fresh load of 95 a second until 300 s (30,500 clients in all), a queue
// of 1,000 and a timeout of 1 s, 100 ms slots.
func TestQueueWorkedMetastableFailure(t *testing.T) {
	base := Defaults()
	base.Clients, base.Outage, base.Attempts, base.Capacity, base.Load, base.LoadUntil = 2000, 30000, 4, 100, 95, 300000
	base.Queue, base.Timeout, base.Slot = 1000, 1000, 100
	tests := []struct {
		name    string
		change  func(s *Settings)
		through int
		// The issue says the first is still overloaded when the load
		// ends, and nothing of the others.
		overloaded bool
	}{
		{"a queue of 1000, a timeout of 1 s", func(s *Settings) {}, 134, true},
		{"drop expired", func(s *Settings) { s.DropExpired = true }, 26315, false},
		{"lifo", func(s *Settings) { s.QueueOrder = LIFO }, 25697, false},
		{"budget grpc:10:0.1", func(s *Settings) { s.Budget = Budget{Kind: BudgetGRPC, A: 10, B: 100} }, 25650, false},
		{"no queue (section 3's service)", func(s *Settings) { s.Queue, s.Timeout = 0, 0 }, 25795, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			tt.change(&s)
			p := s.Policy(Exponential)
			r, err := run(t, p, s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			f := r.Figures
			if f.Clients != 30500 || f.Through != tt.through {
				t.Errorf("through: got %d of %d clients, want %d of 30500", f.Through, f.Clients, tt.through)
			}
			if tt.overloaded && !f.StillOverloaded {
				t.Errorf("still overloaded: got false, want true")
			}
			if model, _ := modelRun(t, p, s); model != f {
				t.Errorf("the model:\n got %+v\nwant %+v", model, f)
			}
		})
	}
}

// Over thousands of random settings with a queue, larger than the model
// takes: the outcomes add up to the attempts with the timeouts, the
// expired requests to the timeouts, the endings to the clients; no
// millisecond completes more than c(t), no slot more than its capacity; no
// request completed was sent T or more before; the queue never holds more
// than Q; and the series adds up to the figures.
func TestQueueInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 7))
	n := 1000
	if testing.Short() {
		n = 100
	}
	for i := range n {
		s := randomQueue(rng)
		s.Clients = pick(rng, 1, 2000)
		if s.Load > 0 {
			s.Load = pick(rng, 1, 300)
		}
		s.Queue = pick(rng, 1, 3000)
		p := randomQueuePolicy(rng, s)
		what := fmt.Sprintf("case %d: %+v under %+v", i, p, s)
		if err := s.ValidateIn(WideLimits); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		pl := newPlan(p, s.Draws)
		d := engineWatch(p, s, nil)
		e := newEngine(pl, s, true, d.stop)
		done := map[int64]int64{} // completions per millisecond
		e.completed = func(sent, at, n int64) {
			if s.Timeout > 0 && at-sent >= int64(s.Timeout) {
				t.Fatalf("%s: a request sent at %d completed at %d, after a timeout of %d", what, sent, at, s.Timeout)
			}
			if done[at] += n; done[at] > e.capacityAt(at) {
				t.Fatalf("%s: %d completed at %d ms, c(t) is %d", what, done[at], at, e.capacityAt(at))
			}
		}
		f, series, err := e.run()
		d.end(t)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if f.Served+f.Rejected+f.FailedWhileDown+f.TimedOut != f.Attempts || f.Wasted+f.Dropped != f.TimedOut ||
			f.Through+f.GaveUp+f.Throttled+f.OutOfTime != f.Clients || f.Served != f.Through ||
			f.Clients != s.Clients+s.FreshRequests() || f.Attempts-f.Retries != f.Clients ||
			f.NotThrough != f.Clients-f.Through || f.QueuePeak > s.Queue || (!s.DropExpired && f.Dropped > 0) {
			t.Fatalf("%s: figures do not add up: %+v", what, f)
		}
		if series.Truncated {
			continue
		}
		var sum Figures
		attempts := 0
		for i := range series.Len() {
			if c := s.SlotCapacity(i, s.Slot); series.Served[i]+series.Wasted[i] > c {
				t.Fatalf("%s: slot %d completes %d and wastes %d, its capacity is %d", what, i, series.Served[i], series.Wasted[i], c)
			}
			if series.Queue[i] > s.Queue {
				t.Fatalf("%s: slot %d ends with %d waiting, the queue holds %d", what, i, series.Queue[i], s.Queue)
			}
			sum.Retries += series.Retries[i]
			sum.Served += series.Served[i]
			sum.Rejected += series.Rejected[i]
			sum.FailedWhileDown += series.FailedWhileDown[i]
			sum.TimedOut += series.TimedOut[i]
			sum.Wasted += series.Wasted[i]
			sum.Dropped += series.Dropped[i]
			attempts += series.Attempts(i)
		}
		if sum.Retries != f.Retries || sum.Served != f.Served || sum.Rejected != f.Rejected || sum.FailedWhileDown != f.FailedWhileDown ||
			sum.TimedOut != f.TimedOut || sum.Wasted != f.Wasted || sum.Dropped != f.Dropped || attempts != f.Attempts {
			t.Fatalf("%s: the series adds up to %+v and %d attempts, the figures are %+v", what, sum, attempts, f)
		}
		if last := series.Len() - 1; series.Queue[last] != 0 {
			t.Fatalf("%s: the run ended with %d waiting", what, series.Queue[last])
		}
	}
}

// The queue's settings are checked with a message that says what to do.
func TestQueueValidation(t *testing.T) {
	queued := func(s *Settings) { s.Capacity, s.Queue = 100, 1000 }
	checkValidation(t, []validationCase{
		{"no queue, the defaults", WideLimits, func(s *Settings) {}, ""},
		{"a queue with a capacity", WideLimits, queued, ""},
		{"every setting of the queue", WideLimits, func(s *Settings) {
			queued(s)
			s.Timeout, s.DropExpired, s.QueueOrder = 2000, true, LIFO
		}, ""},
		{"the longest queue and timeout", WideLimits, func(s *Settings) {
			queued(s)
			s.Queue, s.Timeout = MaxQueue, MaxTimeout
		}, ""},
		{"a queue without a capacity", WideLimits, func(s *Settings) { s.Queue = 1000 },
			"queue: a queue of 1000 needs a capacity to serve it: set a capacity a second, or a queue of 0 for none"},
		{"a timeout without a queue", WideLimits, func(s *Settings) { s.Capacity, s.Timeout = 100, 2000 },
			"timeout: a timeout of 2000 ms needs a queue to wait in: set a queue, or a timeout of 0"},
		{"drop expired without a queue", WideLimits, func(s *Settings) { s.DropExpired = true }, "drop expired: only a queue"},
		{"lifo without a queue", WideLimits, func(s *Settings) { s.QueueOrder = LIFO }, "queue order: lifo needs a queue"},
		{"a queue past its range", WideLimits, func(s *Settings) { queued(s); s.Queue = MaxQueue + 1 },
			"queue in requests: 10000001 is not from 0 to 10000000"},
		{"a negative queue", WideLimits, func(s *Settings) { s.Queue = -1 }, "queue in requests: -1 is not from 0"},
		{"a timeout past its range", WideLimits, func(s *Settings) { queued(s); s.Timeout = MaxTimeout + 1 },
			"timeout in ms: 86400001 is not from 0 to 86400000"},
		{"a negative timeout", WideLimits, func(s *Settings) { queued(s); s.Timeout = -1 }, "timeout in ms: -1 is not from 0"},
		{"an order of neither", WideLimits, func(s *Settings) { queued(s); s.QueueOrder = 2 }, "queue order: QueueOrder(2) is not fifo or lifo"},
		// The queue's limit and timeout are Fields: their ranges come first,
		// and --plain's are 0 to 0.
		{"--plain refuses a queue", PlainLimits, func(s *Settings) { s.Queue = 10 }, "queue in requests: 10 is not from 0 to 0"},
		{"--plain refuses lifo", PlainLimits, func(s *Settings) { s.QueueOrder = LIFO }, "no queue"},
	})
}

// validationCase is a change to the defaults and what ValidateIn says of
// it under limits l.
type validationCase struct {
	name   string
	l      Limits
	change func(s *Settings)
	want   string // in the error; "" for none
}

// checkValidation holds ValidateIn to each case.
func checkValidation(t *testing.T, tests []validationCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Defaults()
			tt.change(&s)
			err := s.ValidateIn(tt.l)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want no error", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
}

func TestParseQueueOrder(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want QueueOrder
		ok   bool
	}{{"fifo", FIFO, true}, {"LIFO", LIFO, true}, {"Lifo", LIFO, true}, {"", FIFO, false}, {"stack", FIFO, false}} {
		got, err := ParseQueueOrder(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseQueueOrder(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if tt.ok && got.String() != strings.ToLower(tt.in) {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), strings.ToLower(tt.in))
		}
	}
}

// A run whose queue could go on past what 32-bit milliseconds count is
// refused before it starts, by Run and RunSeeds; one just inside runs.
func TestQueueTooLongIsRefused(t *testing.T) {
	// 700,000 clients make 4.2 million attempts, more than a queue of 4
	// million holds: the horizon is 6 attempts of at most a day's timeout
	// (under FIFO, no longer than the queue takes to work off) and a 16 s
	// wait, 518,496,000 ms, then (Q+1)*1000/C + 2 to work off the queue: at
	// 1 a second 4,000,001,002 more, past 2^32 - 2 = 4,294,967,294 in all;
	// at 2 a second half as long, inside it.
	s := Defaults()
	s.Clients, s.Capacity, s.Queue, s.Timeout = 700_000, 1, 4_000_000, MaxTimeout
	p := s.Policy(Exponential)
	if h := queueHorizon(newPlan(p, s.Draws), s); h != 518_496_000+4_000_001_002 {
		t.Fatalf("horizon: got %d, want %d", h, 518_496_000+4_000_001_002)
	}
	if _, err := run(t, p, s, Options{}); err == nil || !strings.Contains(err.Error(), "raise the capacity") {
		t.Errorf("Run: got %v, want an error that says to raise the capacity", err)
	}
	if _, err := runSeeds(t, []Policy{p}, s, 2, SeedOptions{Workers: 1}); err == nil {
		t.Errorf("RunSeeds: got no error, want one")
	}
	s.Capacity = 2
	if err := CheckQueue(p, s); err != nil {
		t.Errorf("at 2 a second, a horizon of %d: %v, want it run", queueHorizon(newPlan(p, s.Draws), s), err)
	}
	// One client against a queue of 10 million at 1 a second: it cannot
	// fill it, and runs.
	s.Clients, s.Capacity, s.Queue = 1, 1, MaxQueue
	r, err := run(t, p, s, Options{})
	if err != nil {
		t.Fatalf("a horizon of %d: %v", queueHorizon(newPlan(p, s.Draws), s), err)
	}
	if r.Figures.Through != 1 || r.Figures.TimedOut != 0 {
		t.Errorf("one client against a long queue: got %+v, want through 1, none timed out", r.Figures)
	}
}

// A worker's engine scratch carries the lanes of cohorts from run to run: a
// run stopped with cohorts still in its lanes leaves none to the next, and
// a run with more lanes, or with its calendar in the ring, takes its own.
func TestLanesKeptForTheNextRun(t *testing.T) {
	s := queueSettings(20000)
	s.Clients = 1000
	expo, fixed := s.Policy(Exponential), s.Policy(Fixed) // five lanes, one
	var r crowdRunner
	looks := 0
	stop := func() bool { looks++; return looks > 3 }
	if _, err := r.run(newPlan(expo, s.Draws), s, stop); !errors.Is(err, ErrStopped) {
		t.Fatalf("got %v, want ErrStopped", err)
	}
	left := 0
	for _, f := range r.scratch.lanes {
		left += f.n
	}
	if left == 0 {
		t.Fatal("the stopped run left no cohort in its lanes: nothing to test")
	}
	for _, p := range []Policy{fixed, expo, s.Policy(FullJitter), expo} {
		got, err := r.run(newPlan(p, s.Draws), s, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Run(p, s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got != want.Figures {
			t.Errorf("%s after the runs before it:\n got %+v\nwant %+v", p.Name, got, want.Figures)
		}
	}
}
