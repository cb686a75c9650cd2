package advice

import (
	"runtime"
	"testing"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
)

// speedScenario is issue 17's scenario for speed: 50,000 clients, an
// outage of 30 s, a capacity of 2,000 a second under a load of 1,500 a
// second for 3 minutes, a queue of 4,000, a timeout of 2 s.
func speedScenario() backoff.Settings {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Load, s.LoadUntil, s.Queue, s.Timeout = 50000, 30000, 2000, 1500, 210000, 4000, 2000
	s.Draws = backoff.Independent
	return s
}

// BenchmarkAdvise is the default search of the scenario for speed over
// 20 seeds, goals not-through<=1%, recovered<=60s and peak<=1.5x, on every
// core. Issue 17 holds advise within 10 times crowd --seeds 20 of the
// five for the same scenario (BenchmarkFiveSeeds), issue 27 within 2
// times. Measured at a26661e, three pairs in turn on the 2-core machine
// under another load (both sides some 1.6 times their quiet time): 27.9 s
// of CPU against 4.83 s, 5.8 times (639 crowds); 6.3 times before
// decorrelated jitter from a first wait at the longest ran once.
func BenchmarkAdvise(b *testing.B) {
	sr := Search{Settings: speedScenario(), Seeds: 20, Goals: mustGoals(b, "not-through<=1%", "recovered<=60s", "peak<=1.5x")}
	b.ReportAllocs()
	crowds := 0
	cpu := processCPU()
	for b.Loop() {
		adv, err := Run(sr, Options{Workers: runtime.GOMAXPROCS(0)})
		if err != nil {
			b.Fatal(err)
		}
		crowds = adv.Crowds
	}
	b.ReportMetric(float64(crowds), "crowds/op")
	reportCPU(b, cpu)
}

// BenchmarkFiveSeeds is what advise is held against: the five's crowds
// over 20 seeds of the scenario for speed, as crowd --seeds 20 runs them.
func BenchmarkFiveSeeds(b *testing.B) {
	s := speedScenario()
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if _, err := backoff.RunSeeds(s.Five(), s, 20, backoff.SeedOptions{Workers: runtime.GOMAXPROCS(0)}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// reportCPU reports the CPU time the process took per op since cpu, user
// and system: on a machine that others share, the wall clock stretches
// with their load, far less the CPU time a run takes (where it is not
// measured, nothing is reported).
func reportCPU(b *testing.B, cpu time.Duration) {
	if now := processCPU(); now > 0 {
		b.ReportMetric(float64(now-cpu)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkAdviseMetastable is the search of the metastable scenario over
// 20 seeds, which finds a budget that meets the goals.
func BenchmarkAdviseMetastable(b *testing.B) {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Load, s.LoadUntil, s.Queue, s.Timeout = 2000, 30000, 100, 95, 300000, 1000, 1000
	s.Draws = backoff.Independent
	sr := Search{Settings: s, Seeds: 20, Goals: mustGoals(b, "not-through<=20%", "recovered<=120s")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(sr, Options{Workers: runtime.GOMAXPROCS(0)}); err != nil {
			b.Fatal(err)
		}
	}
}
