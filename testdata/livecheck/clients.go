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
	"sync"
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
	// brk is its process's circuit breaker, shared with the process's
	// other clients; nil for none.
	brk *breaker

	// What it did, in times after 0 ms: each attempt sent and answered
	// (or failed), with its status (0 for an error such as a timeout,
	// shortStatus for one its breaker short-circuited, sent and failed at
	// the same moment without reaching the server); each wait its library
	// drew; connections opened for attempts.
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
	now := c.since()
	if c.brk != nil && !c.brk.admit(c.id, ms(now)) {
		c.sent, c.answered, c.status = append(c.sent, now), append(c.answered, now), append(c.status, shortStatus)
		return nil, errShortCircuited
	}
	cancel := context.CancelFunc(func() {})
	if c.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
	}
	req = req.Clone(ctx)
	req.Header.Set(attemptHeader, strconv.Itoa(len(c.sent)))
	c.sent = append(c.sent, now)
	resp, err := c.tr.RoundTrip(req)
	answered := c.since()
	c.answered = append(c.answered, answered)
	if c.brk != nil {
		c.brk.hear(c.id, ms(answered), err == nil && resp.StatusCode == http.StatusOK)
	}
	if err != nil {
		cancel()
		c.status = append(c.status, 0)
		return nil, err
	}
	c.status = append(c.status, resp.StatusCode)
	resp.Body = cancelOnClose{resp.Body, cancel}
	return resp, nil
}

// shortStatus is the status of an attempt the client's breaker
// short-circuited.
const shortStatus = -1

// errShortCircuited is an attempt's failure at the client's open breaker:
// an error the retry libraries retry, as any failure to connect.
var errShortCircuited = errors.New("circuit breaker open: short-circuited")

// reached counts the client's attempts that reached the server.
func (c *client) reached() int {
	n := 0
	for _, s := range c.status {
		if s != shortStatus {
			n++
		}
	}
	return n
}

// shorted are the client's short-circuited attempts as log entries, each
// failed at the moment it was made.
func (c *client) shorted() []Entry {
	var out []Entry
	for k, s := range c.status {
		if s == shortStatus {
			out = append(out, Entry{At: c.sent[k], Done: c.sent[k], Client: int32(c.id), Outcome: ShortCircuited})
		}
	}
	return out
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

// breaker is one process's circuit breaker, MODEL.md section 7's F:D,
// which the clients of the process share (client n is in process (n-1)
// mod P): closed at 0 ms, each outcome known while closed counts, a
// failure adding one to the failures in a row and a served attempt setting
// them to 0; at the F-th it opens at that moment t0. While open, an
// attempt at t < t0 + D is short-circuited; the first at t >= t0 + D is the
// probe, and every other attempt is short-circuited until its outcome is
// known: served, the breaker closes; failed, it opens again at that moment
// for D. From t0 until it closes no outcome but the probe's counts. Times
// are whole ms after the run's 0 ms. Its lock lets the live clients'
// goroutines share it; the driven clients call it in the model's order.
type breaker struct {
	mu       sync.Mutex
	failures int   // F
	open     int64 // D, ms
	fails    int   // failures in a row while closed
	shut     bool  // open or half-open
	until    int64 // the end of the open time: the probe comes at or after it
	probe    int   // the client whose attempt is the probe; 0 for none yet
	opened   int   // how many times it opened, reopening after a failed probe included
}

// admit reports whether client's attempt at ms t goes to the service;
// false, the breaker short-circuits it. The first attempt at or after the
// open time's end becomes the probe.
func (b *breaker) admit(client int, t int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case !b.shut:
		return true
	case b.probe != 0 || t < b.until:
		return false
	}
	b.probe = client
	return true
}

// hear takes the outcome of client's attempt, known at ms t: served or
// failed (down, a hang at its end, rejected, timed out; never a
// short-circuit, which is no outcome of the service).
func (b *breaker) hear(client int, t int64, served bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.shut {
		if b.probe != client {
			return // sent before it opened: it counts for its client alone
		}
		b.probe = 0
		if served {
			b.shut, b.fails = false, 0
			return
		}
		b.until = t + b.open
		b.opened++
		return
	}
	if served {
		b.fails = 0
		return
	}
	if b.fails++; b.fails >= b.failures {
		b.shut, b.until = true, t+b.open
		b.opened++
	}
}

// breakers is a run's breakers, one a process; nil without a breaker.
type breakers []*breaker

func newBreakers(b backoff.Breaker, processes int) breakers {
	if !b.On() {
		return nil
	}
	bs := make(breakers, max(processes, 1))
	for i := range bs {
		bs[i] = &breaker{failures: b.Failures, open: int64(b.Open)}
	}
	return bs
}

// of is client's process's breaker, nil without one.
func (bs breakers) of(client int) *breaker {
	if len(bs) == 0 {
		return nil
	}
	return bs[(client-1)%len(bs)]
}

// opened is how many times any of them opened.
func (bs breakers) opened() int {
	n := 0
	for _, b := range bs {
		b.mu.Lock()
		n += b.opened
		b.mu.Unlock()
	}
	return n
}
