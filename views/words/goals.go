package words

import (
	"fmt"
	"math"
	"strconv"
	"strings"

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

// backlogWords is who waits when the service is back: "255,000 clients
// (the crowd of 120,000 and 135,000 fresh requests of the outage)".
func backlogWords(b advice.Bound) string {
	if fresh := b.Backlog - b.Crowd; fresh > 0 {
		return fmt.Sprintf("%s clients (the crowd of %s and %s fresh requests of the outage)", Count(b.Backlog), Count(b.Crowd), Count(fresh))
	}
	return Count(b.Backlog) + " clients (the crowd)"
}

// lostWords is how many a bound allows lost: "with at most 4,350 lost",
// "with none lost".
func lostWords(b advice.Bound) string {
	if b.Lost == 0 {
		return "with none lost"
	}
	return "with at most " + Count(b.Lost) + " lost"
}

// withoutBreaker and onlyBreaker say of a bound the fresh load alone
// decides (advice.Bound.Breaker) what a breaker changes: its requests
// failed at the client never reach the service, and count as not through.
const (
	withoutBreaker = "without a circuit breaker"
	onlyBreaker    = "only a breaker can, failing requests at the client, which count as not through"
)

// BoundShort is a bound in one short line, for a pane too short for its
// arithmetic (BoundLine): what it rules out, the figure that does, and the
// way out: "p99<=0ms cannot be met with not-through<=0%: 390 wait longer;
// the least it allows is p99<=19.249s".
func BoundShort(b advice.Bound) string {
	g := b.Goal.String()
	if b.HasWith {
		g += " with " + b.With.String()
	}
	var why string
	switch b.Kind {
	case advice.Overloaded:
		why = "the fresh load alone overloads the service"
	case advice.PeakFloor:
		why = "the fresh load alone sends " + Count(b.Arrive) + " in a slot"
	case advice.AttemptsFloor:
		why = "at least " + Count(b.Floor) + " attempts"
	case advice.LatencyFloor:
		why = Count(b.Slow) + " wait longer"
	case advice.Drain:
		return fmt.Sprintf("%s: the last client is through no sooner than %s after the service is back, whatever the clients do.", g, Human(b.Floor))
	}
	if b.Breaker {
		return g + " cannot be met " + withoutBreaker + ": " + why + orWords(b, "the least it allows") + "."
	}
	return g + " cannot be met: " + why + orWords(b, "the least it allows") + "."
}

// orWords are the ways out a bound names, joined: "the least it allows is
// p99<=1 min 5 s, or a capacity of 4,300 a second, or not-through<=3.5%".
func orWords(b advice.Bound, least string) string {
	var ways []string
	if b.HasMeet {
		ways = append(ways, least+" is "+b.MeetGoal.String())
	}
	if b.Needs > 0 {
		ways = append(ways, "a capacity of "+Count(b.Needs)+" a second")
	}
	if b.HasLost && b.LostGoal.Limit <= advice.MaxNotThrough {
		ways = append(ways, b.LostGoal.String()+" beside it")
	}
	if len(ways) == 0 {
		return ""
	}
	return "; " + strings.Join(ways, ", or ")
}

// BoundLine is a bound in one line, with its arithmetic and what would
// lift it: "recovered<=60s cannot be met by any client policy: ...".
func BoundLine(b advice.Bound) string {
	g := b.Goal.String()
	switch b.Kind {
	case advice.Overloaded:
		sends := fmt.Sprintf("the fresh load alone sends %s requests in its last second, from %s to %s,", Count(b.Arrive), Human(b.From), Human(b.To))
		if b.Timeout > 0 {
			sends = fmt.Sprintf("the fresh load alone sends %s requests from %s to %s, each to be completed within the %s timeout, by %s,",
				Count(b.Arrive), Human(b.From), Human(b.To-b.Timeout), Human(b.Timeout), Human(b.To))
		}
		where := "where the service completes at most " + Count(b.Serve)
		if b.Queue > 0 && b.Timeout == 0 {
			where += " and holds " + Count(b.Queue) + " in its queue"
		}
		line := fmt.Sprintf("%s cannot be met by any client policy %s: %s %s, so it is still overloaded when the load stops, whatever else the clients do", g, withoutBreaker, sends, where)
		if b.Needs > 0 {
			line += "; it needs a capacity of at least " + Count(b.Needs) + " a second"
		}
		return line + "; " + onlyBreaker + "."
	case advice.PeakFloor:
		return fmt.Sprintf("%s cannot be met by any client policy %s: the fresh load alone sends %s requests in the %s slot from %s, where %s allows %s%s; %s.",
			g, withoutBreaker, Count(b.Arrive), Human(b.To-b.From), Human(b.From), g, Count(b.Most), orWords(b, "the least the load allows"), onlyBreaker)
	case advice.AttemptsFloor:
		return fmt.Sprintf("%s cannot be met with %s: %s fail their first attempt while the service is down, and each that gets through tries again, "+
			"so %s the %s clients make at least %s + %s - %s = %s attempts (%s a client), more than the %s %s allows%s.",
			g, b.With, backlogWords(b), lostWords(b), Count(b.Clients), Count(b.Clients), Count(b.Backlog), Count(b.Lost),
			Count(b.Floor), Each(b.Floor, b.Clients), Count(b.Most), g, orWords(b, "the least it allows"))
	case advice.LatencyFloor:
		serve := "within " + Human(b.Goal.Limit) + " of it the service completes at most " + Count(b.Serve)
		if b.Serve == math.MaxInt {
			serve = "none is served before it"
		}
		return fmt.Sprintf("%s cannot be met with %s: %s wait when the service is back at %s, and %s; "+
			"%s, at least %s of them wait longer than %s, more than the %s a p99 allows (a hundredth of the %s clients)%s.",
			g, b.With, backlogWords(b), Human(b.From), serve, lostWords(b), Count(b.Slow),
			Human(b.Goal.Limit), Count(b.Allowed), Count(b.Clients), orWords(b, "the least p99 it allows"))
	case advice.Drain:
		return fmt.Sprintf("%s: %s wait when the service is back at %s; %s, the last client is through no sooner than %s after it, whatever the clients do, "+
			"so a candidate that recovers within %s loses clients or keeps them waiting quietly, without overloading the service, past that.",
			g, backlogWords(b), Human(b.From), lostWords(b), Human(b.Floor), Human(b.Goal.Limit))
	}
	return ""
}

// LosesMostLine warns, where the goals ask nothing of the clients not
// through, that the first candidate meeting them does so by losing most of
// the clients the outage touched (a breaker that fails every request at the
// client keeps the service stable and its peak at 0): "The goals ask
// nothing of the clients: the first leaves 420 of the 420 clients the
// outage touched (100%) not through; add --goal 'not-through<=1%' to ask
// for them." Empty otherwise (issue 24 item 3: a disaster is never praised).
func LosesMostLine(goals advice.Goals, cs []advice.Candidate, meets bool) string {
	if !meets || len(cs) == 0 {
		return ""
	}
	if _, ok := goals.Get(advice.NotThrough); ok {
		return ""
	}
	l := cs[0].Lost
	if l.Touched <= 0 || 2*l.NotThrough <= l.Touched {
		return ""
	}
	return fmt.Sprintf("The goals ask nothing of the clients: the first leaves %s of the %s clients the outage touched (%s) not through; add --goal 'not-through<=1%%' to ask for them.",
		Count(l.NotThrough), Count(l.Touched), Percent(l.NotThrough, l.Touched))
}

// LosesMostShort is LosesMostLine in brief, for a low pane: "#1 leaves
// 94.9% of those touched not through: no goal asks for them."
func LosesMostShort(goals advice.Goals, cs []advice.Candidate, meets bool) string {
	if LosesMostLine(goals, cs, meets) == "" {
		return ""
	}
	l := cs[0].Lost
	return "#1 leaves " + Percent(l.NotThrough, l.Touched) + " of those touched not through: no goal asks for them."
}
