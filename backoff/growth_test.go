package backoff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestGrowthNames(t *testing.T) {
	good := []struct {
		in   string
		want Growth
	}{
		{"exponential", GrowthExponential}, {"linear", GrowthLinear},
		{"Linear", GrowthLinear}, {"LINEAR", GrowthLinear}, {"Exponential", GrowthExponential},
	}
	for _, tt := range good {
		got, err := ParseGrowth(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseGrowth(%q): got %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if back, err := ParseGrowth(got.String()); err != nil || back != got {
			t.Errorf("%v.String() = %q reads back as %v, %v", got, got.String(), back, err)
		}
	}
	for _, bad := range []string{"", "lin", "linear ", " linear", "expo", "x2", "linear:1", "geometric"} {
		if got, err := ParseGrowth(bad); err == nil {
			t.Errorf("ParseGrowth(%q): got %v, want an error", bad, got)
		} else if !strings.Contains(err.Error(), GrowthList) {
			t.Errorf("ParseGrowth(%q): got error %q, want it to name %q", bad, err, GrowthList)
		}
	}
	if got := Growth(2).String(); got != "Growth(2)" {
		t.Errorf("Growth(2).String(): got %q, want %q", got, "Growth(2)")
	}
	if got := Growth(-1).String(); got != "Growth(-1)" {
		t.Errorf("Growth(-1).String(): got %q, want %q", got, "Growth(-1)")
	}
	var zero Policy
	if zero.Growth != GrowthExponential {
		t.Errorf("a zero policy's growth: got %v, want exponential", zero.Growth)
	}
}

// linear is a policy that grows by its first wait b, capped at c.
func linear(b, c, m, attempts int, j Jitter) Policy {
	return Policy{Name: "linear", FirstWait: b, LongestWait: c, Multiplier: m, Growth: GrowthLinear, Jitter: j, Attempts: attempts}
}

// d(k) = min(c, k*b), worked by hand at the cap's boundary: where k*b
// reaches c exactly, where it passes c by 1 ms, where it stops 1 ms short,
// and where b = c. The multiplier changes nothing.
func TestLinearBaseHandWorked(t *testing.T) {
	tests := []struct {
		name string
		p    Policy
		want []int // d(1), d(2), ...
	}{
		// 3*1000 == 3000: the third reaches the cap exactly and stays there.
		{"k*b == c at k = 3", linear(1000, 3000, 2000, 6, Jitter{}), []int{1000, 2000, 3000, 3000, 3000}},
		// 3*1000 = 3000 > 2999: the third is cut to the cap.
		{"k*b just over c at k = 3", linear(1000, 2999, 2000, 6, Jitter{}), []int{1000, 2000, 2999, 2999, 2999}},
		// 3*1000 = 3000 < 3001: the third is 3000, the fourth 4000 is cut to 3001.
		{"k*b just under c at k = 3", linear(1000, 3001, 2000, 6, Jitter{}), []int{1000, 2000, 3000, 3001, 3001}},
		{"b == c", linear(1000, 1000, 2000, 4, Jitter{}), []int{1000, 1000, 1000}},
		// The multiplier is ignored: x1 and x10 grow as x2 does.
		{"x1 ignored", linear(1000, 3000, 1000, 6, Jitter{}), []int{1000, 2000, 3000, 3000, 3000}},
		{"x10 ignored", linear(1000, 3000, 10000, 6, Jitter{}), []int{1000, 2000, 3000, 3000, 3000}},
		// 1 ms steps: 1, 2, ..., 99 before retry 99 with no cap in sight.
		{"1 ms, 100 attempts", linear(1, NoCap, 1000, 100, Jitter{}), seq(1, 99, func(k int) int { return k })},
		// An hour's first wait: every base is the hour.
		{"an hour", linear(MaxWait, MaxWait, 10000, 100, Jitter{}), seq(1, 99, func(int) int { return MaxWait })},
		// 36,364 ms steps pass the hour between retries 98 (3,563,672) and 99 (3,600,036).
		{"just past the hour at k = 99", linear(36364, MaxWait, 1000, 100, Jitter{}),
			seq(1, 99, func(k int) int { return min(MaxWait, k*36364) })},
	}
	for _, tt := range tests {
		var got []int
		for k := 1; k < tt.p.Attempts; k++ {
			got = append(got, tt.p.Base(k))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: d(k): got %v, want %v", tt.name, got, tt.want)
		}
		// Without jitter the waits are the bases, on the fast path's plan too.
		if got := Waits(tt.p, Defaults(), 1); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Waits: got %v, want %v", tt.name, got, tt.want)
		}
		pl := newPlan(tt.p, Reference)
		if got := pl.base[1:]; !slices.Equal(got, tt.want) {
			t.Errorf("%s: the plan's bases: got %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := linear(36364, MaxWait, 1000, 100, Jitter{}).Base(98); got != 3563672 {
		t.Errorf("d(98) of 36364 ms steps: got %d, want 3563672", got)
	}
	if got := linear(36364, MaxWait, 1000, 100, Jitter{}).Base(99); got != MaxWait {
		t.Errorf("d(99) of 36364 ms steps: got %d, want %d", got, MaxWait)
	}
}

// seq is f(k) for k from lo to hi.
func seq(lo, hi int, f func(int) int) []int {
	var out []int
	for k := lo; k <= hi; k++ {
		out = append(out, f(k))
	}
	return out
}

// Hand-worked waits with linear growth, under Reference draws: client 1 of
// seed 0, whose draws' r are 15496, 24200, 33046 and 46195 (see
// TestHandWorkedWaits). First wait 1000, longest 3500: d = 1000, 2000,
// 3000, 3500 (4000 cut to the cap).
func TestLinearHandWorkedWaits(t *testing.T) {
	s := Defaults()
	s.Seed = 0
	with := func(j Jitter) Policy { return linear(1000, 3500, 2000, 5, j) }
	tests := []struct {
		name string
		p    Policy
		want []int
	}{
		{"none", with(Jitter{}), []int{1000, 2000, 3000, 3500}},
		// u(0, d): 15496 mod 1001 = 481, 24200 mod 2001 = 188,
		// 33046 mod 3001 = 35, 46195 mod 3501 = 682.
		{"full", with(Jitter{Kind: JitterFull}), []int{481, 188, 35, 682}},
		// h + u(0, d-h): 500 + 15496 mod 501 = 500+466, 1000 + 24200 mod
		// 1001 = 1000+176, 1500 + 33046 mod 1501 = 1500+24, 1750 + 46195
		// mod 1751 = 1750+669.
		{"equal", with(Jitter{Kind: JitterEqual}), []int{966, 1176, 1524, 2419}},
		// u(d-δ, d+δ), δ = d/5 = 200, 400, 600, 700: 800 + 15496 mod 401 =
		// 800+258, 1600 + 24200 mod 801 = 1600+170, 2400 + 33046 mod 1201 =
		// 2400+619, 2800 + 46195 mod 1401 = 2800+1363 (past the cap).
		{"spread 0.2", with(Jitter{Kind: JitterSpread, Factor: 200}), []int{1058, 1770, 3019, 4163}},
		// u(d, d+δ), δ = d/10 = 100, 200, 300, 350: 1000 + 15496 mod 101 =
		// 1000+43, 2000 + 24200 mod 201 = 2000+80, 3000 + 33046 mod 301 =
		// 3000+237, 3500 + 46195 mod 351 = 3500+214.
		{"up 0.1", with(Jitter{Kind: JitterUp, Factor: 100}), []int{1043, 2080, 3237, 3714}},
		// min(3500, u(1000, 3*prev)), prev from 1000, reading neither m nor
		// the growth: 1000 + 15496 mod 2001 = 2489; 1000 + 24200 mod 6468
		// (3*2489 = 7467) = 5796, cut to 3500; 1000 + 33046 mod 9501
		// (10500) = 5543, cut to 3500; 1000 + 46195 mod 9501 = 9191, cut
		// to 3500.
		{"decorrelated", with(Jitter{Kind: JitterDecorrelated}), []int{2489, 3500, 3500, 3500}},
	}
	for _, tt := range tests {
		if got := Waits(tt.p, s, 1); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Decorrelated jitter ignores the growth and the multiplier: the same
// waits, client by client, under both draws.
func TestDecorrelatedIgnoresGrowth(t *testing.T) {
	for _, d := range []Draws{Reference, Independent} {
		s := Defaults()
		s.Draws = d
		j := Jitter{Kind: JitterDecorrelated}
		want := Policy{Name: "x2", FirstWait: 700, LongestWait: 90000, Multiplier: 2000, Jitter: j, Attempts: 20}
		for _, p := range []Policy{linear(700, 90000, 2000, 20, j), linear(700, 90000, 10000, 20, j)} {
			for client := 1; client <= 50; client++ {
				if got, w := Waits(p, s, client), Waits(want, s, client); !slices.Equal(got, w) {
					t.Fatalf("%v, %+v, client %d: got %v, want %v", d, p, client, got, w)
				}
			}
			r, err := Run(p, s, Options{})
			rw, errw := Run(want, s, Options{})
			if err != nil || errw != nil || r.Figures != rw.Figures {
				t.Errorf("%v, %+v: got %+v, %v; want %+v, %v", d, p, r.Figures, err, rw.Figures, errw)
			}
		}
	}
}

// linearBand is MODEL.md section 2's band for retry k of linear p, written
// from d(k) = min(c, k*b) directly, in 64 bits.
func linearBand(p Policy, k, prev int) (lo, hi int64) {
	d := min(int64(p.LongestWait), int64(k)*int64(p.FirstWait))
	delta := d * int64(p.Jitter.Factor) / 1000
	switch p.Jitter.Kind {
	case JitterFull:
		return 0, d
	case JitterEqual:
		return d / 2, d
	case JitterDecorrelated:
		return int64(min(p.FirstWait, p.LongestWait)), min(3*int64(prev), int64(p.LongestWait))
	case JitterSpread:
		return d - delta, d + delta
	case JitterUp:
		return d, d + delta
	}
	return d, d
}

// randomLinear is a random policy over the wide ranges with linear growth,
// its first wait up to the hour now and then.
func randomLinear(rng *rand.Rand) Policy {
	p := randomPolicy(rng)
	p.Growth = GrowthLinear
	if rng.IntN(4) == 0 {
		p.FirstWait = pick(rng, 1, MaxWait)
		p.LongestWait = pick(rng, p.FirstWait, MaxWait)
		p.Attempts = pick(rng, 2, MaxAttempts)
	}
	return p
}

// Over random linear policies up to 100 attempts and waits of an hour,
// under both draws: d(k) is min(c, k*b), never negative, never falling;
// every wait is inside the band MODEL.md gives; a schedule's times add up;
// no wait passes LongestDraw; and CutShort names the first band wider than
// the Reference draws reach.
func TestLinearWaitsInTheirBands(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 11))
	for i := range 3000 {
		p := randomLinear(rng)
		s := Defaults()
		s.Draws, s.Seed, s.Outage = Draws(rng.IntN(2)), pick(rng, 0, 999999), math.MaxInt32
		client := pick(rng, 1, MaxClients)
		what := fmt.Sprintf("case %d: %+v, %v, seed %d, client %d", i, p, s.Draws, s.Seed, client)
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		sc := ScheduleOf(p, s, client)
		if len(sc.Retries) != p.Attempts-1 {
			t.Fatalf("%s: got %d retries, want %d", what, len(sc.Retries), p.Attempts-1)
		}
		prev, at, cut, last := p.FirstWait, int64(0), 0, 0
		for k := 1; k < p.Attempts; k++ {
			r := sc.Retries[k-1]
			d := p.Base(k)
			if want := min(int64(p.LongestWait), int64(k)*int64(p.FirstWait)); int64(d) != want {
				t.Fatalf("%s: d(%d): got %d, want %d", what, k, d, want)
			}
			if d < last || d < 0 {
				t.Fatalf("%s: d(%d) = %d after %d", what, k, d, last)
			}
			last = d
			lo, hi := linearBand(p, k, prev)
			if gl, gh := p.Band(k, prev); int64(gl) != lo || int64(gh) != hi || int64(r.Low) != lo || int64(r.High) != hi {
				t.Fatalf("%s: retry %d's band: got [%d, %d] (schedule [%d, %d]), want [%d, %d]", what, k, gl, gh, r.Low, r.High, lo, hi)
			}
			if w := int64(r.Wait); w < lo || w > hi || lo < 0 {
				t.Fatalf("%s: retry %d: got %d, want it in [%d, %d]", what, k, r.Wait, lo, hi)
			}
			if s.Draws == Reference && p.Jitter.Draws() && hi-lo+1 > ReferenceReach {
				if r.Wait > int(lo)+ReferenceReach-1 || !r.Cut {
					t.Fatalf("%s: retry %d: got %d, Cut %v in [%d, %d], want it cut short", what, k, r.Wait, r.Cut, lo, hi)
				}
				if cut == 0 {
					cut = k
				}
			}
			if r.Wait > p.LongestDraw() {
				t.Fatalf("%s: retry %d's wait %d passes LongestDraw %d", what, k, r.Wait, p.LongestDraw())
			}
			at += int64(r.Wait)
			if int64(r.At) != at {
				t.Fatalf("%s: retry %d at %d, want %d", what, k, r.At, at)
			}
			prev = r.Wait
		}
		// CutShort takes decorrelated jitter's widest band, which the
		// draws above need not reach.
		if got := p.CutShort(); s.Draws == Reference && p.Jitter.Kind != JitterDecorrelated && got != cut {
			t.Fatalf("%s: CutShort: got %d, want %d", what, got, cut)
		}
	}
}

// The top of every range with linear growth: 100 attempts, the hour as the
// first and the longest wait or as the longest only: nothing overflows, the
// times add up.
func TestLinearNoOverflowAtTheTop(t *testing.T) {
	for _, j := range []Jitter{{}, {Kind: JitterFull}, {Kind: JitterEqual}, {Kind: JitterSpread, Factor: 1000},
		{Kind: JitterUp, Factor: 1000}, {Kind: JitterDecorrelated}} {
		for _, b := range []int{1, 36364, MaxWait} {
			p := linear(b, MaxWait, 10000, MaxAttempts, j)
			if got, want := p.Base(MaxAttempts-1), min(MaxWait, (MaxAttempts-1)*b); got != want {
				t.Errorf("%+v: d(99): got %d, want %d", p, got, want)
			}
			if got, want := p.LongestDraw(), linearLongestDraw(p); got != want {
				t.Errorf("%+v: LongestDraw: got %d, want %d", p, got, want)
			}
			for _, d := range []Draws{Reference, Independent} {
				s := Defaults()
				s.Draws, s.Outage = d, math.MaxInt32
				sum := 0
				for _, r := range ScheduleOf(p, s, 1).Retries {
					sum += r.Wait
					if r.At != sum || r.Wait < 0 || r.Wait > 2*MaxWait {
						t.Fatalf("%+v %v: retry %d at %d after %d, want at %d", p, d, r.Attempt, r.At, r.Wait, sum)
					}
				}
			}
		}
	}
}

// linearLongestDraw is the largest band top of linear p's retries, each
// band at its widest (decorrelated: prev the longest wait).
func linearLongestDraw(p Policy) int {
	most := int64(0)
	for k := 1; k < p.Attempts; k++ {
		_, hi := linearBand(p, k, p.LongestWait)
		most = max(most, hi)
	}
	return int(most)
}

// With linear growth, the fast path, the engine and MODEL.md's plain model
// give the same figures without a service; with one, the engine and the
// model do.
func TestLinearAgreesWithEngineAndModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 19))
	n := 600
	if testing.Short() {
		n = 100
	}
	for i := range n {
		s := randomService(rng)
		p := randomPolicy(rng)
		p.Growth = GrowthLinear
		sameRun(t, fmt.Sprintf("case %d: %+v under %+v", i, p, s), p, s)

		s.Capacity, s.Load, s.Budget = 0, 0, Budget{}
		fastAgrees(t, fmt.Sprintf("case %d without a service", i), p, s)
	}
}

// Linear and exponential growth part where they should: x2 and linear are
// the same policy for two retries (b, 2b), and part at the third (4b
// against 3b), so the growth is read, not dropped, on the way to a run.
func TestGrowthChangesTheCrowd(t *testing.T) {
	s := Defaults()
	s.Jitter = Jitter{Kind: JitterFull}
	s.Growth = GrowthLinear
	lin := s.Custom()
	if lin.Growth != GrowthLinear || lin.Name != "custom" {
		t.Fatalf("the settings' custom policy: got %+v, want linear growth, named custom", lin)
	}
	expo := lin
	expo.Growth = GrowthExponential
	if lin.Same(expo) {
		t.Errorf("Same: linear and exponential growth compare equal")
	}
	for k, want := range map[int][2]int{1: {1000, 1000}, 2: {2000, 2000}, 3: {3000, 4000}, 5: {5000, 16000}} {
		if gl, ge := lin.Base(k), expo.Base(k); gl != want[0] || ge != want[1] {
			t.Errorf("d(%d): got linear %d, exponential %d; want %d, %d", k, gl, ge, want[0], want[1])
		}
	}
	rl, _ := Run(lin, s, Options{})
	re, _ := Run(expo, s, Options{})
	if rl.Figures == re.Figures {
		t.Errorf("linear and exponential growth give the same crowd: %+v", rl.Figures)
	}
	// A preset's policy is exponential: WithPreset sets the growth back.
	pr, _ := FindPreset("grpc")
	if got := s.WithPreset(pr); got.Growth != GrowthExponential || got.Custom().Name != "grpc" {
		t.Errorf("WithPreset(grpc) after linear: got growth %v, custom %q; want exponential, grpc", got.Growth, got.Custom().Name)
	}
}

func TestLinearDescribeAndValidate(t *testing.T) {
	p := linear(1000, 30000, 2000, 5, Jitter{Kind: JitterFull})
	if got, want := p.Describe(), "first 1000 ms, linear, longest 30000 ms, jitter full, 5 attempts"; got != want {
		t.Errorf("Describe: got %q, want %q", got, want)
	}
	p.Growth = GrowthExponential
	if got, want := p.Describe(), "first 1000 ms, x2, longest 30000 ms, jitter full, 5 attempts"; got != want {
		t.Errorf("Describe: got %q, want %q", got, want)
	}
	for _, g := range []Growth{-1, 2, 7} {
		p.Growth = g
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "growth") {
			t.Errorf("Validate of growth %d: got %v, want an error naming the growth", int(g), err)
		}
		if _, err := Run(p, Defaults(), Options{}); err == nil {
			t.Errorf("Run of growth %d: got no error", int(g))
		}
	}
}

// Settings refuse a growth that is neither, and --plain's limits refuse
// linear growth as they refuse a custom jitter: the reference only
// multiplies.
func TestSettingsValidateGrowth(t *testing.T) {
	s := Defaults()
	s.Growth = GrowthLinear
	if err := s.ValidateIn(WideLimits); err != nil {
		t.Errorf("linear under the wide limits: got %v, want nil", err)
	}
	if err := s.ValidateIn(PlainLimits); err == nil || !strings.Contains(err.Error(), "growth") {
		t.Errorf("linear under --plain's limits: got %v, want an error naming the growth", err)
	}
	s.Growth = 2
	if err := s.ValidateIn(WideLimits); err == nil || !strings.Contains(err.Error(), "growth") {
		t.Errorf("growth 2: got %v, want an error naming the growth", err)
	}
}
