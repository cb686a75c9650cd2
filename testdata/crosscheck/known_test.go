package crosscheck

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	cenkaltiv4 "github.com/cenkalti/backoff/v4"
	grpcbackoff "google.golang.org/grpc/backoff"

	"github.com/retryplanner/retry-planner/backoff"
)

// TestKnownDifferences lists, with the numbers worked out from the
// libraries at the versions in go.mod, where a preset or the text beside
// it in package backoff says something the library does not do. Package
// backoff is not this module's to change, so each is logged; with
// CROSSCHECK_STRICT=1 each fails instead, as a failing case for whoever
// changes backoff.
func TestKnownDifferences(t *testing.T) {
	report := t.Logf
	if os.Getenv("CROSSCHECK_STRICT") == "1" {
		report = t.Errorf
	}

	// aws: since aws-sdk-go-v2 v1.48.0, NewStandard's backoff is Retry
	// Behavior 2.1, U * min(50 ms * 2^(attempt-1), 20 s), 1 s in place of
	// 50 ms after a throttling error: no longer the legacy 2^attempt s
	// our preset and its text describe.
	{
		p := preset(t, "aws")
		_, ourTop := p.Policy.Band(1, p.Policy.FirstWait)
		std := retry.NewStandard()
		most := func(err error) time.Duration {
			var m time.Duration
			for range 2000 {
				w, _ := std.RetryDelay(1, err)
				m = max(m, w)
			}
			return m
		}
		report("aws: got a first retry drawn up to %d ms (%s), want NewStandard's: below 50 ms after a transient error (largest of 2000: %v), below 1 s after a throttling error (%v)",
			ourTop, p.Library, most(errors.New("transient")), most(throttling{}))
		report("aws: got the preset's note %q, want it dropped at v1.48.0: NewStandard caps before the jitter, so waits past the cap are drawn from [0, 20 s), not a flat 20 s (TestAWSStandardRetryBehavior21)",
			p.Differs)
		var o retry.StandardOptions
		retry.NewStandard(func(so *retry.StandardOptions) { o = *so })
		if strings.Contains(backoff.BudgetList, "aws:500:5") {
			report("aws: got %q in backoff.BudgetList, want aws:500:%d: NewStandard's RetryCost is %d, and %d only for a throttling error (ThrottlingRetryCost)",
				"standard mode is aws:500:5", o.RetryCost, o.RetryCost, o.ThrottlingRetryCost)
		}
	}

	// client-go: the note says the library reaches 1250 ms; OnError stops
	// after Steps = 4 attempts, so it sleeps three times and the longest
	// is the third, [250, 275) ms. Step() returns 1250 ms only on a fourth
	// call that OnError never makes.
	{
		p := preset(t, "client-go")
		if strings.Contains(p.Differs, "1250") {
			report("client-go: got the note %q, want the longest wait OnError sleeps: under 275 ms (our LongestDraw %d ms)",
				p.Differs, p.Policy.LongestDraw())
		}
	}

	// cenkalti: the note says the library's range is one nanosecond
	// wider than ours. It is that and more: d(k) and δ are rounded down to
	// whole ms, so from the third retry the library's range reaches past
	// our band by up to 0.5 ms below and 1.25 ms above.
	{
		p := preset(t, "cenkalti")
		b := cenkaltiv4.NewExponentialBackOff(cenkaltiv4.WithRandomizationFactor(0))
		var parts []string
		for k := 1; k <= 12; k++ {
			d := float64(b.NextBackOff()) / 1e6
			lo, hi := p.Policy.Band(k, p.Policy.FirstWait)
			f := cenkaltiv4.DefaultRandomizationFactor
			libLo, libHi := d*(1-f), d*(1+f)
			if libLo < float64(lo) || libHi > float64(hi+1) {
				parts = append(parts, fmt.Sprintf("retry %d: [%g, %g) ms against [%d, %d]", k, libLo, libHi, lo, hi))
			}
		}
		if len(parts) > 0 && strings.Contains(p.Differs, "one nanosecond") {
			report("cenkalti: got the note %q, want the ranges' real difference: %s", p.Differs, strings.Join(parts, "; "))
		}
	}

	// grpc: δ = floor(4096*0.2) = 819 makes our fourth retry's band
	// [3277, 4915] where the library draws from [3276.8, 4915.2) ms: a
	// wait in about 8,200 falls below our band. The preset's note does
	// not say so.
	{
		p := preset(t, "grpc")
		c := grpcbackoff.DefaultConfig
		j := c.Jitter
		c.Jitter = 0
		for k := 2; k <= p.Policy.Retries(); k++ {
			d := float64(grpcBackoff(grpcExponential{c}, k-1)) / 1e6
			lo, hi := p.Policy.Band(k, p.Policy.FirstWait)
			if libLo, libHi := d*(1-j), d*(1+j); libLo < float64(lo) || libHi > float64(hi+1) {
				report("grpc: got retry %d's band [%d, %d] ms, want the library's range [%g, %g) ms inside it (δ is rounded down to whole ms)",
					k, lo, hi, libLo, libHi)
			}
		}
	}
}
