package backoff

import "sync"

// The crowd without a service (no capacity, no fresh load, no budget) needs
// no clock: every attempt at or after the outage's end is served, so a
// client's fate is its own, and the clients can be run one after another in
// any order. This is the reference's crowd, and the fast path every figure
// of it takes; the engine (engine.go) gives the same figures, slower, and a
// property test holds the two together.

// tally is the fast path's scratch, kept between runs: retries per slot
// over the horizon (zero between runs), the slots a run touched, and the
// latencies of the clients that got through.
type tally struct {
	counts  []uint32
	touched []uint32
	lat     []uint32
}

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
	f := noFigures()
	n := fastSlots(pl, s)
	if cap(ta.counts) < n {
		ta.counts = make([]uint32, n)
	}
	counts := ta.counts[:n]
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
	retries, through, outOfTime := 0, 0, 0
	for client := 1; client <= clients; client++ {
		src := newSource(pl.draws, s.Seed, client)
		at, prev := 0, pl.first
		for k := 1; k <= pl.retries; k++ {
			w := pl.wait(k, &src, prev)
			prev = w
			if pl.maxElapsed > 0 && at+w > pl.maxElapsed {
				outOfTime++
				break
			}
			at += w
			retries++
			i := slot.div(uint32(at)) // at <= the horizon < 2^32
			if counts[i] == 0 {
				touched = append(touched, i)
			}
			counts[i]++
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
		for _, i := range touched {
			counts[i] *= uint32(times)
		}
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
	most, peak := uint32(0), uint32(afterInSplit)
	if afterInSplit > 0 {
		peakSlot = split
	}
	for _, i := range touched {
		c := counts[i]
		if c > most || (c == most && i < mostSlot) {
			most, mostSlot = c, i
		}
		if i > split && (c > peak || (c == peak && i < peakSlot)) {
			peak, peakSlot = c, i
		}
		counts[i] = 0
	}
	if most > 0 {
		f.MostInASlot, f.BusiestSlotFrom = int(most), int(mostSlot)*s.Slot
	}
	if peak > 0 {
		f.PeakAfterBack, f.PeakAfterBackFrom = int(peak), int(peakSlot)*s.Slot
	}
	f.latencies(lat) // with one client standing for all, its one latency is every percentile
	f.AllThroughBy = f.LatencyMax
	ta.touched, ta.lat = touched[:0], lat[:0]
	return f
}
