package report

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
)

// handAdvice is an answer written by hand: two seeds of the metastable
// scenario, one candidate that meets both goals and, for closest, one that
// misses the recovery.
func handAdvice(meets bool) Advised {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Load, s.LoadUntil, s.Queue, s.Timeout, s.Draws = 2000, 30000, 100, 95, 300000, 1000, 1000, backoff.Independent
	goals := advice.Goals{}.With(advice.Goal{Kind: advice.NotThrough, Limit: 20000}).With(advice.Goal{Kind: advice.Recovered, Limit: 120000})
	sr := advice.Search{Settings: s, Seeds: 2, Goals: goals}
	fig := func(notThrough, recovered int) backoff.Figures {
		return backoff.Figures{Clients: 30500, ClientsTouched: 30500, Attempts: 30504, NotThrough: notThrough, RecoveredAfter: recovered, PeakAfterBack: 10, LatencyP99: 9,
			SlotCapacity: 10, AllThroughBy: 299999, BusiestSlotFrom: 0, PeakAfterBackFrom: 30000, LatencyP50: 0, LatencyMax: 20, CrowdAllThroughBy: -1}
	}
	cs := s
	cs.Budget = backoff.Budget{Kind: backoff.BudgetGRPC, A: 10, B: 100}
	c := advice.Candidate{Source: advice.FromFive, Policy: s.Policy(backoff.FullJitter), Settings: cs, Seeds: 2}
	figs := []backoff.Figures{fig(4850, 0), fig(4850, 0)}
	if !meets {
		figs = []backoff.Figures{fig(4850, 150000), fig(4850, 150000)}
	}
	c.Spread = backoff.SpreadOf(c.Policy, figs)
	c.Verdicts = goals.Judge(cs, figs)
	adv := advice.Advice{Search: sr, Tried: 509, BySource: [4]int{65, 91, 0, 353}, Refined: 5, Budgets: 12,
		Rounds: []advice.Round{{Candidates: 509, Seeds: 1}, {Candidates: 30, Seeds: 2}}, Crowds: 560}
	if meets {
		adv.Meets = []advice.Candidate{c}
	} else {
		adv.Closest = []advice.Candidate{c}
	}
	return Advised{Advice: adv, Command: func(advice.Candidate) string { return "retry-planner crowd --policies full-jitter --seeds 2" }}
}

func TestAdviceText(t *testing.T) {
	text := AdviceText(handAdvice(true))
	for _, want := range []string{
		"The scenario: 2,000 clients fail at 0 ms; the service is back at 30000 ms.\n",
		"Goals, each held at the 95th percentile over 2 seeds, 7 to 8, independent draws (a value equal to a goal meets it): not-through<=20% (of the clients touched: those that start by the run's last failure), recovered<=120s.\n",
		"Tried 509 candidates: the five and the 7 presets, alone and with each of 12 budgets; 353 policies of your own from a grid and near its best (5), the best 8 also with the budgets. Every one ran on seed 7, the 30 most promising on all 2: 560 crowds in all.\n",
		"1 candidate meets every goal:\n\n1. full jitter, budget grpc:10:0.1\n",
		"   meets not-through<=20%: not through 15.9% (4,850 of 30,500 touched), goal 20% (at most 6,100)\n",
		"   meets recovered<=120s: recovered 0 ms, goal 2 min\n",
		"   figure                  median         p95\n   attempts                 30504       30504   (1 a client)\n",
		"   recovered after           0 ms        0 ms\n",
		"   retry-planner crowd --policies full-jitter --seeds 2\n",
		"Every figure and every verdict above is over all 2 seeds, 7 to 8, exactly what the candidate's command gives with crowd --seeds.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	// Crowds stopped part way are said beside the first round: one
	// stopped is said, none is not.
	stopped := handAdvice(true)
	stopped.Advice.Stopped = 1
	if want := "Every one ran on seed 7 (1 of the grid's crowds stopped part way, each certain to lose), the 30 most promising on all 2: 560 crowds in all.\n"; !strings.Contains(AdviceText(stopped), want) {
		t.Errorf("no %q in\n%s", want, AdviceText(stopped))
	}
	if strings.Contains(text, "stopped part way") {
		t.Errorf("none stopped, yet said so:\n%s", text)
	}
	closest := AdviceText(handAdvice(false))
	for _, want := range []string{"No candidate meets every goal. The closest, with what each misses and by how much:\n",
		"   MISSES recovered<=120s: recovered 2 min 30 s, goal 2 min\n"} {
		if !strings.Contains(closest, want) {
			t.Errorf("no %q in\n%s", want, closest)
		}
	}
}

func TestAdviceDocAndCSV(t *testing.T) {
	var doc struct {
		CandidatesTried int `json:"candidates_tried"`
		Seeds           struct{ First, Last, Count int }
		Goals           []struct {
			Goal, Figure string
			Limit        json.Number
		}
		Meets, Closest []struct {
			Policy, Budget, Command string
			Meets                   bool
			GoalsMet                []string `json:"goals_met"`
			Figures                 map[string]struct{ Median, P95 *int }
			Settings                struct{ Budget string }
		}
	}
	if err := json.Unmarshal([]byte(AdviceDoc(handAdvice(false))), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.CandidatesTried != 509 || doc.Seeds.Count != 2 || doc.Seeds.Last != 8 || len(doc.Goals) != 2 || doc.Goals[0].Limit != "20" ||
		doc.Meets == nil || len(doc.Meets) != 0 || len(doc.Closest) != 1 {
		t.Fatalf("got %+v", doc)
	}
	c := doc.Closest[0]
	if c.Policy != "full jitter" || c.Budget != "grpc:10:0.1" || c.Settings.Budget != "grpc:10:0.1" || c.Meets ||
		len(c.GoalsMet) != 1 || c.GoalsMet[0] != "not-through<=20%" || *c.Figures["recovered_after_ms"].P95 != 150000 || c.Command == "" {
		t.Errorf("got %+v", c)
	}
	csv := strings.Split(strings.TrimSpace(AdviceCSV(handAdvice(true))), "\n")
	if len(csv) != 2 || !strings.Contains(csv[0], ",goal_1,goal_1_figure,goal_1_p95,goal_1_most,goal_1_met,") ||
		!strings.HasPrefix(csv[1], "1,meets,\"full jitter, budget grpc:10:0.1\",full jitter,five,grpc:10:0.1,") {
		t.Errorf("CSV:\n%s", strings.Join(csv, "\n"))
	}
}

// The ranking in words: how candidates that meet every goal are ranked,
// the key that put each above the next and its two values, and one line
// for candidates of the same figures that differ in one setting (issue 24
// item 4).
func TestAdviceRankedAndAlike(t *testing.T) {
	s := backoff.Defaults()
	goals := advice.Goals{}.With(advice.Goal{Kind: advice.Recovered, Limit: 240000}).With(advice.Goal{Kind: advice.NotThrough, Limit: 10000})
	sr := advice.Search{Settings: s, Seeds: 1, Goals: goals}
	dec := func(longest int) backoff.Policy {
		return backoff.Policy{Name: "custom", FirstWait: 1000, LongestWait: longest, Multiplier: 2000, Attempts: 3,
			Jitter: backoff.Jitter{Kind: backoff.JitterDecorrelated}}
	}
	cand := func(p backoff.Policy, recovered, notThrough int) advice.Candidate {
		f := backoff.Figures{Clients: 1000, ClientsTouched: 600, NotThrough: notThrough, RecoveredAfter: recovered, Attempts: 2500, LatencyP99: 5000}
		c := advice.Candidate{Source: advice.FromGrid, Policy: p, Settings: s, Seeds: 1, Lost: advice.Share{NotThrough: notThrough, Touched: 600}}
		c.Spread = backoff.SpreadOf(p, []backoff.Figures{f})
		c.Verdicts = goals.Judge(s, []backoff.Figures{f})
		return c
	}
	first := cand(dec(30000), 36800, 12)
	first.RankedBy = advice.Recovered
	first.Alike = []advice.Candidate{cand(dec(120000), 36800, 12), cand(dec(60000), 36800, 12)}
	second := cand(dec(10000), 41200, 3)
	second.RankedBy = advice.NotThrough
	third := cand(dec(5000), 41200, 4)
	third.RankedBy = -1
	adv := advice.Advice{Search: sr, Tried: 3, Rounds: []advice.Round{{Candidates: 3, Seeds: 1}}, Crowds: 3, Meets: []advice.Candidate{first, second, third}}
	text := AdviceText(Advised{Advice: adv, Command: func(advice.Candidate) string { return "retry-planner crowd" }})
	if line := AlikeLine(second, s); line != "" {
		t.Errorf("a candidate alone: %q", line)
	}
	two := cand(dec(10000), 41200, 3)
	two.Alike = []advice.Candidate{cand(backoff.Policy{Name: "custom", FirstWait: 500, LongestWait: 10000, Multiplier: 1500, Attempts: 3,
		Jitter: backoff.Jitter{Kind: backoff.JitterDecorrelated}}, 41200, 3)}
	if got, want := AlikeLine(two, s), "the same figures: custom (first 500 ms, x1.5, longest 10000 ms, jitter decorrelated, 3 attempts)"; got != want {
		t.Errorf("two settings apart: got %q, want %q", got, want)
	}
	for _, want := range []string{
		"3 candidates meet every goal, ranked by recovery, then clients not through (a share of those touched), p99 latency and attempts, each at the 95th percentile (your goals first, in the order given):\n",
		"\n1. custom (first 1000 ms, x2, longest 30000 ms, jitter decorrelated, 3 attempts)\n   the same figures with longest wait 30 s to 2 min (never reached): 3 candidates, one line\n   ranked above #2 by recovery: 36.8 s against 41.2 s\n",
		"\n2. custom (first 1000 ms, x2, longest 10000 ms, jitter decorrelated, 3 attempts)\n   ranked above #3 by clients not through (a share of those touched): 0.5% (3 of 600 touched) against 0.7% (4 of 600 touched)\n",
		"\n3. custom (first 1000 ms, x2, longest 5000 ms, jitter decorrelated, 3 attempts)\n   meets ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	var doc struct {
		Meets []struct {
			RankedBy *string `json:"ranked_by"`
			Alike    *struct {
				Setting      string
				Values       []int
				Candidates   []string
				NeverReached bool `json:"never_reached"`
			}
		}
	}
	if err := json.Unmarshal([]byte(AdviceDoc(Advised{Advice: adv, Command: func(advice.Candidate) string { return "x" }})), &doc); err != nil {
		t.Fatal(err)
	}
	m := doc.Meets
	if len(m) != 3 || *m[0].RankedBy != "recovered_after_ms" || *m[1].RankedBy != "not_through" || m[2].RankedBy != nil ||
		m[0].Alike == nil || m[0].Alike.Setting != "longest_wait_ms" || !reflect.DeepEqual(m[0].Alike.Values, []int{30000, 120000, 60000}) ||
		len(m[0].Alike.Candidates) != 3 || !m[0].Alike.NeverReached || m[1].Alike != nil {
		t.Errorf("got %+v", m)
	}
}
