package livecheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"time"

	cenkaltiv4 "github.com/cenkalti/backoff/v4"
	cenkaltiv5 "github.com/cenkalti/backoff/v5"
	"github.com/hashicorp/go-retryablehttp"

	"github.com/retryplanner/retry-planner/backoff"
)

// client is one live client: its own http.Transport, so its own kept-alive
// connection (opened before the start by a request to /warm), and a record
// of what it did. Only its own goroutine touches it while it runs.
type client struct {
	id    int
	url   string
	start time.Duration // when it starts, after the run's 0 ms
	t0    time.Time     // the run's 0 ms
	http  *http.Client
	tr    *http.Transport
	// timeout is how long an attempt waits for its answer, through the
	// request's context; 0 for ever.
	timeout time.Duration

	// What it did, in times after 0 ms: each attempt sent and answered
	// (or failed), with its status (0 for an error such as a timeout);
	// each wait its library drew; connections opened for attempts.
	sent, answered []time.Duration
	status         []int
	waits          []time.Duration
	dials          int
	through        bool
	err            error // what the library returned, when it gave up
}

func newClient(id int, base string, start time.Duration, timeout time.Duration) *client {
	tr := &http.Transport{
		Proxy:               nil, // straight to 127.0.0.1, whatever the environment says
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
		MaxConnsPerHost:     1,
		MaxIdleConns:        1,
		MaxIdleConnsPerHost: 1,
		DisableCompression:  true,
	}
	c := &client{id: id, url: base + "/c/" + strconv.Itoa(id), start: start, tr: tr, timeout: timeout}
	c.http = &http.Client{Transport: (*recorder)(c)}
	return c
}

// warm opens the client's connection before the start.
func (c *client) warm(ctx context.Context, base string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/warm", nil)
	if err != nil {
		return err
	}
	resp, err := c.tr.RoundTrip(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

func (c *client) since() time.Duration { return time.Since(c.t0) }

// recorder is the client's RoundTripper: it times each attempt, gives it
// its timeout through the request's context, and counts the connections
// opened for attempts (none, when the warm one is kept alive).
type recorder client

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	c := (*client)(r)
	ctx := httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if !info.Reused {
				c.dials++
			}
		},
	})
	cancel := context.CancelFunc(func() {})
	if c.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
	}
	c.sent = append(c.sent, c.since())
	resp, err := c.tr.RoundTrip(req.WithContext(ctx))
	c.answered = append(c.answered, c.since())
	if err != nil {
		cancel()
		c.status = append(c.status, 0)
		return nil, err
	}
	c.status = append(c.status, resp.StatusCode)
	resp.Body = cancelOnClose{resp.Body, cancel}
	return resp, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// errNotServed is an attempt's failure: an answer other than 200.
var errNotServed = errors.New("not served")

// get makes one attempt with the client's own http.Client, reads the
// answer and reports whether it was served.
func (c *client) get(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%w: %s", errNotServed, resp.Status)
	}
	return nil
}

func msDuration(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// run retries until served or the policy says stop, with the kind's real
// library; seed is the planner's seed for the full-jitter loop's draws.
func (c *client) run(ctx context.Context, k Kind, p backoff.Policy, s backoff.Settings) {
	switch k {
	case PlannerFullJitter:
		c.err = c.plannerLoop(ctx, p, s)
	case CenkaltiV4:
		b := cenkaltiv4.NewExponentialBackOff()
		b.InitialInterval = msDuration(p.FirstWait)
		b.RandomizationFactor = float64(p.Jitter.Factor) / 1000
		b.Multiplier = float64(p.Multiplier) / 1000
		b.MaxInterval = msDuration(p.LongestWait)
		b.MaxElapsedTime = msDuration(p.MaxElapsed) // 0: none
		rec := &waitsV4{b: b, c: c}
		c.err = cenkaltiv4.Retry(func() error { return c.get(ctx) },
			cenkaltiv4.WithContext(cenkaltiv4.WithMaxRetries(rec, uint64(p.Retries())), ctx))
	case CenkaltiV5:
		b := cenkaltiv5.NewExponentialBackOff()
		b.InitialInterval = msDuration(p.FirstWait)
		b.RandomizationFactor = float64(p.Jitter.Factor) / 1000
		b.Multiplier = float64(p.Multiplier) / 1000
		b.MaxInterval = msDuration(p.LongestWait)
		_, c.err = cenkaltiv5.Retry(ctx, func() (struct{}, error) { return struct{}{}, c.get(ctx) },
			cenkaltiv5.WithBackOff(&waitsV5{b: b, c: c}), cenkaltiv5.WithMaxTries(uint(p.Attempts)),
			cenkaltiv5.WithMaxElapsedTime(msDuration(p.MaxElapsed)))
	case RetryableDefault, RetryableLinear:
		rc := &retryablehttp.Client{
			HTTPClient:   c.http,
			RetryWaitMin: msDuration(p.FirstWait),
			RetryWaitMax: msDuration(p.LongestWait),
			RetryMax:     p.Retries(),
			CheckRetry:   retryablehttp.DefaultRetryPolicy, // retries on 503 and on errors such as a timeout
		}
		wait := retryablehttp.DefaultBackoff
		if k == RetryableLinear {
			// LinearJitterBackoff(min, max) waits k*u[min, max): spread
			// F around k*b is min = b - b*F, max = b + b*F.
			delta := p.FirstWait * p.Jitter.Factor / 1000
			rc.RetryWaitMin, rc.RetryWaitMax = msDuration(p.FirstWait-delta), msDuration(p.FirstWait+delta)
			wait = retryablehttp.LinearJitterBackoff
		}
		rc.Backoff = func(lo, hi time.Duration, n int, resp *http.Response) time.Duration {
			d := wait(lo, hi, n, resp)
			c.waits = append(c.waits, d)
			return d
		}
		req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
		if err != nil {
			c.err = err
			return
		}
		resp, err := rc.Do(req)
		c.err = err
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				c.err = fmt.Errorf("%w: %s", errNotServed, resp.Status)
			}
		}
	default:
		c.err = fmt.Errorf("no such kind %d", int(k))
	}
	c.through = c.err == nil
}

// plannerLoop is the full-jitter loop: it waits the planner's own draws for
// this client, backoff.Waits, and stops as MODEL.md says: after the last
// attempt, or when the next would be more than the limit on total time
// after its start.
func (c *client) plannerLoop(ctx context.Context, p backoff.Policy, s backoff.Settings) error {
	waits := backoff.Waits(p, s, c.id)
	var err error
	for k := 0; k < p.Attempts; k++ {
		if k > 0 {
			w := msDuration(waits[k-1])
			if p.MaxElapsed > 0 && c.since()-c.start+w > msDuration(p.MaxElapsed) {
				return fmt.Errorf("out of time: %w", err)
			}
			c.waits = append(c.waits, w)
			t := time.NewTimer(w)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
		if err = c.get(ctx); err == nil {
			return nil
		}
	}
	return err
}

// waitsV4 and waitsV5 pass the library's ExponentialBackOff through and
// keep each wait it draws.
type waitsV4 struct {
	b *cenkaltiv4.ExponentialBackOff
	c *client
}

func (w *waitsV4) Reset() { w.b.Reset() }
func (w *waitsV4) NextBackOff() time.Duration {
	d := w.b.NextBackOff()
	if d != cenkaltiv4.Stop {
		w.c.waits = append(w.c.waits, d)
	}
	return d
}

type waitsV5 struct {
	b *cenkaltiv5.ExponentialBackOff
	c *client
}

func (w *waitsV5) Reset() { w.b.Reset() }
func (w *waitsV5) NextBackOff() time.Duration {
	d := w.b.NextBackOff()
	if d != cenkaltiv5.Stop {
		w.c.waits = append(w.c.waits, d)
	}
	return d
}
