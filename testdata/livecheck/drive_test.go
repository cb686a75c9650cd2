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
// the server would keep if every attempt arrived at its whole millisecond:
// Measure of it must be the planner's figures exactly. With s's guards
// (MODEL.md section 7) the clients play what the live server does not: an
// attempt the service fails while down hangs s.OutageHang ms, failing at
// Done, and a rejection tells its client to come back s.RetryAfter ms
// later instead of its draw, which it still makes (Waits holds every draw).
func driveSlots(sc Scenario, s backoff.Settings) []Entry {
	p := sc.Policy()
	svc := newSlots(sc.Outage, sc.Slot, sc.Capacity)
	var h attemptHeap
	for c := 1; c <= sc.AllClients(); c++ {
		heap.Push(&h, attempt{t: int64(sc.Start(c)), client: c})
	}
	var log []Entry
	waits := map[int][]int{}
	for h.Len() > 0 {
		a := heap.Pop(&h).(attempt)
		at := time.Duration(a.t) * time.Millisecond
		o := svc.admit(at, a.client <= sc.Clients && a.k == 0)
		failed := a.t // when the client learns of the failure
		if o == Down {
			failed += int64(s.OutageHang)
		}
		log = append(log, Entry{At: at, Done: time.Duration(failed) * time.Millisecond, Client: int32(a.client), Outcome: o})
		if o == Served || a.k+1 >= p.Attempts {
			continue
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
		next := failed + int64(wait)
		if p.MaxElapsed > 0 && next-int64(sc.Start(a.client)) > int64(p.MaxElapsed) {
			continue // out of time
		}
		heap.Push(&h, attempt{t: next, client: a.client, k: a.k + 1})
	}
	return log
}

// attempt is a client's pending attempt k (0 the first) at ms t.
type attempt struct {
	t         int64
	client, k int
}

type attemptHeap []attempt

func (h attemptHeap) Len() int { return len(h) }
func (h attemptHeap) Less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].client < h[j].client
}
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
