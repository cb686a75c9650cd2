package backoff

// What a run costs, worked out before it starts, so that a face can say
// that a run is large, refuse one past a ceiling of memory or time, and
// never start what would run the machine out of memory. The bounds follow
// the paths Run takes:
//
//   - the fast path (no service) counts the slots of the horizon in an
//     array, or past maxCountSlots marks them in a bitmap and sorts the
//     repeated slots: workerScratch's bytes; it draws every client's
//     retries (one client for all without jitter);
//   - the engine holds a pending attempt of 32 bytes for each client, a
//     latency of 4 each, and, where a bucket is wider than a millisecond,
//     the lists of the bucket it runs: every attempt made inside one
//     bucket's width W, which for the clients that start in it is the
//     first attempt and every retry whose waits, each taken at its band's
//     middle, add up to at most W; a queue holds at most Q requests, and
//     the attempts that hang at most one a client;
//   - a series keeps four counts a slot (four more with a queue, two with a
//     breaker) of 8 bytes,
//     up to MaxSeriesSlots slots: the fast path makes them at their
//     length, the engine grows them by doubling, twice their length at
//     most.
//
// The work is the attempts taken (every client's, at most the attempts
// each may make; without jitter or a budget the clients that start
// together count as one) and the slots, buckets or milliseconds visited.
// Both are bounds of what a run can take; a run that gets its clients
// through early takes less.

// WorkPerSecond is about how many units of work (Cost.Work) one core does
// a second, the fast path and the engine alike (measured on a 2020s laptop
// core: 15 to 30 million): a face turns a run's work into a time with it.
const WorkPerSecond = 20_000_000

// Cost is what a run takes at most: the bytes it holds at once and its
// work, with the work of its longest part, which no more workers shorten.
type Cost struct {
	Bytes    int64 // memory held at once, at most
	Work     int64 // attempts taken and slots, buckets or milliseconds visited
	Span     int64 // the work of the longest part that runs on one core
	Parallel int   // the most cores the run keeps busy at once
}

// Seconds is about how long the run takes on workers cores.
func (c Cost) Seconds(workers int) float64 {
	w := int64(max(min(workers, c.Parallel), 1))
	return float64(max((c.Work+w-1)/w, c.Span)) / WorkPerSecond
}

// Plus is the cost of c and d held at once: the memory of both, the work
// of both.
func (c Cost) Plus(d Cost) Cost {
	return Cost{Bytes: sat(c.Bytes, d.Bytes), Work: sat(c.Work, d.Work), Span: sat(c.Span, d.Span), Parallel: max(c.Parallel, d.Parallel)}
}

// Then is the cost of c and then d, one after the other: the larger
// memory, the work of both.
func (c Cost) Then(d Cost) Cost {
	return Cost{Bytes: max(c.Bytes, d.Bytes), Work: sat(c.Work, d.Work), Span: sat(c.Span, d.Span), Parallel: max(c.Parallel, d.Parallel)}
}

// fastCounting is how many times faster than the engine the fast path
// goes where it counts its slots in an array: a unit of its work is a
// fifth of the engine's.
const fastCounting = 5

// Sizes of what the runs hold, in bytes.
const (
	pendingBytes = 32  // a pending attempt (see chunk)
	figuresBytes = 256 // one policy's Figures, with room
	seriesCount  = 8   // one count of a series
)

// sat is a + b, no more than maxCost.
func sat(a, b int64) int64 { return min(a+b, maxCost) }

// mul is a * b, no more than maxCost.
func mul(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > maxCost/b {
		return maxCost
	}
	return min(a*b, maxCost)
}

// maxCost bounds every cost: far past any ceiling, far from overflow.
const maxCost = 1 << 60

// policyCost is the cost of policy p's crowd under s (valid), with its
// series or not: the scratch it holds while it runs, and the series it
// leaves.
type policyCost struct {
	scratch, series, work int64
	engine                bool // the engine runs it, not the fast path
}

func costOf(p Policy, s Settings, series, engine bool) policyCost {
	pl := newPlan(p, s.Draws)
	n := int64(s.Clients + s.FreshRequests())
	attempts := int64(pl.retries + 1)
	if !engine && !s.needsClock() {
		if slots := fastSlots(pl, s); slots <= maxFastSlots && (!series || slots <= MaxSeriesSlots) {
			var c policyCost
			c.scratch = workerScratch(pl, s)
			if series {
				c.series = mul(4*seriesCount, int64(slots))
			}
			walked := int64(s.Clients)
			if pl.same {
				walked = 1
			}
			c.work = sat(mul(walked, attempts), int64(slots))
			if slots <= maxCountSlots {
				c.work /= fastCounting // no sort: a draw and an add each
			}
			return c
		}
	}
	// The engine.
	c := policyCost{engine: true}
	bits := 0
	most := maxRing
	if !pl.same {
		most = jitterRing
	}
	reach := ringReach(pl, s)
	for reach>>bits+3 > most {
		bits++
	}
	cohorts := pl.same && s.Budget.Kind == BudgetNone && (!s.Breaker.On() || s.ProcessCount() <= 1)
	pending := n // one pending attempt a client at most
	if cohorts {
		pending = min(n, 1+int64(min(s.FreshRequests(), s.LoadEnd())))
	}
	c.scratch = sat(mul(n, 4), mul(pending, pendingBytes*2))
	c.scratch = sat(c.scratch, int64(reach>>bits+3)*64) // the ring's buckets
	if s.OutageHang > 0 {
		c.scratch = sat(c.scratch, mul(pending, pendingBytes*2)) // the attempts that hang, at most one a client
	}
	if bits > 0 {
		width := int64(1) << bits
		fits := int64(1) // the first attempt
		sum := int64(0)
		for k := 1; k <= pl.retries; k++ {
			sum += int64(pl.lo[k]) + int64(pl.width[k]-1)/2
			if sum > width {
				break
			}
			fits++
		}
		starting := int64(s.Clients) + min(int64(s.FreshRequests()), mul(int64(s.Load), width)/1000+1)
		if cohorts {
			starting = min(starting, 1+width)
		}
		c.scratch = sat(c.scratch, mul(mul(starting, fits), pendingBytes*2))
		c.scratch = sat(c.scratch, width*40) // each millisecond's list and place
	}
	if s.HasQueue() {
		c.scratch = sat(c.scratch, mul(min(int64(s.Queue), mul(n, attempts)), pendingBytes*2))
	}
	h := engineHorizon(pl, s)
	if series {
		fields := int64(4)
		if s.HasQueue() {
			fields += 4
		}
		if s.Breaker.On() {
			fields += 2
		}
		slots := min(h/int64(s.Slot)+1, MaxSeriesSlots)
		c.series = mul(fields*seriesCount*2, slots)
	}
	walked := n
	if cohorts {
		walked = pending
	}
	c.work = sat(mul(walked, attempts), h>>bits)
	if s.HasQueue() {
		c.work = sat(c.work, h-int64(s.Outage))
	}
	return c
}

// engineHorizon bounds the engine's last moment: the last client's start
// and its waits (at most its limit on total time), no sooner than the
// outage's end; with a queue, the time the service takes to work off a
// full queue after that. An outage that hangs adds H to every attempt,
// pushback makes a wait R where that is longer.
func engineHorizon(pl *plan, s Settings) int64 {
	start := int64(0)
	if s.FreshRequests() > 0 {
		start = int64(s.LoadEnd())
	}
	waits := int64(0)
	for k := 1; k <= pl.retries; k++ {
		w := int64(pl.lo[k]) + int64(pl.width[k]-1)
		if pl.kind == JitterDecorrelated {
			w = int64(pl.longestDraw)
		}
		waits += max(w, int64(s.RetryAfter)) + int64(s.OutageHang)
	}
	if pl.maxElapsed > 0 {
		waits = min(waits, int64(pl.maxElapsed))
	}
	waits += int64(s.OutageHang) // the last attempt's
	h := max(start+waits, int64(s.Outage)+int64(calendarReach(pl, s))+int64(s.OutageHang))
	if s.HasQueue() && s.Capacity > 0 {
		h += int64(s.Queue)*1000/int64(s.Capacity) + int64(s.Timeout)
	}
	return h
}

// RunAllCost is what RunAll(ps, s, o, workers) takes at most: the series
// of every policy, which it keeps, and the scratch of the workers' runs at
// once, the largest together. Policies that are not valid cost nothing:
// RunAll refuses them.
func RunAllCost(ps []Policy, s Settings, o Options, workers int) Cost {
	if s.ValidateIn(WideLimits) != nil {
		return Cost{}
	}
	var c Cost
	var scratch []int64
	for _, p := range ps {
		if p.Validate() != nil {
			continue
		}
		pc := costOf(p, s, o.Series, o.Engine)
		c.Bytes = sat(c.Bytes, sat(pc.series, figuresBytes))
		c.Work = sat(c.Work, pc.work)
		c.Span = max(c.Span, pc.work)
		scratch = append(scratch, pc.scratch)
	}
	// The workers run the largest scratch at once, at worst.
	for range max(workers, 1) {
		i := -1
		for j, b := range scratch {
			if i < 0 || b > scratch[i] {
				i = j
			}
		}
		if i < 0 {
			break
		}
		c.Bytes = sat(c.Bytes, scratch[i])
		scratch = append(scratch[:i], scratch[i+1:]...)
		c.Parallel++
	}
	return c
}

// RunSeedsCost is what RunSeeds(ps, s, count, o) takes at most: each of
// its workers (as many as SeedWorkers starts) holds the largest scratch of
// each kind its policies need, the fast path's and the engine's, and every
// seed's figures are kept until the end.
func RunSeedsCost(ps []Policy, s Settings, count int, o SeedOptions) Cost {
	if s.ValidateIn(WideLimits) != nil {
		return Cost{}
	}
	count = max(count, 1)
	var c Cost
	var fast, engine, perSeed int64 // a worker's scratch of each kind grows to the largest policy's
	for _, p := range ps {
		if p.Validate() != nil {
			continue
		}
		pc := costOf(p, s, false, false)
		if pc.engine {
			engine = max(engine, pc.scratch)
		} else {
			fast = max(fast, pc.scratch)
		}
		perSeed = sat(perSeed, pc.work)
	}
	perWorker := sat(fast, engine)
	workers := SeedWorkers(ps, s, max(o.Workers, 1), count)
	c.Bytes = sat(mul(int64(workers), perWorker), mul(int64(count), int64(len(ps))*figuresBytes))
	c.Work = mul(perSeed, int64(count))
	c.Span = perSeed
	c.Parallel = workers
	return c
}
