package backoff

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// The one rule for the values a person types, on the command line, in the
// settings form and in a plan file: a number is ASCII digits, written plain
// ("1500") or in groups of three as the faces write numbers ("1,500",
// "1_500", "1,000,000"), with no sign and no spaces; a time is a duration
// written as Go writes one ("1s", "1.5s", "1m30s", "250ms"), which must
// come to a whole number of milliseconds (a fraction finer than a
// nanosecond is dropped, as Go drops it). On the command line and in the
// form a time names its unit, in any case (ParseTimeUnit): "45" could be
// 45 ms or 45 s, and is refused; 0 alone is 0 in every unit. A plan's key
// that names its unit (outage_ms) takes a bare number of it (ParseTime).
// --plain's line menu keeps the reference's own rule: at most 7 digits and
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
	return parseDuration(s)
}

// ParseTimeUnit reads a time as the command line and the settings form
// take it: a duration as ParseTime reads one, its units in any case ("45s",
// "45S", "3000MS", "1m30s", "2H"), or a number that is 0, which is 0 in
// every unit. Any other number without a unit is refused: it could be ms
// or s (TimeReadings).
func ParseTimeUnit(s string) (int, bool) {
	if n, ok := ParseCount(s); ok {
		return 0, n == 0
	}
	return parseDuration(asciiLower(s))
}

// TimeReadings are what a number typed without a unit could mean, each
// as ParseTimeUnit takes it: "45" is "45ms" or "45s", "1,500" "1500ms" or
// "1500s", "1.5" only "1.5s" (1.5 ms is no whole number of them). It is
// nil for anything that is not a number without a unit, and for 0 (0.0
// too), which means one thing in every unit.
func TimeReadings(s string) []string {
	digits := s
	if n, ok := ParseCount(s); ok {
		if n == 0 {
			return nil
		}
		digits = strings.NewReplacer(",", "", "_", "").Replace(s)
	} else if whole, frac, ok := strings.Cut(s, "."); !ok || whole+frac == "" || strings.ContainsFunc(whole+frac, func(r rune) bool { return r < '0' || r > '9' }) {
		return nil
	} else {
		// Written as a person reads it: ".5" as "0.5", "5." as "5".
		digits = cmp.Or(whole, "0")
		if frac != "" {
			digits += "." + frac
		}
	}
	var out []string
	for _, unit := range []string{"ms", "s"} {
		if ms, ok := ParseTimeUnit(digits + unit); ok && ms > 0 {
			out = append(out, digits+unit)
		}
	}
	return out
}

// BreakerReadings are what a breaker F:D whose open time has no unit could
// mean, as TimeReadings reads D: "5:30" is "5:30ms" or "5:30s". It is nil
// for anything else.
func BreakerReadings(s string) []string {
	f, d, ok := strings.Cut(s, ":")
	if !ok {
		return nil
	}
	out := TimeReadings(d)
	for i, r := range out {
		out[i] = f + ":" + r
	}
	return out
}

// asciiLower is s with its ASCII capitals in lower case, and nothing else
// changed: a unit in any case reads as its own.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// parseDuration reads a duration of one or more parts, each digits, an
// optional fraction and a unit, as ParseTime says.
func parseDuration(s string) (int, bool) {
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

// timeUnits are the units FormatTime writes, the longest first, in ms.
var timeUnits = []struct {
	name string
	ms   int
}{{"h", 3600000}, {"m", 60000}, {"s", 1000}, {"ms", 1}}

// FormatTime writes ms as the shortest duration ParseTimeUnit reads back
// as ms: its parts in h, m, s and ms, each unit once and in that order,
// each part a whole number but the last, which may carry a fraction that
// ends ("1.5s", "1.101h"; ms only whole); the first part at least 1
// ("250ms", not "0.25s"); between forms of one length the fewer parts, then
// the one without a fraction ("1234ms", not "1.234s"). So 45000 is "45s",
// 1500 "1.5s", 90000 "90s", 3600000 "1h", 3601000 "1h1s", 1005 "1s5ms", 0
// "0". A time below 0, which no setting holds, is its ms with a sign,
// which no parser takes.
func FormatTime(ms int) string {
	switch {
	case ms == 0:
		return "0"
	case ms < 0:
		return strconv.Itoa(ms) + "ms"
	}
	best, bestParts, bestFrac := "", 0, false
	// Each choice of units is a subset of timeUnits, in its order.
	for set := 1; set < 1<<len(timeUnits); set++ {
		var b strings.Builder
		rest, parts, frac, ok := ms, 0, false, true
		for i, u := range timeUnits {
			if set&(1<<i) == 0 {
				continue
			}
			n, last := rest/u.ms, set>>(i+1) == 0
			parts++
			if digits, ends := fraction(rest%u.ms, u.ms); last && rest%u.ms != 0 && ends {
				b.WriteString(strconv.Itoa(n) + "." + digits + u.name) // 1500 ms in s: "1.5s"
				frac, rest = true, 0
				continue
			}
			if n == 0 {
				ok = false // a part of 0 is the same form without it
				break
			}
			b.WriteString(strconv.Itoa(n) + u.name)
			rest -= n * u.ms
		}
		f := b.String()
		if !ok || rest != 0 || strings.HasPrefix(f, "0") {
			continue
		}
		if best == "" || len(f) < len(best) || len(f) == len(best) && (parts < bestParts || parts == bestParts && bestFrac && !frac) {
			best, bestParts, bestFrac = f, parts, frac
		}
	}
	return best
}

// FormatValue writes field f's value v as the command line and the
// settings form read it back: a time with its unit (FormatTime), the
// multiplier as a decimal (FormatThousandths), the processes as a number
// or clients (FormatProcesses), any other number plain.
func FormatValue(f Field, v int) string {
	switch {
	case f == Multiplier:
		return FormatThousandths(v)
	case f.IsTime():
		return FormatTime(v)
	case f == Processes:
		return FormatProcesses(v)
	}
	return strconv.Itoa(v)
}

// fraction is the digits of r/unit (0 < r < unit) after the point, and
// whether they end: 500/1000 is "5", 20000/60000 (0.333...) does not end.
func fraction(r, unit int) (string, bool) {
	var digits []byte
	// unit is at most 2^7 * 3^2 * 5^5 (an hour in ms): a fraction that ends
	// does so within 7 digits.
	for r != 0 && len(digits) < 8 {
		r *= 10
		digits = append(digits, byte('0'+r/unit))
		r %= unit
	}
	return string(digits), r == 0
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
