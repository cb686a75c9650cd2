package backoff

import (
	"math"
	"sync"
)

// What a run costs, worked out before it starts, so that a face can say
// that a run is large, refuse one past a ceiling of memory or time, and
// never start what would run the machine out of memory.
//
// The time is the work the run does, not the time it may reach. The
// engine (engine.go, queue.go) spends its time on a few things, each
// measured on its own: the attempts it takes, one at a time, or a cohort
// at a time where clients wait alike; the clients it serves (a latency
// each); the milliseconds it visits because something happens in them (an
// attempt, an arrival, a request waiting in the queue); the buckets of its
// calendar it steps over, empty, and the milliseconds of a wide bucket it
// looks into; the lists of attempts it puts in client order; and what it
// allocates for a run (a latency a client, or a count a millisecond of
// the horizon where fewer, a chunk of 256 attempts for each bucket in use,
// a budget a process). A millisecond in which nothing happens is never
// visited, and a bucket with nothing in it costs a few nanoseconds: an
// hour's outage or a day's timeout costs nothing by itself.
//
// How many attempts a run takes, and how long its queue holds requests,
// depend on the run; the estimate finds them by running it in miniature
// (miniRun): the crowd, the fresh load, every attempt's outcome and every
// retry's wait, taken as amounts rather than clients, over spans of time
// that grow with the time before them (an outage's end placed within 5%
// wherever it falls). It follows the model's rules as amounts follow them:
// the service is down before the outage, the crowd's trigger fails, a
// slot's capacity serves what it has room for and rejects the rest, a
// queue takes what it has room for and serves its oldest (FIFO) or newest
// (LIFO), an attempt waiting past the timeout fails then and its request
// is wasted or dropped later, a budget lets a retry through while its
// tokens allow, a client gives up after its last attempt or past its
// limit on total time, and each retry comes after a wait spread over its
// band. So a healthy service's clients cost one attempt after the outage
// and an overloaded one's every attempt; an attempt that hangs is known
// to fail H later; a breaker, every process's alike, opens at F failures
// in a row for D and short-circuits what comes while it is shut, its
// clients going on at once (so a breaker that stays shut through a storm
// burns its clients' attempts, as the engine's does); a queue that empties at once
// costs the milliseconds its requests wait, one that stays full every
// millisecond until it drains; and a run ends when nothing waits, however
// far its horizon.
//
// The costs of each thing (the ns* constants) were measured by running
// the engine on 400 random settings (every jitter, both draws, loads,
// capacities, queues of either order with and without timeouts, budgets
// of 1 to 100,000 processes), counting each thing in the engine as it
// ran, and fitting its CPU time, each run's error weighed alike: the fit
// is of the engine, not of the runs the estimate is then held to (the
// table of real runs in model/cli's tests). The fast path (no service) is
// measured alike on 150 crowds: the retries it draws, counted in an
// array or sorted, its clients and its slots. A short-circuited attempt
// (nsShort) was measured apart, on crowds of 100,000 clients whose
// breakers short-circuited nearly every attempt (20:5s, with and without a
// hang of 3 s and pushback of 2 s, and 5:30s; exponential, full jitter,
// decorrelated): its CPU time beside the same crowds' other costs, scaled
// as the estimate of each crowd without a breaker stands to its CPU time,
// came to 18 to 43 ns, the median 29; 25 is taken. A spread over seeds costs
// its seeds' crowds, what each worker makes once, and the ranking of
// every figure over the seeds.
//
// The memory is what the run holds at once, its chunks as the miniature
// finds them in use and the rest at its most: the fast path counts the
// slots of the horizon in an array, or past maxCountSlots marks them in a
// bitmap and sorts the repeated slots (workerScratch's bytes); the engine
// holds a latency of 4 bytes for each client (a count of 4 bytes for each
// millisecond of its horizon, where fewer), its calendar's ring and a
// chunk of 256 pending attempts of 32 bytes for each bucket in use and
// each 256 waiting, the attempts of a bucket put in order twice over (all
// that wait at once without jitter, which wait alike; else a bucket of
// the busiest quarter) and, where a bucket is wider than a millisecond,
// every attempt made inside one bucket's width W: for the clients that
// start in it, the first attempt and every retry whose waits, each taken
// at its band's middle, add up to at most W; a queue's ring of what it
// holds at most, doubled as it grows, never more than Q requests nor the
// attempts made; a budget's 8 bytes a process; a series keeps four counts
// a slot (eight with a queue) of 8 bytes, up to MaxSeriesSlots slots: the
// fast path makes them at their length, the engine grows them by
// doubling, twice their length at most.

// WorkPerSecond is how many units of work (Cost.Work) one core does a
// second: a unit is a nanosecond of the core the costs were measured on.
const WorkPerSecond = 1_000_000_000

// Cost is what a run takes: the bytes it holds at once, at most, and its
// work, with the work of its longest part, which no more workers shorten.
type Cost struct {
	Bytes    int64 // memory held at once, at most
	Work     int64 // nanoseconds of one core, about
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

// Times is the cost of n runs of c one after the other (none for n <= 0):
// the memory of one, the work and the span of n.
func (c Cost) Times(n int64) Cost {
	if n <= 0 {
		return Cost{}
	}
	return Cost{Bytes: c.Bytes, Work: mul(c.Work, n), Span: mul(c.Span, n), Parallel: c.Parallel}
}

// The engine's costs, in nanoseconds of one core (see the top of the
// file for how they were measured).
const (
	nsAttempt   = 17   // an attempt taken alone: its draw, its outcome, its place in the calendar
	nsCold      = 34   // more, where the calendar's chunks in use pass 256 (2 MB) and fall out of the cache
	nsCohort    = 29   // a cohort's attempts taken together
	nsServed    = 24   // a client served: its latency kept, and ranked at the end
	nsVisit     = 29   // a millisecond visited without a queue
	nsQueueMs   = 31   // a millisecond visited with a queue: timeouts, arrivals, service
	nsBucket    = 4    // a bucket of the calendar stepped over
	nsBucketMs  = 9    // a millisecond of a wide bucket looked into
	nsSort      = 2.1  // a list put in client order: this times n log2 n
	nsFarBudget = 29   // an attempt's budget, where the processes' tokens (8 bytes each) pass 256 KB
	nsRun       = 3203 // a run's start and end
	nsClient    = 2    // a client's place for its latency, made at the start
	nsProcess   = 9    // a process's budget, made at the start
	nsRingSlot  = 26   // a bucket of the calendar, made at the start
	nsChunk     = 8834 // a chunk of 256 attempts, made the first time it is needed
	nsShort     = 25   // an attempt a breaker short-circuited, most run on by their client without the calendar

	// The fast path.
	nsFastRetry  = 6    // a retry drawn and counted in an array
	nsFastSorted = 40   // a retry drawn and marked, its slot sorted where repeated
	nsFastClient = 14   // a client's walk begun
	nsFastSlot   = 1    // a slot of the horizon, looked into and cleared
	nsFastRun    = 1284 // a run's start and end

	// A spread over seeds: each figure of each policy ranked over the
	// seeds, this times n log2 n.
	nsRank = 4
)

// Sizes of what the runs hold, in bytes.
const (
	pendingBytes = 16  // a pending attempt (see chunk)
	figuresBytes = 256 // one policy's Figures, with room
	seriesCount  = 8   // one count of a series
)

// sat is a + b, no more than maxCost.
func sat(a, b int64) int64 { return min(a+b, maxCost) }

// mul is a * b, no more than maxCost; 0 where either is 0 or less.
func mul(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > maxCost/b {
		return maxCost
	}
	return min(a*b, maxCost)
}

// whole is x, an amount of work or bytes, as a whole number from 0 to
// maxCost.
func whole(x float64) int64 {
	switch {
	case !(x > 0): // also NaN
		return 0
	case x >= maxCost:
		return maxCost
	}
	return int64(math.Ceil(x))
}

// maxCost bounds every cost: far past any ceiling, far from overflow.
const maxCost = 1 << 60

// policyCost is the cost of policy p's crowd under s (valid), with its
// series or not: the scratch it holds while it runs, and the series it
// leaves; its work, of which setup is what a run makes at its start, which
// a worker running one seed after another makes once.
type policyCost struct {
	scratch, series, work, setup int64
	engine                       bool // the engine runs it, not the fast path
}

func costOf(p Policy, s Settings, series, engine bool) policyCost {
	pl := newPlan(p, s.Draws)
	if !engine && !s.needsClock() {
		if slots := fastSlots(pl, s); slots <= maxFastSlots && (!series || slots <= MaxSeriesSlots) {
			return fastCost(pl, s, series)
		}
	}
	// The engine: the run in miniature says what it does and holds.
	c := policyCost{engine: true}
	h := engineHorizon(pl, s)
	w, m := engineCounts(pl, s, h)
	c.work, c.setup = whole(w.ns()), whole(w.setupNs())
	// Its memory: a latency for every client, or a count for every
	// millisecond of the horizon where fewer (latencyTally); the
	// calendar's ring, and its chunks in use, of chunkLen pending attempts
	// each, kept for reuse, or for cohorts in lanes the lanes' rings; a bucket's attempts put in order of their milliseconds, or of
	// their clients, twice where both (the most that wait at once, without
	// jitter all in one bucket); a wide bucket's lists; the queue's ring of
	// pending attempts, a power of two, doubled as it grows; a budget's
	// tokens, 8 bytes a process.
	bits, _ := ringShape(pl, s)
	most := m.groups
	if !pl.same { // spread over the buckets: one of the busiest quarter
		most = min(most, 4*most/max(w.chunks-most/chunkLen, 1))
	}
	bytes := 4*w.latencies + (24+16)*w.ring + w.chunks*chunkLen*pendingBytes + 8*w.processes
	if s.OutageHang > 0 {
		// The attempts that hang wait in a list of their own, doubled as
		// it grows: those made in H while the service is down, but the
		// crowd's first and those short-circuited; one a client at most.
		bytes += 2 * min(w.clients, m.attempts, m.hanging) * pendingBytes
	}
	if s.Breaker.On() {
		bytes += float64(breakerBytes) * float64(s.ProcessCount())
	}
	if bits > 0 {
		// A wide bucket's lists hold every attempt made inside its width
		// W: for the clients that start in it, the first attempt and every
		// retry whose waits, each taken at its band's middle, add up to at
		// most W.
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
		if w.share < 1 {
			starting = min(starting, 1+width)
		}
		lists := float64(mul(starting, fits))
		if s.Budget.Kind != BudgetNone {
			// Under a budget the crowd's first attempts are taken in
			// order as they come, and only the retries its tokens let
			// through wait: no more than the calendar holds at once.
			lists = min(lists, m.pending)
		}
		most = max(most, lists)
		bytes += float64(40 * width) // each millisecond's list and place
	}
	bytes += 2 * most * pendingBytes
	if inLanes(pl, s) {
		bytes += 2 * m.groups * pendingBytes // the lanes' rings, doubled as they grow
	}
	if s.HasQueue() {
		bytes += 4 * min(m.queued+1, float64(queueRoom(pl, s))) * pendingBytes
	}
	c.scratch = whole(bytes)
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
	return c
}

// engineWork is what the engine does in a run, counted as its costs are
// (see the ns* constants).
type engineWork struct {
	attempts, cold, cohorts, served, visits, queueVisits, buckets, bucketMs, sorted, farBudget float64
	short                                                                                      float64 // short-circuited takes, counted on their own
	// What a run makes at its start: among them the latencies' places, a
	// value a client or a count a millisecond of the horizon
	// (latencyTally).
	clients, latencies, processes, ring, chunks float64
	share                                       float64 // the takes an attempt costs: one, or a cohort's share
}

// setupNs is the nanoseconds of what a run makes at its start, which a
// worker that runs crowd after crowd keeps (a budget it makes anew).
func (w engineWork) setupNs() float64 {
	return nsRun + nsClient*w.latencies + nsRingSlot*w.ring + nsChunk*w.chunks
}

// ns is the nanoseconds of the run.
func (w engineWork) ns() float64 {
	return w.setupNs() + nsProcess*w.processes + nsAttempt*w.attempts + nsCold*w.cold + nsCohort*w.cohorts + nsServed*w.served +
		nsVisit*w.visits + nsQueueMs*w.queueVisits + nsBucket*w.buckets + nsBucketMs*w.bucketMs + nsSort*w.sorted +
		nsFarBudget*w.farBudget + nsShort*w.short
}

// engineCounts is what the engine does in a run of pl under s, whose
// horizon is h, as the run in miniature, which it returns too, finds it.
func engineCounts(pl *plan, s Settings, h int64) (engineWork, miniature) {
	n := float64(s.Clients + s.FreshRequests())
	bits, ring := ringShape(pl, s)
	wide := float64(int64(1) << bits)
	cohorts := pl.same && s.Budget.Kind == BudgetNone
	// The clients that start apart: the crowd and each millisecond of the
	// fresh load. Without jitter the clients of each wait alike.
	groups := float64(1 + min(int64(s.FreshRequests()), int64(s.LoadEnd())))
	share := 1.0 // the takes an attempt costs: one, or a cohort's share
	if cohorts {
		share = groups / max(n, 1)
	}
	m := miniRun(pl, s, h, share, wide)
	w := engineWork{clients: n, latencies: n, ring: float64(ring), served: m.served, sorted: m.sorted, buckets: m.end / wide, share: share}
	if float64(h) < n {
		w.latencies = float64(h + 1)
	}
	w.short = m.shortTakes
	lanes := inLanes(pl, s) // no ring, no chunks, no bucket stepped over
	if cohorts {
		w.cohorts = m.takes - m.shortTakes
	} else {
		w.attempts = m.attempts - m.short
	}
	// The chunks in use: one for each bucket holding an attempt, and one
	// more for each 256 attempts. The attempts waiting lie within the
	// longest wait (or pushback) of one another: a breaker's ring reaches
	// its open time further, for the attempts its chains put after it,
	// but those wait there instead of before it.
	w.chunks = min(float64(ring), float64(calendarReach(pl, s)>>bits)+1, m.buckets) + m.groups/chunkLen
	if w.chunks > 256 {
		w.cold = m.takes - m.shortTakes
	}
	if lanes {
		w.ring, w.chunks, w.cold, w.buckets = 0, 0, 0, 0
	}
	if s.Budget.Kind != BudgetNone {
		w.processes = min(float64(s.ProcessCount()), max(n, 1)) // a token bucket a process, as newBudgets makes them
		if w.processes*8 > 256<<10 {
			w.farBudget = m.attempts
		}
	}
	if s.HasQueue() {
		w.queueVisits = m.busy
	} else {
		w.visits = m.busy
	}
	if bits > 0 { // the milliseconds of the buckets with something in them
		w.bucketMs = min(m.end, m.busy*wide)
	}
	return w, m
}

// fastCost is the cost of the fast path of pl under s: the retries it
// draws (one client for all without jitter), counted in an array or
// marked and sorted, its clients' walks and the slots it counts in.
func fastCost(pl *plan, s Settings, series bool) policyCost {
	slots := fastSlots(pl, s)
	c := policyCost{scratch: workerScratch(pl, s)}
	if series {
		c.series = mul(4*seriesCount, int64(slots))
	}
	walked := float64(s.Clients)
	if pl.same {
		walked = 1
	}
	one := s
	one.Clients = 1
	retries := walked * (miniRun(pl, one, int64(pl.horizon(s.Outage, s.OutageHang)), 1, 1).attempts - 1)
	perRetry := float64(nsFastRetry)
	if slots > maxCountSlots {
		perRetry = nsFastSorted
	}
	c.work = whole(nsFastRun + perRetry*retries + nsFastClient*walked + nsFastSlot*float64(slots))
	c.setup = nsFastRun
	return c
}

// engineHorizon bounds the engine's last moment: the last client's start
// and its waits (at most its limit on total time), no sooner than the
// outage's end and a wait; with a queue, queueHorizon. An outage that
// hangs adds H to every attempt, pushback makes a wait R where longer.
func engineHorizon(pl *plan, s Settings) int64 {
	if s.HasQueue() && s.Capacity > 0 {
		return queueHorizon(pl, s)
	}
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
	return max(start+waits, int64(s.Outage)+int64(calendarReach(pl, s))+int64(s.OutageHang))
}

// A run in miniature takes time in spans of 1 ms up to miniLinear ms,
// then each miniGrowth times as long as the one before, so that an
// outage's end or a load's is placed within 5% wherever it falls, and a
// day takes some 300 spans.
const (
	miniLinear = 20
	miniGrowth = 1.05
)

// miniSome is the least amount of clients a run in miniature takes for
// something: less is what the arithmetic of amounts leaves behind.
const miniSome = 1e-3

// miniature is what a run in miniature finds the engine does.
type miniature struct {
	attempts float64 // attempts made
	served   float64 // attempts served: the clients through
	busy     float64 // milliseconds visited: an attempt in them, or a request in the queue
	end      float64 // the last moment anything happens, in ms
	sorted   float64 // n log2 n over the lists of attempts put in client order
	pending  float64 // the most attempts waiting in the calendar at once
	groups   float64 // the most pending attempts in the calendar at once: as many, or fewer in cohorts
	takes    float64 // the pending attempts taken: the attempts, or fewer in cohorts
	queued   float64 // the most requests in the queue at once
	buckets  float64 // the most buckets of the calendar holding an attempt at once
	short    float64 // attempts a breaker short-circuited, of the attempts
	// shortTakes are the takes of those: as many, or fewer in cohorts.
	shortTakes float64
	hanging    float64 // the most takes hanging at once, with an outage that hangs, but the crowd's first
}

// miniSpans are the edges of a run in miniature's spans of time up to h
// ms: edges[i] to edges[i+1] is span i.
func miniSpans(h int64) []float64 {
	edges := []float64{0}
	for at := 0.0; at < float64(h)+1; {
		if at < miniLinear {
			at++
		} else {
			at *= miniGrowth
		}
		edges = append(edges, at)
	}
	return edges
}

// spanOf is the span that moment t falls in, of those edges, at or after
// span from, which begins no later than t: the last span past the end.
// The spans a retry's wait reaches are mostly a few after its failure's:
// it steps from there, doubling its steps, then halves them back.
func spanOf(edges []float64, t float64, from int) int {
	last := len(edges) - 2
	lo, step := min(from, last), 1
	for lo+step <= last && edges[lo+step] <= t {
		lo, step = lo+step, step*2
	}
	for ; step > 0; step /= 2 {
		if lo+step <= last && edges[lo+step] <= t {
			lo += step
		}
	}
	return lo
}

// miniSlabs keeps the arrays of runs in miniature, all zero, for the next:
// a search's estimate runs hundreds.
var miniSlabs = sync.Pool{New: func() any { return new([]float64) }}

// miniRun runs pl's crowd and fresh load against the service of s in
// miniature, in amounts of clients over spans of time, up to h ms; share
// is the takes an attempt costs in the engine (one, or a cohort's share:
// the cohorts over the clients), and below one its clients go in cohorts
// and it carries their number beside the clients': the crowd is one, each
// millisecond of the fresh load one, and the failures of an attempt's
// arrivals as many as the arrivals had, in their proportion; wide is the
// calendar's buckets' width in ms.
func miniRun(pl *plan, s Settings, h int64, share, wide float64) miniature {
	var m miniature
	A := pl.retries + 1
	edges := miniSpans(max(h, 0))
	bins := len(edges) - 1
	lo, hi := waitBands(pl, s.Draws)
	// elapsed[k]: a client's time from its start to retry k, each wait
	// taken at its band's middle: past the limit on total time, it stops.
	elapsed := make([]float64, A)
	for k := 1; k < A; k++ {
		elapsed[k] = elapsed[k-1] + (lo[k]+hi[k])/2
	}
	// Each retry comes evenly over the time its wait may end in: mass[k][i]
	// is what arrives of attempt k in span i from the spans it begins or
	// ends in, rate[k][i] the change at span i of what arrives a
	// millisecond in the spans between; now[k] is this span's.
	mass := make([][]float64, A+1)
	rate := make([][]float64, A+1)
	cohorts := share < 1
	gMass, gRate := make([][]float64, A+1), make([][]float64, A+1) // the same, of cohorts
	arrays := 2
	if cohorts {
		arrays = 4
	}
	pooled := miniSlabs.Get().(*[]float64)
	if n := arrays * max(A-1, 0) * (bins + 1); cap(*pooled) < n {
		*pooled = make([]float64, n)
	} else {
		*pooled = (*pooled)[:n]
	}
	defer func() { clear(*pooled); miniSlabs.Put(pooled) }()
	slab := *pooled
	for k := 2; k <= A; k++ {
		mass[k], slab = slab[:bins+1:bins+1], slab[bins+1:]
		rate[k], slab = slab[:bins+1:bins+1], slab[bins+1:]
		if cohorts {
			gMass[k], slab = slab[:bins+1:bins+1], slab[bins+1:]
			gRate[k], slab = slab[:bins+1:bins+1], slab[bins+1:]
		}
	}
	cur, gCur := make([]float64, A+1), make([]float64, A+1)
	now, gNow := make([]float64, A+1), make([]float64, A+1)
	fresh := s.FreshRequests() > 0
	load, until := float64(s.Load), float64(s.LoadEnd())
	outage, capa := float64(s.Outage), float64(s.Capacity)
	queued, lifo, drop := s.HasQueue() && s.Capacity > 0, s.QueueOrder == LIFO, s.DropExpired
	limit, timeout := float64(s.Queue), float64(s.Timeout)
	var live, expired float64                                       // requests in the queue: to be served, and expired or to expire
	backlog, backlogG := make([]float64, A+1), make([]float64, A+1) // LIFO's waiting, and in cohorts
	joins, joinsG := make([]float64, A+1), make([]float64, A+1)
	// A budget in miniature: every process alike, with 1/P of each amount.
	procs := float64(max(s.Processes, 1))
	top, give := float64(s.Budget.A), float64(s.Budget.B)
	if s.Budget.Kind == BudgetGRPC {
		top *= 1000 // thousandths of a token
	}
	tokens := top
	// The clients waiting in the calendar, their cohorts, the buckets
	// those fill; the same for each attempt.
	pend, pendG, pendB, last := 0.0, 0.0, 0.0, -1
	pendK, pendGk, pendBk := make([]float64, A+1), make([]float64, A+1), make([]float64, A+1)
	slotMs, inSlot, slotLeft := float64(s.Slot), -1.0, 0.0
	var t0, t1, width, arrived, arrivedG float64 // the span's, and what arrives in it, and in how many cohorts
	i := 0
	// schedule puts the retries after f failures of attempt k, in g
	// cohorts, known after delay, evenly over the time their waits end
	// in, no sooner than span from; those in this span join its arrivals.
	schedule := func(k int, f, g, delay float64, from int) {
		if f <= 0 {
			return
		}
		was := f
		switch s.Budget.Kind {
		case BudgetGRPC: // every failure takes a token; a retry while more than half are left
			per := f / procs
			allowed := min(max((tokens-top/2)/1000, 0), per)
			tokens = max(tokens-1000*per, 0)
			if k < A {
				f = allowed * procs
			}
		case BudgetAWS: // a retry takes give tokens
			if k < A {
				per := min(f/procs, tokens/give)
				tokens -= per * give
				f = per * procs
			}
		}
		if k >= A || pl.maxElapsed > 0 && elapsed[k] > float64(pl.maxElapsed) || f <= 0 {
			return // gave up, throttled or out of time
		}
		g *= f / was // a budget lets the same share of each cohort through
		// The buckets they wait in: as many as the milliseconds they
		// failed in and their waits' spread cover.
		nb := min(g, (min(width, arrivedG)+hi[k]-lo[k])/wide+1)
		pendB, pendBk[k+1], pendK[k+1], pendGk[k+1] = pendB+nb, pendBk[k+1]+nb, pendK[k+1]+f, pendGk[k+1]+g
		pend, pendG = pend+f, pendG+g
		ta, tb := max(t0+delay+lo[k], edges[from]), max(t1+delay+hi[k], edges[from])
		a := spanOf(edges, ta, from)
		b := spanOf(edges, tb, a)
		ratio := g / f // cohorts a client
		put := func(j int, x float64) {
			if j == i {
				now[k+1] += x
				gNow[k+1] += x * ratio
			} else {
				mass[k+1][j] += x
				if cohorts {
					gMass[k+1][j] += x * ratio
				}
			}
		}
		if a == b {
			put(a, f)
			return
		}
		per := f / (tb - ta) // a millisecond
		put(a, per*(edges[a+1]-ta))
		put(b, per*(tb-edges[b]))
		if a+1 < b {
			rate[k+1][a+1] += per
			rate[k+1][b] -= per
			if cohorts {
				gRate[k+1][a+1] += per * ratio
				gRate[k+1][b] -= per * ratio
			}
		}
	}
	// A breaker in miniature, every process's alike: shut from shutFrom
	// to shutUntil (open, then waiting for its probe), else closed with
	// inRow failures in a row a process (1/P of each amount).
	brk := s.Breaker.On()
	var shutFrom, shutUntil, inRow float64
	for i = 0; i < bins; i++ {
		if pend < miniSome && live+expired < miniSome && (!fresh || edges[i] >= until) && i > 0 {
			break // nothing waits, and nothing more comes
		}
		t0, t1 = edges[i], edges[i+1]
		width = t1 - t0
		up := min(max((t1-max(t0, outage))/width, 0), 1) // the span's share at or after the outage's end
		capSpan := capa * width * up / 1000
		// Without a queue, what the span serves: a slot's capacity
		// serves any of its milliseconds, so a span within a slot draws on
		// what its slot has left.
		room := capSpan
		if width <= slotMs {
			if slot := math.Floor(t0 / slotMs); slot != inSlot {
				inSlot, slotLeft = slot, capa*slotMs/1000
			}
			room = slotLeft
		}
		for k := 2; k <= A; k++ {
			cur[k] += rate[k][i]
			now[k] = max(cur[k]*width+mass[k][i], 0)
			gNow[k] = now[k]
			if cohorts {
				gCur[k] += gRate[k][i]
				gNow[k] = min(max(gCur[k]*width+gMass[k][i], 0), now[k])
			}
		}
		now[1], gNow[1] = 0, 0
		if fresh && t0 < until {
			now[1] = max(math.Ceil(min(t1, until)*load/1000)-math.Ceil(t0*load/1000), 0)
			gNow[1] = now[1]
			if cohorts { // a cohort a millisecond
				gNow[1] = min(now[1], max(math.Ceil(min(t1, until))-math.Ceil(t0), 1))
			}
		}
		shutShare := 0.0
		if brk {
			shutShare = breakerShut(s, i == 0, up, room, now, t0, t1, &shutFrom, &shutUntil, &inRow)
		}
		// The most waiting in the calendar: those waiting as the span
		// begins, where a wide span's failures, scheduled at once, would
		// count as waiting together what waits in turn no more than those
		// arriving in it for as long as their waits (Little's law).
		little, littleG := 0.0, 0.0
		for k := 2; k <= A; k++ {
			wait := (lo[k-1] + hi[k-1]) / 2
			little, littleG = little+now[k]/width*wait, littleG+gNow[k]/width*wait
		}
		m.pending = max(m.pending, min(pend, little))
		m.groups = max(m.groups, min(pendG, littleG))
		m.buckets = max(m.buckets, min(pendB, littleG))
		startQueue := live + expired
		arrived, arrivedG = 0, 0
		var joined, served, servedRetries, hangs float64
		for k := 1; k <= A; k++ {
			a, g := now[k], gNow[k]
			trigger := 0.0
			if k == 1 && i == 0 && s.Clients > 0 {
				trigger = float64(s.Clients) // the crowd's first attempts fail whatever
				a, g = a+trigger, g+1        // one cohort, where g counts
			}
			if a <= 0 {
				continue
			}
			if !cohorts {
				g = a
			}
			m.attempts += a
			m.takes += g
			arrived, arrivedG = arrived+a, arrivedG+g
			if k >= 2 && pendK[k] > 0 {
				gone := pendBk[k] * min(g/max(pendGk[k], g), 1)
				pendB, pendBk[k] = pendB-gone, pendBk[k]-gone
				pend, pendK[k] = pend-a, max(pendK[k]-a, 0)
				pendG, pendGk[k] = pendG-g, max(pendGk[k]-g, 0)
			}
			if short := a * shutShare; short > 0 {
				// Short-circuited: failed at once, never reaching the
				// service; each client goes on as after any failure.
				m.short, m.shortTakes = m.short+short, m.shortTakes+g*shutShare
				schedule(k, short, g*shutShare, 0, i)
				a, g, trigger = a-short, g-g*shutShare, trigger*(1-shutShare)
				if a <= miniSome {
					continue
				}
			}
			down := trigger + (a-trigger)*(1-up)
			hangs += (down - trigger) * g / a
			fail, late := down, 0.0 // late: known after the timeout
			open := a - down
			switch {
			case !queued && capa == 0:
				served += open
			case !queued:
				sv := min(open, room)
				room -= sv
				slotLeft -= sv
				served += sv
				fail += open - sv
			default:
				in := min(open, max(limit-live-expired+capSpan-joined, 0))
				fail += open - in
				joined += in
				if lifo {
					joins[k], joinsG[k] = joins[k]+in, joinsG[k]+in*g/a
					break
				}
				// FIFO: a request waits for those ahead of it; past the
				// timeout it expires, and its client knows it then.
				ahead := live
				if !drop {
					ahead += expired
				}
				out := expiring(ahead, in, capa, timeout)
				live += in - out
				expired += out
				late += out
				if k >= 2 {
					servedRetries += in - out // served later, but as retries
				}
			}
			if !queued && k >= 2 {
				servedRetries += open - (fail - down)
			}
			if s.OutageHang > 0 { // those down hang: their failure is known H later
				schedule(k, down, down*g/a, float64(s.OutageHang), i)
				fail -= down
			}
			schedule(k, fail, fail*g/a, 0, i)
			schedule(k, late, late*g/a, timeout, i)
		}
		if queued {
			sv := 0.0
			if lifo {
				// The newest first: this span's arrivals, then those
				// waiting; the waiting time out after the timeout, the
				// oldest first, and their requests are wasted or dropped
				// once nothing live is left.
				arriving, waiting := 0.0, 0.0
				for k := 1; k <= A; k++ {
					arriving += joins[k]
					waiting += backlog[k]
				}
				newest := min(capSpan, arriving)
				older := min(capSpan-newest, waiting)
				sv = newest + older
				age := 0.0
				if timeout > 0 {
					age = min(width/timeout, 1)
				}
				live = 0
				for k := 1; k <= A; k++ {
					b, bg := backlog[k], backlogG[k]
					if waiting > 0 {
						b, bg = b*(1-older/waiting), bg*(1-older/waiting)
					}
					out := b * age
					expired += out
					schedule(k, out, bg*age, 0, i+1)
					b, bg = b-out, bg*(1-age)
					if arriving > 0 {
						b, bg = b+joins[k]*(1-newest/arriving), bg+joinsG[k]*(1-newest/arriving)
					}
					backlog[k], joins[k], backlogG[k], joinsG[k] = b, 0, bg, 0
					live += b
				}
				left := capSpan - sv
				if drop && left > 0 {
					expired = 0
				} else {
					expired -= min(expired, left)
				}
			} else {
				if drop {
					sv = min(capSpan, live)
					live -= sv
					if timeout > 0 {
						expired *= max(1-width/timeout, 0)
					}
				} else if work := min(capSpan, live+expired); work > 0 {
					sv = work * live / (live + expired)
					live -= sv
					expired -= work - sv
				}
			}
			served += sv
			if joined > 0 {
				servedRetries = sv * servedRetries / joined
			}
		}
		m.served += served
		m.hanging = max(m.hanging, hangs/width*float64(s.OutageHang)) // Little's law
		switch s.Budget.Kind {                                        // what the served give back
		case BudgetGRPC:
			tokens = min(tokens+give*served/procs, top)
		case BudgetAWS:
			tokens = min(tokens+(give*servedRetries+(served-servedRetries))/procs, top)
		}
		// The milliseconds visited: those an attempt comes in, and with a
		// queue those a request waits in: all of them while it holds one,
		// else each request until the next millisecond the capacity serves
		// one in.
		busy := min(width, arrivedG)
		if queued {
			waiting := width * up
			if (startQueue+live+expired)/2 < 1 {
				waiting = min(waiting, joined*(1+max(500/capa, 0)))
			}
			busy = max(busy, waiting)
		}
		m.busy += busy
		// The lists put in client order: every millisecond's under a
		// budget; with a queue and no budget those the capacity cannot
		// all serve.
		switch {
		case s.Budget.Kind != BudgetNone && busy > 0:
			if i == 0 {
				arrived -= float64(s.Clients) // the crowd's first attempts come in order
			}
			if per := arrived / busy; per > 1 {
				m.sorted += arrived * math.Log2(per)
			}
		case queued && share == 1 && busy > 0 && startQueue+joined/busy > capa/1000:
			if per := joined / busy; per > 1 {
				m.sorted += joined * math.Log2(per)
			}
		}

		m.queued = max(m.queued, live+expired)
		if arrived >= miniSome || live+expired >= miniSome {
			last = i
		}
	}
	m.end = min(edges[last+1], float64(h))
	return m
}

// breakerShut is the share of the span from t0 to t1 in which the
// breakers of s, in miniature, are shut (open, then waiting for their
// probe), every process's alike (the average process's: a breaker a
// client opens only as that does), the state carried from span to span in
// shutFrom, shutUntil and inRow. The span's attempts (now, with the
// crowd's first where crowd) fail at a share q: those while the service
// is down (the span's share 1 - up) and those past what it has room for.
// Closed, a process's failures come at q of its outcomes: where all fail
// they add up, over spans, to F in a row; where a slot's attempts pass its
// capacity, those past it fail in a row at the slot's end, F where a
// process has as many a slot. At the F-th the breaker opens for D, H later
// while down and the outage hangs. A probe while down fails after H, the
// breaker shut till then, and opens it again; once the service is back a
// probe closes it, and the failures open it again as the first time. Past
// 8 such cycles in a span, the rest of it is shut D of each cycle.
func breakerShut(s Settings, crowd bool, up, room float64, now []float64, t0, t1 float64, shutFrom, shutUntil, inRow *float64) float64 {
	outage, hang, d, f := float64(s.Outage), float64(s.OutageHang), float64(s.Breaker.Open), float64(s.Breaker.Failures)
	demand, down := 0.0, 0.0
	for _, a := range now[1:] {
		demand += a
	}
	down = demand * (1 - up)
	if crowd {
		demand += float64(s.Clients)
		down += float64(s.Clients)
	}
	if demand <= 0 {
		return min(max((min(*shutUntil, t1)-max(*shutFrom, t0))/(t1-t0), 0), 1)
	}
	failed := down
	if s.Capacity > 0 && !s.HasQueue() {
		failed += max(demand-down-room, 0)
	}
	q := min(failed/demand, 1)
	rate := demand / float64(s.ProcessCount()) / (t1 - t0) // a process's outcomes a ms
	shut, at := 0.0, t0
	for cycles := 0; at < t1; cycles++ {
		if *shutUntil > at { // shut: to its end, or the span's
			end := min(*shutUntil, t1)
			shut += end - max(*shutFrom, at)
			at = end
			continue
		}
		if *shutUntil > 0 && at < outage { // a probe while down fails, after H, the breaker shut till then
			*shutUntil = at + hang + d
			continue
		}
		*shutUntil = 0 // closed: the probe served, or never opened
		// Until the F-th failure in a row: where all fail, at their
		// rate; where a slot's attempts pass its capacity, those past it
		// fail in a row, F a process when there are as many to a slot.
		wait := math.Inf(1)
		if q >= 1 || q > 0 && rate*q*min(float64(s.Slot), t1-t0) >= f {
			wait = (f - *inRow) / (rate * q)
		}
		if at+wait >= t1 { // closed to the span's end
			if q >= 1 {
				*inRow += rate * (t1 - at)
			} else {
				*inRow = 0 // some served: no run of F
			}
			break
		}
		open := at + wait
		if open < outage {
			open += hang
		}
		if cycles >= 8 && open >= outage {
			// Closing and opening again over and over: D of each cycle.
			shut += (t1 - at) * d / (open + d - at)
			*shutFrom, *shutUntil = t1, t1
			break
		}
		*shutFrom, *shutUntil, *inRow = open, open+d, 0
		at = open
	}
	return min(max(shut/(t1-t0), 0), 1)
}

// expiring is how many of in requests joining a FIFO queue behind ahead
// expire before the service, capa a second, reaches them, with a timeout
// of timeout ms (0: none): the first to join waits ahead*1000/capa ms,
// the last (ahead+in)*1000/capa; those that would wait the timeout or
// more expire.
func expiring(ahead, in, capa, timeout float64) float64 {
	if timeout <= 0 || in <= 0 {
		return 0
	}
	first, last := ahead*1000/capa, (ahead+in)*1000/capa
	switch {
	case first >= timeout:
		return in
	case last > timeout:
		return in * (last - timeout) / (last - first)
	}
	return 0
}

// waitBands are the waits before each retry k = 1 ... as the miniature
// takes them: evenly from lo[k] to hi[k] ms. Reference draws reach no
// further than ReferenceReach values up a band; decorrelated jitter draws
// from the first wait to three times the wait before, at most the
// longest, the wait before taken as a typical client's: each draw
// u(first, 3w) is about 3w/e in the geometric mean (w times 1.10), far
// below its mean (w times 1.5), which the few long waits make.
func waitBands(pl *plan, d Draws) (lo, hi []float64) {
	lo, hi = make([]float64, pl.retries+1), make([]float64, pl.retries+1)
	prev := float64(pl.first)
	for k := 1; k <= pl.retries; k++ {
		if pl.kind == JitterDecorrelated {
			lo[k] = float64(min(pl.first, pl.longest))
			hi[k] = min(3*prev, float64(pl.longest))
			prev = max(min(3*prev/math.E, float64(pl.longest)), lo[k])
		} else {
			width := pl.width[k]
			if d == Reference {
				width = min(width, ReferenceReach)
			}
			lo[k], hi[k] = float64(pl.lo[k]), float64(pl.lo[k])+float64(width-1)
		}
	}
	return lo, hi
}

// RunAllCost is what RunAll(ps, s, o, workers) takes: the series of every
// policy, which it keeps, and the scratch of the workers' runs at once,
// the largest together. Policies that are not valid cost nothing: RunAll
// refuses them.
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

// CrowdCost is what one crowd of p under s takes where a worker runs it
// after others, as RunSeeds's workers and a Crowds run them: the scratch
// it holds, and its work without what the worker made for the crowds
// before it. Settings or a policy that are not valid cost nothing.
func CrowdCost(p Policy, s Settings) Cost {
	if s.ValidateIn(WideLimits) != nil || p.Validate() != nil {
		return Cost{}
	}
	pc := costOf(p, s, false, false)
	w := pc.work - pc.setup
	return Cost{Bytes: pc.scratch, Work: w, Span: w, Parallel: 1}
}

// RunSeedsCost is what RunSeeds(ps, s, count, o) takes: each of its
// workers (as many as SeedWorkers starts) holds the largest scratch of
// each kind its policies need, the fast path's and the engine's, and
// makes it once; every seed's figures are kept until the end, and each
// figure of each policy is then ranked over the seeds.
func RunSeedsCost(ps []Policy, s Settings, count int, o SeedOptions) Cost {
	if s.ValidateIn(WideLimits) != nil {
		return Cost{}
	}
	count = max(count, 1)
	var c Cost
	var fast, engine, perSeed, setup int64 // a worker's scratch of each kind grows to the largest policy's
	valid := int64(0)
	for _, p := range ps {
		if p.Validate() != nil {
			continue
		}
		valid++
		pc := costOf(p, s, false, false)
		if pc.engine {
			engine = max(engine, pc.scratch)
		} else {
			fast = max(fast, pc.scratch)
		}
		perSeed = sat(perSeed, pc.work-pc.setup)
		setup = sat(setup, pc.setup)
	}
	perWorker := sat(fast, engine)
	workers := SeedWorkers(ps, s, max(o.Workers, 1), count)
	c.Bytes = sat(mul(int64(workers), perWorker), mul(int64(count), int64(len(ps))*figuresBytes))
	ranks := whole(nsRank * float64(count) * math.Log2(float64(count)+1) * float64(len(FigureFields())) * float64(valid))
	c.Work = sat(sat(mul(perSeed, int64(count)), mul(setup, int64(workers))), ranks)
	c.Span = sat(perSeed, setup)
	c.Parallel = workers
	return c
}
