package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/plan"
)

// The client's guards (issue 26, MODEL.md section 7) on the command line:
// --outage-hang, --breaker and --retry-after, in every mode but --plain.

// guardFlags set all three away from their defaults.
func guardFlags() []string {
	return []string{"--outage-hang", "5s", "--breaker", "5:30s", "--retry-after", "2s"}
}

// The flags reach the settings in the full-screen program and every
// command, before or after the command.
func TestGuardFlagsInEveryMode(t *testing.T) {
	want := plan.DefaultSettings()
	want.OutageHang, want.Breaker, want.RetryAfter = 5000, backoff.Breaker{Failures: 5, Open: 30000}, 2000
	for _, args := range [][]string{
		guardFlags(),
		append([]string{"crowd"}, guardFlags()...),
		append(guardFlags(), "crowd"),
		append([]string{"schedule", "--policy", "fixed"}, guardFlags()...),
		append([]string{"jobs", "a:1"}, guardFlags()...),
	} {
		opts, err := parseArgs(args)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if opts.settings != want {
			t.Errorf("%q: got %+v, want %+v", args, opts.settings, want)
		}
	}
}

// Each setting on its boundaries: 0 (off), 1 ms and an hour; a breaker of
// 1 and 1000 failures, open 1 ms and an hour; the presets by name in any
// case; none; the last of a repeated flag wins.
func TestGuardFlagsBoundaries(t *testing.T) {
	tests := []struct {
		args []string
		want func(s *backoff.Settings)
	}{
		{[]string{"--outage-hang", "0"}, func(s *backoff.Settings) {}},
		{[]string{"--outage-hang", "1ms"}, func(s *backoff.Settings) { s.OutageHang = 1 }},
		{[]string{"--outage-hang", "1h"}, func(s *backoff.Settings) { s.OutageHang = backoff.MaxWait }},
		{[]string{"--retry-after", "1ms"}, func(s *backoff.Settings) { s.RetryAfter = 1 }},
		{[]string{"--retry-after", "60m"}, func(s *backoff.Settings) { s.RetryAfter = backoff.MaxWait }},
		{[]string{"--retry-after", "2s", "--retry-after", "0"}, func(s *backoff.Settings) {}},
		{[]string{"--breaker", "1:1ms"}, func(s *backoff.Settings) { s.Breaker = backoff.Breaker{Failures: 1, Open: 1} }},
		{[]string{"--breaker", "1000:1h"}, func(s *backoff.Settings) { s.Breaker = backoff.Breaker{Failures: 1000, Open: backoff.MaxWait} }},
		{[]string{"--breaker", "GoBreaker"}, func(s *backoff.Settings) { s.Breaker = backoff.Breaker{Failures: 6, Open: 60000} }},
		{[]string{"--breaker", "failsafe_go"}, func(s *backoff.Settings) { s.Breaker = backoff.Breaker{Failures: 1, Open: 60000} }},
		{[]string{"--breaker", "5:30s", "--breaker", "none"}, func(s *backoff.Settings) {}},
	}
	for _, tt := range tests {
		args := append([]string{"crowd"}, tt.args...)
		opts, err := parseArgs(args)
		if err != nil {
			t.Errorf("%q: %v, want it taken", args, err)
			continue
		}
		want := plan.DefaultSettings()
		tt.want(&want)
		if opts.settings != want {
			t.Errorf("%q: got %+v, want %+v", args, opts.settings, want)
		}
	}
}

// Bad values get one line and exit 2: past an hour, below 0, a time
// without its unit (the breaker's open time too), a breaker that is no
// breaker.
func TestGuardRefusals(t *testing.T) {
	forms := "none, F:D (F consecutive failures from 1 to 1000, D how long it stays open, from 1 ms to 1 h: 5:30s) or a library's: gobreaker (6:60s), failsafe-go (1:60s)"
	tests := []struct {
		args []string
		want string // the whole message after "retry-planner: "
	}{
		{[]string{"crowd", "--outage-hang", "1h1ms"}, "--outage-hang 1h1ms (3600001 ms): want 0 (the outage refuses at once) to 3600000 ms"},
		{[]string{"crowd", "--outage-hang", "5"}, "--outage-hang 5: a time needs a unit: 5ms or 5s?"},
		{[]string{"crowd", "--outage-hang", "-1s"}, "--outage-hang -1s: want a time of 0 (the outage refuses at once) to 3600000 ms, whole ms, with its unit: 250ms, 1s, 1.5s, 1m30s, 2h"},
		{[]string{"crowd", "--retry-after", "2h"}, "--retry-after 2h (7200000 ms): want 0 (no pushback) to 3600000 ms"},
		{[]string{"crowd", "--retry-after", "2"}, "--retry-after 2: a time needs a unit: 2ms or 2s?"},
		{[]string{"crowd", "--breaker", "5:30"}, "--breaker 5:30: the time it stays open needs a unit: 5:30ms or 5:30s?"},
		{[]string{"crowd", "--breaker", "5"}, "--breaker 5: want " + forms},
		{[]string{"crowd", "--breaker", "0:30s"}, "--breaker 0:30s: want " + forms},
		{[]string{"crowd", "--breaker", "1001:30s"}, "--breaker 1001:30s: want " + forms},
		{[]string{"crowd", "--breaker", "5:1h1ms"}, "--breaker 5:1h1ms: want " + forms},
		{[]string{"crowd", "--breaker", "5:0s"}, "--breaker 5:0s: want " + forms},
		{[]string{"crowd", "--breaker", "hystrix"}, "--breaker hystrix: want " + forms},
		{[]string{"crowd", "--breaker"}, "--breaker needs a value: " + forms},
	}
	for _, tt := range tests {
		out, errs, code := runArgs(t, "", tt.args...)
		if code != 2 || out != "" || errs != "retry-planner: "+tt.want+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q;\nwant 2, nothing and %q", tt.args, code, out, errs, "retry-planner: "+tt.want)
		}
	}
}

// --plain refuses each of them, whatever the value, as it refuses the
// service's other settings.
func TestPlainRefusesTheGuards(t *testing.T) {
	for _, tt := range []struct {
		args []string
		flag string
	}{
		{[]string{"--plain", "--outage-hang", "0"}, "outage-hang"},
		{[]string{"--plain", "--outage-hang", "5s"}, "outage-hang"},
		{[]string{"--plain", "--breaker", "none"}, "breaker"},
		{[]string{"--breaker", "gobreaker", "--plain"}, "breaker"},
		{[]string{"--plain", "--retry-after", "2s"}, "retry-after"},
	} {
		checkPlainRefuses(t, tt.args, tt.flag)
	}
}

// The plan a report ran keeps the guards in its [guards], and loaded
// again it gives the same report.
func TestGuardsSavePlan(t *testing.T) {
	args := append([]string{"crowd", "--policies", "exponential", "--clients", "300", "--capacity", "50", "--processes", "3"}, guardFlags()...)
	checkSavedPlan(t, args, "\n[guards]\n", "\noutage_hang_ms = 5000\n", "\nbreaker = \"5:30s\"\n", "\nretry_after_ms = 2000\n")
}

// crowd --compare names a breaker that differs, and the guards' times in
// ms, as it names every setting.
func TestGuardsCompare(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.toml")
	reportOf(t, "crowd", "--policies", "exponential", "--clients", "100", "--capacity", "20", "--save-plan", a)
	text := reportOf(t, append([]string{"crowd", "--compare", a, "--plan", a}, guardFlags()...)...)
	for _, want := range []string{"--outage-hang 0 to 5000 ms", "--retry-after 0 to 2000 ms", "--breaker none to 5:30s"} {
		if !strings.Contains(text, want) {
			t.Errorf("--compare says no %q:\n%s", want, text)
		}
	}
}
