package livecheck

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/retryplanner/retry-planner/backoff"
)

// The simulator's seeds: 1 to SimSeeds. The live full-jitter loop draws
// with seeds from LiveSeed on, none of them among these, so that no live
// figure is set against a simulated run of its own draws.
const (
	SimSeeds = 50
	LiveSeed = 1001
)

// Simulate runs the scenario on the planner, backoff.Run with independent
// draws, for each seed first, first+1, ..., first+count-1, and returns each
// seed's figures in order.
func Simulate(sc Scenario, first, count int) ([]Figures, error) {
	out := make([]Figures, count)
	errs := make([]error, count)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i := range count {
		s := sc.Settings(first + i)
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			r, err := backoff.Run(sc.Policy(), s, backoff.Options{Series: true})
			if err != nil {
				errs[i] = fmt.Errorf("%s, seed %d: %w", sc.Name, first+i, err)
				return
			}
			out[i] = simFigures(sc, r)
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// simFigures are a planner's run's figures with the busiest slot of
// retries during the outage, from its series.
func simFigures(sc Scenario, r backoff.Result) Figures {
	f := Figures{Figures: r.Figures}
	if r.Series != nil {
		for i, v := range r.Series.Retries {
			if i*r.Series.Slot < sc.Outage {
				f.BusiestInOutage = max(f.BusiestInOutage, v)
			}
		}
	}
	return f
}

// Spread is how a figure varies over the simulator's seeds: the
// nearest-rank 5th, 50th and 95th percentiles of the values sorted from
// low to high (MODEL.md: the value at rank ceil(p*n/100)). A seed where
// the figure does not exist (-1: no client got through) is left out and
// counted in Absent.
type Spread struct {
	P5, Median, P95 int
	Absent          int
}

// SpreadOf is the spread of one figure over runs.
func SpreadOf(runs []Figures, get func(Figures) int) Spread {
	var v []int
	sp := Spread{P5: -1, Median: -1, P95: -1}
	for _, f := range runs {
		if x := get(f); x >= 0 {
			v = append(v, x)
		} else {
			sp.Absent++
		}
	}
	if len(v) == 0 {
		return sp
	}
	slices.Sort(v)
	sp.P5, sp.Median, sp.P95 = backoff.NearestRank(v, 5), backoff.NearestRank(v, 50), backoff.NearestRank(v, 95)
	return sp
}

// Inside reports whether v lies in the spread's p5-p95 band.
func (sp Spread) Inside(v int) bool { return sp.Median >= 0 && v >= sp.P5 && v <= sp.P95 }
