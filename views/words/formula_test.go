package words

import (
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

func TestFormula(t *testing.T) {
	s := backoff.Defaults()
	want := map[string]string{
		"fixed":         "wait = first",
		"exponential":   "wait = min(longest, first x 2^(n-1))",
		"full jitter":   "wait = random 0 to min(longest, first x 2^(n-1))",
		"equal jitter":  "wait = d/2 + random 0 to d/2, d = min(longest, first x 2^(n-1))",
		"decorrelated":  "wait = min(longest, random first to 3 x the previous wait), the previous starting at first",
		"grpc":          "wait = d - 0.2d to d + 0.2d at random, d = min(longest, first x 1.6^(n-1)) (may pass longest)",
		"client-go":     "wait = d to d + 0.1d at random, d = min(longest, first x 5^(n-1)) (may pass longest)",
		"polly":         "wait = first",
		"retryablehttp": "wait = min(longest, first x 2^(n-1))",
	}
	for name, f := range want {
		p, err := backoff.LookupPolicy(s, name)
		if err != nil {
			t.Fatal(err)
		}
		if got := Formula(p); got != f {
			t.Errorf("%s: got %q, want %q", name, got, f)
		}
	}
}

// Linear growth's base wait is n times the first wait, capped, and the
// multiplier, which it ignores, is never named: not x2, nor x1's "first".
func TestFormulaLinear(t *testing.T) {
	tests := []struct {
		jitter backoff.Jitter
		want   string
	}{
		{backoff.Jitter{}, "wait = min(longest, n x first)"},
		{backoff.Jitter{Kind: backoff.JitterFull}, "wait = random 0 to min(longest, n x first)"},
		{backoff.Jitter{Kind: backoff.JitterEqual}, "wait = d/2 + random 0 to d/2, d = min(longest, n x first)"},
		{backoff.Jitter{Kind: backoff.JitterSpread, Factor: 200}, "wait = d - 0.2d to d + 0.2d at random, d = min(longest, n x first) (may pass longest)"},
		{backoff.Jitter{Kind: backoff.JitterUp, Factor: 100}, "wait = d to d + 0.1d at random, d = min(longest, n x first) (may pass longest)"},
		// Decorrelated jitter reads neither the multiplier nor the growth.
		{backoff.Jitter{Kind: backoff.JitterDecorrelated}, "wait = min(longest, random first to 3 x the previous wait), the previous starting at first"},
	}
	for _, tt := range tests {
		for _, m := range []int{1000, 1600, 2000, 10000} {
			p := backoff.Policy{Name: "custom", FirstWait: 1000, LongestWait: 5000, Multiplier: m, Growth: backoff.GrowthLinear, Jitter: tt.jitter, Attempts: 6}
			if got := Formula(p); got != tt.want {
				t.Errorf("linear, x%s, jitter %s: got %q, want %q", backoff.FormatThousandths(m), tt.jitter, got, tt.want)
			}
		}
	}
}
