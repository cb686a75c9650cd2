package backoff

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	good := map[string]int{"0": 0, "1000": 1000, "1s": 1000, "1.5s": 1500, "1s500ms": 1500, "2m": 120000, "1h": 3600000,
		"250ms": 250, "1m30s": 90000, "0.001s": 1, "1000000ns": 1, "1000us": 1, "1000µs": 1, ".5s": 500, "1.s": 1000, "0010": 10}
	for in, want := range good {
		if got, ok := ParseTime(in); !ok || got != want {
			t.Errorf("ParseTime(%q): got %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "-1", "+1", "-1s", "+1s", "1.5", "1.5ms", "1ns", "s", "1x", "1 s", " 1s", "1s ", "1e3",
		"1S", "99999999999", "9999999999999999999h", "..5s", "1..5s", "ms", "١s"} {
		if got, ok := ParseTime(bad); ok {
			t.Errorf("ParseTime(%q): got %d, want a refusal", bad, got)
		}
	}
}

// ParseTime takes a duration exactly when Go's time.ParseDuration reads it
// without a sign as a whole number of milliseconds below 2^62 ns, and gives
// the same number. Go works out a fraction of more than nine digits with a
// float64, which rounds (".9009999999999999s" is 901 ms); ParseTime
// truncates exactly; such fractions are left out of the comparison.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"1s", "1.5s", "1m30s", "250ms", "1000", "1h2m3s4ms", "0.5s", "1µs", "1000000ns", ".5s", "-1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseTime(s)
		if n, isCount := ParseCount(s); isCount {
			if !ok || got != n {
				t.Fatalf("ParseTime(%q) = %d, %v; want the number %d", s, got, ok, n)
			}
			return
		}
		if longFraction(s) {
			return
		}
		d, err := time.ParseDuration(s)
		want := err == nil && s != "" && s[0] != '+' && s[0] != '-' && d >= 0 && d%time.Millisecond == 0 && uint64(d) <= maxTimeNs && s != "0"
		if ok != want || (ok && got != int(d/time.Millisecond)) {
			t.Fatalf("ParseTime(%q) = %d, %v; time.ParseDuration gives %v, %v", s, got, ok, d, err)
		}
	})
}

// Issue 24, item 5: the command line's and the form's times name their
// unit, in any case; a number alone is refused but 0, which is 0 in every
// unit.
func TestParseTimeUnit(t *testing.T) {
	good := map[string]int{"45s": 45000, "45S": 45000, "3000ms": 3000, "3000MS": 3000, "3000Ms": 3000, "1m30s": 90000, "1M30S": 90000,
		"2h": 7200000, "2H": 7200000, "1.5s": 1500, "1s500ms": 1500, "0": 0, "00": 0, "0,000": 0, "0s": 0, "0ms": 0, "1000US": 1, "1000µS": 1,
		"1ms": 1}
	for in, want := range good {
		if got, ok := ParseTimeUnit(in); !ok || got != want {
			t.Errorf("ParseTimeUnit(%q): got %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, bad := range []string{"45", "1", "1,500", "1_500", "1.5", ".5", "", "-1s", "+1s", "45 s", " 45s", "45sec", "1.5ms", "1ns", "s", "MS",
		"1K", "1ſ"} { // a Kelvin sign and a long s are no units, whatever their case
		if got, ok := ParseTimeUnit(bad); ok {
			t.Errorf("ParseTimeUnit(%q): got %d, want a refusal", bad, got)
		}
	}
}

// What a number without a unit could mean, as the messages name it.
func TestTimeReadings(t *testing.T) {
	for in, want := range map[string][]string{"45": {"45ms", "45s"}, "1,500": {"1500ms", "1500s"}, "1_500": {"1500ms", "1500s"},
		"1.5": {"1.5s"}, ".5": {"0.5s"}, "5.": {"5ms", "5s"}, "0": nil, "0.0": nil, "45s": nil, "x": nil, "": nil, ".": nil,
		"1.2345": nil, "99999999999": nil, "-45": nil, "4 5": nil} {
		if got := TimeReadings(in); !slices.Equal(got, want) {
			t.Errorf("TimeReadings(%q): got %q, want %q", in, got, want)
		}
	}
}

// The shortest form that reads back, each boundary between units by hand.
func TestFormatTime(t *testing.T) {
	for ms, want := range map[int]string{
		0: "0", 1: "1ms", 250: "250ms",
		999:  "999ms", // below a second: "0.999s" would start with 0
		1000: "1s",    // exactly a second
		1001: "1s1ms", // 5 characters against 1001ms and 1.001s, 6
		1234: "1234ms", 1500: "1.5s", 2500: "2.5s", 10500: "10.5s", 45000: "45s",
		59999: "59999ms", // 7, as 59.999s: the form without a fraction
		60000: "1m", 61000: "61s", 61500: "61.5s", 90000: "90s", 120000: "2m",
		150000:  "150s", // 4, as 2m30s is 5
		3599999: "3599999ms", 3600000: "1h", 3601000: "1h1s", 3661000: "3661s", 5400000: "90m", 86400000: "24h",
		-1: "-1ms",
	} {
		if got := FormatTime(ms); got != want {
			t.Errorf("FormatTime(%d): got %q, want %q", ms, got, want)
		}
	}
}

// A setting's value as the command line and the form read it back.
func TestFormatValue(t *testing.T) {
	for _, tt := range []struct {
		f    Field
		v    int
		want string
	}{{Outage, 45000, "45s"}, {Timeout, 0, "0"}, {Multiplier, 1600, "1.6"}, {Processes, PerClient, "clients"}, {Processes, 20, "20"},
		{Clients, 1500, "1500"}} {
		if got := FormatValue(tt.f, tt.v); got != tt.want {
			t.Errorf("FormatValue(%v, %d): got %q, want %q", tt.f, tt.v, got, tt.want)
		}
	}
}

// ParseTimeUnit is ParseTime on the text in lower case (ASCII only), but
// for a number without a unit, which it refuses unless it is 0, and which
// TimeReadings reads two ways; and every time it takes, FormatTime writes
// in a form it reads back, no longer than the text it came from when that
// starts with a digit from 1 to 9 and every point follows a digit (0.5s is
// shorter than 500ms, and 1h.1s than 1h0.1s, but FormatTime starts no part
// with a point and no time with 0).
func FuzzParseTimeUnit(f *testing.F) {
	for _, s := range []string{"45", "45s", "45S", "3000MS", "1m30s", "1M30S", "2h", "0", "1,500", "1.5", ".5", "1s5ms", "1.5H", "10.5h", "µs"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseTimeUnit(s)
		n, isCount := ParseCount(s)
		switch {
		case isCount:
			if ok != (n == 0) || got != 0 {
				t.Fatalf("ParseTimeUnit(%q) = %d, %v; want 0 and %v", s, got, ok, n == 0)
			}
		default:
			want, wantOK := ParseTime(asciiLower(s))
			if ok != wantOK || got != want {
				t.Fatalf("ParseTimeUnit(%q) = %d, %v; ParseTime(%q) = %d, %v", s, got, ok, asciiLower(s), want, wantOK)
			}
		}
		readings := TimeReadings(s)
		if (len(readings) > 0) && ok {
			t.Fatalf("TimeReadings(%q) = %q, but ParseTimeUnit takes it", s, readings)
		}
		if isCount && n > 0 && n <= 4_000_000_000 && len(readings) != 2 { // 4e9 s is below 2^62 ns
			t.Fatalf("TimeReadings(%q) = %q; want ms and s", s, readings)
		}
		for _, r := range readings {
			want := n * 1000
			if strings.HasSuffix(r, "ms") {
				want = n
			}
			if ms, _ := ParseTimeUnit(r); isCount && ms != want {
				t.Fatalf("TimeReadings(%q) = %q: %q is %d ms, not %d ms or s", s, readings, r, ms, n)
			}
		}
		for _, r := range readings {
			if _, ok := ParseTimeUnit(r); !ok {
				t.Fatalf("TimeReadings(%q) gives %q, which ParseTimeUnit refuses", s, r)
			}
		}
		if !ok {
			return
		}
		back := FormatTime(got)
		if again, ok := ParseTimeUnit(back); !ok || again != got {
			t.Fatalf("FormatTime(%d) = %q, which reads as %d, %v", got, back, again, ok)
		}
		if s[0] >= '1' && s[0] <= '9' && !pointAlone(s) && len(back) > len(s) {
			t.Fatalf("FormatTime(%d) = %q, longer than %q", got, back, s)
		}
	})
}

// pointAlone reports whether a point in s follows no digit: "1h.1s".
func pointAlone(s string) bool {
	for i := range len(s) {
		if s[i] == '.' && (i == 0 || s[i-1] < '0' || s[i-1] > '9') {
			return true
		}
	}
	return false
}

func TestLookupPolicy(t *testing.T) {
	s := Defaults()
	for in, want := range map[string]string{"full jitter": "full jitter", "Full Jitter": "full jitter", "full-jitter": "full jitter",
		"FULL_JITTER": "full jitter", "grpc": "grpc", "GRPC": "grpc", "client-go": "client-go", "client go": "client-go",
		"custom": "custom", " fixed ": "fixed"} {
		p, err := LookupPolicy(s, in)
		if err != nil || p.Name != want {
			t.Errorf("LookupPolicy(%q): got %q, %v; want %q", in, p.Name, err, want)
		}
	}
	for _, bad := range []string{"", "jitter", "full  jitter", "grpcx"} {
		if p, err := LookupPolicy(s, bad); err == nil {
			t.Errorf("LookupPolicy(%q): got %+v, want an error", bad, p)
		}
	}
}

// longFraction reports whether s has a run of more than nine digits after a
// point.
func longFraction(s string) bool {
	run, after := 0, false
	for _, c := range s {
		switch {
		case c == '.':
			run, after = 0, true
		case c >= '0' && c <= '9' && after:
			if run++; run > 9 {
				return true
			}
		default:
			after = false
		}
	}
	return false
}

func TestParseCountGroups(t *testing.T) {
	good := map[string]int{"0": 0, "1500": 1500, "1,500": 1500, "1_500": 1500, "12,000": 12000, "123_456": 123456,
		"1,000,000": 1000000, "1_000_000": 1000000, "0,000": 0, "9,999,999,999": 9999999999, "9999999999": 9999999999}
	for in, want := range good {
		if got, ok := ParseCount(in); !ok || got != want {
			t.Errorf("ParseCount(%q): got %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", ",", "_", ",500", "1,", "1_", "15,00", "1,5000", "1234,567", "1,500_000", "1_500,000",
		"1,,500", "1__500", "1 500", "1.500", "-1,500", "+1,500", "10,000,000,000", "1,000,000,0000", "١,٥٠٠", "1,50a"} {
		if got, ok := ParseCount(bad); ok {
			t.Errorf("ParseCount(%q): got %d, want a refusal", bad, got)
		}
	}
}

// ParseCount takes exactly the plain numbers of at most MaxDigits digits and
// the same digits grouped in threes by one comma or underscore throughout
// (the first group 1 to 3 digits), and gives the number they write; and
// every number up to MaxDigits digits, written with commas or underscores
// as the faces write it, reads back as itself.
func FuzzParseCount(f *testing.F) {
	for _, s := range []string{"1500", "1,500", "1_500", "1,000,000", "15,00", ",500", "1,500_000", "99999999999", "0", ""} {
		f.Add(s, uint64(1500))
	}
	grouped := func(n uint64, sep string) string {
		s := strconv.FormatUint(n, 10)
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + sep + s[i:]
		}
		return s
	}
	f.Fuzz(func(t *testing.T, s string, n uint64) {
		got, ok := ParseCount(s)
		plain := s
		sep := ""
		if i := strings.IndexAny(s, ",_"); i >= 0 {
			sep = s[i : i+1]
			plain = strings.ReplaceAll(s, sep, "")
		}
		want, wantOK := 0, len(plain) >= 1 && len(plain) <= MaxDigits
		for _, c := range []byte(plain) {
			if c < '0' || c > '9' {
				wantOK = false
			}
		}
		if wantOK {
			v, _ := strconv.ParseUint(plain, 10, 64)
			want = int(v)
			// Grouped: the groups must be where grouped() puts them, the
			// leading zeros of plain kept.
			if sep != "" {
				head := len(plain) % 3
				if head == 0 {
					head = 3
				}
				expect := plain[:head]
				for i := head; i < len(plain); i += 3 {
					expect += sep + plain[i:i+3]
				}
				wantOK = expect == s
			}
		}
		if ok != wantOK || (ok && got != want) {
			t.Fatalf("ParseCount(%q): got %d, %v; want %d, %v", s, got, ok, want, wantOK)
		}
		n %= 1e10
		for _, sep := range []string{",", "_"} {
			if back, ok := ParseCount(grouped(n, sep)); !ok || back != int(n) {
				t.Fatalf("ParseCount(%q): got %d, %v; want %d", grouped(n, sep), back, ok, n)
			}
		}
	})
}

// BreakerReadings: a breaker whose open time has no unit reads as each
// time it could be; one with a unit, a preset, 0 or no F:D as none.
func TestBreakerReadings(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want []string
	}{
		{"5:30", []string{"5:30ms", "5:30s"}},
		{"5:1.5", []string{"5:1.5s"}}, // 1.5 ms is no whole number of them
		{"5:30s", nil},
		{"5:0", nil}, // 0 is 0 in every unit
		{"gobreaker", nil},
		{"30", nil},
	} {
		if got := BreakerReadings(tt.s); !slices.Equal(got, tt.want) {
			t.Errorf("BreakerReadings(%q): got %q, want %q", tt.s, got, tt.want)
		}
	}
}
