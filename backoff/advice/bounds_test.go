package advice

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// checkRun holds one run of a candidate to every bound's arithmetic, as
// the run's own figures allow: the bounds say what no run can do, so no
// run may do it (see bounds.go). scenario is the search's settings, s the
// candidate's (its budget, its remedies).
func checkRun(t *testing.T, what string, scenario backoff.Settings, f backoff.Figures) {
	t.Helper()
	a := arithmeticOf(scenario)
	if int64(f.Clients) != a.all {
		t.Fatalf("%s: %d clients, the arithmetic says %d", what, f.Clients, a.all)
	}
	// Overloaded: still overloaded in every run but one whose breakers
	// kept attempts from the service.
	if _, ok := a.overloadedAt(a.cap); ok && !f.StillOverloaded && f.ShortCircuited == 0 {
		t.Errorf("%s: the load's last second is more than the service takes, yet it recovered: %+v", what, f)
	}
	// The peak: at least the fresh requests of the busiest slot, likewise.
	if a.load > 0 && a.u > a.o && f.ShortCircuited == 0 {
		if _, most := a.busiestSlot(); int64(f.PeakAfterBack) < most {
			t.Errorf("%s: peak after back %d, below the %d fresh requests of one slot", what, f.PeakAfterBack, most)
		}
	}
	// Attempts: at least M + D less the clients lost.
	if floor := a.all + a.backlog() - min(int64(f.NotThrough), a.backlog()); int64(f.Attempts) < floor {
		t.Errorf("%s: %d attempts with %d lost, below %d", what, f.Attempts, f.NotThrough, floor)
	}
	// Latency: the backlog's clients that must wait longer than the p99
	// are at most a hundredth of those through.
	if f.Through > 0 && f.LatencyP99 >= 0 {
		if slow := a.slowAt(int64(f.LatencyP99), int64(f.NotThrough), a.cap); slow > int64(f.Through/100) {
			t.Errorf("%s: p99 %d ms with %d lost leaves %d of the backlog slower, more than %d: %+v", what, f.LatencyP99, f.NotThrough, slow, f.Through/100, f)
		}
	}
	// Drain: the last client through no sooner than the arithmetic allows.
	if f.AllThroughBy >= 0 {
		if t0, ok := a.drainedBy(int64(f.NotThrough)); ok && int64(f.AllThroughBy)+1 < t0 {
			t.Errorf("%s: all through by %d ms with %d lost, before %d ms", what, f.AllThroughBy, f.NotThrough, t0)
		}
	}
}

// randomScenario is a small scenario: a crowd of up to 300 clients, an
// outage of up to 8 s, a capacity and a load or not, slots of 10 ms to 1
// s, a queue and a timeout or not.
func randomScenario(r *rand.Rand) backoff.Settings {
	s := backoff.Defaults()
	s.Draws = backoff.Independent
	s.Clients = 10 + r.IntN(290)
	s.Outage = []int{0, 1, 999, 3000, 8000}[r.IntN(5)]
	s.Slot = []int{10, 50, 100, 250, 1000}[r.IntN(5)]
	if r.IntN(5) > 0 {
		s.Capacity = 5 + r.IntN(300)
	}
	if r.IntN(4) > 0 {
		s.Load = 1 + r.IntN(400)
		s.LoadUntil = s.Outage + []int{300, 1000, 1500, 7000, 20000}[r.IntN(5)]
	}
	if s.Capacity > 0 && r.IntN(2) == 0 {
		s.Queue = 1 + r.IntN(300)
		if r.IntN(3) > 0 {
			s.Timeout = []int{50, 200, 700, 3000}[r.IntN(4)]
		}
		s.DropExpired, s.QueueOrder = r.IntN(2) == 0, backoff.QueueOrder(r.IntN(2))
	}
	return s
}

// No candidate ever beats a bound: over many scenarios, the candidates the
// search tries (the five, the presets, a sample of the grid, budgets, the
// service's remedies) each hold, run by run, to every bound.
func TestNoCandidateBeatsABound(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 2))
	var crowds backoff.Crowds
	runs := 0
	for range 60 {
		scenario := randomScenario(r)
		if err := scenario.ValidateIn(backoff.WideLimits); err != nil {
			continue
		}
		sr := Search{Settings: scenario, Seeds: 1, Goals: mustGoals(t, "p99<=1s")}
		cs := sr.runnable(sr.policies())
		var tried []Candidate
		for i, c := range cs {
			if c.Source != FromGrid || i%23 == 0 {
				tried = append(tried, c)
			}
		}
		for _, b := range Budgets(scenario.Budget)[:4] {
			for _, c := range tried[:5] {
				s := c.Settings
				s.Budget = b
				tried = append(tried, Candidate{Policy: c.Policy, Settings: s})
			}
		}
		for _, rem := range Remedies(scenario) {
			for _, c := range tried[:5] {
				s := c.Settings
				s.Queue, s.DropExpired, s.QueueOrder, s.RetryAfter = rem.Queue, rem.DropExpired, rem.QueueOrder, rem.RetryAfter
				tried = append(tried, Candidate{Policy: c.Policy, Settings: s})
			}
		}
		// The client's guards (MODEL.md section 7) add no capacity: the
		// search's breakers, and some with the outage hanging.
		for i, b := range Breakers(scenario.Breaker) {
			for _, c := range tried[:3] {
				s := c.Settings
				s.Breaker = b
				if i%3 == 0 {
					s.OutageHang = []int{5, 300, 2000}[r.IntN(3)]
				}
				tried = append(tried, Candidate{Policy: c.Policy, Settings: s})
			}
		}
		for _, c := range tried {
			s := c.Settings
			s.Seed = r.IntN(1000)
			f, err := crowds.Run(c.Policy, s, nil)
			if err != nil {
				continue // a remedy the queue check refuses
			}
			runs++
			checkRun(t, c.Policy.Describe()+" under "+fmtSettings(s), scenario, f)
		}
	}
	if runs < 2000 {
		t.Errorf("%d runs held to the bounds, want 2,000 at least", runs)
	}
}

func fmtSettings(s backoff.Settings) string { return fmt.Sprintf("%+v", s) }

// boundOf is the bound of goal kind k in a search of these goals, if any.
func boundOf(t *testing.T, s backoff.Settings, k Kind, goals ...string) (Bound, bool) {
	t.Helper()
	for _, b := range (Search{Settings: s, Seeds: 1, Goals: mustGoals(t, goals...)}).Bounds() {
		if b.Goal.Kind == k {
			return b, true
		}
	}
	return Bound{}, false
}

// Each bound on its boundary, worked by hand.
func TestBoundsByHand(t *testing.T) {
	// Overloaded, no queue: 15 a second in slots of 100 ms from 19 s to 20 s
	// serve floor(15*200) - floor(15*190) = 15; a load of 15 arrives there
	// (ceil(20000*15/1000) - ceil(19000*15/1000) = 300 - 285): it fits; 16
	// does not, and needs a capacity of 16.
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Slot, s.LoadUntil = 100, 5000, 15, 100, 20000
	for _, tt := range []struct {
		load  int
		fires bool
	}{{15, false}, {16, true}} {
		s.Load = tt.load
		b, ok := boundOf(t, s, Recovered, "recovered<=60s")
		if fires := ok && b.Kind == Overloaded; fires != tt.fires {
			t.Errorf("load %d against 15 a second: overloaded %v, want %v (%+v)", tt.load, fires, tt.fires, b)
		} else if fires && (b.Arrive != 16 || b.Serve != 15 || b.From != 19000 || b.To != 20000 || b.Needs != 16 || b.Impossible || !b.Breaker) {
			t.Errorf("load 16: got %+v, want 16 arriving in [19000, 20000) against 15, needing 16", b)
		}
	}
	// With a queue of 20 and no timeout: 15 + 20 = 35 fit, 36 do not. With
	// a timeout of 500 ms, those sent in [19 s, 19.5 s) must be done by 20
	// s: a load of 30 sends 15 there, 32 sends 16, more than 15.
	s.Queue = 20
	for _, tt := range []struct {
		load, timeout int
		fires         bool
		arrive        int
	}{{35, 0, false, 0}, {36, 0, true, 36}, {30, 500, false, 0}, {32, 500, true, 16}} {
		s.Load, s.Timeout = tt.load, tt.timeout
		b, ok := boundOf(t, s, Recovered, "recovered<=60s")
		if fires := ok && b.Kind == Overloaded; fires != tt.fires || fires && (b.Arrive != tt.arrive || b.Serve != 15 || b.Queue != 20 || b.Timeout != tt.timeout) {
			t.Errorf("queue 20, load %d, timeout %d: got %v %+v; want fires %v, %d arriving", tt.load, tt.timeout, fires, b, tt.fires, tt.arrive)
		}
	}
	// Peak: 15 a second in 100 ms slots sends 2 in the busiest (at 0, 66
	// ms); a capacity of 15 serves ceil(1.5) = 2 a slot: peak<=1x holds 2.
	// At 10 a second a slot serves 1: peak<=1x is ruled out, peak<=2x is the
	// least it allows, and 11 a second (ceil(1.1) = 2 a slot) is the
	// capacity it needs.
	s = backoff.Defaults()
	s.Clients, s.Outage, s.Slot, s.Load, s.LoadUntil = 100, 0, 100, 15, 10000
	for _, tt := range []struct {
		capacity int
		fires    bool
	}{{15, false}, {10, true}} {
		s.Capacity = tt.capacity
		b, ok := boundOf(t, s, PeakTimes, "peak<=1x")
		if ok != tt.fires || ok && (b.Floor != 2 || b.Most != 1 || b.MeetGoal != (Goal{PeakTimes, 2000}) || b.Needs != 11) {
			t.Errorf("capacity %d: got %v %+v; want fires %v, 2 against 1, peak<=2x, 11 a second", tt.capacity, ok, b, tt.fires)
		}
	}
	// 2 in a 100 ms slot is 20 a second: peak<=20/s holds, 19/s does not.
	for _, tt := range []struct {
		goal  string
		fires bool
	}{{"peak<=20/s", false}, {"peak<=19/s", true}} {
		if _, ok := boundOf(t, s, PeakRate, tt.goal); ok != tt.fires {
			t.Errorf("%s: ruled out %v, want %v", tt.goal, ok, tt.fires)
		}
	}
	// Attempts: 1,000 clients, no load, 1% lost at most (10): at least
	// 1,000 + 1,000 - 10 = 1,990 attempts, attempts<=1.99x allows 1,990;
	// 1.989x allows 1,989. Ruled out, 1.99x is the least it allows, and
	// not-through<=1.1% (11 lost) would allow 1,989.
	s = backoff.Defaults()
	s.Clients, s.Outage = 1000, 10000
	for _, tt := range []struct {
		goal  string
		fires bool
	}{{"attempts<=1.99x", false}, {"attempts<=1.989x", true}} {
		b, ok := boundOf(t, s, Attempts, tt.goal, "not-through<=1%")
		if ok != tt.fires || ok && (b.Floor != 1990 || b.Most != 1989 || b.Lost != 10 || b.MeetGoal != (Goal{Attempts, 1990}) || b.LostGoal != (Goal{NotThrough, 1100})) {
			t.Errorf("%s: got %v %+v", tt.goal, ok, b)
		}
	}
	if _, ok := boundOf(t, s, Attempts, "attempts<=1x"); ok {
		t.Error("attempts<=1x without a not-through goal: ruled out, though every client may be lost")
	}
	// Latency: 1,000 clients back at 10 s, 100 a second with a queue, 1%
	// lost (10), a hundredth slower (10): 980 must be served within the p99,
	// by floor((X+1)/10) - 1000 >= 980, X >= 19,799 ms.
	s.Capacity, s.Queue = 100, 1000
	for _, tt := range []struct {
		goal  string
		fires bool
	}{{"p99<=19799ms", false}, {"p99<=19798ms", true}} {
		b, ok := boundOf(t, s, P99, tt.goal, "not-through<=1%")
		if ok != tt.fires || ok && (b.Floor != 19799 || b.MeetGoal != (Goal{P99, 19799}) || b.Slow != 11 || b.Allowed != 10) {
			t.Errorf("%s: got %v %+v", tt.goal, ok, b)
		}
	}
	// Without a capacity the crowd waits the outage at least: p99<=9999ms
	// is ruled out with 1% lost, p99<=10s is not.
	s.Capacity, s.Queue = 0, 0
	for _, tt := range []struct {
		goal  string
		fires bool
	}{{"p99<=10s", false}, {"p99<=9999ms", true}} {
		if _, ok := boundOf(t, s, P99, tt.goal, "not-through<=1%"); ok != tt.fires {
			t.Errorf("no capacity, %s: ruled out %v, want %v", tt.goal, ok, tt.fires)
		}
	}
	// Drain: 1,000 clients and 50 a second from 0 to 10 s wait (1,500); a
	// queue of 100 a second and the load going on: floor(t/10) - 1000 >=
	// 1000 + ceil(t/20) first at t = 40,000 ms, 30 s after the outage.
	s.Capacity, s.Queue, s.Load, s.LoadUntil = 100, 1000, 50, 1000000
	b, ok := boundOf(t, s, Recovered, "recovered<=29999ms")
	if !ok || b.Kind != Drain || b.Impossible || b.Floor != 30000 || b.Backlog != 1500 {
		t.Errorf("drain: got %v %+v, want a note of 30 s for a backlog of 1,500", ok, b)
	}
	if _, ok := boundOf(t, s, Recovered, "recovered<=30s"); ok {
		t.Error("drain: a note for recovered<=30s, which the drain does not pass")
	}
}

// The issue's scenario (issue 24 item 2): 120,000 clients, 4,000 a second
// with 3,000 a second of load, 45 s down, a queue of 10,000 and 3 s
// timeouts: 120,000 + 45 s of 3,000 a second = 255,000 wait when the
// service is back, with 1,000 a second to spare: 4 min 15 s at least to
// get them all through while the load goes on (to 10 min here). With the
// default load window, the load stops 1 min after the outage: 315,000
// fresh requests in all, and 4*(t - 45000) >= 435,000 first at 153,750
// ms, 1 min 48.75 s after it.
func TestBoundsOfTheIssuesScenario(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Capacity, s.Load, s.Outage, s.Queue, s.Timeout, s.LoadUntil = 120000, 4000, 3000, 45000, 10000, 3000, 600000
	for _, tt := range []struct {
		until, floor int
	}{{600000, 255000}, {backoff.DefaultLoadUntil, 108750}} {
		s.LoadUntil = tt.until
		b, ok := boundOf(t, s, Recovered, "recovered<=60s")
		if !ok || b.Kind != Drain || b.Backlog != 255000 || b.Floor != tt.floor {
			t.Errorf("load until %d: got %v %+v, want a backlog of 255,000 and %d ms", tt.until, ok, b, tt.floor)
		}
	}
}

// When the fresh load alone decides a goal (the load's last second above
// what the service takes, a slot's arrivals above a peak goal), no client
// policy without a breaker meets it: the bounds say so first, and the
// search, which tries breakers, finds only candidates with one that do,
// their requests failed at the client.
func TestOnlyABreakerMeetsWhatTheLoadDecides(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Slot, s.Load, s.LoadUntil = 100, 5000, 15, 100, 16, 20000
	// 16 a second against 15 (see TestBoundsByHand); 2 in a slot against
	// the 1 that peak<=0.5x of ceil(1.5) = 2 a slot allows.
	sr := Search{Settings: s, Seeds: 20, Goals: mustGoals(t, "recovered<=60s", "peak<=0.5x")}
	adv, err := search(t, sr, Options{Workers: 2})
	if err != nil || len(adv.Bounds) != 2 || Impossible(adv.Bounds).Len() != 0 || !adv.Search.Goals.Same(sr.Goals) {
		t.Fatalf("got %v, bounds %+v, searched %v", err, adv.Bounds, adv.Search.Goals)
	}
	for _, b := range adv.Bounds {
		if !b.Breaker {
			t.Errorf("%s: not said to need a breaker: %+v", b.Goal, b)
		}
	}
	if len(adv.Meets) == 0 {
		t.Fatalf("nothing meets; closest %v", adv.Closest)
	}
	for _, c := range adv.Meets {
		if !c.Settings.Breaker.On() {
			t.Errorf("%s meets without a breaker: %v", c.Name(s), c.Verdicts)
		}
	}
}

// More bounds on their edges: the busiest slot of a load of 11 a second
// in 100 ms slots holds 2 only where two arrivals share one (0 and 90 ms,
// 1,000 and 1,090 ms), once every tenth slot: from 100 ms on, not before
// 1 s; a hundredth of 1,980 clients is 19, not 20; the capacity a load of
// 100 a second needs is 100, far above the scenario's 15.
func TestBoundsAtTheirEdges(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Slot, s.Load, s.LoadUntil, s.Capacity = 100, 100, 100, 11, 5000, 1000
	b, ok := boundOf(t, s, PeakRate, "peak<=10/s") // 1 a slot
	if !ok || b.Floor != 2 || b.From != 1000 {
		t.Errorf("load 11 a second from 100 ms: got %v %+v, want 2 in the slot from 1 s", ok, b)
	}
	// 1,980 clients: 1,000 of the crowd, 980 fresh (98 a second to 10 s);
	// at most 1% lost, 19; a hundredth slower, 19.
	s = backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Queue, s.Load, s.LoadUntil = 1000, 10000, 100, 1000, 98, 10000
	b, ok = boundOf(t, s, P99, "p99<=1s", "not-through<=1%")
	if !ok || b.Allowed != 19 || b.Lost != 19 || b.Clients != 1980 {
		t.Errorf("got %v %+v, want 19 allowed slower and 19 lost of 1,980", ok, b)
	}
	s = backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Slot, s.Load, s.LoadUntil = 100, 5000, 15, 100, 100, 20000
	if b, ok := boundOf(t, s, Recovered, "recovered<=60s"); !ok || b.Needs != 100 {
		t.Errorf("load 100 against 15: got %v %+v, want a capacity of 100 needed", ok, b)
	}
}

// The drain's walk skips no moment the service could catch up at: slots
// of 1 s serving 100 each, the outage ending at 500 ms, 1,000 clients and
// no load: the slot holding 500 ms counts from 501 ms, so 1,000 are
// served first at 9,001 ms (slots 0 to 9), 8,501 ms after the outage; a
// walk that skipped (1000 - 101) * 10 ms from 500 would land at 9,490.
func TestDrainSkipsNothing(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Slot = 1000, 500, 100, 1000
	a := arithmeticOf(s)
	if got, ok := a.drainedBy(0); !ok || got != 9001 {
		t.Errorf("got %d %v, want 9001", got, ok)
	}
	if b, ok := boundOf(t, s, Recovered, "recovered<=1s"); !ok || b.Floor != 8501 {
		t.Errorf("got %v %+v, want a note of 8,501 ms", ok, b)
	}
}

// leastCapacity finds the least capacity at which a bound no longer
// holds, for every threshold: past the scenario's capacity, up to the
// largest; none when it holds at the largest.
func TestLeastCapacity(t *testing.T) {
	a := arithmeticOf(backoff.Defaults())
	a.cap = 10
	for _, least := range []int64{11, 12, 13, 100, 999, 1000, 1001, 65536, 50_000_001, backoff.MaxCapacity} {
		if got := leastCapacity(a, func(c int64) bool { return c < least }); got != int(least) {
			t.Errorf("holding below %d: got %d", least, got)
		}
	}
	for least := int64(11); least < 3000; least++ {
		if got := leastCapacity(a, func(c int64) bool { return c < least }); got != int(least) {
			t.Fatalf("holding below %d: got %d", least, got)
		}
	}
	if got := leastCapacity(a, func(int64) bool { return true }); got != 0 {
		t.Errorf("holding at every capacity: got %d, want 0", got)
	}
}
