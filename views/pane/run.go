package pane

import (
	"fmt"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// RunData is one run of the crowds as panes 2 and 3 show it: the settings
// and policies it ran, what it gave, and its spread over seeds.
type RunData struct {
	Settings backoff.Settings
	Policies []backoff.Policy
	Crowds   []backoff.Result // nil until they land
	Err      error            // why the crowds did not run
	// The spread over seeds: Seeds asked for (0 for none), drawn with
	// SpreadDraws; Spread nil until it lands, or until the first seeds
	// have, with SpreadSoFar: then it is the spread of the first
	// Spread.Count seeds done so far, the rest on their way.
	Seeds       int
	SpreadDraws backoff.Draws
	Spread      *backoff.SeedsCrowd
	SpreadSoFar bool
	SpreadErr   error
	// Remedies are the service's own, tried on the first ranked policy
	// (or, until they have run, to try), for when no policy is good for
	// the service: words.Choice says the way out.
	Remedies []words.Remedy
	Trying   bool // the remedies are running
}

// Evidence is what pane 2's choice rests on beyond the one seed: the whole
// spread over seeds once it has landed (not the seeds done so far), and
// the remedies.
func (d RunData) Evidence() words.Evidence {
	ev := words.Evidence{Remedies: d.Remedies, Trying: d.Trying}
	if !d.SpreadSoFar {
		ev.Spread = d.Spread
	}
	return ev
}

// Landed reports whether the crowds have landed.
func (d RunData) Landed() bool { return d.Crowds != nil || d.Err != nil }

// policySpread is policy i's spread, if it has landed.
func (d RunData) policySpread(i int) (backoff.PolicySpread, bool) {
	if d.Spread == nil || i < 0 || i >= len(d.Spread.Policies) {
		return backoff.PolicySpread{}, false
	}
	return d.Spread.Policies[i], true
}

// DrawsName is how a face names the draws: "reference draws".
func DrawsName(d backoff.Draws) string { return d.String() + " draws" }

// SeedAndDraws is the head line's "seed 7, reference draws".
func SeedAndDraws(s backoff.Settings) string {
	return fmt.Sprintf("seed %d, %s", s.Seed, DrawsName(s.Draws))
}

// Computing says what a run of the crowds computes: "a crowd of 1,000,000
// clients under 6 policies", and ", against a queue of 20,000" with one.
func Computing(s backoff.Settings, policies int) string {
	who := words.Count(s.Clients) + " clients"
	if s.Clients == 1 {
		who = "1 client"
	}
	if n := s.FreshRequests(); n > 0 {
		who += " and " + words.Count(n) + " fresh requests"
	}
	out := fmt.Sprintf("a crowd of %s under %d policies", who, policies)
	if s.HasQueue() {
		out += ", against a queue of " + words.Count(s.Queue)
	}
	return out
}

// SpreadComputing says what a spread computes: "the spread over 100 seeds
// (independent draws)".
func SpreadComputing(seeds int, d backoff.Draws) string {
	return fmt.Sprintf("the spread over %s seeds (%s)", words.Count(seeds), DrawsName(d))
}

// PlanChanges lists the settings in which b differs from a, as "first
// wait 1 s → 100 ms"; "" when none do. Custom's own waits are compared by
// the values custom runs at.
func PlanChanges(a, b backoff.Settings) string {
	var out []string
	for _, f := range backoff.Fields() {
		va, vb := a.Get(f), b.Get(f)
		if va == vb {
			continue
		}
		if shared, own := f.Follows(); own {
			// Custom's own, by the values it runs at ("your own attempts 6 →
			// 5"): one that starts or stops following the five's at the value
			// it had changes no figure.
			if ra, rb := a.Value(f), b.Value(f); ra != rb {
				sa, sb := a, b
				sa.Set(shared, ra)
				sb.Set(shared, rb)
				out = append(out, fmt.Sprintf("%s %s → %s", fieldName(f), SettingsValue(sa, shared), SettingsValue(sb, shared)))
			}
			continue
		}
		show := func(v int) string {
			switch {
			case f == backoff.LoadUntil && v == backoff.DefaultLoadUntil:
				return "a minute after the outage"
			case f == backoff.Multiplier:
				return "x" + backoff.FormatThousandths(v)
			case f == backoff.Queue && v == 0:
				return "none"
			case (f == backoff.Timeout || f == backoff.OutageHang || f == backoff.RetryAfter) && v == 0:
				return "none"
			case f == backoff.Processes && v == backoff.PerClient:
				return "one a client"
			case f.IsTime():
				return words.Human(v)
			}
			return words.Count(v)
		}
		out = append(out, fmt.Sprintf("%s %s → %s", fieldName(f), show(va), show(vb)))
	}
	if a.Growth != b.Growth {
		out = append(out, fmt.Sprintf("growth %s → %s", a.Growth, b.Growth))
	}
	if a.Jitter != b.Jitter {
		out = append(out, fmt.Sprintf("jitter %s → %s", a.Jitter, b.Jitter))
	}
	if a.Draws != b.Draws {
		out = append(out, fmt.Sprintf("draws %s → %s", a.Draws, b.Draws))
	}
	if a.Budget != b.Budget {
		out = append(out, fmt.Sprintf("budget %s → %s", a.Budget, b.Budget))
	}
	if a.QueueOrder != b.QueueOrder {
		out = append(out, fmt.Sprintf("queue order %s → %s", a.QueueOrder, b.QueueOrder))
	}
	if a.DropExpired != b.DropExpired {
		out = append(out, fmt.Sprintf("drop expired %s → %s", yesNo(a.DropExpired), yesNo(b.DropExpired)))
	}
	if a.Breaker != b.Breaker {
		out = append(out, fmt.Sprintf("breaker %s → %s", a.Breaker, b.Breaker))
	}
	return strings.Join(out, ", ")
}

// fieldName is a setting's name without its unit, as the full-screen
// program writes it beside a value in human units: "first wait".
func fieldName(f backoff.Field) string {
	return [...]string{"first wait", "longest wait", "attempts", "clients", "outage", "seed", "slot", "multiplier",
		"limit on total time", "your own first wait", "your own longest wait", "your own attempts", "your own limit on total time",
		"capacity a second", "load a second", "load until", "processes", "queue", "timeout", "outage hang", "retry after"}[f]
}

// FieldName is fieldName for any field, "" for one that is not.
func FieldName(f backoff.Field) string {
	if f < 0 || int(f) >= len(backoff.Fields()) {
		return ""
	}
	return fieldName(f)
}

// yesNo is a switch in words.
func yesNo(on bool) string {
	if on {
		return "yes"
	}
	return "no"
}
