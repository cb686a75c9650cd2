package backoff

import (
	"errors"
	"math"
)

// The engine runs the crowd, the fresh load and the service as discrete
// events, in the order of MODEL.md: attempts are taken in increasing (time,
// client number); each client has at most one attempt pending, so the order
// is total; a retry drawn with a wait of 0 joins the same time in its
// client's place, that is, at once.
//
// Pending attempts wait in a calendar: a ring of buckets, each a list of
// fixed-size chunks, the ring long enough that no wait reaches round it.
// A bucket is one millisecond wide where the longest wait allows a ring of
// at most maxRing buckets; then a bucket's list is that millisecond's
// attempts as they came. Otherwise buckets are wider, and when time comes
// to one its attempts are put in the order of their milliseconds (a
// counting sort), attempts for a later millisecond of the same bucket
// joining a list of their own. Each pending attempt carries its client's
// whole state, so nothing is looked up by client. A millisecond's attempts
// are put in client order only where the order can change a figure: with a
// budget, whose tokens every attempt moves, or in the millisecond where a
// slot's capacity runs out, where only the lowest numbers are served.

const (
	maxRing    = 1 << 17
	jitterRing = 1 << 6
	chunkLen   = 256
	// MaxSeriesSlots is the most slots a Series holds; a longer run's
	// series stops there, Truncated.
	MaxSeriesSlots = 1 << 22
)

// ErrStopped is what a run returns when its Stop function asked it to.
var ErrStopped = errors.New("stopped")

// stopEvery is the work between two looks at a run's Stop function, in
// attempts taken and buckets or milliseconds visited: a few hundred
// microseconds, so that a superseded run stops within a frame. An empty
// bucket, far cheaper, counts 1/64 of a unit.
const stopEvery = 1 << 14

// halt reports whether the run should stop: it asks the Stop function
// once stopEvery units of work have passed since it last did, and once it
// has said yes, goes on saying so. Loops that can run long call it now and
// then, and leave at once when it says yes; the run then returns
// ErrStopped.
func (e *engine) halt() bool {
	if e.stopped {
		return true
	}
	if e.stop == nil {
		return false
	}
	work := int64(e.f.Attempts) + e.ticks
	if work < e.nextLook {
		return false
	}
	e.nextLook = work + stopEvery
	e.stopped = e.stop()
	return e.stopped
}

type engine struct {
	pl       *plan
	s        Settings
	crowd    uint32 // N
	outage   uint32
	attempts uint32 // A
	slotDiv  divisor

	capacity   int64 // a second; 0 for no limit
	load       int64 // a second
	loadEnd    int64 // U
	fresh      int   // how many fresh requests arrive
	nextFresh  int   // the next one to arrive
	nextArrive int64 // when it arrives

	bud    budgets
	procs  uint32
	sorted bool // every millisecond is taken in client order (a budget, a breaker)
	// cohorts: without jitter and without a budget, clients that wait
	// alike stay together: a pending attempt stands for x clients in a
	// row, from client on, who started at the same time.
	cohorts bool
	// lanes, for cohorts at a queue without guards, is the calendar in
	// place of the ring (calendar.go); nil otherwise.
	lanes *lanes

	bits     uint     // a bucket is 1<<bits ms wide
	ring     []bucket // a power of two long
	ringMask int64
	free     []*chunk
	cur      int64 // the bucket whose milliseconds are being run; -1 before any
	// The current wide bucket's attempts, in the order of their
	// milliseconds: those of millisecond ms are flat[at[ms]:at[ms+1]], then
	// late[ms], the ones that joined while the bucket ran.
	flat  []pending
	at    []int
	fill  []int // where each millisecond's next attempt goes, as scatter fills flat
	late  [][]pending
	order []pending // a millisecond's attempts in one piece, to be put in client order
	// sortByClient's scratch: the keys it sorts, the attempts it gathers.
	keys    []uint64
	gather  []pending
	waiting int // attempts in the ring

	f          Figures
	lat        latencyTally
	lastServed int64
	// crowdLastServed is the latest served attempt of a crowd client; -1 if none.
	crowdLastServed int64
	// lastFailure is the last moment an attempt's failure became known
	// as the run went, lastShort the last of those shortChain counted
	// ahead of it; -1 before any.
	lastFailure, lastShort int64
	// lastBusy is the slot of the last rejection, or with a queue of the
	// last rejection, timeout, wasted or dropped request; -1 if none.
	lastBusy int64

	slot         int64 // the current slot; -1 before any
	slotCap      int64
	slotServed   int64
	slotRetries  int64
	slotAfter    int64 // attempts at or after the outage's end
	slotRejected int64
	slotDown     int64
	// With a queue: the slot's timeouts, and expired requests wasted or
	// dropped.
	slotTimedOut, slotWasted, slotDropped int64

	q queue // the service's queue (queue.go); q.limit is 0 without one
	// nextDue is the first moment something happens that the calendar
	// does not hold: a fresh request arrives, or a hanging attempt fails;
	// noneDue if neither is to come (setDue).
	nextDue int64

	// MODEL.md section 7. hangs holds the attempts sent while the service
	// is down that hang, in the order they were sent, each failing hang ms
	// after its t: all hang alike, so the first to fail is always the
	// oldest.
	hang  int64
	hangs fifo
	// crowdHangs: the crowd's first attempts all hang from 0 to H, and
	// every client of the crowd is in the state it started in: rather than
	// hold a million alike, failuresDue makes each afresh at H.
	crowdHangs bool
	brk        breakers // every process's breaker; brk.state is nil without one
	retryAfter int      // R: a rejected client's next attempt comes R ms later; 0: none
	// ahead counts the attempts shortChain took ahead of time in the slots
	// after the current one: slot i's at ahead[i&(len-1)], up to aheadLast
	// (-1: none). nil where shortChain does not run: without a breaker,
	// or under a budget.
	ahead     []slotAhead
	aheadLast int64
	// The slot's short-circuited attempts and breaker openings.
	slotShort, slotOpened int64

	series *Series
	stop   func() bool
	// ticks counts the buckets and milliseconds visited, for halt;
	// nextLook is the work at which it asks stop again.
	ticks, nextLook int64
	stopped         bool
	// completed, where a test sets it, hears of every request a queue's
	// service completes: n of them, sent at sent, completed at at.
	completed func(sent, at, n int64)
}

// engineScratch is what one engine's run leaves for the next to reuse: the
// chunks, the ring, the lists. The crowd over many seeds runs an engine per
// seed and policy; without it, each would allocate them afresh.
type engineScratch struct {
	free        []*chunk
	ring        []bucket
	flat, order []pending
	keys        []uint64
	gather      []pending
	counts, lat []uint32 // the latencies' (latencyTally)
	at, fill    []int
	late        [][]pending
	queue       []pending
	hangs       []pending
	lanes       []fifo
}

func newEngine(pl *plan, s Settings, series bool, stop func() bool) *engine {
	return newEngineWith(pl, s, series, stop, nil)
}

// newEngineWith is newEngine taking its scratch from sc, if not nil.
func newEngineWith(pl *plan, s Settings, series bool, stop func() bool, sc *engineScratch) *engine {
	e := &engine{pl: pl, s: s, crowd: uint32(s.Clients), outage: uint32(s.Outage), attempts: uint32(pl.retries + 1),
		slotDiv: newDivisor(uint32(s.Slot)), capacity: int64(s.Capacity), load: int64(s.Load), loadEnd: int64(s.LoadEnd()),
		fresh: s.FreshRequests(), bud: newBudgets(s.Budget, s.ProcessCount(), s.Clients+s.FreshRequests()), procs: uint32(s.ProcessCount()),
		cur: -1, lastServed: -1, lastFailure: -1, lastShort: -1, crowdLastServed: -1, lastBusy: -1, slot: -1, stop: stop,
		hang: int64(s.OutageHang), brk: newBreakers(s.Breaker, s.ProcessCount()), retryAfter: s.RetryAfter, aheadLast: -1}
	// A breaker, like a budget, hears every outcome in turn: the F-th
	// failure opens it for the attempts after it, and the first attempt
	// after the open time is the probe. A cohort meets a breaker as its
	// clients would one after another (cohortBreaker), where they share one:
	// with more processes, whose clients alternate, every client goes alone.
	e.sorted = e.bud.kind != BudgetNone || e.brk.state != nil
	e.cohorts = pl.same && e.bud.kind == BudgetNone && (e.brk.state == nil || e.procs == 1)
	e.f = noFigures()
	e.f.Clients = s.Clients + e.fresh
	var n int
	e.bits, n = ringShape(pl, s)
	if sc != nil {
		e.free, e.flat, e.order, e.keys, e.gather = sc.free, sc.flat[:0], sc.order[:0], sc.keys[:0], sc.gather[:0]
		if len(sc.ring) == n {
			e.ring = sc.ring
		}
		if len(sc.late) == 1<<e.bits && e.bits > 0 {
			e.at, e.fill, e.late = sc.at, sc.fill, sc.late
		}
	}
	if inLanes(pl, s) {
		var kept []fifo
		if sc != nil {
			kept = sc.lanes
		}
		e.lanes = newLanes(pl, kept)
	} else if e.ring == nil {
		e.ring = make([]bucket, n)
	}
	// Every client gets through at most once, within the run's horizon:
	// room for them all from the start, where the latencies would
	// otherwise grow a copy at a time.
	var counts, lat []uint32
	if sc != nil {
		counts, lat = sc.counts, sc.lat
	}
	e.lat = newLatencyTally(s.Clients+e.fresh, engineHorizon(pl, s), counts, lat)
	e.ringMask = int64(n - 1)
	if e.bits > 0 && e.late == nil {
		e.at, e.fill, e.late = make([]int, 1<<e.bits+1), make([]int, 1<<e.bits), make([][]pending, 1<<e.bits)
	}
	if e.fresh > 0 {
		e.nextArrive = e.arrival(0)
	}
	e.setDue()
	if series {
		e.series = &Series{Slot: s.Slot, Queued: s.HasQueue(), Breaker: s.Breaker.On()}
	}
	if s.HasQueue() {
		e.q = queue{limit: int64(s.Queue), timeout: int64(s.Timeout), lifo: s.QueueOrder == LIFO, drop: s.DropExpired}
		if sc != nil {
			e.q.ring = sc.queue
		}
	}
	if sc != nil && e.hang > 0 {
		e.hangs.ring = sc.hangs
	}
	if s.Breaker.On() && s.Budget.Kind == BudgetNone {
		n := 1
		for n < min((s.Breaker.Open+s.OutageHang)/s.Slot+2, maxAhead) {
			n *= 2
		}
		e.ahead = make([]slotAhead, n)
	}
	return e
}

// ringShape is the calendar of a run of pl under s: its buckets 1<<bits ms
// wide, n of them, reaching ringReach ahead. Without jitter, a round of
// retries lands in one millisecond, and 1 ms buckets take it as it came;
// with jitter, retries spread over the whole wait, and a ring of few
// buckets keeps the chunks being filled few enough to stay in cache.
func ringShape(pl *plan, s Settings) (bits uint, n int) {
	most := maxRing
	if !pl.same {
		most = jitterRing
	}
	reach := ringReach(pl, s)
	for reach>>bits+3 > most {
		bits++
	}
	n = 1
	for n < reach>>bits+3 {
		n *= 2
	}
	return bits, n
}

// ringReach is how far ahead of now the calendar must reach: the longest
// wait drawn or pushback's, and with a breaker that shortChain runs
// ahead (no budget), the most it runs ahead, the open time after a probe's
// hang.
func ringReach(pl *plan, s Settings) int {
	reach := calendarReach(pl, s)
	if s.Breaker.On() && s.Budget.Kind == BudgetNone {
		reach += s.Breaker.Open + s.OutageHang
	}
	return reach
}

// calendarReach is the furthest ahead of now the engine puts an attempt in
// its calendar: the longest wait drawn, or pushback's, where longer. (An
// attempt that hangs waits in hangs, not in the calendar.)
func calendarReach(pl *plan, s Settings) int {
	return max(pl.longestDraw, s.RetryAfter)
}

// hanging reports whether an attempt hangs, waiting for its failure.
func (e *engine) hanging() bool { return e.hang > 0 && (e.crowdHangs || e.hangs.n > 0) }

// hangDue is when the oldest hanging attempt fails (the crowd's first
// attempts', sent at 0, come first); something must hang.
func (e *engine) hangDue() int64 {
	if e.crowdHangs {
		return e.hang
	}
	return int64(e.hangs.front().t) + e.hang
}

// noneDue is nextDue where nothing is to come.
const noneDue = math.MaxInt64

// setDue sets nextDue: the next fresh request's arrival or the oldest
// hanging attempt's failure, whichever comes first.
func (e *engine) setDue() {
	e.nextDue = noneDue
	if e.nextFresh < e.fresh {
		e.nextDue = e.nextArrive
	}
	if e.hang > 0 {
		e.dueHang()
	}
}

// dueHang brings nextDue forward to the oldest hanging attempt's failure.
func (e *engine) dueHang() {
	if e.hanging() {
		e.nextDue = min(e.nextDue, e.hangDue())
	}
}

// arrival is when fresh request j arrives: floor(j*1000/L).
func (e *engine) arrival(j int) int64 { return int64(j) * 1000 / e.load }

// touchedFresh is how many fresh requests arrive no later than the run's
// last failure: j with floor(j*1000/L) <= last, that is j*1000 < (last+1)*L,
// up to ceil((last+1)*L/1000) of them.
func (e *engine) touchedFresh() int {
	last := max(e.lastFailure, e.lastShort)
	if e.fresh == 0 || last < 0 {
		return 0
	}
	return min(e.fresh, int(((last+1)*e.load+999)/1000))
}

// start is when a client started: 0 for the crowd, its arrival for a fresh
// request.
func (e *engine) start(client uint32) int64 {
	if client <= e.crowd {
		return 0
	}
	return e.arrival(int(client - e.crowd - 1))
}

func (e *engine) run() (Figures, *Series, error) {
	if e.q.limit > 0 {
		return e.runQueue()
	}
	if !e.startCrowd() {
		return e.f, nil, ErrStopped
	}
	for b := int64(0); ; b++ {
		if e.waiting == 0 {
			if e.nextDue == noneDue {
				break
			}
			b = max(b, e.nextDue>>e.bits) // nothing waits before the next arrival or failure
		}
		if len(e.ring[b&e.ringMask].chunks) == 0 && e.nextDue>>e.bits > b {
			if b&63 == 0 {
				e.ticks++
				if e.halt() {
					return e.f, nil, ErrStopped
				}
			}
			continue // nothing happens in this bucket
		}
		e.ticks++
		if e.halt() {
			return e.f, nil, ErrStopped
		}
		switch {
		case e.bits == 0:
			e.runMillisecond(b)
		case e.shutThrough(b):
			e.shutBucket(b)
		default:
			e.scatter(b)
			e.runBucket(b)
		}
		if e.stopped {
			return e.f, nil, ErrStopped
		}
	}
	e.closeLast()
	return e.finish()
}

// startCrowd takes the crowd's first attempts, all at 0 ms, in client
// order, the first of millisecond 0's arrivals; false if the run is to
// stop.
func (e *engine) startCrowd() bool {
	e.enterSlot(0)
	switch {
	case e.crowdHang():
	case e.cohorts:
		p := newPending(e.pl.draws, e.s.Seed, 1, 0, e.pl.first)
		p.x = e.crowd
		e.take(&p, 0)
	default:
		for c := uint32(1); c <= e.crowd; c++ {
			p := newPending(e.pl.draws, e.s.Seed, c, 0, e.pl.first)
			e.take(&p, 0)
			if c&255 == 0 && e.halt() {
				return false
			}
		}
	}
	e.setDue()
	return true
}

// crowdHang takes the crowd's first attempts at 0 where they hang, each
// client alone (cohorts hold the crowd in one attempt anyway): counted
// at 0, failed while down (the trigger, whatever the outage), each fails at
// H, where failuresDue makes them anew. At 0 nothing came before them: no
// breaker is open yet. It reports whether it took them.
func (e *engine) crowdHang() bool {
	if e.hang == 0 || e.cohorts {
		return false
	}
	n := int64(e.crowd)
	e.f.Attempts += int(n)
	e.f.FailedWhileDown += int(n)
	e.slotDown += n
	if e.outage == 0 {
		e.slotAfter += n
	}
	e.crowdHangs = true
	return true
}

// takeAll takes the attempts of list at t in its order, looking at the
// stop flag every 4096: false if the run is to stop.
func (e *engine) takeAll(list []pending, t uint32) bool {
	for i := range list {
		e.take(&list[i], t)
		if i&4095 == 4095 && e.halt() {
			return false
		}
	}
	return true
}

// runMillisecond runs 1 ms bucket b: the attempts waiting for it are in its
// chunks as they came.
func (e *engine) runMillisecond(b int64) {
	r := &e.ring[b&e.ringMask]
	toFresh := e.arriving(b)
	if r.len() == 0 && e.nextDue != b {
		return
	}
	e.enterSlot(b)
	if e.hang > 0 {
		e.timeoutsAndHangs(b) // step 1; its retries with no wait join r
	}
	how := anyOrder
	if r.len() > 0 {
		how = e.orderAt(b, e.clientsIn(r), toFresh)
	}
	if how != anyOrder {
		list := e.order[:0]
		for i := range r.chunks {
			list = append(list, r.part(i)...)
		}
		e.order = list
		e.release(r)
		e.runList(list, b, toFresh, how)
		return
	}
	for i := range r.chunks {
		if !e.takeAll(r.part(i), uint32(b)) || e.halt() {
			return
		}
	}
	e.release(r)
	e.runFresh(b, toFresh)
}

// runBucket runs the milliseconds of wide bucket b in order.
func (e *engine) runBucket(b int64) {
	base := b << e.bits
	for ms := range int64(1) << e.bits {
		t := base + ms
		list := e.flat[e.at[ms]:e.at[ms+1]]
		toFresh := e.arriving(t)
		if len(list)+len(e.late[ms]) == 0 && e.nextDue != t {
			continue
		}
		e.enterSlot(t)
		if e.hang > 0 {
			e.timeoutsAndHangs(t) // step 1; its retries with no wait join late[ms]
		}
		late := e.late[ms]
		if len(late) > 0 {
			if len(list) == 0 {
				list = late
			} else {
				list = append(append(e.order[:0], list...), late...)
				e.order = list
			}
		}
		if how := e.orderAt(t, e.clientsOf(list), toFresh); how != anyOrder {
			e.runList(list, t, toFresh, how)
		} else if e.takeAll(list, uint32(t)) {
			e.runFresh(t, toFresh)
		}
		e.late[ms] = late[:0]
		if e.ticks++; e.halt() {
			return
		}
	}
}

// arriving is the number after the last fresh request that arrives by t:
// requests nextFresh to arriving(t)-1 arrive at t, after every client
// already waiting, whose numbers are lower.
func (e *engine) arriving(t int64) int {
	if e.nextFresh < e.fresh && e.nextArrive == t {
		// j arrives at t while j*1000 < (t+1)*L: up to ceil((t+1)*L/1000).
		return min(e.fresh, int(((t+1)*e.load+999)/1000))
	}
	return e.nextFresh
}

// The order a millisecond's attempts must be taken in.
const (
	anyOrder    = iota
	lowestFirst // the lowest numbers the slot has room for first, the rest in any order
	clientOrder // every one in client order
)

// orderAt is the order the attempts of n clients waiting at t must be
// taken in: client order under a budget (but for one alone), and under a
// breaker unless the breakers leave the order free (breakers.orderFree);
// else the lowest numbers first where the slot has no room for them all and
// the fresh requests arriving after them, as the lowest are served.
func (e *engine) orderAt(t int64, n, toFresh int) int {
	if e.sorted && n > 1 && e.inTurn(t, n) {
		return clientOrder
	}
	if room := e.slotCap - e.slotServed; e.capacity > 0 && t >= int64(e.outage) && room > 0 && room < int64(n+toFresh-e.nextFresh) && room < int64(n) {
		return e.lowest()
	}
	return anyOrder
}

// inTurn reports whether n attempts at t must be taken in client order
// for a budget, whose tokens each moves in turn, or a breaker, unless the
// breakers leave the order free.
func (e *engine) inTurn(t int64, n int) bool {
	return e.bud.kind != BudgetNone || !e.brk.orderFree(t, t < int64(e.outage), e.hang > 0, n)
}

// lowest is the order where only the lowest numbers are served: client
// order for cohorts (few, and ranges of clients, which do not overlap),
// else the lowest first.
func (e *engine) lowest() int {
	if e.cohorts {
		return clientOrder
	}
	return lowestFirst
}

// clientsOf is how many clients the attempts stand for.
func (e *engine) clientsOf(list []pending) int {
	if !e.cohorts {
		return len(list)
	}
	n := 0
	for i := range list {
		n += int(list[i].x)
	}
	return n
}

// clientsIn is how many clients a bucket's attempts stand for.
func (e *engine) clientsIn(r *bucket) int {
	if !e.cohorts {
		return r.len()
	}
	n := 0
	for i := range r.chunks {
		n += e.clientsOf(r.part(i))
	}
	return n
}

// take is one pending attempt at t: a client's, or a cohort's, at a
// service that answers at once or one that queues.
func (e *engine) take(p *pending, t uint32) {
	switch {
	case e.q.limit > 0 && e.cohorts:
		if e.brk.state != nil {
			e.cohortBreaker(p, t)
		} else {
			e.arriveCohort(p, t)
		}
	case e.q.limit > 0:
		e.arrive(p, t)
	case e.cohorts:
		if e.brk.state != nil {
			e.cohortBreaker(p, t)
		} else {
			e.cohort(p, t)
		}
	default:
		e.attempt(p, t)
	}
}

// runList runs the attempts waiting at t in the order orderAt says, then
// the fresh requests arriving at t.
func (e *engine) runList(list []pending, t int64, toFresh int, how int) {
	if how == clientOrder {
		e.sortByClient(list)
	} else {
		// Which are served is all the order can change: the lowest numbers
		// the slot has room for. The rest are rejected in any order.
		e.selectByClient(list, int(e.slotCap-e.slotServed))
	}
	if e.takeAll(list, uint32(t)) {
		e.runFresh(t, toFresh)
	}
}

// runFresh takes the first attempts of the fresh requests arriving at t,
// nextFresh to toFresh-1.
func (e *engine) runFresh(t int64, toFresh int) {
	if toFresh == e.nextFresh {
		return
	}
	if e.cohorts { // all arrive at t: a cohort, which draws nothing
		p := pending{x: uint32(toFresh - e.nextFresh), kp: 1 | uint32(e.pl.first)<<kBits, t: uint32(t), client: e.crowd + 1 + uint32(e.nextFresh)}
		e.take(&p, uint32(t))
	} else {
		for j := e.nextFresh; j < toFresh; j++ {
			p := newPending(e.pl.draws, e.s.Seed, e.crowd+1+uint32(j), uint32(t), e.pl.first)
			e.take(&p, uint32(t))
			if j&4095 == 4095 && e.halt() {
				return
			}
		}
	}
	e.nextFresh = toFresh
	if toFresh < e.fresh {
		e.nextArrive = e.arrival(toFresh)
	}
	e.setDue()
}

// keep leaves the engine's scratch in sc for the next run, every chunk
// back among the free and every list empty.
func (e *engine) keep(sc *engineScratch) {
	for i := range e.ring {
		if len(e.ring[i].chunks) > 0 {
			e.release(&e.ring[i])
		}
	}
	for i := range e.late {
		e.late[i] = e.late[i][:0]
	}
	queue, hangs, ring, lanes := sc.queue, sc.hangs, sc.ring, sc.lanes
	if e.ring != nil {
		ring = e.ring
	}
	if e.lanes != nil {
		lanes = e.lanes.fifos
	}
	if e.q.ring != nil {
		queue = e.q.ring
	}
	if e.hangs.ring != nil {
		hangs = e.hangs.ring
	}
	counts, lat := e.lat.scratch()
	*sc = engineScratch{free: e.free, ring: ring, flat: e.flat[:0], order: e.order[:0], keys: e.keys[:0], gather: e.gather[:0], counts: counts, lat: lat,
		at: e.at, fill: e.fill, late: e.late, queue: queue, hangs: hangs, lanes: lanes}
}

func (e *engine) finish() (Figures, *Series, error) {
	f := &e.f
	f.StableFrom = e.s.Outage
	if e.lastBusy >= 0 {
		f.StableFrom = int(e.lastBusy+1) * e.s.Slot
	}
	if e.capacity > 0 {
		f.SlotCapacity = int((e.capacity*int64(e.s.Slot) + 999) / 1000)
	}
	f.AllThroughBy = int(e.lastServed)
	f.CrowdAllThroughBy = int(e.crowdLastServed)
	f.ClientsTouched = e.s.Clients + e.touchedFresh()
	f.derive(e.s.Outage)
	e.lat.set(f)
	return *f, e.series, nil
}
