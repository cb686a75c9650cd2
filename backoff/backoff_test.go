package backoff

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

func TestPolicyNames(t *testing.T) {
	tests := []struct {
		name string
		want Policy
	}{
		{"fixed", Fixed},
		{"exponential", Exponential},
		{"full jitter", FullJitter},
		{"equal jitter", EqualJitter},
		{"decorrelated", Decorrelated},
	}
	for _, tt := range tests {
		got, err := ParsePolicy(tt.name)
		if err != nil || got != tt.want {
			t.Errorf("ParsePolicy(%q): got %v, %v; want %v", tt.name, got, err, tt.want)
		}
		if got.String() != tt.name {
			t.Errorf("%v.String(): got %q, want %q", tt.want, got.String(), tt.name)
		}
	}
	for _, bad := range []string{"", "Fixed", "full-jitter", " fixed", "fixed ", "full  jitter", "jitter"} {
		if p, err := ParsePolicy(bad); err == nil {
			t.Errorf("ParsePolicy(%q): got %v, want an error", bad, p)
		}
	}
	if got := Policy(9).String(); got != "Policy(9)" {
		t.Errorf("Policy(9).String(): got %q", got)
	}
	if got := len(Policies()); got != NumPolicies {
		t.Errorf("len(Policies()): got %d, want %d", got, NumPolicies)
	}
}

func TestSettingsRanges(t *testing.T) {
	if err := Defaults().Validate(); err != nil {
		t.Fatalf("Defaults().Validate(): %v", err)
	}
	tests := []struct {
		field     Field
		value     int
		wantError bool
	}{
		{FirstWait, 0, true}, {FirstWait, 1, false}, {FirstWait, 10000, false}, {FirstWait, 10001, true},
		{LongestWait, 999, true}, {LongestWait, 1000, false}, {LongestWait, 600000, false}, {LongestWait, 600001, true},
		{Attempts, 1, true}, {Attempts, 2, false}, {Attempts, 12, false}, {Attempts, 13, true},
		{Clients, 0, true}, {Clients, 1, false}, {Clients, 1000, false}, {Clients, 1001, true},
		{Outage, -1, true}, {Outage, 0, false}, {Outage, 600000, false}, {Outage, 600001, true},
		{Seed, -1, true}, {Seed, 0, false}, {Seed, 999999, false}, {Seed, 1000000, true},
		{Slot, 0, true}, {Slot, 1, false}, {Slot, 600000, false}, {Slot, 600001, true},
	}
	for _, tt := range tests {
		s := Defaults()
		s.Set(tt.field, tt.value)
		if got := s.Get(tt.field); got != tt.value {
			t.Fatalf("Set(%v, %d) then Get: got %d", tt.field, tt.value, got)
		}
		err := s.Validate()
		if (err != nil) != tt.wantError {
			t.Errorf("%v = %d: got error %v, want error %v", tt.field, tt.value, err, tt.wantError)
		}
		var re *RangeError
		if err != nil && (!errors.As(err, &re) || re.Field != tt.field || re.Value != tt.value) {
			t.Errorf("%v = %d: got %#v, want a *RangeError naming the field and value", tt.field, tt.value, err)
		}
	}
	s := Defaults()
	s.FirstWait = 5000
	if low, high := s.Range(LongestWait); low != 5000 || high != 600000 {
		t.Errorf("longest wait's range after a first wait of 5000: got %d to %d, want 5000 to 600000", low, high)
	}
	if got := (&RangeError{Field: Clients, Value: 0, Low: 1, High: 1000}).Error(); got != "clients: 0 is not from 1 to 1000" {
		t.Errorf("RangeError: got %q", got)
	}
}

func TestExpo(t *testing.T) {
	tests := []struct{ first, longest, k, want int }{
		{1000, 16000, 1, 1000}, {1000, 16000, 2, 2000}, {1000, 16000, 5, 16000}, {1000, 16000, 11, 16000},
		{1000, 15000, 5, 15000}, {3, 10, 3, 10}, {5000, 5000, 1, 5000}, {5000, 5000, 11, 5000},
		{10000, 600000, 7, 600000}, {10000, 600000, 6, 320000},
		{1, math.MaxInt, 200, math.MaxInt}, {math.MaxInt/2 + 1, math.MaxInt, 3, math.MaxInt},
		{1 << 61, math.MaxInt, 2, 1 << 62}, {7, 5, 1, 5},
	}
	for _, tt := range tests {
		if got := Expo(tt.first, tt.longest, tt.k); got != tt.want {
			t.Errorf("Expo(%d, %d, %d): got %d, want %d", tt.first, tt.longest, tt.k, got, tt.want)
		}
	}
}

// randomSettings draws valid settings, the edges of each range often.
func randomSettings(rng *rand.Rand) Settings {
	pick := func(low, high int) int {
		switch rng.IntN(6) {
		case 0:
			return low
		case 1:
			return high
		default:
			return low + rng.IntN(high-low+1)
		}
	}
	s := Settings{FirstWait: pick(1, 10000)}
	s.LongestWait = pick(s.FirstWait, 600000)
	s.Attempts = pick(2, 12)
	s.Clients = pick(1, 1000)
	s.Outage = pick(0, 600000)
	s.Seed = pick(0, 999999)
	s.Slot = []int{1, 7, 100, 1000, 60000, 600000}[rng.IntN(6)]
	return s
}

// The bounds every policy promises, over thousands of settings and clients.
func TestWaitsStayInTheirBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 3000 {
		s := randomSettings(rng)
		client := 1 + rng.IntN(s.Clients)
		for _, p := range Policies() {
			waits := Waits(p, s, client)
			if len(waits) != s.Attempts-1 {
				t.Fatalf("%v %+v: got %d waits, want %d", p, s, len(waits), s.Attempts-1)
			}
			for i, w := range waits {
				e := Expo(s.FirstWait, s.LongestWait, i+1)
				low, high := 0, e
				switch p {
				case Fixed:
					low, high = s.FirstWait, s.FirstWait
				case Exponential:
					low = e
				case EqualJitter:
					low = e / 2
				case Decorrelated:
					low, high = s.FirstWait, s.LongestWait
				}
				if w < low || w > high || e > s.LongestWait {
					t.Fatalf("%v %+v client %d retry %d: got %d (expo %d), want %d to %d", p, s, client, i+1, w, e, low, high)
				}
			}
		}
	}
}

// plainCrowd is the crowd written as plainly as the reference describes it:
// every wait drawn, counts grown as needed. The optimised core must agree
// with it on every figure.
func plainCrowd(p Policy, s Settings) Crowd {
	c := Crowd{Policy: p, Slot: s.Slot, LastThrough: -1}
	for client := 1; client <= s.Clients; client++ {
		rng := ClientLCG(s.Seed, client)
		at, last, through := 0, s.FirstWait, false
		for k := 1; k < s.Attempts; k++ {
			e := Expo(s.FirstWait, s.LongestWait, k)
			var w int
			switch p {
			case Fixed:
				w = s.FirstWait
			case Exponential:
				w = e
			case FullJitter:
				w = rng.Between(0, e)
			case EqualJitter:
				w = e/2 + rng.Between(0, e-e/2)
			default:
				w = min(rng.Between(s.FirstWait, 3*last), s.LongestWait)
				last = w
			}
			if through {
				continue
			}
			at += w
			c.Retries++
			for len(c.Counts) <= at/s.Slot {
				c.Counts = append(c.Counts, 0)
			}
			c.Counts[at/s.Slot]++
			if at >= s.Outage {
				through = true
				c.Through++
				c.LastThrough = max(c.LastThrough, at)
			}
		}
		if !through {
			c.GaveUp++
		}
	}
	return c
}

func sameCrowd(t *testing.T, got, want Crowd, s Settings) {
	t.Helper()
	if got.Policy != want.Policy || got.Slot != want.Slot || got.Retries != want.Retries || got.Through != want.Through ||
		got.LastThrough != want.LastThrough || got.GaveUp != want.GaveUp || !slices.Equal(got.Counts, want.Counts) {
		gm, gs := got.Busiest()
		wm, ws := want.Busiest()
		t.Fatalf("%v %+v: got retries %d through %d last %d gave up %d busiest %d@%d (%d slots), want %d %d %d %d %d@%d (%d slots)",
			want.Policy, s, got.Retries, got.Through, got.LastThrough, got.GaveUp, gm, gs, len(got.Counts),
			want.Retries, want.Through, want.LastThrough, want.GaveUp, wm, ws, len(want.Counts))
	}
}

func TestCrowdAgreesWithPlainSimulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 99))
	settings := []Settings{Defaults(), largest()}
	for range 300 {
		settings = append(settings, randomSettings(rng))
	}
	for _, s := range settings {
		crowds := RunCrowds(s)
		for _, p := range Policies() {
			want := plainCrowd(p, s)
			sameCrowd(t, crowds[p], want, s)
			sameCrowd(t, RunCrowd(p, s), want, s)
			if want.Through+want.GaveUp != s.Clients {
				t.Fatalf("%v %+v: %d through and %d gave up, want %d clients in all", p, s, want.Through, want.GaveUp, s.Clients)
			}
		}
	}
}

func TestCrowdInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		s := randomSettings(rng)
		for _, c := range RunCrowds(s) {
			sum := 0
			for _, n := range c.Counts {
				sum += n
			}
			binned := 0
			for _, b := range c.Bins() {
				binned += b.Retries
				if b.Retries == 0 || b.From%s.Slot != 0 {
					t.Fatalf("%v %+v: bad bin %+v", c.Policy, s, b)
				}
			}
			if sum != c.Retries || binned != c.Retries {
				t.Fatalf("%v %+v: counts sum to %d and bins to %d, want %d retries", c.Policy, s, sum, binned, c.Retries)
			}
			if len(c.Counts) == 0 || c.Counts[len(c.Counts)-1] == 0 {
				t.Fatalf("%v %+v: the last slot must hold retries, got %d slots", c.Policy, s, len(c.Counts))
			}
			if c.Retries < s.Clients || c.Retries > s.Clients*(s.Attempts-1) {
				t.Fatalf("%v %+v: got %d retries, want %d to %d", c.Policy, s, c.Retries, s.Clients, s.Clients*(s.Attempts-1))
			}
		}
	}
}

func TestInvalidSettingsGiveNothing(t *testing.T) {
	s := Defaults()
	s.Slot = 0
	for _, c := range RunCrowds(s) {
		if c.Retries != 0 || c.Counts != nil || c.LastThrough != -1 {
			t.Errorf("%v with a 0 ms slot: got %+v, want an empty crowd", c.Policy, c)
		}
	}
	s = Defaults()
	s.Attempts = 0
	if got := Waits(Decorrelated, s, 1); got != nil {
		t.Errorf("Waits with 0 attempts: got %v, want nil", got)
	}
	if got := RunCrowd(FullJitter, s); got.Retries != 0 {
		t.Errorf("RunCrowd with 0 attempts: got %d retries, want 0", got.Retries)
	}
}

func TestBusiestSlot(t *testing.T) {
	tests := []struct {
		counts     []int
		most, slot int
	}{
		{nil, 0, -1}, {[]int{0, 0}, 0, -1}, {[]int{3}, 3, 0}, {[]int{1, 5, 5, 2}, 5, 1}, {[]int{0, 0, 9}, 9, 2},
	}
	for _, tt := range tests {
		if most, slot := BusiestSlot(tt.counts); most != tt.most || slot != tt.slot {
			t.Errorf("BusiestSlot(%v): got %d, %d; want %d, %d", tt.counts, most, slot, tt.most, tt.slot)
		}
	}
}

func TestSchedule(t *testing.T) {
	got := Schedule(Exponential, Defaults(), 1)
	want := []Retry{{2, 1000, 1000}, {3, 2000, 3000}, {4, 4000, 7000}, {5, 8000, 15000}, {6, 16000, 31000}}
	if !slices.Equal(got, want) {
		t.Fatalf("Schedule: got %v, want %v", got, want)
	}
	if Total(got) != 31000 || Total(nil) != 0 {
		t.Errorf("Total: got %d and %d, want 31000 and 0", Total(got), Total(nil))
	}
}

func TestLCG(t *testing.T) {
	// The first state after seed 7001 is (1664525*7001 + 1013904223) mod 2^32.
	g := ClientLCG(7, 1)
	state := (uint64(1664525)*7001 + 1013904223) % (1 << 32)
	if got, want := g.Between(0, 1000), int(state>>16)%1001; got != want {
		t.Errorf("first draw: got %d, want %d", got, want)
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
