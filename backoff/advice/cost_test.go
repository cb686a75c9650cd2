package advice

import (
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// The search's cost never overflows (issue 25.11): at the largest
// scenario, seeds and cores, every product saturates, and the cost stays
// positive.
func TestSearchCostSaturates(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Attempts, s.FirstWait, s.LongestWait, s.Outage = backoff.MaxClients, backoff.MaxAttempts, 1, backoff.MaxWait, backoff.MaxTime
	s.Load, s.LoadUntil, s.Capacity = backoff.MaxLoad, 10_000, 1
	sr := Search{Settings: s, Seeds: backoff.MaxSeeds, Goals: mustGoals(t, "not-through<=1%")}
	c := sr.Cost(1 << 20)
	if c.Work <= 0 || c.Bytes <= 0 || c.Span <= 0 || c.Span > c.Work || c.Parallel < 1 {
		t.Errorf("the largest search: %+v, want positive work, memory and span, the span within the work", c)
	}
}

// The search's cost follows its phases: more seeds, the service's
// remedies, a worker more each cost what they add and no less.
func TestSearchCostFollowsThePhases(t *testing.T) {
	sr := Search{Settings: small(), Seeds: 1, Goals: mustGoals(t, "not-through<=10%")}
	one := sr.Cost(2)
	sr.Seeds = 20
	twenty := sr.Cost(2)
	sr.AlsoService = true
	remedies := sr.Cost(2)
	if !(one.Work < twenty.Work && twenty.Work < remedies.Work) {
		t.Errorf("1 seed %d, 20 seeds %d, with the remedies %d: want each more than the one before", one.Work, twenty.Work, remedies.Work)
	}
	if one.Span > one.Work || one.Parallel != 2 || sr.Cost(1).Parallel != 1 {
		t.Errorf("1 seed %+v: want a span within the work, 2 workers (and 1 where 1 is given)", one)
	}
	if secs := twenty.Seconds(2); secs <= 0 || secs > 60 {
		t.Errorf("a search of 300 clients over 20 seeds: %.1f s, want a few seconds at most", secs)
	}
}
