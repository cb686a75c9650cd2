package cli

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// seedsProgressEvery is how often crowd --seeds says, on a terminal, how
// many seeds are done; a run quicker than that says nothing.
const seedsProgressEvery = 200 * time.Millisecond

// seedsProgress says on w, a terminal, how many of a spread's seeds are
// done while it runs (issue 19, item 9): "retry-planner: the spread: 37 of
// 100 seeds done", one line written over itself, cleared at the end.
// It sets o's counter; stop, called once the run is over, waits for the
// last line and clears it. With no w it does nothing.
func seedsProgress(w io.Writer, label string, seeds int, o *backoff.SeedOptions) (stop func()) {
	if w == nil {
		return func() {}
	}
	done := new(atomic.Int64)
	o.Done = done
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(seedsProgressEvery)
		defer tick.Stop()
		said := false
		for {
			select {
			case <-quit:
				if said {
					fmt.Fprint(w, "\r\x1b[K")
				}
				return
			case <-tick.C:
				fmt.Fprintf(w, "\r\x1b[Kretry-planner: %s: %s of %s seeds done", label, words.Count(int(done.Load())), words.Count(seeds))
				said = true
			}
		}
	})
	return func() {
		close(quit)
		wg.Wait()
	}
}
