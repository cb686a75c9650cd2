package words

import (
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
)

// A spread's three values in words: the worst is named where it exists,
// even when the median and the 95th percentile agree.
func TestTrioAtItsEdges(t *testing.T) {
	for _, tt := range []struct {
		sp   backoff.Spread
		want string
	}{
		{backoff.Spread{Median: 5, P95: 5, Worst: 9}, "5 at the median and the 95th percentile, 9 at worst"},
		{backoff.Spread{Median: 5, P95: 5, Worst: -1}, "5 at the median and the 95th percentile"},
		{backoff.Spread{Median: 5, P95: 7, Worst: -1}, "5 at the median, 7 at the 95th percentile"},
		{backoff.Spread{Median: 5, P95: -1, Worst: -1}, "5 at the median"},
		{backoff.Spread{Median: 5, P95: 7, Worst: 5}, "5 at the median and at worst"},
		{backoff.Spread{Median: -1, P95: 3, Worst: 4}, "none"},
	} {
		if got := trio(tt.sp, Count); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.sp, got, tt.want)
		}
	}
}

// A remedy names each setting it changes, and only those: a shorter queue
// is "--queue 100", the same queue nothing.
func TestRemedyOfNamesWhatChanges(t *testing.T) {
	s := backoff.Defaults()
	s.Capacity, s.Queue, s.Timeout = 100, 1000, 1000
	r := s
	r.Queue = 100
	if got := RemedyOf(s, r); got.Flags != "--queue 100" || got.Words != "a queue of 100" {
		t.Errorf("a queue of 100 for 1,000: got %+v", got)
	}
	r = s
	r.DropExpired = true
	if got := RemedyOf(s, r); got.Flags != "--drop-expired" || got.Words != "dropping expired requests" {
		t.Errorf("dropping expired requests: got %+v", got)
	}
}

// "Trying the remedies" is said only of remedies still to run: where all
// have run, the words say what they gave, not that they are on their way.
func TestWayOutTriesOnlyWhatIsLeft(t *testing.T) {
	s := backoff.Defaults()
	s.Capacity, s.Queue, s.Timeout = 100, 1000, 1000
	r := s
	r.DropExpired = true
	ran := RemedyOf(s, r)
	ran.Ran, ran.Figures = true, backoff.Figures{Clients: 200, ClientsTouched: 200, StillOverloaded: true}
	out := wayOut(s, "fixed", Evidence{Remedies: []Remedy{ran}, Trying: true})
	if strings.Contains(out, "trying") || !strings.Contains(out, "dropping expired requests (--drop-expired) still leaves it overloaded") {
		t.Errorf("all ran, while trying: got %q", out)
	}
	left := RemedyOf(s, r)
	out = wayOut(s, "fixed", Evidence{Remedies: []Remedy{left}, Trying: true})
	if !strings.Contains(out, "trying the service's own remedies with fixed: dropping expired requests (--drop-expired)…") {
		t.Errorf("one left, while trying: got %q", out)
	}
}

// A bound's words on their edges, the bounds built by hand: a backlog of
// the crowd alone names no fresh requests; a capacity of 0 needed (none
// found) is never named; a not-through goal of exactly 100% is a way out,
// one past it (a share no goal takes) is not.
func TestBoundWordsAtTheirEdges(t *testing.T) {
	p99 := advice.Goal{Kind: advice.P99, Limit: 1000}
	lost := advice.Goal{Kind: advice.NotThrough, Limit: 0}
	b := advice.Bound{Kind: advice.LatencyFloor, Goal: p99, With: lost, HasWith: true, Impossible: true,
		Clients: 300, Crowd: 100, Backlog: 100, From: 10000, Serve: 20, Slow: 80, Allowed: 3}
	line := BoundLine(b)
	if !strings.Contains(line, "100 clients (the crowd) wait") || strings.Contains(line, "fresh requests") {
		t.Errorf("a backlog of the crowd alone: got %q", line)
	}
	if strings.Contains(line, "a capacity of") || strings.Contains(BoundShort(b), "a capacity of") {
		t.Errorf("no capacity needed: got %q", line)
	}
	b.HasLost, b.LostGoal = true, advice.Goal{Kind: advice.NotThrough, Limit: advice.MaxNotThrough}
	if want := "; not-through<=100% beside it."; !strings.HasSuffix(BoundLine(b), want) {
		t.Errorf("not-through<=100%%: got %q, want it to end %q", BoundLine(b), want)
	}
	b.LostGoal.Limit++
	if got := BoundLine(b); strings.Contains(got, "beside it") {
		t.Errorf("past 100%%: got %q", got)
	}
	o := advice.Bound{Kind: advice.Overloaded, Goal: advice.Goal{Kind: advice.Recovered, Limit: 60000}, Breaker: true,
		From: 19000, To: 20000, Arrive: 16, Serve: 15}
	if got := BoundLine(o); strings.Contains(got, "needs a capacity") {
		t.Errorf("no capacity found: got %q", got)
	}
	o.Needs = 16
	if got := BoundLine(o); !strings.Contains(got, "; it needs a capacity of at least 16 a second;") {
		t.Errorf("a capacity of 16: got %q", got)
	}
}

// The whole crowd is said lost only where none of it got through: a crowd
// whose last client got through at 0 ms (an outage of 0) is not.
func TestWholeCrowdLostOnlyWhereNoneGotThrough(t *testing.T) {
	s := backoff.Defaults()
	s.Outage, s.Load = 0, 10
	f := backoff.Figures{Clients: 300, ClientsTouched: 300, NotThrough: 5, GaveUp: 5, CrowdAllThroughBy: 0}
	if got := clientsClause(s, f); strings.Contains(got, "whole crowd") {
		t.Errorf("the crowd through by 0 ms: got %q", got)
	}
	f.CrowdAllThroughBy = -1
	if got := clientsClause(s, f); !strings.Contains(got, ", the whole crowd of 200 among them") {
		t.Errorf("none of the crowd through: got %q", got)
	}
}
