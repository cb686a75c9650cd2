package crosscheck

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	cenkaltiv4 "github.com/cenkalti/backoff/v4"
	cenkaltiv5 "github.com/cenkalti/backoff/v5"
	"github.com/hashicorp/go-retryablehttp"
	grpcbackoff "google.golang.org/grpc/backoff"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"

	"github.com/retryplanner/retry-planner/backoff"
)

// unjittered are the libraries' own base waits, with their jitter set to
// 0, for the first n retries.
var unjittered = []struct {
	preset, name, library string
	n                     int // retries compared: the preset's, and more where the library goes on
	waits                 func(n int) []time.Duration
}{
	{"cenkalti", "v4", "cenkalti/backoff v4 ExponentialBackOff, RandomizationFactor 0, NextBackOff()", 99,
		func(n int) []time.Duration {
			b := cenkaltiv4.NewExponentialBackOff(cenkaltiv4.WithRandomizationFactor(0))
			return repeat(n, b.NextBackOff)
		}},
	{"cenkalti", "v5", "cenkalti/backoff v5 ExponentialBackOff, RandomizationFactor 0, NextBackOff()", 99,
		func(n int) []time.Duration {
			b := cenkaltiv5.NewExponentialBackOff()
			b.RandomizationFactor = 0
			return repeat(n, b.NextBackOff)
		}},
	{"retryablehttp", "DefaultBackoff", "go-retryablehttp DefaultBackoff(RetryWaitMin, RetryWaitMax, i, nil), i = 0, 1, ...", 10,
		func(n int) []time.Duration {
			c := retryablehttp.NewClient()
			i := 0
			return repeat(n, func() time.Duration {
				defer func() { i++ }()
				return retryablehttp.DefaultBackoff(c.RetryWaitMin, c.RetryWaitMax, i, nil)
			})
		}},
	// OnError sleeps only Steps-1 = 3 times; Step() itself goes on: its
	// fourth and fifth calls are 1250 and 6250 ms. From then on it has run
	// out of steps and returns 6250 ms again (pinned in
	// TestClientGoStepsRunOut), where our 5x would go on.
	{"client-go", "Step", "apimachinery wait.Backoff = retry.DefaultBackoff with Jitter 0, Step()", 5,
		func(n int) []time.Duration {
			var b wait.Backoff = k8sretry.DefaultBackoff
			b.Jitter = 0
			return repeat(n, b.Step)
		}},
	// The connection backoff's Backoff(i) with Jitter 0 is min(base*1.6^i,
	// max): our d(i+1). With jitter it does not jitter i = 0 (see
	// TestJitter); with Jitter 0 that makes no difference.
	{"grpc", "Backoff", "grpc-go internal/backoff Exponential{DefaultConfig with Jitter 0}.Backoff(i), i = 0, 1, ...", 16,
		func(n int) []time.Duration {
			c := grpcbackoff.DefaultConfig
			c.Jitter = 0
			i := 0
			return repeat(n, func() time.Duration {
				defer func() { i++ }()
				return grpcBackoff(grpcExponential{c}, i)
			})
		}},
}

// runs writes waits with runs of one value shortened: "500 750 60000x87".
func runs(v []int) string {
	var out []string
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j] == v[i] {
			j++
		}
		if j-i > 2 {
			out = append(out, fmt.Sprintf("%dx%d", v[i], j-i))
		} else {
			for range j - i {
				out = append(out, strconv.Itoa(v[i]))
			}
		}
		i = j
	}
	return strings.Join(out, " ")
}

func repeat(n int, f func() time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = f()
	}
	return out
}

// TestNoJitter checks that each library, its jitter set to 0, waits our
// d(k) before retry k to the millisecond (the library's nanoseconds
// rounded down, as our microseconds are), for every retry the preset has
// and a few more where the library goes on; and that our schedule under
// no jitter waits the same.
func TestNoJitter(t *testing.T) {
	for _, row := range unjittered {
		t.Run(row.preset+"/"+row.name, func(t *testing.T) {
			p := preset(t, row.preset).Policy
			lib := row.waits(row.n)
			flat := p
			flat.Jitter = backoff.Jitter{}
			flat.Attempts = row.n + 1
			s := backoff.Defaults()
			s.Draws = backoff.Independent
			s.Seed = seed
			ours := backoff.Waits(flat, s, 1)
			if len(ours) != row.n {
				t.Fatalf("our schedule under no jitter: got %d waits, want %d", len(ours), row.n)
			}
			var line []int
			for k := 1; k <= row.n; k++ {
				got, _ := ms(lib[k-1])
				if want := p.Base(k); got != want {
					t.Errorf("retry %d: got %d ms (%v) from the library, want d(%d) = %d ms", k, got, lib[k-1], k, want)
				}
				if ours[k-1] != p.Base(k) {
					t.Errorf("retry %d: our schedule under no jitter got %d ms, want d(%d) = %d ms", k, ours[k-1], k, p.Base(k))
				}
				line = append(line, got)
			}
			t.Logf("%s: %s ms (the preset has %d retries)", row.library, runs(line), p.Retries())
		})
	}
}

// TestClientGoStepsRunOut pins what wait.Backoff does once its steps are
// used: it returns the last duration again and stops growing, 6250 ms
// from the fifth Step on, where our multiplier would give 31250 ms. No
// preset retry reaches it: OnError stops after Steps = 4 attempts.
func TestClientGoStepsRunOut(t *testing.T) {
	var b wait.Backoff = k8sretry.DefaultBackoff
	b.Jitter = 0
	got := repeat(7, b.Step)
	want := []time.Duration{10, 50, 250, 1250, 6250, 6250, 6250}
	for i := range want {
		if got[i] != want[i]*time.Millisecond {
			t.Errorf("Step %d: got %v, want %v", i+1, got[i], want[i]*time.Millisecond)
		}
	}
	if b.Steps != 0 {
		t.Errorf("steps left: got %d, want 0", b.Steps)
	}
	if d6 := preset(t, "client-go").Policy.Base(6); d6 != 31250 {
		t.Errorf("our d(6): got %d, want 31250", d6)
	}
}

// TestGRPCFirstBackoffUnjittered pins the connection backoff's first
// wait: Backoff(0) is BaseDelay exactly, jitter or not, where our preset
// (as the A6 retry policy) jitters it.
func TestGRPCFirstBackoffUnjittered(t *testing.T) {
	e := grpcExponential{grpcbackoff.DefaultConfig}
	for range 1000 {
		if got := grpcBackoff(e, 0); got != grpcbackoff.DefaultConfig.BaseDelay {
			t.Fatalf("Backoff(0) with DefaultConfig: got %v, want BaseDelay %v", got, grpcbackoff.DefaultConfig.BaseDelay)
		}
	}
	seen := map[time.Duration]bool{}
	for range 100 {
		seen[grpcBackoff(e, 1)] = true
	}
	if len(seen) < 90 {
		t.Errorf("Backoff(1) with DefaultConfig: got %d distinct waits in 100, want it jittered", len(seen))
	}
}

// manualClock is a clock for cenkalti v4 that moves only when told.
type manualClock struct{ now time.Time }

func (c *manualClock) Now() time.Time { return c.now }

// TestCenkaltiLimitOnTotalTime checks the preset's limit on total time
// means what MaxElapsedTime means in v4: with attempts taking no time and
// a clock that moves only by the waits, NextBackOff returns Stop once the
// elapsed time plus the next wait would pass 15 min (v4.3.0 checks
// elapsed+next > MaxElapsedTime), and our schedule under no jitter, with
// the service down throughout, stops out of time at the same retry. (v5
// checks the same in Retry, against the real clock, which a test cannot
// move.)
func TestCenkaltiLimitOnTotalTime(t *testing.T) {
	clock := &manualClock{now: time.Unix(0, 0)}
	b := cenkaltiv4.NewExponentialBackOff(cenkaltiv4.WithRandomizationFactor(0), cenkaltiv4.WithClockProvider(clock))
	made := 0
	for {
		w := b.NextBackOff()
		if w == cenkaltiv4.Stop {
			break
		}
		made++
		clock.now = clock.now.Add(w)
		if made > 1000 {
			t.Fatal("NextBackOff: got no Stop in 1000 waits, want one after 15 min")
		}
	}
	p := preset(t, "cenkalti").Policy
	p.Jitter = backoff.Jitter{}
	s := backoff.Defaults()
	s.Outage = backoff.MaxTime // down all along
	sc := backoff.ScheduleOf(p, s, 1)
	if sc.End != backoff.EndOutOfTime || sc.Made-1 != made {
		t.Errorf("our schedule: got %v after %d retries, want out of time after %d as the library", sc.End, sc.Made-1, made)
	}
	elapsed := clock.now.Sub(time.Unix(0, 0))
	got, _ := ms(elapsed)
	// Each of our waits is the library's rounded down to whole ms: up to
	// 1 ms shorter.
	if got < sc.Total || got > sc.Total+made {
		t.Errorf("time in all: got %d ms from the library, want %d ms (ours) to %d", got, sc.Total, sc.Total+made)
	}
	t.Logf("v4 with MaxElapsedTime %v: %d retries in %v, then Stop; ours: %d retries in %d ms, then %v",
		b.MaxElapsedTime, made, elapsed, sc.Made-1, sc.Total, sc.End)
}
