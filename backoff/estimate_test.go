package backoff

import (
	"math"
	"testing"
)

// The estimate's numbers, worked by hand at the defaults and exactly on
// its boundaries.
func TestCostByHand(t *testing.T) {
	s := Defaults()
	// Exponential at the defaults, on the fast path: a horizon of
	// min(10,000 + 16,000, 5 * 16,000) = 26,000 ms, 261 slots of 100 ms,
	// counted in 16 bits (200 clients * 5 retries < 2^16): 2 * 261 bytes,
	// and the latencies and one client's retries, 2*200*4 + 5*4 = 1,620;
	// the figures, 256. Its work: one client for all (no jitter), 6
	// attempts, and the 261 slots, a fifth of that where the slots are
	// counted: 267 / 5 = 53.
	c := RunAllCost([]Policy{s.Policy(Exponential)}, s, Options{}, 1)
	if want := (Cost{Bytes: 522 + 1620 + 256, Work: 53, Span: 53, Parallel: 1}); c != want {
		t.Errorf("exponential at the defaults: got %+v, want %+v", c, want)
	}

	// The fast path counts in an array up to 65,536 slots, and sorts past
	// them. Fixed waits of 1 s, 100 attempts: a horizon of min(outage +
	// 1,000, 99,000) ms, in 1 ms slots.
	fixed := s
	fixed.FirstWait, fixed.LongestWait, fixed.Attempts, fixed.Slot = 1000, 1000, 100, 1
	for _, tt := range []struct {
		outage int
		work   int64
	}{
		{64_535, (100 + 65_536) / 5}, // 65,536 slots: counted
		{64_536, 100 + 65_537},       // 65,537: sorted
	} {
		fixed.Outage = tt.outage
		if got := RunAllCost([]Policy{fixed.Policy(Fixed)}, fixed, Options{}, 1).Work; got != tt.work {
			t.Errorf("fixed waits, outage %d ms: work %d, want %d", tt.outage, got, tt.work)
		}
	}

	// A series keeps four counts of 8 bytes a slot, twice that in the
	// engine, which doubles them as they grow, up to MaxSeriesSlots. One
	// client, exponential, 1 ms slots, a capacity (the engine): the last
	// attempt comes after the five waits, 1 + 2 + 4 + 8 + 16 s, no sooner
	// than the outage and a wait, 26 s: 31,001 slots; and at a day's
	// outage and an hour's waits, the cap.
	one := s
	one.Clients, one.Slot, one.Capacity = 1, 1, 1000
	with := RunAllCost([]Policy{one.Policy(Exponential)}, one, Options{Series: true}, 1).Bytes
	without := RunAllCost([]Policy{one.Policy(Exponential)}, one, Options{}, 1).Bytes
	if got, want := with-without, int64(4*8*2*31_001); got != want {
		t.Errorf("one client's series at 1 ms: %d bytes, want %d", got, want)
	}
	one.Outage, one.LongestWait, one.Attempts = MaxTime, MaxWait, MaxAttempts
	with = RunAllCost([]Policy{one.Policy(Exponential)}, one, Options{Series: true}, 1).Bytes
	without = RunAllCost([]Policy{one.Policy(Exponential)}, one, Options{}, 1).Bytes
	if got, want := with-without, int64(4*8*2*MaxSeriesSlots); got != want {
		t.Errorf("a series past MaxSeriesSlots: %d bytes, want the cap's %d", got, want)
	}

	// Two workers hold the two largest scratches at once; every series is
	// kept.
	five := s.Five()
	one2, two := RunAllCost(five, s, Options{}, 1), RunAllCost(five, s, Options{}, 2)
	if two.Bytes <= one2.Bytes || two.Work != one2.Work || two.Parallel != 2 || one2.Parallel != 1 {
		t.Errorf("one worker %+v, two %+v: want more memory with two, the same work", one2, two)
	}
	if c.Seconds(1) != float64(53)/WorkPerSecond {
		t.Errorf("seconds: %v", c.Seconds(1))
	}
}

// Nothing overflows: the largest settings cost a bounded number.
func TestCostSaturates(t *testing.T) {
	s := Defaults()
	s.Clients, s.Attempts, s.FirstWait, s.LongestWait, s.Outage = MaxClients, MaxAttempts, 1, MaxWait, MaxTime
	s.Load, s.LoadUntil, s.Capacity, s.Queue, s.Timeout = MaxLoad, 10_000, 1, MaxQueue, MaxTimeout
	c := RunAllCost(append(s.Five(), s.Custom()), s, Options{Series: true}, 64)
	if c.Bytes <= 0 || c.Bytes > maxCost || c.Work <= 0 || c.Work > maxCost {
		t.Errorf("the largest settings: %+v, want positive and at most %d", c, int64(maxCost))
	}
	sc := RunSeedsCost(s.Five(), s, MaxSeeds, SeedOptions{Workers: 64})
	if sc.Bytes <= 0 || sc.Work <= 0 || sc.Work > maxCost {
		t.Errorf("the largest spread: %+v", sc)
	}
}

// fixedWaits is the settings with fixed waits of wait ms, attempts of them.
func fixedWaits(s Settings, wait, attempts int) Settings {
	s.FirstWait, s.LongestWait, s.Attempts = wait, wait, attempts
	return s
}

// Every product of the user's numbers saturates at maxCost, exactly at
// its boundary (issue 25.11).
func TestCostSaturatesAtItsBoundary(t *testing.T) {
	// maxCost = 2^60 = 2^30 * 2^30: a product of exactly it is it; one
	// more of either factor would pass it, and stays at it.
	for _, tt := range []struct{ a, b, want int64 }{
		{1 << 30, 1 << 30, 1 << 60},
		{1<<30 + 1, 1 << 30, maxCost},
		{1 << 30, 1<<30 + 1, maxCost},
		{math.MaxInt64, math.MaxInt64, maxCost}, // a*b would wrap to 1
		{1<<60 - 1, 1, 1<<60 - 1},
		{0, math.MaxInt64, 0},
		{5, 0, 0}, // no division by 0
		{-3, 5, 0},
		// maxCost/3 rounds down: times 3 is 2^60 - 1, just under it.
		{maxCost / 3, 3, 1<<60 - 1},
		{maxCost/3 + 1, 3, maxCost},
	} {
		if got := mul(tt.a, tt.b); got != tt.want {
			t.Errorf("mul(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if got := sat(maxCost, 1); got != maxCost {
		t.Errorf("sat(maxCost, 1) = %d, want maxCost", got)
	}
	if got := sat(maxCost-1, 1); got != maxCost {
		t.Errorf("sat(maxCost-1, 1) = %d, want maxCost", got)
	}
	c := Cost{Bytes: 7, Work: 1 << 30, Span: 1 << 29, Parallel: 2}
	if got, want := c.Times(1<<30), (Cost{Bytes: 7, Work: 1 << 60, Span: 1 << 59, Parallel: 2}); got != want {
		t.Errorf("2^30 runs: %+v, want %+v", got, want)
	}
	if got := c.Times(1 << 40); got.Work != maxCost || got.Span != maxCost {
		t.Errorf("2^40 runs: %+v, want the work saturated at maxCost", got)
	}
	if got := c.Times(0); got != (Cost{}) {
		t.Errorf("no runs: %+v, want nothing", got)
	}
}

// Issue 25.12: one client cannot fill a queue of 10 million: 6 attempts
// at most, worked off within (6+1)*1000/1 + 2 = 7,002 ms of joining,
// which bounds when a timeout of a day is known too (FIFO); the last of 6
// attempts by 6 * (7,002 + 16,000), and 7,002 more to work off the queue:
// 145,014 ms, where 10,518,407,002 were refused.
func TestOneClientCannotFillAQueue(t *testing.T) {
	s := Defaults()
	s.Clients, s.Capacity, s.Queue, s.Timeout = 1, 1, MaxQueue, MaxTimeout
	p := s.Policy(Exponential)
	if h := queueHorizon(newPlan(p, s.Draws), s); h != 145_014 {
		t.Errorf("one client's horizon: %d ms, want 145,014", h)
	}
	if err := CheckQueue(p, s); err != nil {
		t.Errorf("one client against a queue of 10 million: %v, want it run", err)
	}
}

// The horizon of a run with a queue: the queue holds R = min(Q, the
// attempts made) at most, worked off within D = (R+1)*1000/C + 2 ms; the
// last attempt by U + A*(W + the longest wait), W the longest its failure
// takes to be known: none without a timeout, min(T, D) under FIFO, T
// under LIFO. Exponential: 6 attempts, waits to 16 s.
func TestQueueHorizonByHand(t *testing.T) {
	s := Defaults()
	s.Capacity, s.Queue = 1000, 5000
	p := s.Policy(Exponential)
	pl := newPlan(p, s.Draws)
	for _, tt := range []struct {
		name    string
		s       func(s *Settings)
		horizon int64
	}{
		// 200 clients make 1,200 attempts at most: R = 1,200, D = 1,203.
		// No timeout: the last attempt by 6 * 16,000 = 96,000.
		{"no timeout", func(s *Settings) {}, 96_000 + 1_203},
		// A timeout of 500 ms, below D: 6 * (500 + 16,000) = 99,000.
		{"a timeout below the queue's", func(s *Settings) { s.Timeout = 500 }, 99_000 + 1_203},
		// A timeout of a day, FIFO: known within D: 6 * (1,203 + 16,000).
		{"a long timeout, FIFO", func(s *Settings) { s.Timeout = MaxTimeout }, 103_218 + 1_203},
		// LIFO: the oldest may wait the whole timeout: 6 * (86,400,000 +
		// 16,000).
		{"a long timeout, LIFO", func(s *Settings) { s.Timeout, s.QueueOrder = MaxTimeout, LIFO }, 518_496_000 + 1_203},
		// A queue shorter than the attempts: R = Q = 1,000, D = 1,003.
		{"a short queue", func(s *Settings) { s.Queue = 1000 }, 96_000 + 1_003},
		// A fresh load of 10 a second to 70 s: 200 + 700 clients, R =
		// 5,000, D = 5,003; the last attempt by 70,000 + 96,000.
		{"a fresh load", func(s *Settings) { s.Load = 10 }, 166_000 + 5_003},
		// A long outage: the queue worked off from its end, 200,000.
		{"a long outage", func(s *Settings) { s.Outage = 200_000 }, 200_000 + 1_203},
	} {
		at := s
		tt.s(&at)
		if got := queueHorizon(pl, at); got != tt.horizon {
			t.Errorf("%s: %d ms, want %d", tt.name, got, tt.horizon)
		}
		if got := engineHorizon(pl, at); got != tt.horizon {
			t.Errorf("%s: the engine's horizon %d ms, want the queue's, %d", tt.name, got, tt.horizon)
		}
	}
	// Exactly at the most a run can count, 2^32 - 2 = 4,294,967,294 ms,
	// it runs; a millisecond more and it is refused. LIFO, 50 attempts of
	// a fixed 1 s wait, a timeout of 85,798,345 ms: the last attempt by 50
	// * (85,798,345 + 1,000) = 4,289,967,250; 100,001 clients make
	// 5,000,050 attempts, more than a queue of 5,000,041 holds, worked off
	// at 1,000 a second within 5,000,041 + 1 + 2: 4,294,967,294 in all.
	edge := fixedWaits(Defaults(), 1000, 50)
	edge.Clients, edge.Capacity, edge.Queue, edge.Timeout, edge.QueueOrder = 100_001, 1000, 5_000_041, 85_798_345, LIFO
	fixed := edge.Policy(Fixed)
	if h := queueHorizon(newPlan(fixed, edge.Draws), edge); h != maxQueueTime {
		t.Errorf("at the edge: %d ms, want %d", h, int64(maxQueueTime))
	}
	if err := CheckQueue(fixed, edge); err != nil {
		t.Errorf("at the edge: %v, want it run", err)
	}
	edge.Queue++
	if err := CheckQueue(fixed, edge); err == nil {
		t.Errorf("a millisecond past the edge: run, want it refused")
	}
}
