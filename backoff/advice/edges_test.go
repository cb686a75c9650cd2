package advice

import (
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// Two candidates show the same figures only where their clients lost are
// the same too: the same spreads and verdicts with another seed's share
// lost are not one line.
func TestSameFiguresWeighsTheLost(t *testing.T) {
	a := Candidate{Lost: Share{NotThrough: 5, Touched: 100}}
	b := a
	if !sameFigures(a, b) {
		t.Fatal("identical candidates: not the same figures")
	}
	b.Lost.NotThrough = 6
	if sameFigures(a, b) {
		t.Error("5 and 6 of 100 lost: the same figures")
	}
}

// A comma right after a number's last digit at the very end is a comma
// with no goal after it, said in one line, never a read past the text; one
// between a digit and a goal's name parts two goals (only a comma between
// two digits groups them).
func TestParseGoalsTrailingCommaAfterADigit(t *testing.T) {
	for _, text := range []string{"recovered<=60000,", "p99<=1,"} {
		if _, err := ParseGoals(text); err == nil {
			t.Errorf("ParseGoals(%q): no error", text)
		}
	}
	if gs, err := ParseGoals("recovered_after_ms<=60000,p99<=1s"); err != nil || gs.Len() != 2 {
		t.Errorf("a comma after a digit before a name: got %v, %v; want two goals", gs, err)
	}
}

// The queue's remedies take a queue of 1 (a capacity of 1 a second with a
// 1 s timeout works off 1 request within it; a tenth of 10 is 1 too).
func TestQueueRemediesTakeAQueueOfOne(t *testing.T) {
	s := backoff.Defaults()
	s.Capacity, s.Queue, s.Timeout = 1, 10, 1000
	found := false
	for _, r := range queueRemedies(s) {
		found = found || r.Queue == 1 && !r.DropExpired
	}
	if !found {
		t.Errorf("no queue of 1 among %+v", queueRemedies(s))
	}
}

// Longest waits bound nothing only where every wait stays below the least
// of them: decorrelated from a first wait of 1 s over 2 attempts draws at
// most 3 s, which a longest wait of exactly 3 s bounds (3 s is reached),
// and 3.001 s does not.
func TestNeverReachedOnItsBoundary(t *testing.T) {
	s := backoff.Defaults()
	p := backoff.Policy{Name: "custom", FirstWait: 1000, LongestWait: 3000, Attempts: 2, Multiplier: 2000,
		Jitter: backoff.Jitter{Kind: backoff.JitterDecorrelated}}
	q := p
	q.LongestWait = 9000
	at := func(least int) []Candidate {
		a, b := p, q
		a.LongestWait = least
		return []Candidate{{Source: FromGrid, Policy: a, Settings: s}, {Source: FromGrid, Policy: b, Settings: s}}
	}
	if NeverReached(at(3000)) {
		t.Error("a longest wait of 3 s against draws up to 3 s: never reached")
	}
	if !NeverReached(at(3001)) {
		t.Error("a longest wait of 3.001 s against draws up to 3 s: reached")
	}
}
