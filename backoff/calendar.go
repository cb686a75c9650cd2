package backoff

import "slices"

// The engine's calendar: the pending attempts, the chunks and buckets they
// wait in, and how a bucket is put in the order of its milliseconds or a
// millisecond in the order of its clients.

// pending is a client's next attempt and everything the client carries,
// in 16 bytes: four to a cache line. Its generator is kept as a word (see
// source.word): the LCG's state, or the count of the PCG's draws, from
// which sourceAt steps the PCG's seed on in one multiplication.
type pending struct {
	x      uint32 // the generator's word; for a cohort (no draws), its size
	kp     uint32 // the attempt's number k | the wait before it (prev) << kBits
	t      uint32 // ms of the attempt
	client uint32 // 1 to N for the crowd, N+1 on for the fresh requests
}

// wait draws the wait before client p's attempt k+1 (pl.wait) and keeps
// what its generator moved in p.
func (e *engine) wait(p *pending, k uint32) int {
	if e.pl.same {
		return e.pl.lo[k]
	}
	src := sourceAt(e.pl.draws, e.s.Seed, p.client, p.x)
	w := e.pl.wait(int(k), &src, int(p.prev()))
	p.x = src.word(e.pl.draws)
	return w
}

// kBits hold the attempt's number (at most MaxAttempts), the bits above it
// the wait before it (at most 2*MaxWait), or the first wait before any.
const kBits = 7

func (p *pending) k() uint32 { return p.kp & (1<<kBits - 1) }

func (p *pending) prev() uint32 { return p.kp >> kBits }

func newPending(d Draws, seed int, client uint32, t uint32, first int) pending {
	src := newSource(d, seed, int(client))
	return pending{x: src.word(d), kp: 1 | uint32(first)<<kBits, t: t, client: client}
}

// chunk is chunkLen pending attempts, 4 KiB: a page, so the attempts lie
// on cache-line boundaries, four to a line.
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
	if l := e.lanes; l != nil { // at the back of its lane
		l.fifos[l.of[p.k()]].push(*p)
		return
	}
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

// fifo is pending attempts in a ring a power of two long, the oldest at
// head: the live requests of the service's queue, and the attempts that
// hang until their failure comes due.
type fifo struct {
	ring    []pending
	head, n int
}

// push puts p at the back. It takes p as a value, which a caller can make
// from its registers: a copy of a pending attempt whose fields were just
// stored one by one loads them two at a time, and waits for the stores.
func (f *fifo) push(p pending) {
	if f.n == len(f.ring) {
		bigger := make([]pending, max(64, 2*len(f.ring)))
		for i := range f.n {
			bigger[i] = f.ring[(f.head+i)&(len(f.ring)-1)]
		}
		f.ring, f.head = bigger, 0
	}
	f.ring[(f.head+f.n)&(len(f.ring)-1)] = p
	f.n++
}

// front is the oldest, back the newest; the ring must not be empty.
func (f *fifo) front() *pending { return &f.ring[f.head] }
func (f *fifo) back() *pending  { return &f.ring[(f.head+f.n-1)&(len(f.ring)-1)] }

func (f *fifo) popFront() {
	f.head = (f.head + 1) & (len(f.ring) - 1)
	f.n--
}

// sortByClient puts list in client order. A long list is sorted as words:
// each attempt's client number above its place, 8 bytes a sort moves and
// compares without a function, where a sort of the attempts themselves
// moves 32 bytes through a comparison; then the attempts are gathered in
// that order through the engine's scratch. (Clients are unique in a list:
// each has one attempt pending.)
func (e *engine) sortByClient(list []pending) {
	if len(list) < 12 {
		insertByClient(list)
		return
	}
	slices.Sort(e.clientKeys(list))
	e.gatherBy(list)
}

// insertByClient sorts a short list by insertion, comparing the numbers
// in place.
func insertByClient(list []pending) {
	for i := 1; i < len(list); i++ {
		p, j := list[i], i
		for ; j > 0 && list[j-1].client > p.client; j-- {
			list[j] = list[j-1]
		}
		list[j] = p
	}
}

// selectByClient reorders list so that its first k hold the k lowest
// client numbers, selecting among words as sortByClient sorts them (a
// short list it sorts).
func (e *engine) selectByClient(list []pending, k int) {
	if len(list) < 12 {
		insertByClient(list)
		return
	}
	selectOrdered(e.clientKeys(list), k-1)
	e.gatherBy(list)
}

// clientKeys returns the keys of list in e.keys: each attempt's client
// number above its place.
func (e *engine) clientKeys(list []pending) []uint64 {
	keys := e.keys[:0]
	for i := range list {
		keys = append(keys, uint64(list[i].client)<<32|uint64(i))
	}
	e.keys = keys
	return keys
}

// gatherBy puts list in the order of e.keys, which hold its places.
func (e *engine) gatherBy(list []pending) {
	was := append(e.gather[:0], list...)
	for i, k := range e.keys {
		list[i] = was[uint32(k)]
	}
	e.gather = was
}

// lanes is the calendar of cohorts at a queue without guards: there every
// cohort whose attempt k fails at t comes back at t + d(k), and failures
// come in time order, so the cohorts that wait alike are due in the order
// they failed: a FIFO for each wait d(k) there is, and the attempts due at
// t are the heads of the lanes due then. Nothing is kept per millisecond.
type lanes struct {
	of    []uint8 // of[k]: the lane of the cohorts whose attempt k is next (after the wait d(k-1))
	fifos []fifo
}

// inLanes reports whether a run of pl under s keeps its calendar in lanes:
// cohorts (no jitter, no budget) at a queue, without guards.
func inLanes(pl *plan, s Settings) bool {
	return pl.same && s.Budget.Kind == BudgetNone && s.HasQueue() && !s.HasGuards()
}

// newLanes is the lanes of plan pl, in the FIFOs of kept where there are
// enough of them.
func newLanes(pl *plan, kept []fifo) *lanes {
	l := &lanes{of: make([]uint8, pl.retries+2)}
	var waits []int // each lane's wait
	for k := 1; k <= pl.retries; k++ {
		i := slices.Index(waits, pl.lo[k])
		if i < 0 {
			i, waits = len(waits), append(waits, pl.lo[k])
		}
		l.of[k+1] = uint8(i) // at most MaxAttempts-1 lanes
	}
	if len(kept) >= len(waits) {
		l.fifos = kept[:len(waits)]
		for i := range l.fifos {
			l.fifos[i].head, l.fifos[i].n = 0, 0
		}
	} else {
		l.fifos = make([]fifo, len(waits))
	}
	return l
}

// next is when the first cohort is due; noneDue if none waits.
func (l *lanes) next() int64 {
	due := int64(noneDue)
	for i := range l.fifos {
		if f := &l.fifos[i]; f.n > 0 {
			due = min(due, int64(f.front().t))
		}
	}
	return due
}

// take appends the cohorts due at t to list.
func (l *lanes) take(t uint32, list []pending) []pending {
	for i := range l.fifos {
		f := &l.fifos[i]
		for f.n > 0 && f.front().t == t {
			list = append(list, *f.front())
			f.popFront()
		}
	}
	return list
}
