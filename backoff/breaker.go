package backoff

import (
	"fmt"
	"strconv"
	"strings"
)

// Breaker is a circuit breaker that every process's clients share, one a
// process (MODEL.md section 7): closed at 0 ms, it opens when Failures
// outcomes in a row were failures, fails every attempt of the process at
// once for Open ms (short-circuited), then lets one attempt through, the
// probe, whose success closes it and whose failure opens it again. The
// zero value is no breaker.
type Breaker struct {
	Failures int // F: the consecutive failures that open it, 1 to MaxBreakerFailures
	Open     int // D: how long it stays open, in ms, 1 to MaxWait
}

// MaxBreakerFailures is the most consecutive failures a breaker may wait
// for.
const MaxBreakerFailures = 1000

// BreakerList is the forms ParseBreaker takes, for messages.
const BreakerList = "none, F:D (F consecutive failures from 1 to 1000, D how long it stays open, from 1 ms to 1 h: 5:30s) or a library's: "

// On reports whether there is a breaker.
func (b Breaker) On() bool { return b != Breaker{} }

// String writes the breaker as ParseBreaker reads it: "none", "5:30s",
// "20:1500ms".
func (b Breaker) String() string {
	if !b.On() {
		return "none"
	}
	d := strconv.Itoa(b.Open) + "ms"
	if b.Open%1000 == 0 {
		d = strconv.Itoa(b.Open/1000) + "s"
	}
	return strconv.Itoa(b.Failures) + ":" + d
}

// ParseBreaker reads "none", "F:D" (D a time as ParseTime reads one: "30s",
// "1500", "1m") or the name of a breaker preset ("gobreaker"), in any case.
func ParseBreaker(s string) (Breaker, error) {
	fail := fmt.Errorf("breaker %q: want %s%s", s, BreakerList, BreakerPresetNames())
	if strings.EqualFold(s, "none") {
		return Breaker{}, nil
	}
	if pr, ok := FindBreakerPreset(s); ok {
		return pr.Breaker, nil
	}
	f, d, ok := strings.Cut(s, ":")
	if !ok {
		return Breaker{}, fail
	}
	var b Breaker
	var okF, okD bool
	b.Failures, okF = ParseCount(f)
	b.Open, okD = ParseTime(strings.ToLower(d))
	if !okF || !okD || !b.On() || b.validate() != nil {
		return Breaker{}, fail
	}
	return b, nil
}

func (b Breaker) validate() error {
	switch {
	case !b.On():
		return nil
	case b.Failures < 1 || b.Failures > MaxBreakerFailures:
		return fmt.Errorf("breaker: %d consecutive failures is not from 1 to %d: write F:D, such as 5:30s, or none", b.Failures, MaxBreakerFailures)
	case b.Open < 1 || b.Open > MaxWait:
		return fmt.Errorf("breaker: open for %d ms is not from 1 to %d ms (an hour): write F:D, such as 5:30s, or none", b.Open, MaxWait)
	}
	return nil
}

// breakerState is one process's breaker in a run. Closed, it counts the
// failures in a row; open, it short-circuits every attempt before until,
// and from until on lets the first attempt through as the probe, then
// short-circuits every other until the probe's outcome is known.
type breakerState struct {
	fails int  // consecutive failures while closed
	open  bool // open or half-open
	until int64
	probe uint32 // the client whose attempt is the probe; 0 for none
}

// breakerBytes is a breakerState's size: the memory of a process's breaker.
const breakerBytes = 32

// breakers is every process's breaker.
type breakers struct {
	failures int   // F
	open     int64 // D
	procs    uint32
	state    []breakerState
}

func newBreakers(b Breaker, processes int) breakers {
	if !b.On() {
		return breakers{}
	}
	return breakers{failures: b.Failures, open: int64(b.Open), procs: uint32(max(processes, 1)), state: make([]breakerState, max(processes, 1))}
}

// of is client's process's breaker.
func (bs *breakers) of(client uint32) *breakerState {
	if bs.procs == 1 {
		return &bs.state[0]
	}
	return &bs.state[(client-1)%bs.procs]
}

// shorted reports whether client's attempt at t is short-circuited: its
// process's breaker is open and it is not the probe; the first attempt at
// or after the end of the open time becomes the probe. It returns the end
// of the open time as well.
func (bs *breakers) shorted(client uint32, t int64) (until int64, short bool) {
	st := bs.of(client)
	if !st.open {
		return 0, false
	}
	if st.probe != 0 || t < st.until {
		return st.until, true
	}
	st.probe = client
	return st.until, false
}

// outcome is the outcome of n attempts of one process, known at t, from
// client on (n is 1 but for a cohort's): served or failed. It reports
// whether the breaker opened. Closed, each failure adds one to the
// failures in a row and the F-th opens it, a success sets them to 0; open,
// only the probe's outcome counts (a probe goes alone): a success closes
// it, a failure opens it again for D from t.
func (bs *breakers) outcome(client uint32, n int64, t int64, served bool) (opened bool) {
	st := bs.of(client)
	if st.open {
		if st.probe != client {
			return false
		}
		st.probe = 0
		if served {
			st.open, st.fails = false, 0
			return false
		}
		st.until = t + bs.open
		return true
	}
	if served {
		st.fails = 0
		return false
	}
	if st.fails += int(min(n, int64(bs.failures))); st.fails < bs.failures {
		return false
	}
	st.open, st.until = true, t+bs.open
	return true
}

// orderFree reports whether the arrivals at t come out the same in any
// order as far as the breakers go (a budget, and the service's capacity,
// are the caller's to see to): for every process, its breaker
// short-circuits them all (open, and before its open time's end or waiting
// for its probe's outcome); or the service is down and the outage refuses,
// so that each fails at once, failed while down or short-circuited, and its
// client waits w(k) either way; or the service is down, the outage hangs
// and the breaker is closed, so that every arrival hangs and no outcome is
// known at t. It looks at no more than most breakers, and says false where
// there are more.
func (bs *breakers) orderFree(t int64, down, hangs bool, most int) bool {
	if len(bs.state) > most {
		return false
	}
	for i := range bs.state {
		st := &bs.state[i]
		switch {
		case st.open && (t < st.until || st.probe != 0):
		case down && !hangs:
		case down && !st.open:
		default:
			return false
		}
	}
	return true
}

// shortCircuited counts n attempts an open breaker failed at once.
func (e *engine) shortCircuited(n int64) {
	e.f.ShortCircuited += int(n)
	e.slotShort += n
}

// breakerHears tells the breaker the outcome of n attempts from client on
// (a cohort's, or one client's), known at t, and counts the breaker's
// opening if it opened.
func (e *engine) breakerHears(client uint32, n int64, t int64, served bool) {
	if e.brk.outcome(client, n, t, served) {
		e.f.BreakerOpened++
		e.slotOpened++
	}
}

// cohortBreaker takes the attempts at t of cohort p under the breaker of
// its one process, in client order as far as the breaker goes: while it is
// shut (open, before its open time's end or waiting for its probe's
// outcome) they are all short-circuited; where it waits for a probe, the
// lowest goes alone as the probe, and the rest meet what its outcome
// leaves; while it is closed, the cohort meets the service as without a
// breaker, the served (the lowest) first, then the failures, up to the
// F-th, which opens the breaker, the rest short-circuited.
func (e *engine) cohortBreaker(p *pending, t uint32) {
	st := &e.brk.state[0]
	for p.x > 0 {
		if st.open && (int64(t) < st.until || st.probe != 0) {
			n := int64(p.x)
			e.countAttempts(p, n)
			e.shortCircuited(n)
			if e.ahead != nil && int64(t) < st.until {
				e.shortChain(p, t, st.until, n)
				return
			}
			e.cohortFailed(p, t, n, failShort)
			return
		}
		part := *p
		if st.open {
			part.x = 1
			st.probe = part.client
		} else {
			part.x = uint32(e.reachService(p, t, st.fails))
		}
		p.client += part.x
		p.x -= part.x
		first := part.client
		var served, failed int64
		if e.q.limit > 0 {
			failed = e.arriveCohort(&part, t)
		} else {
			served, failed = e.cohort(&part, t)
		}
		if served > 0 {
			e.breakerHears(first, served, int64(t), true)
		}
		if failed > 0 {
			e.breakerHears(first+uint32(served), failed, int64(t), false)
		}
	}
}

// reachService is how many of cohort p's n clients, meeting at t a closed
// breaker with fails failures in a row, reach the service before the
// breaker opens: all where they hang (no outcome is known at t); else the
// served or queued, then failures up to the F-th (the served set the
// failures in a row to 0 first).
func (e *engine) reachService(p *pending, t uint32, fails int) int64 {
	n := int64(p.x)
	if t < e.outage || (p.k() == 1 && p.client <= e.crowd) {
		if e.hang > 0 {
			return n
		}
		return min(n, int64(e.brk.failures-fails))
	}
	ok := n // served, or queued: no failure
	switch {
	case e.q.limit > 0:
		ok = min(n, max(e.q.limit-e.q.len(), 0))
	case e.capacity > 0:
		ok = min(n, max(e.slotCap-e.slotServed, 0))
	}
	if ok > 0 && e.q.limit == 0 {
		fails = 0
	}
	return ok + min(n-ok, int64(e.brk.failures-fails))
}

// countAttempts counts n attempts of cohort p that do not reach the
// service.
func (e *engine) countAttempts(p *pending, n int64) {
	e.f.Attempts += int(n)
	if p.k() >= 2 {
		e.f.Retries += int(n)
		e.slotRetries += n
	}
}

// slotAhead is what shortChain counted in a slot after the current one.
type slotAhead struct{ retries, short int64 }

// maxAhead is the most slots ahead shortChain counts in.
const maxAhead = 1 << 12

// shortCircuit takes client p's attempt at t where its breaker
// short-circuits it, and reports whether it did, and whether the client's
// next attempt comes at t itself, drawn with no wait. Where the breaker
// stays open past t whatever happens (an open breaker changes only at its
// probe's outcome, and its probe comes at the end of its open time or
// later) and there is no budget, shortChain runs the client on.
func (e *engine) shortCircuit(p *pending, t uint32) (short, again bool) {
	until, short := e.brk.shorted(p.client, int64(t))
	if !short {
		return false, false
	}
	e.shortCircuited(1)
	if e.ahead != nil && int64(t) < until {
		e.shortChain(p, t, until, 1)
		return true, false
	}
	return true, e.failed(p, t, failShort)
}

// shortChain goes on from the attempts at t of p (n clients: a cohort's,
// or 1), short-circuited by a breaker shut until until. Every
// attempt they make before then is short-circuited too, and without a
// budget, whose tokens every attempt moves in turn, it changes nothing but
// its own client and its slot's counts: so those are counted here, each in
// its slot (up to maxAhead slots ahead), and only the clients' next attempt
// after that goes in the calendar, which reaches far enough for it (see
// ringReach). They end as after any failure.
func (e *engine) shortChain(p *pending, t uint32, until int64, n int64) {
	pl := e.pl
	limit := int64(-1) // the latest a next attempt may come; -1: no limit
	if pl.maxElapsed > 0 {
		limit = e.start(p.client) + int64(pl.maxElapsed)
	}
	var src source
	if !pl.same {
		src = sourceAt(pl.draws, e.s.Seed, p.client, p.x)
	}
	for {
		e.lastShort = max(e.lastShort, int64(t))
		k := p.k()
		if k >= e.attempts {
			e.f.GaveUp += int(n)
			return
		}
		var w int
		switch {
		case pl.same: // no jitter
			w = pl.lo[k]
		case pl.draws == Independent && pl.kind != JitterDecorrelated:
			w = pl.lo[k] + int(src.lemire(pl.width[k])) // pl.wait, written out for the commonest draws
		default:
			w = pl.wait(int(k), &src, int(p.prev()))
		}
		p.kp = (k + 1) | uint32(w)<<kBits
		next := int64(t) + int64(w)
		if limit >= 0 && next > limit {
			e.f.OutOfTime += int(n)
			return
		}
		if next >= until || !e.countAhead(next, n) {
			p.t = uint32(next)
			if !pl.same {
				p.x = src.word(pl.draws)
			}
			e.insert(p)
			return
		}
		t = uint32(next)
	}
}

// shortAhead takes the next attempt of p (n clients: a cohort's, or 1) at
// next where their breaker is shut past it whatever happens (shortChain
// runs): it counts the attempt short-circuited now, runs them on, and
// reports true; else it does nothing, and the attempt goes in the calendar.
func (e *engine) shortAhead(p *pending, next int64, n int64) bool {
	st := e.brk.of(p.client)
	if !st.open || next >= st.until || !e.countAhead(next, n) {
		return false
	}
	e.shortChain(p, uint32(next), st.until, n)
	return true
}

// countAhead counts n short-circuited retries at t, in the current slot or
// one ahead: false, counting nothing, where that is maxAhead slots or more
// ahead.
func (e *engine) countAhead(t int64, n int64) bool {
	return e.countShort(t, n, 1)
}

// countShort counts n short-circuited attempts at t, retries where retry
// is 1 (first attempts where it is 0), in the current slot or one ahead:
// false, counting nothing, where that is maxAhead slots or more ahead.
func (e *engine) countShort(t int64, n int64, retry int64) bool {
	i := int64(e.slotDiv.div(uint32(t)))
	if i == e.slot {
		e.slotRetries += n * retry
		e.slotShort += n
	} else {
		if i-e.slot >= int64(len(e.ahead)) {
			return false
		}
		a := &e.ahead[i&int64(len(e.ahead)-1)]
		a.retries += n * retry
		a.short += n
		e.aheadLast = max(e.aheadLast, i)
	}
	e.f.Attempts += int(n)
	e.f.Retries += int(n * retry)
	e.f.ShortCircuited += int(n)
	return true
}

// shutThrough reports whether wide bucket b can be taken by shutBucket:
// shortChain runs (a breaker, no budget), there is no queue and no cohort,
// the crowd's first attempts no longer hang, every breaker stays open past
// the bucket's end whatever happens, and the bucket's slots lie within
// those counted ahead.
func (e *engine) shutThrough(b int64) bool {
	if e.ahead == nil || e.q.limit > 0 || e.cohorts || e.crowdHangs || len(e.brk.state) > maxShutCheck {
		return false
	}
	end := (b + 1) << e.bits
	for i := range e.brk.state {
		if st := &e.brk.state[i]; !st.open || st.until < end {
			return false
		}
	}
	return int64(e.slotDiv.div(uint32(end-1)))-e.slot < int64(len(e.ahead))
}

// maxShutCheck is the most breakers shutThrough looks at.
const maxShutCheck = 64

// shutBucket takes wide bucket b, through which every breaker stays shut
// (shutThrough). Every attempt in it is short-circuited, whatever its
// order, and changes nothing but its own client and its slot's counts: so
// the calendar's attempts are taken as they lie, without putting them in
// the order of their milliseconds, then the fresh requests that arrive in
// it, each counted in its slot and run on by shortChain; then the hanging
// attempts that fail in it, in their order (a probe's failure opens its
// breaker again, as shutThrough counted on). Nothing it puts in the
// calendar comes before the bucket's end.
func (e *engine) shutBucket(b int64) {
	r := &e.ring[b&e.ringMask]
	for i := range r.chunks {
		for _, p := range r.part(i) {
			e.shortAt(&p, int64(p.t))
		}
		if e.halt() {
			return
		}
	}
	e.release(r)
	end := (b + 1) << e.bits
	for ; e.nextFresh < e.fresh && e.nextArrive < end; e.nextFresh++ {
		p := newPending(e.pl.draws, e.s.Seed, e.crowd+1+uint32(e.nextFresh), uint32(e.nextArrive), e.pl.first)
		e.shortAt(&p, e.nextArrive)
		e.nextArrive = e.arrival(e.nextFresh + 1)
	}
	h := &e.hangs
	for h.n > 0 && int64(h.front().t)+e.hang < end {
		t := int64(h.front().t) + e.hang
		p := *h.front()
		h.popFront()
		e.enterSlot(t)
		e.breakerHears(p.client, 1, t, false)
		if e.failed(&p, uint32(t), failDown) {
			e.shortAt(&p, t) // a retry with no wait: at t, short-circuited
		}
	}
	e.setDue()
}

// shortAt is client p's attempt at t, short-circuited by a breaker shut
// past t whatever happens: counted in its slot, and run on by shortChain.
func (e *engine) shortAt(p *pending, t int64) {
	retry := int64(0)
	if p.k() >= 2 {
		retry = 1
	}
	e.countShort(t, 1, retry)
	e.shortChain(p, uint32(t), e.brk.of(p.client).until, 1)
}
