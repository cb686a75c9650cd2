package backoff

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
)

// The crowd without a service (no capacity, no fresh load, no budget) needs
// no clock: every attempt at or after the outage's end is served, so a
// client's fate is its own, and the clients can be run one after another in
// any order. This is the reference's crowd, and the fast path every figure
// of it takes; the engine (engine.go) gives the same figures, slower, and a
// property test holds the two together.

// tally is the fast path's scratch, kept between runs: retries per slot
// over the horizon (zero between runs), and the latencies of the clients
// that got through. Where the horizon holds more than maxCountSlots slots
// (1 ms slots over a long outage), counting in an array that long would
// cost its length in memory and cache misses; the run marks each retry's
// slot in a bitmap instead, a bit a slot, and sorts only the slots marked
// twice. Past maxFastSlots the engine runs instead (run.go).
type tally struct {
	plan   plan     // Run's plan, renewed for each policy
	counts []uint16 // where the retries are fewer than 2^16
	wide   []uint32 // where they are more
	spare  []uint32 // the radix sort's other half; walkCrowd's latencies in the percentiles' slots
	lat    []uint32
	ats    []uint32 // one client's retries' moments
	marks  marks
}

// maxCountSlots is the most slots the fast path counts in an array: 128
// KiB of counts, which stay in a core's cache, or 256 KiB where the retries
// in all are 2^16 or more and a count takes 32 bits.
const maxCountSlots = 1 << 16

// scratch is the bytes ta holds.
func (ta *tally) scratch() int64 {
	words := cap(ta.spare) + cap(ta.lat) + cap(ta.ats) + cap(ta.wide) + cap(ta.marks.dups)
	return int64(cap(ta.counts))*2 + int64(words)*4 + int64(cap(ta.marks.bits))*8
}

// tallyPool keeps tallies between calls: fresh counts cost page faults.
// Only zeroed counts go back, so no figure can depend on what it held.
var tallyPool = sync.Pool{New: func() any { return new(tally) }}

// fastSlots is how many slots the fast path counts in for these settings.
func fastSlots(pl *plan, s Settings) int {
	return pl.horizon(s.Outage, s.OutageHang)/s.Slot + 1
}

// crowd runs the crowd of policy pl under s, which must have no service,
// and returns its figures, leaving the counts zero. Its horizon must hold
// at most maxFastSlots slots. It asks stop, if not nil, every 1024 clients
// (at most 1024*MaxAttempts retries drawn), and returns ErrStopped when it
// says yes.
func (ta *tally) crowd(pl *plan, s Settings, stop func() bool) (Figures, error) {
	return ta.crowdSeries(pl, s, nil, stop)
}

// crowdSeries is crowd, adding every attempt to series as well, when it is
// not nil: the same series the engine keeps, which fastSeries makes.
func (ta *tally) crowdSeries(pl *plan, s Settings, series *Series, stop func() bool) (Figures, error) {
	f := noFigures()
	n := fastSlots(pl, s)
	// Few slots are counted in an array, of 16 bits a slot where the
	// retries are fewer than 2^16; many are marked in a bitmap (at most 2
	// MiB of it), and the repeats sorted.
	counting := n <= maxCountSlots
	narrow := counting && s.Clients*pl.retries < 1<<16
	marking := !counting
	var counts []uint16
	var wide []uint32
	switch {
	case narrow:
		if cap(ta.counts) < n {
			ta.counts = make([]uint16, n)
		}
		counts = ta.counts[:n]
	case counting:
		if cap(ta.wide) < n {
			ta.wide = make([]uint32, n)
		}
		wide = ta.wide[:n]
	}
	if marking {
		ta.marks.reset(n)
	}
	slot := newDivisor(uint32(s.Slot))
	split := uint32(s.Outage / s.Slot) // the slot the service comes back in
	outage := s.Outage
	afterInSplit := 0 // attempts at or after the outage's end in the split slot
	lat := ta.lat[:0]

	// An outage that hangs takes the general walk, which adds H to every
	// wait: each attempt a walk makes but the last fails while down, and
	// its client goes on H later.
	hang := s.OutageHang
	if series == nil && hang == 0 && (len(pl.ref) > 0 || pl.kind == JitterDecorrelated || pl.draws == Independent && !pl.same) {
		switch {
		case narrow:
			return walkCrowd(ta, pl, s, counts, stop)
		case counting:
			return walkCrowd(ta, pl, s, wide, stop)
		}
	}

	// Without jitter every client waits alike: one client stands for all.
	clients := s.Clients
	if pl.same {
		clients = 1
	}
	var top busiest
	retries, through, outOfTime := 0, 0, 0
	if cap(ta.ats) < pl.retries {
		ta.ats = make([]uint32, pl.retries)
	}
	ats := ta.ats[:pl.retries]
	walk := pl.walker()
	for client := 1; client <= clients; client++ {
		if client&1023 == 0 && stop != nil && stop() {
			switch { // only zeroed counts go back
			case narrow:
				clear(counts[:top.last+1])
			case counting:
				clear(wide[:top.last+1])
			default:
				clear(ta.marks.bits[:ta.marks.last/64+1])
			}
			ta.lat = lat[:0]
			return noFigures(), ErrStopped
		}
		// A client's retries are drawn first, then counted: two short
		// loops whose variables stay in registers.
		made, end := walk(pl, newSource(pl.draws, s.Seed, client), ats, outage, hang)
		retries += made
		its := ats[:made]
		if series != nil {
			series.add(its, slot, outage)
		}
		switch {
		case narrow:
			top = count(top, counts, its, slot, split)
		case counting:
			top = count(top, wide, its, slot, split)
		default:
			ta.marks.mark(its, slot, split)
		}
		switch end {
		case endThrough:
			through++
			at := its[made-1]
			lat = append(lat, at)
			if slot.div(at) == split {
				afterInSplit++
			}
		case endOutOfTime:
			outOfTime++
		}
	}
	gaveUp := clients - through - outOfTime

	times := 1
	if pl.same {
		times = s.Clients
	}
	if series != nil {
		series.trim(times, s.Clients)
	}
	f.Clients, f.ClientsTouched = s.Clients, s.Clients // no fresh load: the crowd alone
	f.Retries = retries * times
	f.Attempts = s.Clients + f.Retries
	f.Served, f.Through = through*times, through*times
	f.FailedWhileDown = f.Attempts - f.Served
	f.GaveUp, f.OutOfTime = gaveUp*times, outOfTime*times
	f.StableFrom = outage

	// The busiest slot, and the busiest at or after the outage's end: the
	// split slot holds only afterInSplit such attempts (and, with no
	// outage, the crowd's first attempts, at 0 ms); every later slot holds
	// nothing else.
	afterInSplit *= times
	if outage == 0 {
		afterInSplit += s.Clients
	}
	switch {
	case marking:
		top = ta.marks.busiest(split, &ta.spare)
	case retries > 0 && narrow:
		clear(counts[:top.last+1])
	case retries > 0:
		clear(wide[:top.last+1])
	}
	// top.most is the busiest slot, the earliest of equals; top.peak the
	// busiest after the split slot, which the split slot's own attempts
	// beat when as many, being earlier.
	c, mostSlot := slotOf(top.most)
	most := c * times
	peak, peakSlot := afterInSplit, split
	if c, i := slotOf(top.peak); c*times > peak {
		peak, peakSlot = c*times, i
	}
	if most > 0 {
		f.MostInASlot, f.BusiestSlotFrom = most, int(mostSlot)*s.Slot
	}
	if peak > 0 {
		f.PeakAfterBack, f.PeakAfterBackFrom = peak, int(peakSlot)*s.Slot
	}
	f.latencies(lat) // with one client standing for all, its one latency is every percentile
	f.AllThroughBy = f.LatencyMax
	f.CrowdAllThroughBy = f.AllThroughBy // every client is the crowd's
	f.derive(outage)
	ta.lat = lat[:0]
	return f, nil
}

// radixSort sorts v with spare as the other half (grown as needed): two
// passes of counting sort on the lower and the upper half of the bits the
// largest value has (one pass when they are 12 or fewer), both digits'
// counts taken in one read; it returns the sorted slice and the spare.
func radixSort(v, spare []uint32) (sorted, other []uint32) {
	top := uint32(0)
	for _, x := range v {
		top |= x
	}
	width := uint(bits.Len32(top))
	switch {
	case width == 0:
		return v, spare
	case width > 24: // never from the fast path, whose slots are fewer than 2^24
		slices.Sort(v)
		return v, spare
	}
	if cap(spare) < len(v) {
		spare = make([]uint32, len(v))
	}
	spare = spare[:len(v)]
	lo := min(width, 12)
	if width > 12 {
		lo = (width + 1) / 2 // two passes of at most 16 bits each
	}
	hi := width - lo
	var loCount [1 << 12]uint32
	var hiCount [1 << 12]uint32
	loMask := uint32(1)<<lo - 1
	for _, x := range v {
		loCount[x&loMask]++
		hiCount[x>>lo]++
	}
	place := func(from, to []uint32, count []uint32, digit func(uint32) uint32) {
		at := uint32(0)
		for d, c := range count {
			count[d] = at
			at += c
		}
		for _, x := range from {
			d := digit(x)
			to[count[d]] = x
			count[d]++
		}
	}
	place(v, spare, loCount[:1<<lo], func(x uint32) uint32 { return x & loMask })
	if hi == 0 {
		return spare, v
	}
	place(spare, v, hiCount[:1<<hi], func(x uint32) uint32 { return x >> lo })
	return v, spare
}

// fastSeries is an empty series for the fast path of pl under s: as many
// slots as its horizon holds, or nil where that is more than a series
// keeps (the engine then runs, and its series stops at MaxSeriesSlots).
func fastSeries(pl *plan, s Settings) *Series {
	n := fastSlots(pl, s)
	if n > MaxSeriesSlots {
		return nil
	}
	return &Series{Slot: s.Slot, Retries: make([]int, n), Served: make([]int, n), Rejected: make([]int, n),
		FailedWhileDown: make([]int, n)}
}

// trim finishes a series the fast path counted with one client standing
// for times of them: every count times times, the crowd's first attempts
// (all at 0 ms, all failing) in slot 0, and the slots after the last
// attempt dropped, as the engine's series ends at its last attempt.
func (s *Series) trim(times, clients int) {
	last := 0
	for i := range s.Retries {
		if s.Retries[i] > 0 {
			s.Retries[i] *= times
			s.Served[i] *= times
			s.FailedWhileDown[i] *= times
			last = i
		}
	}
	s.FailedWhileDown[0] += clients
	n := last + 1
	s.Retries, s.Served, s.Rejected, s.FailedWhileDown = s.Retries[:n], s.Served[:n], s.Rejected[:n], s.FailedWhileDown[:n]
}

// How a client's retries ended.
const (
	endGaveUp    = iota // every attempt failed
	endThrough          // its last retry came at or after the outage's end
	endOutOfTime        // the next wait would pass the limit on total time
)

// walker returns the fast path's way to draw a client's retries for pl: a
// loop written out for each kind of draw the five and most presets make,
// with the generator's state in a local, else the general pl.wait.
func (pl *plan) walker() func(pl *plan, src source, ats []uint32, outage, hang int) (int, int) {
	table := pl.kind != JitterNone && pl.kind != JitterDecorrelated
	switch {
	case table && pl.draws == Reference:
		return walkRefTable
	case table && pl.draws == Independent:
		return walkPCGTable
	case pl.kind == JitterDecorrelated && pl.draws == Reference:
		return walkRefDecorrelated
	}
	return walkAny
}

// step is a walk's retry k after a wait of w from at: the moment of the
// retry, and the retries made and how the client ended where the walk stops
// there (made is -1 where it goes on).
func step(ats []uint32, k, at, w, limit, outage int) (next, made, end int) {
	if limit > 0 && at+w > limit {
		return at, k, endOutOfTime
	}
	at += w
	ats[k] = uint32(at)
	if at >= outage {
		return at, k + 1, endThrough
	}
	return at, -1, 0
}

// Each walk draws a client's waits from src in turn, putting the moment of
// each retry in ats, and stops at the first at or after outage, or before a
// wait that would pass pl's limit on total time; it returns the retries made
// and how the client ended. Every attempt before that failed while down,
// and with an outage that hangs its client went on hang ms after it: each
// retry comes hang + w(k) after the attempt before. They differ only in
// how a wait is drawn.

func walkRefTable(pl *plan, src source, ats []uint32, outage, hang int) (made, end int) {
	x, at, limit := src.x, 0, pl.maxElapsed
	lo, div := pl.lo[1:len(ats)+1], pl.div[1:len(ats)+1]
	for k := range ats {
		x = 1664525*x + 1013904223
		w := lo[k] + int(div[k].mod(x>>16)) // a band past ReferenceReach: mod is the identity
		if at, made, end = step(ats, k, at, w+hang, limit, outage); made >= 0 {
			return made, end
		}
	}
	return len(ats), endGaveUp
}

func walkPCGTable(pl *plan, src source, ats []uint32, outage, hang int) (made, end int) {
	at, limit := 0, pl.maxElapsed
	lo, width := pl.lo[1:len(ats)+1], pl.width[1:len(ats)+1]
	for k := range ats {
		hi, l := bits.Mul64(src.pcg.Uint64(), width[k]) // src.lemire, written out so the draw needs no call
		if l < width[k] {
			hi = src.lemireAgain(width[k], hi, l)
		}
		w := lo[k] + int(hi)
		if at, made, end = step(ats, k, at, w+hang, limit, outage); made >= 0 {
			return made, end
		}
	}
	return len(ats), endGaveUp
}

// walkRefDecorrelated draws min(longest, u(first, 3*prev)), its band new
// each time.
func walkRefDecorrelated(pl *plan, src source, ats []uint32, outage, hang int) (made, end int) {
	x, at, limit, first, longest := src.x, 0, pl.maxElapsed, pl.first, pl.longest
	prev := first
	for k := range ats {
		x = 1664525*x + 1013904223
		r, width := x>>16, uint32(3*prev-first+1)
		if r >= width {
			r %= width
		}
		w := min(first+int(r), longest)
		prev = w
		if at, made, end = step(ats, k, at, w+hang, limit, outage); made >= 0 {
			return made, end
		}
	}
	return len(ats), endGaveUp
}

func walkAny(pl *plan, src source, ats []uint32, outage, hang int) (made, end int) {
	at, prev, limit := 0, pl.first, pl.maxElapsed
	for k := range ats {
		w := pl.wait(k+1, &src, prev)
		prev = w
		if at, made, end = step(ats, k, at, w+hang, limit, outage); made >= 0 {
			return made, end
		}
	}
	return len(ats), endGaveUp
}

// busiest follows the counting: the busiest counted slot (the first of
// them), the busiest after the split slot, each as its count in the high
// word and the slot's complement in the low one, so that the larger key is
// the busier slot or, as busy, the earlier; and the last slot counted, from
// which back to 0 the counts are cleared after.
type busiest struct {
	most, peak uint64
	last       uint32
}

// slotKey is the key of slot i holding c.
func slotKey(c, i uint32) uint64 { return uint64(c)<<32 | uint64(^i) }

// slotOf returns the count and the slot of key k.
func slotOf(k uint64) (c int, i uint32) { return int(k >> 32), ^uint32(k) }

// count adds the retries at ats to counts, in slots of slot, and returns b
// followed over them, without a branch a retry: a slot's key only grows, so
// the largest key met is the largest at the end.
func count[C uint16 | uint32](b busiest, counts []C, ats []uint32, slot divisor, split uint32) busiest {
	most, peak, last := b.most, b.peak, b.last
	for _, at := range ats {
		i := slot.div(at)
		c := counts[i] + 1
		counts[i] = c
		last = max(last, i)
		key, after := slotKey(uint32(c), i), uint64(0)
		if i > split {
			after = key
		}
		most, peak = max(most, key), max(peak, after)
	}
	return busiest{most, peak, last}
}

// marks is the fast path's scratch where the slots are too many to count in
// an array and the retries few: a bit a slot, set at the slot's first retry,
// and the slot of every later retry listed in dups, which are then sorted.
// A slot's count is 1 more than it is in dups. Between runs the bits are
// zero.
type marks struct {
	bits              []uint64
	dups              []uint32
	first, firstAfter uint32 // the first slot marked, and after the split slot (or none)
	last              uint32
}

// reset readies m for n slots.
func (m *marks) reset(n int) {
	if words := (n + 63) / 64; len(m.bits) < words {
		m.bits = make([]uint64, words)
	}
	m.dups = m.dups[:0]
	m.first, m.firstAfter, m.last = none, none, 0
}

const none = ^uint32(0)

// mark marks the slots of the retries at ats.
func (m *marks) mark(ats []uint32, slot divisor, split uint32) {
	bits, dups, first, firstAfter, last := m.bits, m.dups, m.first, m.firstAfter, m.last
	for _, at := range ats {
		i := slot.div(at)
		w, b := i/64, uint64(1)<<(i%64)
		if bits[w]&b != 0 {
			dups = append(dups, i)
		}
		bits[w] |= b
		first, last = min(first, i), max(last, i)
		if i > split {
			firstAfter = min(firstAfter, i)
		}
	}
	m.dups, m.first, m.firstAfter, m.last = dups, first, firstAfter, last
}

// busiest returns the busiest slot and the busiest after split as count
// does, with spare for the sort, and clears the bits.
func (m *marks) busiest(split uint32, spare *[]uint32) busiest {
	var b busiest
	if m.first == none {
		return b
	}
	m.dups, *spare = radixSort(m.dups, *spare)
	b = runs(m.dups, split)
	// A slot in dups holds one more; with none there, every marked slot
	// holds one, and the first is the busiest.
	b.most, b.peak = b.most+1<<32, b.peak+1<<32
	if b.most == 1<<32 {
		b.most = slotKey(1, m.first)
	}
	if b.peak == 1<<32 {
		b.peak = 0
		if m.firstAfter != none {
			b.peak = slotKey(1, m.firstAfter)
		}
	}
	clear(m.bits[:m.last/64+1])
	return b
}

// runs returns the busiest of the slots in sorted, each as often as it is
// there, and the busiest after split, as count does.
func runs(sorted []uint32, split uint32) busiest {
	var b busiest
	for from := 0; from < len(sorted); {
		i, to := sorted[from], from+1
		for to < len(sorted) && sorted[to] == i {
			to++
		}
		key, after := slotKey(uint32(to-from), i), uint64(0)
		if i > split {
			after = key
		}
		b.most, b.peak = max(b.most, key), max(b.peak, after)
		from = to
	}
	return b
}

// add counts the retries at ats in the series: each in its slot, served
// from outage on, failed before.
func (s *Series) add(ats []uint32, slot divisor, outage int) {
	for _, at := range ats {
		i := slot.div(at)
		s.Retries[i]++
		if int(at) >= outage {
			s.Served[i]++
		} else {
			s.FailedWhileDown[i]++
		}
	}
}

// The crowd of a jittered policy counted in an array, without a series:
// the path the five and the presets take, under either draws. Each
// client's retries are drawn and counted in one loop, a
// function of its own that the compiler keeps in registers; the busiest
// slots are found after, in one pass over the counts, which costs less than
// following them retry by retry; and the latencies' percentiles are read
// from the counts, whose slots from the one the service comes back in on
// hold only the clients' last retries, those that got through.

// clientWalk is what a client's walk reads.
type clientWalk[C uint16 | uint32] struct {
	ref            []refStep
	wide           int      // ref[wide:] need no remainder
	lo             []int    // Independent draws: retry k's band's low end, lo[k-1]
	width          []uint64 // and its width
	retries        int
	counts         []C
	slot           slotDivisor
	limit, outage  uint32 // limit: the latest a retry may come; no limit is 2^32-1
	first, longest uint32
}

// slotDivisor takes a moment's slot, at / slot, as (at*m) >> f for every
// at below 2^31: with f = 31 + ceil(log2 slot) and m = ceil(2^f/slot), the
// product stays below 2^63 and the quotient is exact (Lemire, Kaser and
// Kurz 2019, theorem 1).
type slotDivisor struct {
	m uint64
	f uint
}

func newSlotDivisor(slot int) slotDivisor {
	f := 31 + uint(bits.Len(uint(slot-1)))
	return slotDivisor{m: (1<<f + uint64(slot) - 1) / uint64(slot), f: f}
}

func (v slotDivisor) div(at uint32) uint32 { return uint32(uint64(at) * v.m >> (v.f & 63)) }

// table draws and counts the retries of the client whose generator starts
// at x: a table jitter, the wait before retry k lo + (x>>16) mod d, x
// drawn anew each retry. It returns the moment of the last retry made, the
// retries made and how the client ended. What stays the same from retry to
// retry is read from w as it is needed, which leaves the registers to the
// generator's state and the moment, which each retry waits on.
//
//go:noinline
func (w *clientWalk[C]) table(x uint32) (at uint32, made, end int) {
	ref, counts := w.ref, w.counts
	narrow := ref[:w.wide]
	for k := range narrow {
		st := &narrow[k]
		x = 1664525*x + 1013904223
		next := at + st.lo + uint32(uint64(st.m*(x>>16))*uint64(st.d)>>32)
		if next > w.limit {
			return at, k, endOutOfTime
		}
		at = next
		counts[uint64(at)*w.slot.m>>(w.slot.f&63)]++
		if at >= w.outage {
			return at, k + 1, endThrough
		}
	}
	for k := w.wide; k < len(ref); k++ {
		x = 1664525*x + 1013904223
		next := at + ref[k].lo + x>>16
		if next > w.limit {
			return at, k, endOutOfTime
		}
		at = next
		counts[uint64(at)*w.slot.m>>(w.slot.f&63)]++
		if at >= w.outage {
			return at, k + 1, endThrough
		}
	}
	return at, len(ref), endGaveUp
}

// decorrelated is table for decorrelated jitter: min(longest, first + r
// mod (3*prev - first + 1)), prev the wait before.
//
//go:noinline
func (w *clientWalk[C]) decorrelated(x uint32) (at uint32, made, end int) {
	counts := w.counts
	prev := w.first
	for k := range w.retries {
		x = 1664525*x + 1013904223
		r, width := x>>16, 3*prev-w.first+1
		// A branch, predicted, keeps the next wait from waiting on this
		// one: the remainder is needed only where width is at most r, and
		// where width is 2^14 or more (r < 2^16), three subtractions at
		// most make it.
		for r >= width && width >= 1<<14 {
			r -= width
		}
		if r >= width {
			r %= width
		}
		prev = min(w.first+r, w.longest)
		next := at + prev
		if next > w.limit {
			return at, k, endOutOfTime
		}
		at = next
		counts[uint64(at)*w.slot.m>>(w.slot.f&63)]++
		if at >= w.outage {
			return at, k + 1, endThrough
		}
	}
	return at, w.retries, endGaveUp
}

// pcgTable is table for Independent draws: the wait before retry k is
// lo + Lemire's draw from [0, width) (see source.between), from g, the
// client's generator, written out here so that it stays in registers.
//
//go:noinline
func (w *clientWalk[C]) pcgTable(g rand.PCG) (at uint32, made, end int) {
	lo, width, counts := w.lo, w.width, w.counts
	lo = lo[:len(width)]
	for k, n := range width {
		hi, l := bits.Mul64(g.Uint64(), n)
		if l < n { // seldom: only then can l be below (2^64-n) mod n
			for thresh := -n % n; l < thresh; {
				hi, l = bits.Mul64(g.Uint64(), n)
			}
		}
		next := at + uint32(lo[k]) + uint32(hi)
		if next > w.limit {
			return at, k, endOutOfTime
		}
		at = next
		counts[uint64(at)*w.slot.m>>(w.slot.f&63)]++
		if at >= w.outage {
			return at, k + 1, endThrough
		}
	}
	return at, len(width), endGaveUp
}

// pcgDecorrelated is decorrelated for Independent draws.
//
//go:noinline
func (w *clientWalk[C]) pcgDecorrelated(g rand.PCG) (at uint32, made, end int) {
	counts := w.counts
	prev := w.first
	for k := range w.retries {
		n := uint64(3*prev - w.first + 1)
		hi, l := bits.Mul64(g.Uint64(), n)
		if l < n {
			for thresh := -n % n; l < thresh; {
				hi, l = bits.Mul64(g.Uint64(), n)
			}
		}
		prev = min(w.first+uint32(hi), w.longest)
		next := at + prev
		if next > w.limit {
			return at, k, endOutOfTime
		}
		at = next
		counts[uint64(at)*w.slot.m>>(w.slot.f&63)]++
		if at >= w.outage {
			return at, k + 1, endThrough
		}
	}
	return at, w.retries, endGaveUp
}

// walkCrowd is crowdSeries for pl, jittered, with its counts in counts
// (zero, one a slot of the horizon), which it leaves zero: Reference draws
// of a table or decorrelated jitter, or Independent draws of any. It asks
// stop, if not nil, every 1024 clients, and returns ErrStopped, its counts
// zero again, when it says yes.
func walkCrowd[C uint16 | uint32](ta *tally, pl *plan, s Settings, counts []C, stop func() bool) (Figures, error) {
	w := &clientWalk[C]{ref: pl.ref, wide: pl.refWide, lo: pl.lo[1:], width: pl.width[1:], retries: pl.retries, counts: counts,
		slot: newSlotDivisor(s.Slot), limit: ^uint32(0), outage: uint32(s.Outage), first: uint32(pl.first), longest: uint32(pl.longest)}
	if pl.maxElapsed > 0 {
		w.limit = uint32(pl.maxElapsed)
	}
	decorrelated, independent := pl.kind == JitterDecorrelated, pl.draws == Independent
	split := uint32(s.Outage / s.Slot)
	lat := ta.lat[:0]
	retries, outOfTime, afterInSplit, last := 0, 0, 0, uint32(0)
	x := uint32(s.Seed * 1000)
	for client := range s.Clients {
		if client&1023 == 1023 && stop != nil && stop() {
			clear(counts[:last+1])
			ta.lat = lat[:0]
			return noFigures(), ErrStopped
		}
		x++
		var at uint32
		var made, end int
		switch {
		case independent:
			var g rand.PCG
			g.Seed(uint64(s.Seed), uint64(client+1))
			if decorrelated {
				at, made, end = w.pcgDecorrelated(g)
			} else {
				at, made, end = w.pcgTable(g)
			}
		case decorrelated:
			at, made, end = w.decorrelated(x)
		default:
			at, made, end = w.table(x)
		}
		retries += made
		if made == 0 {
			outOfTime++ // the first retry would pass the limit
			continue
		}
		i := w.slot.div(at)
		last = max(last, i)
		switch end {
		case endThrough:
			lat = append(lat, at)
			if i == split {
				afterInSplit++
			}
		case endOutOfTime:
			outOfTime++
		}
	}
	f := noFigures()
	through := len(lat)
	f.Clients, f.ClientsTouched, f.Retries = s.Clients, s.Clients, retries // no fresh load: the crowd alone
	f.Attempts = s.Clients + retries
	f.Served, f.Through = through, through
	f.FailedWhileDown = f.Attempts - f.Served
	f.GaveUp, f.OutOfTime = s.Clients-through-outOfTime, outOfTime
	f.StableFrom = s.Outage
	if retries > 0 {
		counted := counts[:last+1]
		// The busiest slot, the first of equals, and the busiest after the
		// split slot, whose retries all came after the outage's end. The
		// split slot holds afterInSplit of those, and where there is no
		// outage the crowd's first attempts too, and wins a tie, being
		// earlier.
		most, mostAt := busiestIn(counted[:min(int(split)+1, len(counted))])
		var peak C
		peakAt := 0
		if int(split)+1 < len(counted) {
			peak, peakAt = busiestIn(counted[split+1:])
			peakAt += int(split) + 1
		}
		if peak > most {
			most, mostAt = peak, peakAt
		}
		if most > 0 {
			f.MostInASlot, f.BusiestSlotFrom = int(most), mostAt*s.Slot
		}
		after := afterInSplit
		if s.Outage == 0 {
			after += s.Clients
		}
		f.PeakAfterBack, f.PeakAfterBackFrom = after, int(split)*s.Slot
		if int(peak) > after {
			f.PeakAfterBack, f.PeakAfterBackFrom = int(peak), peakAt*s.Slot
		}
		if f.PeakAfterBack == 0 {
			f.PeakAfterBack, f.PeakAfterBackFrom = 0, -1
		}
		if through > 0 {
			latenciesFrom(&f, lat, counted[split:], afterInSplit, w.slot, split, &ta.spare)
			f.AllThroughBy = f.LatencyMax
		}
		clear(counted)
	} else if s.Outage == 0 {
		f.PeakAfterBack, f.PeakAfterBackFrom = s.Clients, 0
	}
	f.CrowdAllThroughBy = f.AllThroughBy // every client is the crowd's
	f.derive(s.Outage)
	ta.lat = lat[:0]
	return f, nil
}

// busiestIn returns the largest count in counts and the first place it is
// at (0, 0 for none): four counts at a time, their largest against the
// largest yet, which after the first few is seldom passed.
func busiestIn[C uint16 | uint32](counts []C) (most C, at int) {
	i := 0
	for ; i+4 <= len(counts); i += 4 {
		q := counts[i : i+4 : i+4]
		if m := max(q[0], q[1], q[2], q[3]); m > most {
			for j, c := range q {
				if c == m {
					most, at = m, i+j
					break
				}
			}
		}
	}
	for ; i < len(counts); i++ {
		if counts[i] > most {
			most, at = counts[i], i
		}
	}
	return most, at
}

// latenciesFrom sets f's latency figures from the clients' latencies, lat
// (not empty), and their histogram: inSplit of them in the split slot, and
// after[j] in slot split+j for j >= 1. The slots of the percentiles' ranks
// are found by summing it, and only the latencies in those are sorted.
func latenciesFrom[C uint16 | uint32](f *Figures, lat []uint32, after []C, inSplit int, slot slotDivisor, split uint32, scratch *[]uint32) {
	n := len(lat)
	i50, i99 := rankOf(50, n), rankOf(99, n)
	// Rank r is in slot split+j for the first j whose sum passes r; below
	// is the sum of the slots before it.
	j, sum := 0, inSplit
	for sum <= i50 {
		j++
		sum += int(after[j])
	}
	j50, below50 := j, sum-int(after[j])
	for sum <= i99 {
		j++
		sum += int(after[j])
	}
	j99, below99 := j, sum-int(after[j])
	if j50 == 0 {
		below50 = 0
	}
	if j99 == 0 {
		below99 = 0
	}
	s50, s99 := split+uint32(j50), split+uint32(j99)
	picks := (*scratch)[:0]
	most := uint32(0)
	for _, at := range lat {
		most = max(most, at)
		if i := slot.div(at); i == s50 || i == s99 {
			picks = append(picks, at)
		}
	}
	// Sorted, the picks are slot s50's, then s99's where it is another.
	slices.Sort(picks)
	f.LatencyP50 = int(picks[i50-below50])
	if s99 == s50 {
		f.LatencyP99 = int(picks[i99-below99])
	} else {
		f.LatencyP99 = int(picks[len(picks)-(sum-i99)])
	}
	f.LatencyMax = int(most)
	*scratch = picks[:0]
}
