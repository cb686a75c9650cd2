package backoff

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The slot divisor is at / slot exactly for every at below 2^31: at the
// edges of every slot, for slots from 1 ms to the widest, and at random.
func TestSlotDivisorIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	slots := []int{1, 2, 3, 7, 64, 100, 1000, 1024, 65535, 65536, 65537, 600000, MaxWait - 1, MaxWait}
	for range 100 {
		slots = append(slots, 1+rng.IntN(MaxWait))
	}
	for _, slot := range slots {
		v := newSlotDivisor(slot)
		ats := []uint32{0, 1, uint32(slot) - 1, uint32(slot), uint32(slot) + 1, 1<<31 - 1, 1<<31 - 2, uint32(MaxTime), 6600000}
		for range 1000 {
			ats = append(ats, rng.Uint32N(1<<31))
		}
		for q := uint32(1); q < 1<<31/uint32(slot); q = q*3 + 1 {
			ats = append(ats, q*uint32(slot)-1, q*uint32(slot))
		}
		for _, at := range ats {
			if got, want := v.div(at), at/uint32(slot); got != want {
				t.Fatalf("%d / %d: got %d, want %d", at, slot, got, want)
			}
		}
	}
}

// A Reference band's reciprocal gives lo + r mod width for every draw r
// below 2^16, for every width up to 2^16 and some wider (which leave r as
// it is).
func TestRefStepIsTheRemainder(t *testing.T) {
	widths := []uint64{1, 2, 3, 5, 100, 1000, 5001, 10001, 20001, 40001, 65535, 65536, 65537, 80001, 600001, 1 << 40}
	for w := uint64(1); w <= 1<<16; w = w*7/4 + 1 {
		widths = append(widths, w, w+1)
	}
	for _, w := range widths {
		st := newRefStep(7, w)
		for r := range uint32(1 << 16) {
			got := st.lo + uint32(uint64(st.m*r)*uint64(st.d)>>32)
			if want := 7 + uint32(uint64(r)%w); got != want {
				t.Fatalf("width %d, r %d: got %d, want %d", w, r, got, want)
			}
		}
	}
}

// busiestIn is the first largest count, against a plain scan, for lengths
// around its blocks of four and ties everywhere.
func TestBusiestIn(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 2))
	for range 3000 {
		counts := make([]uint16, rng.IntN(40))
		top := 1 + rng.IntN(5)
		for i := range counts {
			counts[i] = uint16(rng.IntN(top))
		}
		wantMost, wantAt := uint16(0), 0
		for i, c := range counts {
			if c > wantMost {
				wantMost, wantAt = c, i
			}
		}
		if most, at := busiestIn(counts); most != wantMost || at != wantAt {
			t.Fatalf("%v: got %d at %d, want %d at %d", counts, most, at, wantMost, wantAt)
		}
	}
}

// latenciesFrom's percentiles are nearest ranks of the sorted latencies,
// with the histogram of their slots, the split slot's share of its own,
// and ranks in the same slot or in two.
func TestLatenciesFromTheHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 3))
	for i := range 3000 {
		slot := []int{1, 3, 100, 1000}[rng.IntN(4)]
		split := uint32(rng.IntN(50))
		n := 1 + rng.IntN([]int{3, 30, 300}[rng.IntN(3)])
		spread := 1 + rng.IntN(20*slot)
		outage := int(split)*slot + rng.IntN(slot)
		lat := make([]uint32, n)
		after := make([]uint32, 32) // spread/slot + 2 at most
		inSplit := 0
		for j := range lat {
			lat[j] = uint32(outage + rng.IntN(spread))
			if k := lat[j] / uint32(slot); k == split {
				inSplit++
			} else {
				after[k-split]++
			}
		}
		after[0] = 12345 // the split slot's count, whose retries before the outage are no latencies
		sorted := slices.Clone(lat)
		slices.Sort(sorted)
		want := Figures{LatencyP50: int(sorted[rankOf(50, n)]), LatencyP99: int(sorted[rankOf(99, n)]), LatencyMax: int(sorted[n-1])}
		var got Figures
		var scratch []uint32
		latenciesFrom(&got, lat, after, inSplit, newSlotDivisor(slot), split, &scratch)
		if got.LatencyP50 != want.LatencyP50 || got.LatencyP99 != want.LatencyP99 || got.LatencyMax != want.LatencyMax {
			t.Fatalf("case %d (%d latencies, slot %d): got p50 %d p99 %d max %d, want %d %d %d", i, n, slot,
				got.LatencyP50, got.LatencyP99, got.LatencyMax, want.LatencyP50, want.LatencyP99, want.LatencyMax)
		}
	}
}

// The path of a jittered policy's clients drawn and counted in one loop
// each, in 16 or 32 bits a slot, gives the model's figures: over random
// policies of every jitter, under both draws, up to 100 attempts, with and
// without a limit on total time, and outages from none to past the horizon.
func TestClientWalksAgreeWithModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 4))
	kinds := []JitterKind{JitterFull, JitterEqual, JitterSpread, JitterUp, JitterDecorrelated}
	ran := map[string]int{}
	for i := range 1000 {
		s := Defaults()
		s.Clients = pick(rng, 1, []int{30, 300}[rng.IntN(2)])
		s.Outage = []int{0, pick(rng, 1, 60000), pick(rng, 60000, 2000000)}[rng.IntN(3)]
		s.Seed, s.Slot = pick(rng, 0, 999999), []int{1, 7, 100, 1000, 60000}[rng.IntN(5)]
		s.Draws = Draws(rng.IntN(2))
		p := randomPolicy(rng)
		p.Jitter = Jitter{Kind: kinds[rng.IntN(len(kinds))]}
		if p.Jitter.Kind == JitterSpread || p.Jitter.Kind == JitterUp {
			p.Jitter.Factor = pick(rng, 1, 1000)
		}
		if rng.IntN(4) == 0 {
			p.Attempts = pick(rng, 2, MaxAttempts)
		}
		if rng.IntN(4) == 0 { // 2^16 retries or more: 32 bits a slot
			s.Clients, p.Attempts = pick(rng, 2200, 2600), pick(rng, 31, 34)
		}
		if rng.IntN(3) == 0 {
			p.Growth = GrowthLinear
		}
		pl := newPlan(p, s.Draws)
		if fastSlots(pl, s) > maxCountSlots {
			continue
		}
		counts := "16 bits"
		if s.Clients*pl.retries >= 1<<16 {
			counts = "32 bits"
		}
		ran[fmt.Sprintf("%v, %v, %s", s.Draws, p.Jitter.Kind, counts)]++
		runAgreesWithModel(t, i, p, s)
	}
	for _, d := range []Draws{Reference, Independent} {
		for _, k := range kinds {
			for _, c := range []string{"16 bits", "32 bits"} {
				if n := ran[fmt.Sprintf("%v, %v, %s", d, k, c)]; n < 5 {
					t.Errorf("%v draws, %v jitter, counted in %s: %d cases, want 5 or more", d, k, c, n)
				}
			}
		}
	}
}

// Run on the fast path allocates nothing once its pooled scratch has grown:
// the plan is renewed in the scratch, not made anew.
func TestFastRunAllocatesNothing(t *testing.T) {
	s := largest()
	for _, d := range []Draws{Reference, Independent} {
		s.Draws = d
		five := s.Five()
		d := watch(runName(five, s), runDeadline, stuckAfter, nil) // a watch of all the runs: run's own allocates
		stop := d.stop
		allocs := testing.AllocsPerRun(100, func() {
			for _, p := range five {
				if _, err := Run(p, s, Options{Stop: stop}); err != nil {
					t.Fatal(err)
				}
			}
		})
		d.end(t)
		if allocs != 0 {
			t.Errorf("%v draws: the five's crowds allocate %v times a run, want 0", d, allocs)
		}
	}
}
