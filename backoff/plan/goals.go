package plan

import (
	"strconv"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
)

// The goals advise searches for, in a [goals] table: a key for each kind
// of goal (advice.Kind), none set by default. Encode writes the table only
// for a plan that has a goal, each key left out commented with an example,
// so that a plan without goals is written as it always was.

// goalsTable is the [goals] table's name and the comment above it.
var goalsTable = struct{ name, doc string }{"goals",
	"What advise searches for (retry-planner help goals): each a limit on one\n" +
		"figure that must hold at the 95th percentile over the seeds of [spread]; a\n" +
		"value equal to the limit holds. A key left out is no goal."}

// goalKey is one goal's key: its kind, its name, what it is, and how its
// value is written and read.
type goalKey struct {
	kind    advice.Kind
	name    string
	doc     string
	decimal bool // a decimal of at most three places, kept in thousandths
	time    bool // whole ms, or a duration string
	low     int  // the range, in the kind's unit
	high    int
	example string
}

func goalKeyList() []goalKey {
	return []goalKey{
		{advice.NotThrough, "not_through_percent", "Clients that never get through, as a percent of the clients touched\n(those that start by the run's last failure): not-through<=1% is 1.0. From\n0 to 100, at most three decimals.",
			true, false, 0, advice.MaxNotThrough, "1.0"},
		{advice.Recovered, "recovered_after_ms", "From the outage's end until the service is stable (recovered<=60s); a\nservice still overloaded when the load stops never meets it. From 0 to " +
			strconv.Itoa(advice.MaxTime) + " ms.", false, true, 0, advice.MaxTime, "60000"},
		{advice.PeakTimes, "peak_times_capacity", "The peak after back, at most this many times its slot's capacity\n(peak<=2x is 2.0; it needs a capacity). From 0 to " + strconv.Itoa(advice.MaxPeakTimes/1000) + ", at most three decimals.",
			true, false, 0, advice.MaxPeakTimes, "2.0"},
		{advice.PeakRate, "peak_per_second", "The peak after back, at most this many attempts a second\n(peak<=5000/s). From 0 to " + strconv.Itoa(advice.MaxPeakRate) + ".",
			false, false, 0, advice.MaxPeakRate, "5000"},
		{advice.P99, "latency_p99_ms", "The latency of the 99th percentile client that gets through (p99<=30s); none\nthrough never meets it. From 0 to " +
			strconv.Itoa(advice.MaxTime) + " ms.", false, true, 0, advice.MaxTime, "30000"},
		{advice.Attempts, "attempts_per_client", "Attempts a client, all the attempts over all the clients: the load the\nclients add (attempts<=3x is 3.0). From 1 to " + strconv.Itoa(advice.MaxAttempts/1000) + ", at most three decimals.",
			true, false, advice.MinAttempts, advice.MaxAttempts, "3.0"},
	}
}

// goalKeys are the [goals] table's keys, in the kinds' order.
func goalKeys() []planKey {
	var out []planKey
	for _, gk := range goalKeyList() {
		out = append(out, planKey{table: goalsTable.name, name: gk.name, doc: gk.doc,
			value: func(p Plan) string {
				g, ok := p.Goals.Get(gk.kind)
				switch {
				case !ok:
					return ""
				case gk.decimal:
					return planDecimal(g.Limit)
				}
				return strconv.Itoa(g.Limit)
			},
			read: func(p *Plan, v any) (string, bool) {
				var n int
				var wrong string
				var ok bool
				switch s, isString := v.(string); {
				case gk.decimal:
					n, wrong, ok = readTOMLThousandths(v)
				case gk.time && isString:
					n, ok = backoff.ParseTime(s)
				default:
					n, wrong, ok = readTOMLInt(v)
				}
				if !ok || n < gk.low || n > gk.high {
					return wrong, false
				}
				p.Goals = p.Goals.With(advice.Goal{Kind: gk.kind, Limit: n})
				return "", true
			},
			rule: func(Plan) string { return gk.rule() },
		})
	}
	return out
}

// rule is what the key takes, after "want".
func (gk goalKey) rule() string {
	switch {
	case gk.decimal:
		return "a decimal from " + backoff.FormatThousandths(gk.low) + " to " + backoff.FormatThousandths(gk.high) + " with at most three decimals"
	case gk.time:
		return "a time from 0 to " + strconv.Itoa(gk.high) + ` ms: whole milliseconds, or a duration string such as "1.5s"`
	}
	return "a whole number from 0 to " + strconv.Itoa(gk.high)
}

// goalExample is what a goal's key left out shows, commented: an example.
func goalExample(name string) (string, bool) {
	for _, gk := range goalKeyList() {
		if gk.name == name {
			return gk.example, true
		}
	}
	return "", false
}

// GoalKey is the [goals] key of kind k and its value in p as the plan
// writes it: "peak_times_capacity", "2.0".
func GoalKey(p Plan, k advice.Kind) (name, value string) {
	if k < 0 || k >= advice.NumKinds {
		return "", ""
	}
	key := goalKeys()[k] // in the kinds' order
	return key.name, key.value(p)
}

// GoalKeyExample is kind k's key with its example value, as a plan writes
// it: "peak_per_second = 5000".
func GoalKeyExample(k advice.Kind) string {
	if k < 0 || k >= advice.NumKinds {
		return ""
	}
	gk := goalKeyList()[k]
	return gk.name + " = " + gk.example
}
