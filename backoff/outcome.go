package backoff

// How each attempt of the engine ends (served, rejected or failed while
// down, and then the client's retry or its end), and what each slot adds to
// the figures and the series. A service that queues is in queue.go.

// Series is a run's attempts per slot of Slot ms: index i holds the slot
// [i*Slot, (i+1)*Slot). Served, Rejected and FailedWhileDown are every
// attempt's outcome, the crowd's first attempts included; Retries counts
// the attempts after a client's first, whatever their outcome.
//
// With a queue (Queued), an attempt's outcome may come after it arrived,
// and each is counted where it came: Retries, Rejected and FailedWhileDown
// when the attempt arrived, Served when the service completed it, TimedOut
// when its client gave up waiting, Wasted and Dropped when the service
// reached the expired request; Queue is the queue's length at the slot's
// end. Without a queue these four are nil.
//
// With a breaker (Breaker), ShortCircuited counts the attempts an open
// breaker failed at once, where they were made, and Opened the moments a
// breaker opened; without one both are nil. An attempt that hangs (MODEL.md
// section 7) is counted where it was sent, failed while down.
type Series struct {
	Slot            int
	Retries         []int
	Served          []int
	Rejected        []int
	FailedWhileDown []int
	Queued          bool // the service queues: the four below are kept
	TimedOut        []int
	Wasted          []int
	Dropped         []int
	Queue           []int
	Breaker         bool // the clients have a breaker: the two below are kept
	ShortCircuited  []int
	Opened          []int
	Truncated       bool // the run went on past MaxSeriesSlots slots
}

// Len is how many slots the series holds.
func (s *Series) Len() int { return len(s.Served) }

// Attempts is the outcomes that came in slot i, of every kind: the slot's
// attempts, where there is no queue. Over all slots they add up to the
// attempts.
func (s *Series) Attempts(i int) int {
	n := s.Served[i] + s.Rejected[i] + s.FailedWhileDown[i]
	if s.Queued {
		n += s.TimedOut[i]
	}
	if s.Breaker {
		n += s.ShortCircuited[i]
	}
	return n
}

// extend makes the series hold slot i, the slots before it as they were
// or 0.
func (s *Series) extend(i int) {
	if i < len(s.Served) {
		return
	}
	grow := func(v []int) []int {
		if cap(v) <= i { // doubling: each slot is copied a few times at most
			w := make([]int, len(v), max(2*cap(v), i+1, 64))
			copy(w, v)
			v = w
		}
		n := len(v)
		v = v[:i+1]
		clear(v[n:])
		return v
	}
	s.Retries, s.Served, s.Rejected, s.FailedWhileDown = grow(s.Retries), grow(s.Served), grow(s.Rejected), grow(s.FailedWhileDown)
	if s.Queued {
		s.TimedOut, s.Wasted, s.Dropped, s.Queue = grow(s.TimedOut), grow(s.Wasted), grow(s.Dropped), grow(s.Queue)
	}
	if s.Breaker {
		s.ShortCircuited, s.Opened = grow(s.ShortCircuited), grow(s.Opened)
	}
}

// attempt takes client p's attempt at t, and its retries at once while
// they are drawn with no wait, then puts its next attempt in the calendar
// or ends the client. An attempt that hangs waits in hangs for its failure.
func (e *engine) attempt(p *pending, t uint32) {
	for {
		e.f.Attempts++
		k := p.k()
		retry := k >= 2
		if retry {
			e.f.Retries++
			e.slotRetries++
		}
		if e.brk.state != nil {
			if short, again := e.shortCircuit(p, t); short {
				if !again {
					return
				}
				continue
			}
		}
		if t >= e.outage {
			e.slotAfter++
		}
		how := failDown
		switch {
		case t < e.outage || (k == 1 && p.client <= e.crowd): // down, or the crowd's trigger
			e.f.FailedWhileDown++
			e.slotDown++
			if e.hang > 0 {
				e.hangUp(p, t)
				return
			}
		case e.capacity == 0 || e.slotServed < e.slotCap:
			e.f.Served++
			e.f.Through++
			e.slotServed++
			e.lat = append(e.lat, uint32(int64(t)-e.start(p.client)))
			e.lastServed = int64(t)
			if p.client <= e.crowd {
				e.crowdLastServed = int64(t)
			}
			if e.bud.kind != BudgetNone {
				e.bud.served(int((p.client-1)%e.procs), retry)
			}
			if e.brk.state != nil {
				e.breakerHears(p.client, 1, int64(t), true)
			}
			return
		default:
			e.f.Rejected++
			e.slotRejected++
			if e.load > 0 && int64(t) >= e.loadEnd-1000 && int64(t) < e.loadEnd {
				e.f.StillOverloaded = true
			}
			how = failRejected
		}
		if e.brk.state != nil {
			e.breakerHears(p.client, 1, int64(t), false)
		}
		if !e.failed(p, t, how) {
			return
		}
	}
}

// failure is how an attempt failed, as far as what follows differs.
type failure uint8

const (
	failDown     failure = iota // failed while down (a hang too) or timed out: the client waits w(k)
	failRejected                // rejected: with pushback, the client waits R instead
	failShort                   // short-circuited: no gRPC token is taken
)

// hangUp is client p's attempt at t, which hangs: it fails at t + H, in
// step 1 of that millisecond (failuresDue). A probe that hangs will fail:
// its breaker is shut until D after that, whatever happens, which
// shortChain may run on to.
func (e *engine) hangUp(p *pending, t uint32) {
	p.t = t
	e.hangs.push(p)
	if e.brk.state != nil {
		if st := e.brk.of(p.client); st.open && st.probe == p.client {
			st.until = int64(t) + e.hang + e.brk.open
		}
	}
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

// failuresDue is step 1 at t (MODEL.md sections 6 and 7): the failures
// that come due at t, the timeouts of the requests sent at t - T and the
// attempts sent at t - H that hang, in client order (each of the two
// comes in the order it was sent, which is client order wherever the order
// can change a figure). Each client goes on as after any failure, a retry
// drawn with no wait joining t's arrivals. A timed-out request stays in the
// queue, expired.
func (e *engine) failuresDue(t int64) {
	if e.crowdHangs && t >= e.hang {
		e.crowdFails(t) // the lowest numbers: first
	}
	q, h := &e.q, &e.hangs
	for i := 0; ; i++ {
		timeout := q.timeout > 0 && q.n > 0 && int64(q.front().t)+q.timeout <= t
		hang := h.n > 0 && int64(h.front().t)+e.hang <= t
		if !timeout && !hang {
			return
		}
		if i&4095 == 4095 && e.halt() {
			return
		}
		if timeout && hang {
			timeout = q.front().client < h.front().client
		}
		var p pending
		if timeout {
			p = *q.front()
			q.popFront()
			n := int64(1)
			if e.cohorts {
				n = int64(p.src.x)
			}
			q.live -= n
			q.expired += n
			e.f.TimedOut += int(n)
			e.slotTimedOut += n
			e.busy(uint32(t))
		} else {
			p = *h.front()
			h.popFront()
		}
		if e.cohorts {
			if e.brk.state != nil {
				e.breakerHears(p.client, int64(p.src.x), t, false)
			}
			e.cohortFailed(&p, uint32(t), int64(p.src.x), failDown)
			continue
		}
		if e.brk.state != nil {
			e.breakerHears(p.client, 1, t, false)
		}
		if e.failed(&p, uint32(t), failDown) {
			p.t = uint32(t) // a retry with no wait: one of t's arrivals
			e.insert(&p)
		}
	}
}

// crowdFails is the failures at t = H of the crowd's first attempts, which
// hung from 0 (crowdHang): each client, as it started, goes on as after any
// failure.
func (e *engine) crowdFails(t int64) {
	e.crowdHangs = false
	for c := uint32(1); c <= e.crowd; c++ {
		p := newPending(e.pl.draws, e.s.Seed, c, 0, e.pl.first)
		if e.brk.state != nil {
			e.breakerHears(c, 1, t, false)
		}
		if e.failed(&p, uint32(t), failDown) {
			p.t = uint32(t) // a retry with no wait: one of t's arrivals
			e.insert(&p)
		}
		if c&4095 == 0 && e.halt() {
			return
		}
	}
}

// failed goes on from client p's attempt that failed at t: the budget
// takes its due (no gRPC token for a short-circuit) and decides, with the
// attempts left, whether the client retries; if it does, its next attempt
// goes in the calendar after the wait drawn, or after R where a rejection
// carries pushback (the draw still made), or it stops, out of time. It
// reports whether the retry comes at t itself, drawn with no wait, for the
// caller to take at once.
func (e *engine) failed(p *pending, t uint32, how failure) (again bool) {
	e.lastFailure = max(e.lastFailure, int64(t)) // shortChain may have counted a later one
	k := p.k()
	proc := 0
	if e.bud.kind != BudgetNone {
		proc = int((p.client - 1) % e.procs)
		if how != failShort {
			e.bud.failed(proc)
		}
	}
	if k >= e.attempts {
		e.f.GaveUp++
		return false
	}
	if e.bud.kind != BudgetNone && !e.bud.retry(proc) {
		e.f.Throttled++
		return false
	}
	w := e.pl.wait(int(k), &p.src, int(p.prev()))
	p.src.kp = (k + 1) | uint32(w)<<kBits
	if how == failRejected && e.retryAfter > 0 {
		w = e.retryAfter
	}
	if e.pl.maxElapsed > 0 && int64(t)+int64(w)-e.start(p.client) > int64(e.pl.maxElapsed) {
		e.f.OutOfTime++
		return false
	}
	if w == 0 {
		return true
	}
	e.schedule(p, int64(t)+int64(w), 1)
	return false
}

// schedule puts the next attempt of p (n clients: a cohort's, or 1) at
// next in the calendar; or, where their breaker is shut until after next
// whatever happens (and shortChain runs), counts it short-circuited now
// and runs them on.
func (e *engine) schedule(p *pending, next int64, n int64) {
	if e.ahead != nil {
		if st := e.brk.of(p.client); st.open && next < st.until && e.countAhead(next, n) {
			e.shortChain(p, uint32(next), st.until, n)
			return
		}
	}
	p.t = uint32(next)
	e.insert(p)
}

// cohort takes the attempts at t of cohort p: src.x clients from p.client
// on, alike in all but their numbers, so the lowest of them are the ones a
// slot with too little room serves. Those it does not serve go on as one
// cohort, or end together. It returns how many were served, and how many
// failed at t (not hanging).
func (e *engine) cohort(p *pending, t uint32) (served, failed int64) {
	n := int64(p.src.x)
	k := p.k()
	e.f.Attempts += int(n)
	if k >= 2 {
		e.f.Retries += int(n)
		e.slotRetries += n
	}
	if t >= e.outage {
		e.slotAfter += n
	}
	how := failRejected
	if t < e.outage || (k == 1 && p.client <= e.crowd) {
		e.f.FailedWhileDown += int(n)
		e.slotDown += n
		if e.hang > 0 {
			e.hangUp(p, t)
			return 0, 0
		}
		how = failDown
	} else {
		served = n
		if e.capacity > 0 {
			served = min(n, max(e.slotCap-e.slotServed, 0))
		}
		if served > 0 {
			e.f.Served += int(served)
			e.f.Through += int(served)
			e.slotServed += served
			e.lastServed = int64(t)
			if p.client <= e.crowd { // a cohort is all the crowd's or all fresh
				e.crowdLastServed = int64(t)
			}
			lat := uint32(int64(t) - e.start(p.client))
			for range served {
				e.lat = append(e.lat, lat)
			}
		}
		if rejected := n - served; rejected > 0 {
			e.f.Rejected += int(rejected)
			e.slotRejected += rejected
			if e.load > 0 && int64(t) >= e.loadEnd-1000 && int64(t) < e.loadEnd {
				e.f.StillOverloaded = true
			}
		}
	}
	left := n - served
	if left == 0 {
		return served, 0
	}
	p.client += uint32(served) // the served are the lowest numbers
	e.cohortFailed(p, t, left, how)
	return served, left
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
	for p.src.x > 0 {
		if st.open && (int64(t) < st.until || st.probe != 0) {
			n := int64(p.src.x)
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
			part.src.x = 1
			st.probe = part.client
		} else {
			part.src.x = uint32(e.reachService(p, t, st.fails))
		}
		p.client += part.src.x
		p.src.x -= part.src.x
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
	n := int64(p.src.x)
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

// countAttempts counts n attempts of cohort p made at t that do not reach
// the service.
func (e *engine) countAttempts(p *pending, n int64) {
	e.f.Attempts += int(n)
	if p.k() >= 2 {
		e.f.Retries += int(n)
		e.slotRetries += n
	}
}

// cohortFailed goes on from the attempts of cohort p that failed at t, the
// left clients from p.client on: they give up together, or stop out of
// time together, or retry together after the one wait they all draw (or
// pushback's, after a rejection).
func (e *engine) cohortFailed(p *pending, t uint32, left int64, how failure) {
	e.lastFailure = max(e.lastFailure, int64(t))
	k := p.k()
	if k >= e.attempts {
		e.f.GaveUp += int(left)
		return
	}
	w := e.pl.lo[k] // no jitter: the base wait itself, never 0
	p.src.kp = (k + 1) | uint32(w)<<kBits
	if how == failRejected && e.retryAfter > 0 {
		w = e.retryAfter
	}
	if e.pl.maxElapsed > 0 && int64(t)+int64(w)-e.start(p.client) > int64(e.pl.maxElapsed) {
		e.f.OutOfTime += int(left)
		return
	}
	p.src.x = uint32(left)
	e.schedule(p, int64(t)+int64(w), left)
}

// enterSlot moves the slot counters on to the slot of t, closing the one
// before, and any between that only shortChain's attempts fell in.
func (e *engine) enterSlot(t int64) {
	i := int64(e.slotDiv.div(uint32(t)))
	if i == e.slot {
		return
	}
	e.closeSlot()
	if e.aheadLast > e.slot {
		for j := e.slot + 1; j < i && j <= e.aheadLast; j++ {
			e.openSlot(j)
			e.closeSlot()
		}
	}
	e.openSlot(i)
}

// openSlot makes slot i the current one, its counters 0 but for what
// shortChain counted in it ahead of time.
func (e *engine) openSlot(i int64) {
	e.slot = i
	e.slotServed, e.slotRetries, e.slotAfter, e.slotRejected, e.slotDown = 0, 0, 0, 0, 0
	e.slotTimedOut, e.slotWasted, e.slotDropped = 0, 0, 0
	e.slotShort, e.slotOpened = 0, 0
	if e.capacity > 0 {
		e.slotCap = slotCapacity(e.capacity, int64(e.s.Slot), i)
	}
	if i <= e.aheadLast {
		a := &e.ahead[i&int64(len(e.ahead)-1)]
		e.slotRetries, e.slotShort = a.retries, a.short
		*a = slotAhead{}
	}
}

// closeLast closes the current slot, the run's last but for those that
// only shortChain's attempts fell in, which it closes after it.
func (e *engine) closeLast() {
	e.closeSlot()
	for j := e.slot + 1; j <= e.aheadLast; j++ {
		e.openSlot(j)
		e.closeSlot()
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
	for {
		e.lastFailure = max(e.lastFailure, int64(t))
		k := p.k()
		if k >= e.attempts {
			e.f.GaveUp += int(n)
			return
		}
		w := e.pl.lo[k] // a cohort waits without jitter
		if !e.cohorts {
			w = e.pl.wait(int(k), &p.src, int(p.prev()))
		}
		p.src.kp = (k + 1) | uint32(w)<<kBits
		next := int64(t) + int64(w)
		if e.pl.maxElapsed > 0 && next-e.start(p.client) > int64(e.pl.maxElapsed) {
			e.f.OutOfTime += int(n)
			return
		}
		if next >= until || !e.countAhead(next, n) {
			p.t = uint32(next)
			e.insert(p)
			return
		}
		t = uint32(next)
	}
}

// countAhead counts n short-circuited retries at t, in the current slot or
// one ahead: false, counting nothing, where that is maxAhead slots or more
// ahead.
func (e *engine) countAhead(t int64, n int64) bool {
	i := int64(e.slotDiv.div(uint32(t)))
	if i == e.slot {
		e.slotRetries += n
		e.slotShort += n
	} else {
		if i-e.slot >= int64(len(e.ahead)) {
			return false
		}
		a := &e.ahead[i&int64(len(e.ahead)-1)]
		a.retries += n
		a.short += n
		e.aheadLast = max(e.aheadLast, i)
	}
	e.f.Attempts += int(n)
	e.f.Retries += int(n)
	e.f.ShortCircuited += int(n)
	return true
}

// closeSlot adds the current slot to the figures and the series. Slots come
// in time order, so the first busiest is the one that got there first.
func (e *engine) closeSlot() {
	if e.slot < 0 {
		return
	}
	from := int(e.slot) * e.s.Slot
	if int(e.slotRetries) > e.f.MostInASlot {
		e.f.MostInASlot, e.f.BusiestSlotFrom = int(e.slotRetries), from
	}
	if int(e.slotAfter) > e.f.PeakAfterBack {
		e.f.PeakAfterBack, e.f.PeakAfterBackFrom = int(e.slotAfter), from
	}
	if e.slotRejected > 0 || e.slotTimedOut > 0 || e.slotWasted > 0 || e.slotDropped > 0 {
		e.lastBusy = e.slot
	}
	// A slot where only hanging attempts failed holds nothing a series
	// counts: the series ends at the last attempt (or breaker opening), as
	// the fast path's does.
	if s := e.series; s != nil && !s.Truncated && (s.Queued || e.slotServed+e.slotRejected+e.slotDown+e.slotShort+e.slotOpened > 0) {
		i := int(e.slot)
		if i >= MaxSeriesSlots {
			s.Truncated = true
			return
		}
		s.extend(i)
		s.Retries[i] += int(e.slotRetries)
		s.Served[i] += int(e.slotServed)
		s.Rejected[i] += int(e.slotRejected)
		s.FailedWhileDown[i] += int(e.slotDown)
		if s.Queued {
			s.TimedOut[i] += int(e.slotTimedOut)
			s.Wasted[i] += int(e.slotWasted)
			s.Dropped[i] += int(e.slotDropped)
			s.Queue[i] = int(e.q.len())
		}
		if s.Breaker {
			s.ShortCircuited[i] += int(e.slotShort)
			s.Opened[i] += int(e.slotOpened)
		}
	}
}
