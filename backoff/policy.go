package backoff

import (
	"fmt"
	"strconv"
	"strings"
)

// JitterKind is how a policy draws each wait around its base wait.
type JitterKind int

// The kinds of jitter; see Jitter.
const (
	JitterNone JitterKind = iota
	JitterFull
	JitterEqual
	JitterDecorrelated
	JitterSpread
	JitterUp
)

var jitterNames = [...]string{"none", "full", "equal", "decorrelated", "spread", "up"}

func (k JitterKind) String() string {
	if k < 0 || int(k) >= len(jitterNames) {
		return fmt.Sprintf("JitterKind(%d)", int(k))
	}
	return jitterNames[k]
}

// Jitter is a kind of jitter and, for JitterSpread and JitterUp, its factor
// F in thousandths (1 to 1000: 0.2 is 200). With d the base wait and
// δ = floor(d*F/1000), the wait before a retry is
//
//	none:         d
//	full:         u(0, d)
//	equal:        h + u(0, d-h), h = floor(d/2)
//	decorrelated: min(longest, u(first, 3*previous)), previous starting at first
//	spread F:     u(d-δ, d+δ)
//	up F:         u(d, d+δ)
//
// The zero value is no jitter.
type Jitter struct {
	Kind   JitterKind
	Factor int // thousandths, for JitterSpread and JitterUp; 0 otherwise
}

// String writes the jitter as the --jitter flag takes it: "none", "full",
// "equal", "decorrelated", "spread:0.2", "up:0.1".
func (j Jitter) String() string {
	if j.Kind == JitterSpread || j.Kind == JitterUp {
		return j.Kind.String() + ":" + FormatThousandths(j.Factor)
	}
	return j.Kind.String()
}

// JitterList is the forms ParseJitter takes, for messages.
const JitterList = "none, full, equal, decorrelated, spread:F or up:F (F from 0.001 to 1)"

// ParseJitter reads a jitter as String writes it, in any case.
func ParseJitter(s string) (Jitter, error) {
	name, factor, hasFactor := strings.Cut(strings.ToLower(s), ":")
	for k, n := range jitterNames {
		if n != name {
			continue
		}
		kind := JitterKind(k)
		if (kind == JitterSpread || kind == JitterUp) != hasFactor {
			break
		}
		if !hasFactor {
			return Jitter{Kind: kind}, nil
		}
		f, ok := ParseThousandths(factor)
		if !ok || f < 1 || f > 1000 {
			break
		}
		return Jitter{Kind: kind, Factor: f}, nil
	}
	return Jitter{}, fmt.Errorf("jitter %q: want %s", s, JitterList)
}

// Draws reports whether the jitter draws a random number for each retry.
func (j Jitter) Draws() bool { return j.Kind != JitterNone }

// ParseThousandths reads a decimal number with at most three decimals and
// no sign, such as "1.6", "2" or "0.001", as a whole number of thousandths
// (1600, 2000, 1). It refuses anything else, and values above 10^12.
func ParseThousandths(s string) (int, bool) {
	whole, frac, hasFrac := strings.Cut(s, ".")
	if whole == "" || len(whole) > 9 || (hasFrac && (frac == "" || len(frac) > 3)) {
		return 0, false
	}
	n, ok := ParseDigits(whole, 9)
	if !ok {
		return 0, false
	}
	f := 0
	if hasFrac {
		v, ok := ParseDigits(frac, 3)
		if !ok {
			return 0, false
		}
		f = v * [...]int{0, 100, 10, 1}[len(frac)]
	}
	return n*1000 + f, true
}

// FormatThousandths writes n thousandths as ParseThousandths reads them,
// with no trailing zeros: 1600 is "1.6", 2000 "2", 1 "0.001".
func FormatThousandths(n int) string {
	s := strconv.Itoa(n / 1000)
	if frac := n % 1000; frac != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%03d", frac), "0")
	}
	return s
}

// Growth is how a policy's base wait grows from one retry to the next. The
// zero value is GrowthExponential.
type Growth int

const (
	// GrowthExponential multiplies the base wait by the multiplier m each
	// retry: us(k+1) = min(c*1000, floor(us(k)*m/1000)). The default.
	GrowthExponential Growth = iota
	// GrowthLinear adds the first wait b each retry, ignoring m:
	// us(k+1) = min(c*1000, us(k) + b*1000), so d(k) = min(c, k*b), as
	// Polly's DelayBackoffType.Linear and go-retryablehttp's
	// LinearJitterBackoff grow.
	GrowthLinear
)

var growthNames = [...]string{"exponential", "linear"}

// String writes the growth as the --growth flag takes it: "exponential" or
// "linear".
func (g Growth) String() string {
	if g < 0 || int(g) >= len(growthNames) {
		return fmt.Sprintf("Growth(%d)", int(g))
	}
	return growthNames[g]
}

// GrowthList is the names ParseGrowth takes, for messages.
const GrowthList = "exponential or linear"

// ParseGrowth reads "exponential" or "linear", in any case.
func ParseGrowth(s string) (Growth, error) {
	for g, n := range growthNames {
		if strings.EqualFold(s, n) {
			return Growth(g), nil
		}
	}
	return 0, fmt.Errorf("growth %q: want %s", s, GrowthList)
}

func (g Growth) validate() error {
	if g != GrowthExponential && g != GrowthLinear {
		return fmt.Errorf("growth: %v is not %s", g, GrowthList)
	}
	return nil
}

// Policy is how one client waits between its attempts: the first wait b,
// the longest wait c, how the base wait grows (by the multiplier m in
// thousandths, or linearly), the jitter, the attempts A (the first included)
// and a limit E on the total time (0: none).
//
// The base wait before retry k (k = 1, 2, ..., the retry after attempt k
// fails) is kept in microseconds so that multipliers such as 1.6 compound as
// the libraries do:
//
//	us(1) = b*1000,  us(k+1) = min(c*1000, floor(us(k)*m/1000)),  d(k) = floor(us(k)/1000)
//
// With m = 2000 this is the reference's exponential wait, with m = 1000 its
// fixed wait. With linear growth the first wait is added instead and m is
// ignored: us(k+1) = min(c*1000, us(k) + b*1000), so d(k) = min(c, k*b).
// us never exceeds c*1000, so nothing overflows however many retries there
// are. The wait itself is drawn around d(k) by the jitter (decorrelated
// jitter reads neither m nor the growth). A client that starts at s and
// whose attempt k fails at t makes attempt k+1 at t + w(k), unless that is
// more than E after s: then it stops, out of time.
type Policy struct {
	Name        string // how the faces name it: "full jitter", "grpc", "custom"
	FirstWait   int    // b, ms
	LongestWait int    // c, ms
	Multiplier  int    // m, thousandths: 1000 to 10000; linear growth ignores it
	Growth      Growth // exponential (by m), the zero value, or linear (by b)
	Jitter      Jitter
	Attempts    int // A, the first included
	MaxElapsed  int // E, ms; 0 for no limit
}

func (p Policy) String() string { return p.Name }

// Base returns d(k), the base wait in ms before retry k (k >= 1).
func (p Policy) Base(k int) int {
	us := int64(p.FirstWait) * 1000
	for i := 1; i < k; i++ {
		us = p.nextMicros(us)
	}
	return int(us / 1000)
}

// nextMicros is us(k+1) from us(k): the one place the base wait grows.
// us(k) <= c*1000 and b <= c, so neither the product (below 2^46) nor the
// sum overflows.
func (p Policy) nextMicros(us int64) int64 {
	if p.Growth == GrowthLinear {
		return min(int64(p.LongestWait)*1000, us+int64(p.FirstWait)*1000)
	}
	return min(int64(p.LongestWait)*1000, us*int64(p.Multiplier)/1000)
}

// Band returns the lowest and highest wait retry k can draw, with base
// wait d = Base(k) and, for decorrelated jitter, prev the wait before the
// previous retry (the first wait for k = 1). These are the library's promise;
// Reference draws may still fall short of hi (see CutShort).
func (p Policy) Band(k, prev int) (lo, hi int) {
	return p.band(p.Base(k), prev)
}

func (p Policy) band(d, prev int) (lo, hi int) {
	switch p.Jitter.Kind {
	case JitterFull:
		return 0, d
	case JitterEqual:
		return d / 2, d
	case JitterDecorrelated:
		// u(b, 3*prev) then capped: prev >= b, so the band is never empty.
		return min(p.FirstWait, p.LongestWait), min(3*prev, p.LongestWait)
	case JitterSpread:
		delta := d * p.Jitter.Factor / 1000
		return d - delta, d + delta
	case JitterUp:
		return d, d + d*p.Jitter.Factor/1000
	}
	return d, d
}

// Retries is how many retries the policy allows: Attempts - 1.
func (p Policy) Retries() int { return max(p.Attempts-1, 0) }

// LongestDraw is the longest wait any retry can draw: the longest wait, or
// more where spread or up jitter lifts it above the cap.
func (p Policy) LongestDraw() int {
	most := 0
	d := int64(p.FirstWait) * 1000
	for k := 1; k <= p.Retries(); k++ {
		_, hi := p.band(int(d/1000), p.LongestWait)
		most = max(most, hi)
		next := p.nextMicros(d)
		if next == d && p.Jitter.Kind != JitterDecorrelated {
			break // the base stays put from here on
		}
		d = next
	}
	return most
}

// CutShort returns the first retry whose band is wider than Reference draws
// reach (more than 65,536 values), where Reference draws never come near
// its top; 0 when every band fits. For decorrelated jitter the band is the
// widest it can be, from the first wait to min(longest, 3*the longest wait
// before it).
func (p Policy) CutShort() int {
	if !p.Jitter.Draws() {
		return 0
	}
	us := int64(p.FirstWait) * 1000
	prev := p.FirstWait
	for k := 1; k <= p.Retries(); k++ {
		lo, hi := p.band(int(us/1000), prev)
		if hi-lo+1 > ReferenceReach {
			return k
		}
		prev = hi
		us = p.nextMicros(us)
	}
	return 0
}

// Same reports whether p and q wait alike: every field but the name.
func (p Policy) Same(q Policy) bool {
	p.Name = q.Name
	return p == q
}

// Describe is the policy's fields in one line, as the flags write them:
// "first 1000 ms, x1.6, longest 120000 ms, jitter spread:0.2, 5 attempts";
// with linear growth "linear" stands where the multiplier, which it
// ignores, would: "first 1000 ms, linear, longest 30000 ms, ...".
func (p Policy) Describe() string {
	growth := "x" + FormatThousandths(p.Multiplier)
	if p.Growth == GrowthLinear {
		growth = p.Growth.String()
	}
	s := fmt.Sprintf("first %d ms, %s, longest %d ms, jitter %s, %d attempts",
		p.FirstWait, growth, p.LongestWait, p.Jitter, p.Attempts)
	if p.MaxElapsed > 0 {
		s += fmt.Sprintf(", at most %d ms in all", p.MaxElapsed)
	}
	return s
}
