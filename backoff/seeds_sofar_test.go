package backoff

import (
	"reflect"
	"sync"
	"testing"
)

// Issue 19, item 9: the spread of the seeds done so far, asked while
// RunSeeds runs, is exactly RunSeeds of that many seeds from the first;
// the last is the whole run's, as it was.
func TestSeedsSoFarIsTheSpreadOfTheFirstSeeds(t *testing.T) {
	s := Defaults()
	s.Clients, s.Capacity, s.Load, s.Draws = 300, 200, 20, Independent
	ps := append(s.Five(), s.WithPreset(mustPreset(t, "grpc")).Custom())
	const count = 12
	want := map[int]SeedsCrowd{} // RunSeeds of k seeds, by k
	of := func(k int) SeedsCrowd {
		if sc, ok := want[k]; ok {
			return sc
		}
		sc, err := runSeeds(t, ps, s, k, SeedOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		want[k] = sc
		return sc
	}
	for _, workers := range []int{1, 3} {
		var sofar SeedsSoFar
		if _, ok := sofar.Spread(); ok {
			t.Fatalf("a SeedsSoFar before any run: ok, want none")
		}
		var mu sync.Mutex
		var seen []SeedsCrowd
		// The run polls Stop after each seed (and within one): each poll
		// takes the spread so far.
		stop := func() bool {
			if sc, ok := sofar.Spread(); ok {
				mu.Lock()
				seen = append(seen, sc)
				mu.Unlock()
			}
			return false
		}
		final, err := runSeeds(t, ps, s, count, SeedOptions{Workers: workers, Stop: stop, SoFar: &sofar})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(final, of(count)) {
			t.Errorf("%d workers: the whole run differs from RunSeeds of %d seeds", workers, count)
		}
		last, ok := sofar.Spread()
		if done, n := sofar.Done(); !ok || done != count || n != count || !reflect.DeepEqual(last, final) {
			t.Errorf("%d workers: after the run, done %d of %d, ok %v; want all %d and the run's spread", workers, done, n, ok, count)
		}
		counts := map[int]bool{}
		prev := 0
		for _, sc := range seen {
			if sc.First != s.Seed || sc.Count < 1 || sc.Count > count {
				t.Fatalf("%d workers: a spread so far of seeds %d+%d", workers, sc.First, sc.Count)
			}
			if sc.Count < prev && workers == 1 {
				t.Errorf("one worker: the seeds done went back from %d to %d", prev, sc.Count)
			}
			prev = max(prev, sc.Count)
			if !counts[sc.Count] {
				counts[sc.Count] = true
				if !reflect.DeepEqual(sc, of(sc.Count)) {
					t.Errorf("%d workers: the spread so far of %d seeds differs from RunSeeds of %d", workers, sc.Count, sc.Count)
				}
			}
		}
		if workers == 1 {
			for k := 1; k < count; k++ {
				if !counts[k] {
					t.Errorf("one worker: no spread so far of %d seeds among %d polls", k, len(seen))
				}
			}
		}
	}
}

// Worked by hand at the smallest counts: one seed is its own median, p95
// and worst; of two, the median is the better (rank ceil(50*2/100) = 1)
// and the p95 the worse (rank ceil(95*2/100) = 2).
func TestSeedsSoFarAtOneAndTwoSeeds(t *testing.T) {
	s := Defaults()
	s.Clients, s.Draws = 200, Independent
	ps := []Policy{s.Policy(FullJitter)}
	one := func(seed int) Figures {
		o := s
		o.Seed = seed
		r, err := runAll(t, ps, o, Options{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		return r[0].Figures
	}
	a, b := one(s.Seed), one(s.Seed+1)
	if a.MostInASlot == b.MostInASlot {
		t.Fatalf("seeds %d and %d have the same busiest slot, %d: pick others", s.Seed, s.Seed+1, a.MostInASlot)
	}
	var sofar SeedsSoFar
	var got []Spread
	stop := func() bool {
		if sc, ok := sofar.Spread(); ok && (len(got) == 0 || sc.Count > len(got)) {
			got = append(got, sc.Policies[0].Spread("most_in_a_slot"))
		}
		return false
	}
	if _, err := runSeeds(t, ps, s, 2, SeedOptions{Workers: 1, Stop: stop, SoFar: &sofar}); err != nil {
		t.Fatal(err)
	}
	lo, hi := min(a.MostInASlot, b.MostInASlot), max(a.MostInASlot, b.MostInASlot)
	want := []Spread{{a.MostInASlot, a.MostInASlot, a.MostInASlot}, {lo, hi, hi}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the busiest slot so far, after 1 and 2 seeds: got %+v, want %+v", got, want)
	}
}

// A run stopped part way leaves the seeds it did: the spread so far is
// still theirs.
func TestSeedsSoFarOfAStoppedRun(t *testing.T) {
	s := Defaults()
	s.Draws = Independent
	ps := s.Five()
	var sofar SeedsSoFar
	calls := 0
	stop := func() bool {
		done, _ := sofar.Done()
		calls++
		return done >= 3
	}
	if _, err := runSeeds(t, ps, s, 50, SeedOptions{Workers: 1, Stop: stop, SoFar: &sofar}); err != ErrStopped {
		t.Fatalf("got %v, want ErrStopped", err)
	}
	sc, ok := sofar.Spread()
	want, _ := runSeeds(t, ps, s, 3, SeedOptions{Workers: 1})
	if !ok || sc.Count != 3 || !reflect.DeepEqual(sc, want) {
		t.Errorf("stopped after 3 seeds: got %d seeds (ok %v), want the spread of 3", sc.Count, ok)
	}
}
