package crosscheck

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	cenkaltiv4 "github.com/cenkalti/backoff/v4"
	grpcbackoff "google.golang.org/grpc/backoff"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"

	"github.com/retryplanner/retry-planner/backoff"
)

// TestKnownDifferences states, with the numbers the libraries give at the
// versions in go.mod, each place where a preset (or the text beside it in
// package backoff) and the library part. Each is an exact expectation of
// both sides and of the words that say so: it fails when either side
// changes (a library upgraded, a preset or its note changed), so that
// whoever changes one decides again, and the difference never drifts from
// what the program tells its users.
func TestKnownDifferences(t *testing.T) {
	for _, d := range []struct {
		name, difference string
		check            func(t *testing.T) string // the difference found, in numbers
	}{
		{
			name: "aws: the legacy formula's waits, not NewStandard's",
			difference: "the preset follows ExponentialJitterBackoff, U * 2^k s: its first retry draws from [0, 2000] ms; " +
				"NewStandard, Retry Behavior 2.1 from v1.48.0, draws from [0, 50 ms) after a transient error and [0, 1 s) after throttling " +
				"(pinned in TestAWSStandardRetryBehavior21); the note says so",
			check: func(t *testing.T) string {
				p := preset(t, "aws")
				var bands [][2]int
				for k := 1; k <= p.Policy.Retries(); k++ {
					lo, hi := p.Policy.Band(k, p.Policy.FirstWait)
					bands = append(bands, [2]int{lo, hi})
				}
				if want := [][2]int{{0, 2000}, {0, 4000}}; fmt.Sprint(bands) != fmt.Sprint(want) {
					t.Errorf("our bands: got %v ms, want %v, U * 2^k s", bands, want)
				}
				// The legacy formula's top, 2^k s, for each retry.
				for k := 1; k <= 2; k++ {
					top := time.Duration(1<<k) * time.Second
					if v, _ := ms(top); v != bands[k-1][1] {
						t.Errorf("retry %d: ExponentialJitterBackoff's top %v, our band's %d ms", k, top, bands[k-1][1])
					}
				}
				wantNote(t, p.Differs, "NewExponentialJitterBackoff", "flat 20 s from the fifth retry", "v1.48.0", "Retry Behavior 2.1", "50 ms base (1 s after throttling)")
				return fmt.Sprintf("our first retry [0, 2000] ms, NewStandard's [0, 50 ms); our bands %v", bands)
			},
		},
		{
			name: "aws: the quota's cost",
			difference: "backoff.BudgetList calls aws:500:5 standard mode, the classic cost of 5 a retry; NewStandard at v1.48.0 " +
				"takes 14 a retry (RetryCost) and 5 only after throttling (ThrottlingRetryCost), from a quota of 500; the preset's note says 14",
			check: func(t *testing.T) string {
				var o retry.StandardOptions
				retry.NewStandard(func(so *retry.StandardOptions) { o = *so })
				quota := -1
				if tl, ok := o.RateLimiter.(*ratelimit.TokenRateLimit); ok {
					quota = int(tl.Remaining())
				}
				if o.RetryCost != 14 || o.ThrottlingRetryCost != 5 || quota != 500 {
					t.Errorf("NewStandard: got retry cost %d, throttling retry cost %d, quota %d; want 14, 5, 500", o.RetryCost, o.ThrottlingRetryCost, quota)
				}
				if !strings.Contains(backoff.BudgetList, "standard mode is aws:500:5") {
					t.Errorf("backoff.BudgetList: got %q, want it to say standard mode is aws:500:5", backoff.BudgetList)
				}
				wantNote(t, preset(t, "aws").Differs, "a quota cost of 14")
				return fmt.Sprintf("ours aws:500:5; NewStandard %d tokens, %d a retry, %d after throttling", quota, o.RetryCost, o.ThrottlingRetryCost)
			},
		},
		{
			name: "client-go: the longest wait OnError sleeps",
			difference: "OnError stops after Steps = 4 attempts, so it sleeps three times, the third from [250, 275) ms; " +
				"our third retry's band is [250, 275] ms (we draw up to d+δ, the library below it); the note says 275 ms, not 1250",
			check: func(t *testing.T) string {
				p := preset(t, "client-go")
				var b wait.Backoff = k8sretry.DefaultBackoff
				if p.Policy.Retries() != b.Steps-1 {
					t.Errorf("retries: got %d, want Steps-1 = %d, the sleeps of OnError", p.Policy.Retries(), b.Steps-1)
				}
				b.Jitter = 0
				third := repeat(3, b.Step)[2]
				top := time.Duration(float64(third) * (1 + k8sretry.DefaultBackoff.Jitter))
				lo, hi := p.Policy.Band(3, p.Policy.FirstWait)
				if third != 250*time.Millisecond || top != 275*time.Millisecond || lo != 250 || hi != 275 || p.Policy.LongestDraw() != 275 {
					t.Errorf("the third sleep: got [%v, %v) from the library, our band [%d, %d] and longest draw %d; want [250ms, 275ms) and [250, 275], 275",
						third, top, lo, hi, p.Policy.LongestDraw())
				}
				wantNote(t, p.Differs, "275 ms", "draws below d+δ, here up to it")
				if strings.Contains(p.Differs, "1250") {
					t.Errorf("the note %q says 1250 ms, which OnError never sleeps", p.Differs)
				}
				return fmt.Sprintf("the library [%v, %v), ours [%d, %d] ms", third, top, lo, hi)
			},
		},
		{
			name: "cenkalti: nanoseconds from the unrounded interval",
			difference: "the library draws I(1±f) in nanoseconds from its unrounded interval: retry 4, I = 1687.5 ms, " +
				"[843.75, 2531.25) ms; ours is whole ms around d = 1687: [844, 2530]; the note gives those numbers",
			check: func(t *testing.T) string {
				p := preset(t, "cenkalti")
				i4 := repeat(4, cenkaltiv4.NewExponentialBackOff(cenkaltiv4.WithRandomizationFactor(0)).NextBackOff)[3]
				f := cenkaltiv4.DefaultRandomizationFactor
				libLo, libHi := float64(i4)*(1-f)/1e6, float64(i4)*(1+f)/1e6
				lo, hi := p.Policy.Band(4, p.Policy.FirstWait)
				if i4 != 1687500*time.Microsecond || libLo != 843.75 || libHi != 2531.25 || lo != 844 || hi != 2530 {
					t.Errorf("retry 4: got I = %v, the library [%g, %g) ms, ours [%d, %d]; want 1.6875s, [843.75, 2531.25), [844, 2530]",
						i4, libLo, libHi, lo, hi)
				}
				wantNote(t, p.Differs, "843.75 to 2531.25 ms", "844 to 2530 ms")
				return fmt.Sprintf("retry 4: the library [%g, %g) ms, ours [%d, %d] ms", libLo, libHi, lo, hi)
			},
		},
		{
			name: "grpc: δ rounded down to whole ms",
			difference: "of the preset's retries 2 to 4 (the connection backoff's Backoff(1) to Backoff(3)), only retry 4's " +
				"library range reaches past our band: base 4096 ms, δ = floor(819.2) = 819, ours [3277, 4915] against " +
				"[3276.8, 4915.2) ms; the note says the band is rounded to whole ms",
			check: func(t *testing.T) string {
				p := preset(t, "grpc")
				c := grpcbackoff.DefaultConfig
				j := c.Jitter
				c.Jitter = 0
				var past []string
				for k := 2; k <= p.Policy.Retries(); k++ {
					d := float64(grpcBackoff(grpcExponential{c}, k-1)) / 1e6
					lo, hi := p.Policy.Band(k, p.Policy.FirstWait)
					if libLo, libHi := d*(1-j), d*(1+j); libLo < float64(lo) || libHi > float64(hi+1) {
						past = append(past, fmt.Sprintf("retry %d: ours [%d, %d], the library's [%.1f, %.1f)", k, lo, hi, libLo, libHi))
					}
				}
				if want := []string{"retry 4: ours [3277, 4915], the library's [3276.8, 4915.2)"}; fmt.Sprint(past) != fmt.Sprint(want) {
					t.Errorf("got the library's range past our band at %q, want only at %q", past, want)
				}
				wantNote(t, p.Differs, "rounded to whole ms")
				return strings.Join(past, "; ")
			},
		},
	} {
		t.Run(d.name, func(t *testing.T) {
			found := d.check(t)
			t.Logf("%s: %s (%s)", d.name, d.difference, found)
		})
	}
}

// wantNote fails unless the preset's note says each of the words.
func wantNote(t *testing.T, note string, words ...string) {
	t.Helper()
	for _, w := range words {
		if !strings.Contains(note, w) {
			t.Errorf("the note %q: want it to say %q", note, w)
		}
	}
}
