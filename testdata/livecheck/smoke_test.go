package livecheck

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
)

// Small live storms of every kind of client, and of a queue, that check
// what holds however late the machine is: the run itself agrees (every
// client in the log as it can end, its attempts the ones it sent, through
// by its library's word exactly when the server served it); nothing is
// served before the outage's end, nor a crowd client's first attempt; no
// slot serves more than cap(i) (a queue: no millisecond more than c(t),
// and nothing served that waited T or more); the clients add up, and the
// attempts by outcome; clients with breakers (MODEL.md section 7)
// short-circuit some attempts, which never reach the server. No figure is
// held to the model here: timing is the other tests' business.
// They take a few seconds, and are the ones to run with -race.
func TestLiveSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no live storms")
	}
	small := func(k Kind) Scenario {
		return Scenario{Name: "small " + k.String(), Kind: k, Clients: 40, Outage: 300, Slot: 100, Capacity: 100, Load: 20, LoadUntil: 600}
	}
	var scenarios []Scenario
	for _, k := range Kinds() {
		scenarios = append(scenarios, small(k))
	}
	for _, q := range []Queue{{Size: 5, Timeout: 60}, {Size: 5, Timeout: 60, DropExpired: true, Order: LIFO}} {
		sc := small(PlannerFullJitter)
		sc.Name, sc.Queue = "small queue "+q.Order.String(), q
		scenarios = append(scenarios, sc)
	}
	for _, k := range []Kind{PlannerFullJitter, RetryableLinear} {
		sc := small(k)
		sc.Name, sc.Breaker, sc.Processes = sc.Name+", breaker 3:100ms in 2 processes", backoff.Breaker{Failures: 3, Open: 100}, 2
		scenarios = append(scenarios, sc)
	}
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			r, err := LiveRun(context.Background(), sc, LiveSeed)
			if err != nil {
				t.Fatal(err)
			}
			f := r.Figures
			if f.Through+f.GaveUp+f.OutOfTime != f.Clients || f.Clients != sc.AllClients() {
				t.Errorf("clients: got %d through + %d gave up + %d out of time of %d, want them to add up to %d",
					f.Through, f.GaveUp, f.OutOfTime, f.Clients, sc.AllClients())
			}
			if f.Served+f.Rejected+f.FailedWhileDown+f.TimedOut+f.ShortCircuited != f.Attempts || f.Attempts != len(r.Log)+len(r.Shorted) {
				t.Errorf("attempts: got %+v, want the outcomes to add up to %d", f, len(r.Log)+len(r.Shorted))
			}
			if f.ShortCircuited != len(r.Shorted) || sc.Breaker.On() != (f.ShortCircuited > 0) || sc.Breaker.On() != (f.BreakerOpened > 0) {
				t.Errorf("breaker %v: got %d short-circuited (%d logged by the clients), opened %d times; want some of both with a breaker, none without",
					sc.Breaker, f.ShortCircuited, len(r.Shorted), f.BreakerOpened)
			}
			s := sc.Settings(LiveSeed)
			perSlot := map[int64]int{}
			perMs := map[int64]int64{}
			seen := map[int32]bool{}
			for _, e := range r.Shorted {
				seen[e.Client] = seen[e.Client] || e.At < firstArrival(r.Log, e.Client) // its first attempt short-circuited
			}
			for _, e := range r.Log {
				if e.Outcome == ShortCircuited {
					t.Errorf("client %d's attempt at %v: short-circuited in the server's log, want none there", e.Client, e.At)
				}
				first := !seen[e.Client] && int(e.Client) <= sc.Clients
				seen[e.Client] = true
				if first && e.Outcome != Down {
					t.Errorf("client %d's first attempt at %v: got %v, want down", e.Client, e.At, e.Outcome)
				}
				if e.Outcome != Served {
					continue
				}
				if ms(e.At) < int64(sc.Outage) {
					t.Errorf("client %d served at %v, before the outage's end", e.Client, e.At)
				}
				perSlot[ms(e.At)/int64(sc.Slot)]++
				perMs[ms(e.Done)]++
				if sc.Queue.Timeout > 0 && ms(e.Done)-ms(e.At) >= int64(sc.Queue.Timeout) {
					t.Errorf("client %d served at %v after arriving at %v: waited the timeout or more", e.Client, e.Done, e.At)
				}
			}
			for i, n := range perSlot {
				if c := s.SlotCapacity(int(i), sc.Slot); !sc.Queue.On() && n > c {
					t.Errorf("slot %d: got %d served, want at most cap = %d", i, n, c)
				}
			}
			for tm, n := range perMs {
				if c := msCap(int64(sc.Capacity), tm); sc.Queue.On() && int64(n) > c {
					t.Errorf("ms %d: got %d served, want at most c(t) = %d", tm, n, c)
				}
			}
			t.Logf("%d of %d through, %d attempts, kept %v %s", f.Through, f.Clients, f.Attempts, r.Kept, r.Why)
		})
	}
}

// firstArrival is client c's first arrival in the server's log, or the
// longest duration if none.
func firstArrival(log []Entry, c int32) time.Duration {
	first := time.Duration(math.MaxInt64)
	for _, e := range log {
		if e.Client == c {
			first = min(first, e.At)
		}
	}
	return first
}
