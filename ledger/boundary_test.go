package ledger

import (
	"errors"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// A retry exactly at the limit on total time is made. Job a:9 fails 9
// times; a fixed wait of 1 s puts its attempts at 0, 1000, 2000 and 3000
// ms. With a limit of 3,000 ms the one at 3000 is not more than 3000 after
// the first: made, the fourth attempt; the next, at 4000, would pass it:
// out of time after 4 attempts, 3 waits of 1000 ms. (With >= for >, 3
// attempts.) A limit of 2,999 ms stops it after 3.
func TestLedgerLimitOnTotalTimeExactly(t *testing.T) {
	for _, tt := range []struct {
		limit, attempts, waited int
	}{
		{3000, 4, 3000},
		{2999, 3, 2000},
	} {
		s := backoff.Defaults()
		fixed := s.Policy(backoff.Fixed)
		fixed.MaxElapsed = tt.limit
		r := RunAllUnder([]Job{{Name: "a", Failures: 9}}, fixed, s)
		var late *OutOfTimeError
		if !errors.As(r.Results[0].Err, &late) || late.Attempts != tt.attempts || r.Results[0].Attempt != tt.attempts {
			t.Errorf("limit %d: got %v after attempt %d, want out of time after %d attempts", tt.limit, r.Results[0].Err, r.Results[0].Attempt, tt.attempts)
		}
		if n := len(r.Ledger.Entries); n != tt.attempts || r.Ledger.Entries[n-1].Outcome != OutOfTime || r.Ledger.Waited != tt.waited {
			t.Errorf("limit %d: got %d entries, the last %+v, %d ms waited; want %d, out of time, %d ms",
				tt.limit, n, r.Ledger.Entries[n-1], r.Ledger.Waited, tt.attempts, tt.waited)
		}
		if r.OutOfTime != 1 || !r.Ledger.Balanced() {
			t.Errorf("limit %d: got %+v, want 1 out of time and a balanced ledger", tt.limit, r)
		}
	}
}

// Balanced holds only when the deferred count ran once per attempt and
// every attempt ended done or failed, once.
func TestBalanced(t *testing.T) {
	for _, tt := range []struct {
		name string
		l    Ledger
		want bool
	}{
		{"every attempt counted", Ledger{Attempts: 3, Successes: 1, Failures: 2, FinallyRuns: 3}, true},
		{"nothing ran", Ledger{}, true},
		{"the deferred count missed one", Ledger{Attempts: 3, Successes: 1, Failures: 2, FinallyRuns: 2}, false},
		{"the deferred count ran twice for one", Ledger{Attempts: 3, Successes: 1, Failures: 2, FinallyRuns: 4}, false},
		{"an attempt that neither succeeded nor failed", Ledger{Attempts: 3, Successes: 1, Failures: 1, FinallyRuns: 3}, false},
		{"an attempt counted both ways", Ledger{Attempts: 3, Successes: 2, Failures: 2, FinallyRuns: 3}, false},
	} {
		if got := tt.l.Balanced(); got != tt.want {
			t.Errorf("%s: %+v: got %v, want %v", tt.name, tt.l, got, tt.want)
		}
	}
}
