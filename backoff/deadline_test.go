package backoff

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Every run these tests make, of the engine, the fast path or the model
// beside them, runs under a deadline of its own (issue 25.10): a run that
// never ends is stopped through its Stop function once it has used
// runDeadline of the process's CPU time, and fails its test naming the
// policy and the settings that ran long, in seconds rather than at go
// test's ten minutes. CPU time, not the clock: on a machine whose cores
// other work shares, a run's clock time stretches and its CPU time does
// not (where the CPU time is not measured, the clock's). A run stuck where
// it never asks Stop is ended, stuckAfter on the clock, by a panic that
// names it. The tests call run, runAll, runSeeds, runCrowds, tallyCrowd
// and modelRun (and engineWatch for an engine of their own), never Run,
// RunAll, RunSeeds, Crowds.Run or a tally's crowd themselves.

// runDeadline is the CPU time one run may use in a test: the longest here
// use a few seconds.
const runDeadline = 30 * time.Second

// stuckAfter is when a run is taken for stuck where it never asks Stop.
const stuckAfter = 5 * time.Minute

// deadline watches one run.
type deadline struct {
	what   string // the run, for the failure
	from   time.Duration
	limit  time.Duration
	inner  func() bool // the run's own Stop, if any
	passed atomic.Bool
	stuck  *time.Timer
}

// used is the process's CPU time, or where it is not measured the clock's
// time since 1970.
func used() time.Duration {
	if c := processCPU(); c > 0 {
		return c
	}
	return time.Duration(time.Now().UnixNano())
}

// watch starts the watch of a run of what, limit long, its own Stop inner
// (nil for none).
func watch(what string, limit, stuck time.Duration, inner func() bool) *deadline {
	d := &deadline{what: what, from: used(), limit: limit, inner: inner}
	d.stuck = time.AfterFunc(stuck, func() {
		panic(fmt.Sprintf("%s: still running %v after it started, never asking to stop", what, stuck))
	})
	return d
}

// stop is the run's Stop: true once the deadline has passed, else what
// the run's own Stop says. The run's own is asked exactly as often as
// without the watch, until the deadline.
func (d *deadline) stop() bool {
	if used()-d.from > d.limit {
		d.passed.Store(true)
		return true
	}
	return d.inner != nil && d.inner()
}

// end ends the watch and fails t if the run passed its deadline.
func (d *deadline) end(t testing.TB) {
	t.Helper()
	d.stuck.Stop()
	if d.passed.Load() {
		t.Errorf("%s: ran past its deadline of %v of CPU time and was stopped (a run that never ends?)", d.what, d.limit)
	}
}

// runName names a run of these policies under s, for a failure.
func runName(ps []Policy, s Settings) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		type fields Policy // every field, not the name alone that String gives
		names[i] = fmt.Sprintf("%+v", fields(p))
	}
	return fmt.Sprintf("policies %s under settings %+v", strings.Join(names, ", "), s)
}

// run is Run under a deadline.
func run(t testing.TB, p Policy, s Settings, o Options) (Result, error) {
	t.Helper()
	d := watch(runName([]Policy{p}, s), runDeadline, stuckAfter, o.Stop)
	o.Stop = d.stop
	r, err := Run(p, s, o)
	d.end(t)
	return r, err
}

// runAll is RunAll under a deadline.
func runAll(t testing.TB, ps []Policy, s Settings, o Options, workers int) ([]Result, error) {
	t.Helper()
	d := watch(runName(ps, s), runDeadline, stuckAfter, o.Stop)
	o.Stop = d.stop
	rs, err := RunAll(ps, s, o, workers)
	d.end(t)
	return rs, err
}

// runSeeds is RunSeeds under a deadline.
func runSeeds(t testing.TB, ps []Policy, s Settings, count int, o SeedOptions) (SeedsCrowd, error) {
	t.Helper()
	d := watch(fmt.Sprintf("%d seeds of %s", count, runName(ps, s)), runDeadline, stuckAfter, o.Stop)
	o.Stop = d.stop
	sc, err := RunSeeds(ps, s, count, o)
	d.end(t)
	return sc, err
}

// runCrowds is c.Run under a deadline.
func runCrowds(t testing.TB, c *Crowds, p Policy, s Settings, stop func() bool) (Figures, error) {
	return runCrowdsWatched(t, c, p, s, stop, nil)
}

// runCrowdsWatched is c.RunWatched under a deadline.
func runCrowdsWatched(t testing.TB, c *Crowds, p Policy, s Settings, stop func() bool, w func(SoFar) bool) (Figures, error) {
	t.Helper()
	d := watch(runName([]Policy{p}, s), runDeadline, stuckAfter, stop)
	f, err := c.RunWatched(p, s, d.stop, w)
	d.end(t)
	return f, err
}

// tallyCrowd is ta.crowd, the fast path, under a deadline.
func tallyCrowd(t testing.TB, ta *tally, pl *plan, s Settings, stop func() bool) (Figures, error) {
	t.Helper()
	d := watch(fmt.Sprintf("the fast path of %+v under settings %+v", *pl, s), runDeadline, stuckAfter, stop)
	f, err := ta.crowd(pl, s, d.stop)
	d.end(t)
	return f, err
}

// engineWatch is the watch of an engine a test makes itself (newEngine),
// its own Stop own (nil for none): give the engine its stop, and call end
// after its run.
func engineWatch(p Policy, s Settings, own func() bool) *deadline {
	return watch(runName([]Policy{p}, s), runDeadline, stuckAfter, own)
}

// A run that does not end within its deadline is stopped and fails its
// test naming its settings, in seconds: a run of a million clients, a
// hundred attempts each over an hour's waits, against a queue that
// cannot keep up, given 50 ms.
func TestARunPastItsDeadlineFails(t *testing.T) {
	s := Defaults()
	s.Clients, s.Attempts, s.LongestWait, s.Outage, s.Capacity, s.Queue, s.Timeout = 1_000_000, MaxAttempts, MaxWait, 600_000, 1000, 100_000, 1000
	p := s.Policy(FullJitter)
	var rec failures
	rec.TB = t
	start := time.Now()
	d := watch(runName([]Policy{p}, s), 50*time.Millisecond, time.Minute, nil)
	_, err := Run(p, s, Options{Stop: d.stop})
	d.end(&rec)
	if took := time.Since(start); err != ErrStopped || took > 10*time.Second {
		t.Errorf("a run of 100 million attempts given 50 ms: got %v after %v, want ErrStopped within seconds", err, took)
	}
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "ran past its deadline of 50ms of CPU time") ||
		!strings.Contains(rec.errors[0], "Clients:1000000") || !strings.Contains(rec.errors[0], "Name:full jitter") {
		t.Errorf("the failure: got %q, want one naming the deadline, the policy and the settings", rec.errors)
	}
	// A run within its deadline fails nothing, and its own Stop is asked
	// as often as without the watch.
	rec.errors = nil
	small := Defaults()
	small.Clients, small.Capacity = 20_000, 1000
	calls := 0
	count := func() bool { calls++; return false }
	if _, err := Run(small.Policy(FullJitter), small, Options{Stop: count}); err != nil {
		t.Fatal(err)
	}
	alone := calls
	calls = 0
	d = watch("a small run", time.Minute, 2*time.Minute, count)
	if _, err := Run(small.Policy(FullJitter), small, Options{Stop: d.stop}); err != nil {
		t.Fatal(err)
	}
	d.end(&rec)
	if len(rec.errors) != 0 || calls != alone || alone == 0 {
		t.Errorf("a run within its deadline: failures %q, its own Stop asked %d times; want none, and %d times as without the watch", rec.errors, calls, alone)
	}
}

// failures is a testing.TB that keeps what Errorf says.
type failures struct {
	testing.TB
	errors []string
}

func (f *failures) Helper() {}

func (f *failures) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
