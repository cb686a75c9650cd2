package backoff

import (
	"fmt"
)

// A service that queues (MODEL.md section 6). From the outage's end on,
// millisecond t completes at most c(t) = floor(C(t+1)/1000) - floor(Ct/1000)
// requests, and is taken in three steps: the timeouts of the requests sent
// at t - T, which expire but stay in the queue; the arrivals at t, in client
// order, each joining the back of the queue while fewer than Q wait, else
// rejected; then the service, which takes the oldest (FIFO) or the newest
// (LIFO) while it has capacity left, dropping an expired request for
// nothing or wasting a unit of capacity on it, and completing any other.
//
// The queue holds each live request as its client's pending attempt, moved
// there from the calendar, its t the moment it was sent. Requests are
// pushed at the back in time order and taken from either end, so the ring
// stays in time order: the requests that time out at t are at its head, and
// every expired request is older than every live one. So the expired need
// not be kept, only counted: FIFO reaches all of them before any live one,
// LIFO only after the last live one.
//
// A millisecond's arrivals are put in client order only where the order
// can change a figure: under a budget; where the queue has no room for them
// all, and the lowest numbers join; and where some of them stay in the
// queue past their millisecond, whose order then decides who is served
// first. Otherwise they all fail, or are all served at once. A millisecond
// with an empty queue and nothing arriving is not visited.

// queue is the service's queue.
type queue struct {
	limit      int64 // Q; 0: no queue
	timeout    int64 // T; 0: clients wait for ever
	lifo, drop bool

	// The live requests, the oldest at head; in cohort mode each stands
	// for x clients.
	fifo
	live    int64 // the requests the ring stands for
	expired int64 // expired requests, all older than any in the ring
}

// len is the requests waiting, live and expired.
func (q *queue) len() int64 { return q.live + q.expired }

// push puts p, standing for n requests, at the back.
func (q *queue) push(p pending, n int64) {
	q.fifo.push(p)
	q.live += n
}

// maxQueueTime is the latest moment a run with a queue may reach: times are
// kept in 32 bits.
const maxQueueTime = 1<<32 - 2

// queueHorizon bounds the last moment of a run of pl with a queue under s.
// The queue never holds more than R = min(Q, the attempts the clients
// make) requests, so the service works off all it holds within
// D = (R+1)*1000/C + 2 ms. A client's attempt fails at once (rejected,
// down or short-circuited), after H (it hangs while the service is down),
// or is served; with a timeout T it may fail T after it was sent, and
// under FIFO no later than D, by when the service has reached it. Its next
// attempt comes at most the longest wait, or the pushback R after a
// rejection, later. So every attempt arrives by
// U + A*(max(W, H) + max(the longest wait, R)), where U is the load's end
// (0 without a load), A the attempts and W the longest an attempt's
// failure in the queue takes to be known: 0 without a timeout (a request
// that joins waits until it is served, and its client tries no more),
// min(T, D) under FIFO, T under LIFO; and from then on, or from the
// outage's end, the service works off what the queue still holds within
// D.
func queueHorizon(pl *plan, s Settings) int64 {
	u := int64(0)
	if s.Load > 0 {
		u = int64(s.LoadEnd())
	}
	drain := (queueRoom(pl, s)+1)*1000/int64(s.Capacity) + 2
	known := int64(s.Timeout)
	if s.QueueOrder == FIFO {
		known = min(known, drain)
	}
	arrivals := u + int64(pl.retries+1)*(max(known, int64(s.OutageHang))+int64(calendarReach(pl, s)))
	return max(arrivals, int64(s.Outage)) + drain
}

// queueRoom is the most requests the queue of s can hold in a run of pl:
// its limit, and never more than the attempts the clients make.
func queueRoom(pl *plan, s Settings) int64 {
	n := int64(s.Clients) + int64(s.FreshRequests())
	return min(int64(s.Queue), mul(n, int64(pl.retries+1)))
}

// checkQueue returns an error where a run of p with the queue of s could go
// on past maxQueueTime: with a long queue at a low capacity, or long
// timeouts over many attempts.
func checkQueue(p Policy, pl *plan, s Settings) error {
	if !s.HasQueue() {
		return nil
	}
	if h := queueHorizon(pl, s); h > maxQueueTime {
		return fmt.Errorf("%s: a queue of %d at a capacity of %d a second, with a timeout of %d ms over %d attempts, could go on for %d ms, more than the %d a run can count: shorten the queue or the timeout, or raise the capacity",
			p.Name, s.Queue, s.Capacity, s.Timeout, p.Attempts, h, int64(maxQueueTime))
	}
	return nil
}

// capacityAt is c(t), the requests millisecond t can complete.
func (e *engine) capacityAt(t int64) int64 {
	return e.capacity*(t+1)/1000 - e.capacity*t/1000
}

// busy marks a rejection, timeout, wasted or dropped request at t for
// still-overloaded (stable-from follows the slots, in closeSlot).
func (e *engine) busy(t uint32) {
	if e.load > 0 && int64(t) >= e.loadEnd-1000 && int64(t) < e.loadEnd {
		e.f.StillOverloaded = true
	}
}

func (e *engine) runQueue() (Figures, *Series, error) {
	if !e.startCrowd() {
		return e.f, nil, ErrStopped
	}
	if e.lanes != nil {
		return e.runLanes()
	}
	for b := int64(0); ; b++ {
		if e.waiting == 0 && e.q.len() == 0 {
			if e.nextDue == noneDue {
				break
			}
			b = max(b, e.nextDue>>e.bits) // nothing happens before the next arrival or failure
		}
		if e.q.len() == 0 && len(e.ring[b&e.ringMask].chunks) == 0 && e.nextDue>>e.bits > b {
			if b&63 == 0 {
				e.ticks++
				if e.halt() {
					return e.f, nil, ErrStopped
				}
			}
			continue
		}
		e.ticks++
		if e.halt() {
			return e.f, nil, ErrStopped
		}
		if e.bits == 0 {
			e.queueMillisecond(b)
			if e.stopped {
				return e.f, nil, ErrStopped
			}
			continue
		}
		e.scatter(b)
		base := b << e.bits
		for ms := range int64(1) << e.bits {
			t := base + ms
			toFresh := e.arriving(t)
			if e.q.len() == 0 && e.at[ms] == e.at[ms+1] && len(e.late[ms]) == 0 && e.nextDue != t {
				continue
			}
			if e.ticks++; e.halt() {
				return e.f, nil, ErrStopped
			}
			e.enterSlot(t)
			e.failuresDue(t) // its retries with no wait join late[ms]
			list, late := e.flat[e.at[ms]:e.at[ms+1]], e.late[ms]
			if len(late) > 0 {
				if len(list) == 0 {
					list = late
				} else {
					list = append(append(e.order[:0], list...), late...)
					e.order = list
				}
			}
			e.queueArrivals(list, t, toFresh)
			e.late[ms] = late[:0]
			if e.stopped {
				return e.f, nil, ErrStopped
			}
			e.serveQueue(t)
		}
	}
	e.closeLast()
	return e.finish()
}

// runLanes is runQueue's loop where the calendar is lanes: the
// milliseconds where the queue holds something, a cohort is due, or a
// fresh request arrives, each in turn, and no other. With neither a budget
// nor a guard, each cohort meets the queue as it is (arriveCohort), in
// client order where some of them join it: the lowest numbers join, and
// their order is the order they are served in.
func (e *engine) runLanes() (Figures, *Series, error) {
	q := &e.q
	for t := int64(0); ; t++ {
		if q.len() == 0 {
			next := min(e.nextDue, e.lanes.next())
			if next == noneDue {
				break
			}
			t = max(t, next)
		}
		if e.ticks++; e.stop != nil && e.halt() {
			return e.f, nil, ErrStopped
		}
		toFresh := e.arriving(t)
		if int64(e.slotDiv.div(uint32(t))) != e.slot {
			e.enterSlot(t)
		}
		if q.n > 0 && q.timeout > 0 && int64(q.front().t)+q.timeout <= t {
			e.timeoutsAndHangs(t) // step 1; a cohort's next wait is never 0: nothing it puts in the lanes is due at t
			if e.stopped {
				return e.f, nil, ErrStopped
			}
		}
		list := e.lanes.take(uint32(t), e.order[:0])
		e.order = list
		if len(list) > 1 && t >= int64(e.outage) && q.len() < q.limit {
			e.sortByClient(list)
		}
		for i := range list {
			e.arriveCohort(&list[i], uint32(t))
		}
		e.runFresh(t, toFresh)
		e.f.QueuePeak = max(e.f.QueuePeak, int(q.len()))
		e.serveQueue(t)
	}
	e.closeLast()
	return e.finish()
}

// queueMillisecond runs millisecond t where buckets are 1 ms wide, and
// something waits or happens in it.
func (e *engine) queueMillisecond(t int64) {
	r := &e.ring[t&e.ringMask]
	toFresh := e.arriving(t)
	e.enterSlot(t)
	e.failuresDue(t) // its retries with no wait join r
	var list []pending
	switch len(r.chunks) {
	case 0:
	case 1:
		list = r.part(0)
	default:
		list = e.order[:0]
		for i := range r.chunks {
			list = append(list, r.part(i)...)
		}
		e.order = list
	}
	e.queueArrivals(list, t, toFresh) // nothing it puts in the calendar is due at t
	if e.stopped {
		return
	}
	if len(r.chunks) > 0 {
		e.release(r)
	}
	e.serveQueue(t)
}

// queueArrivals is step 2 at t: the attempts of the calendar due at t, in
// client order where it matters, then the fresh requests arriving at t.
func (e *engine) queueArrivals(list []pending, t int64, toFresh int) {
	if len(list) > 1 {
		e.orderArrivals(list, t, toFresh)
	}
	if !e.takeAll(list, uint32(t)) {
		return
	}
	e.runFresh(t, toFresh)
	e.f.QueuePeak = max(e.f.QueuePeak, int(e.q.len()))
}

// orderArrivals puts the attempts at t in client order, the fresh requests
// arriving at t being after them, as far as the order can change a figure:
// all of them under a budget; none before the outage's end, where they all
// fail alike, or where the queue is full and all are rejected alike;
// otherwise first the lowest numbers the queue has room for, which join it
// (the rest are rejected in any order), and those in order where they do
// not all leave the queue at t, as its order then decides who is served
// first.
func (e *engine) orderArrivals(list []pending, t int64, toFresh int) {
	q := &e.q
	room := q.limit - q.len()
	if !e.sorted && (t < int64(e.outage) || room <= 0) {
		return
	}
	if e.sorted && e.bud.kind == BudgetNone && e.brk.orderFree(t, t < int64(e.outage), e.hang > 0, len(list)) {
		return // the service is down, where they fail alike, or the breakers short-circuit them all
	}
	if e.sorted || e.cohorts { // cohorts: few, and ranges of clients, which do not overlap
		e.sortByClient(list)
		return
	}
	join := list
	if int64(len(list)) > room {
		e.selectByClient(list, int(room))
		join = list[:room]
	}
	ahead := int64(0) // what the service takes before them
	if !q.lifo {
		ahead = q.live
		if !q.drop {
			ahead += q.expired
		}
	}
	if e.capacityAt(t) < ahead+min(int64(len(list)+toFresh-e.nextFresh), room) {
		e.sortByClient(join)
	}
}

// arrive is client p's attempt at t, and its retries at once while they
// are drawn with no wait: it fails while down, joins the queue, or is
// rejected.
func (e *engine) arrive(p *pending, t uint32) {
	for {
		e.f.Attempts++
		k := p.k()
		if k >= 2 {
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
		case e.q.len() < e.q.limit:
			p.t = t
			e.q.push(*p, 1)
			return
		default:
			e.f.Rejected++
			e.slotRejected++
			e.busy(t)
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

// arriveCohort is the attempts at t of cohort p: as many of the lowest
// numbers as the queue has room for join it as one request of a cohort,
// the rest are rejected and go on together. It returns how many failed at
// t (not hanging).
func (e *engine) arriveCohort(p *pending, t uint32) (failed int64) {
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
	if t < e.outage || (k == 1 && p.client <= e.crowd) {
		e.f.FailedWhileDown += int(n)
		e.slotDown += n
		if e.hang > 0 {
			e.hangUp(p, t)
			return 0
		}
		e.cohortFailed(p, t, n, failDown)
		return n
	}
	in := min(n, e.q.limit-e.q.len())
	if in > 0 {
		e.q.push(pending{x: uint32(in), kp: p.kp, t: t, client: p.client}, in)
	}
	if out := n - in; out > 0 {
		e.f.Rejected += int(out)
		e.slotRejected += out
		e.busy(t)
		p.client += uint32(in)
		e.cohortFailed(p, t, out, failRejected)
		return out
	}
	return 0
}

// serveQueue is step 3 at t: while it has capacity left, the service takes
// the oldest request (FIFO), expired first, or the newest (LIFO), expired
// last.
func (e *engine) serveQueue(t int64) {
	q := &e.q
	if q.len() == 0 || t < int64(e.outage) {
		return
	}
	room := e.capacityAt(t)
	if room == 0 {
		return
	}
	if !q.lifo && q.expired > 0 {
		room = e.expire(t, room)
	}
	for room > 0 && q.n > 0 {
		p := q.front()
		if q.lifo {
			p = q.back()
		}
		n := int64(1)
		if e.cohorts {
			n = min(room, int64(p.x))
		}
		if e.cohorts && q.lifo {
			served := *p // the newest of a cohort are its highest numbers
			served.client += p.x - uint32(n)
			e.complete(&served, t, n)
		} else {
			e.complete(p, t, n) // the oldest are its lowest
			p.client += uint32(n)
		}
		room -= n
		q.live -= n
		if !e.cohorts || uint32(n) == p.x {
			if q.lifo {
				q.n--
			} else {
				q.popFront()
			}
			continue
		}
		p.x -= uint32(n)
	}
	if q.lifo && room > 0 && q.expired > 0 {
		e.expire(t, room)
	}
}

// expire takes the expired requests at t with room units of capacity left:
// it drops them all, using none, or wastes as many as it has room for. It
// returns the room left.
func (e *engine) expire(t int64, room int64) int64 {
	q := &e.q
	n := q.expired
	if q.drop {
		e.f.Dropped += int(n)
		e.slotDropped += n
	} else {
		n = min(n, room)
		room -= n
		e.f.Wasted += int(n)
		e.slotWasted += n
	}
	q.expired -= n
	e.busy(uint32(t))
	return room
}

// complete is n requests of p, from p.client on, completed at t: served,
// their clients through.
func (e *engine) complete(p *pending, t int64, n int64) {
	e.f.Served += int(n)
	e.f.Through += int(n)
	e.slotServed += n
	lat := uint32(t - e.start(p.client)) // a cohort's clients started together
	e.lat.add(lat, n)
	e.lastServed = t
	if p.client <= e.crowd {
		e.crowdLastServed = t
	}
	if e.bud.kind != BudgetNone {
		e.bud.served(int((p.client-1)%e.procs), p.k() >= 2)
	}
	if e.brk.state != nil {
		e.breakerHears(p.client, n, t, true)
	}
	if e.completed != nil {
		e.completed(int64(p.t), t, n)
	}
}

// CheckQueue returns the error Run would return for policy p under s
// because a run with the queue of s could go on past the time a run can
// count, or nil: so that a face can refuse the settings before running
// them. Settings that ValidateIn refuses (a queue without a capacity) are
// Validate's to report: CheckQueue says nothing of them.
func CheckQueue(p Policy, s Settings) error {
	if !s.HasQueue() || s.Capacity <= 0 || p.Validate() != nil {
		return nil
	}
	return checkQueue(p, newPlan(p, s.Draws), s)
}
