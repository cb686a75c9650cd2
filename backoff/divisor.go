package backoff

import "math/bits"

// divisor divides and takes remainders of 32-bit numbers by a fixed d >= 1
// with multiplications instead of a hardware division, which the crowd's
// inner loop would otherwise do for every retry. The method is Lemire,
// Kaser and Kurz, "Faster Remainder by Direct Computation" (2019): with
// m = ceil(2^64 / d), n / d is the high word of m*n, and n mod d the high word
// of (m*n mod 2^64) * d, exactly, for every 32-bit n and d.
type divisor struct {
	m uint64 // 0 when d == 1
	d uint32
}

func newDivisor(d uint32) divisor {
	if d <= 1 {
		return divisor{d: 1}
	}
	return divisor{m: ^uint64(0)/uint64(d) + 1, d: d}
}

// div returns n / d.
func (v divisor) div(n uint32) uint32 {
	if v.m == 0 {
		return n
	}
	hi, _ := bits.Mul64(v.m, uint64(n))
	return uint32(hi)
}

// mod returns n mod d (0 when d == 1, as m == 0 gives).
func (v divisor) mod(n uint32) uint32 {
	hi, _ := bits.Mul64(v.m*uint64(n), uint64(v.d))
	return uint32(hi)
}
