package backoff

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
)

func TestNearestRank(t *testing.T) {
	oneToTwenty := make([]int, 20)
	for i := range oneToTwenty {
		oneToTwenty[i] = i + 1
	}
	tests := []struct {
		name   string
		sorted []int
		p      int
		want   int
	}{
		{"none", nil, 50, 0},
		{"one value is every percentile", []int{7}, 50, 7},
		{"one value, p95", []int{7}, 95, 7},
		{"two values: the lower median", []int{3, 9}, 50, 3},
		{"two values: p95 is the larger", []int{3, 9}, 95, 9},
		{"three values: the middle", []int{1, 2, 3}, 50, 2},
		{"20 values, median at rank 10", oneToTwenty, 50, 10},
		{"20 values, p95 at rank 19", oneToTwenty, 95, 19},
		{"20 values, worst", oneToTwenty, 100, 20},
		{"20 values, p1 at rank 1", oneToTwenty, 1, 1},
		{"21 values, p95 at rank ceil(19.95) = 20", append(slices.Clone(oneToTwenty), 21), 95, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NearestRank(tt.sorted, tt.p); got != tt.want {
				t.Errorf("NearestRank(%v, %d) = %d, want %d", tt.sorted, tt.p, got, tt.want)
			}
		})
	}
}

// The latencies' selection gives what a sort gives, at every size.
func TestLatencySelection(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for range 2000 {
		n := 1 + rng.IntN([]int{5, 40, 3000}[rng.IntN(3)])
		v := make([]uint32, n)
		spread := uint32(1 + rng.IntN(1<<rng.IntN(30)))
		for i := range v {
			v[i] = rng.Uint32() % spread
		}
		sorted := make([]int, n)
		for i, x := range v {
			sorted[i] = int(x)
		}
		slices.Sort(sorted)
		var f Figures
		f.latencies(v)
		if f.LatencyP50 != NearestRank(sorted, 50) || f.LatencyP99 != NearestRank(sorted, 99) || f.LatencyMax != sorted[n-1] {
			t.Fatalf("%d values: got %d %d %d, want %d %d %d", n, f.LatencyP50, f.LatencyP99, f.LatencyMax,
				NearestRank(sorted, 50), NearestRank(sorted, 99), sorted[n-1])
		}
	}
}

// The latency tally gives what a sort gives, by counts and by values, the
// counts reused from run to run (all zero again each time), cohorts added
// at once, and latencies past the horizon kept.
func TestLatencyTally(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	var counts, values []uint32
	for i := range 2000 {
		n := 1 + rng.IntN([]int{5, 40, 3000}[rng.IntN(3)])
		horizon := int64(rng.IntN(2 * n))
		l := newLatencyTally(n, horizon, counts, values)
		// horizon < clients: a count for each millisecond, 0 to horizon.
		if want := horizon < int64(n); l.byCount != want {
			t.Fatalf("case %d: %d clients, horizon %d: by count %v, want %v", i, n, horizon, l.byCount, want)
		}
		var sorted []int
		for len(sorted) < n {
			ms := uint32(rng.Int64N(horizon + 2)) // now and then one past the horizon
			k := min(1+rng.IntN(3), n-len(sorted))
			l.add(ms, int64(k))
			for range k {
				sorted = append(sorted, int(ms))
			}
		}
		slices.Sort(sorted)
		var f Figures
		l.set(&f)
		if f.LatencyP50 != NearestRank(sorted, 50) || f.LatencyP99 != NearestRank(sorted, 99) || f.LatencyMax != sorted[n-1] {
			t.Fatalf("case %d: %d values by count %v: got %d %d %d, want %d %d %d", i, n, l.byCount, f.LatencyP50, f.LatencyP99, f.LatencyMax,
				NearestRank(sorted, 50), NearestRank(sorted, 99), sorted[n-1])
		}
		counts, values = l.scratch()
		for ms, c := range counts[:cap(counts)] {
			if c != 0 {
				t.Fatalf("case %d: count %d of the next run's is %d, want 0", i, ms, c)
			}
		}
	}
	// Exactly at the boundary: 3 clients within a horizon of 2 ms take
	// counts for 0, 1 and 2 ms (once one is served), no more than their 3
	// values; a horizon of 3 ms would take 4 counts, and the values are
	// kept.
	if l := newLatencyTally(3, 2, nil, nil); !l.byCount || len(l.counts) != 0 {
		t.Errorf("3 clients, horizon 2: by count %v, %d counts; want true, 0", l.byCount, len(l.counts))
	} else if l.add(0, 1); len(l.counts) != 3 {
		t.Errorf("3 clients, horizon 2, one served: %d counts, want 3", len(l.counts))
	}
	// The counts grow as the latencies come: to minLatencyCounts, then
	// twice as many, or as far as a latency needs, never past the horizon
	// but for a latency past it.
	l := newLatencyTally(1000000, 100000, nil, nil)
	for _, c := range []struct {
		ms   uint32
		want int
	}{
		{10, 4096}, {4095, 4096}, // within: no growth
		{4096, 8192},    // one past: twice
		{60000, 60001},  // twice is too few: as far as it needs
		{70000, 100001}, // twice 60,001 is past the horizon of 100,000: to it
		{100001, 100002},
	} {
		if l.add(c.ms, 1); len(l.counts) != c.want {
			t.Errorf("a latency of %d ms: %d counts, want %d", c.ms, len(l.counts), c.want)
		}
	}
	if l := newLatencyTally(3, 3, nil, nil); l.byCount || cap(l.values) != 3 {
		t.Errorf("3 clients, horizon 3: by count %v, room for %d values; want false, 3", l.byCount, cap(l.values))
	}
	var none Figures
	empty := newLatencyTally(3, 2, nil, nil)
	empty.set(&none)
	if none.LatencyP50 != -1 || none.LatencyP99 != -1 || none.LatencyMax != -1 {
		t.Errorf("no one served: got %d %d %d, want -1 -1 -1", none.LatencyP50, none.LatencyP99, none.LatencyMax)
	}
}

// spreadByHand sums up per-seed values the slow, obvious way.
func spreadByHand(values []int, field FigureField) Spread {
	type ranked struct{ key, v int }
	var r []ranked
	for _, v := range values {
		key := v
		switch {
		case field.Optional && v < 0:
			key = 1 << 62
		case field.Better == Higher:
			key = -v
		}
		r = append(r, ranked{key, v})
	}
	slices.SortStableFunc(r, func(a, b ranked) int { return a.key - b.key })
	at := func(p int) int { return r[(p*len(r)+99)/100-1].v }
	return Spread{Median: at(50), P95: at(95), Worst: r[len(r)-1].v}
}

// Each figure's spread over the seeds is what the seeds' own crowds give.
func TestRunSeedsMatchesCrowdsSeedBySeed(t *testing.T) {
	base := Defaults()
	base.FirstWait, base.Clients, base.Outage, base.Seed = 300, 20, 4000, 41
	service := base
	service.Capacity, service.Load, service.Budget, service.Draws = 30, 5, Budget{Kind: BudgetGRPC, A: 10, B: 100}, Independent
	for _, s := range []Settings{Defaults(), base, service} {
		ps := append(s.Five(), mustPreset(t, "grpc").Policy)
		const count = 37
		got, err := runSeeds(t, ps, s, count, SeedOptions{Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got.First != s.Seed || got.Count != count || len(got.Policies) != len(ps) {
			t.Fatalf("seeds %d+%d of %d policies, want %d+%d of %d", got.First, got.Count, len(got.Policies), s.Seed, count, len(ps))
		}
		for p, pol := range ps {
			per := make([]Figures, count)
			for i := range count {
				one := s
				one.Seed = s.Seed + i
				r, err := run(t, pol, one, Options{})
				if err != nil {
					t.Fatal(err)
				}
				per[i] = r.Figures
			}
			for fi, field := range FigureFields() {
				var values []int
				for _, f := range per {
					values = append(values, field.Get(f))
				}
				if want := spreadByHand(values, field); got.Policies[p].Spreads[fi] != want {
					t.Errorf("%+v, %s, %s: got %+v, want %+v", s, pol, field.Name, got.Policies[p].Spreads[fi], want)
				}
			}
		}
	}
}

func mustPreset(t *testing.T, name string) Preset {
	t.Helper()
	pr, ok := FindPreset(name)
	if !ok {
		t.Fatalf("no preset %q", name)
	}
	return pr
}

func TestRunSeedsSameForAnyNumberOfWorkers(t *testing.T) {
	s := Defaults()
	s.Clients, s.Attempts = 50, 8
	one, _ := runSeeds(t, s.Five(), s, 101, SeedOptions{Workers: 1})
	for _, workers := range []int{2, 3, 8, 200} {
		if got, _ := runSeeds(t, s.Five(), s, 101, SeedOptions{Workers: workers}); !reflect.DeepEqual(got, one) {
			t.Errorf("%d workers: got %+v, want %+v (1 worker)", workers, got, one)
		}
	}
}

// A seed in which no client got through is the worst "all through by", and
// a percentile that lands on such seeds is -1.
func TestRunSeedsNoneThrough(t *testing.T) {
	s := Defaults()
	s.Clients, s.Attempts, s.Outage = 1, 3, 2500 // one client: through in some seeds, not in others
	const count = 200
	sc, _ := runSeeds(t, s.Five(), s, count, SeedOptions{Workers: 2})
	got := sc.Policies[FullJitter]
	if got.NoneThrough == 0 || got.NoneThrough == count {
		t.Fatalf("none through in %d of %d seeds; the test needs some of each", got.NoneThrough, count)
	}
	last := got.Spread("all_through_by_ms")
	if last.Worst != -1 {
		t.Errorf("worst all-through: got %d, want -1 (none through in %d seeds)", last.Worst, got.NoneThrough)
	}
	if want := got.NoneThrough*2 < count; (last.Median >= 0) != want {
		t.Errorf("median all-through %d with none through in %d of %d seeds", last.Median, got.NoneThrough, count)
	}
	fixed := sc.Policies[Fixed]
	if want := (Spread{Median: -1, P95: -1, Worst: -1}); fixed.Spread("all_through_by_ms") != want || fixed.NoneThrough != count {
		t.Errorf("fixed: got %+v with %d none through, want %+v with %d", fixed.Spread("all_through_by_ms"), fixed.NoneThrough, want, count)
	}
}

// However many cores, the workers' scratch stays under SeedsMemory; a
// crowd of a million against a service, whose engine holds every pending
// attempt, gets only a few workers.
func TestSeedWorkersBoundTheMemory(t *testing.T) {
	s := largest()
	s.Slot = 1
	five := s.Five()
	all := int64(1)
	for _, p := range five {
		all += workerScratch(newPlan(p, s.Draws), s)
	}
	for _, want := range []int{1, 2, 64, 256} {
		if w := SeedWorkers(five, s, want, 1000); w < 1 || w > want || int64(w)*all > SeedsMemory && w > 1 {
			t.Errorf("want %d workers: got %d of %d bytes each", want, w, all)
		}
	}
	big := s
	big.Clients, big.Capacity, big.Load, big.LoadUntil = 1_000_000, 50000, 10000, 90000
	if w := SeedWorkers(big.Five(), big, 64, 1000); w > 4 {
		t.Errorf("a million clients with a service: %d workers, want at most 4", w)
	}
	// The scratch a worker really holds, its one tally run over each
	// policy in turn and several seeds, is no more than SeedWorkers counts
	// for it: one client's retries, 16- and 32-bit counts, the bitmap.
	one := Defaults()
	one.Clients = 1
	mix := Defaults()
	mix.Clients, mix.Slot, mix.Outage = 3000, 1, 9_500_000
	for _, c := range []struct {
		name     string
		s        Settings
		policies []Policy
	}{
		{"the largest five at 1 ms slots", s, five},
		{"the largest five at 100 ms slots", largest(), largest().Five()},
		{"10,000 clients at 1 ms slots", func() Settings { s := s; s.Clients = 10000; return s }(), five},
		{"one client, 100 attempts", one,
			[]Policy{{Name: "a", FirstWait: 1000, LongestWait: 16000, Multiplier: 2000, Attempts: 100, Jitter: Jitter{Kind: JitterFull}}}},
		{"a bitmap, 32-bit and 16-bit counts", mix, []Policy{
			{Name: "bitmap", FirstWait: MaxWait, LongestWait: MaxWait, Multiplier: 1000, Attempts: 4, Jitter: Jitter{Kind: JitterSpread, Factor: 1000}},
			{Name: "wide", FirstWait: 1638, LongestWait: 1638, Multiplier: 1000, Attempts: 41, Jitter: Jitter{Kind: JitterFull}},
			{Name: "narrow", FirstWait: 65535, LongestWait: 65535, Multiplier: 1000, Attempts: 2, Jitter: Jitter{Kind: JitterFull}},
		}},
	} {
		ta, est := new(tally), int64(0)
		for _, p := range c.policies {
			pl := newPlan(p, c.s.Draws)
			est += workerScratch(pl, c.s)
			for seed := range 3 {
				at := c.s
				at.Seed = seed
				tallyCrowd(t, ta, pl, at, nil)
			}
		}
		if got := ta.scratch(); got > est {
			t.Errorf("%s: a worker's tally holds %d bytes, more than the %d counted for it", c.name, got, est)
		}
	}
}

// The reference's defaults over seeds 7 to 106, with the reference's draws
// and with independent ones. Seed 7 alone gave busiest slots of 28, 44 and
// 15 under full jitter, equal jitter and decorrelated.
func ExampleRunSeeds() {
	s := Defaults()
	for _, d := range []Draws{Reference, Independent} {
		s.Draws = d
		sc, _ := RunSeeds(s.Five()[2:], s, 100, SeedOptions{Workers: 2})
		for _, p := range sc.Policies {
			fmt.Printf("%-11s %-12s busiest %+v, gave up %+v\n", d, p.Policy, p.Spread("most_in_a_slot"), p.Spread("gave_up"))
		}
	}
	// Output:
	// reference   full jitter  busiest {Median:31 P95:36 Worst:37}, gave up {Median:39 P95:60 Worst:67}
	// reference   equal jitter busiest {Median:42 P95:43 Worst:44}, gave up {Median:0 P95:0 Worst:0}
	// reference   decorrelated busiest {Median:15 P95:18 Worst:21}, gave up {Median:10 P95:16 Worst:21}
	// independent full jitter  busiest {Median:35 P95:40 Worst:45}, gave up {Median:33 P95:42 Worst:49}
	// independent equal jitter busiest {Median:48 P95:53 Worst:57}, gave up {Median:0 P95:0 Worst:0}
	// independent decorrelated busiest {Median:18 P95:21 Worst:25}, gave up {Median:9 P95:14 Worst:19}
}

func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	var spare []uint32
	for range 500 {
		v := make([]uint32, rng.IntN(3000))
		top := uint32(1) << rng.IntN(33)
		for i := range v {
			v[i] = rng.Uint32() % max(top, 1)
		}
		want := slices.Clone(v)
		slices.Sort(want)
		var got []uint32
		got, spare = radixSort(v, spare)
		if !slices.Equal(got, want) {
			t.Fatalf("%d values below %d: not sorted", len(v), top)
		}
	}
}

// The seeds' scratch does not grow with the cores past a small constant
// per worker: at the largest reference settings and 1 ms slots (1.2
// million slots, which the old counting array held per worker, 9.6 MB
// each), 64 workers allocate less than 64 times 1 MiB more than one does.
func TestSeedsMemoryUnderManyCores(t *testing.T) {
	s := largest()
	s.Slot = 1
	five := s.Five()
	allocated := func(workers int) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := runSeeds(t, five, s, 64, SeedOptions{Workers: workers}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	prev := runtime.GOMAXPROCS(64)
	defer runtime.GOMAXPROCS(prev)
	one, many := allocated(1), allocated(64)
	t.Logf("64 seeds: %d KiB with 1 worker, %d KiB with 64", one>>10, many>>10)
	if many > one+64<<20 || many > 96<<20 {
		t.Errorf("64 workers allocate %d KiB, 1 worker %d KiB: want at most 1 MiB more a worker and under 96 MiB", many>>10, one>>10)
	}
}
