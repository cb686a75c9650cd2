package advice

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
)

// Every search and every spread these tests run has a deadline of its own
// (issue 25.10), as the runs of backoff's tests have (see its
// deadline_test.go): once it has used searchDeadline of the process's CPU
// time (the clock's where that is not measured) its Stop says stop, and
// the test fails naming the search that ran long, in seconds rather than
// at go test's ten minutes; one stuck where it never asks Stop is ended by
// a panic naming it. The tests call search and seeds, never Run or
// backoff.RunSeeds themselves.

// searchDeadline is the CPU time one search may use: the longest here,
// the README's scenario over 20 seeds, uses about 12 s.
const searchDeadline = 2 * time.Minute

// underDeadline runs run with a Stop that says stop past limit, or when
// own (nil for none) says so, and fails t naming what if the deadline
// passed.
func underDeadline(t testing.TB, what string, limit time.Duration, own func() bool, run func(stop func() bool) error) error {
	t.Helper()
	now := func() time.Duration {
		if c := processCPU(); c > 0 {
			return c
		}
		return time.Duration(time.Now().UnixNano())
	}
	from := now()
	var passed atomic.Bool
	stuck := time.AfterFunc(limit+5*time.Minute, func() { panic(what + ": still running, never asking to stop") })
	err := run(func() bool {
		if now()-from > limit {
			passed.Store(true)
			return true
		}
		return own != nil && own()
	})
	stuck.Stop()
	if passed.Load() {
		t.Errorf("%s: ran past its deadline of %v of CPU time and was stopped (a search that never ends?)", what, limit)
	}
	return err
}

// searchName names a search, for a failure.
func searchName(sr Search) string {
	return fmt.Sprintf("the search over %d seeds for %s under settings %+v", sr.Seeds, sr.Goals, sr.Settings)
}

// search is Run under a deadline.
func search(t testing.TB, sr Search, o Options) (Advice, error) {
	t.Helper()
	var adv Advice
	err := underDeadline(t, searchName(sr), searchDeadline, o.Stop, func(stop func() bool) error {
		o.Stop = stop
		var err error
		adv, err = Run(sr, o)
		return err
	})
	return adv, err
}

// seeds is backoff.RunSeeds under a deadline.
func seeds(t testing.TB, ps []backoff.Policy, s backoff.Settings, count int, o backoff.SeedOptions) (backoff.SeedsCrowd, error) {
	t.Helper()
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	var sc backoff.SeedsCrowd
	err := underDeadline(t, fmt.Sprintf("%d seeds of %s under settings %+v", count, strings.Join(names, ", "), s), searchDeadline, o.Stop,
		func(stop func() bool) error {
			o.Stop = stop
			var err error
			sc, err = backoff.RunSeeds(ps, s, count, o)
			return err
		})
	return sc, err
}

// A search past its deadline is stopped and fails its test naming it.
func TestASearchPastItsDeadlineFails(t *testing.T) {
	sr := Search{Settings: small(), Seeds: 5, Goals: mustGoals(t, "not-through<=10%")}
	rec := &failures{TB: t}
	err := underDeadline(rec, searchName(sr), time.Millisecond, nil, func(stop func() bool) error {
		_, err := Run(sr, Options{Workers: 1, Stop: stop})
		return err
	})
	if !errors.Is(err, backoff.ErrStopped) {
		t.Errorf("a search given 1 ms: got %v, want backoff.ErrStopped", err)
	}
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "ran past its deadline of 1ms of CPU time") ||
		!strings.Contains(rec.errors[0], "Clients:300") || !strings.Contains(rec.errors[0], "not-through<=10%") {
		t.Errorf("the failure: got %q, want one naming the deadline, the goals and the settings", rec.errors)
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
