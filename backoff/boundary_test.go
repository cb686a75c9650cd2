package backoff

import (
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// Hand-worked cases exactly on each rule's boundary, where a mutation of
// the rule (> for >=, < for <=, a cap dropped) changes a figure: each
// comment works the numbers out, and says what the mutation would give.

// everyWait is a policy that waits w ms before every retry, no jitter.
func everyWait(w, attempts int) Policy {
	return Policy{Name: "fixed", FirstWait: w, LongestWait: w, Multiplier: 1000, Attempts: attempts}
}

// runWays runs p under s on the fast path (where s has no service), the
// engine, and the model, and returns the figures of each, named.
func runWays(t *testing.T, p Policy, s Settings) map[string]Figures {
	t.Helper()
	out := map[string]Figures{}
	for _, way := range []struct {
		name string
		o    Options
	}{{"Run", Options{}}, {"the engine", Options{Engine: true}}} {
		r, err := run(t, p, s, way.o)
		if err != nil {
			t.Fatalf("%s: %v", way.name, err)
		}
		out[way.name] = r.Figures
	}
	out["the model"], _ = modelRun(t, p, s)
	return out
}

// A retry exactly at the limit on total time is made; one past it is not.
func TestLimitOnTotalTimeExactly(t *testing.T) {
	for _, tt := range []struct {
		name                 string
		limit                int
		budget               Budget
		retries, attempts    int
		outOfTime, endsAfter int
	}{
		// A fixed wait of 1 s and a limit of 3,000 ms, the defaults' 200
		// clients and outage of 10,000 ms (so none gets through): each
		// client fails at 0, retries at 1000, 2000 and 3000 (3000 - 0 is
		// not more than 3000: made), and the next, at 4000, would pass the
		// limit: out of time. Retries 200 x 3 = 600, attempts 200 x 4 =
		// 800. With >= for >, the retry at 3000 would not be made: 200 x 2
		// = 400 retries.
		{"at the limit", 3000, Budget{}, 600, 800, 200, 3000},
		// 2,999 ms: the retry at 3000 passes it: 200 x 2 = 400.
		{"1 ms under", 2999, Budget{}, 400, 600, 200, 2000},
		// The same with a budget that never refuses (a million tokens, 1
		// a retry): the engine takes each client's attempt on its own
		// rather than as one cohort.
		{"at the limit, one by one", 3000, Budget{Kind: BudgetAWS, A: 1000000, B: 1}, 600, 800, 200, 3000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := Defaults()
			s.Budget = tt.budget
			p := s.Policy(Fixed)
			p.MaxElapsed = tt.limit
			for way, f := range runWays(t, p, s) {
				if f.Retries != tt.retries || f.Attempts != tt.attempts || f.OutOfTime != tt.outOfTime || f.GaveUp != 0 {
					t.Errorf("%s: got %d retries, %d attempts, %d out of time, %d gave up; want %d, %d, %d, 0",
						way, f.Retries, f.Attempts, f.OutOfTime, f.GaveUp, tt.retries, tt.attempts, tt.outOfTime)
				}
			}
			// One client's schedule says the same: its last retry made
			// at endsAfter, the next past the limit.
			sc := ScheduleOf(p, s, 1)
			if sc.End != EndOutOfTime || sc.Total != tt.endsAfter || sc.Made != tt.attempts/s.Clients {
				t.Errorf("the schedule: got %v after %d attempts, the last at %d ms; want out of time after %d, the last at %d ms",
					sc.End, sc.Made, sc.Total, tt.attempts/s.Clients, tt.endsAfter)
			}
			if r := sc.Retries[sc.Made-1]; r.Outcome != PastLimit || r.At != tt.endsAfter+1000 {
				t.Errorf("the schedule: retry %d at %d ms is %v, want the first past the limit, at %d ms", r.Attempt, r.At, r.Outcome, tt.endsAfter+1000)
			}
		})
	}
}

// A retry exactly at the outage's end is served: the schedule says
// through, as the crowd does.
func TestRetryAtTheOutagesEnd(t *testing.T) {
	// A fixed wait of 1 s, an outage of 3,000 ms: each client fails at 0,
	// 1000 and 2000, and its retry at 3000 (not before the outage's end)
	// gets through. 200 clients: 800 attempts, 600 retries, 200 served,
	// 600 failed while down, latency 3000. With > for >=, the retry at
	// 3000 would fail and the one at 4000 get through.
	s := Defaults()
	s.Outage = 3000
	p := s.Policy(Fixed)
	sc := ScheduleOf(p, s, 1)
	if r, ok := sc.ThroughAt(); !ok || r.At != 3000 || r.Attempt != 4 || sc.Made != 4 || sc.Total != 3000 {
		t.Errorf("the schedule: through at %+v (%v), %d attempts in %d ms; want attempt 4 at 3000 ms", r, ok, sc.Made, sc.Total)
	}
	if sc.Retries[1].Outcome != Down || sc.Retries[3].Outcome != NotNeeded {
		t.Errorf("the schedule: retries at 2000 and 4000 are %v and %v, want down and not needed", sc.Retries[1].Outcome, sc.Retries[3].Outcome)
	}
	// Without a budget the engine takes the 200 as one cohort; with one
	// that never refuses, each client's attempt on its own.
	for _, budget := range []Budget{{}, {Kind: BudgetAWS, A: 1000000, B: 1}} {
		s.Budget = budget
		for way, f := range runWays(t, p, s) {
			if f.Through != 200 || f.Served != 200 || f.FailedWhileDown != 600 || f.Attempts != 800 || f.AllThroughBy != 3000 || f.LatencyMax != 3000 {
				t.Errorf("budget %v, %s: got %+v; want 200 through at 3000 ms, 600 failed while down", budget, way, f)
			}
		}
	}
}

// A rejection in the load's last second, [U-1000, U), leaves the service
// still overloaded; one at U does not.
func TestStillOverloadedAtTheLoadsEnd(t *testing.T) {
	// U = 5500. The service is back at X; one attempt a millisecond is
	// served (1000 a second, 1 ms slots). Two crowd clients fail at 0 and
	// retry once, at X (a fixed wait of X, 2 attempts). The load, 1 a
	// second, sends requests at 0, 1000, ..., 5000 (6 of them, all before
	// U): those before X fail while down and retry at their arrival + X,
	// the one at 0 at X too; those at or after X are served alone. At X
	// three clients retry: the first is served, the other two rejected,
	// and they give up: the only rejections. No other two attempts share
	// a millisecond, as X is no whole second. So still overloaded exactly
	// when X is in [4500, 5500).
	for _, tt := range []struct {
		x    int
		want bool
	}{
		{4499, false}, // U - 1001: before the last second
		{4500, true},  // U - 1000: its first millisecond
		{5499, true},  // U - 1: its last
		{5500, false}, // U: the load has ended
	} {
		for _, budget := range []Budget{{}, {Kind: BudgetAWS, A: 1000000, B: 1}} {
			s := Defaults()
			s.Clients, s.Outage, s.Slot, s.Capacity, s.Load, s.LoadUntil, s.Budget = 2, tt.x, 1, 1000, 1, 5500, budget
			for way, f := range runWays(t, everyWait(tt.x, 2), s) {
				if f.StillOverloaded != tt.want || f.Rejected != 2 || f.StableFrom != tt.x+1 {
					t.Errorf("X = %d, budget %v, %s: got still overloaded %v, %d rejected, stable from %d; want %v, 2, %d",
						tt.x, budget, way, f.StillOverloaded, f.Rejected, f.StableFrom, tt.want, tt.x+1)
				}
			}
		}
	}
}

// A band of 65,536 values is all the reference's draws reach; one of
// 65,537 is cut short.
func TestBandOfExactlyReferenceReach(t *testing.T) {
	for _, tt := range []struct {
		name   string
		p      Policy
		values int
		cut    bool
	}{
		// Full jitter: u(0, d), d + 1 values.
		{"full, 65,536", Policy{FirstWait: 65535, LongestWait: 65535, Multiplier: 1000, Jitter: Jitter{Kind: JitterFull}, Attempts: 2}, 65536, false},
		{"full, 65,537", Policy{FirstWait: 65536, LongestWait: 65536, Multiplier: 1000, Jitter: Jitter{Kind: JitterFull}, Attempts: 2}, 65537, true},
		// Up jitter of 1: u(d, 2d), d + 1 values.
		{"up, 65,536", Policy{FirstWait: 65535, LongestWait: 65535, Multiplier: 1000, Jitter: Jitter{Kind: JitterUp, Factor: 1000}, Attempts: 2}, 65536, false},
		{"up, 65,537", Policy{FirstWait: 65536, LongestWait: 65536, Multiplier: 1000, Jitter: Jitter{Kind: JitterUp, Factor: 1000}, Attempts: 2}, 65537, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := tt.p.Band(1, tt.p.FirstWait)
			if hi-lo+1 != tt.values {
				t.Fatalf("band [%d, %d]: %d values, want %d", lo, hi, hi-lo+1, tt.values)
			}
			wantCut := 0
			if tt.cut {
				wantCut = 1
			}
			if got := tt.p.CutShort(); got != wantCut {
				t.Errorf("CutShort: got %d, want %d", got, wantCut)
			}
			s := Defaults()
			most := 0
			for client := 1; client <= 200; client++ {
				r := ScheduleOf(tt.p, s, client).Retries[0]
				if r.Cut != tt.cut || r.Low != lo || r.High != hi {
					t.Fatalf("client %d: got band [%d, %d] cut %v, want [%d, %d] cut %v", client, r.Low, r.High, r.Cut, lo, hi, tt.cut)
				}
				most = max(most, r.Wait)
			}
			// A draw is lo + (x>>16) mod n, x>>16 at most 65,535.
			if most > lo+ReferenceReach-1 {
				t.Errorf("longest draw %d, want at most %d", most, lo+ReferenceReach-1)
			}
		})
	}
}

// Each rule of the two budgets, by hand, on one process.
func TestBudgetRulesByHand(t *testing.T) {
	type step struct {
		do     string // "fail", "retry", "served", "served retry"
		ok     bool   // what retry says
		tokens int32  // the process's tokens after it, in the budget's units
	}
	for _, tt := range []struct {
		name   string
		budget Budget
		steps  []step
	}{
		{
			// gRPC MAX 4 (4000 thousandths): a retry only while tokens >
			// 2000. 4000 - 1000 = 3000: 6000 > 4000, yes. 2000: 4000 > 4000
			// is false, exactly at MAX/2: no (with >= it would be yes).
			name: "grpc: tokens > MAX/2, exactly at it", budget: Budget{Kind: BudgetGRPC, A: 4, B: 100},
			steps: []step{{"fail", false, 3000}, {"retry", true, 3000}, {"fail", false, 2000}, {"retry", false, 2000},
				{"fail", false, 1000}, {"fail", false, 0}, {"fail", false, 0}}, // never below 0
		},
		{
			// gRPC MAX 2, RATIO 1: tokens start at 2000 and a served attempt
			// gives 1000, never above MAX: still 2000. A failure then leaves
			// 1000: 2000 > 2000 is false, no retry. (Uncapped it would be
			// 3000, then 2000, and 4000 > 2000 would retry.)
			name: "grpc: RATIO refills up to MAX", budget: Budget{Kind: BudgetGRPC, A: 2, B: 1000},
			steps: []step{{"served", false, 2000}, {"fail", false, 1000}, {"retry", false, 1000},
				{"served retry", false, 2000}, {"served", false, 2000}},
		},
		{
			// gRPC RATIO 0.001: a served attempt gives 1 thousandth.
			name: "grpc: RATIO in thousandths", budget: Budget{Kind: BudgetGRPC, A: 1, B: 1},
			steps: []step{{"fail", false, 0}, {"served", false, 1}, {"served", false, 2}, {"retry", false, 2}},
		},
		{
			// AWS QUOTA 10, COST 5: a retry needs 5 and takes them. 10 -> 5;
			// 5 is exactly the cost: allowed (with <= for <, refused), 0
			// left; then 0 < 5, refused, nothing taken.
			name: "aws: cost exactly the tokens left", budget: Budget{Kind: BudgetAWS, A: 10, B: 5},
			steps: []step{{"retry", true, 5}, {"retry", true, 0}, {"retry", false, 0}, {"fail", false, 0}},
		},
		{
			// AWS QUOTA 10, COST 5: a served retry gives the cost back, a
			// served first attempt 1, never above the quota. 10 -> 5 -> 0;
			// a first attempt served: 1; a retry served: 6; a first: 7; a
			// retry: 12, capped at 10.
			name: "aws: a first attempt's refund of 1", budget: Budget{Kind: BudgetAWS, A: 10, B: 5},
			steps: []step{{"retry", true, 5}, {"retry", true, 0}, {"served", false, 1}, {"served retry", false, 6},
				{"served", false, 7}, {"served retry", false, 10}, {"served", false, 10}},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bs := newBudgets(tt.budget, 1, 1)
			for i, st := range tt.steps {
				ok := false
				switch st.do {
				case "fail":
					bs.failed(0)
				case "retry":
					ok = bs.retry(0)
				case "served":
					bs.served(0, false)
				case "served retry":
					bs.served(0, true)
				}
				if ok != st.ok || bs.tokens[0] != st.tokens {
					t.Fatalf("step %d, %s: got %v and %d tokens, want %v and %d", i+1, st.do, ok, bs.tokens[0], st.ok, st.tokens)
				}
			}
		})
	}
}

// The budgets' rules as a crowd meets them, and a slot's capacity where
// it is uneven: each case by hand, (t, c) being client c's attempt at t ms.
func TestBudgetAndCapacityCrowdsByHand(t *testing.T) {
	every100 := everyWait(100, 10)
	for _, tt := range []struct {
		name   string
		policy Policy
		s      func(s *Settings)
		check  func(f Figures) bool
		want   string
	}{
		{
			// gRPC MAX 4, the service down all along. (0, 1) fails: 3
			// tokens, 6000 > 4000, it retries at 100. (100, 1) fails: 2
			// tokens, exactly MAX/2: throttled. 2 attempts. (With >= it
			// would retry at 200, fail with 1 left, and then be throttled:
			// 3 attempts.)
			name: "grpc: exactly MAX/2 tokens left throttles", policy: every100,
			s:     func(s *Settings) { s.Clients, s.Outage, s.Budget = 1, 100000, Budget{Kind: BudgetGRPC, A: 4, B: 100} },
			check: func(f Figures) bool { return f.Attempts == 2 && f.Retries == 1 && f.Throttled == 1 },
			want:  "2 attempts, 1 retry, 1 throttled",
		},
		{
			// AWS QUOTA 10, COST 5, 2 clients, the service back at 100.
			// (0, 1) fails: 10 >= 5, 5 left, it retries. (0, 2) fails: 5 is
			// exactly the cost: it retries, 0 left. (100, 1) and (100, 2)
			// are served, each giving 5 back. (With <= for <, client 2
			// would be throttled.)
			name: "aws: cost exactly the tokens left", policy: every100,
			s:     func(s *Settings) { s.Clients, s.Outage, s.Budget = 2, 100, Budget{Kind: BudgetAWS, A: 10, B: 5} },
			check: func(f Figures) bool { return f.Attempts == 4 && f.Through == 2 && f.Throttled == 0 },
			want:  "4 attempts, 2 through, none throttled",
		},
		{
			// AWS QUOTA 6, COST 5, 3 attempts. One crowd client; a load of 1
			// a second until 2000 ms: clients 2 (at 0) and 3 (at 1000). The
			// service is up from 0, serving 1 a second in 1 s slots. (0, 1)
			// fails (the trigger): 6 >= 5, 1 left, it retries at 100. (0, 2)
			// is served, slot 0's one place: a first attempt gives back 1:
			// 2 tokens. (100, 1) is rejected (slot 0 is full): 2 < 5,
			// throttled. (1000, 3) is served. (Were a first attempt to give
			// back the cost, 6 tokens would let client 1 retry at 200, be
			// rejected again, and give up after its 3rd attempt.)
			name: "aws: a first attempt gives back 1", policy: everyWait(100, 3),
			s: func(s *Settings) {
				s.Clients, s.Outage, s.Slot, s.Capacity, s.Load, s.LoadUntil = 1, 0, 1000, 1, 1, 2000
				s.Budget = Budget{Kind: BudgetAWS, A: 6, B: 5}
			},
			check: func(f Figures) bool {
				return f.Clients == 3 && f.Attempts == 4 && f.Retries == 1 && f.Served == 2 && f.Rejected == 1 &&
					f.Throttled == 1 && f.GaveUp == 0 && f.StableFrom == 1000
			},
			want: "3 clients, 4 attempts, 1 retry, 2 served, 1 rejected, 1 throttled, stable from 1000",
		},
		{
			// A capacity of 1 a second in 1 ms slots: cap(i) =
			// floor((i+1)/1000) - floor(i/1000), 0 but in the last
			// millisecond of each second. A client failing at 0 and
			// retrying at 998 is rejected there and gives up (2 attempts);
			// at 999 it is served.
			name: "uneven slots: cap(998) = 0", policy: everyWait(998, 2),
			s:     func(s *Settings) { s.Clients, s.Outage, s.Slot, s.Capacity = 1, 0, 1, 1 },
			check: func(f Figures) bool { return f.Rejected == 1 && f.GaveUp == 1 && f.Served == 0 && f.SlotCapacity == 1 },
			want:  "1 rejected, gave up, slot capacity ceil(1*1/1000) = 1",
		},
		{
			name: "uneven slots: cap(999) = 1", policy: everyWait(999, 2),
			s:     func(s *Settings) { s.Clients, s.Outage, s.Slot, s.Capacity = 1, 0, 1, 1 },
			check: func(f Figures) bool { return f.Rejected == 0 && f.Through == 1 && f.AllThroughBy == 999 },
			want:  "through at 999",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := Defaults()
			tt.s(&s)
			for way, f := range runWays(t, tt.policy, s) {
				if !tt.check(f) {
					t.Errorf("%s: got %+v, want %s", way, f, tt.want)
				}
			}
		})
	}
}

// cap(i) = floor(C*(i+1)*S/1000) - floor(C*i*S/1000): uneven where C*S is
// no whole number of thousands, and each second's slots serve C in all.
func TestSlotCapacityByHand(t *testing.T) {
	for _, tt := range []struct {
		capacity, slot int
		want           []int // slots 0, 1, ...
	}{
		// 3 a second in 400 ms slots: 1.2 a slot: floor(1.2), floor(2.4) -
		// 1, floor(3.6) - 2, floor(4.8) - 3, 6 - 4: 1, 1, 1, 1, 2 (6 in 2 s).
		{3, 400, []int{1, 1, 1, 1, 2}},
		// 7 a second in 300 ms slots: 2.1 a slot: 2 for nine slots, then 21
		// - 18 = 3 (21 in 3 s).
		{7, 300, []int{2, 2, 2, 2, 2, 2, 2, 2, 2, 3}},
		// 1 a second in 250 ms slots: 0, 0, 0, 1.
		{1, 250, []int{0, 0, 0, 1, 0, 0, 0, 1}},
		// 1000 a second in 1 ms slots: 1 each.
		{1000, 1, []int{1, 1, 1}},
		// 2500 a second in 1 ms slots: 2, 3 (2.5 a slot), then again.
		{2500, 1, []int{2, 3, 2, 3}},
	} {
		s := Defaults()
		s.Capacity = tt.capacity
		for i, want := range tt.want {
			if got := s.SlotCapacity(i, tt.slot); got != want {
				t.Errorf("capacity %d, %d ms slots: cap(%d) got %d, want %d", tt.capacity, tt.slot, i, got, want)
			}
		}
	}
	if got := Defaults().SlotCapacity(3, 100); got != -1 {
		t.Errorf("no capacity: got %d, want -1", got)
	}
}

// engineProbe is a Stop for Options that never stops a run, and counts
// the times it is asked from the engine's own code (a method of *engine on
// the stack) and from anywhere else.
func engineProbe() (stop func() bool, fromEngine, elsewhere *atomic.Int64) {
	fromEngine, elsewhere = new(atomic.Int64), new(atomic.Int64)
	stop = func() bool {
		pcs := make([]uintptr, 64)
		frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
		for {
			f, more := frames.Next()
			if strings.Contains(f.Function, "/backoff.(*engine).") {
				fromEngine.Add(1)
				return false
			}
			if !more {
				break
			}
		}
		elsewhere.Add(1)
		return false
	}
	return stop, fromEngine, elsewhere
}

// A crowd without a service whose horizon passes maxFastSlots runs the
// engine: the Stop it is given is asked from the engine's code. With a
// short horizon the same crowd takes the fast path, which is not the
// engine; told to, the engine runs it.
func TestLongHorizonsRunTheEngineItself(t *testing.T) {
	long := Defaults()
	long.Clients, long.Slot, long.Outage = 40, 1, 30_000_000 // 1 ms slots over 8 h 20 min
	p := Policy{Name: "long", FirstWait: 200_000, LongestWait: MaxWait, Multiplier: 3000, Attempts: 30, Jitter: Jitter{Kind: JitterFull}}
	// 40 clients retrying 29 times over 29 s, every retry failing: the
	// engine's run has well over 64 busy buckets, and asks Stop.
	short := long
	short.Slot, short.Outage = 100, 600_000
	q := Policy{Name: "short", FirstWait: 1000, LongestWait: 1000, Multiplier: 1000, Attempts: 30, Jitter: Jitter{Kind: JitterFull}}
	for _, tt := range []struct {
		name   string
		p      Policy
		s      Settings
		o      Options
		engine bool
	}{
		{"a long horizon", p, long, Options{}, true},
		{"a short one", q, short, Options{}, false},
		{"a short one, told to", q, short, Options{Engine: true}, true},
	} {
		p := tt.p
		pl := newPlan(p, tt.s.Draws)
		if long := fastSlots(pl, tt.s) > maxFastSlots; long != (tt.name == "a long horizon") {
			t.Fatalf("%s: %d slots, past maxFastSlots %v", tt.name, fastSlots(pl, tt.s), long)
		}
		stop, fromEngine, elsewhere := engineProbe()
		o := tt.o
		o.Stop = stop
		r, err := run(t, p, tt.s, o)
		if err != nil {
			t.Fatal(err)
		}
		if ran := fromEngine.Load() > 0; ran != tt.engine || tt.engine && elsewhere.Load() > 0 {
			t.Errorf("%s: Stop asked %d times from the engine, %d from elsewhere; want the engine to run: %v",
				tt.name, fromEngine.Load(), elsewhere.Load(), tt.engine)
		}
		if want, _ := modelRun(t, p, tt.s); r.Figures != want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, r.Figures, want)
		}
	}
}

// sameEngineRun fails unless Run asks its Stop from the engine's code as
// often as a run with Options{Engine: true} does, and never from elsewhere;
// it reports whether the engine asked at all (it asks every 64 busy
// buckets, so a run of few attempts may not: then the two cannot be told
// apart this way).
func sameEngineRun(t *testing.T, i int, p Policy, s Settings) bool {
	t.Helper()
	stop, got, gotElsewhere := engineProbe()
	if _, err := run(t, p, s, Options{Stop: stop}); err != nil {
		t.Fatalf("case %d: %v", i, err)
	}
	stop, want, _ := engineProbe()
	if _, err := run(t, p, s, Options{Stop: stop, Engine: true}); err != nil {
		t.Fatalf("case %d: %v", i, err)
	}
	if got.Load() != want.Load() || gotElsewhere.Load() != 0 {
		t.Errorf("case %d: Run asked Stop %d times from the engine and %d from elsewhere, the engine %d times; want the engine to run",
			i, got.Load(), gotElsewhere.Load(), want.Load())
	}
	return want.Load() > 0
}
