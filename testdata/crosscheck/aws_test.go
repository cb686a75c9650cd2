package crosscheck

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
)

// TestAWSFlatFromTheFifthRetry pins the legacy ExponentialJitterBackoff's
// cap: once attempt > int(log2(MaxBackoff/1s)) = int(log2(20)) = 4, it
// returns MaxBackoff itself, 20 s, no jitter, where our preset would draw
// u(0, 20000). The preset's 3 attempts never get there; its help says so.
func TestAWSFlatFromTheFifthRetry(t *testing.T) {
	j := retry.NewExponentialJitterBackoff(retry.DefaultMaxBackoff)
	for attempt := 5; attempt <= 8; attempt++ {
		for range 100 {
			got, err := j.BackoffDelay(attempt, nil)
			if err != nil || got != 20*time.Second {
				t.Fatalf("BackoffDelay(%d): got %v, %v, want 20s, nil", attempt, got, err)
			}
		}
	}
	// The fourth is still drawn: U * 16 s.
	seen := map[time.Duration]bool{}
	for range 100 {
		got, err := j.BackoffDelay(4, nil)
		if err != nil || got < 0 || got >= 16*time.Second {
			t.Fatalf("BackoffDelay(4): got %v, %v, want [0, 16s), nil", got, err)
		}
		seen[got] = true
	}
	if len(seen) < 90 {
		t.Errorf("BackoffDelay(4): got %d distinct waits in 100, want it jittered", len(seen))
	}
}

// throttling is an error the SDK's default throttle checks take for a
// throttle: an API error code from retry.DefaultThrottleErrorCodes.
type throttling struct{}

func (throttling) Error() string     { return "Throttling: Rate exceeded" }
func (throttling) ErrorCode() string { return "Throttling" }

// TestAWSStandardRetryBehavior21 pins what retry.NewStandard() waits at
// this version (v1.48.0, "Make Retry Behavior 2.1 the default for standard
// and adaptive retry modes"): NewStandard no longer uses the formula above
// but U * min(x * 2^(attempt-1), MaxBackoff) with x 50 ms, or 1 s for a
// throttling error. So its first retry waits under 50 ms (under 1 s when
// throttled), where our preset, after the legacy formula, draws up to
// 2000 ms. The largest of 20,000 draws comes within a thousandth of the
// range's top but for a chance of about 2e-9.
func TestAWSStandardRetryBehavior21(t *testing.T) {
	std := retry.NewStandard()
	for _, c := range []struct {
		what    string
		err     error
		attempt int
		top     time.Duration
	}{
		{"a transient error", errors.New("transient"), 1, 50 * time.Millisecond},
		{"a transient error", errors.New("transient"), 2, 100 * time.Millisecond},
		{"a transient error", errors.New("transient"), 3, 200 * time.Millisecond},
		{"a throttling error", throttling{}, 1, time.Second},
		{"a throttling error", throttling{}, 2, 2 * time.Second},
		{"a throttling error", throttling{}, 6, 20 * time.Second}, // 32 s capped before the jitter
	} {
		waits := make([]time.Duration, draws)
		for i := range waits {
			w, err := std.RetryDelay(c.attempt, c.err)
			if err != nil {
				t.Fatalf("RetryDelay(%d, %s): got error %v, want none", c.attempt, c.what, err)
			}
			waits[i] = w
		}
		least, most := slices.Min(waits), slices.Max(waits)
		if least < 0 || most >= c.top {
			t.Errorf("RetryDelay(%d) after %s: got waits from %v to %v, want them in [0, %v)", c.attempt, c.what, least, most, c.top)
		}
		if float64(c.top-most) > float64(c.top)*1e-3 {
			t.Errorf("RetryDelay(%d) after %s: got the largest of %d waits %v, want it within a thousandth of %v", c.attempt, c.what, draws, most, c.top)
		}
		t.Logf("NewStandard().RetryDelay(%d) after %s: %d waits from %v to %v, in [0, %v)", c.attempt, c.what, draws, least, most, c.top)
	}
}
