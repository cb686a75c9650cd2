package crosscheck

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/retryplanner/retry-planner/backoff"
)

// go-retryablehttp's LinearJitterBackoff (client.go, v0.7.8), for
// attemptNum i = 0, 1, ... (our retry k = i+1):
//
//	if max <= min { return min * k }
//	jitter := source.Float64() * float64(max-min)
//	return time.Duration((int64(jitter) + int64(min)) * k)
//
// So its wait is k times a draw from [min, max) ns, with no cap: max bounds
// the jitter, not the wait. Our linear growth with the longest wait out of
// reach (d(k) = min(c, k*b) = k*b) and up jitter of factor F =
// (max-min)/min (δ = floor(d*F/1000) = k*(max-min)) draws from [k*min,
// k*max] in whole ms: the library's range, whose top it never returns, as
// Envoy's and client-go's draws stop short of theirs (the presets' Differs).

// TestLinearUnjittered: with max = min the library waits exactly min*k, our
// d(k) for linear growth, retry by retry up to 99.
func TestLinearUnjittered(t *testing.T) {
	for _, b := range []time.Duration{25 * time.Millisecond, 250 * time.Millisecond, time.Second, 30 * time.Second} {
		p := backoff.Policy{Name: "linear", FirstWait: int(b / time.Millisecond), LongestWait: backoff.NoCap,
			Multiplier: 2000, Growth: backoff.GrowthLinear, Attempts: backoff.MaxAttempts}
		s := backoff.Defaults()
		s.Draws = backoff.Independent
		waits := backoff.ScheduleOf(p, s, 1).Retries
		for k := 1; k <= p.Retries(); k++ {
			lib := retryablehttp.LinearJitterBackoff(b, b, k-1, nil)
			want, whole := ms(lib)
			if !whole {
				t.Fatalf("LinearJitterBackoff(%v, %v, %d): got %v, not whole ms", b, b, k-1, lib)
			}
			if got := p.Base(k); got != want || waits[k-1].Wait != want {
				t.Errorf("first wait %v, retry %d: got d(k) %d, wait %d; want LinearJitterBackoff(%v, %v, %d, nil) = %v",
					b, k, got, waits[k-1].Wait, b, b, k-1, lib)
			}
		}
	}
}

// TestLinearJitter: with max > min, for each retry k, 20,000 library waits
// against 20,000 of ours (independent draws, clients 1 to 20,000, linear
// growth, up jitter (max-min)/min): every library wait lies in its range
// [k*min, k*max) ns and, rounded down to whole ms, in our band [k*min,
// k*max] ms; the library's smallest and largest come within a thousandth of
// the range of its ends (missed by uniform waits with probability 1e-9 at
// each end), and so do ours of our band's; and the two have the same shape:
// a two-sample KS test on our grid at alpha 1e-6, the library's wait put on
// it by its offset in its range, as TestJitter does.
func TestLinearJitter(t *testing.T) {
	crit := KSCritical(alpha, draws, draws)
	for _, c := range []struct {
		lo, hi time.Duration
		factor int // thousandths: (hi-lo)/lo
	}{{time.Second, 1500 * time.Millisecond, 500}, {200 * time.Millisecond, 400 * time.Millisecond, 1000}} {
		p := backoff.Policy{Name: "linear", FirstWait: int(c.lo / time.Millisecond), LongestWait: backoff.NoCap, Multiplier: 2000,
			Growth: backoff.GrowthLinear, Jitter: backoff.Jitter{Kind: backoff.JitterUp, Factor: c.factor}, Attempts: 11}
		ours, _ := ourWaits(p, draws)
		for _, k := range []int{1, 2, 3, 5, 10} {
			low, high := p.Band(k, p.FirstWait)
			if wl, wh := k*int(c.lo/time.Millisecond), k*int(c.hi/time.Millisecond); low != wl || high != wh {
				t.Fatalf("%s, retry %d: got band [%d, %d], want [%d, %d]", p.Describe(), k, low, high, wl, wh)
			}
			lo, hi := float64(k)*float64(c.lo), float64(k)*float64(c.hi) // the library's range, ns
			lib := make([]float64, draws)
			grid := make([]float64, draws)
			for i := range lib {
				w := retryablehttp.LinearJitterBackoff(c.lo, c.hi, k-1, nil)
				if float64(w) < lo || float64(w) >= hi {
					t.Fatalf("LinearJitterBackoff(%v, %v, %d): got %v, want it in [%v, %v)", c.lo, c.hi, k-1, w, time.Duration(lo), time.Duration(hi))
				}
				if m, _ := ms(w); m < low || m > high {
					t.Fatalf("retry %d: got a library wait of %v, want it in our band [%d, %d] ms", k, w, low, high)
				}
				lib[i] = float64(w)
				grid[i] = float64(low) + math.Floor((float64(w)-lo)/(hi-lo)*float64(high-low+1))
			}
			slack := (hi - lo) * -math.Log(tightAlpha) / draws
			if least, most := slices.Min(lib), slices.Max(lib); least-lo > slack || hi-most > slack {
				t.Errorf("retry %d: got library waits from %v to %v, want them within %v of [%v, %v)",
					k, time.Duration(least), time.Duration(most), time.Duration(slack), time.Duration(lo), time.Duration(hi))
			}
			mine := make([]float64, draws)
			for i, w := range ours[k-1] {
				mine[i] = float64(w)
			}
			msSlack := float64(high-low+1) * -math.Log(tightAlpha) / draws
			if least, most := slices.Min(mine), slices.Max(mine); least < float64(low) || most > float64(high) ||
				least-float64(low) > msSlack || float64(high)-most > msSlack {
				t.Errorf("retry %d: got our waits from %v to %v, want them in [%d, %d], within %.1f of its ends", k, least, most, low, high, msSlack)
			}
			if d := KS(grid, mine); d > crit {
				t.Errorf("retry %d: KS distance on our grid %.4f, want at most %.4f", k, d, crit)
			}
		}
	}
}
