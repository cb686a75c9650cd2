package report

import (
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// A figure's verdict follows its direction, and none where it is absent or
// has no direction; the clients not through and through follow the
// clients each side leaves not through (words.Judge).
func TestVerdict(t *testing.T) {
	even := words.Lost{NotThrough: 10, Clients: 100, Touched: 100}
	of200 := func(notThrough int) words.Lost { return words.Lost{NotThrough: notThrough, Clients: 200, Touched: 200} }
	tests := []struct {
		figure       string
		a, b         int
		lostA, lostB words.Lost
		want         string
	}{
		{"retries", 800, 700, even, even, VerdictBetter},
		{"retries", 700, 800, even, even, VerdictWorse},
		{"retries", 700, 700, even, even, VerdictSame},
		{"peak_after_back", 20, 5, even, even, VerdictBetter},
		{"stable_from_ms", 30000, 10000, even, even, VerdictBetter},
		{"gave_up", 0, 3, even, even, VerdictWorse},
		{"latency_p99_ms", 100, 99, even, even, VerdictBetter},
		{"through", 164, 200, of200(36), of200(0), VerdictBetter},
		{"through", 200, 164, of200(0), of200(36), VerdictWorse},
		{"not_through", 36, 0, of200(36), of200(0), VerdictBetter},
		// Issue 25, item 2: A 90 of 100 through against B 150 of 200: B
		// leaves 25% not through against A's 10%, worse on both.
		{"through", 90, 150, even, words.Lost{NotThrough: 50, Clients: 200, Touched: 200}, VerdictWorse},
		{"not_through", 10, 50, even, words.Lost{NotThrough: 50, Clients: 200, Touched: 200}, VerdictWorse},
		// A longer window that adds 800 clients who all get through: the
		// same share of the clients touched, neither better nor worse.
		{"through", 90, 890, even, words.Lost{NotThrough: 10, Clients: 900, Touched: 100}, VerdictNone},
		{"served", 1, 0, even, even, VerdictWorse},
		{"clients", 200, 300, even, even, VerdictNone},
		{"clients", 200, 200, even, even, VerdictSame},
		{"busiest_slot_from_ms", 400, 800, even, even, VerdictNone},
		{"slot_capacity", -1, -1, even, even, VerdictNone},
		{"all_through_by_ms", 15000, -1, even, even, VerdictNone},
		{"all_through_by_ms", -1, 15000, even, even, VerdictNone},
		{"all_through_by_ms", 15000, 14000, even, even, VerdictBetter},
	}
	for _, tt := range tests {
		ff, ok := backoff.FindField(tt.figure)
		if !ok {
			t.Fatalf("no figure %s", tt.figure)
		}
		if got := Verdict(ff, tt.a, tt.b, tt.lostA, tt.lostB); got != tt.want {
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
