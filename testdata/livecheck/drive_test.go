package livecheck

import (
	"container/heap"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
)

// driveSlots runs the scenario's clients against the live server's own
// admission rule (slots.admit, what the handler calls) in virtual time:
// each client waits the planner's draws for s (the scenario's settings,
// sc.Settings), backoff.Waits, and attempts are handed to the rule in
// increasing (time, client), as MODEL.md orders them. It returns the log
// the server would keep if every attempt arrived at its whole millisecond,
// with the attempts the clients' breakers short-circuited among it, and
// how many times the breakers opened: Measure of them must be the
// planner's figures exactly. With s's guards (MODEL.md section 7) the
// clients play what the live server does not: an attempt the service fails
// while down hangs s.OutageHang ms, failing at Done, and a rejection tells
// its client to come back s.RetryAfter ms later instead of its draw, which
// it still makes (Waits holds every draw). Within a millisecond the
// failures that come due (a hang's end) come first, in client order, then
// the arrivals in client order, each outcome told to its process's breaker
// (the live clients' own, breakers) as it becomes known.
func driveSlots(sc Scenario, s backoff.Settings) (log []Entry, opened int) {
	p := sc.Policy()
	svc := newSlots(sc.Outage, sc.Slot, sc.Capacity)
	brk := newBreakers(s.Breaker, s.Processes)
	var h attemptHeap
	for c := 1; c <= sc.AllClients(); c++ {
		heap.Push(&h, attempt{t: int64(sc.Start(c)), client: c})
	}
	waits := map[int][]int{}
	// goOn puts client a's next attempt after its attempt a.k failed,
	// known at t: o says how.
	goOn := func(a attempt, t int64, o Outcome) {
		if a.k+1 >= p.Attempts {
			return // gave up
		}
		w, ok := waits[a.client]
		if !ok {
			w = backoff.Waits(p, s, a.client)
			waits[a.client] = w
		}
		wait := w[a.k]
		if o == Rejected && s.RetryAfter > 0 {
			wait = s.RetryAfter
		}
		next := t + int64(wait)
		if p.MaxElapsed > 0 && next-int64(sc.Start(a.client)) > int64(p.MaxElapsed) {
			return // out of time
		}
		heap.Push(&h, attempt{t: next, client: a.client, k: a.k + 1})
	}
	for h.Len() > 0 {
		a := heap.Pop(&h).(attempt)
		b := brk.of(a.client)
		if a.due {
			if b != nil {
				b.hear(a.client, a.t, false)
			}
			goOn(a, a.t, Down)
			continue
		}
		at := time.Duration(a.t) * time.Millisecond
		if b != nil && !b.admit(a.client, a.t) {
			log = append(log, Entry{At: at, Done: at, Client: int32(a.client), Outcome: ShortCircuited})
			goOn(a, a.t, ShortCircuited)
			continue
		}
		o := svc.admit(at, a.client <= sc.Clients && a.k == 0)
		if o == Down && s.OutageHang > 0 {
			done := a.t + int64(s.OutageHang)
			log = append(log, Entry{At: at, Done: time.Duration(done) * time.Millisecond, Client: int32(a.client), Outcome: o})
			a.t, a.due = done, true
			heap.Push(&h, a)
			continue
		}
		log = append(log, Entry{At: at, Done: at, Client: int32(a.client), Outcome: o})
		if b != nil {
			b.hear(a.client, a.t, o == Served)
		}
		if o != Served {
			goOn(a, a.t, o)
		}
	}
	return log, brk.opened()
}

// attempt is a client's pending attempt k (0 the first) at ms t; due, it
// is one that hung, whose failure comes due at t.
type attempt struct {
	t         int64
	client, k int
	due       bool
}

type attemptHeap []attempt

// Less orders the attempts as MODEL.md section 7 takes them: by time, the
// failures that come due before the arrivals, and by client.
func (h attemptHeap) Less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	if h[i].due != h[j].due {
		return h[i].due
	}
	return h[i].client < h[j].client
}
func (h attemptHeap) Len() int      { return len(h) }
func (h attemptHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *attemptHeap) Push(x any)   { *h = append(*h, x.(attempt)) }
func (h *attemptHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// driveQueue is driveSlots for a service that queues (MODEL.md section 6):
// millisecond by millisecond, (1) the attempts sent T ms ago that are still
// queued time out, in client order, and their clients go on; (2) the
// attempts of this millisecond arrive, in client order, into the live
// server's own queue (queue.arrive); (3) the queue serves the millisecond
// (queue.serve). It returns the log the server would keep and the queue's
// peak.
func driveQueue(sc Scenario, seed int) ([]Entry, int) {
	p := sc.Policy()
	s := sc.Settings(seed)
	s.Seed = seed
	svc := newQueue(sc.Queue, sc.Outage, sc.Capacity)
	var h attemptHeap
	for c := 1; c <= sc.AllClients(); c++ {
		heap.Push(&h, attempt{t: int64(sc.Start(c)), client: c})
	}
	var log []Entry
	waits := map[int][]int{}
	k := map[int]int{} // each client's attempt being made or waited for
	// retry puts client c's next attempt after its attempt failed at t.
	retry := func(c int, t int64) {
		if k[c]+1 >= p.Attempts {
			return // gave up
		}
		w, ok := waits[c]
		if !ok {
			w = backoff.Waits(p, s, c)
			waits[c] = w
		}
		next := t + int64(w[k[c]])
		if p.MaxElapsed > 0 && next-int64(sc.Start(c)) > int64(p.MaxElapsed) {
			return // out of time
		}
		k[c]++
		heap.Push(&h, attempt{t: next, client: c, k: k[c]})
	}
	waiting := map[int64][]int{} // log indexes of queued attempts by the ms they were sent
	answered := map[int]bool{}   // log indexes the service has taken
	T := int64(sc.Queue.Timeout)
	for t := int64(0); h.Len() > 0 || len(svc.waiting) > 0; t++ {
		if T > 0 {
			for _, i := range waiting[t-T] { // in client order: they arrived so
				if !answered[i] {
					retry(int(log[i].Client), t)
				}
			}
			delete(waiting, t-T)
		}
		for h.Len() > 0 && h[0].t == t {
			a := heap.Pop(&h).(attempt)
			at := time.Duration(t) * time.Millisecond
			i := len(log)
			log = append(log, Entry{At: at, Done: at, Client: int32(a.client)})
			o, queued := svc.arrive(t, a.client <= sc.Clients && a.k == 0, queued{client: int32(a.client), index: i})
			if queued {
				waiting[t] = append(waiting[t], i)
				continue
			}
			log[i].Outcome = o
			retry(a.client, t)
		}
		if t >= int64(sc.Outage) {
			svc.serve(t, nil, func(r queued, o Outcome) {
				answered[r.index] = true
				log[r.index].Outcome, log[r.index].Done = o, time.Duration(t)*time.Millisecond
			})
		}
	}
	return log, svc.peak
}
