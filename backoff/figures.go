package backoff

import (
	"cmp"
	"slices"
)

// Figures are what one policy's crowd, with the fresh load, does to the
// service. A time that does not exist is -1: the faces write it as "-", an
// empty CSV field or a JSON null. The JSON names are MODEL.md's.
type Figures struct {
	Clients  int // the crowd plus the fresh requests (clients)
	Attempts int // every attempt (attempts)
	Retries  int // attempts after a client's first (retries)

	// Attempts by outcome; they add up to Attempts.
	Served          int // served
	Rejected        int // rejected: the service was back but its slot was full
	FailedWhileDown int // failed_while_down, the crowd's first attempts included

	// Clients by how they ended; they add up to Clients.
	Through   int // through: an attempt was served
	GaveUp    int // gave_up: every attempt failed
	Throttled int // throttled: the budget refused a retry
	OutOfTime int // out_of_time: the next retry would have passed the limit on total time

	MostInASlot     int // most_in_a_slot: the most retries in one slot
	BusiestSlotFrom int // busiest_slot_from_ms: the first such slot's start; -1 without retries

	PeakAfterBack     int // peak_after_back: the most attempts that reach the service at or after the outage's end in one slot (no short-circuited one)
	PeakAfterBackFrom int // peak_after_back_from_ms: the first such slot's start; -1 if none

	SlotCapacity    int  // slot_capacity: ceil(capacity*slot/1000); -1 without a capacity
	AllThroughBy    int  // all_through_by_ms: the latest served attempt; -1 if none
	StableFrom      int  // stable_from_ms: the outage if nothing was rejected, else the end of the last rejection's slot
	StillOverloaded bool // still_overloaded: the load's last second, [U-1000, U), saw a rejection

	// Served time minus start over the clients that got through, nearest
	// rank; -1 if none got through.
	LatencyP50 int // latency_p50_ms
	LatencyP99 int // latency_p99_ms
	LatencyMax int // latency_max_ms

	NotThrough        int // not_through: clients that never got through, GaveUp + Throttled + OutOfTime
	CrowdAllThroughBy int // crowd_all_through_by_ms: the latest served attempt of a crowd client (1..N); -1 if none
	RecoveredAfter    int // recovered_after_ms: StableFrom - outage; -1 while StillOverloaded
	// clients_touched: the clients that start no later than the run's last
	// failure, the crowd always. Every client not through is among them,
	// and a later one meets nothing but success: a share of clients not
	// through is a share of these, which a longer load cannot dilute.
	ClientsTouched int

	// A service that queues (MODEL.md section 6); all 0 without a queue.
	// There Served counts the requests completed in time, and Served +
	// Rejected + FailedWhileDown + TimedOut = Attempts.
	TimedOut  int // timed_out: attempts whose client stopped waiting after the timeout
	Wasted    int // wasted: expired requests the service worked on for nothing
	Dropped   int // dropped: expired requests it discarded; Wasted + Dropped = TimedOut
	QueuePeak int // queue_peak: the most requests waiting just after a millisecond's arrivals

	// The client's breakers (MODEL.md section 7); both 0 without one. Then
	// Served + Rejected + FailedWhileDown + TimedOut + ShortCircuited =
	// Attempts.
	ShortCircuited int // short_circuited: attempts an open breaker failed at once, without reaching the service
	BreakerOpened  int // breaker_opened: how many times any breaker opened, reopening after a failed probe included
}

// none is the figures of a crowd that has not run: every time absent.
func noFigures() Figures {
	return Figures{BusiestSlotFrom: -1, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1,
		LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, CrowdAllThroughBy: -1, RecoveredAfter: -1}
}

// derive sets the figures that follow from the others: NotThrough, the
// clients by the endings other than through, and RecoveredAfter, StableFrom
// less the outage unless the service is still overloaded at the load's end.
func (f *Figures) derive(outage int) {
	f.NotThrough = f.GaveUp + f.Throttled + f.OutOfTime
	f.RecoveredAfter = -1
	if !f.StillOverloaded {
		f.RecoveredAfter = f.StableFrom - outage
	}
}

// slotCapacity is cap(i) for slot i of width w ms under a capacity of c a
// second: floor(c*(i+1)*w/1000) - floor(c*i*w/1000), so that the slots of any
// second together serve exactly c.
func slotCapacity(c, w, i int64) int64 {
	return c*(i+1)*w/1000 - c*i*w/1000
}

// SlotCapacity is how many attempts slot i of width w ms serves under the
// settings' capacity; -1 without a capacity.
func (s Settings) SlotCapacity(i, w int) int {
	if s.Capacity <= 0 {
		return -1
	}
	return int(slotCapacity(int64(s.Capacity), int64(w), int64(i)))
}

// NearestRank returns the nearest-rank p-th percentile (1 <= p <= 100) of
// values sorted in ascending order: the value at rank ceil(p*n/100), counting
// from 1. It returns 0 for no values.
func NearestRank(sorted []int, p int) int {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	return sorted[rankOf(p, n)]
}

// rankOf is the 0-based index of the nearest-rank p-th percentile of n > 0
// values.
func rankOf(p, n int) int {
	rank := (p*n + 99) / 100 // ceil(p*n/100) for p*n >= 0
	return min(max(rank, 1), n) - 1
}

// latencies sets the latency figures from the values, which it reorders.
func (f *Figures) latencies(v []uint32) {
	if len(v) == 0 {
		f.LatencyP50, f.LatencyP99, f.LatencyMax = -1, -1, -1
		return
	}
	n := len(v)
	i99, i50 := rankOf(99, n), rankOf(50, n)
	f.LatencyP99 = int(selectNth(v, i99))
	// selectNth leaves every value below index i99 no greater than it.
	f.LatencyP50 = int(selectNth(v[:i99+1], i50))
	most := v[0]
	for _, x := range v[i99:] {
		most = max(most, x)
	}
	f.LatencyMax = int(most)
}

// latencyTally keeps the latencies of the clients a run serves, for their
// nearest-rank percentiles: where the run's latencies can take fewer
// values than it has clients, a count for each millisecond (the value of a
// rank is the first millisecond whose counts, summed from 0, pass it: the
// percentiles are exactly the values'), else each value. So a run of ten
// million clients over a few minutes holds a few hundred thousand counts,
// and a cohort served together is one addition.
type latencyTally struct {
	byCount bool
	counts  []uint32 // byCount: counts[ms] clients served ms after they started
	values  []uint32 // else each latency
	n       int      // the clients served
	most    uint32   // the longest latency
	horizon int64    // byCount: the longest latency the run can have
}

// minLatencyCounts is the fewest counts a latencyTally holds once it has
// any, where its horizon is as far: 16 KiB.
const minLatencyCounts = 4096

// newLatencyTally keeps the latencies of up to clients served no more than
// horizon ms after they started, in the memory of the last run's tally,
// counts (all zero) and values, where large enough.
func newLatencyTally(clients int, horizon int64, counts, values []uint32) latencyTally {
	if horizon < int64(clients) {
		// The counts grow as the latencies come (add), seldom as far as
		// the horizon.
		return latencyTally{byCount: true, counts: counts[:cap(counts)], values: values, horizon: horizon}
	}
	if cap(values) < clients {
		values = make([]uint32, 0, clients)
	}
	return latencyTally{counts: counts, values: values[:0]}
}

// add is n clients served ms after they started.
func (l *latencyTally) add(ms uint32, n int64) {
	l.n += int(n)
	l.most = max(l.most, ms)
	if !l.byCount {
		for range n {
			l.values = append(l.values, ms)
		}
		return
	}
	if int(ms) >= len(l.counts) { // twice as long, or to the horizon (or past it: never, but lose nothing)
		grown := make([]uint32, max(min(max(2*int64(len(l.counts)), minLatencyCounts), l.horizon+1), int64(ms)+1))
		copy(grown, l.counts)
		l.counts = grown
	}
	l.counts[ms] += uint32(n)
}

// set sets f's latency figures.
func (l *latencyTally) set(f *Figures) {
	if !l.byCount {
		f.latencies(l.values)
		return
	}
	if l.n == 0 {
		f.LatencyP50, f.LatencyP99, f.LatencyMax = -1, -1, -1
		return
	}
	i50, i99 := rankOf(50, l.n), rankOf(99, l.n)
	sum, ms := 0, 0
	for ; sum+int(l.counts[ms]) <= i50; ms++ {
		sum += int(l.counts[ms])
	}
	f.LatencyP50 = ms
	for ; sum+int(l.counts[ms]) <= i99; ms++ {
		sum += int(l.counts[ms])
	}
	f.LatencyP99, f.LatencyMax = ms, int(l.most)
}

// scratch returns the tally's memory for the next run: its counts, all
// zero again, and its values.
func (l *latencyTally) scratch() (counts, values []uint32) {
	if l.byCount {
		clear(l.counts[:min(int(l.most)+1, len(l.counts))])
	}
	return l.counts[:0], l.values[:0]
}

// selectNth reorders v so that v[i] is the value a sort would put there,
// with nothing greater before it and nothing smaller after it, and returns
// it.
func selectNth(v []uint32, i int) uint32 {
	selectOrdered(v, i)
	return v[i]
}

// selectOrdered reorders v so that v[i] is the value a sort would put
// there, none greater before it and none smaller after it (Hoare's
// selection with a median-of-three pivot, sorting outright when the parts
// shrink too slowly). It compares the values themselves, which the
// compiler does in place for each type, where a key function would be a
// call a comparison.
func selectOrdered[T cmp.Ordered](v []T, i int) {
	lo, hi := 0, len(v)-1
	for rounds := 0; hi-lo > 16; rounds++ {
		if rounds > 64 {
			slices.Sort(v[lo : hi+1])
			return
		}
		a, b, c := v[lo], v[lo+(hi-lo)/2], v[hi]
		pivot := max(min(a, b), min(max(a, b), c))
		l, r := lo, hi
		for l <= r {
			for v[l] < pivot {
				l++
			}
			for v[r] > pivot {
				r--
			}
			if l <= r {
				v[l], v[r] = v[r], v[l]
				l++
				r--
			}
		}
		switch {
		case i <= r:
			hi = r
		case i >= l:
			lo = l
		default:
			return
		}
	}
	slices.Sort(v[lo : hi+1])
}
