package backoff

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The reciprocal must agree with / and % for every divisor the core can use
// and every numerator, edges included.
func TestDivisorAgreesWithHardwareDivision(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	divisors := []uint32{1, 2, 3, 7, 100, 1000, 65535, 65536, 65537, 600001, 1800001, math.MaxUint32 - 1, math.MaxUint32}
	for range 200 {
		divisors = append(divisors, 1+rng.Uint32N(2_000_000), 1+rng.Uint32())
	}
	numerators := []uint32{0, 1, 2, 65535, 65536, 6_600_000, math.MaxUint32 - 1, math.MaxUint32}
	for _, d := range divisors {
		v := newDivisor(d)
		nums := append(numerators, d-1, d, d+1, 2*d-1, 2*d)
		for range 500 {
			nums = append(nums, rng.Uint32())
		}
		for _, n := range nums {
			if got, want := v.div(n), n/d; got != want {
				t.Fatalf("%d / %d: got %d, want %d", n, d, got, want)
			}
			if got, want := v.mod(n), n%d; got != want {
				t.Fatalf("%d mod %d: got %d, want %d", n, d, got, want)
			}
		}
	}
}
