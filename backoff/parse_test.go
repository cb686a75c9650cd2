package backoff

import (
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
