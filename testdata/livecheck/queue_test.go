package livecheck

import (
	"slices"
	"testing"
)

// The queue's rules by hand: 2 places, 500 a second (a completion at every
// odd millisecond: c(t) = floor(500(t+1)/1000) - floor(500t/1000)), a
// timeout of 3 ms. r1, r2 and r3 arrive at 0 (r3 finds the queue full),
// r4 at 2. First in, first out, wasting: r1 is served at 1; at 3, r2, sent
// at 0, has expired and uses the capacity for nothing; at 5 so has r4.
// Dropping instead: r2 is dropped at 3 without using capacity, and r4 is
// served at 3. Newest first, wasting: r2 at 1, r4 at 3, and r1 wasted at 5.
func TestQueueByHand(t *testing.T) {
	type took struct {
		client int32
		t      int64
		o      Outcome
	}
	for _, tc := range []struct {
		name string
		q    Queue
		want []took
	}{
		{"fifo, wasted", Queue{Size: 2, Timeout: 3}, []took{{1, 1, Served}, {2, 3, Wasted}, {4, 5, Wasted}}},
		{"fifo, dropped", Queue{Size: 2, Timeout: 3, DropExpired: true}, []took{{1, 1, Served}, {2, 3, Dropped}, {4, 3, Served}}},
		{"lifo, wasted", Queue{Size: 2, Timeout: 3, Order: LIFO}, []took{{2, 1, Served}, {4, 3, Served}, {1, 5, Wasted}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := newQueue(tc.q, 0, 500)
			var got []took
			serve := func(tm int64) {
				svc.serve(tm, nil, func(r queued, o Outcome) { got = append(got, took{r.client, tm, o}) })
			}
			for c := int32(1); c <= 3; c++ {
				o, waits := svc.arrive(0, false, queued{client: c})
				if want := c <= 2; waits != want || (!waits && o != Rejected) {
					t.Errorf("r%d at 0: got waits %v (%v), want waits %v or rejected", c, waits, o, want)
				}
			}
			serve(0)
			serve(1)
			if _, waits := svc.arrive(2, false, queued{client: 4}); !waits {
				t.Errorf("r4 at 2: got rejected, want it queued")
			}
			for tm := int64(2); tm <= 6; tm++ {
				serve(tm)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if svc.peak != 2 {
				t.Errorf("queue peak: got %d, want 2", svc.peak)
			}
		})
	}
}

// A server late by some milliseconds serves each in turn, and a request
// that arrived after a millisecond is not taken in it, first in first out
// or newest first; down before the outage's end, and the crowd's first
// attempt down whatever the time; a client gone (its connection closed)
// has expired whatever its time says.
func TestQueueCatchesUpInOrder(t *testing.T) {
	for _, order := range []QueueOrder{FIFO, LIFO} {
		svc := newQueue(Queue{Size: 10, Order: order}, 10, 1000) // one a millisecond from 10 ms
		if o, waits := svc.arrive(9, false, queued{client: 1}); waits || o != Down {
			t.Errorf("%v, at 9 ms, before the outage's end: got %v %v, want down", order, o, waits)
		}
		if o, waits := svc.arrive(50, true, queued{client: 1}); waits || o != Down {
			t.Errorf("%v, a crowd client's first attempt at 50 ms: got %v %v, want down", order, o, waits)
		}
		// The server read 12 ms for client 3 before it took 10 and 11.
		svc.arrive(10, false, queued{client: 2})
		svc.arrive(12, false, queued{client: 3})
		var got []int32
		var at []int64
		for tm := int64(10); tm <= 12; tm++ {
			svc.serve(tm, nil, func(r queued, o Outcome) { got, at = append(got, r.client), append(at, tm) })
		}
		if !slices.Equal(got, []int32{2, 3}) || !slices.Equal(at, []int64{10, 12}) {
			t.Errorf("%v, 10 to 12 ms: got clients %v at %v, want 2 at 10 and 3 at 12", order, got, at)
		}
		svc.arrive(13, false, queued{client: 4})
		var o Outcome
		svc.serve(13, func(queued) bool { return true }, func(r queued, out Outcome) { o = out })
		if o != Wasted {
			t.Errorf("%v, a request whose client left: got %v, want wasted", order, o)
		}
	}
}

// The queue scenarios do as their comment says by MODEL.md section 6
// (driven in virtual time with the live server's own queue and the
// planner's draws): first in, first out and wasting, the service is still
// overloaded at the load's end for every seed; dropping expired requests,
// or taking the newest first, it is back for every seed.
func TestQueueScenariosAsMODELSays(t *testing.T) {
	for _, sc := range QueueTable() {
		stuck := sc.Queue.Order == FIFO && !sc.Queue.DropExpired
		for seed := 1; seed <= 20; seed++ {
			log, peak := driveQueue(sc, seed)
			f, missing := Measure(sc, log, peak, 0)
			if missing > 0 {
				t.Errorf("%s seed %d: %d clients missing, want 0", sc.Name, seed, missing)
			}
			if f.StillOverloaded != stuck {
				t.Errorf("%s seed %d: still overloaded %v, want %v (stable from %d ms, load until %d)", sc.Name, seed, f.StillOverloaded, stuck, f.StableFrom, sc.LoadUntil)
			}
			if f.Wasted+f.Dropped != f.TimedOut || f.Served+f.Rejected+f.FailedWhileDown+f.TimedOut != f.Attempts {
				t.Errorf("%s seed %d: the outcomes do not add up: %+v", sc.Name, seed, f)
			}
		}
	}
}
