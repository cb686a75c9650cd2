package backoff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomPlain draws valid settings in the reference's ranges, the edges of
// each range often.
func randomPlain(rng *rand.Rand) Settings {
	s := Defaults()
	s.FirstWait = pick(rng, 1, 10000)
	s.LongestWait = pick(rng, s.FirstWait, 600000)
	s.Attempts = pick(rng, 2, 12)
	s.Clients = pick(rng, 1, 1000)
	s.Outage = pick(rng, 0, 600000)
	s.Seed = pick(rng, 0, 999999)
	s.Slot = []int{1, 7, 100, 1000, 60000, 600000}[rng.IntN(6)]
	return s
}

// referenceWaits is one client's waits as the reference program draws them:
// its exponential wait, doubling while below the longest, and its
// generator, transcribed.
func referenceWaits(sh Shape, s Settings, client int) []int {
	state := uint64(s.Seed*1000 + client)
	next := func(lo, hi int) int {
		state = (1664525*state + 1013904223) % (1 << 32)
		return lo + int(state>>16)%(hi-lo+1)
	}
	var out []int
	last := s.FirstWait
	for k := 1; k < s.Attempts; k++ {
		e := Expo(s.FirstWait, s.LongestWait, k)
		var w int
		switch sh {
		case Fixed:
			w = s.FirstWait
		case Exponential:
			w = e
		case FullJitter:
			w = next(0, e)
		case EqualJitter:
			w = e/2 + next(0, e-e/2)
		default:
			w = min(next(s.FirstWait, 3*last), s.LongestWait)
			last = w
		}
		out = append(out, w)
	}
	return out
}

// referenceCrowd is the reference's crowd, transcribed: retries per slot,
// retries, through, the last through (-1 if none) and gave up.
func referenceCrowd(sh Shape, s Settings) (counts []int, retries, through, last, gaveUp int) {
	last = -1
	for client := 1; client <= s.Clients; client++ {
		at, ok := 0, false
		for _, w := range referenceWaits(sh, s, client) {
			if ok {
				continue
			}
			at += w
			retries++
			for len(counts) <= at/s.Slot {
				counts = append(counts, 0)
			}
			counts[at/s.Slot]++
			if at >= s.Outage {
				ok = true
				through++
				last = max(last, at)
			}
		}
		if !ok {
			gaveUp++
		}
	}
	return counts, retries, through, last, gaveUp
}

// The five as Policies over the settings wait exactly as the reference's
// five, for every client, over thousands of settings.
func TestFiveWaitAsTheReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 3000 {
		s := randomPlain(rng)
		client := 1 + rng.IntN(s.Clients)
		for _, sh := range Shapes() {
			got, want := Waits(s.Policy(sh), s, client), referenceWaits(sh, s, client)
			if !slices.Equal(got, want) {
				t.Fatalf("%v %+v client %d: got %v, want %v", sh, s, client, got, want)
			}
		}
	}
}

// The five's crowds give the reference's figures: retries, the busiest slot
// and where it starts, all through by, gave up; and every slot's retries.
func TestFiveCrowdsAsTheReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 99))
	settings := []Settings{Defaults(), largest()}
	for range 300 {
		settings = append(settings, randomPlain(rng))
	}
	for _, s := range settings {
		results, err := runAll(t, s.Five(), s, Options{}, 2)
		if err != nil {
			t.Fatal(err)
		}
		for i, sh := range Shapes() {
			counts, retries, through, last, gaveUp := referenceCrowd(sh, s)
			most, at := 0, -1
			for i, c := range counts {
				if c > most {
					most, at = c, i
				}
			}
			f := results[i].Figures
			if f.Retries != retries || f.Through != through || f.AllThroughBy != last || f.GaveUp != gaveUp ||
				f.MostInASlot != most || f.BusiestSlotFrom != at*s.Slot {
				t.Fatalf("%v %+v: got %+v, want retries %d through %d last %d gave up %d busiest %d from %d",
					sh, s, f, retries, through, last, gaveUp, most, at*s.Slot)
			}
			if f.Attempts != s.Clients+retries || f.Served != through || f.Clients != s.Clients || f.OutOfTime != 0 || f.Throttled != 0 {
				t.Fatalf("%v %+v: got %+v", sh, s, f)
			}
			withSeries, err := run(t, s.Policy(sh), s, Options{Series: true})
			if err != nil {
				t.Fatal(err)
			}
			if withSeries.Figures != f {
				t.Fatalf("%v %+v: with a series got %+v, without %+v", sh, s, withSeries.Figures, f)
			}
			if !slices.Equal(withSeries.Series.Retries, counts) {
				t.Fatalf("%v %+v: retries per slot differ from the reference's", sh, s)
			}
		}
	}
}

// Every drawn wait is inside its band, under both draws, for every kind of
// jitter; and no base wait passes the longest wait.
func TestWaitsStayInTheirBands(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for range 4000 {
		p := randomPolicy(rng)
		s := Defaults()
		s.Draws, s.Seed = Draws(rng.IntN(2)), pick(rng, 0, 999999)
		client := pick(rng, 1, MaxClients)
		sc := ScheduleOf(p, s, client)
		if len(sc.Retries) != p.Attempts-1 {
			t.Fatalf("%+v: got %d retries, want %d", p, len(sc.Retries), p.Attempts-1)
		}
		prev := p.FirstWait
		for k, r := range sc.Retries {
			lo, hi := p.Band(k+1, prev)
			if r.Wait < lo || r.Wait > hi || r.Low != lo || r.High != hi || lo < 0 {
				t.Fatalf("%+v client %d retry %d: got %d in [%d, %d], band [%d, %d]", p, client, k+1, r.Wait, r.Low, r.High, lo, hi)
			}
			if d := p.Base(k + 1); d > p.LongestWait || d < min(p.FirstWait, p.LongestWait) {
				t.Fatalf("%+v: base wait %d before retry %d", p, d, k+1)
			}
			if r.Wait > p.LongestDraw() {
				t.Fatalf("%+v: wait %d past LongestDraw %d", p, r.Wait, p.LongestDraw())
			}
			prev = r.Wait
		}
	}
}

// At 100 attempts and a multiplier of 10, nothing overflows: the base wait
// stays at the longest, the schedule's times add up.
func TestNoOverflowAtTheTop(t *testing.T) {
	for _, j := range []Jitter{{}, {Kind: JitterFull}, {Kind: JitterSpread, Factor: 1000}, {Kind: JitterUp, Factor: 1000}, {Kind: JitterDecorrelated}} {
		p := Policy{Name: "top", FirstWait: MaxWait, LongestWait: MaxWait, Multiplier: 10000, Jitter: j, Attempts: MaxAttempts}
		q := p
		q.FirstWait = 1
		for _, p := range []Policy{p, q} {
			if d := p.Base(MaxAttempts - 1); d != MaxWait {
				t.Errorf("%+v: base before retry 99: got %d, want %d", p, d, MaxWait)
			}
			for _, d := range []Draws{Reference, Independent} {
				s := Defaults()
				s.Draws, s.Outage = d, math.MaxInt32
				sc := ScheduleOf(p, s, 1)
				sum := 0
				for _, r := range sc.Retries {
					sum += r.Wait
					if r.At != sum || r.Wait < 0 || r.Wait > 2*MaxWait {
						t.Fatalf("%+v %v: retry %d at %d after %d, want at %d", p, d, r.Attempt, r.At, r.Wait, sum)
					}
				}
			}
		}
	}
	if got := Expo(1, math.MaxInt, 200); got != math.MaxInt {
		t.Errorf("Expo(1, MaxInt, 200): got %d", got)
	}
}

func TestSchedule(t *testing.T) {
	s := Defaults()
	sc := ScheduleOf(s.Policy(Exponential), s, 1)
	var got []string
	for _, r := range sc.Retries {
		got = append(got, fmt.Sprintf("%d %d %d %v", r.Attempt, r.Wait, r.At, r.Outcome))
	}
	want := []string{"2 1000 1000 down", "3 2000 3000 down", "4 4000 7000 down", "5 8000 15000 through", "6 16000 31000 not needed"}
	if !slices.Equal(got, want) {
		t.Fatalf("schedule: got %v, want %v", got, want)
	}
	if sc.End != EndThrough || sc.Made != 5 || sc.Total != 15000 || sc.DrawnTotal() != 31000 {
		t.Errorf("end: got %v, %d made, total %d, drawn %d; want through, 5, 15000, 31000", sc.End, sc.Made, sc.Total, sc.DrawnTotal())
	}
	fixed := ScheduleOf(s.Policy(Fixed), s, 1)
	if fixed.End != EndGaveUp || fixed.Made != 6 || fixed.Total != 5000 {
		t.Errorf("fixed: got %v, %d made, total %d; want gave up, 6, 5000", fixed.End, fixed.Made, fixed.Total)
	}
	limited := s.Policy(Exponential)
	limited.MaxElapsed = 7000
	lim := ScheduleOf(limited, s, 1)
	if lim.End != EndOutOfTime || lim.Made != 4 || lim.Total != 7000 || lim.Retries[3].Outcome != PastLimit || lim.Retries[4].Outcome != PastLimit {
		t.Errorf("limit 7000 ms: got %+v", lim)
	}
}
