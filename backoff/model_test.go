package backoff

import (
	"container/heap"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// This file is MODEL.md written as plainly as it reads, for the tests to
// hold the optimised code against: every client in an array, every pending
// attempt in a heap ordered by (time, client), every draw made as the page
// says, every slot in a map. Nothing here is shared with the code under
// test but the types of its answers.

// modelGen is one client's generator, as MODEL.md section 1 writes it.
type modelGen struct {
	draws Draws
	x     uint64 // reference: the state, mod 2^32
	pcg   *rand.PCG
}

func newModelGen(d Draws, seed, client int) *modelGen {
	if d == Independent {
		return &modelGen{draws: d, pcg: rand.NewPCG(uint64(seed), uint64(client))}
	}
	return &modelGen{draws: d, x: uint64(seed*1000+client) % (1 << 32)}
}

// u is one uniform whole number from lo to hi inclusive.
func (g *modelGen) u(lo, hi int) int {
	n := uint64(hi - lo + 1)
	if g.draws == Reference {
		g.x = (1664525*g.x + 1013904223) % (1 << 32)
		return lo + int((g.x>>16)%n)
	}
	for {
		v := g.pcg.Uint64()
		h, l := bits.Mul64(v, n)
		if l >= (-n)%n { // (2^64 - n) mod n
			return lo + int(h)
		}
	}
}

// modelBase is d(k) by MODEL.md section 2's recurrence, exponential or
// linear.
func modelBase(p Policy, k int) int {
	us := int64(p.FirstWait) * 1000
	for i := 1; i < k; i++ {
		if p.Growth == GrowthLinear {
			us = min(int64(p.LongestWait)*1000, us+int64(p.FirstWait)*1000)
			continue
		}
		us = min(int64(p.LongestWait)*1000, us*int64(p.Multiplier)/1000)
	}
	return int(us / 1000)
}

// modelWait is w(k) by section 2's table; prev is the previous wait
// (starting at b) for decorrelated jitter.
func modelWait(p Policy, g *modelGen, k, prev int) int {
	d := modelBase(p, k)
	delta := d * p.Jitter.Factor / 1000
	switch p.Jitter.Kind {
	case JitterFull:
		return g.u(0, d)
	case JitterEqual:
		h := d / 2
		return h + g.u(0, d-h)
	case JitterDecorrelated:
		return min(p.LongestWait, g.u(p.FirstWait, 3*prev))
	case JitterSpread:
		return g.u(d-delta, d+delta)
	case JitterUp:
		return g.u(d, d+delta)
	}
	return d
}

type modelEvent struct{ t, client int }

type modelQueue []modelEvent

func (q modelQueue) Len() int { return len(q) }
func (q modelQueue) Less(i, j int) bool {
	return q[i].t < q[j].t || q[i].t == q[j].t && q[i].client < q[j].client
}
func (q modelQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *modelQueue) Push(x any)   { *q = append(*q, x.(modelEvent)) }
func (q *modelQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

type modelSlot struct{ retries, after, served, rejected, down int }

// modelRun is one policy's figures, and its attempts per slot, by MODEL.md
// sections 3 to 5.
func modelRun(p Policy, s Settings) (Figures, map[int]*modelSlot) {
	n := s.Clients
	fresh := 0
	U := s.LoadEnd()
	if s.Load > 0 {
		for j := 0; j*1000/s.Load < U; j++ {
			fresh++
		}
	}
	type client struct {
		start, k, prev int
		gen            *modelGen
	}
	clients := make([]client, n+fresh+1)
	q := &modelQueue{}
	for c := 1; c <= n; c++ {
		clients[c] = client{start: 0, prev: p.FirstWait, gen: newModelGen(s.Draws, s.Seed, c)}
		heap.Push(q, modelEvent{0, c})
	}
	for j := range fresh {
		c := n + 1 + j
		clients[c] = client{start: j * 1000 / s.Load, prev: p.FirstWait, gen: newModelGen(s.Draws, s.Seed, c)}
		heap.Push(q, modelEvent{clients[c].start, c})
	}
	P := max(s.Processes, 1)
	tokens := make([]int, P) // gRPC: thousandths of a token; AWS: tokens
	for i := range tokens {
		switch s.Budget.Kind {
		case BudgetGRPC:
			tokens[i] = s.Budget.A * 1000
		case BudgetAWS:
			tokens[i] = s.Budget.A
		}
	}
	slots := map[int]*modelSlot{}
	slotOf := func(t int) *modelSlot {
		i := t / s.Slot
		if slots[i] == nil {
			slots[i] = &modelSlot{}
		}
		return slots[i]
	}
	capOf := func(i int) int {
		C, S := s.Capacity, s.Slot
		return C*(i+1)*S/1000 - C*i*S/1000
	}
	f := Figures{Clients: n + fresh, BusiestSlotFrom: -1, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1}
	var latencies []int
	lastRejection := -1
	for q.Len() > 0 {
		ev := heap.Pop(q).(modelEvent)
		t, c := ev.t, ev.client
		cl := &clients[c]
		cl.k++
		sl := slotOf(t)
		f.Attempts++
		if cl.k >= 2 {
			f.Retries++
			sl.retries++
		}
		if t >= s.Outage {
			sl.after++
		}
		proc := (c - 1) % P
		served := false
		switch {
		case t < s.Outage || (cl.k == 1 && c <= n):
			f.FailedWhileDown++
			sl.down++
		case s.Capacity == 0 || sl.served < capOf(t/s.Slot):
			served = true
			f.Served++
			sl.served++
		default:
			f.Rejected++
			sl.rejected++
			lastRejection = t
			if s.Load > 0 && t >= U-1000 && t < U {
				f.StillOverloaded = true
			}
		}
		if served {
			f.Through++
			latencies = append(latencies, t-cl.start)
			f.AllThroughBy = max(f.AllThroughBy, t)
			switch s.Budget.Kind {
			case BudgetGRPC:
				tokens[proc] = min(tokens[proc]+s.Budget.B, s.Budget.A*1000)
			case BudgetAWS:
				back := 1
				if cl.k >= 2 {
					back = s.Budget.B
				}
				tokens[proc] = min(tokens[proc]+back, s.Budget.A)
			}
			continue
		}
		if s.Budget.Kind == BudgetGRPC {
			tokens[proc] = max(tokens[proc]-1000, 0)
		}
		if cl.k == p.Attempts {
			f.GaveUp++
			continue
		}
		switch s.Budget.Kind {
		case BudgetGRPC:
			if 2*tokens[proc] <= s.Budget.A*1000 { // tokens <= MAX/2
				f.Throttled++
				continue
			}
		case BudgetAWS:
			if tokens[proc] < s.Budget.B {
				f.Throttled++
				continue
			}
			tokens[proc] -= s.Budget.B
		}
		w := modelWait(p, cl.gen, cl.k, cl.prev)
		cl.prev = w
		if p.MaxElapsed > 0 && t+w-cl.start > p.MaxElapsed {
			f.OutOfTime++
			continue
		}
		heap.Push(q, modelEvent{t + w, c})
	}
	var keys []int
	for i := range slots {
		keys = append(keys, i)
	}
	slices.Sort(keys)
	for _, i := range keys {
		sl := slots[i]
		if sl.retries > f.MostInASlot {
			f.MostInASlot, f.BusiestSlotFrom = sl.retries, i*s.Slot
		}
		if sl.after > f.PeakAfterBack {
			f.PeakAfterBack, f.PeakAfterBackFrom = sl.after, i*s.Slot
		}
	}
	if s.Capacity > 0 {
		f.SlotCapacity = (s.Capacity*s.Slot + 999) / 1000
	}
	f.StableFrom = s.Outage
	if lastRejection >= 0 {
		f.StableFrom = (lastRejection/s.Slot + 1) * s.Slot
	}
	f.LatencyP50, f.LatencyP99, f.LatencyMax = -1, -1, -1
	if len(latencies) > 0 {
		slices.Sort(latencies)
		f.LatencyP50 = NearestRank(latencies, 50)
		f.LatencyP99 = NearestRank(latencies, 99)
		f.LatencyMax = NearestRank(latencies, 100)
	}
	return f, slots
}
