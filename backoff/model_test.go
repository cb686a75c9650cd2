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
// says, every slot in a map; with a queue, every millisecond taken in turn
// while anything waits, the queue a plain slice searched from end to end.
// Section 7's hanging attempts are events of their own in the heap, which
// come before every arrival of their millisecond; each process's breaker
// is a struct read and written as the page's sentences say. Nothing here is
// shared with the code under test but the types of its answers.

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

// modelEvent is client's next event at t: its attempt arriving, or, with
// hangs set, the failure of its attempt that hangs coming due. Within a
// millisecond the failures come first (MODEL.md section 7), each kind in
// client order.
type modelEvent struct {
	t, client int
	hangs     bool
}

type modelQueue []modelEvent

func (q modelQueue) Len() int { return len(q) }
func (q modelQueue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.t != b.t {
		return a.t < b.t
	}
	if a.hangs != b.hangs {
		return a.hangs
	}
	return a.client < b.client
}
func (q modelQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *modelQueue) Push(x any)   { *q = append(*q, x.(modelEvent)) }
func (q *modelQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

type modelSlot struct {
	retries, after, served, rejected, down int
	timedOut, wasted, dropped              int
	queue                                  int // the queue's length at the slot's end
	short, opened                          int // short-circuited attempts; breakers that opened
}

// modelBreaker is one process's circuit breaker (MODEL.md section 7).
type modelBreaker struct {
	open     bool // open, or half-open waiting for its probe's outcome
	failures int  // consecutive failures, counted while closed
	openedAt int  // t0
	probe    int  // the client whose attempt is the probe; 0 while there is none
}

// modelClient is one client's state.
type modelClient struct {
	start, k, prev int
	gen            *modelGen
}

// model is one policy's run in progress.
type model struct {
	p        Policy
	s        Settings
	n        int // the crowd
	U        int // the load's end
	clients  []modelClient
	q        *modelQueue
	tokens   []int          // per process; gRPC: thousandths of a token; AWS: tokens
	breakers []modelBreaker // per process, with a breaker
	slots    map[int]*modelSlot
	f        Figures
	lat      []int
	lastBusy int // the last rejection (with a queue: or timeout, wasted or dropped request); -1 if none
	lastFail int // the last moment an attempt's failure became known; -1 if none
}

func newModel(p Policy, s Settings) *model {
	m := &model{p: p, s: s, n: s.Clients, U: s.LoadEnd(), q: &modelQueue{}, slots: map[int]*modelSlot{}, lastBusy: -1, lastFail: -1}
	fresh := 0
	if s.Load > 0 {
		for j := 0; j*1000/s.Load < m.U; j++ {
			fresh++
		}
	}
	m.clients = make([]modelClient, m.n+fresh+1)
	for c := 1; c <= m.n; c++ {
		m.clients[c] = modelClient{start: 0, prev: p.FirstWait, gen: newModelGen(s.Draws, s.Seed, c)}
		heap.Push(m.q, modelEvent{t: 0, client: c})
	}
	for j := range fresh {
		c := m.n + 1 + j
		m.clients[c] = modelClient{start: j * 1000 / s.Load, prev: p.FirstWait, gen: newModelGen(s.Draws, s.Seed, c)}
		heap.Push(m.q, modelEvent{t: m.clients[c].start, client: c})
	}
	// P processes, each with its own budget and breaker; a process per
	// client (PerClient) is as many as there are clients, the fresh included.
	procs := s.Processes
	if procs == PerClient {
		procs = m.n + fresh
	}
	m.breakers = make([]modelBreaker, max(procs, 1))
	m.tokens = make([]int, max(procs, 1))
	for i := range m.tokens {
		switch s.Budget.Kind {
		case BudgetGRPC:
			m.tokens[i] = s.Budget.A * 1000
		case BudgetAWS:
			m.tokens[i] = s.Budget.A
		}
	}
	m.f = Figures{Clients: m.n + fresh, BusiestSlotFrom: -1, PeakAfterBackFrom: -1, SlotCapacity: -1, AllThroughBy: -1,
		CrowdAllThroughBy: -1}
	return m
}

func (m *model) slotOf(t int) *modelSlot {
	i := t / m.s.Slot
	if m.slots[i] == nil {
		m.slots[i] = &modelSlot{}
	}
	return m.slots[i]
}

// arrive counts client c's next attempt, at t, and reports whether the
// service takes it. It does not where the process's breaker short-circuits
// it, and for the crowd's trigger and before the outage's end, where it has
// failed while down, at once or, where the outage hangs, H later; then it
// goes on here.
func (m *model) arrive(c, t int) bool {
	cl := &m.clients[c]
	cl.k++
	sl := m.slotOf(t)
	m.f.Attempts++
	if cl.k >= 2 {
		m.f.Retries++
		sl.retries++
	}
	if m.shortCircuits(c, t) {
		m.f.ShortCircuited++
		sl.short++
		m.fail(c, t, "short-circuited")
		return false
	}
	if t >= m.s.Outage {
		sl.after++ // it reaches the service
	}
	if t < m.s.Outage || (cl.k == 1 && c <= m.n) {
		m.f.FailedWhileDown++
		sl.down++
		if m.s.OutageHang > 0 {
			heap.Push(m.q, modelEvent{t: t + m.s.OutageHang, client: c, hangs: true})
			return false
		}
		m.failed(c, t, "down")
		return false
	}
	return true
}

// shortCircuits reports whether client c's breaker fails its attempt at t
// without it reaching the service: "While open (t < t0 + D) an attempt of
// the process fails at once"; "The first attempt at t >= t0 + D is a probe
// ... until its outcome is known every other attempt of the process is
// short-circuited".
func (m *model) shortCircuits(c, t int) bool {
	if m.s.Breaker.Failures == 0 {
		return false
	}
	b := &m.breakers[(c-1)%len(m.breakers)]
	switch {
	case !b.open:
		return false
	case t < b.openedAt+m.s.Breaker.Open:
		return true
	case b.probe != 0:
		return true
	}
	b.probe = c
	return false
}

// hears is the outcome of client c's attempt, not short-circuited, known
// at t, for its breaker: "While closed ... a failure adds 1 to the
// process's consecutive failures, a served attempt sets them to 0; at F
// the breaker opens at that moment t0"; open, "no outcome but the probe's
// changes the breaker": "served, the breaker closes (failures 0); failed,
// it opens again at that moment for D".
func (m *model) hears(c, t int, served bool) {
	if m.s.Breaker.Failures == 0 {
		return
	}
	b := &m.breakers[(c-1)%len(m.breakers)]
	opens := false
	switch {
	case b.open && b.probe == c && served:
		b.open, b.failures, b.probe = false, 0, 0
	case b.open && b.probe == c:
		b.probe, opens = 0, true
	case b.open:
	case served:
		b.failures = 0
	default:
		b.failures++
		opens = b.failures == m.s.Breaker.Failures
	}
	if opens {
		b.open, b.openedAt = true, t
		m.f.BreakerOpened++
		m.slotOf(t).opened++
	}
}

// failed is client c's attempt that failed at t, failed while down (a
// hang's at t + H) or timed out: the breaker hears it, and the client goes
// on.
func (m *model) failed(c, t int, how string) {
	m.hears(c, t, false)
	m.fail(c, t, how)
}

// busy is a rejection at t (with a queue: or a timeout, a wasted or a
// dropped request), for stable-from and still-overloaded.
func (m *model) busy(t int) {
	m.lastBusy = max(m.lastBusy, t)
	if m.s.Load > 0 && t >= m.U-1000 && t < m.U {
		m.f.StillOverloaded = true
	}
}

func (m *model) reject(t int) {
	m.f.Rejected++
	m.slotOf(t).rejected++
	m.busy(t)
}

// serve is client c's attempt served at t.
func (m *model) serve(c, t int) {
	cl := &m.clients[c]
	m.f.Served++
	m.slotOf(t).served++
	m.f.Through++
	m.lat = append(m.lat, t-cl.start)
	m.f.AllThroughBy = max(m.f.AllThroughBy, t)
	if c <= m.n {
		m.f.CrowdAllThroughBy = max(m.f.CrowdAllThroughBy, t)
	}
	m.hears(c, t, true)
	proc := (c - 1) % len(m.tokens)
	switch m.s.Budget.Kind {
	case BudgetGRPC:
		m.tokens[proc] = min(m.tokens[proc]+m.s.Budget.B, m.s.Budget.A*1000)
	case BudgetAWS:
		back := 1
		if cl.k >= 2 {
			back = m.s.Budget.B
		}
		m.tokens[proc] = min(m.tokens[proc]+back, m.s.Budget.A)
	}
}

// fail is client c's attempt failed at t (how: "down", "timed out",
// "rejected" or "short-circuited"): the budget, the attempts left, the next
// wait and the limit on total time decide what it does next. A
// short-circuit takes no gRPC token; a rejection, with pushback, sends the
// next attempt R later instead of w(k), w(k) still drawn.
func (m *model) fail(c, t int, how string) {
	m.lastFail = max(m.lastFail, t)
	cl := &m.clients[c]
	proc := (c - 1) % len(m.tokens)
	if m.s.Budget.Kind == BudgetGRPC && how != "short-circuited" {
		m.tokens[proc] = max(m.tokens[proc]-1000, 0)
	}
	if cl.k == m.p.Attempts {
		m.f.GaveUp++
		return
	}
	switch m.s.Budget.Kind {
	case BudgetGRPC:
		if 2*m.tokens[proc] <= m.s.Budget.A*1000 { // tokens <= MAX/2
			m.f.Throttled++
			return
		}
	case BudgetAWS:
		if m.tokens[proc] < m.s.Budget.B {
			m.f.Throttled++
			return
		}
		m.tokens[proc] -= m.s.Budget.B
	}
	w := modelWait(m.p, cl.gen, cl.k, cl.prev)
	cl.prev = w
	next := t + w
	if how == "rejected" && m.s.RetryAfter > 0 {
		next = t + m.s.RetryAfter
	}
	if m.p.MaxElapsed > 0 && next-cl.start > m.p.MaxElapsed {
		m.f.OutOfTime++
		return
	}
	heap.Push(m.q, modelEvent{t: next, client: c})
}

// modelRun is one policy's figures, and its attempts per slot, by MODEL.md
// sections 3 to 6.
func modelRun(p Policy, s Settings) (Figures, map[int]*modelSlot) {
	m := newModel(p, s)
	if s.Queue > 0 {
		m.runQueue()
	} else {
		m.runService()
	}
	return m.finish()
}

// runService is section 3's service: every attempt answered or rejected
// as it arrives.
func (m *model) runService() {
	s := m.s
	capOf := func(i int) int {
		C, S := s.Capacity, s.Slot
		return C*(i+1)*S/1000 - C*i*S/1000
	}
	for m.q.Len() > 0 {
		ev := heap.Pop(m.q).(modelEvent)
		t, c := ev.t, ev.client
		switch {
		case ev.hangs:
			m.failed(c, t, "down")
		case !m.arrive(c, t):
		case s.Capacity == 0 || m.slotOf(t).served < capOf(t/s.Slot):
			m.serve(c, t)
		default:
			m.reject(t)
			m.failed(c, t, "rejected")
		}
	}
}

// modelRequest is a request in the queue.
type modelRequest struct {
	client, sent int
	expired      bool
}

// runQueue is section 6's service: each millisecond in turn while a
// request waits, its timeouts, then its arrivals, then its service.
func (m *model) runQueue() {
	s := m.s
	var queue []*modelRequest // the oldest first
	for t := 0; m.q.Len() > 0 || len(queue) > 0; t++ {
		if len(queue) == 0 && (*m.q)[0].t > t {
			t = (*m.q)[0].t // nothing happens before the next arrival
		}
		// 1. Timeouts and the failures of attempts that hang, in client
		// order.
		type due struct {
			client  int
			request *modelRequest // nil for an attempt that hangs
		}
		var out []due
		if s.Timeout > 0 {
			for _, r := range queue {
				if !r.expired && r.sent == t-s.Timeout {
					out = append(out, due{r.client, r})
				}
			}
		}
		for m.q.Len() > 0 && (*m.q)[0].t == t && (*m.q)[0].hangs {
			out = append(out, due{client: heap.Pop(m.q).(modelEvent).client})
		}
		slices.SortFunc(out, func(a, b due) int { return a.client - b.client })
		for _, d := range out {
			if r := d.request; r != nil {
				r.expired = true
				m.f.TimedOut++
				m.slotOf(t).timedOut++
				m.busy(t)
			}
			m.failed(d.client, t, "timed out")
		}
		// 2. Arrivals, in client order; a retry with no wait is one more.
		for m.q.Len() > 0 && (*m.q)[0].t == t {
			c := heap.Pop(m.q).(modelEvent).client
			switch {
			case !m.arrive(c, t):
			case len(queue) < s.Queue:
				queue = append(queue, &modelRequest{client: c, sent: t})
			default:
				m.reject(t)
				m.failed(c, t, "rejected")
			}
		}
		m.f.QueuePeak = max(m.f.QueuePeak, len(queue))
		// 3. Service.
		if t >= s.Outage {
			room := s.Capacity*(t+1)/1000 - s.Capacity*t/1000
			for room > 0 && len(queue) > 0 {
				var r *modelRequest
				if s.QueueOrder == LIFO {
					r, queue = queue[len(queue)-1], queue[:len(queue)-1]
				} else {
					r, queue = queue[0], queue[1:]
				}
				switch {
				case r.expired && s.DropExpired:
					m.f.Dropped++
					m.slotOf(t).dropped++
					m.busy(t)
				case r.expired:
					room--
					m.f.Wasted++
					m.slotOf(t).wasted++
					m.busy(t)
				default:
					room--
					m.serve(r.client, t)
				}
			}
		}
		m.slotOf(t).queue = len(queue)
	}
}

func (m *model) finish() (Figures, map[int]*modelSlot) {
	s, f := m.s, &m.f
	var keys []int
	for i := range m.slots {
		keys = append(keys, i)
	}
	slices.Sort(keys)
	for _, i := range keys {
		sl := m.slots[i]
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
	if m.lastBusy >= 0 {
		f.StableFrom = (m.lastBusy/s.Slot + 1) * s.Slot
	}
	f.NotThrough = f.GaveUp + f.Throttled + f.OutOfTime
	for c := 1; c < len(m.clients); c++ { // the clients that start no later than the last failure
		if c <= m.n || m.clients[c].start <= m.lastFail {
			f.ClientsTouched++
		}
	}
	f.RecoveredAfter = f.StableFrom - s.Outage
	if f.StillOverloaded {
		f.RecoveredAfter = -1
	}
	f.LatencyP50, f.LatencyP99, f.LatencyMax = -1, -1, -1
	if len(m.lat) > 0 {
		slices.Sort(m.lat)
		f.LatencyP50 = NearestRank(m.lat, 50)
		f.LatencyP99 = NearestRank(m.lat, 99)
		f.LatencyMax = NearestRank(m.lat, 100)
	}
	return *f, m.slots
}
