package backoff

// plan is a policy made ready for drawing many clients' waits: what every
// client shares, worked out once. For each retry k it holds the band's low
// end and width, so that a draw is one multiplication (and, for Reference
// draws, a remainder by a divisor known in advance).
type plan struct {
	draws          Draws
	kind           JitterKind
	retries        int
	first, longest int
	maxElapsed     int
	base           []int     // base[k]: d(k), the base wait before retry k
	lo             []int     // lo[k]: the band's low end before retry k; for no jitter, the wait itself
	width          []uint64  // width[k]: how many waits the band holds
	div            []divisor // div[k]: width[k] as a divisor, for Reference draws
	same           bool      // every client waits alike: no draws
	longestDraw    int
	// Reference draws of a table jitter: ref[k-1] is retry k's band as a
	// 32-bit reciprocal, and from refWide on (a 0-based index) every band
	// is wider than the draws reach, so that r mod width is r itself. Empty
	// for other draws and jitters.
	ref     []refStep
	refWide int
}

// refStep is a retry's band for Reference draws: the wait is lo + r mod d
// for r = x>>16 < 2^16, the remainder ((m*r mod 2^32) * d) >> 32 with m =
// ceil(2^32/d), exact for every r and d up to 2^16 (Lemire, Kaser and Kurz,
// "Faster Remainder by Direct Computation", 2019: F = 32 >= 16 + log2(d)).
// A band wider than 2^16 is taken as 2^16 wide, which leaves r as it is.
type refStep struct{ lo, m, d uint32 }

func newRefStep(lo int, width uint64) refStep {
	d := min(width, 1<<16)
	return refStep{lo: uint32(lo), m: uint32((1<<32 + d - 1) / d), d: uint32(d)}
}

func newPlan(p Policy, d Draws) *plan {
	return new(plan).renew(p, d)
}

// renew makes pl the plan of p under d, in the slices it had: the fast
// path's runs keep one plan in their pooled scratch, and allocate nothing.
func (pl *plan) renew(p Policy, d Draws) *plan {
	n := p.Retries() + 1
	*pl = plan{draws: d, kind: p.Jitter.Kind, retries: p.Retries(), first: p.FirstWait, longest: p.LongestWait,
		maxElapsed: p.MaxElapsed, base: resize(pl.base, n), lo: resize(pl.lo, n), width: resize(pl.width, n),
		div: resize(pl.div, n), ref: pl.ref[:0], same: !p.Jitter.Draws(), longestDraw: p.LongestDraw()}
	us := int64(p.FirstWait) * 1000
	for k := 1; k < n; k++ {
		pl.base[k] = int(us / 1000)
		lo, hi := p.band(pl.base[k], p.FirstWait)
		pl.lo[k], pl.width[k] = lo, uint64(hi-lo+1)
		pl.div[k] = newDivisor(uint32(hi - lo + 1))
		us = p.nextMicros(us)
	}
	if d == Reference && pl.kind != JitterNone && pl.kind != JitterDecorrelated {
		pl.ref = resize(pl.ref, pl.retries)
		pl.refWide = pl.retries
		for k := pl.retries; k >= 1; k-- {
			pl.ref[k-1] = newRefStep(pl.lo[k], pl.width[k])
			if pl.width[k] > ReferenceReach && pl.refWide == k {
				pl.refWide = k - 1
			}
		}
	}
	return pl
}

// resize returns s, or a new slice where it holds fewer than n, n long and
// zero.
func resize[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// wait draws w(k), the wait before retry k, from src; prev is the wait
// before retry k-1 (the first wait for k = 1), which only decorrelated
// jitter reads.
func (pl *plan) wait(k int, src *source, prev int) int {
	switch pl.kind {
	case JitterNone:
		return pl.lo[k]
	case JitterDecorrelated:
		return min(src.between(pl.draws, pl.first, 3*prev-pl.first+1), pl.longest)
	}
	if pl.draws == Reference {
		return pl.lo[k] + int(pl.div[k].mod(src.nextRef()))
	}
	return pl.lo[k] + int(src.lemire(pl.width[k]))
}

// horizon is a bound on when any crowd client's retry can come when the
// service takes every attempt from the outage's end on: a client that gets
// through does so at most one wait after it, one that does not retries
// before it, and none goes past its limit on total time. With an outage
// that hangs, each retry comes hang ms later than its wait alone.
func (pl *plan) horizon(outage, hang int) int {
	step := int64(pl.longestDraw) + int64(hang)
	sum := step * int64(pl.retries)
	h := min(int64(outage)+step, sum)
	if pl.maxElapsed > 0 {
		h = min(h, int64(pl.maxElapsed))
	}
	return int(h)
}
