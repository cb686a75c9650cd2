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
	// SoFar, if set, holds the seeds as they land, for the spread of those
	// done so far (SeedsSoFar.Spread) while the run goes on.
	SoFar *SeedsSoFar
}

// SeedsSoFar holds the figures of a RunSeeds's seeds as they land, so that
// another goroutine may ask, while it runs, for the spread of the seeds
// done so far: a person reading the spread of 100 seeds of a million
// clients can stop once it has settled. The spread so far is that of the
// seeds from the first on that have all landed, First to First+Count-1
// (a seed that lands before one ahead of it waits for it), so that it is
// exactly what RunSeeds of Count seeds gives, whatever the workers. Each
// RunSeeds takes a SeedsSoFar of its own; the zero value is ready.
type SeedsSoFar struct {
	mu      sync.Mutex
	ps      []Policy
	first   int
	count   int
	perSeed [][]Figures // by the seed's place from first; nil until it lands
	prefix  int         // the seeds at places 0 to prefix-1 have all landed
}

// start readies sf for count seeds from first of policies ps.
func (sf *SeedsSoFar) start(ps []Policy, first, count int) {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	sf.ps, sf.first, sf.count = slices.Clone(ps), first, count
	sf.perSeed, sf.prefix = make([][]Figures, count), 0
}

// land records the figures of the seed at place i.
func (sf *SeedsSoFar) land(i int, figs []Figures) {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	if i < 0 || i >= len(sf.perSeed) {
		return
	}
	sf.perSeed[i] = figs
	for sf.prefix < len(sf.perSeed) && sf.perSeed[sf.prefix] != nil {
		sf.prefix++
	}
}

// Done is how many seeds the spread so far holds (the first of them all
// landed) and how many the run takes.
func (sf *SeedsSoFar) Done() (done, of int) {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	return sf.prefix, sf.count
}

// Spread is the spread of the seeds done so far, First to First+Count-1:
// each figure's nearest-rank median, p95 and worst over those Count seeds,
// exactly as RunSeeds of Count seeds from First gives them; ok is false
// before the first seed has landed. It sorts every figure of those seeds,
// so a caller on a loop that must stay quick calls it elsewhere.
func (sf *SeedsSoFar) Spread() (sc SeedsCrowd, ok bool) {
	sf.mu.Lock()
	landed, ps, first := sf.perSeed[:sf.prefix], sf.ps, sf.first
	sf.mu.Unlock()
	if len(landed) == 0 {
		return SeedsCrowd{First: first}, false
	}
	// The seeds before prefix are never written again: read them unlocked.
	return summarize(ps, landed, first), true
}

// workerScratch bounds one worker's scratch memory for a run of pl under
// s. On the fast path: the latencies and one client's retries, and the slot
// counts, or past maxCountSlots a bit a slot and the repeated slots with
// the sort's other half; four bytes a value, twice what is used where a
// slice grows by doubling. Else the engine's pending attempts and ring, and
// with an outage that hangs the attempts that hang.
func workerScratch(pl *plan, s Settings) int64 {
	if n := int64(fastSlots(pl, s)); !s.needsClock() && n <= maxFastSlots {
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
	perClient := int64(48)
	if s.OutageHang > 0 {
		perClient += 2 * pendingBytes // a hanging attempt's place, in a ring that doubles
	}
	return int64(s.Clients+s.FreshRequests())*perClient + maxRing*24*2
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
	if o.SoFar != nil {
		o.SoFar.start(ps, s.Seed, count)
	}

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
				if o.SoFar != nil {
					o.SoFar.land(i, figs)
				}
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
	return summarize(ps, perSeed, s.Seed), nil
}

// summarize is each policy's spread over the seeds whose figures perSeed
// holds, from seed first on: SpreadOf each policy's column.
func summarize(ps []Policy, perSeed [][]Figures, first int) SeedsCrowd {
	out := SeedsCrowd{First: first, Count: len(perSeed)}
	column := make([]Figures, len(perSeed))
	for p, pol := range ps {
		for i := range perSeed {
			column[i] = perSeed[i][p]
		}
		out.Policies = append(out.Policies, SpreadOf(pol, column))
	}
	return out
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
