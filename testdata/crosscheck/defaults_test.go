package crosscheck

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	cenkaltiv4 "github.com/cenkalti/backoff/v4"
	cenkaltiv5 "github.com/cenkalti/backoff/v5"
	"github.com/hashicorp/go-retryablehttp"
	grpcbackoff "google.golang.org/grpc/backoff"
	k8sretry "k8s.io/client-go/util/retry"

	"github.com/retryplanner/retry-planner/backoff"
)

// field is one of a preset's values set against the library's own.
type field struct {
	name      string
	got, want int    // got: our preset's; want: read from the library
	whole     bool   // the library's value is a whole number of our unit
	symbol    string // where in the library it was read
	preset    string
	fromValue string // the library's value as it holds it
}

func durationField(preset, name, symbol string, ours int, lib time.Duration) field {
	v, whole := ms(lib)
	return field{name: name, got: ours, want: v, whole: whole, symbol: symbol, preset: preset, fromValue: lib.String()}
}

func factorField(preset, name, symbol string, ours int, lib float64) field {
	v, whole := thousandths(lib)
	return field{name: name + " (thousandths)", got: ours, want: v, whole: whole, symbol: symbol, preset: preset,
		fromValue: formatFloat(lib)}
}

func countField(preset, name, symbol string, ours, lib int) field {
	return field{name: name, got: ours, want: lib, whole: true, symbol: symbol, preset: preset, fromValue: itoa(lib)}
}

// TestDefaults reads every default each library has from the library
// itself and checks our preset holds the same. Values a library does not
// have are said so where they would be.
func TestDefaults(t *testing.T) {
	var fields []field

	// cenkalti/backoff v4: NewExponentialBackOff's fields. Randomization
	// is symmetric, [I(1-f), I(1+f)]: our spread jitter. The library has
	// no limit on attempts (Retry goes on until MaxElapsedTime; a limit
	// is WithMaxRetries, which the default does not use): our preset
	// stands in the planner's most, backoff.MaxAttempts, checked below.
	{
		p := preset(t, "cenkalti").Policy
		b := cenkaltiv4.NewExponentialBackOff()
		fields = append(fields,
			durationField("cenkalti", "first wait", "v4 NewExponentialBackOff().InitialInterval", p.FirstWait, b.InitialInterval),
			factorField("cenkalti", "multiplier", "v4 NewExponentialBackOff().Multiplier", p.Multiplier, b.Multiplier),
			durationField("cenkalti", "longest wait", "v4 NewExponentialBackOff().MaxInterval", p.LongestWait, b.MaxInterval),
			factorField("cenkalti", "spread jitter", "v4 NewExponentialBackOff().RandomizationFactor", spreadFactor(t, p), b.RandomizationFactor),
			durationField("cenkalti", "limit on total time", "v4 NewExponentialBackOff().MaxElapsedTime", p.MaxElapsed, b.MaxElapsedTime),
			countField("cenkalti", "attempts (the library has no limit)", "backoff.MaxAttempts (ours)", p.Attempts, backoff.MaxAttempts),
		)
	}
	// cenkalti/backoff v5: the same fields less MaxElapsedTime, which is
	// now Retry's option with DefaultMaxElapsedTime as its default; Retry's
	// MaxTries defaults to 0, no limit.
	{
		p := preset(t, "cenkalti").Policy
		b := cenkaltiv5.NewExponentialBackOff()
		fields = append(fields,
			durationField("cenkalti", "first wait", "v5 NewExponentialBackOff().InitialInterval", p.FirstWait, b.InitialInterval),
			factorField("cenkalti", "multiplier", "v5 NewExponentialBackOff().Multiplier", p.Multiplier, b.Multiplier),
			durationField("cenkalti", "longest wait", "v5 NewExponentialBackOff().MaxInterval", p.LongestWait, b.MaxInterval),
			factorField("cenkalti", "spread jitter", "v5 NewExponentialBackOff().RandomizationFactor", spreadFactor(t, p), b.RandomizationFactor),
			durationField("cenkalti", "limit on total time", "v5 DefaultMaxElapsedTime", p.MaxElapsed, cenkaltiv5.DefaultMaxElapsedTime),
		)
	}
	// go-retryablehttp: NewClient's RetryWaitMin, RetryWaitMax and
	// RetryMax (retries, so one attempt more). The multiplier is no field:
	// DefaultBackoff computes 2^n * min, read here as the ratio of two of
	// its waits. DefaultBackoff draws nothing (its jittered sibling,
	// LinearJitterBackoff, is not the default): no jitter. The client has
	// no limit on total time (only the request's context has): none.
	{
		p := preset(t, "retryablehttp").Policy
		c := retryablehttp.NewClient()
		w0 := retryablehttp.DefaultBackoff(c.RetryWaitMin, c.RetryWaitMax, 0, nil)
		w1 := retryablehttp.DefaultBackoff(c.RetryWaitMin, c.RetryWaitMax, 1, nil)
		fields = append(fields,
			durationField("retryablehttp", "first wait", "NewClient().RetryWaitMin", p.FirstWait, c.RetryWaitMin),
			durationField("retryablehttp", "first wait as drawn", "DefaultBackoff(RetryWaitMin, RetryWaitMax, 0, nil)", p.FirstWait, w0),
			factorField("retryablehttp", "multiplier", "DefaultBackoff(.., 1, nil) / DefaultBackoff(.., 0, nil)", p.Multiplier, float64(w1)/float64(w0)),
			durationField("retryablehttp", "longest wait", "NewClient().RetryWaitMax", p.LongestWait, c.RetryWaitMax),
			countField("retryablehttp", "attempts", "NewClient().RetryMax + 1", p.Attempts, c.RetryMax+1),
		)
		if p.Jitter.Kind != backoff.JitterNone || p.MaxElapsed != 0 {
			t.Errorf("retryablehttp: got jitter %v and limit %d ms, want none and 0 (DefaultBackoff draws nothing; the client has no limit)",
				p.Jitter, p.MaxElapsed)
		}
	}
	// client-go: retry.DefaultBackoff, stepped by apimachinery's
	// wait.Backoff. Its jitter is positive only, d + U*J*d: our up jitter.
	// Cap 0 is no cap: the library has no longest wait, and our preset
	// holds backoff.NoCap, an hour, in its place (checked below). Steps 4
	// is the attempts: OnError runs the function at most Steps times and
	// sleeps between them (counted below by running it). No limit on
	// total time.
	{
		p := preset(t, "client-go").Policy
		b := k8sretry.DefaultBackoff
		fields = append(fields,
			durationField("client-go", "first wait", "retry.DefaultBackoff.Duration", p.FirstWait, b.Duration),
			factorField("client-go", "multiplier", "retry.DefaultBackoff.Factor", p.Multiplier, b.Factor),
			factorField("client-go", "up jitter", "retry.DefaultBackoff.Jitter", upFactor(t, p), b.Jitter),
			countField("client-go", "attempts", "retry.DefaultBackoff.Steps", p.Attempts, b.Steps),
			countField("client-go", "attempts", "calls retry.OnError(retry.DefaultBackoff, ...) makes of a function that always fails", p.Attempts, onErrorCalls()),
		)
		if b.Cap != 0 || p.LongestWait != backoff.NoCap {
			t.Errorf("client-go: got Cap %v and our longest wait %d ms, want no cap (0) and backoff.NoCap (%d)", b.Cap, p.LongestWait, backoff.NoCap)
		}
	}
	// aws-sdk-go-v2 standard mode: MaxAttempts and MaxBackoff as
	// NewStandard sets them (read from the options its functional option
	// is handed) and the exported constants. The first wait (2 s) and the
	// doubling are no fields: they are the formula of the legacy
	// ExponentialJitterBackoff, 2^attempt s times U in [0, 1), which
	// TestJitter draws from. The SDK has no limit on total time.
	// TestAWSStandardRetryBehavior21 pins what NewStandard's own backoff
	// does at this version, which is not that formula.
	{
		p := preset(t, "aws").Policy
		var o retry.StandardOptions
		std := retry.NewStandard(func(so *retry.StandardOptions) { o = *so })
		fields = append(fields,
			countField("aws", "attempts", "retry.NewStandard().MaxAttempts()", p.Attempts, std.MaxAttempts()),
			countField("aws", "attempts", "retry.DefaultMaxAttempts", p.Attempts, retry.DefaultMaxAttempts),
			durationField("aws", "longest wait", "retry.StandardOptions.MaxBackoff as NewStandard sets it", p.LongestWait, o.MaxBackoff),
			durationField("aws", "longest wait", "retry.DefaultMaxBackoff", p.LongestWait, retry.DefaultMaxBackoff),
		)
		if p.Jitter.Kind != backoff.JitterFull || p.MaxElapsed != 0 {
			t.Errorf("aws: got jitter %v and limit %d ms, want full and 0", p.Jitter, p.MaxElapsed)
		}
		// The quota is no field of a policy; these are what a budget
		// "aws:QUOTA:COST" would be set from.
		if tl, ok := o.RateLimiter.(*ratelimit.TokenRateLimit); ok {
			t.Logf("aws: NewStandard's quota %d tokens (retry.DefaultRetryRateTokens %d), retry cost %d, throttling retry cost %d, no-retry increment %d",
				tl.Remaining(), retry.DefaultRetryRateTokens, o.RetryCost, o.ThrottlingRetryCost, o.NoRetryIncrement)
		}
	}
	// grpc-go: backoff.DefaultConfig. Its jitter is symmetric, base *
	// (1 + J*(2U-1)): our spread jitter. The attempts are no field of
	// DefaultConfig (the connection backoff never stops); our 5 is A6's
	// cap, grpc-go dialoptions.go's unexported constant
	// defaultMaxCallAttempts, which no outside module can read. No limit
	// on total time.
	{
		p := preset(t, "grpc").Policy
		c := grpcbackoff.DefaultConfig
		fields = append(fields,
			durationField("grpc", "first wait", "backoff.DefaultConfig.BaseDelay", p.FirstWait, c.BaseDelay),
			factorField("grpc", "multiplier", "backoff.DefaultConfig.Multiplier", p.Multiplier, c.Multiplier),
			durationField("grpc", "longest wait", "backoff.DefaultConfig.MaxDelay", p.LongestWait, c.MaxDelay),
			factorField("grpc", "spread jitter", "backoff.DefaultConfig.Jitter", spreadFactor(t, p), c.Jitter),
		)
		if p.MaxElapsed != 0 {
			t.Errorf("grpc: got limit %d ms, want 0", p.MaxElapsed)
		}
	}

	for _, f := range fields {
		if !f.whole {
			t.Errorf("%s %s: the library's %s is %s, which our model cannot hold exactly", f.preset, f.name, f.symbol, f.fromValue)
		}
		if f.got != f.want {
			t.Errorf("%s %s: got %d, want %d (%s = %s)", f.preset, f.name, f.got, f.want, f.symbol, f.fromValue)
		} else {
			t.Logf("%s %s: %d, as %s = %s", f.preset, f.name, f.got, f.symbol, f.fromValue)
		}
	}
}

// spreadFactor and upFactor are a preset's jitter factor, checking the
// kind is the one the library's formula is.
func spreadFactor(t *testing.T, p backoff.Policy) int {
	t.Helper()
	if p.Jitter.Kind != backoff.JitterSpread {
		t.Errorf("%s: got jitter %v, want spread (the library jitters both ways)", p.Name, p.Jitter)
	}
	return p.Jitter.Factor
}

func upFactor(t *testing.T, p backoff.Policy) int {
	t.Helper()
	if p.Jitter.Kind != backoff.JitterUp {
		t.Errorf("%s: got jitter %v, want up (the library only adds)", p.Name, p.Jitter)
	}
	return p.Jitter.Factor
}

// onErrorCalls runs client-go's retry.OnError with DefaultBackoff on a
// function that always fails with an error it is told to retry, and
// counts the calls: the attempts, the first included. It sleeps the real
// waits, about 0.3 s.
func onErrorCalls() int {
	calls := 0
	err := k8sretry.OnError(k8sretry.DefaultBackoff, func(error) bool { return true }, func() error {
		calls++
		return errConflict
	})
	if !errors.Is(err, errConflict) {
		return -1
	}
	return calls
}

var errConflict = errors.New("conflict")

// MODEL.md section 7's pushback is go-retryablehttp's: DefaultBackoff waits
// a 429's or a 503's Retry-After instead of its own wait, at every attempt
// and past RetryWaitMax, and its own wait otherwise (a 500, no header, no
// response). The planner, with the retryablehttp preset and retry_after R,
// lets a rejected client wait those same waits.
func TestPushbackIsRetryablehttps(t *testing.T) {
	c := retryablehttp.NewClient()
	reply := func(status int, after string) *http.Response {
		r := &http.Response{StatusCode: status, Header: http.Header{}}
		if after != "" {
			r.Header.Set("Retry-After", after)
		}
		return r
	}
	const after = 45 * time.Second // past RetryWaitMax, 30 s
	for n := range c.RetryMax {
		own := retryablehttp.DefaultBackoff(c.RetryWaitMin, c.RetryWaitMax, n, nil)
		for _, tt := range []struct {
			name string
			resp *http.Response
			want time.Duration
		}{
			{"429 with Retry-After: 45", reply(http.StatusTooManyRequests, "45"), after},
			{"503 with Retry-After: 45", reply(http.StatusServiceUnavailable, "45"), after},
			{"500 with Retry-After: 45", reply(http.StatusInternalServerError, "45"), own},
			{"429 without Retry-After", reply(http.StatusTooManyRequests, ""), own},
		} {
			if got := retryablehttp.DefaultBackoff(c.RetryWaitMin, c.RetryWaitMax, n, tt.resp); got != tt.want {
				t.Errorf("retryablehttp DefaultBackoff after attempt %d, %s: got %v, want %v", n+1, tt.name, got, tt.want)
			}
		}
	}
	// Two clients, outage 0, 1 attempt a second in 1 s slots, R = 45,000
	// ms. Both fail at 0, the trigger, and wait DefaultBackoff(.., 0, nil)
	// = 1 s. At 1000 slot 1's one place serves client 1; client 2 is
	// rejected and comes back R later, at 1000 + 45,000 = 46,000 (its own
	// wait would bring it at 1000 + 2000 = 3000), served in slot 46.
	p := preset(t, "retryablehttp").Policy
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Slot, s.RetryAfter = 2, 0, 1, 1000, int(after/time.Millisecond)
	r, err := backoff.Run(p, s, backoff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := retryablehttp.DefaultBackoff(c.RetryWaitMin, c.RetryWaitMax, 0, nil)
	want := first + retryablehttp.DefaultBackoff(c.RetryWaitMin, c.RetryWaitMax, 1, reply(http.StatusTooManyRequests, "45"))
	if got := time.Duration(r.Figures.LatencyMax) * time.Millisecond; got != want || r.Figures.Rejected != 1 {
		t.Errorf("the planner with retry_after %v: got the last client through after %v with %d rejected, want %v (retryablehttp's waits) and 1",
			after, got, r.Figures.Rejected, want)
	}
}
