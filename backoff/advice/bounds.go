package advice

import (
	"math"

	"github.com/retryplanner/retry-planner/backoff"
)

// Bounds: what arithmetic alone says of the goals, before any crowd runs.
// Each bound holds for every client policy, budget and number of attempts
// (the candidates the search tries and every other), and for the
// service's remedies the search tries with AlsoService, which only shorten
// the queue, drop expired requests or serve the newest first; it takes
// the scenario's crowd, outage, capacity, slot, load, load window and
// timeout as they are. The arithmetic, from MODEL.md sections 3 to 6:
//
//   - The crowd's N first attempts fail (whatever the outage), and so do
//     those of the fresh requests that arrive before the outage's end,
//     F(O) of them, where F(t) = ceil(min(t, U)*L/1000) is the fresh
//     arrivals before t: D = N + F(O) clients must try again to get
//     through, and none is served before the outage's end O.
//   - The service completes at most cap[a, b) attempts at times in [a, b)
//     from O on: floor(C*b/1000) - floor(C*a/1000) with a queue (its
//     capacity per ms), else the capacities of the slots [a, b) meets;
//     without a capacity, any number.
//   - A candidate meets goals g1..gk when each holds at the 95th
//     percentile over n seeds, each then in at least ceil(0.95n) seeds; k
//     of them, k <= 6, share at least k*ceil(0.95n) - (k-1)*n > 0 seeds: a
//     candidate meets several goals only where one seed meets them all, so
//     a bound on one run binds them together. A seed meeting
//     not-through<=P% loses at most floor(P*M/100000) clients, M being all
//     the clients (the clients touched are no more).
//
// The bounds (Bound.Kind):
//
//   - Overloaded: the fresh requests of the load's last second,
//     [max(O, U-1000), U), are first attempts that reach the service
//     whatever the clients do; when they are more than it can take there
//     (its capacity, plus a queue of Q at most, and with a timeout T those
//     sent before U-T must be completed within it) one of them is
//     rejected, or one times out, is wasted or dropped, in that second:
//     every seed is still overloaded and recovered<=T is never met.
//   - Peak: the fresh requests in one slot from O on are attempts after
//     back: peak_after_back is at least the most of them in a slot.
//   - Attempts (with not-through): every client makes a first attempt, and
//     each of the D that gets through at least one more: attempts are at
//     least M + D less the clients lost.
//   - Latency (with not-through): a client of the crowd is served no
//     sooner than O, one of the D no sooner than O either; of them, at
//     most cap[O, X+1) of the crowd and cap[O, max(X+1, O+X)) in all can be served
//     within X of their start. The rest that get through wait longer; a
//     p99 of X allows at most floor(through/100) of those.
//   - Drain (a note, not an impossibility): with at most lost clients
//     lost, the last client through is served no sooner than the first t
//     with cap[O, t) >= N + F(t) - lost: the backlog of the outage and the
//     load that keeps arriving, against the capacity.
type Bound struct {
	Kind BoundKind
	// Goal is the goal the bound rules out (Overloaded, PeakFloor,
	// AttemptsFloor, LatencyFloor) or concerns (Drain); With, the
	// not-through goal it is held with (AttemptsFloor, LatencyFloor,
	// Drain), where HasWith.
	Goal, With Goal
	HasWith    bool
	// Impossible: no candidate can meet Goal (and With, together).
	Impossible bool
	// Breaker: no candidate without a circuit breaker can meet Goal
	// (Overloaded, PeakFloor), as the fresh load alone decides; a breaker
	// can, failing requests at the client before they reach the service
	// (MODEL.md section 7), so the search, which tries breakers, keeps it.
	Breaker bool

	Clients int // M: the crowd and the fresh requests, N + F(U)
	Crowd   int // N
	Backlog int // D = N + F(O): the clients whose first attempt fails
	Lost    int // the most clients With allows lost: floor(P*M/100000); 0 without With
	// From and To are the window the bound counts in, ms: [From, To).
	From, To int
	Arrive   int // the fresh requests that arrive in it (Overloaded, PeakFloor)
	Serve    int // the most the service completes in it; math.MaxInt without a capacity
	Queue    int // Overloaded: the most its queue holds, any remedy's included
	// Timeout, for Overloaded, is the timeout when it decides: Arrive are
	// those sent in [From, To-Timeout), each to be completed by To.
	Timeout int
	// Floor is the least the figure can be: the peak, the attempts, the p99
	// in ms, the ms after the outage's end when the last client can be
	// through (Drain).
	Floor int
	// Slow and Allowed, for LatencyFloor: the clients of the backlog that
	// must wait longer than the goal's p99, and the most a p99 allows, a
	// hundredth of every client.
	Slow, Allowed int
	// Most is the most of the figure the goal allows (Verdict.Most).
	Most int
	// What would lift the bound: Needs, the least capacity a second
	// (Overloaded, PeakFloor with peak<=Fx, LatencyFloor; 0 when none up to
	// backoff.MaxCapacity does); MeetGoal, the least limit of Goal's kind
	// the bound allows (PeakFloor, AttemptsFloor, LatencyFloor); LostGoal,
	// the not-through goal that would allow Goal (AttemptsFloor,
	// LatencyFloor). Has* say which are set.
	Needs              int
	MeetGoal, LostGoal Goal
	HasMeet, HasLost   bool
}

// BoundKind is what a bound counts.
type BoundKind int

const (
	Overloaded    BoundKind = iota // the load's last second against the capacity
	PeakFloor                      // the fresh requests in a slot against a peak goal
	AttemptsFloor                  // attempts against the crowd's second attempts
	LatencyFloor                   // the backlog against the capacity within the p99
	Drain                          // when the last client can be through (a note)
)

// arithmetic is a scenario's numbers as the bounds use them.
type arithmetic struct {
	s          backoff.Settings
	n, o, u    int64
	all        int64 // M: N + F(U)
	queue      bool
	cap, slot  int64
	load       int64
	timeout    int64
	queueLimit int64 // the scenario's queue: the longest any remedy has
}

func arithmeticOf(s backoff.Settings) arithmetic {
	return arithmetic{s: s, n: int64(s.Clients), o: int64(s.Outage), u: int64(s.LoadEnd()), all: int64(s.Clients + s.FreshRequests()),
		queue: s.HasQueue(), cap: int64(s.Capacity), slot: int64(s.Slot), load: int64(s.Load), timeout: int64(s.Timeout), queueLimit: int64(s.Queue)}
}

// fresh is F(t): the fresh requests that arrive before t.
func (a arithmetic) fresh(t int64) int64 {
	t = min(max(t, 0), a.u)
	if a.load <= 0 || t <= 0 {
		return 0
	}
	return (t*a.load + 999) / 1000
}

// backlog is D: the crowd and the fresh requests that arrive while the
// service is down.
func (a arithmetic) backlog() int64 { return a.n + a.fresh(a.o) }

// serve is cap[from, to): the most attempts the service can complete at
// times in [from, to), from the outage's end on; math.MaxInt64 without a
// capacity.
func (a arithmetic) serve(from, to int64) int64 {
	from = max(from, a.o)
	if to <= from {
		return 0
	}
	if a.cap <= 0 {
		return math.MaxInt64
	}
	if a.queue {
		return a.cap*to/1000 - a.cap*from/1000
	}
	first, end := from/a.slot, (to-1)/a.slot+1 // the slots [from, to) meets
	return a.cap*end*a.slot/1000 - a.cap*first*a.slot/1000
}

// lost is the most clients not-through<=P% allows lost in a seed: P% of
// every client, the clients touched being no more; every client without
// one.
func (a arithmetic) lost(gs Goals) (int64, Goal, bool) {
	if g, ok := gs.Get(NotThrough); ok {
		return int64(g.Most(int(a.all))), g, true
	}
	return a.all, Goal{}, false
}

// Bounds are what arithmetic says of the search's goals: each goal no
// client policy can meet (Impossible), and the notes that explain what a
// goal costs (Drain); in the goals' order.
func (sr Search) Bounds() []Bound {
	s := sr.Settings
	a := arithmeticOf(s)
	lost, with, hasWith := a.lost(sr.Goals)
	var out []Bound
	base := func(k BoundKind, g Goal) Bound {
		b := Bound{Kind: k, Goal: g, Clients: int(a.all), Crowd: s.Clients, Backlog: int(a.backlog())}
		if hasWith && (k == AttemptsFloor || k == LatencyFloor || k == Drain) {
			b.With, b.HasWith, b.Lost = with, true, int(lost)
		}
		return b
	}
	for _, g := range sr.Goals.List() {
		switch g.Kind {
		case Recovered:
			if b, ok := a.overloaded(base(Overloaded, g)); ok {
				out = append(out, b)
			} else if b, ok := a.drain(base(Drain, g)); ok {
				out = append(out, b)
			}
		case PeakTimes, PeakRate:
			if b, ok := a.peak(base(PeakFloor, g)); ok {
				out = append(out, b)
			}
		case Attempts:
			if b, ok := a.attempts(base(AttemptsFloor, g), lost); ok && hasWith {
				out = append(out, b)
			}
		case P99:
			if b, ok := a.latency(base(LatencyFloor, g), lost); ok && hasWith {
				out = append(out, b)
			}
		}
	}
	return out
}

// Impossible is the goals some bound rules out. A bound held with a
// not-through goal rules out its own goal (attempts, p99), not the
// not-through goal, which the search keeps.
func Impossible(bounds []Bound) Goals {
	var gs Goals
	for _, b := range bounds {
		if b.Impossible {
			gs = gs.With(b.Goal)
		}
	}
	return gs
}

// clip is v as an int, the largest int past it.
func clip(v int64) int {
	return int(min(v, math.MaxInt))
}

// overloaded is the Overloaded bound of a recovered goal, when it holds.
func (a arithmetic) overloaded(b Bound) (Bound, bool) {
	from, ok := a.overloadedAt(a.cap)
	if !ok {
		return b, false
	}
	b.Breaker = true
	b.From, b.To = int(from), int(a.u)
	b.Arrive, b.Serve = int(a.fresh(a.u)-a.fresh(from)), clip(a.serve(from, a.u))
	if a.queue {
		b.Queue = int(a.queueLimit)
		if int64(b.Arrive) <= int64(b.Serve)+a.queueLimit { // the timeout decides
			b.Timeout, b.Arrive = int(a.timeout), int(a.fresh(a.u-a.timeout)-a.fresh(from))
		}
	}
	b.Needs = leastCapacity(a, func(c int64) bool { _, ok := a.overloadedAt(c); return ok })
	return b, true
}

// overloadedAt reports whether, at a capacity of c a second, the load's
// last second, from the returned ms to U, is more than the service can
// take.
func (a arithmetic) overloadedAt(c int64) (int64, bool) {
	a.cap = c
	from := max(a.o, a.u-1000)
	if a.load <= 0 || a.cap <= 0 || a.u <= a.o {
		return from, false
	}
	arrive, serve := a.fresh(a.u)-a.fresh(from), a.serve(from, a.u)
	if !a.queue {
		return from, arrive > serve
	}
	if arrive > serve+a.queueLimit {
		return from, true
	}
	// Sent in [from, U-T), each must be completed within T, by U-1.
	return from, a.timeout > 0 && a.u-a.timeout > from && a.fresh(a.u-a.timeout)-a.fresh(from) > serve
}

// leastCapacity is the least capacity a second, from the scenario's up to
// backoff.MaxCapacity, at which holds says no more; 0 if there is none.
// holds must turn false as the capacity grows, and stay so.
func leastCapacity(a arithmetic, holds func(int64) bool) int {
	lo, hi := a.cap+1, int64(backoff.MaxCapacity)
	if holds(hi) {
		return 0
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if holds(mid) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return int(lo)
}

// peak is the Peak bound of a peak goal, when it holds: the most fresh
// requests in one slot of [O, U).
func (a arithmetic) peak(b Bound) (Bound, bool) {
	if a.load <= 0 || a.u <= a.o {
		return b, false
	}
	from, most := a.busiestSlot()
	b.From, b.To, b.Arrive = int(from), int(min(from+a.slot, a.u)), int(most)
	b.Floor = int(most)
	of := a.s.Slot
	if b.Goal.Kind == PeakTimes {
		of = slotCapacity(a.s)
	}
	b.Most = b.Goal.Most(of)
	if most <= int64(b.Most) {
		return b, false
	}
	b.Breaker = true
	// The least limit in thousandths that allows most against of:
	// ceil(most*1000/of) (peak<=R/s: R a whole rate, ceil(most*1000/S)).
	b.MeetGoal, b.HasMeet = Goal{b.Goal.Kind, clip((most*1000 + int64(of) - 1) / int64(max(of, 1)))}, true
	if b.Goal.Kind == PeakTimes {
		limit := int64(b.Goal.Limit)
		b.Needs = leastCapacity(a, func(c int64) bool {
			s := a.s
			s.Capacity = int(c)
			return most*1000 > limit*int64(slotCapacity(s))
		})
	}
	return b, true
}

// busiestSlot is the slot of [O, U) that the most fresh requests arrive
// in, and how many: the slots' counts repeat with a period of at most 1,000
// slots (the arrivals' phase is slot*load mod 1000), so the first
// thousand and the two partial slots at the ends are enough.
func (a arithmetic) busiestSlot() (from, most int64) {
	consider := func(lo, hi int64) {
		lo, hi = max(lo, a.o), min(hi, a.u)
		if n := a.fresh(hi) - a.fresh(lo); hi > lo && n > most {
			from, most = lo-lo%a.slot, n
		}
	}
	first := a.o / a.slot
	for i := first; i < first+1002 && i*a.slot < a.u; i++ {
		consider(i*a.slot, (i+1)*a.slot)
	}
	last := (a.u - 1) / a.slot
	consider(last*a.slot, (last+1)*a.slot)
	return from, most
}

// attempts is the Attempts bound of an attempts goal: at least M + D -
// lost attempts.
func (a arithmetic) attempts(b Bound, lost int64) (Bound, bool) {
	floor := a.all + a.backlog() - min(lost, a.backlog())
	b.Floor, b.Most = clip(floor), b.Goal.Most(int(a.all))
	if floor <= int64(b.Most) {
		return b, false
	}
	b.Impossible = true
	b.MeetGoal, b.HasMeet = Goal{Attempts, clip((floor*1000 + a.all - 1) / a.all)}, true
	// The share lost that allows the goal's attempts: floor(P*M/100000)
	// >= M + D - most, P = ceil((M + D - most)*100000/M), at most 100%.
	if need := a.all + a.backlog() - int64(b.Most); need <= a.backlog() {
		b.LostGoal, b.HasLost = Goal{NotThrough, clip((need*100000 + a.all - 1) / a.all)}, true
	}
	return b, true
}

// slowAt is how many clients of the backlog that get through must wait
// more than x ms, with at most lost lost, at a capacity of c a second.
func (a arithmetic) slowAt(x, lost, c int64) int64 {
	a.cap = c
	d := a.backlog()
	crowd := min(a.n, a.serve(a.o, x+1)) // the crowd, started at 0, served by x
	quick := d - a.n                     // the rest of the backlog started before O: served by O+x-1 at most
	if served := a.serve(a.o, max(x+1, a.o+x)); served < math.MaxInt64 {
		quick = min(served, crowd+quick)
	} else {
		quick += crowd
	}
	return d - quick - lost
}

// latency is the Latency bound of a p99 goal: the least p99 that the
// backlog allows with at most lost lost.
func (a arithmetic) latency(b Bound, lost int64) (Bound, bool) {
	limit := int64(b.Goal.Limit)
	allowed := a.all / 100 // at most a hundredth of the through wait longer than the p99
	fires := func(x, c int64) bool { return a.slowAt(x, lost, c) > allowed }
	b.From, b.To = int(a.o), int(a.o+limit)
	b.Serve = clip(a.serve(a.o, a.o+limit))
	b.Slow, b.Allowed, b.Most = clip(a.slowAt(limit, lost, a.cap)), int(allowed), b.Goal.Limit
	if !fires(limit, a.cap) {
		return b, false
	}
	b.Impossible = true
	// The least p99 it allows: slowAt only falls as x grows.
	lo, hi := limit+1, int64(MaxTime)+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if fires(mid, a.cap) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	b.Floor = int(lo)
	if lo <= MaxTime {
		b.MeetGoal, b.HasMeet = Goal{P99, int(lo)}, true
	}
	b.Needs = leastCapacity(a, func(c int64) bool { return fires(limit, c) })
	// The share lost that allows it: lost' >= slowAt(limit, 0) - allowed.
	need := a.slowAt(limit, 0, a.cap) - allowed
	b.LostGoal, b.HasLost = Goal{NotThrough, clip((need*100000 + a.all - 1) / a.all)}, need <= a.all
	return b, true
}

// drain is the Drain note of a recovered goal: with at most b.Lost lost
// (none without a not-through goal), the last client through is served no
// sooner than the first t with cap[O, t) >= N + F(t) - lost; a note when
// that is later than the goal's limit after the outage's end.
func (a arithmetic) drain(b Bound) (Bound, bool) {
	t, ok := a.drainedBy(int64(b.Lost))
	if !ok || a.cap <= 0 || t-a.o <= int64(b.Goal.Limit) {
		return b, false
	}
	b.Floor, b.From, b.To = int(t-a.o), int(a.o), int(t)
	return b, true
}

// drainedBy is the first t >= O with cap[O, t) >= N + F(t) - lost, and
// whether there is one within a day of the load's end. The served less
// the arrived need not grow steadily (a load above the capacity, then
// gone; a slot's capacity all at once), so it walks, skipping only the
// ms in which the shortfall cannot be made up: in k ms the service
// completes at most C*k/1000 + 1 more, with slots two whole slots' more
// (the slots that meet [O, t+k) and not [O, t) are at most ceil(k/S) + 1:
// those that start in [t, t+k), and at t = O the one that holds O).
func (a arithmetic) drainedBy(lost int64) (int64, bool) {
	if a.cap <= 0 {
		return a.o, true
	}
	want := func(t int64) int64 { return a.n + a.fresh(t) - lost - a.serve(a.o, t) } // the shortfall at t
	jump := int64(1)                                                                 // the most cap[t, t+k) exceeds C*k/1000 by
	if !a.queue {
		jump += (2*a.cap*a.slot + 999) / 1000
	}
	end := max(a.u, a.o) + int64(MaxTime)
	for t := a.o; t <= end; {
		short := want(t)
		if short <= 0 {
			return t, true
		}
		t += max(1, (short-jump)*1000/a.cap)
	}
	return 0, false
}
