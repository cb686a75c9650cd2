package backoff

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestShapeNames(t *testing.T) {
	for _, sh := range Shapes() {
		got, err := ParseShape(sh.String())
		if err != nil || got != sh {
			t.Errorf("ParseShape(%q): got %v, %v; want %v", sh.String(), got, err, sh)
		}
	}
	for _, bad := range []string{"", "Fixed", "full-jitter", " fixed", "fixed ", "full  jitter", "jitter"} {
		if sh, err := ParseShape(bad); err == nil {
			t.Errorf("ParseShape(%q): got %v, want an error", bad, sh)
		}
	}
	if got := Shape(9).String(); got != "Shape(9)" {
		t.Errorf("Shape(9).String(): got %q", got)
	}
}

func TestThousandths(t *testing.T) {
	good := []struct {
		in   string
		want int
	}{{"1.6", 1600}, {"2", 2000}, {"0.001", 1}, {"0.2", 200}, {"10", 10000}, {"1.50", 1500}, {"0", 0}, {"007.5", 7500}}
	for _, tt := range good {
		got, ok := ParseThousandths(tt.in)
		if !ok || got != tt.want {
			t.Errorf("ParseThousandths(%q): got %d, %v; want %d", tt.in, got, ok, tt.want)
		}
	}
	for _, bad := range []string{"", ".", "1.", ".5", "1.0001", "-1", "+1", "1e3", "1,5", " 1", "1 ", "1.6x", "٣", "1234567890"} {
		if got, ok := ParseThousandths(bad); ok {
			t.Errorf("ParseThousandths(%q): got %d, want a refusal", bad, got)
		}
	}
	for _, n := range []int{0, 1, 10, 100, 200, 1000, 1500, 1600, 2000, 10000, 1234} {
		if back, ok := ParseThousandths(FormatThousandths(n)); !ok || back != n {
			t.Errorf("FormatThousandths(%d) = %q reads back as %d", n, FormatThousandths(n), back)
		}
	}
}

func TestJitterParse(t *testing.T) {
	good := []struct {
		in   string
		want Jitter
	}{
		{"none", Jitter{}}, {"full", Jitter{Kind: JitterFull}}, {"equal", Jitter{Kind: JitterEqual}},
		{"decorrelated", Jitter{Kind: JitterDecorrelated}}, {"spread:0.2", Jitter{Kind: JitterSpread, Factor: 200}},
		{"up:0.1", Jitter{Kind: JitterUp, Factor: 100}}, {"Spread:1", Jitter{Kind: JitterSpread, Factor: 1000}},
		{"FULL", Jitter{Kind: JitterFull}}, {"up:0.001", Jitter{Kind: JitterUp, Factor: 1}},
	}
	for _, tt := range good {
		got, err := ParseJitter(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseJitter(%q): got %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
		if back, err := ParseJitter(got.String()); err != nil || back != got {
			t.Errorf("%+v.String() = %q reads back as %+v, %v", got, got.String(), back, err)
		}
	}
	for _, bad := range []string{"", "spread", "spread:", "spread:0", "spread:1.001", "up:-0.1", "full:0.2", "half", "none:1", "spread:0.2:1"} {
		if got, err := ParseJitter(bad); err == nil {
			t.Errorf("ParseJitter(%q): got %+v, want an error", bad, got)
		}
	}
}

// Hand-worked waits for every kind of jitter, under Reference draws. Client
// 1 of seed 0 starts at x = 0*1000 + 1 = 1; each draw sets x = 1664525x +
// 1013904223 mod 2^32, giving x1 = 1015568748, x2 = 1586005467,
// x3 = 2165703038, x4 = 3027450565, whose upper 16 bits r are 15496, 24200,
// 33046 and 46195. A draw u(lo, hi) is lo + r mod (hi-lo+1).
func TestHandWorkedWaits(t *testing.T) {
	s := Defaults()
	s.Seed = 0
	base := Policy{Name: "p", FirstWait: 1000, LongestWait: 16000, Multiplier: 2000, Attempts: 5}
	with := func(j Jitter, m int) Policy { p := base; p.Jitter, p.Multiplier = j, m; return p }
	tests := []struct {
		name string
		p    Policy
		want []int
	}{
		// d = 1000, 2000, 4000, 8000: no draws.
		{"none", with(Jitter{}, 2000), []int{1000, 2000, 4000, 8000}},
		// u(0, d): 15496 mod 1001 = 481, 24200 mod 2001 = 188,
		// 33046 mod 4001 = 1038, 46195 mod 8001 = 6190.
		{"full", with(Jitter{Kind: JitterFull}, 2000), []int{481, 188, 1038, 6190}},
		// h + u(0, d-h), h = d/2: 500 + 15496 mod 501 = 500+466,
		// 1000 + 24200 mod 1001 = 1000+176, 2000 + 33046 mod 2001 = 2000+1030,
		// 4000 + 46195 mod 4001 = 4000+2184.
		{"equal", with(Jitter{Kind: JitterEqual}, 2000), []int{966, 1176, 3030, 6184}},
		// min(16000, u(1000, 3*prev)), prev from 1000: 1000 + 15496 mod 2001 =
		// 2489; 1000 + 24200 mod 6468 (3*2489 = 7467) = 5796; 1000 + 33046 mod
		// 16389 (17388) = 1268; 1000 + 46195 mod 2805 (3804) = 2315.
		{"decorrelated", with(Jitter{Kind: JitterDecorrelated}, 2000), []int{2489, 5796, 1268, 2315}},
		// u(d-δ, d+δ), δ = d/5: 800 + 15496 mod 401 = 800+258,
		// 1600 + 24200 mod 801 = 1600+170, 3200 + 33046 mod 1601 = 3200+1026,
		// 6400 + 46195 mod 3201 = 6400+1381.
		{"spread 0.2", with(Jitter{Kind: JitterSpread, Factor: 200}, 2000), []int{1058, 1770, 4226, 7781}},
		// u(d, d+δ), δ = d/10: 1000 + 15496 mod 101 = 1000+43,
		// 2000 + 24200 mod 201 = 2000+80, 4000 + 33046 mod 401 = 4000+164,
		// 8000 + 46195 mod 801 = 8000+538.
		{"up 0.1", with(Jitter{Kind: JitterUp, Factor: 100}, 2000), []int{1043, 2080, 4164, 8538}},
		// x1.5 in microseconds: 1000000, 1500000, 2250000, 3375000.
		{"x1.5, no jitter", with(Jitter{}, 1500), []int{1000, 1500, 2250, 3375}},
		// x1.6 stays in microseconds: 1000000, 1600000, 2560000, 4096000.
		{"x1.6, no jitter", with(Jitter{}, 1600), []int{1000, 1600, 2560, 4096}},
		// x10, capped at 16000 before the third retry: 1000, 10000, 16000, 16000.
		{"x10, no jitter", with(Jitter{}, 10000), []int{1000, 10000, 16000, 16000}},
	}
	for _, tt := range tests {
		if got := Waits(tt.p, s, 1); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// MODEL.md's worked numbers: cenkalti/backoff's base waits (500 ms, x1.5),
// which compound in microseconds as the library's nanoseconds do, and the
// first five independent draws of seed 7, client 3, from 0 to 600,000.
func TestModelWorkedNumbers(t *testing.T) {
	pr, ok := FindPreset("cenkalti")
	if !ok {
		t.Fatal("no cenkalti preset")
	}
	var bases []int
	for k := 1; k <= 7; k++ {
		bases = append(bases, pr.Policy.Base(k))
	}
	if want := []int{500, 750, 1125, 1687, 2531, 3796, 5695}; !slices.Equal(bases, want) {
		t.Errorf("cenkalti base waits: got %v, want %v", bases, want)
	}
	src := newSource(Independent, 7, 3)
	var draws []int
	for range 5 {
		draws = append(draws, src.between(Independent, 0, 600001))
	}
	if want := []int{481891, 512547, 167382, 505189, 235042}; !slices.Equal(draws, want) {
		t.Errorf("independent draws, seed 7, client 3: got %v, want %v", draws, want)
	}
}

// A pending attempt keeps its PCG as the count of draws made; sourceAt
// finds the state again in one step from the table, or, past its 255
// steps, in several: on the table's end (255, 256) and past it (510, 511,
// 512), the draws that follow are those of the generator stepped by hand,
// and the word counts every draw, a Lemire rejection's too.
func TestSourceAtSteps(t *testing.T) {
	for _, seed := range []int{0, 7, -3, 1 << 40} {
		for _, client := range []uint32{1, 2, 1 << 31, 10_000_000} {
			src := newSource(Independent, seed, int(client))
			for n := range uint32(600) {
				at := sourceAt(Independent, seed, client, n)
				if at.pcg != src.pcg || at.n != n {
					t.Fatalf("seed %d client %d: sourceAt after %d draws differs from the generator stepped by hand", seed, client, n)
				}
				src.lemire(600001)
				if src.n != n+1 {
					t.Fatalf("seed %d client %d: word %d after %d draws", seed, client, src.n, n+1)
				}
			}
		}
	}
	// (2^64 - n) mod n is 2^64 - 3*2^62 = 2^62 for n = 3*2^62: a first
	// product's low word is below it a quarter of the time, drawn again.
	src := newSource(Independent, 7, 3)
	for range 100 {
		src.lemire(3 << 62)
	}
	if src.n <= 100 {
		t.Errorf("100 draws from [0, 3*2^62): word %d, want more than 100 (rejections counted)", src.n)
	}
	if at := sourceAt(Independent, 7, 3, src.n); at.pcg != src.pcg {
		t.Errorf("sourceAt(%d) after rejections differs from the generator", src.n)
	}
	if at := sourceAt(Reference, 7, 3, 12345); at.x != 12345 {
		t.Errorf("reference sourceAt: x %d, want 12345", at.x)
	}
}

// The reference's draws never pass lo + 65,535; independent ones do.
func TestReferenceDrawsAreCutShort(t *testing.T) {
	s := Defaults()
	p := Policy{Name: "wide", FirstWait: 10000, LongestWait: 600000, Multiplier: 2000, Jitter: Jitter{Kind: JitterFull}, Attempts: 12}
	if got := p.CutShort(); got != 4 { // d(4) = 80000 is the first above 65,535
		t.Errorf("CutShort: got %d, want 4", got)
	}
	most := map[Draws]int{}
	for _, d := range []Draws{Reference, Independent} {
		s.Draws = d
		for client := 1; client <= 200; client++ {
			for _, r := range ScheduleOf(p, s, client).Retries {
				most[d] = max(most[d], r.Wait)
				if r.Cut != (d == Reference && r.Attempt-1 >= 4) {
					t.Fatalf("%v client %d retry %d: Cut %v", d, client, r.Attempt-1, r.Cut)
				}
			}
		}
	}
	if most[Reference] > 65535 || most[Independent] <= 65535 {
		t.Errorf("longest wait drawn: reference %d, independent %d; want at most 65535 and more", most[Reference], most[Independent])
	}
	if got := s.Policy(FullJitter).CutShort(); got != 0 {
		t.Errorf("full jitter at the defaults: CutShort %d, want 0", got)
	}
}

func TestPresets(t *testing.T) {
	seen := map[string]bool{}
	for _, pr := range Presets() {
		if err := pr.Policy.Validate(); err != nil {
			t.Errorf("%s: %v", pr.Name, err)
		}
		if pr.Policy.Name != pr.Name || seen[pr.Name] || pr.Source == "" || pr.Library == "" {
			t.Errorf("%s: %+v", pr.Name, pr)
		}
		seen[pr.Name] = true
		got, ok := FindPreset(pr.Name)
		if !ok || got.Policy != pr.Policy {
			t.Errorf("FindPreset(%q): got %+v, %v", pr.Name, got, ok)
		}
		s := Defaults().WithPreset(pr)
		if c := s.Custom(); c != pr.Policy {
			t.Errorf("%s: the settings' custom policy is %+v, want %+v", pr.Name, c, pr.Policy)
		}
	}
	if got := Defaults().Custom().Name; got != "custom" {
		t.Errorf("the defaults' custom policy is named %q, want custom", got)
	}
	// The table of issue 7.
	want := map[string]string{
		"grpc":          "first 1000 ms, x1.6, longest 120000 ms, jitter spread:0.2, 5 attempts",
		"aws":           "first 2000 ms, x2, longest 20000 ms, jitter full, 3 attempts",
		"cenkalti":      "first 500 ms, x1.5, longest 60000 ms, jitter spread:0.5, 100 attempts, at most 900000 ms in all",
		"retryablehttp": "first 1000 ms, x2, longest 30000 ms, jitter none, 5 attempts",
		"client-go":     "first 10 ms, x5, longest 3600000 ms, jitter up:0.1, 4 attempts",
		"envoy":         "first 25 ms, x2, longest 250 ms, jitter full, 2 attempts",
		"polly":         "first 2000 ms, x1, longest 2000 ms, jitter none, 4 attempts",
	}
	for name, d := range want {
		pr, _ := FindPreset(name)
		if got := pr.Policy.Describe(); got != d {
			t.Errorf("%s: got %q, want %q", name, got, d)
		}
	}
}

func TestSettingsRanges(t *testing.T) {
	if err := Defaults().Validate(); err != nil {
		t.Fatalf("Defaults().Validate(): %v", err)
	}
	tests := []struct {
		field       Field
		value       int
		plain, wide bool // valid?
	}{
		{FirstWait, 0, false, false}, {FirstWait, 10000, true, true}, {FirstWait, 10001, false, true},
		{LongestWait, 600001, false, true}, {LongestWait, MaxWait, false, true}, {LongestWait, MaxWait + 1, false, false},
		{Attempts, 1, false, false}, {Attempts, 12, true, true}, {Attempts, 13, false, true}, {Attempts, 101, false, false},
		{Clients, 1001, false, true}, {Clients, MaxClients, false, true}, {Clients, MaxClients + 1, false, false},
		{Outage, -1, false, false}, {Outage, 600001, false, true},
		{Seed, 1000000, false, false}, {Slot, 0, false, false},
		{Multiplier, 999, false, false}, {Multiplier, 1500, false, true}, {Multiplier, 10001, false, false},
		{Capacity, 1, false, true}, {Capacity, MaxCapacity + 1, false, false},
		{Load, 100000, false, true}, {Load, MaxLoad + 1, false, false},
		{Processes, 0, false, false}, {Processes, 2, false, true}, {Processes, MaxProcesses, false, true}, {Processes, MaxProcesses + 1, false, false},
		{Processes, PerClient, false, true}, {Processes, -2, false, false},
		{MaxElapsed, MaxTime, false, true}, {LoadUntil, DefaultLoadUntil, true, true}, {LoadUntil, 0, false, true},
	}
	for _, tt := range tests {
		s := Defaults()
		if tt.field == LongestWait {
			s.FirstWait = 1
		}
		s.Set(tt.field, tt.value)
		if got := s.Get(tt.field); got != tt.value {
			t.Fatalf("Set(%v, %d) then Get: got %d", tt.field, tt.value, got)
		}
		for _, l := range []struct {
			limits Limits
			valid  bool
		}{{PlainLimits, tt.plain}, {WideLimits, tt.wide}} {
			err := s.ValidateIn(l.limits)
			if (err == nil) != l.valid {
				t.Errorf("%v = %d under %v: got error %v, want valid %v", tt.field, tt.value, l.limits, err, l.valid)
			}
			var re *RangeError
			if err != nil && (!errors.As(err, &re) || re.Field != tt.field || re.Value != tt.value) {
				t.Errorf("%v = %d: got %#v, want a *RangeError naming the field and value", tt.field, tt.value, err)
			}
		}
	}
	s := Defaults()
	// A million a second for ten minutes is MaxFreshRequests exactly:
	// 1,000,000 * 600,000 / 1000 = 600,000,000; a millisecond more is
	// ceil(1,000,000 * 600,001 / 1000) = 600,001,000, refused.
	s.Load, s.LoadUntil = MaxLoad, 600_001
	var tooMuch *TooMuchLoadError
	err := s.ValidateIn(WideLimits)
	if !errors.As(err, &tooMuch) || tooMuch.Requests != 600_001_000 {
		t.Errorf("a load of 600,001,000 requests: got %v, want a *TooMuchLoadError", err)
	} else if want := "a load of 1000000 a second until 600001 ms is 600001000 fresh requests, more than 600000000"; err.Error() != want {
		t.Errorf("a load of 600,001,000 requests: got %q, want %q", err, want)
	}
	s.LoadUntil = 600_000
	if err := s.ValidateIn(WideLimits); err != nil || s.FreshRequests() != MaxFreshRequests {
		t.Errorf("a load of 600,000,000 requests: got %v, %d requests; want valid, %d", err, s.FreshRequests(), MaxFreshRequests)
	}
	s = Defaults()
	s.Clients = MaxClients + 1
	if err, want := s.ValidateIn(WideLimits), "clients: 10000001 is not from 1 to 10000000"; err == nil || err.Error() != want {
		t.Errorf("%d clients: got %v, want %q", s.Clients, err, want)
	}
}

// The largest run the settings allow, exactly at both limits: ten million
// clients and 600 million fresh requests (a million a second until 600 s),
// 610 million client numbers, which stay below 2^32. Exponential waits
// (1, 2, 4, 8 s: retries at 1000, 3000, 7000, 15000 ms), outage 10 s, no
// capacity limit, so that clients wait alike and every figure is worked
// by hand:
//   - the crowd fails at 0 and at 1000, 3000 and 7000 ms, and is served at
//     15000 ms: 5 attempts each, 50,000,000, latency 15000;
//   - a fresh request arriving at a < 10000 ms (1000 a millisecond, 10
//     million in all) is served at its first attempt at or after 10000 ms:
//     a in [9000, 10000) at a+1000 (2 attempts, latency 1000, 1 million),
//     [7000, 9000) at a+3000 (3, 3000, 2 million), [3000, 7000) at a+7000
//     (4, 7000, 4 million), [0, 3000) at a+15000 (5, 15000, 3 million):
//     2 + 6 + 16 + 15 = 39,000,000 attempts;
//   - the 590,000,000 arriving from 10000 ms on are served at once,
//     latency 0.
//
// So 679,000,000 attempts, 610,000,000 through; p50 is 0 (590 million of
// 610 million are 0); p99's rank ceil(0.99 * 610,000,000) = 603,900,000
// passes the 590 + 1 + 2 + 4 = 597 million below 15000 ms: p99 and the
// most are 15000.
func TestTheLargestRun(t *testing.T) {
	s := Defaults()
	s.Clients, s.Load, s.LoadUntil = MaxClients, MaxLoad, 600_000
	if err := s.ValidateIn(WideLimits); err != nil {
		t.Fatalf("the largest settings: %v, want valid", err)
	}
	r, err := run(t, s.Policy(Exponential), s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := r.Figures
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"clients", f.Clients, 610_000_000}, {"attempts", f.Attempts, 679_000_000}, {"retries", f.Retries, 69_000_000},
		{"served", f.Served, 610_000_000}, {"failed while down", f.FailedWhileDown, 69_000_000}, {"through", f.Through, 610_000_000},
		{"gave up", f.GaveUp, 0}, {"latency p50", f.LatencyP50, 0}, {"latency p99", f.LatencyP99, 15000}, {"latency max", f.LatencyMax, 15000},
		{"crowd all through by", f.CrowdAllThroughBy, 15000}, {"all through by", f.AllThroughBy, 599_999},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}
}

func TestBudgetParse(t *testing.T) {
	good := []struct {
		in   string
		want Budget
	}{
		{"none", Budget{}}, {"grpc:10:0.1", Budget{BudgetGRPC, 10, 100}}, {"aws:500:5", Budget{BudgetAWS, 500, 5}},
		{"GRPC:1000:1", Budget{BudgetGRPC, 1000, 1000}}, {"grpc:1:0.001", Budget{BudgetGRPC, 1, 1}},
	}
	for _, tt := range good {
		got, err := ParseBudget(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseBudget(%q): got %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
		if back, err := ParseBudget(got.String()); err != nil || back != got {
			t.Errorf("%+v reads back as %+v, %v", got, back, err)
		}
	}
	for _, bad := range []string{"", "grpc", "grpc:10", "grpc:0:0.1", "grpc:1001:0.1", "grpc:10:0", "grpc:10:1.001", "aws:0:5",
		"aws:500:0", "aws:500:5.5", "aws:-1:5", "token:1:1", "none:1", "aws:500:5:1", "grpc:+10:0.1"} {
		if got, err := ParseBudget(bad); err == nil {
			t.Errorf("ParseBudget(%q): got %+v, want an error", bad, got)
		}
	}
}

func TestBreakerParse(t *testing.T) {
	good := []struct {
		in   string
		want Breaker
	}{
		{"none", Breaker{}}, {"NONE", Breaker{}}, {"5:30s", Breaker{5, 30000}}, {"20:5000", Breaker{20, 5000}},
		{"1:1ms", Breaker{1, 1}}, {"1000:1h", Breaker{1000, 3600000}}, {"1,000:3,600,000", Breaker{1000, 3600000}},
		{"3:1.5s", Breaker{3, 1500}}, {"3:1M", Breaker{3, 60000}}, {"gobreaker", Breaker{6, 60000}},
		{"GoBreaker", Breaker{6, 60000}}, {"failsafe-go", Breaker{1, 60000}}, {"failsafe_go", Breaker{1, 60000}},
	}
	for _, tt := range good {
		got, err := ParseBreaker(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseBreaker(%q): got %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
		if back, err := ParseBreaker(got.String()); err != nil || back != got {
			t.Errorf("%+v writes %q, which reads back as %+v, %v", got, got.String(), back, err)
		}
	}
	// Each side of each range: F from 1 to 1000, D from 1 ms to an hour.
	for _, bad := range []string{"", "5", "5:", ":30s", "0:30s", "1001:30s", "5:0", "5:0s", "5:3600001", "5:1h1ms",
		"-5:30s", "5:-30s", "5:30s:1", "5:1.5ms", "5: 30s", "five:30s", "gobreakers", "5:30x", "0:0"} {
		if got, err := ParseBreaker(bad); err == nil {
			t.Errorf("ParseBreaker(%q): got %+v, want an error", bad, got)
		}
	}
	if got := (Breaker{20, 1500}).String(); got != "20:1500ms" {
		t.Errorf("a breaker of 1.5 s writes %q, want 20:1500ms", got)
	}
}

// The breaker presets are the libraries' defaults as their sources set
// them, each found by its name.
func TestBreakerPresets(t *testing.T) {
	want := map[string]Breaker{"gobreaker": {6, 60000}, "failsafe-go": {1, 60000}}
	if len(BreakerPresets()) != len(want) {
		t.Fatalf("%d breaker presets, want %d", len(BreakerPresets()), len(want))
	}
	for _, pr := range BreakerPresets() {
		if pr.Breaker != want[pr.Name] || pr.Breaker.validate() != nil || pr.Source == "" || pr.Library == "" || pr.Differs == "" {
			t.Errorf("%s: %+v, want %+v with its library, source and differences", pr.Name, pr, want[pr.Name])
		}
		if found, ok := FindBreakerPreset(strings.ToUpper(pr.Name)); !ok || found.Breaker != pr.Breaker {
			t.Errorf("FindBreakerPreset(%q): got %+v, %v", strings.ToUpper(pr.Name), found, ok)
		}
	}
	if got := BreakerPresetNames(); got != "gobreaker or failsafe-go" {
		t.Errorf("BreakerPresetNames() = %q", got)
	}
}

func FuzzParseDigits(f *testing.F) {
	for _, s := range []string{"", "0", "7", "0000200", "12345678", "+5", "-1", " 5", "1e3", "٣", "99999999"} {
		f.Add(s, 7)
	}
	f.Fuzz(func(t *testing.T, s string, most int) {
		most = most % 20
		got, ok := ParseDigits(s, most)
		// The reference's rule: 1 to most characters, each an ASCII digit.
		want, wantOK := 0, len(s) >= 1 && len(s) <= most
		for _, c := range []byte(s) {
			if c < '0' || c > '9' {
				wantOK = false
			}
		}
		if wantOK {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				t.Fatalf("strconv refused %q: %v", s, err)
			}
			want = int(v)
		}
		if ok != wantOK || (ok && got != want) {
			t.Fatalf("ParseDigits(%q, %d): got %d, %v; want %d, %v", s, most, got, ok, want, wantOK)
		}
	})
}

// The jitter, growth, budget, breaker and thousandths parsers refuse what they
// cannot read with an error, never a panic, and what they read writes back
// the same.
func FuzzParseSettingValues(f *testing.F) {
	for _, s := range []string{"spread:0.2", "up:0.1", "full", "grpc:10:0.1", "aws:500:5", "1.6", "0.001", "spread:", ":", "grpc::", "Linear",
		"5:30s", "20:1500ms", "gobreaker", "1:1h", "7:0.5s", "5:30", "5:1.5", "x:0", ":45"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if j, err := ParseJitter(s); err == nil {
			if back, err := ParseJitter(j.String()); err != nil || back != j || j.validate() != nil {
				t.Fatalf("ParseJitter(%q) = %+v, which reads back as %+v, %v", s, j, back, err)
			}
		}
		if g, err := ParseGrowth(s); err == nil {
			if back, err := ParseGrowth(g.String()); err != nil || back != g || g.validate() != nil {
				t.Fatalf("ParseGrowth(%q) = %v, which reads back as %v, %v", s, g, back, err)
			}
		}
		if b, err := ParseBudget(s); err == nil {
			if back, err := ParseBudget(b.String()); err != nil || back != b || b.validate() != nil {
				t.Fatalf("ParseBudget(%q) = %+v, which reads back as %+v, %v", s, b, back, err)
			}
		}
		if b, err := ParseBreaker(s); err == nil {
			if back, err := ParseBreaker(b.String()); err != nil || back != b || b.validate() != nil {
				t.Fatalf("ParseBreaker(%q) = %+v, which reads back as %+v, %v", s, b, back, err)
			}
		}
		// Each reading of a breaker whose open time has no unit is s with
		// a unit after its time, which reads as a time.
		f, d, _ := strings.Cut(s, ":")
		for _, r := range BreakerReadings(s) {
			rf, rd, _ := strings.Cut(r, ":")
			if _, ok := ParseTimeUnit(rd); rf != f || !ok || !slices.Contains(TimeReadings(d), rd) {
				t.Fatalf("BreakerReadings(%q) has %q, not its F and a reading of %q", s, r, d)
			}
		}
		if n, ok := ParseThousandths(s); ok {
			if back, ok := ParseThousandths(FormatThousandths(n)); !ok || back != n {
				t.Fatalf("ParseThousandths(%q) = %d, which reads back as %d", s, n, back)
			}
		}
	})
}
