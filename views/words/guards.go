package words

import (
	"fmt"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
)

// The client's guards (MODEL.md section 7) in words, for every face.

// BreakerRule is what a breaker does, in words: "5 failures in a row open
// it for 30 s", "a failure opens it for 1 min".
func BreakerRule(b backoff.Breaker) string {
	if b.Failures == 1 {
		return "a failure opens it for " + Human(b.Open)
	}
	return fmt.Sprintf("%s failures in a row open it for %s", Count(b.Failures), Human(b.Open))
}

// Guards says the client's guards that are set, for the sentence that
// says the service: "each attempt while the service is down hangs 5 s,
// then fails; a breaker in each of 3 processes, 5 failures in a row open
// it for 30 s; a rejection tells its client to come back after 2 s"; ""
// when none is.
func Guards(s backoff.Settings) string {
	var parts []string
	if s.OutageHang > 0 {
		parts = append(parts, fmt.Sprintf("each attempt while the service is down hangs %s, then fails", Human(s.OutageHang)))
	}
	if s.Breaker.On() {
		where := "a breaker shared by every client"
		switch n := s.ProcessCount(); {
		case s.Processes == backoff.PerClient:
			where = "a breaker in each client's process"
		case n > 1:
			where = fmt.Sprintf("a breaker in each of %s processes", Count(n))
		}
		parts = append(parts, where+": "+BreakerRule(s.Breaker))
	}
	if s.RetryAfter > 0 {
		parts = append(parts, fmt.Sprintf("a rejection tells its client to come back after %s", Human(s.RetryAfter)))
	}
	return strings.Join(parts, "; ")
}

// ShortCircuitedKey and BreakerOpenedKey name, in a legend, the attempts
// a breaker failed at once and the moments a breaker opened: pane 3's
// (beside its ╌ and ⊗) and the pictures' (beside their swatch and mark).
const (
	ShortCircuitedKey = "short-circuited: a breaker failed it at once"
	BreakerOpenedKey  = "breaker opened"
)

// BreakerLegend says the breaker's two figures, for the faces that show
// them where a breaker is set.
const BreakerLegend = "short-circuited: attempts a breaker failed at once, which never reached the service; " +
	"breaker opened: how many times a process's breaker opened, again after a failed probe included."

// BreakerClause is what the breakers did, for the verdict where one is
// set: how many of the attempts they short-circuited, which never reached
// the service, how often they opened, and, where clients gave up, that
// each short-circuited attempt was one of its client's: "the breakers
// short-circuited 10,000 of the 12,000 attempts (83.3%), which never
// reached the service, and opened 4 times; each spent one of its client's
// attempts, and the 2,000 clients that gave up had none left". Which
// clients' attempts were short-circuited no figure says: the clause says
// only what the figures do.
func BreakerClause(s backoff.Settings, f backoff.Figures) string {
	opened := "opened " + timesWord(f.BreakerOpened)
	switch {
	case f.BreakerOpened == 0 && f.ShortCircuited == 0:
		return "the breaker never opened"
	case f.ShortCircuited == 0:
		return "the breakers " + opened + " but short-circuited no attempt"
	}
	out := fmt.Sprintf("the breakers short-circuited %s of the %s (%s), which never reached the service, and %s",
		Count(f.ShortCircuited), attempts(f.Attempts), Percent(f.ShortCircuited, f.Attempts), opened)
	if f.GaveUp > 0 {
		out += fmt.Sprintf("; each spent one of its client's attempts, and the %s that gave up had none left", clientsOf(f.GaveUp))
	}
	return out
}

// seedsBreakerClause is what the breakers did over many seeds, in
// BreakerClause's words, each figure (the attempts, those short-circuited,
// the openings, the clients that gave up) at its median over the seeds:
// "at the median, the breakers short-circuited 9,780 of the 12,000
// attempts (81.5%), which never reached the service, and opened 8 times;
// ...". Where the worst of each differs in kind (the breaker never opened,
// opened but short-circuited nothing, short-circuited attempts, and that
// with clients that gave up), it says the worst as well: "at the median,
// the breaker never opened; at worst, the breakers opened once but
// short-circuited no attempt". As the spread's other figures, each is a
// figure one of the seeds gave, not all the same seed's.
func seedsBreakerClause(s backoff.Settings, ps backoff.PolicySpread) string {
	at := func(value func(backoff.Spread) int) backoff.Figures {
		return backoff.Figures{Attempts: value(ps.Spread("attempts")), ShortCircuited: value(ps.Spread("short_circuited")),
			BreakerOpened: value(ps.Spread("breaker_opened")), GaveUp: value(ps.Spread("gave_up"))}
	}
	median := at(func(sp backoff.Spread) int { return sp.Median })
	worst := at(func(sp backoff.Spread) int { return sp.Worst })
	out := "at the median, " + BreakerClause(s, median)
	if breakerKind(worst) != breakerKind(median) {
		out += "; at worst, " + BreakerClause(s, worst)
	}
	return out
}

// breakerKind is which of BreakerClause's sentences f takes: 0 never
// opened, 1 opened but short-circuited nothing, 2 short-circuited
// attempts, 3 and clients gave up.
func breakerKind(f backoff.Figures) int {
	switch {
	case f.ShortCircuited > 0 && f.GaveUp > 0:
		return 3
	case f.ShortCircuited > 0:
		return 2
	case f.BreakerOpened > 0:
		return 1
	}
	return 0
}

// timesWord is "once", "twice" or "4 times".
func timesWord(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return Count(n) + " times"
}
