package backoff

import (
	"slices"
	"sync"
)

// Crowd is what Clients clients, all failing at 0 ms, do under one policy
// until the service is back at Outage ms.
type Crowd struct {
	Policy Policy
	Slot   int   // ms per slot of Counts
	Counts []int // retries per slot: Counts[i] holds those at [i*Slot, (i+1)*Slot) ms; the last is never 0
	// Retries counts every retry (first attempts are not retries).
	Retries int
	// Through counts the clients whose retry landed at or after the outage's end.
	Through int
	// LastThrough is when the last of them got through, in ms; -1 if none did.
	LastThrough int
	// GaveUp counts the clients that used every attempt while the service was down.
	GaveUp int
}

// RunCrowd runs the crowd under policy p. A client stops at the first retry
// that gets through. Invalid settings (see
// Settings.Validate) give a crowd with no retries.
func RunCrowd(p Policy, s Settings) Crowd {
	if s.Validate() != nil {
		return Crowd{Policy: p, Slot: s.Slot, LastThrough: -1}
	}
	pl := newPlan(s)
	t := newTally(pl, s.Slot)
	defer t.release()
	return t.crowd(p, s)
}

// RunCrowds runs the crowd under each of the five policies, in order.
func RunCrowds(s Settings) [NumPolicies]Crowd {
	var out [NumPolicies]Crowd
	if s.Validate() != nil {
		for p := range out {
			out[p] = Crowd{Policy: Policy(p), Slot: s.Slot, LastThrough: -1}
		}
		return out
	}
	pl := newPlan(s)
	t := newTally(pl, s.Slot)
	defer t.release()
	for p := range out {
		out[p] = t.crowd(Policy(p), s)
	}
	return out
}

// slots is how many slots of the given width any policy's retries can
// reach: a client that gets through does so at most one wait after the
// outage's end, and one that does not retries before it, so no retry comes
// after min(outage + the longest wait, the sum of the longest waits). The
// longest wait before retry k is the first, the exponential one, or the
// decorrelated one's ceiling, min(longest, first * 3^k).
func (pl *plan) slots(width int) int {
	longest, sum := 0, 0
	decorrelated := pl.first
	for k := 1; k <= pl.retries(); k++ {
		decorrelated = min(3*decorrelated, pl.longest)
		w := max(pl.first, pl.expo[k], decorrelated)
		longest = max(longest, w)
		sum += w
	}
	return min(pl.outage+longest, sum)/width + 1
}

// tally counts retries per slot into a scratch array shared by the runs of
// one call and kept for the next call, so that the crowd's only allocation is
// the counts it returns, exactly as long as they are.
type tally struct {
	pl      *plan
	slot    divisor
	scratch []int // zero between runs
}

// scratchPool keeps scratch arrays between calls: fresh ones cost about a
// third more time (BenchmarkCrowd), mostly in faulting in new pages. It holds
// only zeroed memory, so no figure can depend on what it held before.
var scratchPool = sync.Pool{New: func() any { return new([]int) }}

func newTally(pl *plan, width int) *tally {
	n := pl.slots(width)
	buf := scratchPool.Get().(*[]int)
	if cap(*buf) < n {
		*buf = make([]int, n)
	}
	return &tally{pl: pl, slot: newDivisor(uint32(width)), scratch: (*buf)[:n]}
}

func (t *tally) release() {
	buf := t.scratch[:0]
	scratchPool.Put(&buf)
}

// run counts the crowd under policy p into the scratch array and returns
// its figures, with the index of the last slot it touched.
func (t *tally) run(p Policy, s Settings) (c Crowd, lastSlot uint32) {
	c = Crowd{Policy: p, Slot: s.Slot, LastThrough: -1}
	pl, counts, retries := t.pl, t.scratch, t.pl.retries()
	var buf [13]int // Attempts is at most 12
	waits := buf[:retries+1]
	lastAt := 0
	for client := 1; client <= s.Clients; client++ {
		pl.draw(p, s.Seed, client, waits)
		at, k := 0, 1
		for ; k <= retries; k++ {
			at += waits[k]
			counts[t.slot.div(uint32(at))]++ // at < 2^32: see plan.slots
			if at >= s.Outage {
				break
			}
		}
		if k <= retries {
			c.Retries += k
			c.Through++
			c.LastThrough = max(c.LastThrough, at)
		} else {
			c.Retries += retries
			c.GaveUp++
		}
		lastAt = max(lastAt, at) // a client's last retry is its latest
	}
	return c, t.slot.div(uint32(lastAt))
}

// figures runs policy p and returns the crowd's figures without its counts,
// leaving the scratch zero: all the crowd over many seeds needs.
func (t *tally) figures(p Policy, s Settings) crowdFigures {
	c, last := t.run(p, s)
	used := t.scratch[:last+1]
	most, _ := BusiestSlot(used)
	clear(used)
	return crowdFigures{retries: c.Retries, busiest: most, lastThrough: c.LastThrough, gaveUp: c.GaveUp}
}

// crowd runs policy p and copies its counts out, leaving the scratch zero.
func (t *tally) crowd(p Policy, s Settings) Crowd {
	c, last := t.run(p, s)
	used := t.scratch[:last+1]
	c.Counts = slices.Clone(used)
	clear(used)
	return c
}

// Busiest returns the most retries in one slot and the index of the first
// slot that holds that many; (0, -1) for no retries.
func (c Crowd) Busiest() (most, slot int) {
	return BusiestSlot(c.Counts)
}

// BusiestSlot returns the largest count and the index of its first
// occurrence; (0, -1) when every count is 0 or there are none.
func BusiestSlot(counts []int) (most, slot int) {
	slot = -1
	for i, n := range counts {
		if n > most {
			most, slot = n, i
		}
	}
	return most, slot
}

// Bin is one non-empty slot of a crowd.
type Bin struct {
	From    int // ms at which the slot starts
	Retries int
}

// Bins returns the crowd's non-empty slots in time order: the data of a
// histogram of retries over time.
func (c Crowd) Bins() []Bin {
	var out []Bin
	for i, n := range c.Counts {
		if n > 0 {
			out = append(out, Bin{From: i * c.Slot, Retries: n})
		}
	}
	return out
}

// Second is the slot width, in ms, of the reference's retries over time.
const Second = 1000

// Timeline runs the crowd under policy p counting retries per slot of the
// given width instead of s.Slot; the reference's retries over time use
// Second.
func Timeline(p Policy, s Settings, slot int) Crowd {
	s.Slot = slot
	return RunCrowd(p, s)
}
