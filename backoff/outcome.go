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
			e.lat.add(uint32(int64(t)-e.start(p.client)), 1)
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
	e.hangs.push(*p)
	e.nextDue = min(e.nextDue, int64(t)+e.hang)
	if e.brk.state != nil {
		if st := e.brk.of(p.client); st.open && st.probe == p.client {
			st.until = int64(t) + e.hang + e.brk.open
		}
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
	if q := &e.q; e.hang > 0 || q.n > 0 && q.timeout > 0 && int64(q.ring[q.head].t)+q.timeout <= t {
		e.timeoutsAndHangs(t)
	}
}

// timeoutsAndHangs is step 1 at t: the crowd's first attempts first where
// they hang and come due, then the timeouts and the other hanging
// attempts, merged by client.
func (e *engine) timeoutsAndHangs(t int64) {
	if e.crowdHangs && t >= e.hang {
		e.crowdFails(t) // the lowest numbers: first
	}
	q, h := &e.q, &e.hangs
	for i := 0; ; i++ {
		timeout := q.n > 0 && q.timeout > 0 && int64(q.front().t)+q.timeout <= t
		hang := h.n > 0 && int64(h.front().t)+e.hang <= t
		if !timeout && !hang {
			e.setDue()
			return
		}
		if i&4095 == 4095 && e.halt() {
			e.setDue()
			return
		}
		if timeout && hang {
			timeout = q.front().client < h.front().client
		}
		var p pending
		if timeout {
			p = e.timeOut(t)
		} else {
			p = *h.front()
			h.popFront()
		}
		e.failedDue(&p, t)
	}
}

// timeOut takes the oldest live request, whose client stops waiting at t:
// timed out, it stays in the queue, expired.
func (e *engine) timeOut(t int64) pending {
	q := &e.q
	p := *q.front()
	q.popFront()
	n := int64(1)
	if e.cohorts {
		n = int64(p.x)
	}
	q.live -= n
	q.expired += n
	e.f.TimedOut += int(n)
	e.slotTimedOut += n
	e.busy(uint32(t))
	return p
}

// failedDue goes on from the attempts of p (a client's, or a cohort's)
// whose failure came due at t: the breaker hears it, and a retry drawn
// with no wait joins t's arrivals.
func (e *engine) failedDue(p *pending, t int64) {
	n := int64(1)
	if e.cohorts {
		n = int64(p.x)
	}
	if e.brk.state != nil {
		e.breakerHears(p.client, n, t, false)
	}
	if e.cohorts {
		e.cohortFailed(p, uint32(t), n, failDown)
		return
	}
	if e.failed(p, uint32(t), failDown) {
		p.t = uint32(t)
		e.insert(p)
	}
}

// crowdFails is the failures at t = H of the crowd's first attempts, which
// hung from 0 (crowdHang): each client, as it started, goes on as after any
// failure.
func (e *engine) crowdFails(t int64) {
	e.crowdHangs = false
	for c := uint32(1); c <= e.crowd; c++ {
		p := newPending(e.pl.draws, e.s.Seed, c, 0, e.pl.first)
		e.failedDue(&p, t)
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
	e.lastFailure = int64(t)
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
	w := e.wait(p, k)
	p.kp = (k + 1) | uint32(w)<<kBits
	if e.retryAfter > 0 && how == failRejected {
		w = e.retryAfter
	}
	if e.pl.maxElapsed > 0 && int64(t)+int64(w)-e.start(p.client) > int64(e.pl.maxElapsed) {
		e.f.OutOfTime++
		return false
	}
	if w == 0 {
		return true
	}
	if e.ahead != nil && e.shortAhead(p, int64(t)+int64(w), 1) {
		return false
	}
	p.t = t + uint32(w)
	e.insert(p)
	return false
}

// cohort takes the attempts at t of cohort p: x clients from p.client
// on, alike in all but their numbers, so the lowest of them are the ones a
// slot with too little room serves. Those it does not serve go on as one
// cohort, or end together. It returns how many were served, and how many
// failed at t (not hanging).
func (e *engine) cohort(p *pending, t uint32) (served, failed int64) {
	n := int64(p.x)
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
			e.lat.add(uint32(int64(t)-e.start(p.client)), served)
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

// cohortFailed goes on from the attempts of cohort p that failed at t, the
// left clients from p.client on: they give up together, or stop out of
// time together, or retry together after the one wait they all draw (or
// pushback's, after a rejection).
func (e *engine) cohortFailed(p *pending, t uint32, left int64, how failure) {
	e.lastFailure = int64(t)
	k := p.k()
	if k >= e.attempts {
		e.f.GaveUp += int(left)
		return
	}
	w := e.pl.lo[k] // no jitter: the base wait itself, never 0
	p.kp = (k + 1) | uint32(w)<<kBits
	if e.retryAfter > 0 && how == failRejected {
		w = e.retryAfter
	}
	if e.pl.maxElapsed > 0 && int64(t)+int64(w)-e.start(p.client) > int64(e.pl.maxElapsed) {
		e.f.OutOfTime += int(left)
		return
	}
	p.x = uint32(left)
	if e.ahead != nil && e.shortAhead(p, int64(t)+int64(w), left) {
		return
	}
	p.t = t + uint32(w)
	if l := e.lanes; l != nil { // made from registers (fifo.push)
		l.fifos[l.of[k+1]].push(pending{x: uint32(left), kp: (k + 1) | uint32(e.pl.lo[k])<<kBits, t: t + uint32(w), client: p.client})
		return
	}
	e.insert(p)
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
