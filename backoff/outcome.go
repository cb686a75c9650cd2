package backoff

// How each attempt of the engine ends (served, rejected or failed while
// down, and then the client's retry or its end), and what each slot adds to
// the figures and the series.

// Series is a run's attempts per slot of Slot ms: index i holds the slot
// [i*Slot, (i+1)*Slot). Served, Rejected and FailedWhileDown are every
// attempt's outcome, the crowd's first attempts included; Retries counts
// the attempts after a client's first, whatever their outcome.
type Series struct {
	Slot            int
	Retries         []int
	Served          []int
	Rejected        []int
	FailedWhileDown []int
	Truncated       bool // the run went on past MaxSeriesSlots slots
}

// Len is how many slots the series holds.
func (s *Series) Len() int { return len(s.Served) }

// Attempts is slot i's attempts of every outcome.
func (s *Series) Attempts(i int) int { return s.Served[i] + s.Rejected[i] + s.FailedWhileDown[i] }

func (s *Series) extend(i int) {
	for len(s.Served) <= i {
		s.Retries, s.Served = append(s.Retries, 0), append(s.Served, 0)
		s.Rejected, s.FailedWhileDown = append(s.Rejected, 0), append(s.FailedWhileDown, 0)
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
		proc := 0
		if e.bud.kind != BudgetNone {
			proc = int((p.client - 1) % e.procs)
			e.bud.failed(proc)
		}
		if k >= e.attempts {
			e.f.GaveUp++
			return
		}
		if e.bud.kind != BudgetNone && !e.bud.retry(proc) {
			e.f.Throttled++
			return
		}
		w := e.pl.wait(int(k), &p.src, int(p.prev()))
		p.src.kp = (k + 1) | uint32(w)<<kBits
		if e.pl.maxElapsed > 0 && int64(t)+int64(w)-e.start(p.client) > int64(e.pl.maxElapsed) {
			e.f.OutOfTime++
			return
		}
		if w > 0 {
			p.t = t + uint32(w)
			e.insert(p)
			return
		}
	}
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
	if e.slotRejected > 0 {
		e.lastRejected = e.slot
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
	}
}
