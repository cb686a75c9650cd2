package crosscheck

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	cenkaltiv4 "github.com/cenkalti/backoff/v4"
	cenkaltiv5 "github.com/cenkalti/backoff/v5"
	grpcbackoff "google.golang.org/grpc/backoff"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"

	"github.com/retryplanner/retry-planner/backoff"
)

// How the jittered waits are compared
//
// For each retry k of each jittered preset the test draws 20,000 waits from
// the library itself (its own code and its own random source: global
// math/rand, math/rand/v2 or crypto/rand, none of which a test can seed)
// and 20,000 of ours, from clients 1 to 20,000 with independent draws and
// one seed. Then:
//
//  1. The library's range. Every library wait lies in the range its
//     formula gives, [lo, hi) in nanoseconds, worked out from the library's
//     own unjittered base (its jitter set to 0, as in TestNoJitter) and its
//     jitter factor; and the range is tight: the smallest and largest of the
//     20,000 come within (hi-lo)*ln(1e9)/20,000 (a thousandth of the range)
//     of its ends, which uniform waits miss with probability 1e-9 at each
//     end.
//
//  2. Our band. It is exactly the band our model gives from the library's
//     own numbers (each row's band): its unjittered base rounded down to
//     whole ms and its factor, δ rounded down; so a band even 1 ms too
//     wide or too narrow fails, which the checks below alone would let
//     through where the library's range is wider than the band. A library
//     wait of w ns is inside our band [Low, High] when
//     Low <= w/1e6 < High+1, that is when w rounded down to whole ms is in
//     the band, as our whole-ms waits are. Where the library's whole range
//     [lo, hi) lies in [Low*1e6, (High+1)*1e6) no wait may fall outside.
//     Where it does not, our band is narrower than the library's range:
//     d(k) and δ are rounded down to whole ms (gRPC's fourth wait, base
//     4096 ms: δ = floor(819.2) = 819, band [3277, 4915] ms against the
//     library's [3276.8, 4915.2) ms; cenkalti's fourth, base 1687.5 ms:
//     band [844, 2530] against [843.75, 2531.25)). Waits there are counted
//     and logged with the count expected, and are the only ones allowed
//     outside: on each side, fewer than CountBound(expected, 1e-6), which
//     is 0 where the library's range does not reach past that side. Stricter where the library's range allows it: if its top is
//     at most High ms, no wait may exceed High ms. And the other way: our
//     band reaches no further than the library's range rounded out to
//     whole ms, so a band too wide is found as well as one too narrow.
//
//  3. Two-sample KS on our whole-ms grid, every retry, at alpha = 1e-6
//     (critical D = c(alpha)*sqrt((n+m)/(n*m)) = 0.0269 for n = m =
//     20,000). Our waits are whole ms drawn inclusively, u(lo, hi) with
//     hi-lo+1 values; the library's are continuous nanoseconds, and when a
//     band is a few ms wide quantisation alone separates the two by more
//     than the critical distance (client-go's first wait: ours is 10 or 11
//     ms, each half the time; the library's is in [10, 11) ms, 10 when
//     rounded down, always). So the library's wait is put on our grid the
//     way our model puts it there: its offset in its own range,
//     t = (w-lo)/(hi-lo) in [0, 1), becomes Low + floor(t*(High-Low+1)).
//     If the library's waits are uniform over its range, as our model says,
//     these are uniform over our band's values exactly as ours are, and the
//     test has its full significance (for whole numbers the KS test is
//     conservative: a chance failure is rarer than alpha). It tests the
//     shape of the library's randomness against ours, not where the range
//     lies or how wide it is: 1., 2. and TestNoJitter do that. Its distance
//     is "D on the grid".
//
//  4. Two-sample KS on the raw waits: the library's rounded down to whole
//     ms against ours, no mapping. The two distributions differ by a known
//     amount, q = sup |F_library - F_ours| worked out exactly from the
//     library's range and our band (our band holds one value more than the
//     library's waits round down to, and the slivers of 2.), and since the
//     KS distance of the samples is at most q plus the distance chance
//     makes (sup |(E1-F1) - (E2-F2)|, the empirical functions E against
//     their own distributions F, distributed as the KS distance of one
//     distribution's samples as q goes to 0), the test is D <= critical + q,
//     at about the same significance where q is small. It tells something
//     where q is under a quarter of the critical distance (bands of more
//     than about 150 values); where q is larger, the narrow bands, it
//     still runs but says next to nothing, and so:
//
//  5. Narrow bands (client-go's three retries: bands of 2, 6 and 26
//     values, q = 0.5, 0.167 and 0.038): besides 4., exact supports and
//     per-value frequencies. Ours take every value of the band and only
//     those, with a chi-square test against uniform; the library's waits
//     rounded down take every value of their own support, which stops one
//     ms short of our top ([10, 10], [50, 54], [250, 274]), with a chi-square
//     test against the exact distribution of a uniform wait over its range;
//     the library's waits on our grid (3.) take every value of the band,
//     with a chi-square test against uniform. Each at p >= 1e-6.
const (
	draws = 20000
	alpha = 1e-6
	// tightAlpha is check 1's chance of a false alarm at each end: a
	// tighter one than alpha, as it runs at both ends of every retry, and
	// its slack, a thousandth of the range, is still small.
	tightAlpha = 1e-9
)

// jittered are the libraries' jittered waits, one row per library.
var jittered = []struct {
	preset, name, formula string
	retries               []int // our retry numbers k
	// draw returns the library's waits: draw(n, retries)[i][j] is the wait
	// before retry retries[i] of the library's j-th client.
	draw func(n int, retries []int) [][]time.Duration
	// span is the library's range for retry k, [lo, hi) ns, from its
	// unjittered base and its jitter factor.
	span func(k int) (lo, hi float64)
	// band is the band our model gives retry k from the library's own
	// numbers: its unjittered base rounded down to whole ms, d, and its
	// factor in thousandths, F, with δ = floor(d*F/1000) (MODEL.md
	// section 2). Our preset's band must be exactly this: not merely
	// inside the library's range, where a band 1 ms too wide can hide.
	band func(k int) (low, high int)
}{
	{
		preset: "cenkalti", name: "v4",
		formula: "cenkalti/backoff v4 NewExponentialBackOff().NextBackOff(), the k-th call: I + (2U-1)*f*I, +1 ns",
		retries: upTo(99),
		draw: func(n int, retries []int) [][]time.Duration {
			return sequences(n, retries, func() func() time.Duration { return cenkaltiv4.NewExponentialBackOff().NextBackOff })
		},
		span: cenkaltiSpan(func() func() time.Duration {
			return cenkaltiv4.NewExponentialBackOff(cenkaltiv4.WithRandomizationFactor(0)).NextBackOff
		}, cenkaltiv4.DefaultRandomizationFactor),
		band: spreadBand(func(k int) time.Duration {
			return repeat(k, cenkaltiv4.NewExponentialBackOff(cenkaltiv4.WithRandomizationFactor(0)).NextBackOff)[k-1]
		}, cenkaltiv4.DefaultRandomizationFactor),
	},
	{
		preset: "cenkalti", name: "v5",
		formula: "cenkalti/backoff v5 NewExponentialBackOff().NextBackOff(), the k-th call: I + (2U-1)*f*I, +1 ns",
		retries: upTo(99),
		draw: func(n int, retries []int) [][]time.Duration {
			return sequences(n, retries, func() func() time.Duration { return cenkaltiv5.NewExponentialBackOff().NextBackOff })
		},
		span: cenkaltiSpan(func() func() time.Duration {
			b := cenkaltiv5.NewExponentialBackOff()
			b.RandomizationFactor = 0
			return b.NextBackOff
		}, cenkaltiv5.DefaultRandomizationFactor),
		band: spreadBand(func(k int) time.Duration {
			b := cenkaltiv5.NewExponentialBackOff()
			b.RandomizationFactor = 0
			return repeat(k, b.NextBackOff)[k-1]
		}, cenkaltiv5.DefaultRandomizationFactor),
	},
	// Our retry k is the connection backoff's Backoff(k-1): Backoff(0) is
	// the base unjittered (TestGRPCFirstBackoffUnjittered), so our first,
	// jittered, retry has no counterpart here. Backoff(n) for n >= 1 is
	// min(base*1.6^n, max) * (1 + 0.2*(2U-1)), our d(n+1) spread 0.2.
	{
		preset: "grpc", name: "Backoff",
		formula: "grpc-go internal/backoff Exponential{DefaultConfig}.Backoff(k-1): d * (1 + J*(2U-1))",
		retries: []int{2, 3, 4},
		draw: func(n int, retries []int) [][]time.Duration {
			e := grpcExponential{grpcbackoff.DefaultConfig}
			return independent(n, retries, func(k int) time.Duration { return grpcBackoff(e, k-1) })
		},
		span: func(k int) (lo, hi float64) {
			c := grpcbackoff.DefaultConfig
			j := c.Jitter
			c.Jitter = 0
			d := float64(grpcBackoff(grpcExponential{c}, k-1))
			return d * (1 - j), d * (1 + j)
		},
		band: spreadBand(func(k int) time.Duration {
			c := grpcbackoff.DefaultConfig
			c.Jitter = 0
			return grpcBackoff(grpcExponential{c}, k-1)
		}, grpcbackoff.DefaultConfig.Jitter),
	},
	// The preset's 3 attempts are 2 retries; the SDK's legacy formula,
	// ExponentialJitterBackoff, is U * 2^attempt s with attempt the 1-based
	// attempt that failed: our k. From the fifth retry it waits a flat 20 s,
	// no jitter (the preset's help says so; pinned in
	// TestAWSFlatFromTheFifthRetry), which no retry of the preset reaches.
	// Its jitter cannot be set to 0 (the random source is unexported), so
	// the range is the formula's, [0, 2^k s), which check 1 finds tight.
	// (NewStandard no longer uses this formula at v1.48.0: see
	// TestAWSStandardRetryBehavior21 and TestKnownDifferences.)
	{
		preset: "aws", name: "ExponentialJitterBackoff",
		formula: "aws-sdk-go-v2 retry.NewExponentialJitterBackoff(DefaultMaxBackoff).BackoffDelay(k, nil): U * 2^k s",
		retries: []int{1, 2},
		draw: func(n int, retries []int) [][]time.Duration {
			j := retry.NewExponentialJitterBackoff(retry.DefaultMaxBackoff)
			return independent(n, retries, func(k int) time.Duration {
				d, err := j.BackoffDelay(k, nil)
				if err != nil {
					panic(err)
				}
				return d
			})
		},
		span: func(k int) (lo, hi float64) { return 0, math.Ldexp(float64(time.Second), k) },
		// Full jitter: u(0, d) with d = 2^k s.
		band: func(k int) (low, high int) {
			d, _ := ms(time.Duration(1<<k) * time.Second)
			return 0, d
		},
	},
	{
		preset: "client-go", name: "Step",
		formula: "apimachinery wait.Backoff = client-go retry.DefaultBackoff, the k-th Step(): d + U*J*d",
		retries: []int{1, 2, 3},
		draw: func(n int, retries []int) [][]time.Duration {
			return sequences(n, retries, func() func() time.Duration {
				var b wait.Backoff = k8sretry.DefaultBackoff
				return b.Step
			})
		},
		span: func(k int) (lo, hi float64) {
			var b wait.Backoff = k8sretry.DefaultBackoff
			j := b.Jitter
			b.Jitter = 0
			d := float64(repeat(k, b.Step)[k-1])
			return d, d * (1 + j)
		},
		// Up jitter: u(d, d + δ).
		band: func(k int) (low, high int) {
			var b wait.Backoff = k8sretry.DefaultBackoff
			f, _ := thousandths(b.Jitter)
			b.Jitter = 0
			d, _ := ms(repeat(k, b.Step)[k-1])
			return d, d + d*f/1000
		},
	},
}

// spreadBand is our band for spread jitter of factor f around the
// library's unjittered base(k): [d - δ, d + δ], d the base rounded down
// to whole ms, δ = floor(d*F/1000) with F the factor in thousandths.
func spreadBand(base func(k int) time.Duration, f float64) func(k int) (low, high int) {
	return func(k int) (low, high int) {
		d, _ := ms(base(k))
		factor, _ := thousandths(f)
		delta := d * factor / 1000
		return d - delta, d + delta
	}
}

// pair is a band as one value, to compare.
func pair(low, high int) [2]int { return [2]int{low, high} }

func upTo(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// sequences draws n clients of a library whose waits come one after
// another from one value: client() makes a fresh one and returns its next
// wait.
func sequences(n int, retries []int, client func() func() time.Duration) [][]time.Duration {
	last := slices.Max(retries)
	out := make([][]time.Duration, len(retries))
	for i := range out {
		out[i] = make([]time.Duration, n)
	}
	for c := range n {
		next := client()
		i := 0
		for k := 1; k <= last; k++ {
			w := next()
			if i < len(retries) && retries[i] == k {
				out[i][c] = w
				i++
			}
		}
	}
	return out
}

// independent draws n waits for each retry of a library whose wait
// depends on the retry's number alone.
func independent(n int, retries []int, wait func(k int) time.Duration) [][]time.Duration {
	out := make([][]time.Duration, len(retries))
	for i, k := range retries {
		out[i] = make([]time.Duration, n)
		for c := range n {
			out[i][c] = wait(k)
		}
	}
	return out
}

// cenkaltiSpan is cenkalti's range for retry k: with I the k-th
// unjittered interval, minInterval + U*(maxInterval - minInterval + 1)
// with min and max I(1-f) and I(1+f): [I(1-f), I(1+f) + 1 ns).
func cenkaltiSpan(unjittered func() func() time.Duration, f float64) func(k int) (lo, hi float64) {
	return func(k int) (lo, hi float64) {
		d := float64(repeat(k, unjittered())[k-1])
		return d - f*d, d + f*d + 1
	}
}

// retryResult is what one retry's comparison found, for the summary.
type retryResult struct {
	k, base, low, high int
	lo, hi             float64 // the library's range, ns
	outside            int     // library waits outside our band
	expectedOutside    float64
	dGrid, dRaw, q     float64
	narrow             bool
}

// TestJitter compares each jittered preset's waits with the library's,
// retry by retry, as the comment above says.
func TestJitter(t *testing.T) {
	crit := KSCritical(alpha, draws, draws)
	ours := map[string][][]int{}
	ksTests := 0
	for _, row := range jittered {
		t.Run(row.preset+"/"+row.name, func(t *testing.T) {
			p := preset(t, row.preset).Policy
			if _, ok := ours[row.preset]; !ok {
				var bands [][2]int
				ours[row.preset], bands = ourWaits(p, draws)
				for k := 1; k <= p.Retries(); k++ {
					if lo, hi := p.Band(k, p.FirstWait); bands[k-1] != [2]int{lo, hi} {
						t.Errorf("retry %d: got band %v from ScheduleOf, want [%d %d] from Band", k, bands[k-1], lo, hi)
					}
				}
			}
			lib := row.draw(draws, row.retries)
			t.Logf("%s against our %s (%s), %d waits each per retry, critical D %.4f at alpha %g",
				row.formula, p.Name, p.Describe(), draws, crit, alpha)
			if row.preset == "grpc" {
				lo, hi := p.Band(1, p.FirstWait)
				t.Logf("retry 1: base %d ms, band [%d, %d]: no counterpart, the connection backoff's Backoff(0) is the base unjittered", p.Base(1), lo, hi)
			}
			var results []retryResult
			for i, k := range row.retries {
				if got, want := pair(p.Band(k, p.FirstWait)), pair(row.band(k)); got != want {
					t.Errorf("retry %d: got our band %v ms, want exactly %v from the library's base and factor", k, got, want)
				}
				r := compareRetry(t, p, k, lib[i], ours[row.preset][k-1], row.span, crit)
				ksTests += 2
				results = append(results, r)
			}
			logSummary(t, results, crit)
		})
	}
	t.Logf("%d KS tests at alpha %g: a run fails by chance with probability at most about %.1g", ksTests, alpha, float64(ksTests)*alpha)
}

// compareRetry runs checks 1 to 5 on retry k.
func compareRetry(t *testing.T, p backoff.Policy, k int, lib []time.Duration, ours []int, span func(int) (float64, float64), crit float64) retryResult {
	t.Helper()
	low, high := p.Band(k, p.FirstWait)
	r := retryResult{k: k, base: p.Base(k), low: low, high: high}
	r.lo, r.hi = span(k)
	lo, hi := r.lo, r.hi
	values := high - low + 1
	n := float64(len(lib))
	const msNs = float64(time.Millisecond)

	// 1. The library's own range, and that it is tight.
	least, most := slices.Min(lib), slices.Max(lib)
	for _, w := range lib {
		if float64(w) < math.Floor(lo)-1 || float64(w) >= hi+1 {
			t.Errorf("retry %d: got a library wait of %v, want one in its range [%v, %v)", k, w, time.Duration(lo), time.Duration(hi))
			break
		}
	}
	slack := (hi - lo) * -math.Log(tightAlpha) / n
	if float64(least)-lo > slack || hi-float64(most) > slack {
		t.Errorf("retry %d: got library waits from %v to %v, want them within %v of its range [%v, %v)",
			k, least, most, time.Duration(slack), time.Duration(lo), time.Duration(hi))
	}

	// 2. Our band, and the other way round: it reaches no further than
	// the library's range rounded out to whole ms (the largest wait the
	// library can return is hi less 1 ns).
	if float64(low) < math.Floor(lo/msNs) || float64(high) > math.Ceil((hi-1)/msNs) {
		t.Errorf("retry %d: got our band [%d, %d] ms, want it within the library's range [%v, %v) rounded out to whole ms",
			k, low, high, time.Duration(lo), time.Duration(hi))
	}
	for _, w := range ours {
		if w < low || w > high {
			t.Errorf("retry %d: got our wait %d ms, want one in our band [%d, %d]", k, w, low, high)
			break
		}
	}
	strict := hi <= float64(high)*msNs+1
	var outLow, outHigh []time.Duration
	for _, w := range lib {
		switch v, _ := ms(w); {
		case v < low:
			outLow = append(outLow, w)
		case v > high:
			outHigh = append(outHigh, w)
		case strict && float64(w) > float64(high)*msNs:
			t.Errorf("retry %d: got a library wait of %v, want at most our band's top, %d ms (its range [%v, %v) allows no more)",
				k, w, high, time.Duration(lo), time.Duration(hi))
		}
	}
	r.outside = len(outLow) + len(outHigh)
	// The slivers of the library's range outside our band, below and
	// above, and the waits expected in each.
	muLow := n * max(0, float64(low)*msNs-lo) / (hi - lo)
	muHigh := n * max(0, hi-float64(high+1)*msNs) / (hi - lo)
	r.expectedOutside = muLow + muHigh
	for _, side := range []struct {
		what string
		out  []time.Duration
		mu   float64
	}{{"below", outLow, muLow}, {"above", outHigh, muHigh}} {
		if bound := CountBound(side.mu, alpha); len(side.out) >= bound && len(side.out) > 0 {
			t.Errorf("retry %d: got %d library waits %s our band [%d, %d] ms (%v), want fewer than %d: %.1f expected from its range [%v, %v)",
				k, len(side.out), side.what, low, high, firstFew(side.out), bound, side.mu, time.Duration(lo), time.Duration(hi))
		}
	}
	if r.outside > 0 {
		t.Logf("retry %d: %d library waits outside our band [%d, %d] ms (%d below: %v; %d above: %v), %.1f expected: "+
			"the library's range [%v, %v) is wider, as d and δ are rounded down to whole ms",
			k, r.outside, low, high, len(outLow), firstFew(outLow), len(outHigh), firstFew(outHigh), r.expectedOutside,
			time.Duration(lo), time.Duration(hi))
	}

	// 3. KS on our grid. Both the grid and rounding down keep the order,
	// so the library's waits are sorted once for both.
	sorted := slices.Clone(lib)
	slices.Sort(sorted)
	grid := make([]float64, len(sorted))
	for i, w := range sorted {
		v := low + int(math.Floor((float64(w)-lo)/(hi-lo)*float64(values)))
		grid[i] = float64(min(max(v, low), high))
	}
	oursF := make([]float64, len(ours))
	for i, w := range ours {
		oursF[i] = float64(w)
	}
	slices.Sort(oursF)
	r.dGrid = KSSorted(grid, oursF)
	if r.dGrid > crit {
		t.Errorf("retry %d: KS on our grid: got D = %.5f, want at most %.5f", k, r.dGrid, crit)
	}

	// 4. KS on the raw waits, where quantisation leaves room for it.
	raw := make([]float64, len(sorted))
	for i, w := range sorted {
		v, _ := ms(w)
		raw[i] = float64(v)
	}
	r.dRaw = KSSorted(raw, oursF)
	r.q = quantisation(lo, hi, low, high)
	r.narrow = r.q > crit/4
	if r.dRaw > crit+r.q {
		t.Errorf("retry %d: KS on the raw waits: got D = %.5f, want at most %.5f + %.5f (quantisation)", k, r.dRaw, crit, r.q)
	}

	// 5. Narrow bands: supports and per-value frequencies.
	if r.narrow {
		libMean := 0.0
		for _, w := range lib {
			libMean += float64(w) / msNs
		}
		narrowChecks(t, k, lo, hi, low, high, libMean/n, raw, grid, oursF)
	}
	return r
}

// quantisation is sup over whole ms v of |F_library(v) - F_ours(v)|, with
// the library's wait uniform over [lo, hi) ns and rounded down to whole
// ms, and ours uniform over the whole ms from low to high.
func quantisation(lo, hi float64, low, high int) float64 {
	const msNs = float64(time.Millisecond)
	from := min(low, int(lo/msNs)) - 1
	to := max(high, int(hi/msNs)) + 1
	q := 0.0
	for v := from; v <= to; v++ {
		fl := min(max((min(float64(v+1)*msNs, hi)-lo)/(hi-lo), 0), 1)
		fo := min(max(float64(v-low+1)/float64(high-low+1), 0), 1)
		q = max(q, math.Abs(fl-fo))
	}
	return q
}

// narrowChecks is check 5: for a band too narrow for the raw KS test,
// the exact supports and a chi-square test of the frequencies of ours,
// of the library's waits rounded down, and of the library's waits on our
// grid.
func narrowChecks(t *testing.T, k int, lo, hi float64, low, high int, libMean float64, raw, grid, ours []float64) {
	t.Helper()
	const msNs = float64(time.Millisecond)
	uniform := func(from, to int) []float64 {
		p := make([]float64, to-from+1)
		for i := range p {
			p[i] = 1 / float64(len(p))
		}
		return p
	}
	// The library's waits rounded down: value v has the share of [lo, hi)
	// that lies in [v, v+1) ms. Waits are below hi, so at most hi - 1 ns.
	libFrom, libTo := int(lo/msNs), int((hi-1)/msNs)
	libP := make([]float64, libTo-libFrom+1)
	for v := libFrom; v <= libTo; v++ {
		libP[v-libFrom] = (min(float64(v+1)*msNs, hi) - max(float64(v)*msNs, lo)) / (hi - lo)
	}
	mean := func(s []float64) float64 {
		sum := 0.0
		for _, v := range s {
			sum += v
		}
		return sum / float64(len(s))
	}
	t.Logf("retry %d: means: ours %.3f ms, the library's %.3f ms (its middle %.3f ms), rounded down %.3f ms",
		k, mean(ours), libMean, (lo+hi)/2/msNs, mean(raw))
	for _, c := range []struct {
		what     string
		sample   []float64
		from, to int
		p        []float64
	}{
		{"ours", ours, low, high, uniform(low, high)},
		{"the library's rounded down", raw, libFrom, libTo, libP},
		{"the library's on our grid", grid, low, high, uniform(low, high)},
	} {
		counts := make([]int, c.to-c.from+1)
		for _, v := range c.sample {
			i := int(v) - c.from
			if i < 0 || i >= len(counts) {
				t.Errorf("retry %d, %s: got %v ms, want from %d to %d ms", k, c.what, v, c.from, c.to)
				continue
			}
			counts[i]++
		}
		if i := slices.Index(counts, 0); i >= 0 {
			t.Errorf("retry %d, %s: got no waits of %d ms in %d, want every value from %d to %d ms", k, c.what, c.from+i, len(c.sample), c.from, c.to)
		}
		pv, stat, df := 1.0, 0.0, 0
		if len(counts) > 1 {
			stat, df = ChiSquare(counts, c.p)
			pv = ChiSquareP(stat, df)
			if pv < alpha {
				t.Errorf("retry %d, %s: chi-square %.2f with %d df, p = %.2g: got counts %v, want p >= %g", k, c.what, stat, df, pv, counts, alpha)
			}
		}
		t.Logf("retry %d, %s: values %d to %d ms, counts %v; chi-square %.2f with %d df, p = %.3g",
			k, c.what, c.from, c.to, shorten(counts), stat, df, pv)
	}
}

func firstFew(ws []time.Duration) []time.Duration {
	return ws[:min(len(ws), 3)]
}

func shorten(c []int) string {
	if len(c) <= 8 {
		return fmt.Sprint(c)
	}
	return fmt.Sprintf("%v ... %v", c[:4], c[len(c)-4:])
}

// logSummary writes one line per retry, or per run of retries with one
// base and band: the band, the library's range, waits outside, and both KS
// distances against their limits, the largest of a run with its retry.
func logSummary(t *testing.T, results []retryResult, crit float64) {
	t.Helper()
	worst := results[0]
	for _, r := range results {
		t.Logf("retry %d: D on the grid %.4f, D raw %.4f (q %.4f), outside %d", r.k, r.dGrid, r.dRaw, r.q, r.outside)
	}
	for i := 0; i < len(results); {
		r := results[i]
		j, grid, raw := i, r, r
		for j < len(results) && results[j].base == r.base && results[j].low == r.low && results[j].high == r.high &&
			results[j].lo == r.lo && results[j].hi == r.hi {
			if results[j].dGrid > grid.dGrid {
				grid = results[j]
			}
			if results[j].dRaw > raw.dRaw {
				raw = results[j]
			}
			j++
		}
		which, outside, expected := fmt.Sprintf("retry %d", r.k), 0, 0.0
		if j-i > 1 {
			which = fmt.Sprintf("retries %d-%d", r.k, results[j-1].k)
		}
		for _, x := range results[i:j] {
			outside += x.outside
			expected += x.expectedOutside
		}
		at := func(x retryResult) string {
			if j-i > 1 {
				return fmt.Sprintf(" at retry %d", x.k)
			}
			return ""
		}
		rawPart := fmt.Sprintf("D raw %.4f%s (limit %.4f + q %.4f)", raw.dRaw, at(raw), crit, raw.q)
		if r.narrow {
			rawPart = fmt.Sprintf("D raw %.4f (limit %.4f + q %.4f: narrow, so supports and chi-square too)", raw.dRaw, crit, raw.q)
		}
		t.Logf("%s: base %d ms, band [%d, %d] (%d values), library [%.3f, %.3f) ms, outside %d (%.1f expected); D on the grid %.4f%s (limit %.4f); %s",
			which, r.base, r.low, r.high, r.high-r.low+1, r.lo/1e6, r.hi/1e6, outside, expected, grid.dGrid, at(grid), crit, rawPart)
		if grid.dGrid > worst.dGrid {
			worst = grid
		}
		i = j
	}
	t.Logf("largest D on the grid: %.4f at retry %d, of %.4f", worst.dGrid, worst.k, crit)
}
