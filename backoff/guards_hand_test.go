package backoff

import "testing"

// Hand-worked crowds of one to five clients for each rule of MODEL.md
// section 7, every boundary exactly on it. (t, c) is client c's attempt at
// t ms; "hangs to u" is an attempt sent while the service is down whose
// failure comes due at u = t + H; "S" is short-circuited. Each millisecond:
// 1. the failures that come due (hangs, timeouts), 2. arrivals, 3. the
// queue's service. Every case checks served + rejected + failed while down
// + timed out + short-circuited = attempts in its comment.
func TestHandWorkedGuards(t *testing.T) {
	fixed := func(wait, attempts int) Policy {
		return Policy{Name: "fixed", FirstWait: wait, LongestWait: wait, Multiplier: 1000, Attempts: attempts}
	}
	within := func(p Policy, e int) Policy { p.MaxElapsed = e; return p }
	// A breaker opened by the crowd's first failure (F = 1), open D ms; one
	// client retrying every 100 ms into a service that is up from 0. (0, 1)
	// fails, the trigger, and opens it at 0. With D = 200, (100, 1) is S and
	// (200, 1), at t0 + D exactly, is the probe: served, through at 200. 3
	// attempts: 1 served + 1 down + 1 S. Retries one a slot from 100; the
	// attempts that reach the service at or after 0 ms, one in slot 0 (the
	// trigger) and one in slot 2, the first busiest 0.
	onTheEdge := Figures{Clients: 1, Attempts: 3, Retries: 2, Served: 1, FailedWhileDown: 1, Through: 1,
		MostInASlot: 1, BusiestSlotFrom: 100, PeakAfterBack: 1, PeakAfterBackFrom: 0, SlotCapacity: -1,
		AllThroughBy: 200, StableFrom: 0, LatencyP50: 200, LatencyP99: 200, LatencyMax: 200, CrowdAllThroughBy: 200,
		ClientsTouched: 1, ShortCircuited: 1, BreakerOpened: 1}
	// With D = 201, (200, 1) is at t0 + D - 1: S too, and (300, 1) is the
	// probe: 4 attempts, 1 + 1 + 2.
	pastTheEdge := onTheEdge
	pastTheEdge.Attempts, pastTheEdge.Retries, pastTheEdge.ShortCircuited = 4, 3, 2
	pastTheEdge.AllThroughBy, pastTheEdge.LatencyP50, pastTheEdge.LatencyP99, pastTheEdge.LatencyMax, pastTheEdge.CrowdAllThroughBy = 300, 300, 300, 300, 300

	tests := []struct {
		name   string
		policy Policy
		s      func(s *Settings)
		want   Figures
	}{
		{
			// Outage 1000, H = 1500: (0, 1), the trigger, hangs to 1500 and
			// fails there though the service is back since 1000; the retry
			// at 1500 + 100 is served. 2 attempts: 1 served + 1 down. The
			// one retry, and the one attempt at or after 1000, in slot 16.
			name: "a hang fails after the service is back", policy: fixed(100, 3),
			s: func(s *Settings) { s.Clients, s.Outage, s.OutageHang = 1, 1000, 1500 },
			want: Figures{Clients: 1, Attempts: 2, Retries: 1, Served: 1, FailedWhileDown: 1, Through: 1,
				MostInASlot: 1, BusiestSlotFrom: 1600, PeakAfterBack: 1, PeakAfterBackFrom: 1600, SlotCapacity: -1,
				AllThroughBy: 1600, StableFrom: 1000, LatencyP50: 1600, LatencyP99: 1600, LatencyMax: 1600,
				CrowdAllThroughBy: 1600, ClientsTouched: 1},
		},
		{
			// Outage 0, H = 50: the three triggers fail whatever the outage,
			// and hang like any attempt to a service that is down: each
			// fails at 50 and retries at 150, served. 6 attempts: 3 served
			// + 3 down. Retries: 3 in slot 1. At or after 0 ms: the 3
			// triggers in slot 0 (they reach the service) and 3 in slot 1,
			// the first busiest 0.
			name: "the crowd's first attempts hang with an outage of 0", policy: fixed(100, 2),
			s: func(s *Settings) { s.Clients, s.Outage, s.OutageHang = 3, 0, 50 },
			want: Figures{Clients: 3, Attempts: 6, Retries: 3, Served: 3, FailedWhileDown: 3, Through: 3,
				MostInASlot: 3, BusiestSlotFrom: 100, PeakAfterBack: 3, PeakAfterBackFrom: 0, SlotCapacity: -1,
				AllThroughBy: 150, StableFrom: 0, LatencyP50: 150, LatencyP99: 150, LatencyMax: 150,
				CrowdAllThroughBy: 150, ClientsTouched: 3},
		},
		{
			// H = 900 lands the retry of (0, 1) at 900 + 100 = 1000, the
			// outage's end exactly: served, not down. 2 attempts: 1 + 1.
			name: "a hang's retry lands exactly on the outage's end", policy: fixed(100, 3),
			s: func(s *Settings) { s.Clients, s.Outage, s.OutageHang = 1, 1000, 900 },
			want: Figures{Clients: 1, Attempts: 2, Retries: 1, Served: 1, FailedWhileDown: 1, Through: 1,
				MostInASlot: 1, BusiestSlotFrom: 1000, PeakAfterBack: 1, PeakAfterBackFrom: 1000, SlotCapacity: -1,
				AllThroughBy: 1000, StableFrom: 1000, LatencyP50: 1000, LatencyP99: 1000, LatencyMax: 1000,
				CrowdAllThroughBy: 1000, ClientsTouched: 1},
		},
		{
			// H = 899: the retry comes at 999, a millisecond before the end:
			// it hangs to 1898, and the third attempt, at 1998, is served.
			// 3 attempts: 1 + 2 down. Retries in slots 9 and 19; the only
			// attempt at or after 1000 in slot 19.
			name: "a hang's retry a millisecond before the outage's end", policy: fixed(100, 3),
			s: func(s *Settings) { s.Clients, s.Outage, s.OutageHang = 1, 1000, 899 },
			want: Figures{Clients: 1, Attempts: 3, Retries: 2, Served: 1, FailedWhileDown: 2, Through: 1,
				MostInASlot: 1, BusiestSlotFrom: 900, PeakAfterBack: 1, PeakAfterBackFrom: 1900, SlotCapacity: -1,
				AllThroughBy: 1998, StableFrom: 1000, LatencyP50: 1998, LatencyP99: 1998, LatencyMax: 1998,
				CrowdAllThroughBy: 1998, ClientsTouched: 1},
		},
		{
			// H = 1000 makes the trigger's hang end exactly at the outage's
			// end, 1000: it still fails there (it was sent while down), and
			// the retry at 1100 is served.
			name: "a hang lands exactly on the outage's end", policy: fixed(100, 3),
			s: func(s *Settings) { s.Clients, s.Outage, s.OutageHang = 1, 1000, 1000 },
			want: Figures{Clients: 1, Attempts: 2, Retries: 1, Served: 1, FailedWhileDown: 1, Through: 1,
				MostInASlot: 1, BusiestSlotFrom: 1100, PeakAfterBack: 1, PeakAfterBackFrom: 1100, SlotCapacity: -1,
				AllThroughBy: 1100, StableFrom: 1000, LatencyP50: 1100, LatencyP99: 1100, LatencyMax: 1100,
				CrowdAllThroughBy: 1100, ClientsTouched: 1},
		},
		{
			// A limit of 1000 ms on total time is judged against t + H +
			// w(k): with H = 900 the first retry comes at 0 + 900 + 100 =
			// 1000, not more than 1000 after the start: made, down, it hangs
			// to 1900, and the next would be at 2000: out of time. 2
			// attempts, both down.
			name: "a hang and the limit on total time, exactly on it", policy: within(fixed(100, 5), 1000),
			s: func(s *Settings) { s.Clients, s.Outage, s.OutageHang = 1, 5000, 900 },
			want: Figures{Clients: 1, Attempts: 2, Retries: 1, FailedWhileDown: 2, OutOfTime: 1, MostInASlot: 1,
				BusiestSlotFrom: 1000, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 1, CrowdAllThroughBy: -1, ClientsTouched: 1},
		},
		{
			// H = 901: the first retry would come at 1001: out of time after
			// the trigger alone.
			name: "a hang and the limit on total time, a millisecond past it", policy: within(fixed(100, 5), 1000),
			s: func(s *Settings) { s.Clients, s.Outage, s.OutageHang = 1, 5000, 901 },
			want: Figures{Clients: 1, Attempts: 1, FailedWhileDown: 1, OutOfTime: 1, BusiestSlotFrom: -1,
				PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000, LatencyP50: -1,
				LatencyP99: -1, LatencyMax: -1, NotThrough: 1, CrowdAllThroughBy: -1, ClientsTouched: 1},
		},
		{
			// The clients touched reach to the last failure, a hang's at t +
			// H. Outage 1000, H = 1000, fresh requests at 0, 1000, 2000
			// (clients 2 to 4; 1 a second until 2001). (0, 1) and (0, 2)
			// hang to 1000, fail there and retry at 1100, served; (1000, 3)
			// and (2000, 4) are served at once. 6 attempts: 4 served + 2
			// down. The last failure is at 1000: the crowd and the requests
			// that arrive by 1000, clients 2 and 3, are touched; client 4 is
			// not (without the hang the last failure would be at 0, and only
			// 2 touched). Retries: 2 in slot 11; at or after 1000: 1 in slot
			// 10, 2 in 11, 1 in 20. Latencies 1100, 1100, 0, 0.
			name: "the clients touched reach to a hang's failure", policy: fixed(100, 2),
			s: func(s *Settings) { s.Clients, s.Outage, s.OutageHang, s.Load, s.LoadUntil = 1, 1000, 1000, 1, 2001 },
			want: Figures{Clients: 4, Attempts: 6, Retries: 2, Served: 4, FailedWhileDown: 2, Through: 4,
				MostInASlot: 2, BusiestSlotFrom: 1100, PeakAfterBack: 2, PeakAfterBackFrom: 1100, SlotCapacity: -1,
				AllThroughBy: 2000, StableFrom: 1000, LatencyP50: 0, LatencyP99: 1100, LatencyMax: 1100,
				CrowdAllThroughBy: 1100, ClientsTouched: 3},
		},
		{
			// Breaker 2:1000, outage 5000. (0, 1) fails: 1 in a row; (0, 2)
			// fails: 2 = F, the breaker opens at 0; (0, 3), the next arrival
			// of the same millisecond, is S, not failed while down. At 100
			// all three are S (100 < 0 + 1000), their last attempts: gave
			// up. 6 attempts: 2 down + 4 S. Retries: 3 in slot 1; none
			// reaches the service after the outage.
			name: "the F-th failure and an arrival after it in the same millisecond", policy: fixed(100, 2),
			s: func(s *Settings) { s.Clients, s.Outage, s.Breaker = 3, 5000, Breaker{Failures: 2, Open: 1000} },
			want: Figures{Clients: 3, Attempts: 6, Retries: 3, FailedWhileDown: 2, GaveUp: 3, MostInASlot: 3,
				BusiestSlotFrom: 100, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 3, CrowdAllThroughBy: -1, ClientsTouched: 3,
				ShortCircuited: 4, BreakerOpened: 1},
		},
		{
			// The same in two processes, a breaker each: clients 1 and 3 in
			// process 0, client 2 in 1. At 0: 1 fails (p0: 1), 2 fails (p1:
			// 1), 3 fails (p0: 2, opens). At 100: 1 is S, 2 fails (p1: 2,
			// opens at 100), 3 is S. 6 attempts: 4 down + 2 S; 2 openings.
			name: "a breaker per process", policy: fixed(100, 2),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Processes, s.Breaker = 3, 5000, 2, Breaker{Failures: 2, Open: 1000}
			},
			want: Figures{Clients: 3, Attempts: 6, Retries: 3, FailedWhileDown: 4, GaveUp: 3, MostInASlot: 3,
				BusiestSlotFrom: 100, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 3, CrowdAllThroughBy: -1, ClientsTouched: 3,
				ShortCircuited: 2, BreakerOpened: 2},
		},
		{
			// A hang's failure at t + H comes before t + H's arrivals, even
			// of lower numbers. Breaker 3:1000, outage 5000, H = 100; fresh
			// requests at 0 and 50 (20 a second until 51), clients 2 and 3.
			// (0, 1) and (0, 2) hang to 100, (50, 3) to 150. At 100 both fail
			// (1, then 2 in a row) and retry at 150. At 150, step 1: 3's
			// failure, the third in a row, opens the breaker; step 2: (150,
			// 1) and (150, 2) are S, their last. (200, 3) is S, its last. 6
			// attempts: 3 down + 3 S. Retries: 2 in slot 1, 1 in slot 2. The
			// last failure at 200 touches all three.
			name: "a hang's failure comes before its millisecond's arrivals", policy: fixed(50, 2),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.OutageHang, s.Load, s.LoadUntil = 1, 5000, 100, 20, 51
				s.Breaker = Breaker{Failures: 3, Open: 1000}
			},
			want: Figures{Clients: 3, Attempts: 6, Retries: 3, FailedWhileDown: 3, GaveUp: 3, MostInASlot: 2,
				BusiestSlotFrom: 100, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 3, CrowdAllThroughBy: -1, ClientsTouched: 3,
				ShortCircuited: 3, BreakerOpened: 1},
		},
		{
			// Breaker 1:300, outage 650, one client every 100 ms. (0, 1)
			// opens it at 0. 100, 200: S. (300, 1), at 0 + 300, is the
			// probe: down, it fails, and the breaker opens again at 300
			// (second opening). 400, 500: S. (600, 1), the probe: down
			// again, third opening. 700, 800: S. (900, 1), the probe, is
			// served: the breaker closes. 10 attempts: 1 served + 3 down +
			// 6 S; 3 openings. Retries one a slot from 100; at or after
			// 650 only (900, 1) reaches the service.
			name: "a probe failed twice, then served", policy: fixed(100, 10),
			s: func(s *Settings) { s.Clients, s.Outage, s.Breaker = 1, 650, Breaker{Failures: 1, Open: 300} },
			want: Figures{Clients: 1, Attempts: 10, Retries: 9, Served: 1, FailedWhileDown: 3, Through: 1,
				MostInASlot: 1, BusiestSlotFrom: 100, PeakAfterBack: 1, PeakAfterBackFrom: 900, SlotCapacity: -1,
				AllThroughBy: 900, StableFrom: 650, LatencyP50: 900, LatencyP99: 900, LatencyMax: 900,
				CrowdAllThroughBy: 900, ClientsTouched: 1, ShortCircuited: 6, BreakerOpened: 3},
		},
		{
			name: "the probe exactly at t0 + D", policy: fixed(100, 4),
			s:    func(s *Settings) { s.Clients, s.Outage, s.Breaker = 1, 0, Breaker{Failures: 1, Open: 200} },
			want: onTheEdge,
		},
		{
			name: "short-circuited at t0 + D - 1", policy: fixed(100, 4),
			s:    func(s *Settings) { s.Clients, s.Outage, s.Breaker = 1, 0, Breaker{Failures: 1, Open: 201} },
			want: pastTheEdge,
		},
		{
			// A probe that hangs keeps every other attempt of its process
			// short-circuited past t0 + D until its failure is known.
			// Breaker 1:100, outage 2000, H = 500, two clients, every 100
			// ms. (0, 1) and (0, 2) hang to 500; 1's failure opens the
			// breaker at 500, 2's is not heard. (600, 1), at 500 + 100, is
			// the probe: down, it hangs to 1100; (600, 2) to (1000, 2), a
			// probe pending, are S, the sixth its last: gave up. At 1100 the
			// probe fails: the breaker opens again until 1200. (1200, 1),
			// the probe, hangs to 1700: third opening, until 1800. (1800,
			// 1), the probe, hangs to 2300: fourth, until 2400. (2400, 1),
			// the probe, is served, the service back since 2000. Client 1:
			// 5 attempts, 4 down, 1 served; client 2: 1 down, 5 S. 11
			// attempts: 1 + 5 + 5. Retries: 2 in slot 6, then one in 7, 8,
			// 9, 10, 12, 18, 24; at or after 2000 only (2400, 1).
			name: "a hanging probe", policy: fixed(100, 6),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.OutageHang, s.Breaker = 2, 2000, 500, Breaker{Failures: 1, Open: 100}
			},
			want: Figures{Clients: 2, Attempts: 11, Retries: 9, Served: 1, FailedWhileDown: 5, Through: 1, GaveUp: 1,
				MostInASlot: 2, BusiestSlotFrom: 600, PeakAfterBack: 1, PeakAfterBackFrom: 2400, SlotCapacity: -1,
				AllThroughBy: 2400, StableFrom: 2000, LatencyP50: 2400, LatencyP99: 2400, LatencyMax: 2400,
				NotThrough: 1, CrowdAllThroughBy: 2400, ClientsTouched: 2, ShortCircuited: 5, BreakerOpened: 4},
		},
		{
			// The AWS quota 10:5 and a breaker 1:1000, outage 5000. (0, 1)
			// fails and opens it; its retry takes 5 (5 left). (0, 2) is S;
			// its retry costs 5 as any (0 left). At 100 both are S, and
			// neither may retry (0 < 5): throttled. 4 attempts: 1 down + 3
			// S.
			name: "an aws retry after a short-circuit costs COST", policy: fixed(100, 3),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Budget, s.Breaker = 2, 5000, Budget{Kind: BudgetAWS, A: 10, B: 5}, Breaker{Failures: 1, Open: 1000}
			},
			want: Figures{Clients: 2, Attempts: 4, Retries: 2, FailedWhileDown: 1, Throttled: 2, MostInASlot: 2,
				BusiestSlotFrom: 100, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 2, CrowdAllThroughBy: -1, ClientsTouched: 2,
				ShortCircuited: 3, BreakerOpened: 1},
		},
		{
			// gRPC's budget 3:0.5 (a retry while tokens > 1.5) and a breaker
			// 1:1000. (0, 1) fails and opens it: 2 tokens left, it retries.
			// (0, 2) and (0, 3) are S and take no token: 2 > 1.5, they
			// retry; so do all three at 100, S again; at 200, S, their
			// last: gave up. Were a short-circuit to take a token, (0, 2)
			// would leave 1 and (0, 3) be throttled. 9 attempts: 1 down + 8
			// S.
			name: "a short-circuit takes no gRPC token", policy: fixed(100, 3),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Budget, s.Breaker = 3, 5000, Budget{Kind: BudgetGRPC, A: 3, B: 500}, Breaker{Failures: 1, Open: 1000}
			},
			want: Figures{Clients: 3, Attempts: 9, Retries: 6, FailedWhileDown: 1, GaveUp: 3, MostInASlot: 3,
				BusiestSlotFrom: 100, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 3, CrowdAllThroughBy: -1, ClientsTouched: 3,
				ShortCircuited: 8, BreakerOpened: 1},
		},
		{
			// A request queued before the breaker opened still completes
			// while it is open, and its success does not close it.
			// Breaker 3:5000, queue 1, c(t) = 1 at 999 (1 a second), outage
			// 0, pushback R = 1000. (0, 1) and (0, 2) fail, the triggers: 2
			// in a row. At 100: (100, 1) joins the queue; (100, 2) finds it
			// full: rejected, the third failure: the breaker opens at 100
			// until 5100; pushed back, 2's next attempt is at 1100 (its
			// draw, 100, still made). At 999 the service completes client
			// 1's request, sent before the breaker opened: served, through,
			// and not the probe, so not heard. (1100, 2), its last, is S:
			// gave up. 5 attempts: 1 served + 1 rejected + 2 down + 1 S.
			// Retries: 2 in slot 1, 1 in slot 11; at or after 0 ms, 2 in
			// slot 0 and 2 in slot 1. Stable from the end of the
			// rejection's slot, 200.
			name: "an old queued request completes while the breaker is open", policy: fixed(100, 3),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Capacity, s.Queue, s.RetryAfter = 2, 0, 1, 1, 1000
				s.Breaker = Breaker{Failures: 3, Open: 5000}
			},
			want: Figures{Clients: 2, Attempts: 5, Retries: 3, Served: 1, Rejected: 1, FailedWhileDown: 2, Through: 1,
				GaveUp: 1, MostInASlot: 2, BusiestSlotFrom: 100, PeakAfterBack: 2, PeakAfterBackFrom: 0, SlotCapacity: 1,
				AllThroughBy: 999, StableFrom: 200, LatencyP50: 999, LatencyP99: 999, LatencyMax: 999, NotThrough: 1,
				CrowdAllThroughBy: 999, RecoveredAfter: 200, ClientsTouched: 2, QueuePeak: 1, ShortCircuited: 1, BreakerOpened: 1},
		},
		{
			// Pushback replaces w(k) after a rejection only, and the draw is
			// still made. Full jitter from 500 ms (d = 500, 1000, 2000), seed
			// 0: client 1 draws x>>16 = 15496 first, a wait of 15496 mod 501
			// = 466; client 2 draws 15521, 30144, 12383: waits 15521 mod 501
			// = 491, 30144 mod 1001 = 114, 12383 mod 2001 = 377. Queue 1,
			// c(t) = 1 at 999, 1999, 2999 (1 a second), timeout 600, outage
			// 0, R = 600. (0, 1) and (0, 2) fail, the triggers: failures,
			// not rejections: they wait 466 and 491. (466, 1) joins the
			// queue. (491, 2) finds it full: rejected, draws 114 and waits
			// R: (1091, 2). 999 serves client 1 (sent 466, 533 ms before).
			// (1091, 2) joins; at 1691 it times out, a failure: it waits its
			// third draw, 377, to 2068. (Were the second draw not made it
			// would wait 30144 mod 2001 = 129, to 1820, and find the expired
			// request filling the queue.) 1999 wastes the expired request.
			// (2068, 2), its last, joins and times out at 2668; 2999 wastes
			// it. 6 attempts: 1 served + 1 rejected + 2 down + 2 timed out.
			// Retries: 2 in slot 4, 1 in slots 10 and 20; at or after 0 ms,
			// 2 in slot 0 and 2 in slot 4. Stable from the end of the last
			// waste's slot, 3000.
			name: "pushback after a rejection, the draw still made",
			policy: Policy{Name: "full jitter", FirstWait: 500, LongestWait: 2000, Multiplier: 2000,
				Jitter: Jitter{Kind: JitterFull}, Attempts: 4},
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Seed, s.Capacity, s.Queue, s.Timeout, s.RetryAfter = 2, 0, 0, 1, 1, 600, 600
			},
			want: Figures{Clients: 2, Attempts: 6, Retries: 4, Served: 1, Rejected: 1, FailedWhileDown: 2, Through: 1,
				GaveUp: 1, MostInASlot: 2, BusiestSlotFrom: 400, PeakAfterBack: 2, PeakAfterBackFrom: 0, SlotCapacity: 1,
				AllThroughBy: 999, StableFrom: 3000, LatencyP50: 999, LatencyP99: 999, LatencyMax: 999, NotThrough: 1,
				CrowdAllThroughBy: 999, RecoveredAfter: 3000, ClientsTouched: 2, TimedOut: 2, Wasted: 2, QueuePeak: 1},
		},
		{
			// Pushback and the limit on total time: capacity 1 a second in
			// 1 s slots, outage 0, R = 900, E = 1000. (0, 1) and (0, 2) fail,
			// the triggers, and retry at 100: (100, 1) takes slot 0's one
			// place; (100, 2) is rejected and pushed back to 100 + 900 =
			// 1000, exactly E after its start: made, served in slot 1. 5
			// attempts: 2 served + 1 rejected + 2 down. At or after 0 ms
			// slot 0 holds 4. Latencies 100, 1000.
			name: "pushback exactly on the limit on total time", policy: within(fixed(100, 3), 1000),
			s: func(s *Settings) { s.Clients, s.Outage, s.Capacity, s.Slot, s.RetryAfter = 2, 0, 1, 1000, 900 },
			want: Figures{Clients: 2, Attempts: 5, Retries: 3, Served: 2, Rejected: 1, FailedWhileDown: 2, Through: 2,
				MostInASlot: 2, BusiestSlotFrom: 0, PeakAfterBack: 4, PeakAfterBackFrom: 0, SlotCapacity: 1,
				AllThroughBy: 1000, StableFrom: 1000, LatencyP50: 100, LatencyP99: 1000, LatencyMax: 1000,
				CrowdAllThroughBy: 1000, RecoveredAfter: 1000, ClientsTouched: 2},
		},
		{
			// E = 999: (100, 2)'s pushback to 1000 passes the limit, though
			// its own wait, to 200, would not: out of time. 4 attempts: 1
			// served + 1 rejected + 2 down.
			name: "pushback a millisecond past the limit on total time", policy: within(fixed(100, 3), 999),
			s: func(s *Settings) { s.Clients, s.Outage, s.Capacity, s.Slot, s.RetryAfter = 2, 0, 1, 1000, 900 },
			want: Figures{Clients: 2, Attempts: 4, Retries: 2, Served: 1, Rejected: 1, FailedWhileDown: 2, Through: 1,
				OutOfTime: 1, MostInASlot: 2, BusiestSlotFrom: 0, PeakAfterBack: 4, PeakAfterBackFrom: 0, SlotCapacity: 1,
				AllThroughBy: 100, StableFrom: 1000, LatencyP50: 100, LatencyP99: 100, LatencyMax: 100, NotThrough: 1,
				CrowdAllThroughBy: 100, RecoveredAfter: 1000, ClientsTouched: 2},
		},
		{
			// Only a rejection carries pushback: a hang's failure and a
			// short-circuit wait w(k). R = 1000, H = 50, breaker 1:1000,
			// outage 5000. (0, 1) and (0, 2) hang to 50; at 50 client 1's
			// failure opens the breaker until 50 + 1000 = 1050 (2's, while
			// open, is not heard); both wait w = 100, not R: (150, 1) and
			// (150, 2) are S, and wait 100 again, not R: (250, 1) and (250,
			// 2) are S, their last: gave up. 6 attempts: 2 down + 4 S.
			// Retries: 2 in slot 1, 2 in slot 2. (Were R to follow the hang,
			// the retries would come at 1050, the probe's moment; were it to
			// follow a short-circuit, at 150 and 1150, one a slot.)
			name: "pushback waits w(k) after a hang and a short-circuit", policy: fixed(100, 3),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.OutageHang, s.RetryAfter = 2, 5000, 50, 1000
				s.Breaker = Breaker{Failures: 1, Open: 1000}
			},
			want: Figures{Clients: 2, Attempts: 6, Retries: 4, FailedWhileDown: 2, GaveUp: 2, MostInASlot: 2,
				BusiestSlotFrom: 100, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 2, CrowdAllThroughBy: -1, ClientsTouched: 2,
				ShortCircuited: 4, BreakerOpened: 1},
		},
		{
			// The same with an AWS quota of 500:5 that never binds (4
			// retries take 20): a budget makes every short-circuit go on
			// in turn, as any failure does, rather than counted ahead.
			name: "pushback waits w(k) after a hang and a short-circuit, with a budget", policy: fixed(100, 3),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.OutageHang, s.RetryAfter = 2, 5000, 50, 1000
				s.Breaker, s.Budget = Breaker{Failures: 1, Open: 1000}, Budget{Kind: BudgetAWS, A: 500, B: 5}
			},
			want: Figures{Clients: 2, Attempts: 6, Retries: 4, FailedWhileDown: 2, GaveUp: 2, MostInASlot: 2,
				BusiestSlotFrom: 100, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1, StableFrom: 5000,
				LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, NotThrough: 2, CrowdAllThroughBy: -1, ClientsTouched: 2,
				ShortCircuited: 4, BreakerOpened: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Defaults()
			tt.s(&s)
			f := tt.want
			if f.Served+f.Rejected+f.FailedWhileDown+f.TimedOut+f.ShortCircuited != f.Attempts {
				t.Fatalf("the case's own figures do not add up to its %d attempts", f.Attempts)
			}
			handWorked(t, tt.policy, s, tt.want)
		})
	}
}
