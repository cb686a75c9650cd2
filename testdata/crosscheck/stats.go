// Package crosscheck holds tests that set the planner's presets and model
// against the real retry libraries they stand for: cenkalti/backoff v4 and
// v5, hashicorp/go-retryablehttp, k8s.io/apimachinery's wait.Backoff with
// client-go's retry.DefaultBackoff, aws-sdk-go-v2's aws/retry and grpc-go's
// backoff. It is a module of its own so that none of those libraries
// becomes a dependency of the planner; .ci/run runs its tests.
//
// This file holds the statistics the tests use: the two-sample
// Kolmogorov-Smirnov distance and its critical value, and Pearson's
// chi-square test with its exact upper tail.
package crosscheck

import (
	"math"
	"slices"
)

// KS returns the two-sample Kolmogorov-Smirnov distance between samples a
// and b: the largest difference between their empirical distribution
// functions, sup over x of |Fa(x) - Fb(x)| with F(x) the share of the
// sample at or below x. It walks the merged sorted samples one distinct
// value at a time, taking every copy of that value from both samples
// before it compares, so that ties (the norm for whole milliseconds) count
// as the step they are. Neither sample may be empty; the samples are not
// changed.
func KS(a, b []float64) float64 {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return KSSorted(x, y)
}

// KSSorted is KS of two samples already sorted in increasing order.
func KSSorted(x, y []float64) float64 {
	n, m := float64(len(x)), float64(len(y))
	d := 0.0
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		v := min(x[i], y[j])
		for i < len(x) && x[i] == v {
			i++
		}
		for j < len(y) && y[j] == v {
			j++
		}
		d = max(d, math.Abs(float64(i)/n-float64(j)/m))
	}
	// Once one sample is used up its function is 1 and the other's only
	// climbs towards it: the difference only shrinks from here.
	return d
}

// KSC is c(alpha) = sqrt(-ln(alpha/2)/2), the asymptotic two-sample
// Kolmogorov-Smirnov coefficient for significance alpha.
func KSC(alpha float64) float64 { return math.Sqrt(-math.Log(alpha/2) / 2) }

// KSCritical is the distance two samples of n and m values exceed with
// probability alpha when they come from one continuous distribution:
// c(alpha) * sqrt((n+m)/(n*m)). For samples from one discrete
// distribution (whole milliseconds) the test is conservative: they exceed
// it with probability at most alpha.
func KSCritical(alpha float64, n, m int) float64 {
	return KSC(alpha) * math.Sqrt(float64(n+m)/(float64(n)*float64(m)))
}

// ChiSquare returns Pearson's statistic for counts against probabilities
// p (which add up to 1), with n the sum of the counts, and its degrees of
// freedom, len(counts)-1.
func ChiSquare(counts []int, p []float64) (stat float64, df int) {
	n := 0
	for _, c := range counts {
		n += c
	}
	for i, c := range counts {
		e := float64(n) * p[i]
		stat += (float64(c) - e) * (float64(c) - e) / e
	}
	return stat, len(counts) - 1
}

// ChiSquareP is the probability that a chi-square variable with df
// degrees of freedom is at least x: the regularized upper incomplete gamma
// function Q(df/2, x/2).
func ChiSquareP(x float64, df int) float64 {
	if x <= 0 {
		return 1
	}
	return gammaQ(float64(df)/2, x/2)
}

// gammaQ is the regularized upper incomplete gamma function Q(a, x) for
// a > 0, x > 0: by its power series below x = a+1 and by Lentz's continued
// fraction above (Numerical Recipes, 6.2), each to double precision.
func gammaQ(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	front := math.Exp(-x + a*math.Log(x) - lg)
	if x < a+1 {
		// P(a, x) = e^-x x^a / Gamma(a) * sum x^n / (a (a+1) ... (a+n))
		term, sum := 1/a, 1/a
		for n := 1; n < 10000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if math.Abs(term) < math.Abs(sum)*1e-16 {
				break
			}
		}
		return 1 - front*sum
	}
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 10000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		delta := d * c
		h *= delta
		if math.Abs(delta-1) < 1e-15 {
			break
		}
	}
	return front * h
}

// CountBound is the smallest count c such that a binomial count with mean
// mu reaches c with probability at most alpha, by the Chernoff bound
// P(X >= c) <= e^-mu (e*mu/c)^c (c > mu), which holds for any binomial
// of mean mu as for the Poisson. 0 when mu is 0: then no count is
// plausible at all.
func CountBound(mu, alpha float64) int {
	if mu <= 0 {
		return 0
	}
	for c := int(math.Ceil(mu)) + 1; ; c++ {
		x := float64(c)
		if -mu+x*(1+math.Log(mu/x)) <= math.Log(alpha) {
			return c
		}
	}
}
