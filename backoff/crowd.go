package backoff

import "slices"

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
// that gets through; the draws it would have made after that belong to no
// one else, so skipping them changes no figure.
func RunCrowd(p Policy, s Settings) Crowd {
	return runCrowd(p, s, expoTable(s), nil)
}

// RunCrowds runs the crowd under each of the five policies, in order.
func RunCrowds(s Settings) [NumPolicies]Crowd {
	var out [NumPolicies]Crowd
	expo := expoTable(s)
	for p := range out {
		out[p] = runCrowd(Policy(p), s, expo, nil)
	}
	return out
}

// runCrowd runs the crowd, counting into counts[:0]: a caller that runs many
// crowds passes the last one's Counts back in, so the slots' memory is reused
// instead of grown again. Every slot is written before it is read, so what
// counts held before changes nothing.
func runCrowd(p Policy, s Settings, expo []int, counts []int) Crowd {
	c := Crowd{Policy: p, Slot: s.Slot, Counts: counts[:0], LastThrough: -1}
	for client := 1; client <= s.Clients; client++ {
		w := newWaiter(p, s, expo, client)
		at := 0
		through := false
		for k := 1; k < len(expo); k++ {
			at += w.next(k)
			c.Retries++
			slot := at / s.Slot
			if slot >= len(c.Counts) {
				c.Counts = zeroedTo(c.Counts, slot+1)
			}
			c.Counts[slot]++
			if at >= s.Outage {
				through = true
				c.Through++
				c.LastThrough = max(c.LastThrough, at)
				break
			}
		}
		if !through {
			c.GaveUp++
		}
	}
	return c
}

// zeroedTo lengthens counts to n, the new slots 0. Clearing them at once
// instead of appending one 0 at a time matters with narrow slots: at 1 ms a
// crowd spans a million of them.
func zeroedTo(counts []int, n int) []int {
	old := len(counts)
	counts = slices.Grow(counts, n-old)[:n]
	clear(counts[old:])
	return counts
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

// Timeline runs the crowd under policy p counting retries per slot of the
// given width instead of s.Slot; the reference's retries over time use 1000 ms.
func Timeline(p Policy, s Settings, slot int) Crowd {
	s.Slot = slot
	return RunCrowd(p, s)
}
