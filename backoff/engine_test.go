package backoff

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"unsafe"
)

// pick draws from [low, high], the edges often.
func pick(rng *rand.Rand, low, high int) int {
	switch rng.IntN(6) {
	case 0:
		return low
	case 1:
		return high
	default:
		return low + rng.IntN(high-low+1)
	}
}

// randomPolicy draws a policy over the wide ranges, kept small enough for
// the plain model to run thousands of times.
func randomPolicy(rng *rand.Rand) Policy {
	p := Policy{Name: "random", FirstWait: pick(rng, 1, 3000)}
	p.LongestWait = pick(rng, p.FirstWait, []int{p.FirstWait, 20000, 200000, MaxWait}[rng.IntN(4)])
	p.Multiplier = pick(rng, 1000, 10000)
	p.Attempts = pick(rng, 2, []int{3, 12, 30}[rng.IntN(3)])
	kind := JitterKind(rng.IntN(6))
	p.Jitter = Jitter{Kind: kind}
	if kind == JitterSpread || kind == JitterUp {
		p.Jitter.Factor = pick(rng, 1, 1000)
	}
	if rng.IntN(3) == 0 {
		p.MaxElapsed = pick(rng, 0, 60000)
	}
	return p
}

// randomService draws settings with a service, small enough for the model.
func randomService(rng *rand.Rand) Settings {
	s := Defaults()
	s.Clients = pick(rng, 1, 150)
	s.Outage = pick(rng, 0, 30000)
	s.Seed = pick(rng, 0, 999999)
	s.Slot = []int{1, 7, 100, 250, 1000, 60000}[rng.IntN(6)]
	s.Draws = Draws(rng.IntN(2))
	if rng.IntN(3) > 0 {
		s.Capacity = pick(rng, 1, 400)
	}
	if rng.IntN(2) == 0 {
		s.Load = pick(rng, 1, 60)
		if rng.IntN(2) == 0 {
			s.LoadUntil = pick(rng, 0, 40000)
		}
	}
	switch rng.IntN(3) {
	case 1:
		s.Budget = Budget{Kind: BudgetGRPC, A: pick(rng, 1, 30), B: pick(rng, 1, 1000)}
	case 2:
		s.Budget = Budget{Kind: BudgetAWS, A: pick(rng, 1, 60), B: pick(rng, 1, 10)}
	}
	s.Processes = pick(rng, 1, 4)
	switch rng.IntN(5) {
	case 0:
		s.Processes = PerClient
	case 1:
		s.Processes = pick(rng, 150, 400) // more than the clients, often
	}
	return s
}

func sameFigures(t *testing.T, what string, got, want Figures) {
	t.Helper()
	if got != want {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

// sameSeries holds a run's series against the model's slots.
func sameSeries(t *testing.T, what string, got *Series, want map[int]*modelSlot) {
	t.Helper()
	if got == nil {
		t.Fatalf("%s: no series", what)
	}
	for i := range got.Len() {
		w := want[i]
		if w == nil {
			w = &modelSlot{}
		}
		g := modelSlot{retries: got.Retries[i], served: got.Served[i], rejected: got.Rejected[i], down: got.FailedWhileDown[i]}
		if got.Queued {
			g.timedOut, g.wasted, g.dropped, g.queue = got.TimedOut[i], got.Wasted[i], got.Dropped[i], got.Queue[i]
		}
		if got.Breaker {
			g.short, g.opened = got.ShortCircuited[i], got.Opened[i]
		}
		want := *w
		want.after = 0 // the series keeps no count of attempts after the outage's end
		if g != want {
			t.Fatalf("%s: slot %d: got %+v, want %+v", what, i, g, want)
		}
	}
	for i, w := range want {
		if i >= got.Len() && (*w != modelSlot{after: w.after}) && !(got.Truncated && i >= MaxSeriesSlots) {
			t.Fatalf("%s: slot %d: missing from the series of %d slots, want %+v", what, i, got.Len(), *w)
		}
	}
}

// sameRun holds Run's figures and series for p under s to the model's.
func sameRun(t *testing.T, what string, p Policy, s Settings) Figures {
	t.Helper()
	want, slots := modelRun(t, p, s)
	got, err := run(t, p, s, Options{Series: true})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	sameFigures(t, what, got.Figures, want)
	sameSeries(t, what, got.Series, slots)
	return got.Figures
}

// The engine gives MODEL.md's figures, every one, over random policies and
// services, and the series it keeps are the model's slots.
func TestEngineAgreesWithModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := range n {
		s := randomService(rng)
		p := randomPolicy(rng)
		sameRun(t, fmt.Sprintf("case %d: %+v under %+v", i, p, s), p, s)
	}
}

// Without a service, the fast path, the engine and the model agree on
// every figure, for every kind of policy.
func TestFastPathAgreesWithEngineAndModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range 2000 {
		s := randomService(rng)
		s.Capacity, s.Load, s.Budget = 0, 0, Budget{}
		s.Clients = pick(rng, 1, 300)
		fastAgrees(t, fmt.Sprintf("case %d", i), randomPolicy(rng), s)
	}
}

// fastAgrees holds the fast path, with and without a series, and the
// engine to the model on p under s, which has no service.
func fastAgrees(t *testing.T, name string, p Policy, s Settings) {
	t.Helper()
	what := fmt.Sprintf("%s: %+v under %+v", name, p, s)
	want, _ := modelRun(t, p, s)
	fast, err := run(t, p, s, Options{})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	sameFigures(t, what+" (fast path)", fast.Figures, want)
	slow, err := run(t, p, s, Options{Engine: true, Series: true})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	sameFigures(t, what+" (engine)", slow.Figures, want)
	withSeries, err := run(t, p, s, Options{Series: true})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	sameFigures(t, what+" (fast path with a series)", withSeries.Figures, want)
	if !reflect.DeepEqual(withSeries.Series, slow.Series) {
		t.Fatalf("%s: the fast path's series differs from the engine's", what)
	}
}

// Over thousands of random settings: outcomes add up to the attempts,
// endings to the clients, served equals through, no slot serves more than
// its capacity, and the series adds up to the figures.
func TestEngineInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range 2000 {
		s := randomService(rng)
		s.Clients = pick(rng, 1, 2000)
		p := randomPolicy(rng)
		what := fmt.Sprintf("case %d: %+v under %+v", i, p, s)
		r, err := run(t, p, s, Options{Series: true})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		f := r.Figures
		if f.Served+f.Rejected+f.FailedWhileDown != f.Attempts || f.Through+f.GaveUp+f.Throttled+f.OutOfTime != f.Clients ||
			f.Served != f.Through || f.Clients != s.Clients+s.FreshRequests() || f.Attempts-f.Retries != f.Clients {
			t.Fatalf("%s: figures do not add up: %+v", what, f)
		}
		if r.Series.Truncated {
			continue
		}
		var sum Figures
		for i := range r.Series.Len() {
			if c := s.SlotCapacity(i, s.Slot); c >= 0 && r.Series.Served[i] > c {
				t.Fatalf("%s: slot %d serves %d, its capacity is %d", what, i, r.Series.Served[i], c)
			}
			sum.Retries += r.Series.Retries[i]
			sum.Served += r.Series.Served[i]
			sum.Rejected += r.Series.Rejected[i]
			sum.FailedWhileDown += r.Series.FailedWhileDown[i]
			if r.Series.Retries[i] > f.MostInASlot || r.Series.Attempts(i) < r.Series.Retries[i] {
				t.Fatalf("%s: slot %d holds %d retries, the most in a slot is %d", what, i, r.Series.Retries[i], f.MostInASlot)
			}
		}
		if sum.Retries != f.Retries || sum.Served != f.Served || sum.Rejected != f.Rejected || sum.FailedWhileDown != f.FailedWhileDown {
			t.Fatalf("%s: the series adds up to %+v, the figures are %+v", what, sum, f)
		}
	}
}

// A budget's tokens stay from 0 to its maximum whatever happens to them.
func TestBudgetBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 500 {
		b := Budget{Kind: BudgetGRPC, A: pick(rng, 1, MaxGRPCTokens), B: pick(rng, 1, 1000)}
		if rng.IntN(2) == 0 {
			b = Budget{Kind: BudgetAWS, A: pick(rng, 1, 1000), B: pick(rng, 1, 50)}
		}
		bs := newBudgets(b, 3, 3)
		for range 2000 {
			p := rng.IntN(3)
			switch rng.IntN(3) {
			case 0:
				bs.failed(p)
			case 1:
				bs.retry(p)
			default:
				bs.served(p, rng.IntN(2) == 0)
			}
			if bs.tokens[p] < 0 || bs.tokens[p] > bs.top {
				t.Fatalf("%+v: process %d holds %d, want 0 to %d", b, p, bs.tokens[p], bs.top)
			}
		}
	}
}

// runAgreesWithModel holds case i's figures from Run to the model's.
func runAgreesWithModel(t *testing.T, i int, p Policy, s Settings) {
	t.Helper()
	what := fmt.Sprintf("case %d: %+v under %+v", i, p, s)
	want, _ := modelRun(t, p, s)
	got, err := run(t, p, s, Options{})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	sameFigures(t, what, got.Figures, want)
}

// Where the slots are too many to count in an array (1 ms slots over long
// waits), the fast path marks them in a bitmap and sorts the repeats: its
// figures are still the model's, with few clients (no slot repeated), many
// (most repeated) and an outage of 0.
func TestFastPathMarksManySlots(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	marked := 0
	for i := range 2000 {
		s := Defaults()
		s.Clients = []int{1, 2, 40, 300}[rng.IntN(4)]
		s.Outage = []int{0, pick(rng, 1, 200000), 600000}[rng.IntN(3)]
		s.Seed, s.Slot, s.Draws = pick(rng, 0, 999999), 1, Draws(rng.IntN(2))
		p := randomPolicy(rng)
		p.LongestWait = pick(rng, max(p.FirstWait, 70000), MaxWait)
		pl := newPlan(p, s.Draws)
		if fastSlots(pl, s) <= maxCountSlots || fastSlots(pl, s) > maxFastSlots {
			continue
		}
		marked++
		runAgreesWithModel(t, i, p, s)
	}
	if marked < 500 {
		t.Fatalf("only %d of 2000 cases marked their slots", marked)
	}
}

// Where the retries are 2^16 or more over few slots, the fast path counts
// in 32 bits a slot; its figures are still the model's, also where one
// slot holds more than 2^16.
func TestFastPathCountsManyRetries(t *testing.T) {
	s := Defaults()
	s.Clients, s.Outage, s.Slot = 4000, 30000, 1000
	p := Policy{Name: "short", FirstWait: 1, LongestWait: 2, Multiplier: 2000, Attempts: 31, Jitter: Jitter{Kind: JitterFull}}
	if got, _ := run(t, p, s, Options{}); got.Figures.MostInASlot != 120000 {
		t.Errorf("4000 clients retrying 30 times in the first second: most in a slot %d, want 120000", got.Figures.MostInASlot)
	}
	rng := rand.New(rand.NewPCG(12, 4))
	for i := range 40 {
		s := Defaults()
		s.Clients = pick(rng, 2200, 4000)
		s.Outage, s.Seed, s.Draws = pick(rng, 0, 30000), pick(rng, 0, 999999), Draws(rng.IntN(2))
		s.Slot = []int{7, 100, 1000}[rng.IntN(3)]
		p := randomPolicy(rng)
		p.Attempts = 31
		pl := newPlan(p, s.Draws)
		if fastSlots(pl, s) > maxCountSlots {
			continue
		}
		runAgreesWithModel(t, i, p, s)
	}
}

// Past maxFastSlots (1 ms slots over an outage of hours), a crowd without
// a service runs the engine, whose slots stream: Run asks its Stop from
// the engine's code exactly as often as a run told to use the engine does
// (most cases ask it; see sameEngineRun). Its figures are still the model's.
func TestLongHorizonsRunTheEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 5))
	asked := 0
	defer func() {
		if asked < 10 {
			t.Errorf("only %d of 30 cases asked Stop, want at least 10 to tell the engine ran", asked)
		}
	}()
	for i := range 30 {
		s := Defaults()
		s.Clients, s.Slot, s.Draws = pick(rng, 1, 40), 1, Draws(rng.IntN(2))
		s.Outage, s.Seed = pick(rng, 20_000_000, MaxTime), pick(rng, 0, 999999)
		p := randomPolicy(rng)
		p.FirstWait, p.LongestWait, p.Attempts, p.MaxElapsed = pick(rng, 100_000, 1_000_000), MaxWait, 30, 0
		p.Multiplier = pick(rng, 2000, 10000)
		pl := newPlan(p, s.Draws)
		if fastSlots(pl, s) <= maxFastSlots {
			t.Fatalf("case %d: %d slots, not past maxFastSlots", i, fastSlots(pl, s))
		}
		if sameEngineRun(t, i, p, s) {
			asked++
		}
		runAgreesWithModel(t, i, p, s)
	}
}

// A process per client is P = the clients that exist, the fresh requests
// included; the budgets keep one a process that holds a client, in 32
// bits: at a million clients each with its own, 4 MB.
func TestBudgetPerClient(t *testing.T) {
	s := Defaults()
	s.Clients, s.Load, s.LoadUntil, s.Processes = 120000, 3000, 45000, PerClient
	// 45 s of 3,000 a second: requests 0 to 134,999.
	if got, want := s.ProcessCount(), 120000+135000; got != want {
		t.Errorf("ProcessCount: got %d, want %d", got, want)
	}
	s.Processes = 7
	if got := s.ProcessCount(); got != 7 {
		t.Errorf("ProcessCount of 7: got %d", got)
	}
	grpc := Budget{Kind: BudgetGRPC, A: 10, B: 100}
	for _, tt := range []struct{ processes, clients, kept int }{
		{1, 5, 1}, {3, 5, 3}, {5, 5, 5}, {6, 5, 5}, {100000, 200, 200}, // a process past the clients holds none
	} {
		if got := len(newBudgets(grpc, tt.processes, tt.clients).tokens); got != tt.kept {
			t.Errorf("%d processes over %d clients: %d budgets kept, want %d", tt.processes, tt.clients, got, tt.kept)
		}
	}
	if got := len(newBudgets(Budget{}, 10, 10).tokens); got != 0 {
		t.Errorf("no budget: %d kept, want none", got)
	}
	// What they hold (BenchmarkBudgetsPerClient measures the allocation).
	const clients = 1000000
	bs := newBudgets(grpc, clients, clients)
	if got := cap(bs.tokens) * int(unsafe.Sizeof(bs.tokens[0])); got != 4*clients {
		t.Errorf("budgets of %d clients: %d bytes, want 4 a client", clients, got)
	}
}

func BenchmarkBudgetsPerClient(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		newBudgets(Budget{Kind: BudgetAWS, A: 500, B: 5}, 1000000, 1000000)
	}
}

// sortByClient and selectByClient give what a sort of the attempts by
// client gives, short lists (a comparison sort) and long (sorted as
// words, then gathered), every attempt kept whole: the first k hold the k
// lowest numbers after a selection, and all are in order after a sort.
func TestClientOrder(t *testing.T) {
	byClient := func(a, b pending) int { return cmp.Compare(a.client, b.client) }
	rng := rand.New(rand.NewPCG(4, 4))
	var e engine
	for i := range 500 {
		n := 1 + rng.IntN([]int{11, 12, 13, 3000}[rng.IntN(4)]) // 12 is where the words begin
		list := make([]pending, n)
		for j, c := range rng.Perm(3 * n)[:n] {
			list[j] = pending{client: uint32(c + 1), t: uint32(c * 7)}
			list[j].kp = uint32(c)
		}
		want := slices.Clone(list)
		slices.SortFunc(want, byClient)
		k := 1 + rng.IntN(n)
		selected := slices.Clone(list)
		e.selectByClient(selected, k)
		first := slices.Clone(selected[:k])
		slices.SortFunc(first, byClient)
		if !slices.Equal(first, want[:k]) {
			t.Fatalf("case %d: %d attempts, the %d lowest: got %v, want %v", i, n, k, first, want[:k])
		}
		slices.SortFunc(selected, byClient)
		e.sortByClient(list)
		if !slices.Equal(list, want) || !slices.Equal(selected, want) {
			t.Fatalf("case %d: %d attempts: sorted %v, selected %v, want %v", i, n, list, selected, want)
		}
	}
}
