package report

import (
	"strings"
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

// The settings that differ name custom's own waits by the values it runs
// at: following the five's 16 s is 16000 ms, and a follow that changes
// nothing is no difference (issue 19, item 2).
func TestSettingsDiffOfCustomsOwn(t *testing.T) {
	a := backoff.Defaults()
	grpc, _ := backoff.FindPreset("grpc")
	got := strings.Join(settingsDiff(a, a.WithPreset(grpc)), "; ")
	want := "--multiplier 2 to 1.6; --custom-longest 16000 to 120000 ms; --custom-attempts 6 to 5; --jitter none to spread:0.2"
	if got != want {
		t.Errorf("A the defaults, B grpc's: got %q, want %q", got, want)
	}
	five := a
	five.Attempts = 5 // custom follows on both sides: the five's flag says it
	if got := strings.Join(settingsDiff(a, five), "; "); got != "--attempts 6 to 5" {
		t.Errorf("the five's attempts 6 to 5: got %q, want --attempts alone", got)
	}
	b := a
	b.CustomFirstWait, b.CustomAttempts = a.FirstWait, a.Attempts // its own, at the five's values
	if got := settingsDiff(a, b); len(got) != 0 {
		t.Errorf("custom's own at the five's values: got %q, want no difference", got)
	}
}

// A and B whose own policies grow differently say so, as the flag writes
// it; the multiplier's line stays as it is, ignored or not.
func TestSettingsDiffOfTheGrowth(t *testing.T) {
	a := backoff.Defaults()
	b := a
	b.Growth = backoff.GrowthLinear
	if got := strings.Join(settingsDiff(a, b), "; "); got != "--growth exponential to linear" {
		t.Errorf("A exponential, B linear: got %q, want --growth exponential to linear", got)
	}
	b.Multiplier = 3000
	if got, want := strings.Join(settingsDiff(b, a), "; "), "--multiplier 3 to 2; --growth linear to exponential"; got != want {
		t.Errorf("A linear x3, B exponential x2: got %q, want %q", got, want)
	}
}
