package backoff

import "testing"

// Hand-worked crowds of a few clients, one for each rule of MODEL.md
// sections 3 to 5. Every expected number is worked out in the comment above
// its case, event by event; (t, c) is client c's attempt at t ms.
func TestHandWorkedServices(t *testing.T) {
	every100 := Policy{Name: "every 100 ms", FirstWait: 100, LongestWait: 100, Multiplier: 1000, Attempts: 10}
	every1000 := Policy{Name: "every second", FirstWait: 1000, LongestWait: 1000, Multiplier: 1000, Attempts: 2}
	tests := []struct {
		name   string
		policy Policy
		s      func(s *Settings)
		want   Figures
	}{
		{
			// A capacity of 3 a second in 400 ms slots divides unevenly:
			// cap(i) = floor(3(i+1)400/1000) - floor(3i*400/1000) gives 1, 1, 1,
			// 1, 2 for slots 0 to 4. Five clients fail at 0 (the trigger, even
			// with no outage) and retry every 100 ms, up to 10 attempts, all
			// tied on each millisecond, so the lowest number is served first.
			// (100, 1) is served, slot 0's one place; 2-5 are rejected at
			// 100, 200 and 300. (400, 2) takes slot 1's place; 3-5 are
			// rejected at 400 to 700. (800, 3) takes slot 2's; 4 and 5 are
			// rejected at 800 and, their 10th attempt, at 900: they give up.
			// Attempts: 2 + 5 + 9 + 10 + 10 = 36, 31 of them retries; 3
			// served, 5 failed while down (the triggers), 28 rejected.
			// Retries per slot: 5+4+4 = 13, 4+3+3+3 = 13, 3+2 = 5: the first
			// busiest is slot 0. At or after the outage's end (0 ms) slot 0
			// also holds the 5 triggers: 18. The slot's capacity is
			// ceil(3*400/1000) = 2. The last rejection, at 900, is in slot 2:
			// stable from 1200. Latencies 100, 400, 800: p50 is rank 2, p99
			// rank 3.
			name: "uneven capacity, ties at one millisecond", policy: every100,
			s: func(s *Settings) { s.Clients, s.Outage, s.Capacity, s.Slot = 5, 0, 3, 400 },
			want: Figures{Clients: 5, Attempts: 36, Retries: 31, Served: 3, Rejected: 28, FailedWhileDown: 5,
				Through: 3, GaveUp: 2, MostInASlot: 13, BusiestSlotFrom: 0, PeakAfterBack: 18, PeakAfterBackFrom: 0,
				SlotCapacity: 2, AllThroughBy: 800, StableFrom: 1200, LatencyP50: 400, LatencyP99: 800, LatencyMax: 800,
				NotThrough: 2, CrowdAllThroughBy: 800, RecoveredAfter: 1200, ClientsTouched: 5},
		},
		{
			// Full jitter over a base of 1 ms draws u(0, 1). Seed 0's clients
			// 1, 2, 3 draw x>>16 = 15496, 15521, 15547 first (see
			// TestHandWorkedWaits for client 1), so waits of 0, 1 and 1; client
			// 3's second draw is 36089, a wait of 1. One attempt a ms is
			// served (capacity 1000 a second, 1 ms slots). (0, 1) fails, its
			// retry drawn with no wait is at 0 in its own place, before
			// client 2's trigger, and is served. (0, 2) and (0, 3) fail and
			// wait 1. (1, 2) is served, (1, 3) rejected, waits 1, and (2, 3) is
			// served. Attempts 2 + 2 + 3 = 7, retries 4, 3 failed while down,
			// 1 rejected. Retries per slot 1, 2, 1; at or after 0 ms slot 0
			// holds the 3 triggers and (0, 1): 4. The last rejection at 1 ms
			// makes it stable from 2. Latencies 0, 1, 2.
			name: "a wait of 0 joins the same time in its client's place",
			policy: Policy{Name: "full jitter of 1 ms", FirstWait: 1, LongestWait: 1, Multiplier: 1000,
				Jitter: Jitter{Kind: JitterFull}, Attempts: 4},
			s: func(s *Settings) { s.Clients, s.Outage, s.Seed, s.Capacity, s.Slot = 3, 0, 0, 1000, 1 },
			want: Figures{Clients: 3, Attempts: 7, Retries: 4, Served: 3, Rejected: 1, FailedWhileDown: 3, Through: 3,
				MostInASlot: 2, BusiestSlotFrom: 1, PeakAfterBack: 4, PeakAfterBackFrom: 0, SlotCapacity: 1,
				AllThroughBy: 2, StableFrom: 2, LatencyP50: 1, LatencyP99: 2, LatencyMax: 2,
				CrowdAllThroughBy: 2, RecoveredAfter: 2, ClientsTouched: 3},
		},
		{
			// gRPC's budget, MAX 3, RATIO 0.5: tokens start at 3 (3000
			// thousandths); each failure takes 1; a retry only while tokens >
			// 1.5. The service is down all along. (0, 1) fails: 2 > 1.5, it
			// retries at 100. (0, 2) fails: 1, throttled. (0, 3): 0,
			// throttled. (100, 1) fails: 0 (never below), throttled. 4
			// attempts, 1 retry, 3 throttled, all failed while down.
			name: "gRPC budget refuses", policy: every100,
			s: func(s *Settings) { s.Clients, s.Outage, s.Budget = 3, 5000, Budget{Kind: BudgetGRPC, A: 3, B: 500} },
			want: Figures{Clients: 3, Attempts: 4, Retries: 1, FailedWhileDown: 4, Throttled: 3, MostInASlot: 1,
				BusiestSlotFrom: 100, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000, PeakAfterBackFrom: -1,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 3, CrowdAllThroughBy: -1, RecoveredAfter: 0, ClientsTouched: 3},
		},
		{
			// The same in two processes: clients 1 and 3 in process 0, client
			// 2 in process 1, each with 3 tokens. (0, 1): 2 in p0, retries.
			// (0, 2): 2 in p1, retries. (0, 3): 1 in p0, throttled. (100, 1):
			// 0 in p0, throttled. (100, 2): 1 in p1, throttled. 5 attempts, 2
			// retries (one a client, both at 100 ms), 3 throttled.
			name: "gRPC budget per process", policy: every100,
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Budget, s.Processes = 3, 5000, Budget{Kind: BudgetGRPC, A: 3, B: 500}, 2
			},
			want: Figures{Clients: 3, Attempts: 5, Retries: 2, FailedWhileDown: 5, Throttled: 3, MostInASlot: 2,
				BusiestSlotFrom: 100, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000, PeakAfterBackFrom: -1,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 3, CrowdAllThroughBy: -1, RecoveredAfter: 0, ClientsTouched: 3},
		},
		{
			// A process per client (issue 24, item 7), the fresh request
			// included: 2 crowd clients and a load of 1 a second until 1000
			// ms, whose request j = 0 arrives at 0 as client 3 (j = 1 would
			// arrive at 1000, not before it). P = 2 + 1 = 3, client n in
			// process n-1: each alone with 3 tokens. (0, 1), (0, 2), (0, 3)
			// fail: 2 each, > 1.5, each retries at 100. (100, 1), (100, 2),
			// (100, 3) fail: 1 each, throttled. 6 attempts, 3 retries, all at
			// 100, 3 throttled. With P = 2, the crowd's alone, client 3 would
			// share process 0 with client 1 and find 1 token at (0, 3): 5
			// attempts (the case above with a third client fresh).
			name: "gRPC budget, a process per client and per fresh request", policy: every100,
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Budget, s.Processes = 2, 5000, Budget{Kind: BudgetGRPC, A: 3, B: 500}, PerClient
				s.Load, s.LoadUntil = 1, 1000
			},
			want: Figures{Clients: 3, Attempts: 6, Retries: 3, FailedWhileDown: 6, Throttled: 3, MostInASlot: 3,
				BusiestSlotFrom: 100, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000, PeakAfterBackFrom: -1,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 3, CrowdAllThroughBy: -1, RecoveredAfter: 0, ClientsTouched: 3},
		},
		{
			// The same with P = 2, one fewer than the clients: clients 1 and 3
			// share process 0. (0, 1): 2 in p0, retries. (0, 2): 2 in p1,
			// retries. (0, 3): 1 in p0, throttled. (100, 1): 0 in p0,
			// throttled. (100, 2): 1 in p1, throttled. 5 attempts, 2 retries.
			name: "gRPC budget, one process fewer than the clients", policy: every100,
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Budget, s.Processes = 2, 5000, Budget{Kind: BudgetGRPC, A: 3, B: 500}, 2
				s.Load, s.LoadUntil = 1, 1000
			},
			want: Figures{Clients: 3, Attempts: 5, Retries: 2, FailedWhileDown: 5, Throttled: 3, MostInASlot: 2,
				BusiestSlotFrom: 100, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000, PeakAfterBackFrom: -1,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 3, CrowdAllThroughBy: -1, RecoveredAfter: 0, ClientsTouched: 3},
		},
		{
			// The AWS quota, 10 tokens, 5 a retry. (0, 1) fails, takes 5
			// (5 left); (0, 2) takes 5 (0 left); (0, 3) finds 0 < 5:
			// throttled. The service is back at 100: (100, 1) and (100, 2)
			// are served, each a retry giving 5 back. 5 attempts, 2 retries,
			// 2 served, 3 failed while down; 2 through, 1 throttled.
			name: "AWS quota refuses and refunds", policy: every100,
			s: func(s *Settings) { s.Clients, s.Outage, s.Budget = 3, 100, Budget{Kind: BudgetAWS, A: 10, B: 5} },
			want: Figures{Clients: 3, Attempts: 5, Retries: 2, Served: 2, FailedWhileDown: 3, Through: 2, Throttled: 1,
				MostInASlot: 2, BusiestSlotFrom: 100, PeakAfterBack: 2, PeakAfterBackFrom: 100, SlotCapacity: -1,
				AllThroughBy: 100, StableFrom: 100, LatencyP50: 100, LatencyP99: 100, LatencyMax: 100,
				NotThrough: 1, CrowdAllThroughBy: 100, RecoveredAfter: 0, ClientsTouched: 3},
		},
		{
			// A fresh load of 2 a second until 3000 ms: requests j = 0..5
			// arrive at floor(j*1000/2) = 0, 500, ..., 2500 as clients 2 to 7
			// (j = 6 would arrive at 3000, not before it). One attempt a
			// second is served (1 a second, 1 s slots), from 0 ms. Client 1,
			// the crowd, fails at 0 and retries at 1000; every client retries
			// once, a second later. (0, 1) fails: the trigger. (0, 2) is
			// served. (500, 3) rejected. (1000, 1) served, (1000, 4) rejected:
			// the lower number first. (1500, 3) rejected, its last: gave up;
			// (1500, 5) rejected. (2000, 4) served, (2000, 6) rejected.
			// (2500, 5) rejected, gave up; (2500, 7) rejected. (3000, 6)
			// served. (3500, 7) rejected, gave up. 13 attempts, 6 retries, 4
			// served, 8 rejected, 1 failed while down; 4 through, 3 gave up.
			// Rejections at 2000 and 2500 fall in the load's last second,
			// [2000, 3000): still overloaded. The last rejection, at 3500,
			// makes it stable from 4000. Retries per second 0, 2, 2, 2;
			// attempts 3, 4, 4, 2. Latencies 0 (client 2), 1000 (1, 4, 6).
			name: "the load and its last second", policy: every1000,
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Slot, s.Load, s.LoadUntil = 1, 0, 1, 1000, 2, 3000
			},
			want: Figures{Clients: 7, Attempts: 13, Retries: 6, Served: 4, Rejected: 8, FailedWhileDown: 1,
				Through: 4, GaveUp: 3, MostInASlot: 2, BusiestSlotFrom: 1000, PeakAfterBack: 4, PeakAfterBackFrom: 1000,
				SlotCapacity: 1, AllThroughBy: 3000, StableFrom: 4000, StillOverloaded: true,
				LatencyP50: 1000, LatencyP99: 1000, LatencyMax: 1000, NotThrough: 3, CrowdAllThroughBy: 1000, RecoveredAfter: -1, ClientsTouched: 7},
		},
		{
			// A limit of 2500 ms on total time: each client fails at 0, 1000
			// and 2000; the next retry would be at 3000, more than 2500 after
			// its start: out of time. 3 attempts each.
			name: "out of time",
			policy: Policy{Name: "every second, 2.5 s in all", FirstWait: 1000, LongestWait: 1000, Multiplier: 1000,
				Attempts: 5, MaxElapsed: 2500},
			s: func(s *Settings) { s.Clients, s.Outage = 2, 10000 },
			want: Figures{Clients: 2, Attempts: 6, Retries: 4, FailedWhileDown: 6, OutOfTime: 2, MostInASlot: 2,
				BusiestSlotFrom: 1000, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 10000,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 2, CrowdAllThroughBy: -1, RecoveredAfter: 0, ClientsTouched: 2},
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

// handWorked holds the fast path (where there is no service), the engine
// and the model to want.
func handWorked(t *testing.T, p Policy, s Settings, want Figures) {
	t.Helper()
	for _, engine := range []bool{false, true} {
		got, err := run(t, p, s, Options{Engine: engine})
		if err != nil {
			t.Fatal(err)
		}
		if got.Figures != want {
			t.Errorf("engine %v:\n got %+v\nwant %+v", engine, got.Figures, want)
		}
	}
	if model, _ := modelRun(t, p, s); model != want {
		t.Errorf("model:\n got %+v\nwant %+v", model, want)
	}
}

// The three figures of MODEL.md section 5 that follow the others, each on
// its boundaries: not_through, crowd_all_through_by_ms (the crowd's, not the
// fresh load's) and recovered_after_ms (absent while still overloaded).
func TestHandWorkedRecovery(t *testing.T) {
	every1000 := Policy{Name: "every second", FirstWait: 1000, LongestWait: 1000, Multiplier: 1000, Attempts: 2}
	// Two crowd clients, back at 0 ms, 1 attempt a second served in 1 s
	// slots, a fresh load of 1 a second: request j arrives at j*1000 ms
	// while that is before U. (0, 1) and (0, 2) fail (the trigger) and
	// retry at 1000; (0, 3), the first fresh request, is served (slot 0's
	// one place). At 1000, (1000, 1) takes slot 1's place and (1000, 2) is
	// rejected, its last attempt: gave up. The last rejection, at 1000,
	// makes it stable from 2000.
	atU := Figures{Clients: 3, Attempts: 5, Retries: 2, Served: 2, Rejected: 1, FailedWhileDown: 2, Through: 2,
		GaveUp: 1, MostInASlot: 2, BusiestSlotFrom: 1000, PeakAfterBack: 3, PeakAfterBackFrom: 0, SlotCapacity: 1,
		AllThroughBy: 1000, StableFrom: 2000, LatencyP50: 0, LatencyP99: 1000, LatencyMax: 1000,
		NotThrough: 1, CrowdAllThroughBy: 1000, RecoveredAfter: 2000, ClientsTouched: 3}
	// With U past 1000, request 1 (client 4) arrives at 1000 as well and
	// is rejected after client 2; it retries at 2000 and is served, slot
	// 2's one place. 7 attempts, 3 retries, 2 rejected; attempts at or
	// after 0 ms: 3 in slot 0, 3 in slot 1 (the first busiest is slot 0).
	// Latencies 0, 1000 (client 1), 1000 (client 4, from 1000 to 2000).
	// The rejections at 1000 lie in [U-1000, U): still overloaded, so not
	// recovered, whatever the stable-from.
	inLastSecond := Figures{Clients: 4, Attempts: 7, Retries: 3, Served: 3, Rejected: 2, FailedWhileDown: 2, Through: 3,
		GaveUp: 1, MostInASlot: 2, BusiestSlotFrom: 1000, PeakAfterBack: 3, PeakAfterBackFrom: 0, SlotCapacity: 1,
		AllThroughBy: 2000, StableFrom: 2000, StillOverloaded: true, LatencyP50: 1000, LatencyP99: 1000, LatencyMax: 1000,
		NotThrough: 1, CrowdAllThroughBy: 1000, RecoveredAfter: -1, ClientsTouched: 4}
	tests := []struct {
		name   string
		policy Policy
		s      func(s *Settings)
		want   Figures
	}{
		{
			// U = 1000: request 1 would arrive at 1000, not before U. The
			// one rejection, at 1000, is at U itself, outside [0, 1000): not
			// still overloaded, recovered 2000 ms after the outage's end.
			name: "a rejection exactly at U", policy: every1000,
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Slot, s.Load, s.LoadUntil = 2, 0, 1, 1000, 1, 1000
			},
			want: atU,
		},
		{
			// U = 2000: the rejections at 1000 are at U-1000, the first
			// millisecond of the load's last second.
			name: "a rejection exactly at U-1000", policy: every1000,
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Slot, s.Load, s.LoadUntil = 2, 0, 1, 1000, 1, 2000
			},
			want: inLastSecond,
		},
		{
			// U = 1001: request 1 arrives at 1000 < 1001, and the rejections
			// at 1000 are at U-1, the last millisecond of [1, 1001).
			name: "a rejection exactly at U-1", policy: every1000,
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Slot, s.Load, s.LoadUntil = 2, 0, 1, 1000, 1, 1001
			},
			want: inLastSecond,
		},
		{
			// One crowd client, back at 5000, no capacity limit; fresh
			// requests j = 0..6 arrive at j*1000 (U = 7000) as clients 2 to
			// 8, each with two attempts a second apart. Client 1 fails at 0
			// and 1000: gave up. Clients 2 to 5 (arriving 0 to 3000) fail
			// twice before 5000: gave up. Client 6 fails at 4000 and is
			// served at 5000; clients 7 and 8 are served at once, 5000 and
			// 6000. 14 attempts, 6 retries (2 at 1000, then 1 a second to
			// 5000), 3 served, 11 failed while down; 5 gave up. Attempts at
			// or after 5000: 2 in slot 5, 1 in slot 6. Nothing rejected:
			// stable from the outage, recovered at once (0). The crowd never
			// got through (-1) though all through by is 6000. Latencies 1000,
			// 0, 0. The last failure is client 6's at 4000: the clients
			// touched are the crowd and clients 2 to 6, who started by then;
			// 7 and 8 met nothing but success. 5 not through of 6, not of 8.
			name: "only the fresh load gets through", policy: every1000,
			s: func(s *Settings) { s.Clients, s.Outage, s.Slot, s.Load, s.LoadUntil = 1, 5000, 1000, 1, 7000 },
			want: Figures{Clients: 8, Attempts: 14, Retries: 6, Served: 3, FailedWhileDown: 11, Through: 3, GaveUp: 5,
				MostInASlot: 2, BusiestSlotFrom: 1000, PeakAfterBack: 2, PeakAfterBackFrom: 5000, SlotCapacity: -1,
				AllThroughBy: 6000, StableFrom: 5000, LatencyP50: 0, LatencyP99: 1000, LatencyMax: 1000,
				NotThrough: 5, CrowdAllThroughBy: -1, RecoveredAfter: 0, ClientsTouched: 6},
		},
		{
			// Without a service (the fast path): the defaults' crowd of
			// exponential, outage 10 s, 6 attempts: every client retries at
			// 1000, 3000, 7000 (down) and 15000 (through), so the crowd is
			// all through by 15000, none is left out, and with nothing
			// rejected the service is stable from the outage: recovered at
			// once.
			name: "the fast path", policy: Defaults().Policy(Exponential),
			s: func(s *Settings) {},
			want: Figures{Clients: 200, Attempts: 1000, Retries: 800, Served: 200, FailedWhileDown: 800, Through: 200,
				MostInASlot: 200, BusiestSlotFrom: 1000, PeakAfterBack: 200, PeakAfterBackFrom: 15000, SlotCapacity: -1,
				AllThroughBy: 15000, StableFrom: 10000, LatencyP50: 15000, LatencyP99: 15000, LatencyMax: 15000,
				NotThrough: 0, CrowdAllThroughBy: 15000, RecoveredAfter: 0, ClientsTouched: 200},
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
