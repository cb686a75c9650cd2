package plan

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff/advice"
)

// randomGoals are some goals, each at an end of its range or next to one
// half the time.
func randomGoals(r *rand.Rand) advice.Goals {
	var gs advice.Goals
	for _, gk := range goalKeyList() {
		if r.IntN(2) == 0 {
			gs = gs.With(advice.Goal{Kind: gk.kind, Limit: pick(r, gk.low, gk.high)})
		}
	}
	return gs
}

func goalsPlan(texts ...string) Plan {
	p := Default()
	for _, text := range texts {
		g, err := advice.ParseGoal(text)
		if err != nil {
			panic(err)
		}
		p.Goals = p.Goals.With(g)
	}
	return p
}

// A plan with goals writes its [goals] table, every key with its comment,
// those not set commented with an example, and reads back as itself; a
// plan without writes none.
func TestPlanGoals(t *testing.T) {
	p := goalsPlan("not-through<=0.5%", "recovered<=2m", "peak<=1.5x", "attempts<=3x")
	text := Encode(p)
	for _, want := range []string{"\n[goals]\n", "\nnot_through_percent = 0.5\n", "\nrecovered_after_ms = 120000\n", "\npeak_times_capacity = 1.5\n",
		"\n# peak_per_second = 5000\n", "\n# latency_p99_ms = 30000\n", "\nattempts_per_client = 3.0\n",
		"# What advise searches for (retry-planner help goals)"} {
		if !strings.Contains(text, want) {
			t.Errorf("Encode: no %q in\n%s", want, text)
		}
	}
	got, err := Decode("goals.toml", []byte(text))
	if err != nil || !got.Equal(p) {
		t.Fatalf("Decode: %+v, %v; want %+v", got.Goals, err, p.Goals)
	}
	if strings.Contains(Encode(Default()), "[goals]") {
		t.Error("a plan without goals writes a [goals] table")
	}
	if got := CommandLine(p); !strings.HasSuffix(got, " --goal 'not-through<=0.5%' --goal 'recovered<=120s' --goal 'peak<=1.5x' --goal 'attempts<=3x'") {
		t.Errorf("CommandLine: %s", got)
	}
	// A duration string, a whole number for a decimal, the last key of a kind.
	text = "[goals]\nrecovered_after_ms = \"1m30s\"\nattempts_per_client = 2\nlatency_p99_ms = 1500\npeak_per_second = 5_000\n"
	got, err = Decode("goals.toml", []byte(text))
	if want := goalsPlan("recovered<=90s", "attempts<=2x", "p99<=1500ms", "peak<=5000/s"); err != nil || !got.Equal(want) {
		t.Errorf("Decode(%q): %v, %v; want %v", text, got.Goals, err, want.Goals)
	}
}

// Each goal's key refuses what its goal refuses, in one line naming the
// file, the line and what it takes; the bounds themselves are taken.
func TestPlanGoalsRefused(t *testing.T) {
	tests := []struct{ text, want string }{
		{"[goals]\nnot_through_percent = 100.001\n", "goals.toml:2: goals.not_through_percent = 100.001: want a decimal from 0 to 100 with at most three decimals"},
		{"[goals]\nnot_through_percent = 0.0001\n", "goals.toml:2: goals.not_through_percent = 0.0001: want a decimal from 0 to 100 with at most three decimals"},
		{"[goals]\nnot_through_percent = \"1%\"\n", `goals.toml:2: goals.not_through_percent = "1%": want a decimal from 0 to 100 with at most three decimals, not a string`},
		{"\n[goals]\nrecovered_after_ms = 86400001\n", "goals.toml:3: goals.recovered_after_ms = 86400001: want a time from 0 to 86400000 ms: whole milliseconds, or a duration string such as \"1.5s\""},
		{"[goals]\nrecovered_after_ms = \"soon\"\n", `goals.toml:2: goals.recovered_after_ms = "soon": want a time from 0 to 86400000 ms`},
		{"[goals]\npeak_times_capacity = -1\n", "goals.toml:2: goals.peak_times_capacity = -1: want a decimal from 0 to 100000 with at most three decimals"},
		{"[goals]\npeak_per_second = 1_000_000_001\n", "goals.toml:2: goals.peak_per_second = 1000000001: want a whole number from 0 to 1000000000"},
		{"[goals]\npeak_per_second = 1.5\n", "goals.toml:2: goals.peak_per_second = 1.5: want a whole number from 0 to 1000000000, not a decimal"},
		{"[goals]\nattempts_per_client = 0.999\n", "goals.toml:2: goals.attempts_per_client = 0.999: want a decimal from 1 to 100 with at most three decimals"},
		{"[goals]\nlatency = 1\n", "goals.toml:2: goals.latency: not a key of [goals], which takes not_through_percent, recovered_after_ms, peak_times_capacity, peak_per_second, latency_p99_ms and attempts_per_client"},
	}
	for _, tt := range tests {
		_, err := Decode("goals.toml", []byte(tt.text))
		var pe *Error
		if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Decode(%q):\n got  %v\n want %s", tt.text, err, tt.want)
		}
	}
	for _, text := range []string{"[goals]\nnot_through_percent = 100\nattempts_per_client = 1\npeak_times_capacity = 0\n",
		"[goals]\nnot_through_percent = 0.001\nattempts_per_client = 100.0\npeak_per_second = 1_000_000_000\nrecovered_after_ms = 0\n"} {
		if _, err := Decode("goals.toml", []byte(text)); err != nil {
			t.Errorf("Decode(%q): %v, want the bounds taken", text, err)
		}
	}
}
