package report

import (
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// A figure's verdict follows its direction, and none where it is absent or
// has no direction.
func TestVerdict(t *testing.T) {
	tests := []struct {
		figure string
		a, b   int
		want   string
	}{
		{"retries", 800, 700, VerdictBetter},
		{"retries", 700, 800, VerdictWorse},
		{"retries", 700, 700, VerdictSame},
		{"peak_after_back", 20, 5, VerdictBetter},
		{"stable_from_ms", 30000, 10000, VerdictBetter},
		{"gave_up", 0, 3, VerdictWorse},
		{"latency_p99_ms", 100, 99, VerdictBetter},
		{"through", 164, 200, VerdictBetter},
		{"through", 200, 164, VerdictWorse},
		{"served", 1, 0, VerdictWorse},
		{"clients", 200, 300, VerdictNone},
		{"clients", 200, 200, VerdictSame},
		{"busiest_slot_from_ms", 400, 800, VerdictNone},
		{"slot_capacity", -1, -1, VerdictNone},
		{"all_through_by_ms", 15000, -1, VerdictNone},
		{"all_through_by_ms", -1, 15000, VerdictNone},
		{"all_through_by_ms", 15000, 14000, VerdictBetter},
	}
	for _, tt := range tests {
		ff, ok := backoff.FindField(tt.figure)
		if !ok {
			t.Fatalf("no figure %s", tt.figure)
		}
		if got := Verdict(ff, tt.a, tt.b); got != tt.want {
			t.Errorf("%s from %d to %d: got %s, want %s", tt.figure, tt.a, tt.b, got, tt.want)
		}
	}
}
