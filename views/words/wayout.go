package words

import (
	"fmt"
	"slices"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/backoff/plan"
)

// A choice and a best mark mean "this one is good for your service"
// (issue 24, item 3): a policy with which the service is still overloaded
// when the fresh load stops, or that loses most of its crowd or of the
// clients the outage touched, is no good
// whatever it ranks, and no figure of it is praised. When every policy
// shown is no good, the faces choose none and say the way out: the
// service's own remedies that the figures show work, and advise for the
// scenario.

// Failure says in a few words why a policy's figures are no good for the
// service, or "" when they are good enough to choose:
//   - the service is still overloaded when the fresh load stops;
//   - none of the crowd (clients 1..N) gets through;
//   - more than half of the crowd certainly does not: of its N clients
//     at least NotThrough - (ClientsTouched - N) never get through, the
//     fresh clients the outage touched being all the rest of those
//     touched at most. Without a fresh load that is NotThrough itself:
//     101 of 200 lost is most of the crowd, 100 is not;
//   - more than half of the clients the outage touched never get through,
//     fresh ones among them: 1,193,288 of 2,164,000 is most, where only
//     29,288 of the crowd of 1,000,000 are certainly lost.
func Failure(s backoff.Settings, f backoff.Figures) string {
	crowd := s.Clients
	// Touched is the crowd and more in any run; min keeps the bound within
	// those lost whatever figures it is given.
	switch lost := min(f.NotThrough-(Touched(f)-crowd), f.NotThrough); {
	case f.StillOverloaded:
		return "the service is still overloaded when the fresh load stops"
	case f.NotThrough > 0 && f.CrowdAllThroughBy < 0:
		if crowd == 1 {
			return "the 1 client of the crowd never gets through"
		}
		return "none of the crowd of " + Count(crowd) + " gets through"
	case int64(lost)*2 > int64(crowd):
		return "at least " + Count(lost) + " of the crowd of " + Count(crowd) + " never get through"
	case int64(f.NotThrough)*2 > int64(Touched(f)):
		return NotThroughOf(f) + " never get through"
	}
	return ""
}

// FailureOver is Failure of policy i of a run's results, and where the
// spread of the run's policies over seeds is there (sp, in the run's
// order), of its seeds too, for one seed may be kinder than most: the
// service still overloaded in more than half of them, none of the crowd
// through at the median, or more than half the crowd certainly lost at
// the medians, or more than half the clients touched not through at the
// medians.
func FailureOver(s backoff.Settings, rs []backoff.Result, i int, sp *backoff.SeedsCrowd) string {
	if why := Failure(s, rs[i].Figures); why != "" || sp == nil || len(sp.Policies) != len(rs) || sp.Policies[i].Policy.Name != rs[i].Policy.Name {
		return why
	}
	ps, n, crowd := sp.Policies[i], sp.Count, s.Clients
	over := " over the " + Count(n) + " seeds"
	nt := int64(ps.Spread("not_through").Median)
	lost := min(nt-int64(ps.Spread("clients_touched").Median-crowd), nt)
	switch {
	case int64(ps.Overloaded)*2 > int64(n):
		return "the service is still overloaded when the fresh load stops in " + Count(ps.Overloaded) + " of the " + Count(n) + " seeds"
	case ps.Spread("not_through").Median > 0 && ps.Spread("crowd_all_through_by_ms").Median < 0:
		return "none of the crowd of " + Count(crowd) + " gets through at the median" + over
	case lost*2 > int64(crowd):
		return "at the median" + over + " at least " + Count(int(lost)) + " of the crowd of " + Count(crowd) + " never get through"
	case nt*2 > int64(ps.Spread("clients_touched").Median):
		return "at the median" + over + " " + Count(int(nt)) + " of the " + clientsOf(int(ps.Spread("clients_touched").Median)) + " the outage touched never get through"
	}
	return ""
}

// FarAboveCapacity reports whether n attempts in a slot are far above
// what a slot of the service serves: more than twice its capacity (a
// busiest slot of 18,690 in 100 ms against 400); never without a
// capacity. Such a figure is a disaster's, and no best mark praises it.
func FarAboveCapacity(s backoff.Settings, n int) bool {
	if s.Capacity <= 0 {
		return false
	}
	slotCap := (int64(s.Capacity)*int64(s.Slot) + 999) / 1000
	return int64(n) > 2*slotCap
}

// A Remedy is one of the service's own ways out, tried on the policy that
// ranks first: its flags, what they change in words, and, once it has
// run, its figures.
type Remedy struct {
	Flags   string // "--drop-expired --queue-order lifo"
	Words   string // "dropping expired requests and serving the newest first"
	Ran     bool
	Figures backoff.Figures
}

// RemedyOf is a remedy of the scenario s: the settings r, which differ
// from s in the service's queue (drop expired, lifo, a shorter queue) or
// its retry budget.
func RemedyOf(s, r backoff.Settings) Remedy {
	var flags, said []string
	if r.DropExpired && !s.DropExpired {
		flags, said = append(flags, "--drop-expired"), append(said, "dropping expired requests")
	}
	if r.QueueOrder != s.QueueOrder {
		flags, said = append(flags, "--queue-order "+r.QueueOrder.String()), append(said, "serving the newest first")
		if r.QueueOrder == backoff.FIFO {
			said[len(said)-1] = "serving the oldest first"
		}
	}
	if r.Queue != s.Queue {
		flags = append(flags, fmt.Sprintf("--queue %d", r.Queue))
		said = append(said, "a queue of "+Count(r.Queue))
	}
	switch {
	case r.Budget == s.Budget:
	case r.Budget.Kind == backoff.BudgetNone:
		flags, said = append(flags, "--budget none"), append(said, "no retry budget")
	case r.Budget.Kind == backoff.BudgetGRPC:
		flags, said = append(flags, "--budget "+r.Budget.String()), append(said, "gRPC's retry throttling")
	default:
		flags, said = append(flags, "--budget "+r.Budget.String()), append(said, "the AWS SDKs' retry quota")
	}
	return Remedy{Flags: strings.Join(flags, " "), Words: And(said)}
}

// suggestedGoals are the goals the advise command of a way out asks for,
// for a person to put theirs in place of: every client touched but 1% through,
// and the service stable within a minute of its return.
func suggestedGoals() advice.Goals {
	return advice.Goals{}.With(advice.Goal{Kind: advice.NotThrough, Limit: 1000}).With(advice.Goal{Kind: advice.Recovered, Limit: 60000})
}

// AdviseCommand is the advise command for the scenario s, ready to copy:
// its settings as flags, with --also-service where the service queues (so
// that advise tries its remedies too), and goals to put one's own in place
// of: "retry-planner advise --clients 120000 ... --goal
// 'not-through<=1%' --goal 'recovered<=60s'".
func AdviseCommand(s backoff.Settings) string {
	p := plan.Default()
	p.Settings, p.Goals = s, suggestedGoals()
	out := []string{"retry-planner", "advise"}
	for _, f := range plan.Flags(p) {
		out = append(out, ShellWord(f))
	}
	if s.HasQueue() {
		out = append(out, "--also-service")
	}
	return strings.Join(out, " ")
}

// wayOut is what to do when no policy shown is good for the service: the
// remedies that ran, the ones that work first, each with what it gives,
// or those to try (or being tried); then advise for the scenario. first
// is the policy the remedies run with.
func wayOut(s backoff.Settings, first string, ev Evidence) string {
	var work, overloaded, toTry []string
	// Those that recover the service but lose most of the crowd, by the
	// reason, each reason's in the order they came.
	type short struct {
		why    string
		names  []string
		lo, hi int // recovered after, the soonest and the latest
	}
	var shorts []*short
	for _, r := range ev.Remedies {
		f := r.Figures
		named := r.Words + " (" + r.Flags + ")"
		switch why := Failure(s, f); {
		case !r.Ran:
			toTry = append(toTry, named)
		case why == "":
			work = append(work, fmt.Sprintf("%s %s and leaves %s not through", named, recovers(f), NotThroughOf(f)))
		case f.StillOverloaded:
			overloaded = append(overloaded, named)
		default:
			i := slices.IndexFunc(shorts, func(sh *short) bool { return sh.why == why })
			if i < 0 {
				shorts = append(shorts, &short{why: why, lo: f.RecoveredAfter, hi: f.RecoveredAfter})
				i = len(shorts) - 1
			}
			sh := shorts[i]
			sh.names, sh.lo, sh.hi = append(sh.names, named), min(sh.lo, f.RecoveredAfter), max(sh.hi, f.RecoveredAfter)
		}
	}
	var notEnough []string
	for _, sh := range shorts {
		when := Human(sh.lo)
		if sh.hi != sh.lo {
			when += " to " + Human(sh.hi)
		}
		what := "recovers the service " + when + " after it is back"
		switch {
		case sh.hi == 0 && len(sh.names) > 1:
			what = "each keep the service stable from the moment it is back"
		case sh.hi == 0:
			what = "keeps the service stable from the moment it is back"
		case len(sh.names) > 1:
			what = "each recover the service " + when + " after it is back"
		}
		notEnough = append(notEnough, fmt.Sprintf("%s %s, but %s", Or(sh.names), what, sh.why))
	}
	if len(overloaded) > 0 {
		notEnough = append(notEnough, Or(overloaded)+" still leaves it overloaded")
	}
	var out []string
	switch {
	case len(work) > 0:
		out = append(out, "with "+first+", the service's own remedies work: "+strings.Join(append(work, notEnough...), "; "))
	case len(notEnough) > 0:
		out = append(out, "with "+first+", none of the service's own remedies is enough alone: "+strings.Join(notEnough, "; "))
	}
	switch {
	case len(toTry) > 0 && ev.Trying:
		out = append(out, "trying the service's own remedies with "+first+": "+And(toTry)+"…")
	case len(toTry) > 0:
		out = append(out, "try the service's own remedies: "+Or(toTry))
	}
	out = append(out, "ask advise for the settings that meet your goals, yours in place of these: "+AdviseCommand(s))
	return strings.Join(out, "; ")
}

// recovers is when the service recovers, in a few words: "recovers 3 s
// after it is back", "is stable from the moment it is back".
func recovers(f backoff.Figures) string {
	if f.RecoveredAfter <= 0 {
		return "keeps the service stable from the moment it is back"
	}
	return "recovers the service " + Human(f.RecoveredAfter) + " after it is back"
}

// NoneGood reports whether no policy of the results is good for the
// service (Failure): then the faces choose none and say the way out, with
// the service's remedies tried on the first ranked.
func NoneGood(s backoff.Settings, rs []backoff.Result) bool {
	for _, r := range rs {
		if Failure(s, r.Figures) == "" {
			return false
		}
	}
	return len(rs) > 0
}
