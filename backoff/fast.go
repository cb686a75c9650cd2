package backoff

import (
	"math/bits"
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
// that got through. Where the horizon holds more
// than maxCountSlots slots (1 ms slots over a long outage), counting in an
// array that long would cost its length in memory and cache misses; the
// run lists the slot of every retry instead and sorts them, in memory of
// the retries' number, whatever the slots.
type tally struct {
	counts  []uint16
	touched []uint32 // sorting: every retry's slot
	spare   []uint32 // the radix sort's other half
	lat     []uint32
}

// maxCountSlots is the most slots the fast path counts in an array: 128
// KiB of counts, which stay in a core's cache. A slot's count is 16 bits, so
// the array is used only where the retries in all are fewer than 2^16.
const maxCountSlots = 1 << 16

// tallyPool keeps tallies between calls: fresh counts cost page faults.
// Only zeroed counts go back, so no figure can depend on what it held.
var tallyPool = sync.Pool{New: func() any { return new(tally) }}

// fastSlots is how many slots the fast path counts in for these settings.
func fastSlots(pl *plan, s Settings) int {
	return pl.horizon(s.Outage)/s.Slot + 1
}

// crowd runs the crowd of policy pl under s, which must have no service,
// and returns its figures, leaving the counts zero.
func (ta *tally) crowd(pl *plan, s Settings) Figures {
	return ta.crowdSeries(pl, s, nil)
}

// crowdSeries is crowd, adding every attempt to series as well, when it is
// not nil: the same series the engine keeps, which fastSeries makes.
func (ta *tally) crowdSeries(pl *plan, s Settings, series *Series) Figures {
	f := noFigures()
	n := fastSlots(pl, s)
	sorting := n > maxCountSlots || s.Clients*pl.retries >= 1<<16
	if !sorting && cap(ta.counts) < n {
		ta.counts = make([]uint16, n)
	}
	counts := ta.counts[:min(n, cap(ta.counts))]
	slot := newDivisor(uint32(s.Slot))
	split := uint32(s.Outage / s.Slot) // the slot the service comes back in
	outage := s.Outage
	afterInSplit := 0 // attempts at or after the outage's end in the split slot
	touched, lat := ta.touched[:0], ta.lat[:0]

	// Without jitter every client waits alike: one client stands for all.
	clients := s.Clients
	if pl.same {
		clients = 1
	}
	// A band known in advance, drawn by Reference draws, is a remainder by
	// a divisor worked out once: the five's and most presets' case, drawn
	// here without a call.
	table := pl.kind != JitterNone && pl.kind != JitterDecorrelated
	refTable := table && pl.draws == Reference
	pcgTable := table && pl.draws == Independent
	refDecorrelated := pl.draws == Reference && pl.kind == JitterDecorrelated
	lo, div, width := pl.lo[:pl.retries+1], pl.div[:pl.retries+1], pl.width[:pl.retries+1]
	last, counted := uint32(0), false // the last counted slot: the counts from 0 to it are cleared after
	// The busiest counted slot, and the busiest after the split slot.
	countMost, countMostSlot, countPeak, countPeakSlot := uint16(0), uint32(0), uint16(0), uint32(0)
	retries, through, outOfTime := 0, 0, 0
	for client := 1; client <= clients; client++ {
		src := newSource(pl.draws, s.Seed, client)
		at, prev := 0, pl.first
		for k := 1; k <= pl.retries; k++ {
			var w int
			switch {
			case refTable:
				w = lo[k] + int(div[k].mod(src.nextRef())) // a band past ReferenceReach: mod is the identity
			case pcgTable: // src.lemire, written out so the draw needs no call
				hi, l := bits.Mul64(src.pcg.Uint64(), width[k])
				if l < width[k] {
					hi = src.lemireAgain(width[k], hi, l)
				}
				w = lo[k] + int(hi)
			case refDecorrelated: // min(longest, u(first, 3*prev)), its width new each time
				r, width := src.nextRef(), uint32(3*prev-pl.first+1)
				if r >= width {
					r %= width
				}
				w = min(pl.first+int(r), pl.longest)
			default:
				w = pl.wait(k, &src, prev)
			}
			prev = w
			if pl.maxElapsed > 0 && at+w > pl.maxElapsed {
				outOfTime++
				break
			}
			at += w
			retries++
			i := slot.div(uint32(at)) // at <= the horizon < 2^32
			if series != nil {
				series.Retries[i]++
				if at >= outage {
					series.Served[i]++
				} else {
					series.FailedWhileDown[i]++
				}
			}
			if sorting {
				touched = append(touched, i)
			} else {
				// Counts only grow, so the first slot to reach the most is
				// the busiest's first: followed as they are counted.
				c := counts[i] + 1
				counts[i] = c
				last = max(last, i)
				if c >= countMost && (c > countMost || i < countMostSlot) {
					countMost, countMostSlot = c, i
				}
				if i > split && c >= countPeak && (c > countPeak || i < countPeakSlot) {
					countPeak, countPeakSlot = c, i
				}
			}
			if at >= outage {
				through++
				lat = append(lat, uint32(at))
				if i == split {
					afterInSplit++
				}
				break
			}
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
	f.Clients = s.Clients
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
	mostSlot, peakSlot := uint32(0), uint32(0)
	most, peak := 0, afterInSplit
	if afterInSplit > 0 {
		peakSlot = split
	}
	slotHolds := func(i uint32, c int) {
		c *= times
		if c > most || (c == most && i < mostSlot) {
			most, mostSlot = c, i
		}
		if i > split && (c > peak || (c == peak && i < peakSlot)) {
			peak, peakSlot = c, i
		}
	}
	if sorting {
		touched, ta.spare = radixSort(touched, ta.spare)
		for from := 0; from < len(touched); {
			to := from + 1
			for to < len(touched) && touched[to] == touched[from] {
				to++
			}
			slotHolds(touched[from], to-from)
			from = to
		}
	} else if counted = retries > 0; counted {
		if countMost > 0 {
			slotHolds(countMostSlot, int(countMost))
		}
		if countPeak > 0 {
			slotHolds(countPeakSlot, int(countPeak))
		}
		clear(counts[:last+1])
	}
	if most > 0 {
		f.MostInASlot, f.BusiestSlotFrom = most, int(mostSlot)*s.Slot
	}
	if peak > 0 {
		f.PeakAfterBack, f.PeakAfterBackFrom = peak, int(peakSlot)*s.Slot
	}
	f.latencies(lat) // with one client standing for all, its one latency is every percentile
	f.AllThroughBy = f.LatencyMax
	ta.touched, ta.lat = touched[:0], lat[:0]
	return f
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
