package backoff

import (
	"runtime"
	"testing"
)

// largest is the settings at the top of every range, seed 7, 100 ms slots.
func largest() Settings {
	return Settings{FirstWait: 10000, LongestWait: 600000, Attempts: 12, Clients: 1000, Outage: 600000, Seed: 7, Slot: 100}
}

// BenchmarkCrowd runs the crowd for all five policies at the largest settings.
func BenchmarkCrowd(b *testing.B) {
	s := largest()
	b.ReportAllocs()
	for b.Loop() {
		RunCrowds(s)
	}
}

// BenchmarkCrowdArithmetic is the floor BenchmarkCrowd is measured against: a
// tight loop doing only the reference's arithmetic, plainly written: every
// draw of every client of all five policies, with a hardware remainder, and
// no slots, no counting and no early stop.
func BenchmarkCrowdArithmetic(b *testing.B) {
	s := largest()
	expo := make([]int, s.Attempts)
	for k := 1; k < s.Attempts; k++ {
		expo[k] = Expo(s.FirstWait, s.LongestWait, k)
	}
	sink := 0
	b.ReportAllocs()
	for b.Loop() {
		for p := range NumPolicies {
			for client := 1; client <= s.Clients; client++ {
				state := uint32(s.Seed*1000 + client)
				draw := func(lo, hi int) int {
					state = 1664525*state + 1013904223
					return lo + int(state>>16)%(hi-lo+1)
				}
				last := s.FirstWait
				for k := 1; k < s.Attempts; k++ {
					e := expo[k]
					switch Policy(p) {
					case Fixed:
						sink += s.FirstWait
					case Exponential:
						sink += e
					case FullJitter:
						sink += draw(0, e)
					case EqualJitter:
						sink += e/2 + draw(0, e-e/2)
					default:
						last = min(draw(s.FirstWait, 3*last), s.LongestWait)
						sink += last
					}
				}
			}
		}
	}
	if sink == 0 {
		b.Fatal("no waits drawn")
	}
}

// BenchmarkCrowdSeeds is crowd --seeds 1000 at the largest settings, on as
// many workers as -cpu allows. cpu-ns/op is the CPU time spent, all workers
// together: if it stays put from -cpu 1 to -cpu 2, the workers add no work,
// and only a machine busy with other things keeps ns/op from halving.
func BenchmarkCrowdSeeds(b *testing.B) {
	s := largest()
	b.ReportAllocs()
	start := processCPU()
	for b.Loop() {
		RunSeeds(s, 1000, runtime.GOMAXPROCS(0))
	}
	if cpu := processCPU() - start; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// The crowd's allocations do not grow with the number of clients: the counts
// it returns are as long as the time the retries span, and nothing else is
// per client. (A garbage collection may empty the scratch pool, hence one
// allocation of slack.)
func TestCrowdAllocationsDoNotGrowWithClients(t *testing.T) {
	one, many := largest(), largest()
	one.Clients = 1
	allocs := func(s Settings) float64 { return testing.AllocsPerRun(20, func() { RunCrowds(s) }) }
	a1, a1000 := allocs(one), allocs(many)
	t.Logf("allocations per crowd: %v for 1 client, %v for 1000", a1, a1000)
	if a1000 > a1+1 {
		t.Errorf("allocations per crowd: got %v for 1000 clients, %v for 1; want no more", a1000, a1)
	}
}
