package backoff

import "testing"

// Hand-worked crowds of one to four clients (and a fresh load) for each
// rule of MODEL.md section 6, every boundary exactly on it. (t, c) is
// client c's attempt at t ms; "c(t) = 1 at 999" is a capacity of 1 a
// second, floor((t+1)/1000) - floor(t/1000), which is 1 only where t+1 is a
// whole second. Each millisecond: 1. timeouts, 2. arrivals, 3. service.
func TestHandWorkedQueue(t *testing.T) {
	fixed := func(wait, attempts int) Policy {
		return Policy{Name: "fixed", FirstWait: wait, LongestWait: wait, Multiplier: 1000, Attempts: attempts}
	}
	// MODEL.md's boundaries of the load's last second, with a timeout: one
	// crowd client, whose trigger fails at 0 and whose retry at 1 waits at
	// the bottom of a LIFO queue while a fresh request a millisecond (load
	// 1000 a second, so request j arrives at j ms, client j+2) takes each
	// millisecond's one place (capacity 1000 a second), served at once. It
	// times out at 1+T = 6 (T = 5), its last attempt: gave up. The expired
	// request is wasted at U, the first millisecond with nothing newer.
	// Clients 1+U; attempts 2+U; 1 retry; U served (latency 0), 1 failed
	// while down, 1 timed out. The queue holds 2 just after the arrivals of
	// 1 (clients 1 and 3) and of each millisecond to U. Attempts at or
	// after 0 ms: 2 in slots 0 and 1 (1 ms slots), the first busiest 0.
	// The last failure is the timeout at 6: the clients touched are the
	// crowd and the fresh requests that arrive by 6, j = 0..6 where they
	// arrive before U, so 1 + min(U, 7); the later ones are all served.
	lifoLoad := func(u, stable int, overloaded bool) Figures {
		recovered := stable
		if overloaded {
			recovered = -1
		}
		return Figures{Clients: 1 + u, Attempts: 2 + u, Retries: 1, Served: u, FailedWhileDown: 1, Through: u, GaveUp: 1,
			MostInASlot: 1, BusiestSlotFrom: 1, PeakAfterBack: 2, PeakAfterBackFrom: 0, SlotCapacity: 1,
			AllThroughBy: u - 1, StableFrom: stable, StillOverloaded: overloaded, LatencyP50: 0, LatencyP99: 0, LatencyMax: 0,
			NotThrough: 1, CrowdAllThroughBy: -1, RecoveredAfter: recovered, ClientsTouched: 1 + min(u, 7), TimedOut: 1, Wasted: 1, QueuePeak: 2}
	}
	lifoSettings := func(u int) func(s *Settings) {
		return func(s *Settings) {
			s.Clients, s.Outage, s.Capacity, s.Slot, s.Load, s.LoadUntil = 1, 0, 1000, 1, 1000, u
			s.Queue, s.Timeout, s.QueueOrder = 10, 5, LIFO
		}
	}
	tests := []struct {
		name   string
		policy Policy
		s      func(s *Settings)
		want   Figures
	}{
		{
			// Full jitter over a base of 1 ms draws u(0, 1): seed 0's client
			// 1 draws x>>16 = 15496, 24200 (waits 0, 0), client 2 15521,
			// 30144 (waits 1, 0). c(t) = 1 at 999; queue 5, timeout 2,
			// expired requests dropped. (0, 1) fails, the trigger; its
			// retry, drawn with no wait, is (0, 1) again, which joins the
			// queue. (0, 2) fails and waits 1. (1, 2) joins. At 2, step 1:
			// client 1's request, sent at 2-T = 0, times out; its retry,
			// drawn with no wait, arrives at 2 in step 2 and joins behind
			// the expired one: the queue holds 3. At 3 client 2's (sent 1)
			// times out and its retry joins too: 4. At 4 and 5 their third
			// attempts time out: both gave up. At 999 the service drops the
			// 4 expired requests, using no capacity. 6 attempts, 4 retries,
			// 2 failed while down, 4 timed out, 4 dropped. Retries: one a
			// millisecond from 0 to 3; at or after 0 ms slot 0 holds 3
			// attempts. Stable from the end of 999's slot.
			name: "a timeout and its retry in the same millisecond",
			policy: Policy{Name: "full jitter of 1 ms", FirstWait: 1, LongestWait: 1, Multiplier: 1000,
				Jitter: Jitter{Kind: JitterFull}, Attempts: 3},
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Seed, s.Capacity, s.Slot = 2, 0, 0, 1, 1
				s.Queue, s.Timeout, s.DropExpired = 5, 2, true
			},
			want: Figures{Clients: 2, Attempts: 6, Retries: 4, FailedWhileDown: 2, GaveUp: 2, MostInASlot: 1,
				BusiestSlotFrom: 0, PeakAfterBack: 3, PeakAfterBackFrom: 0, SlotCapacity: 1, AllThroughBy: -1,
				StableFrom: 1000, LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 2, CrowdAllThroughBy: -1,
				RecoveredAfter: 1000, ClientsTouched: 2, TimedOut: 4, Dropped: 4, QueuePeak: 4},
		},
		{
			// The order of a millisecond's arrivals (issue 25.7): a
			// retry drawn with no wait after a timeout joins the
			// calendar behind an attempt already due, so the list comes
			// out of client order, and an expired request ahead leaves
			// room for only one of them. Full jitter over a base of 1 ms
			// draws u(0, 1); seed 1's client 1 draws x>>16 = 40894, 4786
			// (waits 0, 0), client 2 40920, 10730 (0, 0), client 3 40945,
			// 16675 (1, 1). C = 1500: c(0) = 1, c(1) = 2, c(2) = 1, c(3) =
			// 2. Timeout 1, FIFO, expired requests wasted. 0: the three
			// triggers fail; 1 and 2 retry at once and join, 3 waits 1.
			// The service completes 1 (latency 0). 1: step 1 times out
			// 2's request (sent at 0 = 1-T); 2 retries at once, behind 3's
			// attempt due at 1: the list is (3, 2). Ahead of them the one
			// expired request, and c(1) = 2 < 1 + 2 = 3, exactly one short
			// of serving both: they join in client order, 2 then 3. The
			// service wastes the expired one and completes 2 (latency 1).
			// 2: 3's request (sent 1) times out; 3 retries at 3; c(2) = 1
			// wastes it. 3: 3 joins and is completed (latency 3). Taken
			// as they came (3 before 2), 3 would be completed at 1 and 2,
			// on its last attempt, would time out at 2 and give up. 8
			// attempts, 5 retries, 3 served, 3 failed while down, 2 timed
			// out, 2 wasted. 1 ms slots: 2 retries at 0 (the first
			// busiest) and at 1; 5 attempts at or after 0 ms in slot 0.
			// The last waste at 2: stable from 3. Latencies 0, 1, 3; the
			// queue holds 3 after 1's arrivals; slot capacity ceil(1.5) =
			// 2.
			name: "arrivals out of client order behind an expired request", policy: Policy{Name: "full jitter of 1 ms",
				FirstWait: 1, LongestWait: 1, Multiplier: 1000, Jitter: Jitter{Kind: JitterFull}, Attempts: 3},
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Seed, s.Capacity, s.Slot, s.Queue, s.Timeout = 3, 0, 1, 1500, 1, 10, 1
			},
			want: Figures{Clients: 3, Attempts: 8, Retries: 5, Served: 3, FailedWhileDown: 3, Through: 3,
				MostInASlot: 2, BusiestSlotFrom: 0, PeakAfterBack: 5, PeakAfterBackFrom: 0, SlotCapacity: 2,
				AllThroughBy: 3, StableFrom: 3, LatencyP50: 1, LatencyP99: 3, LatencyMax: 3, CrowdAllThroughBy: 3,
				RecoveredAfter: 3, ClientsTouched: 3, TimedOut: 2, Wasted: 2, QueuePeak: 3},
		},
		{
			// The same rule with a live request ahead and no timeout. Full
			// jitter over a base of 3 ms draws u(0, 3); seed 5's client 1
			// draws x>>16 = 11417, 58202 (waits 1, 2), the fresh requests
			// 2 and 3 (load 2000 a second until 2: two at 0) 11442, 64146
			// (2, 2) and 11468, 4555 (0, 3), 4 and 5 (two at 1) 11493
			// (1) and 11519 (3). The outage ends at 2; C = 1500: c(2) = 1,
			// c(3) = 2, c(4) = 1, c(5) = 2. 0: 1 fails (the trigger), due
			// at 1; 2 fails, due at 2; 3 fails, retries at once, fails
			// again, due at 3. 1: 1 fails again, due at 3 (its last); 4
			// fails, due at 2; 5 fails, due at 4. 2: 2 and 4 join; 2 is
			// completed (latency 2). 3: the calendar holds 3 (put there at
			// 0) before 1 (at 1): the list is (3, 1), 4 live ahead of them,
			// and c(3) = 2 < 1 + 2: they join as 1, 3; 4 and 1 are
			// completed (latencies 2, 3). 4: 5 joins; 3 is completed
			// (latency 4). 5: 5 (latency 4). Taken as they came, 3 would
			// be completed at 3 and the crowd's 1 at 4. 12 attempts, 7
			// retries, 7 failed while down, 5 served. 1 ms slots: 2
			// retries at 2 and at 3; 2 attempts at or after 2 ms in slot
			// 2, the first; nothing rejected: stable from 2. The last
			// failure at 1: the crowd and the four requests that arrive
			// by then. The queue holds 3 after 3's arrivals.
			name: "arrivals out of client order behind a live request", policy: Policy{Name: "full jitter of 3 ms",
				FirstWait: 3, LongestWait: 3, Multiplier: 1000, Jitter: Jitter{Kind: JitterFull}, Attempts: 3},
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Seed, s.Capacity, s.Slot, s.Load, s.LoadUntil, s.Queue = 1, 2, 5, 1500, 1, 2000, 2, 10
			},
			want: Figures{Clients: 5, Attempts: 12, Retries: 7, Served: 5, FailedWhileDown: 7, Through: 5,
				MostInASlot: 2, BusiestSlotFrom: 2, PeakAfterBack: 2, PeakAfterBackFrom: 2, SlotCapacity: 2,
				AllThroughBy: 5, StableFrom: 2, LatencyP50: 3, LatencyP99: 4, LatencyMax: 4, CrowdAllThroughBy: 3,
				RecoveredAfter: 0, ClientsTouched: 5, QueuePeak: 3},
		},
		{
			// LIFO, where the fresh requests arriving after the list are
			// taken first. Full jitter over 1 ms, seed 0: client 1 draws
			// 15496, 24200 (waits 0, 0), client 2 15521 (1); the fresh
			// requests 3 (at 0) and 4 (at 1), load 1000 a second until 2.
			// C = 1500, timeout 1, expired requests wasted. 0: 1 fails and
			// joins at once, 2 fails, due at 1; 3 joins; the newest, 3, is
			// completed (latency 0). 1: 1's request (sent 0) times out and
			// 1 retries at once, behind 2, due at 1: the list is (2, 1),
			// then 4 arrives. Nothing is ahead in LIFO, and c(1) = 2 < 0 +
			// 2 + 1: they join as 1, 2, then 4; the newest two, 4 and 2,
			// are completed (latencies 0, 1). 2: 1's last attempt times
			// out: gave up; c(2) wastes one expired request, c(3) the
			// other. Taken as they came, 1 would be completed at 1 and 2's
			// request would time out at 2 and be retried. 7 attempts, 3
			// retries, 3 served, 2 timed out, 2 wasted. The timeout at 1
			// is in [U-1000, U): still overloaded; the last waste at 3:
			// stable from 4. 2 retries at 1; 4 attempts at or after 0 ms
			// in slot 0. The last failure at 2: every client.
			name: "LIFO takes the fresh arrivals before a list out of client order", policy: Policy{Name: "full jitter of 1 ms",
				FirstWait: 1, LongestWait: 1, Multiplier: 1000, Jitter: Jitter{Kind: JitterFull}, Attempts: 3},
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Seed, s.Capacity, s.Slot, s.Load, s.LoadUntil = 2, 0, 0, 1500, 1, 1000, 2
				s.Queue, s.Timeout, s.QueueOrder = 10, 1, LIFO
			},
			want: Figures{Clients: 4, Attempts: 7, Retries: 3, Served: 3, FailedWhileDown: 2, Through: 3, GaveUp: 1,
				MostInASlot: 2, BusiestSlotFrom: 1, PeakAfterBack: 4, PeakAfterBackFrom: 0, SlotCapacity: 2,
				AllThroughBy: 1, StableFrom: 4, StillOverloaded: true, LatencyP50: 0, LatencyP99: 1, LatencyMax: 1,
				NotThrough: 1, CrowdAllThroughBy: 1, RecoveredAfter: -1, ClientsTouched: 4, TimedOut: 2, Wasted: 2, QueuePeak: 4},
		},
		{
			// A queue of 2, no timeout, c(t) = 1 at 999, 1999. Three clients
			// fail at 0 and retry at 100. (100, 1) joins, 1 waiting; (100, 2)
			// joins with 1 < 2 waiting; (100, 3) finds 2 waiting, exactly
			// the queue: rejected, its last attempt. The service completes
			// client 1 at 999 and client 2 at 1999, who waited 1899 ms: no
			// timeout. 6 attempts, 3 retries, 2 served, 1 rejected, 3 failed
			// while down. 100 ms slots: 3 retries in slot 1; the 3 triggers
			// in slot 0 first at or after 0 ms; slot capacity ceil(100/1000)
			// = 1. The rejection at 100: stable from 200. Latencies 999,
			// 1999.
			name: "a full queue rejects, a capacity of 1 a second, no timeout", policy: fixed(100, 2),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Slot, s.Queue = 3, 0, 1, 100, 2
			},
			want: Figures{Clients: 3, Attempts: 6, Retries: 3, Served: 2, Rejected: 1, FailedWhileDown: 3, Through: 2,
				GaveUp: 1, MostInASlot: 3, BusiestSlotFrom: 100, PeakAfterBack: 3, PeakAfterBackFrom: 0, SlotCapacity: 1,
				AllThroughBy: 1999, StableFrom: 200, LatencyP50: 999, LatencyP99: 1999, LatencyMax: 1999,
				NotThrough: 1, CrowdAllThroughBy: 1999, RecoveredAfter: 200, ClientsTouched: 3, QueuePeak: 2},
		},
		{
			// One request a millisecond (capacity 1000 a second), timeout 2,
			// FIFO. Four clients fail at 0 and retry at 1: all join. 1: client
			// 1 served. 2: client 2, sent at 1 = t-T+1, served. 3: step 1
			// times out clients 3 and 4, sent at 1 = t-T, before the service
			// could reach them; both retry at 4. The service wastes its one
			// unit on 3's expired request. 4: the retries join behind 4's
			// expired request (3 waiting), which is wasted. 5: client 3 served
			// (sent 4). 6: client 4's, sent at 4, times out, its last attempt,
			// and is wasted. 10 attempts, 6 retries, 3 served, 4 failed while
			// down, 3 timed out, 3 wasted. 1 ms slots: 4 retries at 1;
			// stable from 7. Latencies 1, 2, 5.
			name: "an expired request is wasted", policy: fixed(1, 3),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Slot, s.Queue, s.Timeout = 4, 0, 1000, 1, 10, 2
			},
			want: Figures{Clients: 4, Attempts: 10, Retries: 6, Served: 3, FailedWhileDown: 4, Through: 3, GaveUp: 1,
				MostInASlot: 4, BusiestSlotFrom: 1, PeakAfterBack: 4, PeakAfterBackFrom: 0, SlotCapacity: 1,
				AllThroughBy: 5, StableFrom: 7, LatencyP50: 2, LatencyP99: 5, LatencyMax: 5, NotThrough: 1,
				CrowdAllThroughBy: 5, RecoveredAfter: 7, ClientsTouched: 4, TimedOut: 3, Wasted: 3, QueuePeak: 4},
		},
		{
			// The same, dropping expired requests. 3: both expired requests
			// are dropped, using no capacity (nothing live is left to
			// serve). 4: clients 3 and 4 join; 3 served. 5: 4 served, sent at
			// 4. 10 attempts, 4 served, 2 timed out, 2 dropped; all through.
			// The last timeout and drop at 3: stable from 4. Latencies 1, 2,
			// 4, 5.
			name: "an expired request is dropped", policy: fixed(1, 3),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Slot, s.Queue, s.Timeout, s.DropExpired = 4, 0, 1000, 1, 10, 2, true
			},
			want: Figures{Clients: 4, Attempts: 10, Retries: 6, Served: 4, FailedWhileDown: 4, Through: 4,
				MostInASlot: 4, BusiestSlotFrom: 1, PeakAfterBack: 4, PeakAfterBackFrom: 0, SlotCapacity: 1,
				AllThroughBy: 5, StableFrom: 4, LatencyP50: 2, LatencyP99: 5, LatencyMax: 5,
				CrowdAllThroughBy: 5, RecoveredAfter: 4, ClientsTouched: 4, TimedOut: 2, Dropped: 2, QueuePeak: 4},
		},
		{
			// LIFO, no timeout, c(t) = 1 at 999, 1999, ...; a crowd of 1 and
			// a fresh load of 1000 a second until 3 ms: requests at 0, 1, 2
			// (clients 2, 3, 4). 0: client 1's trigger fails (retry at 1);
			// client 2 joins. 1: client 1, then client 3, join. 2: client 4
			// joins: 2, 1, 3, 4 from the bottom. The service takes the newest
			// each second: 4 at 999 (latency 997), 3 at 1999 (1998), 1 at
			// 2999, and the oldest, client 2, left at the bottom, at 3999. 5
			// attempts, 1 retry, 4 served. 1 s slots: the retry and all 5
			// attempts in slot 0. Nothing rejected or timed out: stable from
			// the outage's end. The one failure is the trigger at 0: the
			// clients touched are client 1 and client 2, who arrived at 0.
			name: "LIFO leaves the oldest at the bottom", policy: fixed(1, 2),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Slot, s.Load, s.LoadUntil = 1, 0, 1, 1000, 1000, 3
				s.Queue, s.QueueOrder = 10, LIFO
			},
			want: Figures{Clients: 4, Attempts: 5, Retries: 1, Served: 4, FailedWhileDown: 1, Through: 4,
				MostInASlot: 1, BusiestSlotFrom: 0, PeakAfterBack: 5, PeakAfterBackFrom: 0, SlotCapacity: 1,
				AllThroughBy: 3999, StableFrom: 0, LatencyP50: 1998, LatencyP99: 3999, LatencyMax: 3999,
				CrowdAllThroughBy: 2999, RecoveredAfter: 0, ClientsTouched: 2, QueuePeak: 4},
		},
		{
			// The same, FIFO: 2 at 999 (latency 999), 1 at 1999, 3 at 2999
			// (2998), 4 at 3999 (3997). Clients touched: 1 and 2, as above.
			name: "FIFO takes the oldest", policy: fixed(1, 2),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Slot, s.Load, s.LoadUntil = 1, 0, 1, 1000, 1000, 3
				s.Queue = 10
			},
			want: Figures{Clients: 4, Attempts: 5, Retries: 1, Served: 4, FailedWhileDown: 1, Through: 4,
				MostInASlot: 1, BusiestSlotFrom: 0, PeakAfterBack: 5, PeakAfterBackFrom: 0, SlotCapacity: 1,
				AllThroughBy: 3999, StableFrom: 0, LatencyP50: 1999, LatencyP99: 3997, LatencyMax: 3997,
				CrowdAllThroughBy: 1999, RecoveredAfter: 0, ClientsTouched: 2, QueuePeak: 4},
		},
		{
			// gRPC's budget, MAX 4, RATIO 0.5: tokens 4 (4000 thousandths),
			// a retry only while tokens > 2. Queue 1, timeout 5, c(t) = 1 at
			// 999. (0, 1) fails: 3 tokens, retries at 10 and joins. At 15 it
			// times out, a failure like any other: 2 tokens, not more than
			// 2: throttled. The expired request is wasted at 999.
			name: "a budget refuses after a timeout", policy: fixed(10, 5),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Slot, s.Queue, s.Timeout = 1, 0, 1, 1000, 1, 5
				s.Budget = Budget{Kind: BudgetGRPC, A: 4, B: 500}
			},
			want: Figures{Clients: 1, Attempts: 2, Retries: 1, FailedWhileDown: 1, Throttled: 1, MostInASlot: 1,
				BusiestSlotFrom: 0, PeakAfterBack: 2, PeakAfterBackFrom: 0, SlotCapacity: 1, AllThroughBy: -1,
				StableFrom: 1000, LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 1, CrowdAllThroughBy: -1,
				RecoveredAfter: 1000, ClientsTouched: 1, TimedOut: 1, Wasted: 1, QueuePeak: 1},
		},
		{
			// The AWS quota, 5 tokens, 5 a retry: the trigger's retry takes
			// all 5; after the timeout at 15 there are none: throttled.
			name: "an AWS quota refuses after a timeout", policy: fixed(10, 5),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Slot, s.Queue, s.Timeout = 1, 0, 1, 1000, 1, 5
				s.Budget = Budget{Kind: BudgetAWS, A: 5, B: 5}
			},
			want: Figures{Clients: 1, Attempts: 2, Retries: 1, FailedWhileDown: 1, Throttled: 1, MostInASlot: 1,
				BusiestSlotFrom: 0, PeakAfterBack: 2, PeakAfterBackFrom: 0, SlotCapacity: 1, AllThroughBy: -1,
				StableFrom: 1000, LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 1, CrowdAllThroughBy: -1,
				RecoveredAfter: 1000, ClientsTouched: 1, TimedOut: 1, Wasted: 1, QueuePeak: 1},
		},
		{
			// U = 6: requests at 0 to 5. The timeout at 6 is at U, outside
			// [U-1000, U); the waste at 6 too: not still overloaded, stable
			// from 7.
			name: "a timeout exactly at U", policy: fixed(1, 2), s: lifoSettings(6), want: lifoLoad(6, 7, false),
		},
		{
			// U = 7: the timeout at 6 is at U-1; wasted at 7.
			name: "a timeout exactly at U-1", policy: fixed(1, 2), s: lifoSettings(7), want: lifoLoad(7, 8, true),
		},
		{
			// U = 1006: the timeout at 6 is at U-1000; wasted at 1006.
			name: "a timeout exactly at U-1000", policy: fixed(1, 2), s: lifoSettings(1006), want: lifoLoad(1006, 1007, true),
		},
		{
			// U = 1007: the timeout at 6 is at U-1001, the waste at U.
			name: "a timeout just before U-1000", policy: fixed(1, 2), s: lifoSettings(1007), want: lifoLoad(1007, 1008, false),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Defaults()
			tt.s(&s)
			handWorked(t, tt.policy, s, tt.want)
		})
	}
}
