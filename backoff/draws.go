package backoff

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
)

// Draws is where a client's random numbers come from. The zero value is
// Reference.
type Draws int

const (
	// Reference is the original program's generator: one linear
	// congruential generator per client, seeded with seed*1000 + client,
	// giving 16-bit outputs. A draw never exceeds its low end + 65,535, and
	// consecutive clients' draws fall on a lattice.
	Reference Draws = iota
	// Independent is math/rand/v2's PCG, seeded with (seed, client), and
	// Lemire's multiply-and-reject draw: any range, and clients as
	// independent as a generator can make them.
	Independent
)

var drawsNames = [...]string{"reference", "independent"}

func (d Draws) String() string {
	if d < 0 || int(d) >= len(drawsNames) {
		return fmt.Sprintf("Draws(%d)", int(d))
	}
	return drawsNames[d]
}

// ParseDraws reads "reference" or "independent", in any case.
func ParseDraws(s string) (Draws, error) {
	for i, n := range drawsNames {
		if strings.EqualFold(s, n) {
			return Draws(i), nil
		}
	}
	return 0, fmt.Errorf("draws %q: want reference or independent", s)
}

// ReferenceReach is the widest range the reference's draws cover: a draw
// gives lo + (x>>16) mod n, and x>>16 is below 65,536, so a range of more
// than ReferenceReach values is cut short at lo + ReferenceReach - 1.
const ReferenceReach = 1 << 16

// source is one client's generator under either kind of draws. Which one a
// crowd uses is the same for every client, so the branch in between is one
// the processor predicts.
type source struct {
	pcg rand.PCG // Independent
	x   uint32   // Reference: the LCG's state
	n   uint32   // Independent: the draws made since the seed (see jumpPCG)
}

// newSource returns client's generator for seed.
func newSource(d Draws, seed, client int) source {
	if d == Independent {
		var s source
		s.pcg.Seed(uint64(seed), uint64(client))
		return s
	}
	return source{x: uint32(seed*1000 + client)}
}

// word is what a pending attempt keeps of s in 4 bytes: the LCG's state
// under Reference, the draws made under Independent, from which
// sourceAt finds the PCG's state again.
func (s *source) word(d Draws) uint32 {
	if d == Independent {
		return s.n
	}
	return s.x
}

// sourceAt returns client's generator for seed where its word is w: under
// Independent, the PCG seeded with (seed, client) and stepped w times.
func sourceAt(d Draws, seed int, client uint32, w uint32) source {
	if d != Independent {
		return source{x: w}
	}
	var s source
	hi, lo := jumpPCG(uint64(seed), uint64(client), w)
	s.pcg.Seed(hi, lo)
	s.n = w
	return s
}

// math/rand/v2's PCG steps its 128-bit state as state*pcgMul + pcgInc
// (mod 2^128) before each output; its Seed sets the state itself.
var (
	pcgMul = u128{2549297995355413924, 4865540595714422341}
	pcgInc = u128{6364136223846793005, 1442695040888963407}
)

// u128 is a 128-bit word, hi above lo.
type u128 struct{ hi, lo uint64 }

func (a u128) times(b u128) u128 {
	hi, lo := bits.Mul64(a.lo, b.lo)
	return u128{hi + a.hi*b.lo + a.lo*b.hi, lo}
}

func (a u128) plus(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}
}

// pcgSteps[n] is n steps of the PCG at once: state*mul + add, mul =
// pcgMul^n, add = pcgInc*(pcgMul^(n-1) + ... + 1). A client draws once a
// retry (MaxAttempts at most) and again only where Lemire's draw rejects,
// which is rare: past the table, jumpPCG takes its longest step again.
var pcgSteps = func() (t [256]struct{ mul, add u128 }) {
	t[0].mul = u128{0, 1}
	for i := 1; i < len(t); i++ {
		t[i].mul = t[i-1].mul.times(pcgMul)
		t[i].add = t[i-1].add.times(pcgMul).plus(pcgInc)
	}
	return t
}()

// jumpPCG returns the PCG's state after n steps from (hi, lo).
func jumpPCG(hi, lo uint64, n uint32) (uint64, uint64) {
	s := u128{hi, lo}
	for ; n >= uint32(len(pcgSteps)); n -= uint32(len(pcgSteps)) - 1 {
		j := &pcgSteps[len(pcgSteps)-1]
		s = s.times(j.mul).plus(j.add)
	}
	j := &pcgSteps[n]
	s = s.times(j.mul).plus(j.add)
	return s.hi, s.lo
}

// between returns a whole number from lo to lo+n-1 (n >= 1): under
// Reference, lo + (x>>16) mod n with x = 1664525x + 1013904223 mod 2^32;
// under Independent, lo plus the high word of v*n for v from the PCG,
// drawing v again while the low word is below (2^64 - n) mod n (Lemire,
// "Fast Random Integer Generation in an Interval", 2019), the same on every
// platform and also for n a power of two.
func (s *source) between(d Draws, lo, n int) int {
	if d == Independent {
		return lo + int(s.lemire(uint64(n)))
	}
	s.x = 1664525*s.x + 1013904223
	r := s.x >> 16
	if uint32(n) <= r { // n > r: the remainder is r itself, no division needed
		r %= uint32(n)
	}
	return lo + int(r)
}

// lemire is Lemire's draw from [0, n).
func (s *source) lemire(n uint64) uint64 {
	hi, lo := bits.Mul64(s.pcg.Uint64(), n)
	s.n++
	if lo < n {
		return s.lemireAgain(n, hi, lo)
	}
	return hi
}

// lemireAgain finishes a draw whose first product's low word, lo, is below
// n: only then can it be under the threshold (2^64-n) mod n, which is below
// n, and the draw must be made again.
func (s *source) lemireAgain(n, hi, lo uint64) uint64 {
	thresh := -n % n
	for lo < thresh {
		hi, lo = bits.Mul64(s.pcg.Uint64(), n)
		s.n++
	}
	return hi
}

// nextRef advances a Reference source and returns x>>16: for the crowd's
// fastest loops, which take the remainder by a divisor known in advance.
func (s *source) nextRef() uint32 {
	s.x = 1664525*s.x + 1013904223
	return s.x >> 16
}
