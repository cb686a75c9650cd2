package cli

import (
	"errors"
	"fmt"
	"io"

	vreport "github.com/retryplanner/retry-planner/views/report"
	"github.com/retryplanner/retry-planner/views/words"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/backoff/plan"
)

// adviseCommand is "advise": the policies, budgets and service settings
// that meet the goals.
func adviseCommand() reportCommand {
	return reportCommand{
		name: "advise",
		help: commandHelp{
			use:   "advise --goal G ... [--seeds N] [--also-service] [FLAGS]",
			short: "the policies and budgets that meet your goals, for your scenario",
			long: `Advice: for the scenario the settings describe (the crowd, the outage, the
service, its load and queue), the retry settings that meet every --goal.
It tries the five policies, the presets, a grid of policies of your own
(first wait 50 ms to 10 s, longest 1 s to 5 min, 2 to 12 attempts; full,
equal, decorrelated and spread jitter; multipliers 1.5 to 3 and linear
growth near the best), retry budgets (grpc and aws) and, with
--also-service, the service's own remedies where it queues (dropping expired
requests, lifo, a shorter queue).

A goal holds when it holds at the 95th percentile over the seeds; it shows
those that meet every goal, ranked by your goals in the order given, then
the clients not through, the recovery, the p99 latency and the attempts,
each with its figures (median and p95), the figure that ranked it and the
crowd command that gives them. When none meets, it shows the closest and
what each misses, by how much.

Every candidate shown ran on all the seeds: its figures and verdicts are
exactly what its command gives. The search is not exhaustive: it drops the
least promising after one seed, then after four, so it may miss a
candidate that would meet the goals. See retry-planner help goals.`,
			example: `  retry-planner advise --clients 2000 --outage 30s --capacity 100 --load 95 \
    --load-until 5m --queue 1000 --timeout 1s \
    --goal 'not-through<=20%' --goal 'recovered<=120s'
  retry-planner advise --plan storm.toml --goal 'peak<=1.5x' --also-service
  retry-planner advise --plan storm.toml --goal 'p99<=30s' --format json`,
		},
		own: []ownFlag{
			{name: "seeds", typ: "N", usage: fmt.Sprintf("hold every goal over seeds S to S+N-1 (S is --seed): 1 to %d (default %d)", backoff.MaxSeeds, defaultAdviseSeeds)},
			{name: "also-service", toggle: true, usage: "also try the service's remedies where it queues: drop expired requests, lifo, a shorter queue"},
			{name: "max-work", typ: "N", usage: fmt.Sprintf("refuse a search that would run more clients than N, summed over its crowds (default %s)", words.Count(defaultMaxWork))},
		},
		slot:   true,
		read:   readAdvise,
		check:  checkAdvise,
		render: renderAdvice,
	}
}

// The advice's defaults and bounds.
const (
	defaultAdviseSeeds = 20
	// defaultMaxWork is a search of a few minutes on two cores: some
	// 5,000 crowds of 365,000 clients.
	defaultMaxWork = 2_000_000_000
	maxMaxWork     = 1_000_000_000_000
)

// adviseSpec is what advise searches, and what it found, for a plan saved.
type adviseSpec struct {
	alsoService bool
	maxWork     int64
	maxWorkSet  string // --max-work as given
	custom      *backoff.Policy
	found       *advice.Advice // what the search found: set by render, which has the report by value
}

func newAdviseSpec() *adviseSpec {
	return &adviseSpec{maxWork: defaultMaxWork, found: new(advice.Advice)}
}

// readAdvise reads advise's own flags.
func readAdvise(ra *reportArgs, u flagUse) (bool, error) {
	if ra.report.advise == nil {
		ra.report.advise = newAdviseSpec()
	}
	switch u.name {
	case "also-service":
		ra.report.advise.alsoService = true
	case "max-work":
		n, ok := backoff.ParseCount(u.value)
		if !ok || n < 1 || n > maxMaxWork {
			return true, usagef("--max-work %s: want %s", quoteOdd(u.value), allowedValue("max-work", backoff.WideLimits))
		}
		ra.report.advise.maxWork, ra.report.advise.maxWorkSet = int64(n), u.value
	default:
		return false, nil
	}
	return true, nil
}

// checkAdvise checks what advise needs once the settings are known: a
// goal at least, each meaning something under the settings, and a search
// within --max-work.
func checkAdvise(r *report, draft *settingsDraft) error {
	if r.advise == nil {
		r.advise = newAdviseSpec()
	}
	if r.seeds == 0 {
		r.seeds = defaultAdviseSeeds
	}
	if draft.definesCustom() {
		c := r.settings.Custom()
		r.advise.custom = &c
	}
	sr := r.search()
	if sr.Goals.Len() == 0 {
		return usagef("advise needs at least one --goal: %s", allowedValue("goal", backoff.WideLimits))
	}
	var nc *advice.NeedsCapacityError
	if err := sr.Check(); errors.As(err, &nc) {
		if _, byFlag := draft.goalFlags.Get(nc.Goal.Kind); !byFlag && draft.plan != nil {
			key, value := plan.GoalKey(draft.plan.plan, nc.Goal.Kind)
			return usagef("--plan %s: [goals] %s = %s measures the peak against the capacity, and the service has none: add --capacity N, or give the peak as a rate, [goals] %s",
				shownFile(draft.plan.file), key, value, plan.GoalKeyExample(advice.PeakRate))
		}
		return usagef("--goal %s: the peak against the capacity needs one: add --capacity N, or give the peak as a rate, such as --goal 'peak<=5000/s'", quoteOdd(nc.Goal.String()))
	} else if err != nil {
		return usagef("%v", err)
	}
	if w := sr.Estimate(); w.Total > r.advise.maxWork {
		return usagef("advise would run up to %s crowds of %s clients, %s clients in all, more than --max-work allows (%s): lower --seeds, --clients or the load, or raise --max-work",
			words.Count(w.Crowds), words.Count(w.Clients), words.Count64(w.Total), words.Count64(r.advise.maxWork))
	}
	return nil
}

// search is the question advise asks: the scenario under the spread's
// draws, the goals, the seeds.
func (r report) search() advice.Search {
	s := r.settings
	s.Draws = r.seedDraws
	return advice.Search{Settings: s, Custom: r.advise.custom, Seeds: r.seeds, Goals: r.goals, AlsoService: r.advise.alsoService}
}

// renderAdvice runs the search, its crowds counted on the report's
// progress line (runReport shows one on a terminal for a search of a few
// seconds or more) and stopped by a signal, and writes what it found.
func renderAdvice(r report, w io.Writer, workers int) error {
	adv, err := advice.Run(r.search(), advice.Options{Workers: workers, Done: r.done, Stop: r.stop})
	if err != nil {
		return &runError{err}
	}
	*r.advise.found = adv
	a := vreport.Advised{Advice: adv, Command: func(c advice.Candidate) string { return adviceCommand(r, c) }}
	_, err = io.WriteString(w, r.pick(
		func() string { return vreport.AdviceText(a) },
		func() string { return vreport.AdviceCSV(a) },
		func() string { return vreport.AdviceDoc(a) }))
	return err
}

// candidatePlan is the plan of a candidate's crowd (plan.OfCandidate).
func candidatePlan(r report, c advice.Candidate) plan.Plan {
	return plan.OfCandidate(c, r.settings.Draws, r.seeds, r.seedDraws, r.goals, r.note)
}

// adviceCommand is the command line that runs candidate c's crowd over
// the advice's seeds (plan.AdviceCommand).
func adviceCommand(r report, c advice.Candidate) string {
	return plan.AdviceCommand(candidatePlan(r, c))
}

// savedPlan is the plan advise saves: the best candidate's, the first it
// shows (one that meets every goal, else the closest); the scenario's
// when it showed none.
func (a *adviseSpec) savedPlan(r report) plan.Plan {
	if a.found.Tried > 0 {
		for _, cs := range [][]advice.Candidate{a.found.Meets, a.found.Closest} {
			if len(cs) > 0 {
				return candidatePlan(r, cs[0])
			}
		}
	}
	return plan.Plan{Settings: r.settings, Seeds: r.seeds, SeedDraws: r.seedDraws, Note: r.note, Goals: r.goals}
}
