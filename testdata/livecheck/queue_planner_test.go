package livecheck

import (
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// The live server's queue and the measurement from its log are the
// planner's queue exactly: driven in virtual time with the planner's own
// draws (driveQueue), every figure equals backoff.Run's, for the queue
// scenarios and a few more (a queue of 1, no timeout, newest first with
// drops, an outage of 0).
func TestDrivenQueueIsTheModel(t *testing.T) {
	scenarios := QueueTable()
	more := func(name string, q Queue, outage int) {
		sc := QueueTable()[0]
		sc.Name, sc.Queue, sc.Outage = name, q, outage
		scenarios = append(scenarios, sc)
	}
	more("queue of 1", Queue{Size: 1, Timeout: 150}, 2500)
	more("no timeout", Queue{Size: 40}, 2500)
	more("lifo, drop expired", Queue{Size: 40, Timeout: 150, Order: LIFO, DropExpired: true}, 2500)
	more("outage 0", Queue{Size: 40, Timeout: 150}, 0)
	for _, sc := range scenarios {
		for _, seed := range []int{1, 2, 3} {
			s := sc.Settings(seed)
			r, err := backoff.Run(sc.Policy(), s, backoff.Options{Series: true})
			if err != nil {
				t.Fatalf("%s seed %d: %v", sc.Name, seed, err)
			}
			want := simFigures(sc, r)
			log, peak := driveQueue(sc, seed)
			got, missing := Measure(sc, log, peak, 0)
			if missing != 0 {
				t.Errorf("%s seed %d: %d clients missing from the log, want 0", sc.Name, seed, missing)
			}
			if got != want {
				t.Errorf("%s seed %d:\n got %+v\nwant %+v", sc.Name, seed, got, want)
			}
		}
	}
}
