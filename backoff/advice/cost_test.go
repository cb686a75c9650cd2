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
