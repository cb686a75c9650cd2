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

// BreakerLegend says the breaker's two figures, for the faces that show
// them where a breaker is set.
const BreakerLegend = "short-circuited: attempts a breaker failed at once, which never reached the service; " +
	"breaker opened: how many times a process's breaker opened, again after a failed probe included."
