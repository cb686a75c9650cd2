package backoff

import (
	"math"
	"testing"
)

// The estimate's terms, worked by hand, each exactly on its boundaries:
// the fast path's work and memory, the engine's counts of what it does
// and the nanoseconds they cost, its memory, the seconds on so many
// cores, and the horizon with and without a timeout.

// fixedWaits is the settings with fixed waits of wait ms, attempts of them.
func fixedWaits(s Settings, wait, attempts int) Settings {
	s.FirstWait, s.LongestWait, s.Attempts = wait, wait, attempts
	return s
}

// The fast path (no service): one client walks for all without jitter.
func TestFastCostByHand(t *testing.T) {
	s := Defaults()
	// Exponential at the defaults: waits of 1, 2, 4, 8 and 16 s, an outage
	// of 10 s. The client fails at 0, 1, 3 and 7 s and retries at 15 s,
	// after the outage: 4 retries drawn, counted in an array; a horizon of
	// min(10,000 + 16,000, 5 * 16,000) = 26,000 ms, 261 slots of 100 ms.
	// Work: a run, 4 retries, 1 client's walk, 261 slots. Memory: the
	// slots counted in 16 bits (200 clients * 5 retries < 2^16), 2 * 261
	// bytes; the latencies and one client's retries, 2*200*4 + 5*4 =
	// 1,620; the figures, 256.
	c := RunAllCost([]Policy{s.Policy(Exponential)}, s, Options{}, 1)
	work := int64(nsFastRun + 4*nsFastRetry + nsFastClient + 261*nsFastSlot)
	if want := (Cost{Bytes: 522 + 1620 + 256, Work: work, Span: work, Parallel: 1}); c != want {
		t.Errorf("exponential at the defaults: got %+v, want %+v", c, want)
	}
	// The fast path counts in an array up to 65,536 slots, and marks and
	// sorts past them. Fixed waits of 30 s, 100 attempts, 1 ms slots: a
	// horizon of min(outage + 30,000, 99 * 30,000) ms. The client fails
	// at 0 and 30,000, both before the outage, and retries at 60,000: 2
	// retries. An outage of 35,535 ms: 65,536 slots, counted; one more:
	// 65,537, sorted.
	fixed := fixedWaits(s, 30_000, 100)
	fixed.Slot = 1
	for _, tt := range []struct {
		outage int
		work   int64
	}{
		{35_535, nsFastRun + 2*nsFastRetry + nsFastClient + 65_536*nsFastSlot},
		{35_536, nsFastRun + 2*nsFastSorted + nsFastClient + 65_537*nsFastSlot},
	} {
		fixed.Outage = tt.outage
		if got := RunAllCost([]Policy{fixed.Policy(Fixed)}, fixed, Options{}, 1).Work; got != tt.work {
			t.Errorf("fixed waits, outage %d ms: work %d, want %d", tt.outage, got, tt.work)
		}
	}
	// With jitter every client walks: 200 walks, each with its retries,
	// over the same 261 slots.
	jitter := s.Policy(FullJitter)
	one := s
	one.Clients = 1
	w1, w200 := RunAllCost([]Policy{jitter}, one, Options{}, 1).Work, RunAllCost([]Policy{jitter}, s, Options{}, 1).Work
	walk := w1 - (nsFastRun + 261*nsFastSlot) // a client's walk and retries, rounded up
	if got := w200 - (nsFastRun + 261*nsFastSlot); got > 200*walk || got <= 200*(walk-1) {
		t.Errorf("full jitter: 200 clients' walks cost %d, one client's %d: want 200 times as much", got, walk)
	}
}

// The engine, counted by hand where the miniature is exact: ten clients
// with fixed waits of 1 ms (a cohort: they wait alike), the service back
// at once, with a capacity of 1,000 a second, 100 in a 100 ms slot.
func TestEngineCountsByHand(t *testing.T) {
	s := fixedWaits(Defaults(), 1, 3)
	s.Clients, s.Outage, s.Capacity = 10, 0, 1000
	p := s.Policy(Fixed)
	pl := newPlan(p, s.Draws)
	// The horizon: waits of 1 + 1 ms, no sooner than the outage and a
	// wait: max(2, 0 + 1) = 2. The spans: 1 ms each, [0,1) [1,2) [2,3).
	h := engineHorizon(pl, s)
	if h != 2 {
		t.Fatalf("horizon %d, want 2", h)
	}
	// Span 0: the ten triggers fail, and retry over [0+1, 1+1) = span 1.
	// Span 1: ten second attempts, all served (slot 0 has room for 100);
	// the third attempt never comes. The ring: 1 ms buckets, 4 of them
	// (a power of two no less than the longest wait and 3). One cohort for
	// ten clients (share 1/10): 2 takes; each span holds its attempts in 1
	// ms; the ten waiting fill 1 bucket; 1 + 10/10/256 chunks; the last
	// attempt at 1 ms, the end at min(2, h). The chunks, 1.004, are
	// within 256: none fall out of the cache, nothing is cold. The
	// latencies: the horizon, 2 ms, is below the 10 clients, so a count
	// for each of 0, 1 and 2 ms, 3 places.
	w, m := engineCounts(pl, s, h)
	if want := (miniature{attempts: 20, served: 10, busy: 2, end: 2, pending: 10, groups: 1, takes: 2, buckets: 1}); m != want {
		t.Errorf("the miniature: got %+v, want %+v", m, want)
	}
	chunks := 1 + 1.0/256
	if want := (engineWork{cohorts: 2, served: 10, visits: 2, buckets: 2, clients: 10, latencies: 3, ring: 4, chunks: chunks, share: 0.1}); w != want {
		t.Errorf("the engine's counts: got %+v, want %+v", w, want)
	}
	setup := nsRun + nsClient*3 + nsRingSlot*4 + nsChunk*chunks
	if got, want := w.setupNs(), setup; got != want {
		t.Errorf("its setup: %v ns, want %v", got, want)
	}
	if got, want := w.ns(), setup+nsCohort*2+nsServed*10+nsVisit*2+nsBucket*2; got != want {
		t.Errorf("its work: %v ns, want %v", got, want)
	}
	// Its memory: 3 latencies' counts of 4 bytes; 4 buckets of 24 bytes and 16 of
	// lists; the chunks, 4,096 bytes each; the one cohort waiting, put in
	// order twice over, 2 * 16 = 32 bytes. The figures: 256. Its work, whole.
	c := RunAllCost([]Policy{p}, s, Options{}, 1)
	bytes := 12 + 4*40 + int64(chunks*chunkLen*pendingBytes) + 32
	if want := (Cost{Bytes: bytes + figuresBytes, Work: int64(math.Ceil(w.ns())), Span: int64(math.Ceil(w.ns())), Parallel: 1}); c != want {
		t.Errorf("the run's cost: got %+v, want %+v", c, want)
	}
	// A capacity of 30 a second: 3 in a 100 ms slot. Span 1 serves 3 of
	// the ten and rejects 7, who retry over span 2, still slot 0, which
	// has served its 3: rejected, their last attempt. 10 + 10 + 7 = 27
	// attempts, 3 served.
	s.Capacity = 30
	if _, m := engineCounts(pl, s, engineHorizon(pl, s)); m.attempts != 27 || m.served != 3 {
		t.Errorf("a slot of 3: %v attempts, %v served; want 27, 3", m.attempts, m.served)
	}
}

// The nanoseconds of each thing the engine does, each counted a
// different number of times so that no weight stands for another (the
// latencies' places, 2, count for the clients' 2 at the start):
// 1*3,203 + 2*2 + 3*26 + 4*8,834 (the setup, 38,621) + 5*9 + 6*17 +
// 7*34 + 8*29 + 9*24 + 10*29 + 11*31 + 12*4 + 13*9 + 14*2.1 + 15*29 +
// 16*25 (the short-circuited takes).
func TestEngineNanosecondsByHand(t *testing.T) {
	w := engineWork{clients: 2, latencies: 2, ring: 3, chunks: 4, processes: 5, attempts: 6, cold: 7, cohorts: 8, served: 9,
		visits: 10, queueVisits: 11, buckets: 12, bucketMs: 13, sorted: 14, farBudget: 15, short: 16}
	setup := 3203.0 + 2*2 + 3*26 + 4*8834
	if got := w.setupNs(); got != setup {
		t.Errorf("the setup: %v ns, want %v", got, setup)
	}
	want := setup + 5*9 + 6*17 + 7*34 + 8*29 + 9*24 + 10*29 + 11*31 + 12*4 + 13*9 + 14*2.1 + 15*29 + 16*25
	if got := w.ns(); math.Abs(got-want) > 1e-9 {
		t.Errorf("the run: %v ns, want %v", got, want)
	}
}

// The same ten clients against what limits them, by hand.
func TestEngineLimitsByHand(t *testing.T) {
	s := fixedWaits(Defaults(), 1, 3)
	s.Clients, s.Outage, s.Capacity = 10, 0, 1000
	for _, tt := range []struct {
		name string
		s    func(s *Settings)
		want miniature
	}{
		// No capacity: every attempt from the outage's end on is served.
		{"no capacity", func(s *Settings) { s.Capacity = 0 },
			miniature{attempts: 20, served: 10, busy: 2, end: 2, pending: 10, groups: 1, takes: 2, buckets: 1}},
		// gRPC's budget, MAX 10, RATIO 0.1, one process: 10,000
		// thousandths. The ten triggers take 1,000 each; a retry follows
		// while more than 5,000 are left: the first 5 of them (10,000 -
		// 5,000)/1,000. Span 1: the 5 are served. Not a cohort: a budget
		// puts every millisecond in client order, the 5 of span 1 sorted,
		// 5 log2 5; the 5 waiting fill min(5, 1 + 1) = 2 buckets.
		{"a gRPC budget", func(s *Settings) { s.Budget = Budget{Kind: BudgetGRPC, A: 10, B: 100} },
			miniature{attempts: 15, served: 5, busy: 2, end: 2, sorted: 5 * math.Log2(5), pending: 5, groups: 5, takes: 15, buckets: 2}},
		// The AWS quota, 10 tokens, 5 a retry, the service back at 2 ms:
		// the ten triggers may retry 10/5 = 2 times, which takes every
		// token; their retries at 1 ms fail, down, and none is left for
		// another. 12 attempts, none served; span 1's 2 sorted, 2 log2 2.
		{"an AWS quota", func(s *Settings) { s.Outage, s.Budget = 2, Budget{Kind: BudgetAWS, A: 10, B: 5} },
			miniature{attempts: 12, busy: 2, end: 2, sorted: 2, pending: 2, groups: 2, takes: 12, buckets: 2}},
		// A capacity of 30 a second: 3 in a 100 ms slot. Span 1 serves 3
		// of the ten and rejects 7, who retry over span 2, still slot 0,
		// which has served its 3: rejected, their last attempt. 10 + 10 +
		// 7 = 27 attempts, 3 served; 10 wait at most at once (the 7 wait
		// once the 10 have come); span 2 holds 7 attempts, 0.7 of a cohort
		// (the failures of an arrival carry its cohorts in proportion).
		{"a slot of 3", func(s *Settings) { s.Capacity = 30 },
			miniature{attempts: 27, served: 3, busy: 2.7, end: 2, pending: 10, groups: 1, takes: 2.7, buckets: 1}},
	} {
		at := s
		tt.s(&at)
		pl := newPlan(at.Policy(Fixed), at.Draws)
		if _, m := engineCounts(pl, at, engineHorizon(pl, at)); m != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, m, tt.want)
		}
	}
	// The budget's processes' tokens pass 256 KB at 32,769 processes, 8
	// bytes each: from then on each attempt reaches for them far. There
	// are no more buckets than clients (newBudgets): 40,000 clients.
	s.Budget = Budget{Kind: BudgetGRPC, A: 10, B: 100}
	s.Clients = 40_000
	pl := newPlan(s.Policy(Fixed), s.Draws)
	for procs, far := range map[int]bool{32_768: false, 32_769: true} {
		s.Processes = procs
		if w, m := engineCounts(pl, s, engineHorizon(pl, s)); (w.farBudget == m.attempts && m.attempts > 0) != far || w.processes != float64(procs) {
			t.Errorf("%d processes: %+v, want the attempts reaching far %v", procs, w, far)
		}
	}
	// A process per client is a bucket per client: 40,000 of 8 bytes,
	// 320 KB, past 256 KB (it was charged one bucket).
	s.Processes = PerClient
	if w, m := engineCounts(pl, s, engineHorizon(pl, s)); w.processes != 40_000 || w.farBudget != m.attempts {
		t.Errorf("a process per client: %v processes, %v attempts reaching far; want 40000, %v", w.processes, w.farBudget, m.attempts)
	}
	// Under a budget a wide bucket's lists hold no more than the calendar
	// does at once: 100,000 clients with full jitter (buckets of 64 ms)
	// and one process's gRPC budget, MAX 10, which lets 5 retries through.
	// Their first attempts, put in order twice over, would be 100,000 *
	// 64 bytes = 6.4 MB; the run holds their latencies, 400 KB, and little
	// more.
	wide := Defaults()
	wide.Clients, wide.Capacity, wide.Budget = 100_000, 1000, Budget{Kind: BudgetGRPC, A: 10, B: 100}
	if got := costOf(wide.Policy(FullJitter), wide, false, false).scratch; got >= 100_000*2*pendingBytes {
		t.Errorf("a budget that lets 5 retries through: %d bytes, want under the 6.4 MB of every first attempt in the lists", got)
	}
	// A client stops where its next retry, each wait at its band's
	// middle, would pass its limit on total time: full jitter over a
	// fixed base of 10 ms waits 5 ms on average, 10 by the second retry,
	// past a limit of 7: one retry, 2 attempts.
	one := Defaults()
	one.Clients, one.Outage, one.FirstWait, one.LongestWait, one.Attempts, one.MaxElapsed = 1, 100_000, 10, 10, 4, 7
	p := one.Policy(FullJitter)
	p.Multiplier = 1000
	pl = newPlan(p, one.Draws)
	if _, m := engineCounts(pl, one, engineHorizon(pl, one)); math.Abs(m.attempts-2) > 1e-9 {
		t.Errorf("a limit of 7 ms: %v attempts, want 2", m.attempts)
	}
	// A capacity never serves more than it has: 100 a second, 0.1 a 1 ms
	// slot, under a fresh load of 1,000 a second and a crowd of 1,000
	// retrying every 30 ms, each more than it serves, in the same spans,
	// wider than a slot past 20 ms: 0.1 a millisecond to the end, and the
	// last span's (a twentieth more at most).
	busy := fixedWaits(Defaults(), 30, 5)
	busy.Clients, busy.Outage, busy.Capacity, busy.Slot, busy.Load, busy.LoadUntil = 1000, 0, 100, 1, 1000, 200
	pl = newPlan(busy.Policy(Fixed), busy.Draws)
	if _, m := engineCounts(pl, busy, engineHorizon(pl, busy)); m.served > 0.1*m.end*1.05 || m.served < 0.1*m.end*0.9 {
		t.Errorf("a capacity of 0.1 a millisecond, always busy: %v served by %v ms, want about a tenth of that", m.served, m.end)
	}
}

// The FIFO queue's timeout in miniature: of in requests joining behind
// ahead, served 1 a millisecond (capa 1,000), those that would wait the
// timeout or more expire.
func TestExpiringByHand(t *testing.T) {
	for _, tt := range []struct{ ahead, in, timeout, want float64 }{
		{0, 10, 0, 0},  // no timeout
		{0, 10, 10, 0}, // waits of 0 to 10 ms: none past 10
		{0, 10, 2, 8},  // waits of 0 to 10 ms: those past 2, 8 of 10
		{2, 10, 2, 10}, // the first waits 2 ms, exactly the timeout: all
		{3, 10, 2, 10}, // the first waits past it: all
		{1, 10, 2, 9},  // waits of 1 to 11: past 2, 9 of 10
		{0, 0, 2, 0},   // nobody joins
		{5, 10, 20, 0}, // waits of 5 to 15 ms, under 20
		{5, 10, 15, 0}, // the last exactly at 15
		{5, 10, 14, 1}, // the last 1 ms past 14
	} {
		if got := expiring(tt.ahead, tt.in, 1000, tt.timeout); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%v ahead, %v joining, timeout %v ms: %v expire, want %v", tt.ahead, tt.in, tt.timeout, got, tt.want)
		}
	}
}

// A queue in miniature, by hand: ten clients with fixed waits of 1 ms,
// the service back at once, 1 request a millisecond (1,000 a second) from
// a FIFO queue of 100, no timeout, 2 attempts. The engine: the triggers
// fail at 0, the ten retries join at 1 and are served one a millisecond,
// 1 to 10.
func TestQueueCountsByHand(t *testing.T) {
	s := fixedWaits(Defaults(), 1, 2)
	s.Clients, s.Outage, s.Capacity, s.Queue = 10, 0, 1000, 100
	pl := newPlan(s.Policy(Fixed), s.Draws)
	// The horizon: the queue holds at most min(100, 10 * 2) = 20, worked
	// off in (20+1)*1000/1000 + 2 = 23 ms; no timeout, so an attempt's
	// failure is known at once; the last attempt by 0 + 2 * (0 + 1) = 2:
	// max(2, 0) + 23 = 25.
	h := engineHorizon(pl, s)
	if h != 25 {
		t.Fatalf("horizon %d, want 25", h)
	}
	// Span 0: 1 ms visited (the triggers). Span 1: ten join; the queue
	// serves 1 of them, 9 left. Spans 2 to 9 serve 1 each: 8 to 1 left,
	// the queue holding a request through each: visited. Span 10 serves
	// the last: half a request on average, not visited. 10 ms visited in
	// all, 10 served, the last thing at 9 ms (the end of span 9: 10); the
	// queue holds 9 at most after its service, 10 wait in the calendar.
	want := miniature{attempts: 20, served: 10, busy: 10, end: 10, pending: 10, groups: 1, takes: 2, queued: 9, buckets: 1}
	_, m := engineCounts(pl, s, h)
	if m != want {
		t.Errorf("the miniature: got %+v, want %+v", m, want)
	}
	// Its memory: 10 latencies; cohorts at a queue without guards wait in
	// lanes, not a ring of buckets and chunks: the lanes' rings, doubled
	// as they grow, for the one cohort waiting, 2 * 16 = 32 bytes; the
	// cohort put in order twice over, 2 * 16 = 32; and the queue's ring,
	// doubled as it grows, for the 9 it holds and one more: 4 * 10 * 16 =
	// 640.
	if got, want := RunAllCost([]Policy{s.Policy(Fixed)}, s, Options{}, 1).Bytes, int64(40+32+32+640+figuresBytes); got != want {
		t.Errorf("its memory: %d bytes, want %d", got, want)
	}
	// LIFO takes the newest first, here the one request there is each
	// millisecond: the same run.
	s.QueueOrder = LIFO
	if _, m := engineCounts(pl, s, h); m != want {
		t.Errorf("LIFO: got %+v, want %+v", m, want)
	}
	// A timeout of 2 ms, FIFO, expired requests dropped: of the ten
	// joining at 1 ms the last 8 would wait 2 ms or more (expiring): they
	// time out, their last attempt, and are dropped; 2 are served, at 1
	// and 2. What expires drops out of the queue at width/T a span, half a
	// millisecond's: 8 after span 1, 4 left, then 2, 1, 0.5, ... below a
	// thousandth after span 13. Visited: span 0, and spans 1 to 3 while
	// the queue holds a request or more on average.
	s.QueueOrder, s.Timeout, s.DropExpired = FIFO, 2, true
	h = engineHorizon(pl, s)
	if _, m := engineCounts(pl, s, h); m != (miniature{attempts: 20, served: 2, busy: 4, end: 13, pending: 10, groups: 1, takes: 2, queued: 5, buckets: 1}) {
		t.Errorf("expired requests dropped: got %+v", m)
	}
}

// A run costs what it does, not the time it may reach (issue 25.12).
func TestIdleMillisecondsCostNothing(t *testing.T) {
	s := Defaults()
	s.Capacity, s.Queue, s.Timeout = 1, 10, MaxTimeout
	// 200 clients against a queue of 10 served 1 a second, a day's
	// timeout: the run visits some 40,000 ms of its 519 million ms
	// horizon. Refused as "about 42 h" over 10,000 seeds; it takes 12.6 s.
	if secs := RunSeedsCost(s.Five(), s, MaxSeeds, SeedOptions{Workers: 2}).Seconds(2); secs < 3 || secs > 60 {
		t.Errorf("10,000 seeds: %.1f s on 2 cores, want about the 12.6 s it takes", secs)
	}
	// One seed, announced as 15 s: it takes 0.01 s.
	if secs := RunAllCost(s.Five(), s, Options{}, 2).Seconds(2); secs > 0.1 {
		t.Errorf("one seed: %.2f s, want well under a tenth", secs)
	}
	// One client against a queue of 10 million (TestOneClientCannotFillAQueue).
	s.Clients, s.Queue = 1, MaxQueue
	p := s.Policy(Exponential)
	if secs := RunAllCost([]Policy{p}, s, Options{}, 1).Seconds(1); secs > 0.01 {
		t.Errorf("one client: %.3f s, want next to nothing", secs)
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

// The fast path counts up to maxFastSlots slots; past them the engine
// runs, as Run does. Fixed waits of 1,000 s, 100 attempts, 1 ms slots: a
// horizon of min(outage + 1,000,000, 99,000,000) ms.
func TestFastPathBoundary(t *testing.T) {
	s := fixedWaits(Defaults(), 1_000_000, 100)
	s.Slot, s.Clients = 1, 1
	p := s.Policy(Fixed)
	for outage, engine := range map[int]bool{maxFastSlots - 1 - 1_000_000: false, maxFastSlots - 1_000_000: true} {
		s.Outage = outage
		if got := costOf(p, s, false, false).engine; got != engine {
			t.Errorf("%d slots: the engine %v, want %v", fastSlots(newPlan(p, s.Draws), s), got, engine)
		}
	}
}

// The engine's horizon without a queue: the last client's start and its
// waits, each band's top (decorrelated: its longest draw), at most its
// limit on total time, no sooner than the outage's end and a wait.
func TestEngineHorizonByHand(t *testing.T) {
	s := Defaults()
	for _, tt := range []struct {
		name    string
		p       func(s Settings) Policy
		s       func(s *Settings)
		horizon int64
	}{
		// Full jitter: bands to 1, 2, 4, 8 and 16 s, 31,000; the outage
		// and a wait, 10,000 + 16,000.
		{"full jitter", func(s Settings) Policy { return s.Policy(FullJitter) }, func(*Settings) {}, 31_000},
		// Decorrelated: each wait may be the longest, 16,000: 80,000.
		{"decorrelated", func(s Settings) Policy { return s.Policy(Decorrelated) }, func(*Settings) {}, 80_000},
		// A fresh load to 70 s: the last starts at 70,000.
		{"a fresh load", func(s Settings) Policy { return s.Policy(FullJitter) }, func(s *Settings) { s.Load = 10 }, 101_000},
		// A limit on total time of 20 s.
		{"a limit", func(s Settings) Policy { return s.Policy(FullJitter) }, func(s *Settings) { s.MaxElapsed = 20_000 }, 26_000},
		// A long outage: 60,000 + 16,000.
		{"a long outage", func(s Settings) Policy { return s.Policy(FullJitter) }, func(s *Settings) { s.Outage = 60_000 }, 76_000},
	} {
		at := s
		tt.s(&at)
		if got := engineHorizon(newPlan(tt.p(at), at.Draws), at); got != tt.horizon {
			t.Errorf("%s: %d ms, want %d", tt.name, got, tt.horizon)
		}
	}
}

// The waits the miniature spreads each retry over: the band, no wider
// than Reference draws reach (65,536 values); decorrelated jitter's from
// the first wait to three times a typical wait before.
func TestWaitBandsByHand(t *testing.T) {
	s := fixedWaits(Defaults(), 100_000, 2)
	p := s.Policy(FullJitter)
	for d, hi := range map[Draws]float64{Reference: 65_535, Independent: 100_000} {
		lo, his := waitBands(newPlan(p, d), d)
		if lo[1] != 0 || his[1] != hi {
			t.Errorf("%v draws of u(0, 100,000): from %v to %v, want 0 to %v", d, lo[1], his[1], hi)
		}
	}
	// Decorrelated from 1 s, longest 16 s: u(1,000, 3,000), then a typical
	// wait before of 3,000/e = 1,103.6: u(1,000, 3,310.8), then 1,218.
	q := Defaults().Policy(Decorrelated)
	lo, hi := waitBands(newPlan(q, Independent), Independent)
	for k, want := range []float64{3000, 3 * 3000 / math.E, 3 * 3 * 3000 / math.E / math.E} {
		if lo[k+1] != 1000 || math.Abs(hi[k+1]-want) > 1e-9 {
			t.Errorf("decorrelated retry %d: from %v to %v, want 1,000 to %v", k+1, lo[k+1], hi[k+1], want)
		}
	}
}

// The memory of a series, and of the workers at once.
func TestSeriesAndWorkersByHand(t *testing.T) {
	s := Defaults()
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
}

// The seconds on so many cores: the work shared among them, no fewer
// than the longest part, no more cores than the run keeps busy.
func TestSecondsByHand(t *testing.T) {
	c := Cost{Work: 12 * WorkPerSecond, Span: 3 * WorkPerSecond, Parallel: 4}
	for _, tt := range []struct {
		workers int
		secs    float64
	}{
		{0, 12}, // no workers: one
		{1, 12},
		{2, 6},
		{3, 4},
		{4, 3}, // exactly the longest part
		{8, 3}, // no more cores than 4
		{5, 3}, // 12/4 = 3, not 12/5
		{-1, 12},
	} {
		if got := c.Seconds(tt.workers); got != tt.secs {
			t.Errorf("%d workers: %v s, want %v", tt.workers, got, tt.secs)
		}
	}
	// No more cores than the run keeps busy, where the longest part does
	// not hide it: 12 s of 1 s parts on 4 of 8 cores, 3 s, not 1.5.
	if got := (Cost{Work: 12 * WorkPerSecond, Span: WorkPerSecond, Parallel: 4}).Seconds(8); got != 3 {
		t.Errorf("12 s on 8 cores, 4 kept busy: %v s, want 3", got)
	}
	// A part longer than the share: 7 s of 12 on 4 cores.
	c.Span = 7 * WorkPerSecond
	if got := c.Seconds(4); got != 7 {
		t.Errorf("a longest part of 7 s: %v s, want 7", got)
	}
	// Work that does not divide: 10 ns on 3 cores is 4 ns (rounded up).
	if got := (Cost{Work: 10, Parallel: 3}).Seconds(3); got != 4.0/WorkPerSecond {
		t.Errorf("10 ns on 3 cores: %v s, want 4 ns", got)
	}
}

// Costs held at once add their memory; one after the other, the larger
// memory; both add the work and the longest parts, the busier cores.
func TestCostsTogetherByHand(t *testing.T) {
	a := Cost{Bytes: 100, Work: 10, Span: 4, Parallel: 2}
	b := Cost{Bytes: 30, Work: 5, Span: 5, Parallel: 3}
	if got, want := a.Plus(b), (Cost{Bytes: 130, Work: 15, Span: 9, Parallel: 3}); got != want {
		t.Errorf("held at once: %+v, want %+v", got, want)
	}
	if got, want := a.Then(b), (Cost{Bytes: 100, Work: 15, Span: 9, Parallel: 3}); got != want {
		t.Errorf("one after the other: %+v, want %+v", got, want)
	}
}

// A spread over seeds: each seed's crowds, what each worker makes once,
// the ranking of every figure over the seeds.
func TestSeedsCostByHand(t *testing.T) {
	s := Defaults()
	s.Capacity = 1000
	p := s.Policy(FullJitter)
	one := costOf(p, s, false, false)
	ranks := func(count int) int64 {
		return int64(math.Ceil(nsRank * float64(count) * math.Log2(float64(count)+1) * float64(len(FigureFields()))))
	}
	for _, tt := range []struct{ count, workers int }{{1, 1}, {10, 1}, {10, 2}, {1, 2}} {
		c := RunSeedsCost([]Policy{p}, s, tt.count, SeedOptions{Workers: tt.workers})
		workers := min(tt.count, tt.workers) // no more workers than seeds
		want := int64(tt.count)*(one.work-one.setup) + int64(workers)*one.setup + ranks(tt.count)
		if c.Work != want || c.Span != one.work || c.Parallel != workers {
			t.Errorf("%d seeds on %d workers: got %+v, want work %d, span %d, %d workers", tt.count, tt.workers, c, want, one.work, workers)
		}
	}
	// One crowd after others, as a search's worker runs it: without what
	// the worker made before it.
	if got, want := CrowdCost(p, s), (Cost{Bytes: one.scratch, Work: one.work - one.setup, Span: one.work - one.setup, Parallel: 1}); got != want {
		t.Errorf("one crowd after others: %+v, want %+v", got, want)
	}
	if got := CrowdCost(Policy{}, s); got != (Cost{}) {
		t.Errorf("a policy that is not valid: %+v, want nothing", got)
	}
}

// Nothing overflows: every product of the user's numbers saturates at
// maxCost, exactly at its boundary (issue 25.11).
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
	for x, want := range map[float64]int64{1e300: maxCost, math.Inf(1): maxCost, math.NaN(): 0, -5: 0, 0.2: 1, 1 << 60: maxCost, 1<<60 - 1024: 1<<60 - 1024} {
		if got := whole(x); got != want {
			t.Errorf("whole(%v) = %d, want %d", x, got, want)
		}
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
	// The largest settings cost a bounded positive number, every path.
	s := Defaults()
	s.Clients, s.Attempts, s.FirstWait, s.LongestWait, s.Outage = MaxClients, MaxAttempts, 1, MaxWait, MaxTime
	s.Load, s.LoadUntil, s.Capacity, s.Queue, s.Timeout = MaxLoad, 10_000, 1, MaxQueue, MaxTimeout
	s.Budget, s.Processes = Budget{Kind: BudgetAWS, A: MaxAWSTokens, B: 1}, MaxProcesses
	c = RunAllCost(append(s.Five(), s.Custom()), s, Options{Series: true}, 64)
	if c.Bytes <= 0 || c.Bytes > maxCost || c.Work <= 0 || c.Work > maxCost {
		t.Errorf("the largest settings: %+v, want positive and at most %d", c, int64(maxCost))
	}
	sc := RunSeedsCost(s.Five(), s, MaxSeeds, SeedOptions{Workers: 64})
	if sc.Bytes <= 0 || sc.Work <= 0 || sc.Work > maxCost {
		t.Errorf("the largest spread: %+v", sc)
	}
}

// A breaker in miniature, by hand (breakerShut): the share of a span it
// is shut, and the state it leaves, each rule on its boundary. One
// process, 5 failures in a row open it for 100 ms, 100 ms slots, the
// service back at 1,000 ms.
func TestBreakerShutByHand(t *testing.T) {
	s := Defaults()
	s.Outage, s.Breaker = 1000, Breaker{Failures: 5, Open: 100}
	type state struct{ from, until, inRow float64 }
	for _, tt := range []struct {
		name      string
		s         func(s *Settings)
		up, room  float64
		now       []float64 // what arrives of each attempt, now[1] the fresh
		t0, t1    float64
		was, want state
		share     float64
		crowd     bool
	}{
		// Down, 20 arriving over [0, 10): 2 a ms, all failing; the 5th
		// in a row at 2.5 ms opens it to 102.5: shut 7.5 of 10 ms.
		{"opens", nil, 0, 0, []float64{0, 20}, 0, 10, state{}, state{2.5, 102.5, 0}, 0.75, false},
		// 5 over [0, 10): the 5th fails at exactly 10 ms, the span's
		// end: still closed, 5 in a row, and the next span opens it at
		// once, shut all of [10, 20).
		{"the 5th at the span's end", nil, 0, 0, []float64{0, 5}, 0, 10, state{}, state{0, 0, 5}, 0, false},
		// 2 in a row, 2 more over [0, 10): 4, closed.
		{"failures in a row add up", nil, 0, 0, []float64{0, 2}, 0, 10, state{0, 0, 2}, state{0, 0, 4}, 0, false},
		{"the 5th carried over", nil, 0, 0, []float64{0, 10}, 10, 20, state{0, 0, 5}, state{10, 110, 0}, 1, false},
		// The crowd's 10 first attempts at 0 ms, in a span of 1 ms: the
		// 5th at 0.5 ms.
		{"the crowd", func(s *Settings) { s.Clients = 10 }, 0, 0, []float64{0}, 0, 1, state{}, state{0.5, 100.5, 0}, 0.5, true},
		// A probe at 100 ms, the service down: it fails and opens the
		// breaker again to 200 ms: shut all of [90, 110).
		{"a probe while down", nil, 0, 0, []float64{0, 20}, 90, 110, state{0, 100, 0}, state{0, 200, 0}, 1, false},
		// A probe at exactly the outage's end, 1,000 ms: the service is
		// back and serves it, and the breaker closes. Half the span down,
		// no capacity: a failure a ms from then, the 5th in a row at 1,005
		// ms, the span's end: still closed. Shut 5 of 10 ms.
		{"a probe once back", nil, 0.5, 0, []float64{0, 20}, 995, 1005, state{0, 1000, 0}, state{0, 0, 0}, 0.5, false},
		// Hanging 30 ms: the 5th failure at 2.5 ms is known at 32.5 ms.
		{"a hang", func(s *Settings) { s.OutageHang = 30 }, 0, 0, []float64{0, 20}, 0, 10, state{}, state{32.5, 132.5, 0}, 0, false},
		{"a hang, then", func(s *Settings) { s.OutageHang = 30 }, 0, 0, []float64{0}, 30, 40, state{32.5, 132.5, 0}, state{32.5, 132.5, 0}, 0.75, false},
		// The service back with 100 a slot, a span of two slots, 200 of
		// room: 210 arrive, 10 rejected, 5 a slot, in a row at each slot's
		// end: exactly F, it opens at 5 / (1.05 * 10/210) = 100 ms into
		// the span: shut half of it. 209.8 arriving: 4.9 a slot, never.
		{"5 rejected a slot", func(s *Settings) { s.Capacity = 1000 }, 1, 200, []float64{0, 210}, 2000, 2200, state{}, state{2100, 2200, 0}, 0.5, false},
		{"4.9 rejected a slot", func(s *Settings) { s.Capacity = 1000 }, 1, 200, []float64{0, 209.8}, 2000, 2200, state{}, state{0, 0, 0}, 0, false},
	} {
		at := s
		if tt.s != nil {
			tt.s(&at)
		}
		st := tt.was
		got := breakerShut(at, tt.crowd, tt.up, tt.room, tt.now, tt.t0, tt.t1, &st.from, &st.until, &st.inRow)
		if math.Abs(got-tt.share) > 1e-9 || math.Abs(st.from-tt.want.from) > 1e-9 || math.Abs(st.until-tt.want.until) > 1e-9 || math.Abs(st.inRow-tt.want.inRow) > 1e-9 {
			t.Errorf("%s: got shut %v, %+v; want %v, %+v", tt.name, got, st, tt.share, tt.want)
		}
	}
}

// The miniature with a breaker against the engine, where both are exact:
// ten clients, waits of 1 ms, 3 attempts, the service back at 100 ms, a
// breaker that one failure opens for 50 ms. At 0 ms the first attempt
// fails and opens it; the other 9 are short-circuited, and so are all ten
// retries at 1 ms and at 2 ms: 30 attempts, 29 short-circuited, none
// served. Short-circuited, an attempt costs nsShort, not an attempt's.
func TestBreakerMiniatureByHand(t *testing.T) {
	s := fixedWaits(Defaults(), 1, 3)
	s.Clients, s.Outage, s.Capacity, s.Breaker = 10, 100, 1000, Breaker{Failures: 1, Open: 50}
	p := s.Policy(Fixed)
	r, err := Run(p, s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f := r.Figures; f.Attempts != 30 || f.ShortCircuited != 29 || f.Served != 0 {
		t.Fatalf("the engine: %d attempts, %d short-circuited, %d served; want 30, 29, 0", f.Attempts, f.ShortCircuited, f.Served)
	}
	pl := newPlan(p, s.Draws)
	w, m := engineCounts(pl, s, engineHorizon(pl, s))
	// One cohort (share 1/10): its three takes, 2.9 of them short.
	if math.Abs(m.attempts-30) > 1e-9 || math.Abs(m.short-29) > 1e-9 || m.served != 0 || math.Abs(m.shortTakes-2.9) > 1e-9 {
		t.Errorf("the miniature: %v attempts, %v short-circuited (%v takes), %v served; want 30, 29 (2.9), 0", m.attempts, m.short, m.shortTakes, m.served)
	}
	if math.Abs(w.short-2.9) > 1e-9 || math.Abs(w.cohorts-0.1) > 1e-9 {
		t.Errorf("the engine's counts: %v short-circuited takes, %v cohorts; want 2.9, 0.1", w.short, w.cohorts)
	}
}
