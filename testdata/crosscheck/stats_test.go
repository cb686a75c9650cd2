package crosscheck

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func floats(v ...float64) []float64 { return v }

// TestKSKnownCases checks the distance on samples small enough to work
// out by hand, ties among them.
func TestKSKnownCases(t *testing.T) {
	cases := []struct {
		name string
		a, b []float64
		want float64
	}{
		{"identical", floats(1, 2, 3), floats(1, 2, 3), 0},
		{"same values, other order", floats(3, 1, 2), floats(2, 3, 1), 0},
		{"disjoint", floats(1, 2, 3), floats(4, 5), 1},
		{"half overlap", floats(1, 2, 3, 4), floats(3, 4, 5, 6), 0.5},
		// At 1 a has 2/3 and b 1/3; at 2 both have all. Taking a's two
		// 1s before b's 1 would report 2/3.
		{"ties across samples", floats(1, 1, 2), floats(1, 2, 2), 1.0 / 3},
		{"one value against two", floats(0), floats(0, 1), 0.5},
		// 1: .25 vs 0; 2: .75 vs .6; 3: 1 vs .6; 4: 1 vs 1.
		{"ties, unequal sizes", floats(1, 2, 2, 3), floats(2, 2, 2, 4, 4), 0.4},
		{"all tied", floats(7, 7, 7), floats(7, 7), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := KS(c.a, c.b); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("KS(%v, %v): got %v, want %v", c.a, c.b, got, c.want)
			}
			if got := KS(c.b, c.a); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("KS(%v, %v): got %v, want %v", c.b, c.a, got, c.want)
			}
		})
	}
}

// bruteKS is the distance by its definition: at every value either sample
// holds, the share of each sample at or below it.
func bruteKS(a, b []float64) float64 {
	share := func(s []float64, x float64) float64 {
		n := 0
		for _, v := range s {
			if v <= x {
				n++
			}
		}
		return float64(n) / float64(len(s))
	}
	d := 0.0
	for _, s := range [][]float64{a, b} {
		for _, x := range s {
			d = max(d, math.Abs(share(a, x)-share(b, x)))
		}
	}
	return d
}

// TestKSAgainstDefinition checks the merged walk against the definition
// on many small samples of few distinct values, where ties are the rule.
func TestKSAgainstDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		a := make([]float64, 1+r.IntN(12))
		b := make([]float64, 1+r.IntN(12))
		values := 1 + r.IntN(5)
		for i := range a {
			a[i] = float64(r.IntN(values))
		}
		for i := range b {
			b[i] = float64(r.IntN(values))
		}
		if got, want := KS(a, b), bruteKS(a, b); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d, KS(%v, %v): got %v, want %v", trial, a, b, got, want)
		}
		slices.Sort(a)
		slices.Sort(b)
		if got, want := KSSorted(a, b), bruteKS(a, b); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d, KSSorted(%v, %v): got %v, want %v", trial, a, b, got, want)
		}
	}
}

// TestKSCritical checks c(alpha) against the usual table (1.36, 1.63,
// 1.95 at 5%, 1%, 0.1%) and the critical distance the cross-checks use.
func TestKSCritical(t *testing.T) {
	for _, c := range []struct{ alpha, want float64 }{
		{0.05, 1.3581}, {0.01, 1.6276}, {0.001, 1.9495}, {1e-6, 2.6934},
	} {
		if got := KSC(c.alpha); math.Abs(got-c.want) > 5e-5 {
			t.Errorf("c(%v): got %.5f, want %.4f", c.alpha, got, c.want)
		}
	}
	if got, want := KSCritical(1e-6, 20000, 20000), 0.026934; math.Abs(got-want) > 5e-7 {
		t.Errorf("critical distance at 1e-6, n = m = 20000: got %.6f, want %.6f", got, want)
	}
}

// TestKSPowerAndSize checks the test does what it is for: two seeded
// samples of one distribution, continuous or whole numbers, stay under
// the critical distance; a 3% stretch of one is found.
func TestKSPowerAndSize(t *testing.T) {
	const n = 20000
	crit := KSCritical(1e-6, n, n)
	r := rand.New(rand.NewPCG(3, 4))
	draw := func(f func() float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = f()
		}
		return s
	}
	cont := func() float64 { return r.Float64() * 1000 }
	if d := KS(draw(cont), draw(cont)); d > crit {
		t.Errorf("two uniform samples: got D = %.5f, want at most %.5f", d, crit)
	}
	coin := func() float64 { return float64(r.IntN(2)) }
	if d := KS(draw(coin), draw(coin)); d > crit {
		t.Errorf("two coin samples: got D = %.5f, want at most %.5f", d, crit)
	}
	stretched := func() float64 { return r.Float64() * 1030 }
	if d := KS(draw(cont), draw(stretched)); d <= crit {
		t.Errorf("uniform against a 3%% wider uniform: got D = %.5f, want above %.5f", d, crit)
	}
}

// TestChiSquareP checks the upper tail against closed forms for 1 to 4
// degrees of freedom, a table value, and the recurrence
// Q(a+1, x) = Q(a, x) + x^a e^-x / Gamma(a+1) across both of gammaQ's
// branches.
func TestChiSquareP(t *testing.T) {
	closed := []struct {
		df   int
		form func(x float64) float64
	}{
		{1, func(x float64) float64 { return math.Erfc(math.Sqrt(x / 2)) }},
		{2, func(x float64) float64 { return math.Exp(-x / 2) }},
		{3, func(x float64) float64 {
			return math.Erfc(math.Sqrt(x/2)) + math.Sqrt(2*x/math.Pi)*math.Exp(-x/2)
		}},
		{4, func(x float64) float64 { return math.Exp(-x/2) * (1 + x/2) }},
	}
	for _, c := range closed {
		for _, x := range []float64{0.1, 0.5, 1, 2.5, 4, 7, 12, 23.93, 27.63, 40, 80} {
			got, want := ChiSquareP(x, c.df), c.form(x)
			if math.Abs(got-want) > 1e-12*max(1, want) && math.Abs(got-want)/want > 1e-9 {
				t.Errorf("Q(df %d, x %v): got %.15g, want %.15g", c.df, x, got, want)
			}
		}
	}
	// scipy.stats.chi2.sf(10, 10) = 0.44049328506521257
	if got, want := ChiSquareP(10, 10), 0.440493285065; math.Abs(got-want) > 1e-9 {
		t.Errorf("Q(df 10, x 10): got %.12f, want %.12f", got, want)
	}
	for _, a := range []float64{0.5, 1, 2.5, 7, 12.5, 30} {
		for _, x := range []float64{0.3, 1, 3, 8, 14, 25, 45, 90} {
			lg, _ := math.Lgamma(a + 1)
			rec := gammaQ(a, x) + math.Exp(a*math.Log(x)-x-lg)
			got := gammaQ(a+1, x)
			if math.Abs(got-rec) > 1e-12*max(1, rec) && math.Abs(got-rec)/rec > 1e-9 {
				t.Errorf("Q(%v, %v): got %.15g, want %.15g by the recurrence", a+1, x, got, rec)
			}
		}
	}
	if got, want := ChiSquareP(0, 3), 1.0; got != want {
		t.Errorf("Q(df 3, x 0): got %v, want %v", got, want)
	}
}

func TestChiSquare(t *testing.T) {
	stat, df := ChiSquare([]int{10, 30}, []float64{0.5, 0.5})
	if stat != 10 || df != 1 {
		t.Errorf("ChiSquare({10, 30}, even): got %v with %d df, want 10 with 1 df", stat, df)
	}
	stat, df = ChiSquare([]int{25, 25, 50}, []float64{0.25, 0.25, 0.5})
	if stat != 0 || df != 2 {
		t.Errorf("ChiSquare of a perfect fit: got %v with %d df, want 0 with 2 df", stat, df)
	}
}

// TestCountBound checks the bound against the Poisson tail summed
// directly: at the bound it is at most alpha, and the bound is not far
// beyond the exact quantile.
func TestCountBound(t *testing.T) {
	tail := func(mu float64, c int) float64 { // P(X >= c), X Poisson(mu)
		p, below := math.Exp(-mu), 0.0
		for i := 0; i < c; i++ {
			below += p
			p *= mu / float64(i+1)
		}
		return 1 - below
	}
	if got := CountBound(0, 1e-6); got != 0 {
		t.Errorf("CountBound(0, 1e-6): got %d, want 0", got)
	}
	for _, mu := range []float64{0.1, 1, 2.4, 8.9, 30} {
		c := CountBound(mu, 1e-6)
		if p := tail(mu, c); p > 1e-6 {
			t.Errorf("CountBound(%v, 1e-6) = %d: got P(X >= %d) = %.3g, want at most 1e-6", mu, c, c, p)
		}
		exact := 0
		for tail(mu, exact) > 1e-6 {
			exact++
		}
		if c > 2*exact+5 {
			t.Errorf("CountBound(%v, 1e-6): got %d, want near the exact %d", mu, c, exact)
		}
		t.Logf("mean %v: bound %d, exact quantile %d", mu, c, exact)
	}
}
