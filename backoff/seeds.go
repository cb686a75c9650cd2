package backoff

import (
	"slices"
	"sync"
	"sync/atomic"
)

// One seed's crowd is one draw. The crowd over many seeds runs the same
// settings for seeds First, First+1, ..., First+Count-1 and reports, for each
// policy and each figure of the crowd table, how the figure spreads over
// those draws:
//
//	median: the nearest-rank 50th percentile
//	p95:    the nearest-rank 95th percentile
//	worst:  the largest value, the 100th percentile
//
// The nearest-rank p-th percentile of n values sorted from best to worst is
// the value at rank ceil(p*n/100), counting from 1. It is always a value that
// one of the seeds gave, never an average of two: for an even n the median is
// the lower of the two middle values.
//
// For every figure a larger value is worse: more retries, more retries in
// the busiest slot, a later time by which all got through, more clients that
// gave up. A seed in which no client got through has no such time
// (LastThrough is -1); it ranks after every time, as the worst of all, and a
// percentile that lands on it is -1 too. Where the busiest slot lies has no
// worst and is left out.

// Spread is how one figure varies over many seeds.
type Spread struct {
	Median int
	P95    int
	Worst  int
}

// PolicySpread is one policy's crowd over many seeds.
type PolicySpread struct {
	Policy Policy
	// Retries is the spread of Crowd.Retries.
	Retries Spread
	// Busiest is the spread of the most retries in one slot.
	Busiest Spread
	// LastThrough is the spread of Crowd.LastThrough in ms; -1 stands for a
	// seed in which no client got through, which is worse than any time.
	LastThrough Spread
	// GaveUp is the spread of Crowd.GaveUp.
	GaveUp Spread
	// NoneThrough counts the seeds in which no client got through.
	NoneThrough int
}

// SeedsCrowd is the crowd under each policy over Count seeds from First.
type SeedsCrowd struct {
	First, Count int
	Policies     [NumPolicies]PolicySpread
}

// MaxSeeds is the most seeds one run of RunSeeds takes.
const MaxSeeds = 10000

// crowdFigures are the figures of one seed's crowd under one policy.
type crowdFigures struct {
	retries, busiest, lastThrough, gaveUp int
}

// RunSeeds runs the five policies' crowds for seeds s.Seed to
// s.Seed+count-1 (count >= 1) and summarises each figure's spread. It spreads
// the seeds over workers goroutines (at least 1); each seed's figures go into
// that seed's own place before any is summarised, so the answer is the same
// for any number of workers. Invalid settings give no seeds.
func RunSeeds(s Settings, count, workers int) SeedsCrowd {
	if s.Validate() != nil {
		return SeedsCrowd{First: s.Seed} // no seeds: invalid settings draw nothing
	}
	count = max(count, 1)
	workers = max(1, min(workers, count))
	pl := newPlan(s)
	perSeed := make([][NumPolicies]crowdFigures, count)

	// Seeds are handed out one at a time: one seed's crowds take far longer
	// than an atomic add, and a worker slowed by a busy machine simply takes
	// fewer of them. Each worker counts slots in its own scratch array.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			t := newTally(pl, s.Slot)
			defer t.release()
			for {
				i := int(next.Add(1) - 1)
				if i >= count {
					return
				}
				one := s
				one.Seed = s.Seed + i
				for p := range NumPolicies {
					perSeed[i][p] = t.figures(Policy(p), one)
				}
			}
		})
	}
	wg.Wait()

	out := SeedsCrowd{First: s.Seed, Count: count}
	values := make([]int, count)
	spread := func(p int, figure func(crowdFigures) int) Spread {
		for i := range perSeed {
			values[i] = figure(perSeed[i][p])
		}
		return spreadOf(values)
	}
	for p := range NumPolicies {
		ps := PolicySpread{Policy: Policy(p)}
		ps.Retries = spread(p, func(f crowdFigures) int { return f.retries })
		ps.Busiest = spread(p, func(f crowdFigures) int { return f.busiest })
		ps.GaveUp = spread(p, func(f crowdFigures) int { return f.gaveUp })
		ps.LastThrough = spread(p, func(f crowdFigures) int {
			if f.lastThrough < 0 {
				return noneThrough
			}
			return f.lastThrough
		})
		ps.LastThrough = Spread{Median: fromRanked(ps.LastThrough.Median), P95: fromRanked(ps.LastThrough.P95), Worst: fromRanked(ps.LastThrough.Worst)}
		for i := range perSeed {
			if perSeed[i][p].lastThrough < 0 {
				ps.NoneThrough++
			}
		}
		out.Policies[p] = ps
	}
	return out
}

// noneThrough ranks a seed in which no client got through after every time.
const noneThrough = int(^uint(0) >> 1)

// fromRanked turns noneThrough back into LastThrough's -1.
func fromRanked(ms int) int {
	if ms == noneThrough {
		return -1
	}
	return ms
}

// spreadOf sorts values in place and returns their spread.
func spreadOf(values []int) Spread {
	slices.Sort(values)
	return Spread{
		Median: NearestRank(values, 50),
		P95:    NearestRank(values, 95),
		Worst:  NearestRank(values, 100),
	}
}

// NearestRank returns the nearest-rank p-th percentile (1 <= p <= 100) of
// values sorted in ascending order: the value at rank ceil(p*n/100), counting
// from 1. It returns 0 for no values.
func NearestRank(sorted []int, p int) int {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	rank := (p*n + 99) / 100 // ceil(p*n/100) for p*n >= 0
	rank = min(max(rank, 1), n)
	return sorted[rank-1]
}
