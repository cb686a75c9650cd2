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
	g.state = 1664525*g.state + 1013904223
	return lo + int(g.state>>16)%(hi-lo+1)
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

// waiter draws one client's waits, retry after retry, under one policy.
type waiter struct {
	policy  Policy
	first   int
	longest int
	expo    []int // expo[k] for k = 1 .. attempts-1; expo[0] unused
	rng     LCG
	last    int // the previous decorrelated wait
}

func newWaiter(p Policy, s Settings, expo []int, client int) waiter {
	return waiter{policy: p, first: s.FirstWait, longest: s.LongestWait, expo: expo, rng: ClientLCG(s.Seed, client), last: s.FirstWait}
}

// next returns the wait before retry k; retries are drawn in order k = 1, 2, ...
func (w *waiter) next(k int) int {
	switch w.policy {
	case Fixed:
		return w.first
	case Exponential:
		return w.expo[k]
	case FullJitter:
		return w.rng.Between(0, w.expo[k])
	case EqualJitter:
		e := w.expo[k]
		half := e / 2
		return half + w.rng.Between(0, e-half)
	default:
		d := min(w.rng.Between(w.first, 3*w.last), w.longest)
		w.last = d
		return d
	}
}

// expoTable returns expo[k] for k = 1 .. Attempts-1, with expo[0] = 0.
func expoTable(s Settings) []int {
	t := make([]int, max(s.Attempts, 1))
	for k := 1; k < len(t); k++ {
		t[k] = Expo(s.FirstWait, s.LongestWait, k)
	}
	return t
}

// Retry is one retry of a client's schedule.
type Retry struct {
	Attempt int // the attempt this retry is: 2, 3, ..., Attempts
	Wait    int // ms waited before it
	At      int // ms since the first attempt, which is at 0 ms
}

// Waits returns one client's waits under policy p: Attempts-1 of them, the
// wait before attempt 2 first.
func Waits(p Policy, s Settings, client int) []int {
	expo := expoTable(s)
	w := newWaiter(p, s, expo, client)
	out := make([]int, 0, len(expo)-1)
	for k := 1; k < len(expo); k++ {
		out = append(out, w.next(k))
	}
	return out
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
