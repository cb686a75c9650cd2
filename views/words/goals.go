package words

import (
	"strconv"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
)

// The goals' words: a verdict as its value at the 95th percentile and
// its goal, such as "recovered 94 s, goal 60 s", with the exact counts a
// share or a ratio rounds.

// GoalValue is the verdict's value at the 95th percentile: "not through
// 0.8% (3,012 of 365,000 touched)", "recovered 41.5 s", "peak 1.4x (280 in a slot
// that serves 200)", "peak 4,800/s (480 in a 100 ms slot)", "p99 12.3
// s", "attempts 1.3 a client (467,005)"; what is absent: "still
// overloaded", "p99: none got through".
func GoalValue(v advice.Verdict) string {
	switch v.Goal.Kind {
	case advice.NotThrough:
		return "not through " + Percent(v.Value, v.Of) + " (" + Count(v.Value) + " of " + Count(v.Of) + " touched)"
	case advice.Recovered:
		if v.Absent {
			return "still overloaded when the load stops"
		}
		a, _ := timePair(v.Value, v.Goal.Limit)
		return "recovered " + a
	case advice.PeakTimes:
		return "peak " + Times(v.Value, v.Of) + " (" + Count(v.Value) + " in a slot that serves " + Count(v.Of) + ")"
	case advice.PeakRate:
		return "peak " + Rate(v.Value, v.Of) + " (" + Count(v.Value) + " in a " + Human(v.Of) + " slot)"
	case advice.P99:
		if v.Absent {
			return "p99: none got through"
		}
		a, _ := timePair(v.Value, v.Goal.Limit)
		return "p99 " + a
	case advice.Attempts:
		return "attempts " + Each(v.Value, v.Of) + " a client (" + Count(v.Value) + ")"
	}
	return ""
}

// GoalLimit is the verdict's goal, with the most of the figure that meets
// it where a share or a ratio stands for it: "1% (at most 3,650)", "60 s",
// "1.5x (at most 300)", "5,000/s (at most 500)", "3x (at most 1,095,000)".
func GoalLimit(v advice.Verdict) string {
	switch v.Goal.Kind {
	case advice.NotThrough:
		return backoff.FormatThousandths(v.Goal.Limit) + "% (at most " + Count(v.Most) + ")"
	case advice.Recovered, advice.P99:
		_, b := timePair(max(v.Value, 0), v.Goal.Limit)
		return b
	case advice.PeakTimes, advice.Attempts:
		return backoff.FormatThousandths(v.Goal.Limit) + "x (at most " + Count(v.Most) + ")"
	case advice.PeakRate:
		return Count(v.Goal.Limit) + "/s (at most " + Count(v.Most) + ")"
	}
	return ""
}

// GoalLine is the verdict in words, its value and its goal: "recovered
// 94 s, goal 60 s".
func GoalLine(v advice.Verdict) string { return GoalValue(v) + ", goal " + GoalLimit(v) }

// GoalShort is the verdict's value alone, short, for a table's cell:
// "0.8%", "41.5 s", "1.4x", "4,800/s", "12.3 s", "1.3"; "overloaded" or
// "none" where it is absent.
func GoalShort(v advice.Verdict) string {
	switch v.Goal.Kind {
	case advice.NotThrough:
		return Percent(v.Value, v.Of)
	case advice.Recovered, advice.P99:
		if v.Absent {
			if v.Goal.Kind == advice.Recovered {
				return "overloaded"
			}
			return "none"
		}
		a, _ := timePair(v.Value, v.Goal.Limit)
		return a
	case advice.PeakTimes:
		return Times(v.Value, v.Of)
	case advice.PeakRate:
		return Rate(v.Value, v.Of)
	case advice.Attempts:
		return Each(v.Value, v.Of)
	}
	return ""
}

// timePair is two times as people read them, or both in whole ms where
// the first would read as the second without being it (60,001 ms against
// 60 s is "60001 ms" against "60000 ms").
func timePair(a, b int) (string, string) {
	if a != b && Human(a) == Human(b) {
		return strconv.Itoa(a) + " ms", strconv.Itoa(b) + " ms"
	}
	return Human(a), Human(b)
}

// GoalsOf is a crowd's figures' goals, for the text that states them: each
// goal with the most of its figure that meets it under these settings and
// clients, "not-through<=1% (of the clients touched: ...)", "peak<=1.5x
// (at most 300 attempts in a 100 ms slot that serves 200)".
func GoalsOf(gs advice.Goals, s backoff.Settings) []string {
	clients := s.Clients + s.FreshRequests()
	slotCap := 0
	if s.Capacity > 0 {
		slotCap = int((int64(s.Capacity)*int64(s.Slot) + 999) / 1000)
	}
	var out []string
	for _, g := range gs.List() {
		text := g.String()
		switch g.Kind {
		case advice.NotThrough:
			text += " (of the clients touched: those that start by the run's last failure)"
		case advice.PeakTimes:
			text += " (at most " + Count(g.Most(slotCap)) + " attempts in a " + Human(s.Slot) + " slot that serves " + Count(slotCap) + ")"
		case advice.PeakRate:
			text += " (at most " + Count(g.Most(s.Slot)) + " attempts in a " + Human(s.Slot) + " slot)"
		case advice.Attempts:
			text += " (at most " + Count(g.Most(clients)) + " attempts)"
		}
		out = append(out, text)
	}
	return out
}
