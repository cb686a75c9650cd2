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
