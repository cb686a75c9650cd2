package backoff

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
)

// One seed's crowd is one draw. The crowd over many seeds runs the same
// settings for seeds First, First+1, ..., First+Count-1 and reports, for each
// policy and each figure, how it spreads over those draws:
//
//	median: the nearest-rank 50th percentile
//	p95:    the nearest-rank 95th percentile
//	worst:  the 100th percentile
//
// with the values sorted from best to worst (see FigureField.Better; where a
// figure is neither better nor worse, from low to high). The nearest-rank
// p-th percentile of n values is the value at rank ceil(p*n/100), counting
// from 1: always a value one of the seeds gave, never an average of two. A
// figure that does not exist in a seed (-1: no client got through, say)
// ranks after every value, as the worst; a percentile that lands on it is -1.

// Spread is how one figure varies over many seeds.
type Spread struct {
	Median int
	P95    int
	Worst  int
}

// PolicySpread is one policy over many seeds.
type PolicySpread struct {
	Policy Policy
	// Spreads holds each figure's spread, in FigureFields' order.
	Spreads []Spread
	// Overloaded counts the seeds in which the service was still
	// overloaded in the load's last second.
	Overloaded int
	// NoneThrough counts the seeds in which no client got through.
	NoneThrough int
}

// Spread returns the spread of the figure with that JSON name.
func (ps PolicySpread) Spread(name string) Spread {
	for i, f := range FigureFields() {
		if f.Name == name && i < len(ps.Spreads) {
			return ps.Spreads[i]
		}
	}
	return Spread{Median: -1, P95: -1, Worst: -1}
}

// SeedsCrowd is each policy's crowd over Count seeds from First.
type SeedsCrowd struct {
	First, Count int
	Policies     []PolicySpread
}

// MaxSeeds is the most seeds one run of RunSeeds takes.
const MaxSeeds = 10000

// SeedsMemory bounds the scratch memory of RunSeeds's workers together, in
// bytes: however many cores there are, it starts no more workers than this
// much scratch allows (and at least one).
const SeedsMemory = 256 << 20

// SeedOptions are how RunSeeds runs.
type SeedOptions struct {
	Workers int           // goroutines at most; the answer does not depend on it
	Stop    func() bool   // as in Options
	Done    *atomic.Int64 // if set, counts the seeds done, for a progress bar
}

// workerScratch bounds one worker's scratch memory for a run of pl under
// s. On the fast path: the latencies and one client's retries, and the slot
// counts, or past maxCountSlots a bit a slot and the repeated slots with
// the sort's other half; four bytes a value, twice what is used where a
// slice grows by doubling. Else the engine's pending attempts and ring.
func workerScratch(pl *plan, s Settings) int64 {
	if n := int64(fastSlots(pl, s)); !s.HasService() && n <= maxFastSlots {
		retries := int64(s.Clients) * int64(pl.retries)
		fixed := 2*int64(s.Clients)*4 + int64(pl.retries)*4
		switch {
		case n <= maxCountSlots && retries < 1<<16:
			return n*2 + fixed
		case n <= maxCountSlots:
			return n*4 + fixed
		}
		return (n+63)/64*8 + 2*2*retries*4 + fixed
	}
	return int64(s.Clients+s.FreshRequests())*48 + maxRing*24*2
}

// SeedWorkers is how many workers RunSeeds starts for these policies and
// settings, given at most want: no more than SeedsMemory allows. A worker
// keeps its scratch from one policy to the next, so it may hold the
// largest of each kind the policies need: their sum bounds it.
func SeedWorkers(ps []Policy, s Settings, want, count int) int {
	all := int64(1)
	for _, p := range ps {
		if p.Validate() == nil {
			all += workerScratch(newPlan(p, s.Draws), s)
		}
	}
	return int(max(1, min(int64(want), int64(count), SeedsMemory/all)))
}

// RunSeeds runs the policies' crowds for seeds s.Seed to s.Seed+count-1
// (count >= 1) and sums up each figure's spread. Each seed's figures go into
// that seed's own place before any is summed up, so the answer is the same
// for any number of workers.
func RunSeeds(ps []Policy, s Settings, count int, o SeedOptions) (SeedsCrowd, error) {
	out := SeedsCrowd{First: s.Seed, Count: max(count, 1)}
	count = out.Count
	if err := s.ValidateIn(WideLimits); err != nil {
		return out, err
	}
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			return out, err
		}
	}
	plans := make([]*plan, len(ps))
	for i, p := range ps {
		plans[i] = newPlan(p, s.Draws)
		if err := checkQueue(p, plans[i], s); err != nil {
			return out, err
		}
	}
	perSeed := make([][]Figures, count)
	workers := SeedWorkers(ps, s, o.Workers, count)

	// Seeds are handed out one at a time: one seed's crowds take far longer
	// than an atomic add, and a worker slowed by a busy machine simply takes
	// fewer of them.
	var next atomic.Int64
	var stopped atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var runner crowdRunner // one engine at a time, each leaving its chunks to the next
			for {
				i := int(next.Add(1) - 1)
				if i >= count || stopped.Load() {
					return
				}
				one := s
				one.Seed = s.Seed + i
				figs := make([]Figures, len(ps))
				for p, pl := range plans {
					if stopped.Load() { // another worker was told to stop
						return
					}
					var err error
					if figs[p], err = runner.run(pl, one, o.Stop); err != nil {
						stopped.Store(true)
						return
					}
				}
				perSeed[i] = figs
				if o.Done != nil {
					o.Done.Add(1)
				}
				if o.Stop != nil && o.Stop() {
					stopped.Store(true)
					return
				}
			}
		})
	}
	wg.Wait()
	if stopped.Load() {
		return out, ErrStopped
	}

	column := make([]Figures, count)
	for p, pol := range ps {
		for i := range perSeed {
			column[i] = perSeed[i][p]
		}
		out.Policies = append(out.Policies, SpreadOf(pol, column))
	}
	return out, nil
}

// spreadOf sorts values, one seed's each, from best to worst and returns
// their spread; it reorders values.
func spreadOf(values []int, f FigureField) Spread {
	rank := func(v int) int { // the order from best to worst, absent last
		switch {
		case f.Optional && v < 0:
			return int(^uint(0) >> 1)
		case f.Better == Higher:
			return -v
		}
		return v
	}
	slices.SortFunc(values, func(a, b int) int { return cmp.Compare(rank(a), rank(b)) })
	n := len(values)
	return Spread{Median: values[rankOf(50, n)], P95: values[rankOf(95, n)], Worst: values[n-1]}
}
