package backoff_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
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
			if got := backoff.NearestRank(tt.sorted, tt.p); got != tt.want {
				t.Errorf("NearestRank(%v, %d) = %d, want %d", tt.sorted, tt.p, got, tt.want)
			}
		})
	}
}

// spreadByHand summarises per-seed figures the slow, obvious way.
func spreadByHand(values []int, noneIsWorst bool) backoff.Spread {
	key := func(v int) int {
		if noneIsWorst && v < 0 {
			return int(^uint(0) >> 1)
		}
		return v
	}
	sorted := slices.Clone(values)
	slices.SortFunc(sorted, func(a, b int) int { return key(a) - key(b) })
	at := func(p int) int {
		rank := (p*len(sorted) + 99) / 100
		return sorted[rank-1]
	}
	return backoff.Spread{Median: at(50), P95: at(95), Worst: sorted[len(sorted)-1]}
}

func TestRunSeedsMatchesCrowdsSeedBySeed(t *testing.T) {
	settings := []backoff.Settings{backoff.Defaults(), func() backoff.Settings {
		s := backoff.Defaults()
		s.FirstWait, s.Clients, s.Outage, s.Seed = 300, 20, 4000, 41
		return s
	}()}
	for _, s := range settings {
		const count = 37
		got := backoff.RunSeeds(s, count, 3)
		if got.First != s.Seed || got.Count != count {
			t.Fatalf("seeds %d+%d, want %d+%d", got.First, got.Count, s.Seed, count)
		}
		for p := range backoff.NumPolicies {
			var retries, busiest, last, gaveUp []int
			none := 0
			for i := range count {
				one := s
				one.Seed = s.Seed + i
				c := backoff.RunCrowds(one)[p]
				most, _ := c.Busiest()
				retries, busiest, last, gaveUp = append(retries, c.Retries), append(busiest, most), append(last, c.LastThrough), append(gaveUp, c.GaveUp)
				if c.LastThrough < 0 {
					none++
				}
			}
			want := backoff.PolicySpread{
				Policy:      backoff.Policy(p),
				Retries:     spreadByHand(retries, false),
				Busiest:     spreadByHand(busiest, false),
				LastThrough: spreadByHand(last, true),
				GaveUp:      spreadByHand(gaveUp, false),
				NoneThrough: none,
			}
			if got.Policies[p] != want {
				t.Errorf("%+v, %s: got %+v, want %+v", s, backoff.Policy(p), got.Policies[p], want)
			}
		}
	}
}

func TestRunSeedsSameForAnyNumberOfWorkers(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Attempts = 50, 8
	one := backoff.RunSeeds(s, 101, 1)
	for _, workers := range []int{2, 3, 8, 200} {
		if got := backoff.RunSeeds(s, 101, workers); got != one {
			t.Errorf("%d workers: got %+v, want %+v (1 worker)", workers, got, one)
		}
	}
}

func TestRunSeedsOfOneSeedIsThatCrowd(t *testing.T) {
	s := backoff.Defaults()
	got := backoff.RunSeeds(s, 1, 2)
	for p, c := range backoff.RunCrowds(s) {
		most, _ := c.Busiest()
		for _, f := range []struct {
			name   string
			spread backoff.Spread
			want   int
		}{
			{"retries", got.Policies[p].Retries, c.Retries},
			{"busiest", got.Policies[p].Busiest, most},
			{"last through", got.Policies[p].LastThrough, c.LastThrough},
			{"gave up", got.Policies[p].GaveUp, c.GaveUp},
		} {
			if want := (backoff.Spread{Median: f.want, P95: f.want, Worst: f.want}); f.spread != want {
				t.Errorf("%s %s: got %+v, want %+v", c.Policy, f.name, f.spread, want)
			}
		}
	}
}

// A seed in which no client got through is the worst "all through by", and
// a percentile that lands on such seeds is -1.
func TestRunSeedsNoneThrough(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Attempts, s.Outage = 1, 3, 2500 // one client: through in some seeds, not in others
	const count = 200
	got := backoff.RunSeeds(s, count, 2).Policies[backoff.FullJitter]
	if got.NoneThrough == 0 || got.NoneThrough == count {
		t.Fatalf("none through in %d of %d seeds; the test needs some of each", got.NoneThrough, count)
	}
	if got.LastThrough.Worst != -1 {
		t.Errorf("worst all-through: got %d, want -1 (none through in %d seeds)", got.LastThrough.Worst, got.NoneThrough)
	}
	if want := got.NoneThrough*2 < count; (got.LastThrough.Median >= 0) != want {
		t.Errorf("median all-through %d with none through in %d of %d seeds", got.LastThrough.Median, got.NoneThrough, count)
	}
	fixed := backoff.RunSeeds(s, count, 2).Policies[backoff.Fixed]
	if want := (backoff.Spread{Median: -1, P95: -1, Worst: -1}); fixed.LastThrough != want || fixed.NoneThrough != count {
		t.Errorf("fixed: got %+v with %d none through, want %+v with %d", fixed.LastThrough, fixed.NoneThrough, want, count)
	}
}

// The reference's defaults over seeds 7 to 106. Seed 7 alone gave busiest
// slots of 28, 44 and 15 under full jitter, equal jitter and decorrelated,
// and 36, 0 and 19 clients who gave up: its full jitter slot was a lucky
// draw, its equal jitter slot as full as the worst of the hundred.
func ExampleRunSeeds() {
	sc := backoff.RunSeeds(backoff.Defaults(), 100, 2)
	for _, p := range sc.Policies {
		fmt.Printf("%-12s busiest %+v, gave up %+v\n", p.Policy, p.Busiest, p.GaveUp)
	}
	// Output:
	// fixed        busiest {Median:200 P95:200 Worst:200}, gave up {Median:200 P95:200 Worst:200}
	// exponential  busiest {Median:200 P95:200 Worst:200}, gave up {Median:0 P95:0 Worst:0}
	// full jitter  busiest {Median:31 P95:36 Worst:37}, gave up {Median:39 P95:60 Worst:67}
	// equal jitter busiest {Median:42 P95:43 Worst:44}, gave up {Median:0 P95:0 Worst:0}
	// decorrelated busiest {Median:15 P95:18 Worst:21}, gave up {Median:10 P95:16 Worst:21}
}
