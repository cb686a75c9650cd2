package backoff

import (
	"cmp"
	"errors"
	"slices"
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
	jitterRing = 1 << 8
	chunkLen   = 256
	// MaxSeriesSlots is the most slots a Series holds; a longer run's
	// series stops there, Truncated.
	MaxSeriesSlots = 1 << 22
)

// ErrStopped is what a run returns when its Stop function asked it to.
var ErrStopped = errors.New("stopped")

// pending is a client's next attempt and everything the client carries,
// in 32 bytes: two to a cache line.
type pending struct {
	src    source // the client's generator; src.kp holds k | prev<<kBits
	t      uint32 // ms of the attempt
	client uint32 // 1 to N for the crowd, N+1 on for the fresh requests
}

// kBits hold the attempt's number (at most MaxAttempts), the bits above it
// the wait before it (at most 2*MaxWait), or the first wait before any.
const kBits = 7

func (p *pending) k() uint32    { return p.src.kp & (1<<kBits - 1) }
func (p *pending) prev() uint32 { return p.src.kp >> kBits }

func newPending(d Draws, seed int, client uint32, t uint32, first int) pending {
	p := pending{src: newSource(d, seed, int(client)), t: t, client: client}
	p.src.kp = 1 | uint32(first)<<kBits
	return p
}

// chunk is chunkLen pending attempts, 8 KiB: a page, so the attempts lie
// on cache-line boundaries, two to a line.
type chunk [chunkLen]pending

// bucket is a list of chunks, all full but the last, which holds n.
type bucket struct {
	chunks []*chunk
	n      int
}

// len is how many attempts the bucket holds.
func (b *bucket) len() int {
	if len(b.chunks) == 0 {
		return 0
	}
	return (len(b.chunks)-1)*chunkLen + b.n
}

// part returns chunk i's attempts.
func (b *bucket) part(i int) []pending {
	if i == len(b.chunks)-1 {
		return b.chunks[i][:b.n]
	}
	return b.chunks[i][:]
}

// Series is a run's attempts per slot of Slot ms: index i holds the slot
// [i*Slot, (i+1)*Slot). Served, Rejected and FailedWhileDown are every
// attempt's outcome, the crowd's first attempts included; Retries counts
// the attempts after a client's first, whatever their outcome.
type Series struct {
	Slot            int
	Retries         []int
	Served          []int
	Rejected        []int
	FailedWhileDown []int
	Truncated       bool // the run went on past MaxSeriesSlots slots
}

// Len is how many slots the series holds.
func (s *Series) Len() int { return len(s.Served) }

// Attempts is slot i's attempts of every outcome.
func (s *Series) Attempts(i int) int { return s.Served[i] + s.Rejected[i] + s.FailedWhileDown[i] }

func (s *Series) extend(i int) {
	for len(s.Served) <= i {
		s.Retries, s.Served = append(s.Retries, 0), append(s.Served, 0)
		s.Rejected, s.FailedWhileDown = append(s.Rejected, 0), append(s.FailedWhileDown, 0)
	}
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
	sorted bool // every millisecond is taken in client order (a budget)
	// cohorts: without jitter and without a budget, clients that wait
	// alike stay together: a pending attempt stands for src.x clients in a
	// row, from client on, who started at the same time.
	cohorts bool

	bits     uint     // a bucket is 1<<bits ms wide
	ring     []bucket // a power of two long
	ringMask int64
	free     []*chunk
	cur      int64 // the bucket whose milliseconds are being run; -1 before any
	// The current wide bucket's attempts, in the order of their
	// milliseconds: those of millisecond ms are flat[at[ms]:at[ms+1]], then
	// late[ms], the ones that joined while the bucket ran.
	flat    []pending
	at      []int
	fill    []int // where each millisecond's next attempt goes, as scatter fills flat
	late    [][]pending
	order   []pending // a millisecond's attempts in one piece, to be put in client order
	waiting int       // attempts in the ring

	f            Figures
	lat          []uint32
	lastServed   int64
	lastRejected int64 // the slot of the last rejection; -1 if none

	slot         int64 // the current slot; -1 before any
	slotCap      int64
	slotServed   int64
	slotRetries  int64
	slotAfter    int64 // attempts at or after the outage's end
	slotRejected int64
	slotDown     int64

	series *Series
	stop   func() bool
}

func newEngine(pl *plan, s Settings, series bool, stop func() bool) *engine {
	e := &engine{pl: pl, s: s, crowd: uint32(s.Clients), outage: uint32(s.Outage), attempts: uint32(pl.retries + 1),
		slotDiv: newDivisor(uint32(s.Slot)), capacity: int64(s.Capacity), load: int64(s.Load), loadEnd: int64(s.LoadEnd()),
		fresh: s.FreshRequests(), bud: newBudgets(s.Budget, s.Processes), procs: uint32(max(s.Processes, 1)),
		cur: -1, lastServed: -1, lastRejected: -1, slot: -1, stop: stop}
	e.sorted = e.bud.kind != BudgetNone
	e.cohorts = pl.same && !e.sorted
	e.f = noFigures()
	e.f.Clients = s.Clients + e.fresh
	// Without jitter, a round of retries lands in one millisecond, and 1 ms
	// buckets take it as it came; with jitter, retries spread over the
	// whole wait, and a ring of few buckets keeps the chunks being filled
	// few enough to stay in cache.
	most := maxRing
	if !pl.same {
		most = jitterRing
	}
	for pl.longestDraw>>e.bits+3 > most {
		e.bits++
	}
	n := 1
	for n < pl.longestDraw>>e.bits+3 {
		n *= 2
	}
	e.ring, e.ringMask = make([]bucket, n), int64(n-1)
	if e.bits > 0 {
		e.at, e.fill, e.late = make([]int, 1<<e.bits+1), make([]int, 1<<e.bits), make([][]pending, 1<<e.bits)
	}
	if e.fresh > 0 {
		e.nextArrive = e.arrival(0)
	}
	if series {
		e.series = &Series{Slot: s.Slot}
	}
	return e
}

// arrival is when fresh request j arrives: floor(j*1000/L).
func (e *engine) arrival(j int) int64 { return int64(j) * 1000 / e.load }

// start is when a client started: 0 for the crowd, its arrival for a fresh
// request.
func (e *engine) start(client uint32) int64 {
	if client <= e.crowd {
		return 0
	}
	return e.arrival(int(client - e.crowd - 1))
}

func (e *engine) run() (Figures, *Series, error) {
	// The crowd's first attempts, all at 0 ms, in client order.
	e.enterSlot(0)
	if e.cohorts {
		p := newPending(e.pl.draws, e.s.Seed, 1, 0, e.pl.first)
		p.src.x = e.crowd
		e.cohort(&p, 0)
	} else {
		for c := uint32(1); c <= e.crowd; c++ {
			p := newPending(e.pl.draws, e.s.Seed, c, 0, e.pl.first)
			e.attempt(&p, 0)
		}
	}
	for b, polled := int64(0), 0; ; b++ {
		if e.waiting == 0 {
			if e.nextFresh >= e.fresh {
				break
			}
			b = max(b, e.nextArrive>>e.bits) // nothing waits before the next arrival
		}
		if len(e.ring[b&e.ringMask].chunks) == 0 && (e.nextFresh >= e.fresh || e.nextArrive>>e.bits > b) {
			continue // nothing happens in this bucket
		}
		if polled++; polled&63 == 0 && e.stop != nil && e.stop() {
			return e.f, nil, ErrStopped
		}
		if e.bits == 0 {
			e.runMillisecond(b)
			continue
		}
		e.scatter(b)
		e.runBucket(b)
	}
	e.closeSlot()
	return e.finish()
}

// scatter makes wide bucket b the current one, putting its attempts in the
// order of their milliseconds (a counting sort).
func (e *engine) scatter(b int64) {
	e.cur = b
	r := &e.ring[b&e.ringMask]
	mask := uint32(1)<<e.bits - 1
	clear(e.at)
	total := 0
	for i := range r.chunks {
		for _, p := range r.part(i) {
			e.at[p.t&mask+1]++
		}
	}
	total = r.len()
	for ms := 1; ms < len(e.at); ms++ {
		e.at[ms] += e.at[ms-1]
	}
	if cap(e.flat) < total {
		e.flat = make([]pending, total)
	}
	e.flat = e.flat[:total]
	fill := e.fill
	copy(fill, e.at)
	for i := range r.chunks {
		for _, p := range r.part(i) {
			ms := p.t & mask
			e.flat[fill[ms]] = p
			fill[ms]++
		}
	}
	e.release(r)
}

// release gives a bucket's chunks back for reuse.
func (e *engine) release(r *bucket) {
	e.waiting -= r.len()
	e.free = append(e.free, r.chunks...)
	clear(r.chunks)
	r.chunks, r.n = r.chunks[:0], 0
}

// insert puts a client's next attempt, at p.t, where its time will find it.
func (e *engine) insert(p *pending) {
	b := int64(p.t >> e.bits)
	if b == e.cur {
		ms := p.t & (1<<e.bits - 1)
		e.late[ms] = append(e.late[ms], *p)
		return
	}
	r := &e.ring[b&e.ringMask]
	if len(r.chunks) == 0 || r.n == chunkLen {
		var c *chunk
		if n := len(e.free); n > 0 {
			c, e.free = e.free[n-1], e.free[:n-1]
		} else {
			c = new(chunk)
		}
		r.chunks, r.n = append(r.chunks, c), 0
	}
	r.chunks[len(r.chunks)-1][r.n] = *p
	r.n++
	e.waiting++
}

func byClient(a, b pending) int { return cmp.Compare(a.client, b.client) }

// runMillisecond runs 1 ms bucket b: the attempts waiting for it are in its
// chunks as they came.
func (e *engine) runMillisecond(b int64) {
	r := &e.ring[b&e.ringMask]
	n := r.len()
	toFresh := e.arriving(b)
	if n == 0 && toFresh == e.nextFresh {
		return
	}
	e.enterSlot(b)
	if n > 0 && e.ordered(b, e.clientsIn(r), toFresh) {
		list := e.order[:0]
		for i := range r.chunks {
			list = append(list, r.part(i)...)
		}
		e.order = list
		e.release(r)
		e.runList(list, b, toFresh)
		return
	}
	for i := range r.chunks {
		part := r.part(i)
		for j := range part {
			e.take(&part[j], uint32(b))
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
		list, late := e.flat[e.at[ms]:e.at[ms+1]], e.late[ms]
		toFresh := e.arriving(t)
		n := len(list) + len(late)
		if n == 0 && toFresh == e.nextFresh {
			continue
		}
		e.enterSlot(t)
		if len(late) > 0 {
			if len(list) == 0 {
				list = late
			} else {
				list = append(append(e.order[:0], list...), late...)
				e.order = list
			}
		}
		if e.ordered(t, e.clientsOf(list), toFresh) {
			e.runList(list, t, toFresh)
		} else {
			for i := range list {
				e.take(&list[i], uint32(t))
			}
			e.runFresh(t, toFresh)
		}
		e.late[ms] = late[:0]
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

// ordered reports whether the attempts of n clients waiting at t must be
// taken in client order: always under a budget (but for one alone), and
// where the slot has no room for them all and the fresh requests arriving
// after them, and the ones with the lowest numbers are served.
func (e *engine) ordered(t int64, n, toFresh int) bool {
	if e.sorted {
		return n > 1
	}
	room := e.slotCap - e.slotServed
	return e.capacity > 0 && t >= int64(e.outage) && room > 0 && room < int64(n+toFresh-e.nextFresh) && room < int64(n)
}

// clientsOf is how many clients the attempts stand for.
func (e *engine) clientsOf(list []pending) int {
	if !e.cohorts {
		return len(list)
	}
	n := 0
	for i := range list {
		n += int(list[i].src.x)
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

// take is one pending attempt at t: a client's, or a cohort's.
func (e *engine) take(p *pending, t uint32) {
	if e.cohorts {
		e.cohort(p, t)
		return
	}
	e.attempt(p, t)
}

// runList runs the attempts waiting at t, which ordered says need an
// order, then the fresh requests arriving at t.
func (e *engine) runList(list []pending, t int64, toFresh int) {
	if e.sorted || e.cohorts {
		slices.SortFunc(list, byClient) // cohorts: ranges of clients, which do not overlap
	} else {
		// Which are served is all the order can change: the lowest numbers
		// the slot has room for. The rest are rejected in any order.
		selectClients(list, int(e.slotCap-e.slotServed))
	}
	for i := range list {
		e.take(&list[i], uint32(t))
	}
	e.runFresh(t, toFresh)
}

// runFresh takes the first attempts of the fresh requests arriving at t,
// nextFresh to toFresh-1.
func (e *engine) runFresh(t int64, toFresh int) {
	if toFresh == e.nextFresh {
		return
	}
	if e.cohorts { // all arrive at t: a cohort
		p := newPending(e.pl.draws, e.s.Seed, e.crowd+1+uint32(e.nextFresh), uint32(t), e.pl.first)
		p.src.x = uint32(toFresh - e.nextFresh)
		e.cohort(&p, uint32(t))
	} else {
		for j := e.nextFresh; j < toFresh; j++ {
			p := newPending(e.pl.draws, e.s.Seed, e.crowd+1+uint32(j), uint32(t), e.pl.first)
			e.attempt(&p, uint32(t))
		}
	}
	e.nextFresh = toFresh
	if toFresh < e.fresh {
		e.nextArrive = e.arrival(toFresh)
	}
}

// selectClients reorders v so that its first k hold the k lowest client
// numbers (Hoare's selection, median-of-three pivots; a sort when it
// shrinks too slowly).
func selectClients(v []pending, k int) {
	lo, hi := 0, len(v)-1
	for rounds := 0; hi-lo > 16; rounds++ {
		if rounds > 64 {
			slices.SortFunc(v[lo:hi+1], byClient)
			return
		}
		mid := lo + (hi-lo)/2
		a, b, c := v[lo].client, v[mid].client, v[hi].client
		pivot := max(min(a, b), min(max(a, b), c))
		l, r := lo, hi
		for l <= r {
			for v[l].client < pivot {
				l++
			}
			for v[r].client > pivot {
				r--
			}
			if l <= r {
				v[l], v[r] = v[r], v[l]
				l++
				r--
			}
		}
		switch {
		case k-1 <= r:
			hi = r
		case k-1 >= l:
			lo = l
		default:
			return
		}
	}
	slices.SortFunc(v[lo:hi+1], byClient)
}

// attempt takes client p's attempt at t, and its retries at once while
// they are drawn with no wait, then puts its next attempt in the calendar
// or ends the client.
func (e *engine) attempt(p *pending, t uint32) {
	for {
		e.f.Attempts++
		k := p.k()
		retry := k >= 2
		if retry {
			e.f.Retries++
			e.slotRetries++
		}
		if t >= e.outage {
			e.slotAfter++
		}
		switch {
		case t < e.outage || (k == 1 && p.client <= e.crowd): // down, or the crowd's trigger
			e.f.FailedWhileDown++
			e.slotDown++
		case e.capacity == 0 || e.slotServed < e.slotCap:
			e.f.Served++
			e.f.Through++
			e.slotServed++
			e.lat = append(e.lat, uint32(int64(t)-e.start(p.client)))
			e.lastServed = int64(t)
			if e.bud.kind != BudgetNone {
				e.bud.served(int((p.client-1)%e.procs), retry)
			}
			return
		default:
			e.f.Rejected++
			e.slotRejected++
			if e.load > 0 && int64(t) >= e.loadEnd-1000 && int64(t) < e.loadEnd {
				e.f.StillOverloaded = true
			}
		}
		proc := 0
		if e.bud.kind != BudgetNone {
			proc = int((p.client - 1) % e.procs)
			e.bud.failed(proc)
		}
		if k >= e.attempts {
			e.f.GaveUp++
			return
		}
		if e.bud.kind != BudgetNone && !e.bud.retry(proc) {
			e.f.Throttled++
			return
		}
		w := e.pl.wait(int(k), &p.src, int(p.prev()))
		p.src.kp = (k + 1) | uint32(w)<<kBits
		if e.pl.maxElapsed > 0 && int64(t)+int64(w)-e.start(p.client) > int64(e.pl.maxElapsed) {
			e.f.OutOfTime++
			return
		}
		if w > 0 {
			p.t = t + uint32(w)
			e.insert(p)
			return
		}
	}
}

// cohort takes the attempts at t of cohort p: src.x clients from p.client
// on, alike in all but their numbers, so the lowest of them are the ones a
// slot with too little room serves. Those it does not serve go on as one
// cohort, or end together.
func (e *engine) cohort(p *pending, t uint32) {
	n := int64(p.src.x)
	k := p.k()
	e.f.Attempts += int(n)
	if k >= 2 {
		e.f.Retries += int(n)
		e.slotRetries += n
	}
	if t >= e.outage {
		e.slotAfter += n
	}
	served := int64(0)
	if t < e.outage || (k == 1 && p.client <= e.crowd) {
		e.f.FailedWhileDown += int(n)
		e.slotDown += n
	} else {
		served = n
		if e.capacity > 0 {
			served = min(n, max(e.slotCap-e.slotServed, 0))
		}
		if served > 0 {
			e.f.Served += int(served)
			e.f.Through += int(served)
			e.slotServed += served
			e.lastServed = int64(t)
			lat := uint32(int64(t) - e.start(p.client))
			for range served {
				e.lat = append(e.lat, lat)
			}
		}
		if rejected := n - served; rejected > 0 {
			e.f.Rejected += int(rejected)
			e.slotRejected += rejected
			if e.load > 0 && int64(t) >= e.loadEnd-1000 && int64(t) < e.loadEnd {
				e.f.StillOverloaded = true
			}
		}
	}
	left := n - served
	if left == 0 {
		return
	}
	p.client += uint32(served) // the served are the lowest numbers
	if k >= e.attempts {
		e.f.GaveUp += int(left)
		return
	}
	w := e.pl.lo[k] // no jitter: the base wait itself, never 0
	if e.pl.maxElapsed > 0 && int64(t)+int64(w)-e.start(p.client) > int64(e.pl.maxElapsed) {
		e.f.OutOfTime += int(left)
		return
	}
	p.src.x, p.src.kp, p.t = uint32(left), (k+1)|uint32(w)<<kBits, t+uint32(w)
	e.insert(p)
}

// enterSlot moves the slot counters on to the slot of t, closing the one
// before.
func (e *engine) enterSlot(t int64) {
	i := int64(e.slotDiv.div(uint32(t)))
	if i == e.slot {
		return
	}
	e.closeSlot()
	e.slot = i
	e.slotServed, e.slotRetries, e.slotAfter, e.slotRejected, e.slotDown = 0, 0, 0, 0, 0
	if e.capacity > 0 {
		e.slotCap = slotCapacity(e.capacity, int64(e.s.Slot), i)
	}
}

// closeSlot adds the current slot to the figures and the series. Slots come
// in time order, so the first busiest is the one that got there first.
func (e *engine) closeSlot() {
	if e.slot < 0 {
		return
	}
	from := int(e.slot) * e.s.Slot
	if int(e.slotRetries) > e.f.MostInASlot {
		e.f.MostInASlot, e.f.BusiestSlotFrom = int(e.slotRetries), from
	}
	if int(e.slotAfter) > e.f.PeakAfterBack {
		e.f.PeakAfterBack, e.f.PeakAfterBackFrom = int(e.slotAfter), from
	}
	if e.slotRejected > 0 {
		e.lastRejected = e.slot
	}
	if s := e.series; s != nil && !s.Truncated {
		i := int(e.slot)
		if i >= MaxSeriesSlots {
			s.Truncated = true
			return
		}
		s.extend(i)
		s.Retries[i] += int(e.slotRetries)
		s.Served[i] += int(e.slotServed)
		s.Rejected[i] += int(e.slotRejected)
		s.FailedWhileDown[i] += int(e.slotDown)
	}
}

func (e *engine) finish() (Figures, *Series, error) {
	f := &e.f
	f.StableFrom = e.s.Outage
	if e.lastRejected >= 0 {
		f.StableFrom = int(e.lastRejected+1) * e.s.Slot
	}
	if e.capacity > 0 {
		f.SlotCapacity = int((e.capacity*int64(e.s.Slot) + 999) / 1000)
	}
	f.AllThroughBy = int(e.lastServed)
	f.latencies(e.lat)
	return *f, e.series, nil
}
