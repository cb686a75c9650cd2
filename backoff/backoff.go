// Package backoff computes the waits between retries under five policies,
// and what a crowd of clients does to a service that comes back after an
// outage. Every figure is a whole number of milliseconds; nothing here reads
// a clock, a terminal or a file, so the same settings always give the same
// figures.
//
// For the retry that is attempt k+1 (k = 1, 2, ..., Attempts-1), with
// first wait b, longest wait c and
//
//	expo(k) = b doubled k-1 times, each doubling only while below c, then min(c, ·)
//
// the policies wait
//
//	fixed:        b
//	exponential:  expo(k)
//	full jitter:  uniform[0, expo(k)]
//	equal jitter: expo(k)/2 + uniform[0, expo(k) - expo(k)/2]   (integer halves)
//	decorrelated: min(c, uniform[b, 3*previous]), previous starting at b
//
// The uniform draws come from the linear congruential generator
//
//	x' = (1664525*x + 1013904223) mod 2^32,  uniform[lo, hi] = lo + (x' >> 16) mod (hi-lo+1)
//
// seeded with Seed*1000 + client, one generator per client, so one client's
// waits do not depend on any other's.
//
// The crowd: every client fails at 0 ms and retries on its schedule; a retry
// at or after the end of the outage gets through, and that client stops.
// Retries are counted per slot of Slot milliseconds.
package backoff

import (
	"fmt"
	"strings"
)

// Policy is a way of choosing the wait before each retry. The zero value is
// Fixed.
type Policy int

// The five policies, in the order the reference program lists them.
const (
	Fixed Policy = iota
	Exponential
	FullJitter
	EqualJitter
	Decorrelated
)

// NumPolicies is how many policies there are.
const NumPolicies = 5

var policyNames = [NumPolicies]string{"fixed", "exponential", "full jitter", "equal jitter", "decorrelated"}

// Policies returns the five policies in the reference's order.
func Policies() []Policy {
	return []Policy{Fixed, Exponential, FullJitter, EqualJitter, Decorrelated}
}

// String returns the policy's name as the reference writes it, such as
// "full jitter".
func (p Policy) String() string {
	if p < 0 || p >= NumPolicies {
		return fmt.Sprintf("Policy(%d)", int(p))
	}
	return policyNames[p]
}

// ParsePolicy returns the policy with exactly that name ("fixed",
// "exponential", "full jitter", "equal jitter" or "decorrelated").
func ParsePolicy(name string) (Policy, error) {
	for p, n := range policyNames {
		if n == name {
			return Policy(p), nil
		}
	}
	return 0, fmt.Errorf("unknown policy %q: want %s", name, PolicyList())
}

// PolicyList is the five names for a message: "fixed, exponential, full
// jitter, equal jitter or decorrelated".
func PolicyList() string {
	return strings.Join(policyNames[:NumPolicies-1], ", ") + " or " + policyNames[NumPolicies-1]
}

// LCG is the reference's linear congruential generator. Its zero value is a
// generator seeded with 0.
type LCG struct {
	state uint32
}

// NewLCG returns a generator whose state starts at seed (mod 2^32).
func NewLCG(seed int) LCG {
	return LCG{state: uint32(seed)}
}

// ClientLCG returns the generator of one client: seeded with seed*1000 + client.
func ClientLCG(seed, client int) LCG {
	return NewLCG(seed*1000 + client)
}

// Between advances the generator and returns a whole number in [lo, hi],
// taken from the upper 16 bits of the state. It needs lo <= hi.
func (g *LCG) Between(lo, hi int) int {
	// 32-bit arithmetic: the range is at most 3*600000+1 wide, and a 32-bit
	// remainder is much cheaper than a 64-bit one.
	return lo + int(g.next()%uint32(hi-lo+1))
}

// next advances the generator and returns the upper 16 bits of its state.
func (g *LCG) next() uint32 {
	g.state = 1664525*g.state + 1013904223
	return g.state >> 16
}

// Expo is the exponential wait before retry k (k >= 1): first doubled k-1
// times, doubling only while below longest, and never above longest. It
// cannot overflow: a doubling that would pass longest stops at longest
// instead of multiplying.
func Expo(first, longest, k int) int {
	w := first
	for i := 2; i <= k && w > 0 && w < longest; i++ {
		if w > longest-w { // 2w > longest: the cap below would take it anyway
			w = longest
		} else {
			w += w
		}
	}
	return min(w, longest)
}

// plan holds what every client's draws share under one set of settings: the
// exponential waits and, for full and equal jitter, the width of each
// retry's range as a divisor with a precomputed reciprocal.
type plan struct {
	first, longest, outage int
	expo                   []int     // expo[k] for k = 1 .. attempts-1; expo[0] unused
	full, equal            []divisor // the ranges [0, expo[k]] and [0, expo[k]-expo[k]/2]
}

func newPlan(s Settings) *plan {
	n := max(s.Attempts, 1)
	pl := &plan{first: s.FirstWait, longest: s.LongestWait, outage: s.Outage,
		expo: make([]int, n), full: make([]divisor, n), equal: make([]divisor, n)}
	for k := 1; k < n; k++ {
		e := Expo(s.FirstWait, s.LongestWait, k)
		pl.expo[k] = e
		pl.full[k] = newDivisor(uint32(e + 1))
		pl.equal[k] = newDivisor(uint32(e - e/2 + 1))
	}
	return pl
}

// retries is how many retries a client has: Attempts-1.
func (pl *plan) retries() int { return len(pl.expo) - 1 }

// draw writes the waits of one client of the seed under policy p into waits[1:], waits[k]
// being the wait before retry k; len(waits) must be Attempts. Each policy
// has its own loop so that the crowd's inner loop carries no call and no
// switch per retry. It draws exactly what LCG.Between would: the remainder
// by a width known in advance is done by multiplication.
func (pl *plan) draw(p Policy, seed, client int, waits []int) {
	rng := ClientLCG(seed, client)
	expo := pl.expo[:len(waits)]
	switch p {
	case Fixed:
		for k := 1; k < len(waits); k++ {
			waits[k] = pl.first
		}
	case Exponential:
		copy(waits[1:], expo[1:])
	case FullJitter:
		full := pl.full[:len(waits)]
		for k := 1; k < len(waits); k++ {
			waits[k] = int(full[k].mod(rng.next()))
		}
	case EqualJitter:
		equal := pl.equal[:len(waits)]
		for k := 1; k < len(waits); k++ {
			waits[k] = expo[k]/2 + int(equal[k].mod(rng.next()))
		}
	default:
		last := pl.first
		for k := 1; k < len(waits); k++ {
			last = min(rng.Between(pl.first, 3*last), pl.longest)
			waits[k] = last
		}
	}
}

// Retry is one retry of a client's schedule.
type Retry struct {
	Attempt int // the attempt this retry is: 2, 3, ..., Attempts
	Wait    int // ms waited before it
	At      int // ms since the first attempt, which is at 0 ms
}

// Waits returns one client's waits under policy p: Attempts-1 of them, the
// wait before attempt 2 first.
// Invalid settings (see Settings.Validate) give none.
func Waits(p Policy, s Settings, client int) []int {
	if s.Validate() != nil {
		return nil
	}
	waits := make([]int, s.Attempts)
	newPlan(s).draw(p, s.Seed, client, waits)
	return waits[1:]
}

// Schedule returns one client's retries under policy p, with when each
// happens. The first attempt, at 0 ms, is not in it.
func Schedule(p Policy, s Settings, client int) []Retry {
	waits := Waits(p, s, client)
	out := make([]Retry, len(waits))
	at := 0
	for i, w := range waits {
		at += w
		out[i] = Retry{Attempt: i + 2, Wait: w, At: at}
	}
	return out
}

// Total is the time of a schedule's last retry, 0 for none.
func Total(schedule []Retry) int {
	if len(schedule) == 0 {
		return 0
	}
	return schedule[len(schedule)-1].At
}
