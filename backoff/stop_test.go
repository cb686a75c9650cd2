package backoff

import (
	"errors"

	"sync/atomic"
	"testing"
	"time"
)

// The engine asks its Stop function at least every stopEvery units of
// work (attempts taken and buckets or milliseconds visited) and some more,
// whatever the settings: jittered retries in wide buckets, a budget's
// millisecond of 200,000 attempts in client order, a queue, the crowd's
// first attempts; and once told to stop it does no more work.
func TestEngineAsksStopOften(t *testing.T) {
	jitter := Policy{Name: "full jitter", FirstWait: 1, LongestWait: 3600000, Multiplier: 2000, Attempts: 100,
		Jitter: Jitter{Kind: JitterFull}}
	fixed := Policy{Name: "fixed", FirstWait: 1000, LongestWait: 1000, Multiplier: 1000, Attempts: 100}
	huge := func(change func(s *Settings)) Settings {
		s := Defaults()
		s.Clients, s.Attempts, s.Outage, s.Capacity, s.Draws = 200000, 100, 86400000, 50000, Independent
		change(&s)
		return s
	}
	tests := []struct {
		name string
		p    Policy
		s    Settings
		// the most work between two looks: stopEvery and what one step
		// may add, an attempt with its retries drawn with no wait
		most int64
	}{
		{"jitter, no queue", jitter, huge(func(s *Settings) {}), stopEvery + 4096 + 100},
		{"a budget's milliseconds in client order", fixed, huge(func(s *Settings) {
			s.Budget, s.Outage = Budget{Kind: BudgetAWS, A: 1000000, B: 1}, 30000
		}), stopEvery + 4096 + 100},
		{"jitter, a queue", jitter, huge(func(s *Settings) {
			s.Queue, s.Timeout, s.Outage, s.Load, s.LoadUntil = 20000, 2000, 30000, 15000, 180000
		}), stopEvery + 4096 + 100},
		{"a budget with a queue", fixed, huge(func(s *Settings) {
			s.Budget, s.Outage, s.Queue, s.Timeout = Budget{Kind: BudgetAWS, A: 1000000, B: 1}, 30000, 100000, 500
		}), stopEvery + 4096 + 100},
		// Cohorts in lanes (runLanes): a millisecond's work is at most the
		// crowd's 1,000 and 15 fresh requests a millisecond with their
		// retries.
		{"cohorts at a queue", fixed, huge(func(s *Settings) {
			s.Clients, s.Queue, s.Timeout, s.Outage, s.Load, s.LoadUntil = 1000, 20000, 2000, 30000, 15000, 180000
		}), stopEvery + 4096 + 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.s.ValidateIn(WideLimits); err != nil {
				t.Fatal(err)
			}
			e := newEngine(newPlan(tt.p, tt.s.Draws), tt.s, false, nil)
			work := func() int64 { return int64(e.f.Attempts) + e.ticks }
			const yesAt = 50
			calls, last, most, atYes := 0, int64(0), int64(0), 0
			d := engineWatch(tt.p, tt.s, func() bool {
				calls++
				w := work()
				most, last = max(most, w-last), w
				if calls == yesAt {
					atYes = e.f.Attempts
				}
				return calls >= yesAt
			})
			e.stop = d.stop
			_, _, err := e.run()
			d.end(t)
			if !errors.Is(err, ErrStopped) || calls != yesAt {
				t.Fatalf("got %v after %d looks, want ErrStopped at look %d", err, calls, yesAt)
			}
			if most > tt.most {
				t.Errorf("the most work between two looks: got %d, want at most %d", most, tt.most)
			}
			if e.f.Attempts != atYes {
				t.Errorf("attempts taken after the stop: got %d, want 0", e.f.Attempts-atYes)
			}
		})
	}
}

// The fast path (no service) asks Stop every 1024 clients; stopped, it
// leaves its tally zeroed, as a tally must go back to the pool.
func TestFastPathAsksStop(t *testing.T) {
	s := Defaults()
	s.Clients, s.Attempts, s.FirstWait, s.LongestWait, s.Outage, s.Draws = 100000, 100, 1, 3600000, 86400000, Independent
	for _, p := range []Policy{s.Policy(FullJitter), s.Policy(Decorrelated)} {
		pl := newPlan(p, s.Draws)
		ta := new(tally)
		calls := 0
		count := func() bool { calls++; return false }
		want, err := tallyCrowd(t, ta, pl, s, count)
		if err != nil || calls != s.Clients/1024 {
			t.Fatalf("%s: got %v after %d looks, want none after %d, one every 1024 clients", p, err, calls, s.Clients/1024)
		}
		calls = 0
		stop := func() bool { calls++; return calls >= 50 }
		if _, err := tallyCrowd(t, ta, pl, s, stop); !errors.Is(err, ErrStopped) || calls != 50 {
			t.Fatalf("%s: got %v after %d looks, want ErrStopped at look 50", p, err, calls)
		}
		if got, _ := tallyCrowd(t, ta, pl, s, nil); got != want {
			t.Errorf("%s after a stopped run:\n got %+v\nwant %+v", p, got, want)
		}
		small := s
		small.Clients, small.Slot = 3000, 1 // past maxCountSlots: the bitmap
		calls = 0
		second := func() bool { calls++; return calls >= 2 }
		if _, err := tallyCrowd(t, ta, newPlan(p, small.Draws), small, second); !errors.Is(err, ErrStopped) {
			t.Fatalf("%s at 1 ms slots: got %v after %d looks, want ErrStopped", p, err, calls)
		}
		want, _ = tallyCrowd(t, new(tally), newPlan(p, small.Draws), small, nil)
		if got, _ := tallyCrowd(t, ta, newPlan(p, small.Draws), small, nil); got != want {
			t.Errorf("%s at 1 ms slots after a stopped run:\n got %+v\nwant %+v", p, got, want)
		}
	}
}

// Once Stop says stop, RunAll starts no other policy and RunSeeds no other
// seed: with one worker, Stop is asked before each policy (small crowds
// ask nothing else) or after each seed, and never again after yes.
func TestRunAllAndSeedsStartNothingOnceStopped(t *testing.T) {
	s := Defaults()
	var ps []Policy
	for _, pr := range Presets() {
		ps = append(ps, pr.Policy)
	}
	for _, yesAt := range []int{1, 3, len(ps)} {
		calls := 0
		stop := func() bool { calls++; return calls >= yesAt }
		if _, err := runAll(t, ps, s, Options{Stop: stop}, 1); !errors.Is(err, ErrStopped) || calls != yesAt {
			t.Errorf("RunAll, yes at look %d: got %v after %d looks", yesAt, err, calls)
		}
		calls = 0
		var done atomic.Int64
		if _, err := runSeeds(t, s.Five(), s, 100, SeedOptions{Workers: 1, Stop: stop, Done: &done}); !errors.Is(err, ErrStopped) ||
			calls != yesAt || done.Load() != int64(yesAt) {
			t.Errorf("RunSeeds, yes at look %d: got %v after %d looks and %d seeds", yesAt, err, calls, done.Load())
		}
	}
	// Two workers: once one is told to stop, the other starts nothing.
	var calls atomic.Int64
	stop := func() bool { return calls.Add(1) >= 4 }
	if _, err := runAll(t, ps, s, Options{Stop: stop}, 2); !errors.Is(err, ErrStopped) || calls.Load() > 5 {
		t.Errorf("RunAll on 2 workers: got %v after %d looks, want ErrStopped after 4 or 5", err, calls.Load())
	}
}

// Issue 20's run that piled up: a million clients, 100 attempts, first
// wait 1 ms, longest an hour, an outage of a day, on the fast path and
// against a service; told to stop a few milliseconds in, it returns
// ErrStopped at once. The time is logged; the bound is loose, as the
// machine may be busy: the counts above are the test.
func TestHugeRunStopsPromptly(t *testing.T) {
	if testing.Short() {
		t.Skip("a million clients")
	}
	s := Defaults()
	s.Clients, s.Attempts, s.FirstWait, s.LongestWait, s.Outage = 1_000_000, 100, 1, 3600000, 86400000
	service := s
	service.Capacity = 50000
	for _, c := range []struct {
		name string
		s    Settings
	}{{"the fast path", s}, {"a service", service}} {
		t.Run(c.name, func(t *testing.T) {
			var flipped atomic.Int64 // when Stop first said yes, in ns since start
			start := time.Now()
			stop := func() bool {
				since := time.Since(start)
				if since < 5*time.Millisecond {
					return false
				}
				flipped.CompareAndSwap(0, int64(since))
				return true
			}
			_, err := runAll(t, c.s.Five(), c.s, Options{Stop: stop}, 2)
			took := time.Since(start)
			if !errors.Is(err, ErrStopped) {
				t.Fatalf("got %v, want ErrStopped", err)
			}
			after := took - time.Duration(flipped.Load())
			t.Logf("%s: stopped %v after Stop first said yes (%v in all)", c.name, after, took)
			if after > time.Second {
				t.Errorf("stopped %v after Stop said yes, want well under a second", after)
			}
		})
	}
}
