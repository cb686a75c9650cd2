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
}

// attempt takes client p's attempt at t, and its retries at once while
// they are drawn with no wait, then puts its next attempt in the calendar
// or ends the client.
func (e *engine) attempt(p *pending, t uint32) {
	for {
		e.f.Attempts++
		k := p.k()
		retry := k >= 2
		if retry {
			e.f.Retries++
			e.slotRetries++
		}
		if t >= e.outage {
			e.slotAfter++
		}
		switch {
		case t < e.outage || (k == 1 && p.client <= e.crowd): // down, or the crowd's trigger
			e.f.FailedWhileDown++
			e.slotDown++
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
			return
		default:
			e.f.Rejected++
			e.slotRejected++
			if e.load > 0 && int64(t) >= e.loadEnd-1000 && int64(t) < e.loadEnd {
				e.f.StillOverloaded = true
			}
		}
		if !e.failed(p, t) {
			return
		}
	}
}

// failed goes on from client p's attempt that failed at t: the budget
// takes its due and decides, with the attempts left, whether the client
// retries; if it does, its next attempt goes in the calendar after the
// wait drawn, or it stops, out of time. It reports whether the retry comes
// at t itself, drawn with no wait, for the caller to take at once.
func (e *engine) failed(p *pending, t uint32) (again bool) {
	e.lastFailure = int64(t)
	k := p.k()
	proc := 0
	if e.bud.kind != BudgetNone {
		proc = int((p.client - 1) % e.procs)
		e.bud.failed(proc)
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
	if e.pl.maxElapsed > 0 && int64(t)+int64(w)-e.start(p.client) > int64(e.pl.maxElapsed) {
		e.f.OutOfTime++
		return false
	}
	if w == 0 {
		return true
	}
	p.t = t + uint32(w)
	e.insert(p)
	return false
}

// cohort takes the attempts at t of cohort p: src.x clients from p.client
// on, alike in all but their numbers, so the lowest of them are the ones a
// slot with too little room serves. Those it does not serve go on as one
// cohort, or end together.
func (e *engine) cohort(p *pending, t uint32) {
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
	served := int64(0)
	if t < e.outage || (k == 1 && p.client <= e.crowd) {
		e.f.FailedWhileDown += int(n)
		e.slotDown += n
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
		return
	}
	p.client += uint32(served) // the served are the lowest numbers
	e.cohortFailed(p, t, left)
}

// cohortFailed goes on from the attempts of cohort p that failed at t, the
// left clients from p.client on: they give up together, or stop out of
// time together, or retry together after the one wait they all draw.
func (e *engine) cohortFailed(p *pending, t uint32, left int64) {
	e.lastFailure = int64(t)
	k := p.k()
	if k >= e.attempts {
		e.f.GaveUp += int(left)
		return
	}
	w := e.pl.lo[k] // no jitter: the base wait itself, never 0
	if e.pl.maxElapsed > 0 && int64(t)+int64(w)-e.start(p.client) > int64(e.pl.maxElapsed) {
		e.f.OutOfTime += int(left)
		return
	}
	p.src.x, p.src.kp, p.t = uint32(left), (k+1)|uint32(w)<<kBits, t+uint32(w)
	e.insert(p)
}

// enterSlot moves the slot counters on to the slot of t, closing the one
// before.
func (e *engine) enterSlot(t int64) {
	i := int64(e.slotDiv.div(uint32(t)))
	if i == e.slot {
		return
	}
	e.closeSlot()
	e.slot = i
	e.slotServed, e.slotRetries, e.slotAfter, e.slotRejected, e.slotDown = 0, 0, 0, 0, 0
	e.slotTimedOut, e.slotWasted, e.slotDropped = 0, 0, 0
	if e.capacity > 0 {
		e.slotCap = slotCapacity(e.capacity, int64(e.s.Slot), i)
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
	if s := e.series; s != nil && !s.Truncated {
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
	}
}
