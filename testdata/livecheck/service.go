package livecheck

import (
	"fmt"
	"time"
)

// Outcome is what became of one attempt at the live service.
type Outcome int8

const (
	Down     Outcome = iota // failed while down: before the outage's end, or a crowd client's first attempt
	Served                  // answered 200
	Rejected                // 503: the slot's capacity was used up, or the queue was full
	Wasted                  // queued, expired, then worked on for nothing
	Dropped                 // queued, expired, then dropped without using capacity
	// ShortCircuited is an attempt its client's breaker failed at once
	// (MODEL.md section 7): it never reached the service, and is logged by
	// the client, not the server.
	ShortCircuited
)

var outcomeNames = [...]string{"down", "served", "rejected", "wasted", "dropped", "short-circuited"}

func (o Outcome) String() string {
	if o < 0 || int(o) >= len(outcomeNames) {
		return fmt.Sprintf("Outcome(%d)", int(o))
	}
	return outcomeNames[o]
}

// Entry is one line of the server's log: an attempt that arrived At after
// the start (the server's monotonic clock), from Client, and what became of
// it at Done (At itself where the service answers at once; where an attempt
// to a service that is down hangs, as the driven clients play it, when it
// failed).
type Entry struct {
	At      time.Duration
	Done    time.Duration
	Client  int32
	Outcome Outcome
}

// ms is a time since the start in whole milliseconds, rounded down, as the
// model counts time.
func ms(d time.Duration) int64 { return int64(d / time.Millisecond) }

// slotCap is MODEL.md section 3's cap(i) = floor(C*(i+1)*S/1000) -
// floor(C*i*S/1000): what slot i of S ms serves at a capacity of C a
// second.
func slotCap(c, s, i int64) int64 { return c*(i+1)*s/1000 - c*i*s/1000 }

// slots is MODEL.md section 3's service, which answers every attempt the
// moment it arrives: an attempt at t < outage fails (down), and so does a
// crowd client's first whatever the outage; from then on slot i = [i*S,
// (i+1)*S) serves at most cap(i) attempts and rejects the rest. Attempts
// must come in the order of their times, as the server's lock hands them
// over; t is whole milliseconds, rounded down from the server's clock.
type slots struct {
	outage, slot, capacity int64
	cur                    int64 // the slot being counted; -1 before any
	served                 int64 // attempts served in it
}

func newSlots(outage, slot, capacity int) *slots {
	return &slots{outage: int64(outage), slot: int64(slot), capacity: int64(capacity), cur: -1}
}

// admit takes an attempt that arrived at, the crowd's first attempt saying
// so.
func (s *slots) admit(at time.Duration, crowdFirst bool) Outcome {
	t := ms(at)
	if crowdFirst || t < s.outage {
		return Down
	}
	if s.capacity == 0 {
		return Served
	}
	if i := t / s.slot; i != s.cur {
		s.cur, s.served = i, 0
	}
	if s.served >= slotCap(s.capacity, s.slot, s.cur) {
		return Rejected
	}
	s.served++
	return Served
}

// msCap is MODEL.md section 6's c(t) = floor(C*(t+1)/1000) -
// floor(C*t/1000): what millisecond t completes at a capacity of C a
// second.
func msCap(c, t int64) int64 { return slotCap(c, 1, t) }

// queued is one request waiting in a queueing service.
type queued struct {
	at     int64 // ms it arrived
	client int32
	index  int // its entry in the log
	answer chan Outcome
}

// queue is MODEL.md section 6's service: from the outage's end on,
// millisecond t takes (1) the timeouts, (2) the arrivals, each joining the
// back of the queue while fewer than Q wait there, else rejected, and (3)
// the service: while t has capacity c(t) left, the oldest request (fifo)
// or the newest (lifo) is taken; one sent T or more ms before t has
// expired (its client timed out at step 1) and is dropped without using
// capacity, or worked on for nothing, wasted; any other is completed at t.
// The live server calls arrive as attempts come and serve(t) for every
// millisecond in turn; the clients' own contexts time them out. Its state
// is guarded by the server's lock.
type queue struct {
	q        Queue
	outage   int64
	capacity int64
	waiting  []queued
	peak     int   // the most waiting just after an arrival
	next     int64 // the next millisecond serve takes
}

func newQueue(q Queue, outage, capacity int) *queue {
	return &queue{q: q, outage: int64(outage), capacity: int64(capacity), next: int64(outage)}
}

// arrive takes an attempt at ms t: Down before the outage's end or for the
// crowd's first attempt, Rejected when the queue is full, else it waits
// (ok) until serve answers it.
func (s *queue) arrive(t int64, crowdFirst bool, r queued) (Outcome, bool) {
	if crowdFirst || t < s.outage {
		return Down, false
	}
	if len(s.waiting) >= s.q.Size {
		return Rejected, false
	}
	r.at = t
	s.waiting = append(s.waiting, r)
	s.peak = max(s.peak, len(s.waiting))
	return 0, true
}

// expired reports whether a request that arrived at ms a has expired by
// ms t: its client, waiting T ms, timed out at a+T.
func (s *queue) expired(a, t int64) bool { return s.q.Timeout > 0 && t-a >= int64(s.q.Timeout) }

// serve takes millisecond t's service (step 3) and calls done for each
// request it takes, in order, with what became of it. It must be called for
// t = outage, outage+1, ... in turn, after the arrivals of t; requests that
// arrived after t (a server catching up on milliseconds it was late for)
// wait for their own. gone, if not nil, says of a request that its client
// has left already (the live server sees its connection closed): it has
// expired too, whatever its time says.
func (s *queue) serve(t int64, gone func(queued) bool, done func(queued, Outcome)) {
	left := msCap(s.capacity, t)
	for left > 0 {
		// The requests that had arrived by t are a prefix of the queue,
		// which holds them in the order they came.
		n := len(s.waiting)
		for n > 0 && s.waiting[n-1].at > t {
			n--
		}
		if n == 0 {
			break
		}
		var r queued
		if s.q.Order == LIFO {
			r = s.waiting[n-1]
			s.waiting = append(s.waiting[:n-1], s.waiting[n:]...)
		} else {
			r = s.waiting[0]
			s.waiting = s.waiting[1:]
		}
		expired := s.expired(r.at, t) || (gone != nil && gone(r))
		switch {
		case expired && s.q.DropExpired:
			done(r, Dropped)
		case expired:
			left--
			done(r, Wasted)
		default:
			left--
			done(r, Served)
		}
	}
	s.next = t + 1
}
