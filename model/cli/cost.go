package cli

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
)

// cost is what the report's run takes at most on workers cores: its
// crowds, or their spread over seeds, or both sides of --compare one after
// the other. A schedule and jobs are a client's or a few jobs' work.
func (r report) cost(workers int) backoff.Cost {
	s := r.settings
	spread := func(s backoff.Settings, ps []backoff.Policy, seeds int, draws backoff.Draws) backoff.Cost {
		s.Draws = draws
		return backoff.RunSeedsCost(ps, s, seeds, backoff.SeedOptions{Workers: workers})
	}
	switch r.command {
	case "crowd":
		if a := r.compare; a != nil {
			aSeeds, bSeeds := a.seeds, r.seeds
			if aSeeds == 0 {
				aSeeds = bSeeds
			}
			if bSeeds == 0 {
				bSeeds = aSeeds
			}
			side := func(s backoff.Settings, ps []backoff.Policy, seeds int, draws backoff.Draws) backoff.Cost {
				if seeds == 0 {
					return backoff.RunAllCost(ps, s, backoff.Options{}, workers)
				}
				return spread(s, ps, seeds, draws)
			}
			return side(a.settings, a.policies, aSeeds, a.seedDraws).Then(side(s, r.policies, bSeeds, r.seedDraws))
		}
		if r.seeds > 0 {
			return spread(s, r.policies, r.seeds, r.seedDraws)
		}
		return backoff.RunAllCost(r.policies, s, backoff.Options{}, workers)
	case "timeline":
		return backoff.RunAllCost(r.policies, s, backoff.Options{Series: true}, workers)
	case "advise":
		return r.search().Cost(workers)
	}
	return backoff.Cost{}
}

// cost is what the full-screen program's first plan takes: its crowds with
// their series, held while their spread over seeds runs.
func (t tuiStart) cost(s backoff.Settings, ps []backoff.Policy, workers int) backoff.Cost {
	c := backoff.RunAllCost(ps, s, backoff.Options{Series: true}, workers)
	if t.seeds > 0 {
		sp := s
		sp.Draws = t.seedDraws
		c = c.Plus(backoff.RunSeedsCost(ps, sp, t.seeds, backoff.SeedOptions{Workers: workers}))
	}
	return c
}

// progress is a run's progress on standard error while it runs, where that
// is a terminal and the run takes a while: the parts done (policies or
// seeds) and the time so far against the estimate, on one line written
// over and over, cleared at the end.
type progress struct {
	done  atomic.Int64
	total int
	what  string // "policies" or "seeds"
	stop  chan struct{}
	ended chan struct{}
}

// progressEvery is how often the line is written again; progressAfter how
// long a run's estimate must be for it to be shown at all.
const (
	progressEvery = 250 * time.Millisecond
	progressAfter = 2 // seconds
)

// showProgress starts writing p's line to w every progressEvery, the
// estimate est seconds, until end is called.
func showProgress(w io.Writer, label string, total int, what string, est float64) *progress {
	p := &progress{total: total, what: what, stop: make(chan struct{}), ended: make(chan struct{})}
	start := time.Now()
	go func() {
		defer close(p.ended)
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				fmt.Fprint(w, "\r\x1b[K")
				return
			case <-tick.C:
				fmt.Fprintf(w, "\r\x1b[Kretry-planner: %s: %d of %d %s, %s of about %s", label, p.done.Load(), p.total, p.what,
					secondsText(time.Since(start).Seconds()), secondsText(est))
			}
		}
	}()
	return p
}

// end clears the line, once.
func (p *progress) end() {
	if p == nil {
		return
	}
	close(p.stop)
	<-p.ended
}

// counter is where the run counts its parts done; nil without a line.
func (p *progress) counter() *atomic.Int64 {
	if p == nil {
		return nil
	}
	return &p.done
}
