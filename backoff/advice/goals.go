package advice

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
)

// Kind is what a goal limits: one figure of the crowd, in the goal's own
// unit.
type Kind int

// The kinds of goal, in the order a person's goals are listed.
const (
	// NotThrough limits not_through, the clients that never get through,
	// as a share of all the clients (the crowd and the fresh requests), in
	// thousandths of a percent: not-through<=1% is 1000.
	NotThrough Kind = iota
	// Recovered limits recovered_after_ms, in ms: recovered<=60s is 60000.
	// A service still overloaded when the fresh load stops never meets it.
	Recovered
	// PeakTimes limits peak_after_back against the capacity of its slot
	// (slot_capacity, ceil(C*S/1000)), in thousandths: peak<=2x is 2000.
	// It needs a capacity.
	PeakTimes
	// PeakRate limits peak_after_back as a rate a second, its slot's
	// attempts times 1000/S: peak<=5000/s is 5000.
	PeakRate
	// P99 limits latency_p99_ms, in ms: p99<=30s is 30000. A crowd in which
	// no client got through has no latency and never meets it.
	P99
	// Attempts limits attempts per client, all attempts over all the
	// clients, in thousandths: attempts<=3x is 3000.
	Attempts
	// NumKinds is how many kinds there are.
	NumKinds
)

// The goals' ranges, in their units.
const (
	MaxNotThrough = 100000          // 100%, in thousandths of a percent
	MaxTime       = backoff.MaxTime // a day, for recovered and p99
	MaxPeakTimes  = 100000 * 1000   // 100000x the capacity, in thousandths
	MaxPeakRate   = 1000000000      // a second
	MinAttempts   = 1000            // 1x: every client makes its first attempt
	MaxAttempts   = backoff.MaxAttempts * 1000
)

// kindNames are each kind's name as a goal writes it; the two kinds of
// peak share theirs.
var kindNames = [NumKinds]string{"not-through", "recovered", "peak", "peak", "p99", "attempts"}

// figureNames are the JSON names of the figure each kind limits.
var figureNames = [NumKinds]string{"not_through", "recovered_after_ms", "peak_after_back", "peak_after_back", "latency_p99_ms", "attempts"}

// Name is the goal's name as it is written before <=: "not-through".
func (k Kind) Name() string {
	if k < 0 || k >= NumKinds {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// Figure is the JSON name of the figure the goal limits: "not_through".
func (k Kind) Figure() string {
	if k < 0 || k >= NumKinds {
		return ""
	}
	return figureNames[k]
}

// A Goal is one limit on one figure: it holds for a candidate when the
// figure at the 95th percentile over the seeds (nearest rank, the spread's
// p95) is no more than Limit, in the kind's unit. A value equal to the
// limit meets it.
type Goal struct {
	Kind  Kind
	Limit int
}

// String writes the goal as ParseGoal reads it: "not-through<=1%",
// "recovered<=60s", "peak<=1.5x", "peak<=5000/s", "p99<=1500ms",
// "attempts<=3x".
func (g Goal) String() string {
	v := ""
	switch g.Kind {
	case NotThrough:
		v = backoff.FormatThousandths(g.Limit) + "%"
	case Recovered, P99:
		v = formatTime(g.Limit)
	case PeakTimes, Attempts:
		v = backoff.FormatThousandths(g.Limit) + "x"
	case PeakRate:
		v = strconv.Itoa(g.Limit) + "/s"
	}
	return g.Kind.Name() + "<=" + v
}

// formatTime is a time in ms as a goal writes it: whole seconds as "60s",
// anything else as "1500ms".
func formatTime(ms int) string {
	if ms%1000 == 0 && ms > 0 {
		return strconv.Itoa(ms/1000) + "s"
	}
	return strconv.Itoa(ms) + "ms"
}

// Forms is every goal's form, for messages and help.
const Forms = "not-through<=P% (of the clients), recovered<=T, peak<=Fx (times the capacity) or peak<=R/s, p99<=T or attempts<=Fx (a client)"

// Examples are one goal of each form.
var Examples = []string{"not-through<=1%", "recovered<=60s", "peak<=2x", "peak<=5000/s", "p99<=30s", "attempts<=3x"}

// maxGoalBytes is the longest goal ParseGoal reads: the longest it writes
// is some 25 bytes.
const maxGoalBytes = 64

// A GoalError is a goal that does not parse: the goal as written and what
// its name allows, or what a goal is.
type GoalError struct {
	Text string // the goal as given
	Rule string // what is wrong and what is allowed, in one line
	List bool   // Text is a list of goals (ParseGoals), not one
}

func (e *GoalError) Error() string {
	what := "goal"
	if e.List {
		what = "goals"
	}
	return fmt.Sprintf("%s %s: %s", what, strconv.Quote(e.Text), e.Rule)
}

// ParseGoal reads one goal, NAME<=LIMIT, as String writes it; the name
// any of its Names, spaces around <= and the limit allowed; names and units
// in any case (P99<=60S). Times are whole milliseconds (60000) or a
// duration of whole ms (60s, 1m30s); numbers may group their digits as
// the flags do (5,000); decimals have at most three places.
func ParseGoal(text string) (Goal, error) {
	fail := func(format string, a ...any) (Goal, error) {
		return Goal{}, &GoalError{Text: text, Rule: fmt.Sprintf(format, a...)}
	}
	if len(text) > maxGoalBytes {
		return fail("a goal is at most %d bytes: want %s", maxGoalBytes, Forms)
	}
	name, limit, ok := strings.Cut(text, "<=")
	if !ok {
		return fail("want NAME<=LIMIT, a figure and its most: %s", Forms)
	}
	typed, typedLimit := strings.TrimSpace(name), strings.TrimSpace(limit)
	name, known := canonicalName(name)
	limit = strings.ToLower(typedLimit)
	if !known {
		return fail("no goal is named %s: want %s", strconv.Quote(typed), Forms)
	}
	switch name {
	case "not-through":
		n, ok := cutNumber(limit, "%", backoff.ParseThousandths)
		if !ok || n > MaxNotThrough {
			return fail("not-through takes a share of the clients from 0%% to 100%%, at most three decimals, such as not-through<=1%%")
		}
		return Goal{NotThrough, n}, nil
	case "recovered", "p99":
		kind, what := Recovered, "the time from the outage's end until the service is stable"
		if name == "p99" {
			kind, what = P99, "the latency of the 99th percentile client"
		}
		// A bare number is a time flag's: the unit is asked for, not
		// guessed (issue 24 item 5), but where the name says it, as the
		// JSON's recovered_after_ms does.
		if strings.HasSuffix(strings.ToLower(typed), "ms") {
			if n, ok := backoff.ParseCount(limit); ok {
				limit = strconv.Itoa(n) + "ms"
			}
		}
		if readings := backoff.TimeReadings(limit); readings != nil {
			for i, r := range readings {
				readings[i] = typed + "<=" + r
			}
			return fail("%s<=%s needs a unit: %s", typed, typedLimit, strings.Join(readings, " or "))
		}
		ms, ok := backoff.ParseTimeUnit(limit)
		if !ok || ms > MaxTime {
			return fail("%s takes a time, %s, from 0 to %d ms, with its unit (60s, 1m30s, 250ms), such as %s<=60s", name, what, MaxTime, name)
		}
		return Goal{kind, ms}, nil
	case "peak":
		if n, ok := cutNumber(limit, "x", backoff.ParseThousandths); ok && n <= MaxPeakTimes {
			return Goal{PeakTimes, n}, nil
		}
		if n, ok := cutNumber(limit, "/s", backoff.ParseCount); ok && n <= MaxPeakRate {
			return Goal{PeakRate, n}, nil
		}
		return fail("peak takes times the capacity, 0x to %dx with at most three decimals (peak<=2x), or a rate a second, 0/s to %d/s (peak<=5000/s)",
			MaxPeakTimes/1000, MaxPeakRate)
	case "attempts":
		n, ok := cutNumber(limit, "x", backoff.ParseThousandths)
		if !ok || n < MinAttempts || n > MaxAttempts {
			return fail("attempts takes attempts a client, the first included, from 1x to %dx with at most three decimals, such as attempts<=3x", MaxAttempts/1000)
		}
		return Goal{Attempts, n}, nil
	}
	return fail("no goal is named %s: want %s", strconv.Quote(typed), Forms)
}

// Names are the names each kind of goal goes by, its own first: the names
// the faces show it by (the crowd pane's "lost", a table's "recovered
// after", the JSON's latency_p99_ms) name the same goal. A name is read in
// any case, with -, _ or spaces between its words.
var Names = [NumKinds][]string{
	NotThrough: {"not-through", "lost"},
	Recovered:  {"recovered", "recovered-after", "recovered-after-ms"},
	PeakTimes:  {"peak", "peak-after-back"},
	PeakRate:   {"peak", "peak-after-back"},
	P99:        {"p99", "latency-p99", "latency-p99-ms"},
	Attempts:   {"attempts"},
}

// canonicalName is the goal's own name for a name as typed, and whether
// it names one.
func canonicalName(typed string) (string, bool) {
	name := strings.ToLower(strings.Join(strings.FieldsFunc(typed, func(r rune) bool { return r == ' ' || r == '-' || r == '_' || r == '\t' }), "-"))
	for k, names := range Names {
		if slices.Contains(names, name) {
			return Kind(k).Name(), true
		}
	}
	return "", false
}

// cutNumber reads s, which must end in unit, with parse.
func cutNumber(s, unit string, parse func(string) (int, bool)) (int, bool) {
	v, ok := strings.CutSuffix(s, unit)
	if !ok {
		return 0, false
	}
	return parse(strings.TrimSpace(v))
}

// Goals are a person's goals: at most one of each kind (both kinds of
// peak may be set), and the order they were given in, which ranks the
// candidates that meet them all (Given). The zero value has none. Goals
// are comparable; Same ignores the order.
type Goals struct {
	set   [NumKinds]bool
	limit [NumKinds]int
	given [NumKinds]int // when each was given: the larger, the later
	n     int           // how many were given, for the next one's place
}

// With returns the goals with g added, in the place of a goal of its kind
// given before: as with any flag, the last wins, and it counts as given
// last.
func (gs Goals) With(g Goal) Goals {
	if g.Kind >= 0 && g.Kind < NumKinds {
		gs.n++
		gs.set[g.Kind], gs.limit[g.Kind], gs.given[g.Kind] = true, g.Limit, gs.n
	}
	return gs
}

// Without returns the goals without one of kind k.
func (gs Goals) Without(k Kind) Goals {
	if k >= 0 && k < NumKinds {
		gs.set[k], gs.limit[k], gs.given[k] = false, 0, 0
	}
	return gs
}

// Same reports whether gs and o are the same goals, in whatever order
// they were given.
func (gs Goals) Same(o Goals) bool { return gs.set == o.set && gs.limit == o.limit }

// Given is the goals in the order they were given, the first first; a
// goal given again counts where it was given last.
func (gs Goals) Given() []Goal {
	out := gs.List()
	slices.SortStableFunc(out, func(a, b Goal) int { return cmp.Compare(gs.given[a.Kind], gs.given[b.Kind]) })
	return out
}

// Get returns the goal of kind k, if there is one.
func (gs Goals) Get(k Kind) (Goal, bool) {
	if k < 0 || k >= NumKinds || !gs.set[k] {
		return Goal{}, false
	}
	return Goal{k, gs.limit[k]}, true
}

// List is the goals in Kind order.
func (gs Goals) List() []Goal {
	var out []Goal
	for k := range NumKinds {
		if g, ok := gs.Get(k); ok {
			out = append(out, g)
		}
	}
	return out
}

// Len is how many goals there are.
func (gs Goals) Len() int { return len(gs.List()) }

// String is the goals as --goal takes them, separated by commas and
// spaces: "not-through<=1%, recovered<=60s".
func (gs Goals) String() string {
	var parts []string
	for _, g := range gs.List() {
		parts = append(parts, g.String())
	}
	return strings.Join(parts, ", ")
}

// ParseGoals reads goals separated by commas, as a form's field holds
// them; a comma between two digits (peak<=5,000/s) is the number's. The
// empty text is no goals; a comma with no goal beside it is refused.
func ParseGoals(text string) (Goals, error) {
	var gs Goals
	if strings.TrimSpace(text) == "" {
		return gs, nil
	}
	parts := splitGoals(text)
	for i, part := range parts {
		if strings.TrimSpace(part) == "" {
			return Goals{}, &GoalError{Text: text, List: true, Rule: emptyPart(i, len(parts))}
		}
		g, err := ParseGoal(strings.TrimSpace(part))
		if err != nil {
			return Goals{}, err
		}
		gs = gs.With(g)
	}
	return gs, nil
}

// emptyPart says what is wrong with the empty part i of n (n > 1: a
// comma is beside it).
func emptyPart(i, n int) string {
	const example = ", such as recovered<=60s, p99<=30s"
	switch i {
	case n - 1:
		return "a comma with no goal after it: drop the comma, or write a goal after it" + example
	case 0:
		return "a comma with no goal before it: drop the comma, or write a goal before it" + example
	}
	return "two commas with no goal between them: drop one, or write a goal between them" + example
}

// splitGoals splits at every comma but those between two digits, which
// group a number's digits.
func splitGoals(text string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == ',' && !(i > 0 && isDigit(text[i-1]) && i+1 < len(text) && isDigit(text[i+1])) {
			parts = append(parts, text[start:i])
			start = i + 1
		}
	}
	return append(parts, text[start:])
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// A NeedsCapacityError is a goal against the capacity for a service that
// has none.
type NeedsCapacityError struct{ Goal Goal }

func (e *NeedsCapacityError) Error() string {
	return fmt.Sprintf("%s measures the peak against the capacity, and the service has none: set a capacity, or give the peak as a rate (peak<=5000/s)", e.Goal)
}

// Check returns an error when a goal means nothing under settings s: a
// peak against the capacity without one.
func (gs Goals) Check(s backoff.Settings) error {
	if g, ok := gs.Get(PeakTimes); ok && s.Capacity <= 0 {
		return &NeedsCapacityError{g}
	}
	return nil
}
