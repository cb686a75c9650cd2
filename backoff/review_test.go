package backoff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"testing"
)

func reviewN(def int) int {
	if v, err := strconv.Atoi(os.Getenv("REVIEW_N")); err == nil {
		return v
	}
	return def
}

// reviewCase draws settings and a policy aimed at one counting mode.
func reviewCase(rng *rand.Rand, mode int) (Policy, Settings) {
	s := Defaults()
	s.Capacity, s.Load, s.Budget = 0, 0, Budget{}
	s.Seed, s.Draws = pick(rng, 0, 999999), Draws(rng.IntN(2))
	p := randomPolicy(rng)
	switch mode {
	case 0: // narrow counts
		s.Clients = pick(rng, 1, 300)
		s.Slot = []int{1, 2, 3, 7, 100, 250, 1000, 60000}[rng.IntN(8)]
		s.Outage = pick(rng, 0, 30000)
	case 1: // wide counts
		p.Attempts = pick(rng, 20, 100)
		p.FirstWait = pick(rng, 1, 50)
		p.LongestWait = pick(rng, p.FirstWait, 3000)
		s.Clients = pick(rng, 700, 3500)
		s.Slot = []int{1, 7, 100, 1000}[rng.IntN(4)]
		s.Outage = pick(rng, 0, 30000)
	case 2: // marks
		s.Clients = []int{1, 2, 3, 40, 300, 2500}[rng.IntN(6)]
		s.Outage = []int{0, pick(rng, 1, 200000), 600000}[rng.IntN(3)]
		s.Slot = []int{1, 1, 2, 3}[rng.IntN(4)]
		p.LongestWait = pick(rng, max(p.FirstWait, 70000), MaxWait)
	}
	if rng.IntN(4) == 0 {
		s.Outage -= s.Outage % s.Slot // the outage's end on a slot's edge
	}
	if rng.IntN(8) == 0 {
		s.Outage = 0
	}
	if rng.IntN(6) == 0 {
		p.MaxElapsed = pick(rng, 0, max(1, s.Outage+p.LongestWait))
	}
	return p, s
}

func reviewMode(pl *plan, s Settings) string {
	n := fastSlots(pl, s)
	switch {
	case n <= maxCountSlots && s.Clients*pl.retries < 1<<16:
		return "narrow"
	case n <= maxCountSlots:
		return "wide"
	case n <= maxMarkSlots:
		return "marks"
	}
	return "sorted"
}

// Run (fast), the engine, the model, and one tally reused across modes
// (crowd called directly), all agree.
func TestReviewFastDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(77, uint64(reviewN(0))))
	shared := new(tally)
	seen := map[string]int{}
	n := reviewN(300)
	for i := range n {
		mode := []int{0, 0, 0, 1, 2, 2}[rng.IntN(6)]
		p, s := reviewCase(rng, mode)
		if err := p.Validate(); err != nil {
			continue
		}
		pl := newPlan(p, s.Draws)
		m := reviewMode(pl, s)
		if pl.same {
			seen[m+"/same"]++
		} else {
			seen[m]++
		}
		what := fmt.Sprintf("case %d (%s, %d slots): %+v under %+v", i, m, fastSlots(pl, s), p, s)
		want, _ := modelRun(p, s)
		fast, err := Run(p, s, Options{})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		sameFigures(t, what+" (fast)", fast.Figures, want)
		sameFigures(t, what+" (shared tally)", shared.crowd(pl, s), want)
		slow, err := Run(p, s, Options{Engine: true, Series: rng.IntN(3) == 0})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		sameFigures(t, what+" (engine)", slow.Figures, want)
		if slow.Series != nil {
			ws, err := Run(p, s, Options{Series: true})
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			sameFigures(t, what+" (fast with series)", ws.Figures, want)
			if !reflect.DeepEqual(ws.Series, slow.Series) {
				t.Fatalf("%s: series differ", what)
			}
		}
	}
	t.Logf("cases per mode: %v", seen)
}

// The sorted path (past maxMarkSlots) is reachable only through crowd
// directly: Run and RunSeeds send such runs to the engine.
func TestReviewSortedPathDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(78, uint64(reviewN(0))))
	shared := new(tally)
	n := reviewN(300) / 10
	sorted := 0
	defer func() { t.Logf("sorted cases: %d", sorted) }()
	for i := range n {
		s := Defaults()
		s.Clients, s.Slot, s.Draws = []int{1, 2, 5, 40, 300}[rng.IntN(5)], 1, Draws(rng.IntN(2))
		s.Outage, s.Seed = pick(rng, 20_000_000, MaxTime), pick(rng, 0, 999999)
		p := randomPolicy(rng)
		p.FirstWait, p.LongestWait, p.Attempts = pick(rng, 1, 1_000_000), MaxWait, pick(rng, 2, 40)
		p.Multiplier = pick(rng, 2000, 10000)
		if rng.IntN(4) == 0 {
			p.MaxElapsed = pick(rng, 17_000_000, MaxTime)
		} else {
			p.MaxElapsed = 0
		}
		pl := newPlan(p, s.Draws)
		if fastSlots(pl, s) <= maxMarkSlots {
			continue
		}
		sorted++
		what := fmt.Sprintf("case %d: %+v under %+v", i, p, s)
		want, _ := modelRun(p, s)
		sameFigures(t, what+" (sorted)", shared.crowd(pl, s), want)
		if i%5 == 0 {
			slow, _ := Run(p, s, Options{Engine: true})
			sameFigures(t, what+" (engine)", slow.Figures, want)
		}
		// interleave a small run to check the tally stays clean
		q, u := reviewCase(rng, rng.IntN(3))
		if q.Validate() == nil {
			w2, _ := modelRun(q, u)
			sameFigures(t, fmt.Sprintf("after case %d: %+v under %+v", i, q, u), shared.crowd(newPlan(q, u.Draws), u), w2)
		}
	}
}

// Many clients standing for one (no jitter): fast vs engine, huge crowds.
func TestReviewSameHuge(t *testing.T) {
	rng := rand.New(rand.NewPCG(79, 1))
	for i := range reviewN(300) / 3 {
		s := Defaults()
		s.Capacity, s.Load, s.Budget = 0, 0, Budget{}
		s.Clients = pick(rng, 60000, MaxClients)
		s.Slot = []int{1, 7, 100, 1000}[rng.IntN(4)]
		s.Outage = pick(rng, 0, 300000)
		p := randomPolicy(rng)
		p.Jitter = Jitter{}
		p.Attempts = pick(rng, 2, 100)
		pl := newPlan(p, s.Draws)
		if fastSlots(pl, s) > maxFastSlots {
			continue
		}
		what := fmt.Sprintf("case %d (%s): %+v under %+v", i, reviewMode(pl, s), p, s)
		fast, _ := Run(p, s, Options{})
		slow, _ := Run(p, s, Options{Engine: true})
		sameFigures(t, what, fast.Figures, slow.Figures)
	}
}
