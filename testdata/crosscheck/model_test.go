package crosscheck

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
)

// seed seeds every one of our draws in this module: the reference's
// default seed.
const seed = 7

// preset returns our preset of that name or stops the test.
func preset(t *testing.T, name string) backoff.Preset {
	t.Helper()
	p, ok := backoff.FindPreset(name)
	if !ok {
		t.Fatalf("FindPreset(%q): got none, want the preset", name)
	}
	return p
}

// ourWaits returns clients' waits under policy p, independent draws with
// one seed: waits[k-1][i] is w(k) of client i+1, in whole ms, and bands[k-1]
// retry k's band.
func ourWaits(p backoff.Policy, clients int) (waits [][]int, bands [][2]int) {
	s := backoff.Defaults()
	s.Draws = backoff.Independent
	s.Seed = seed
	waits = make([][]int, p.Retries())
	for k := range waits {
		waits[k] = make([]int, clients)
	}
	for c := 1; c <= clients; c++ {
		sc := backoff.ScheduleOf(p, s, c)
		for k, r := range sc.Retries {
			waits[k][c-1] = r.Wait
			if c == 1 {
				bands = append(bands, [2]int{r.Low, r.High})
			}
		}
	}
	return waits, bands
}

// ms is a library's duration in whole milliseconds, rounded down, and
// whether it was whole to begin with.
func ms(d time.Duration) (int, bool) {
	return int(d / time.Millisecond), d%time.Millisecond == 0
}

// thousandths is a library's factor as our policies hold it, and whether
// it is a whole number of thousandths.
func thousandths(f float64) (int, bool) {
	v := math.Round(f * 1000)
	return int(v), math.Abs(f*1000-v) < 1e-9
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func itoa(n int) string { return strconv.Itoa(n) }
