package words

import (
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
)

func TestGoalWords(t *testing.T) {
	g := func(kind advice.Kind, limit int) advice.Goal { return advice.Goal{Kind: kind, Limit: limit} }
	tests := []struct {
		v           advice.Verdict
		line, short string
	}{
		{advice.Verdict{Goal: g(advice.NotThrough, 1000), Value: 3651, Of: 365000, Most: 3650},
			"not through 1% (3,651 of 365,000 touched), goal 1% (at most 3,650)", "1%"},
		{advice.Verdict{Goal: g(advice.Recovered, 60000), Value: 94000, Most: 60000}, "recovered 1 min 34 s, goal 1 min", "1 min 34 s"},
		// A value that would read as the goal is written in ms, both.
		{advice.Verdict{Goal: g(advice.Recovered, 60000), Value: 60001, Most: 60000}, "recovered 60001 ms, goal 60000 ms", "60001 ms"},
		{advice.Verdict{Goal: g(advice.Recovered, 60000), Value: -1, Absent: true, Most: 60000}, "still overloaded when the load stops, goal 1 min", "overloaded"},
		{advice.Verdict{Goal: g(advice.PeakTimes, 1500), Value: 301, Of: 200, Most: 300},
			"peak 1.5x (301 in a slot that serves 200), goal 1.5x (at most 300)", "1.5x"},
		{advice.Verdict{Goal: g(advice.PeakRate, 5000), Value: 513, Of: 100, Most: 500},
			"peak 5,130/s (513 in a 100 ms slot), goal 5,000/s (at most 500)", "5,130/s"},
		{advice.Verdict{Goal: g(advice.P99, 30000), Value: -1, Absent: true, Most: 30000}, "p99: none got through, goal 30 s", "none"},
		{advice.Verdict{Goal: g(advice.Attempts, 3000), Value: 1095001, Of: 365000, Most: 1095000},
			"attempts 3 a client (1,095,001), goal 3x (at most 1,095,000)", "3"},
	}
	for _, tt := range tests {
		if got := GoalLine(tt.v); got != tt.line {
			t.Errorf("GoalLine(%v): got %q, want %q", tt.v.Goal, got, tt.line)
		}
		if got := GoalShort(tt.v); got != tt.short {
			t.Errorf("GoalShort(%v): got %q, want %q", tt.v.Goal, got, tt.short)
		}
	}
	s := backoff.Defaults()
	s.Clients, s.Capacity, s.Load, s.LoadUntil = 50000, 2000, 1500, 210000
	gs := advice.Goals{}.With(g(advice.NotThrough, 1000)).With(g(advice.PeakTimes, 1500)).With(g(advice.PeakRate, 5000)).With(g(advice.Attempts, 3000))
	want := []string{"not-through<=1% (of the clients touched: those that start by the run's last failure)", "peak<=1.5x (at most 300 attempts in a 100 ms slot that serves 200)",
		"peak<=5000/s (at most 500 attempts in a 100 ms slot)", "attempts<=3x (at most 1,095,000 attempts)"}
	got := GoalsOf(gs, s)
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Errorf("GoalsOf: got %q, want %q", got, want)
			break
		}
	}
}

func TestCount64(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 2_000_000_000: "2,000,000,000", 1_000_000_000_000: "1,000,000,000,000", -1234: "-1,234", 1_001_001: "1,001,001"} {
		if got := Count64(n); got != want {
			t.Errorf("Count64(%d) = %q, want %q", n, got, want)
		}
	}
}

// The scenario (issue 24 item 2) in words: 120,000 clients, 4,000
// a second with 3,000 of load until 10 min, 45 s down, a queue of 10,000
// and 3 s timeouts: 255,000 wait, 1,000 a second to spare, 4 min 15 s at
// least; p99<=60s with not-through<=1% (19,200 of 1,920,000 lost at most)
// is ruled out: of the crowd at most 4 * 15,001 = 60,004 are served by 60
// s, of the whole backlog at most min(240,000, 60,004 + 135,000) =
// 195,004, so 255,000 - 195,004 - 19,200 = 40,796 wait longer, more than
// the 19,200 a p99 allows.
func TestBoundLines(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Capacity, s.Load, s.Outage, s.Queue, s.Timeout, s.LoadUntil = 120000, 4000, 3000, 45000, 10000, 3000, 600000
	gs, err := advice.ParseGoals("recovered<=60s")
	if err != nil {
		t.Fatal(err)
	}
	bs := (advice.Search{Settings: s, Seeds: 20, Goals: gs}).Bounds()
	want := "recovered<=60s: 255,000 clients (the crowd of 120,000 and 135,000 fresh requests of the outage) wait when the service is back at 45 s; " +
		"with none lost, the last client is through no sooner than 4 min 15 s after it, whatever the clients do, so a candidate that recovers within 1 min " +
		"loses clients or keeps them waiting quietly, without overloading the service, past that."
	if len(bs) != 1 || BoundLine(bs[0]) != want {
		t.Errorf("got %d bounds: %v\nwant %s", len(bs), bs, want)
	}
	gs, _ = advice.ParseGoals("not-through<=1%, p99<=60s")
	bs = (advice.Search{Settings: s, Seeds: 20, Goals: gs}).Bounds()
	want = "p99<=60s cannot be met with not-through<=1%: 255,000 clients (the crowd of 120,000 and 135,000 fresh requests of the outage) wait when the service is back at 45 s, " +
		"and within 1 min of it the service completes at most 240,000; with at most 19,200 lost, at least 40,796 of them wait longer than 1 min, " +
		"more than the 19,200 a p99 allows (a hundredth of the 1,920,000 clients); the least p99 it allows is p99<=65399ms, or a capacity of 5,440 a second, " +
		"or not-through<=2.125% beside it."
	if len(bs) != 1 || BoundLine(bs[0]) != want {
		t.Errorf("got %d bounds: %+v\n%s\nwant %s", len(bs), bs, BoundLine(bs[0]), want)
	}
	// In brief, for a low pane: the goals, the figure, the ways out.
	want = "p99<=60s with not-through<=1% cannot be met: 40,796 wait longer; the least it allows is p99<=65399ms, or a capacity of 5,440 a second, " +
		"or not-through<=2.125% beside it."
	if got := BoundShort(bs[0]); got != want {
		t.Errorf("BoundShort: got %s\nwant %s", got, want)
	}
}

// A candidate meeting goals that ask nothing of the clients is said to
// lose them where it loses more than half of those touched: 51 of 100 is
// said, 50 of 100 is not (2*50 is not more than 100); never with a
// not-through goal, nor of the closest.
func TestLosesMostLine(t *testing.T) {
	gs, err := advice.ParseGoals("recovered<=60s")
	if err != nil {
		t.Fatal(err)
	}
	withLost, _ := advice.ParseGoals("recovered<=60s, not-through<=100%")
	at := func(n int) []advice.Candidate {
		return []advice.Candidate{{Lost: advice.Share{NotThrough: n, Touched: 100}}}
	}
	want := "The goals ask nothing of the clients: the first leaves 51 of the 100 clients the outage touched (51%) not through; add --goal 'not-through<=1%' to ask for them."
	if got := LosesMostLine(gs, at(51), true); got != want {
		t.Errorf("51 of 100: got %q, want %q", got, want)
	}
	if got, want := LosesMostShort(gs, at(51), true), "#1 leaves 51% of those touched not through: no goal asks for them."; got != want {
		t.Errorf("51 of 100, in brief: got %q, want %q", got, want)
	}
	if got := LosesMostShort(gs, at(50), true); got != "" {
		t.Errorf("50 of 100, in brief: got %q, want nothing", got)
	}
	for _, tt := range []struct {
		name  string
		goals advice.Goals
		cs    []advice.Candidate
		meets bool
	}{{"50 of 100", gs, at(50), true}, {"a not-through goal", withLost, at(100), true}, {"the closest", gs, at(100), false}, {"none", gs, nil, true}} {
		if got := LosesMostLine(tt.goals, tt.cs, tt.meets); got != "" {
			t.Errorf("%s: got %q, want nothing", tt.name, got)
		}
	}
}
