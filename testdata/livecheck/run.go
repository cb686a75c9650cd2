package livecheck

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Run is one live run of a scenario: the server's log and the figures
// measured from it, how well the machine kept time, and whether the run is
// kept.
type Run struct {
	Scenario Scenario
	Seed     int // the planner's seed of the full-jitter loop's draws
	Log      []Entry
	// Shorted are the attempts the clients' breakers short-circuited,
	// which never reached the server: the clients' log of them.
	Shorted []Entry
	Figures Figures
	Health  Health
	// Kept is false when the machine did not keep time well enough for
	// the figures to mean anything; Why says how.
	Kept bool
	Why  string
	// Took is the run's length, from 0 ms to the last client's end.
	Took time.Duration
}

// LiveRun runs the scenario once against a real server on 127.0.0.1 with
// real clients: it opens every client's connection, starts the clock,
// sends the crowd at 0 ms and each fresh request at its time, and waits for
// every client to finish (and a queue to drain). seed seeds the full-jitter
// loop's draws. An error is a fault of the run itself (a client that broke
// off, or client and server that disagree), not of the machine's timing:
// that only discards the run.
func LiveRun(ctx context.Context, sc Scenario, seed int) (*Run, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	srv, err := NewServer(sc)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	s := sc.Settings(seed) // the full-jitter loop's draws; a queue does not change them
	p := sc.Policy()

	n := sc.AllClients()
	clients := make([]*client, n)
	timeout := time.Duration(0)
	if sc.Queue.Timeout > 0 {
		timeout = msDuration(sc.Queue.Timeout) + timeoutSlack
	}
	brk := newBreakers(sc.Breaker, sc.Processes)
	for i := range clients {
		clients[i] = newClient(i+1, srv.URL, msDuration(sc.Start(i+1)), timeout)
		clients[i].brk = brk.of(i + 1)
	}
	defer func() {
		for _, c := range clients {
			c.tr.CloseIdleConnections()
		}
	}()
	if err := warmAll(ctx, clients, srv.URL); err != nil {
		return nil, fmt.Errorf("opening the clients' connections: %w", err)
	}

	runCtx, cancel := context.WithTimeout(ctx, sc.Longest()+10*time.Second)
	defer cancel()
	sampler := startSampler()
	var ready, done sync.WaitGroup
	gate := make(chan struct{})
	var t0 time.Time
	for _, c := range clients {
		ready.Add(1)
		done.Go(func() {
			ready.Done()
			<-gate
			c.t0 = t0
			if d := time.Until(t0.Add(c.start)); d > 0 {
				time.Sleep(d)
			}
			c.run(runCtx, sc.Kind, p, s)
		})
	}
	ready.Wait()
	t0 = time.Now()
	srv.Start(t0)
	close(gate)
	done.Wait()
	took := time.Since(t0)
	drainErr := srv.Drain(runCtx)
	lateness := sampler.stop()
	if runCtx.Err() != nil {
		return nil, fmt.Errorf("%s: the run did not finish in %v", sc.Name, sc.Longest()+10*time.Second)
	}
	if drainErr != nil {
		return nil, drainErr
	}

	log, handling, peak := srv.Log()
	r := &Run{Scenario: sc, Seed: seed, Log: log, Took: took}
	for _, c := range clients {
		r.Shorted = append(r.Shorted, c.shorted()...)
	}
	var missing int
	r.Figures, missing = Measure(sc, append(slices.Clip(log), r.Shorted...), peak, brk.opened())
	r.Health = health(sc, clients, log, handling, lateness, srv.WorkerLateness())
	late, err := agree(sc, clients, log, missing)
	if err != nil {
		return r, fmt.Errorf("%s: %w", sc.Name, err)
	}
	r.Kept, r.Why = r.Health.Keep(LimitsFor(sc))
	if late != "" {
		r.Kept = false
		r.Why = strings.TrimPrefix(r.Why+"; "+late, "; ")
	}
	return r, nil
}

// timeoutSlack is how much longer than the model's T a live client waits
// for an answer. The server answers a millisecond's completions at its
// end, so a request the model completes in the last millisecond before it
// expires, a+T-1, is answered at a+T on the server's clock, and later on a
// late one; the client waits that long. The server's own expiry, at a+T,
// answered 503, is what fails nearly every attempt that waits too long, at
// the model's time.
const timeoutSlack = 5 * time.Millisecond

// warmAll opens every client's connection, a few dozen at a time.
func warmAll(ctx context.Context, clients []*client, base string) error {
	errs := make([]error, len(clients))
	sem := make(chan struct{}, 32)
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = c.warm(ctx, base)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// agree checks the run itself: every client is in the log as the model
// says a client can end; each client's attempts in the log are the ones it
// sent; and a client got through by its library's word exactly when the
// server served one of its attempts. A broken rule is a fault of the
// run (err), save where a client's timeout explains it: an attempt that
// timed out before the server logged it, or one the server served after
// its client had timed out. Those are the machine's delivery too slow for
// the timeout, and late says how many, to discard the run.
func agree(sc Scenario, clients []*client, log []Entry, missing int) (late string, err error) {
	arrived := make([]int, len(clients)+1)
	served := make([]bool, len(clients)+1)
	for _, e := range log {
		arrived[e.Client]++
		served[e.Client] = served[e.Client] || e.Outcome == Served
	}
	p := sc.Policy()
	var errs []error
	fault := func(format string, a ...any) {
		if len(errs) < 5 {
			errs = append(errs, fmt.Errorf(format, a...))
		}
	}
	lost, lateAnswers, explained := 0, 0, 0
	for _, c := range clients {
		timedOut := slices.Contains(c.status, 0)
		switch n, sent := arrived[c.id], c.reached(); {
		case n > sent:
			fault("client %d sent %d attempts, the server logged %d", c.id, sent, n)
		case n < sent && sc.Queue.Timeout > 0 && timedOut:
			lost += sent - n
		case n < sent:
			fault("client %d sent %d attempts, the server logged %d (%v)", c.id, sent, n, c.err)
		}
		switch {
		case c.through && !served[c.id]:
			fault("client %d: its library says through, the server served none of its attempts", c.id)
		case !c.through && served[c.id] && sc.Queue.Timeout > 0 && timedOut:
			lateAnswers++
		case !c.through && served[c.id]:
			fault("client %d: the server served it, its library says %v", c.id, c.err)
		}
		shorts := len(c.sent) - c.reached()
		if !served[c.id] && arrived[c.id]+shorts < p.Attempts && p.MaxElapsed == 0 && arrived[c.id] < c.reached() && timedOut {
			explained++
		}
	}
	if missing > explained {
		fault("%d clients are missing from the server's log or broke off early", missing-explained)
	}
	if lost > 0 || lateAnswers > 0 {
		late = fmt.Sprintf("the clients timed out on %d attempts before the server logged them, and on %d the server served", lost, lateAnswers)
	}
	return late, errors.Join(errs...)
}

// sampler measures the machine's own timer lateness while a run goes on: a
// goroutine that sleeps 1 ms at a time and keeps how much later than that
// it woke.
type sampler struct {
	quit chan struct{}
	out  chan []time.Duration
}

func startSampler() *sampler {
	s := &sampler{quit: make(chan struct{}), out: make(chan []time.Duration, 1)}
	go func() {
		var late []time.Duration
		for {
			select {
			case <-s.quit:
				s.out <- late
				return
			default:
			}
			t := time.Now()
			time.Sleep(time.Millisecond)
			late = append(late, time.Since(t)-time.Millisecond)
		}
	}()
	return s
}

func (s *sampler) stop() []time.Duration {
	close(s.quit)
	return <-s.out
}

// Quantiles are the nearest-rank p50, p99 and the largest of some
// durations.
type Quantiles struct {
	N                  int
	P50, P90, P99, Max time.Duration
}

func quantiles(v []time.Duration) Quantiles {
	if len(v) == 0 {
		return Quantiles{}
	}
	v = slices.Clone(v)
	slices.Sort(v)
	at := func(p int) time.Duration { return v[min(max((p*len(v)+99)/100, 1), len(v))-1] }
	return Quantiles{N: len(v), P50: at(50), P90: at(90), P99: at(99), Max: v[len(v)-1]}
}

func (q Quantiles) String() string {
	r := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }
	return fmt.Sprintf("p50 %s, p90 %s, p99 %s, max %s ms", r(q.P50), r(q.P90), r(q.P99), r(q.Max))
}

// LiveRuns makes live runs of the scenario until want of them are kept or
// tries have been made, each with its own seed from seed on, and returns
// them all, kept or not, each passed to progress (if not nil) as it ends.
// Before each run it waits, up to quiet in all, for the machine's timers
// to be on time (MachineKeepsTime), so as not to spend a run on a machine
// busy with something else.
func LiveRuns(ctx context.Context, sc Scenario, want, tries, seed int, quiet time.Duration, progress func(*Run)) ([]*Run, error) {
	var runs []*Run
	kept := 0
	waitUntil := time.Now().Add(quiet)
	for i := 0; i < tries && kept < want; i++ {
		for time.Now().Before(waitUntil) {
			if ok, _ := MachineKeepsTime(time.Second, sc.Slot); ok {
				break
			}
			time.Sleep(2 * time.Second)
		}
		r, err := LiveRun(ctx, sc, seed+i)
		if err != nil {
			return runs, err
		}
		runs = append(runs, r)
		if r.Kept {
			kept++
		}
		if progress != nil {
			progress(r)
		}
	}
	return runs, nil
}

// MachineKeepsTime samples the machine's timer lateness for a while with
// nothing else of ours running, and says whether it is within half the
// limits a live run with slots of slot ms is kept within (the run adds its
// own load to whatever else the machine is doing), and if not, why.
func MachineKeepsTime(d time.Duration, slot int) (bool, string) {
	s := startSampler()
	time.Sleep(d)
	q := quantiles(s.stop())
	l := LimitsFor(Scenario{Slot: slot})
	if q.N == 0 || q.P99 > l.TimerP99/2 || q.Max > l.TimerMax/2 {
		return false, fmt.Sprintf("the machine's timers are late by %v with nothing of ours running (limits before a run: p99 %v, max %v)", q, l.TimerP99/2, l.TimerMax/2)
	}
	return true, ""
}
