package backoff

import (
	"fmt"
	"strings"
)

// The one rule for the values a person types, on the command line, in the
// settings form and in a plan file: a number is ASCII digits, written plain
// ("1500") or in groups of three as the faces write numbers ("1,500",
// "1_500", "1,000,000"), with no sign and no spaces; a time is such a
// number of milliseconds or a duration written as Go writes one ("1s",
// "1.5s", "1m30s", "250ms"), which must come to a whole number of
// milliseconds (a fraction finer than a nanosecond is dropped, as Go drops
// it). --plain keeps the reference's own rule: at most 7 digits and
// nothing else.

// MaxDigits is the most digits a typed number may have: every wide range
// ends below 10^10.
const MaxDigits = 10

// ParseCount reads a whole number of 1 to MaxDigits ASCII digits, plain or
// grouped in threes by one separator, a comma or an underscore, used
// throughout: the first group has 1 to 3 digits, every other exactly 3
// ("1,500", "12_000", "1,000,000"; not "15,00", "1,500_000" or ",500").
// A comma between groups of any other size is refused rather than guessed
// at: "15,00" may be a decimal comma.
func ParseCount(s string) (int, bool) {
	if n, ok := ParseDigits(s, MaxDigits); ok {
		return n, true
	}
	i := strings.IndexAny(s, ",_")
	if i < 1 || i > 3 || len(s) > MaxDigits*4/3+1 {
		return 0, false
	}
	sep := s[i]
	digits := make([]byte, 0, MaxDigits)
	for g, group := range strings.Split(s, string(sep)) {
		if g > 0 && len(group) != 3 { // the first is s[:i], 1 to 3 long
			return 0, false
		}
		digits = append(digits, group...)
	}
	return ParseDigits(string(digits), MaxDigits)
}

// durationUnits are the units of a duration in nanoseconds, as Go's
// time.ParseDuration takes them.
var durationUnits = []struct {
	name string
	ns   uint64
}{
	{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"μs", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9},
}

// maxTimeNs bounds a duration while it is read: far above every range, and
// far below the overflow of a uint64.
const maxTimeNs = uint64(1) << 62

// ParseTime reads a time in whole milliseconds: a number as ParseCount
// reads one, or a duration of one or more parts, each digits, an optional
// fraction and a unit (ns, us, µs, ms, s, m, h), with no sign. A duration
// that is not a whole number of milliseconds is refused, as is one past
// 2^62 ns; the caller checks the range.
func ParseTime(s string) (int, bool) {
	if n, ok := ParseCount(s); ok {
		return n, true
	}
	if s == "" {
		return 0, false
	}
	var total uint64 // in nanoseconds
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		whole, rest := s[:i], s[i:]
		frac := ""
		if strings.HasPrefix(rest, ".") {
			j := 1
			for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
				j++
			}
			frac, rest = rest[1:j], rest[j:]
			if frac == "" && whole == "" {
				return 0, false
			}
		} else if whole == "" {
			return 0, false
		}
		unit := uint64(0)
		for _, u := range durationUnits {
			// The longest unit name that starts rest: "ms" before "m".
			if strings.HasPrefix(rest, u.name) && (unit == 0 || len(u.name) > 1) {
				unit, s = u.ns, rest[len(u.name):]
			}
		}
		if unit == 0 {
			return 0, false
		}
		part, ok := partNanos(whole, frac, unit)
		if !ok || total+part > maxTimeNs {
			return 0, false
		}
		total += part
	}
	if total%1e6 != 0 {
		return 0, false
	}
	return int(total / 1e6), true
}

// partNanos is whole.frac units in whole nanoseconds, or false when it is
// too large.
func partNanos(whole, frac string, unit uint64) (uint64, bool) {
	var n uint64
	for _, c := range whole {
		n = n*10 + uint64(c-'0')
		if n > maxTimeNs {
			return 0, false
		}
	}
	if n > maxTimeNs/unit {
		return 0, false
	}
	n *= unit
	scale := unit
	for _, c := range frac {
		if scale%10 != 0 {
			break // finer than a nanosecond: dropped, as Go's time.ParseDuration drops it
		}
		scale /= 10
		n += uint64(c-'0') * scale
	}
	return n, n <= maxTimeNs
}

// LookupPolicy returns the policy a person names: one of the five ("full
// jitter", or "full-jitter" and "full_jitter", which need no quotes in a
// shell), a preset ("grpc"), or "custom", the settings' own; in any case.
func LookupPolicy(s Settings, name string) (Policy, error) {
	key := strings.ToLower(strings.NewReplacer("-", " ", "_", " ").Replace(strings.TrimSpace(name)))
	for _, sh := range Shapes() {
		if key == sh.String() {
			return s.Policy(sh), nil
		}
	}
	if key == "custom" {
		return s.Custom(), nil
	}
	for _, pr := range Presets() {
		if key == strings.ReplaceAll(pr.Name, "-", " ") {
			return pr.Policy, nil
		}
	}
	return Policy{}, fmt.Errorf("unknown policy %q: want %s", name, PolicyNames())
}

// PolicyNames is every name LookupPolicy takes, for a message.
func PolicyNames() string {
	return ShapeList() + "; custom; or a preset: " + PresetNames()
}

// Names is every name LookupPolicy takes, as the core writes it: the five,
// custom, then the presets.
func Names() []string {
	var names []string
	for _, sh := range Shapes() {
		names = append(names, sh.String())
	}
	names = append(names, "custom")
	for _, pr := range Presets() {
		names = append(names, pr.Name)
	}
	return names
}
