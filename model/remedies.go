package model

import (
	"slices"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/views/words"
)

// maxRemedies is the most of the service's remedies a run tries when no
// policy it shows is good for the service.
const maxRemedies = 4

// Remedies are the service's own remedies that apply to the scenario s,
// for when no policy shown is good for it (words.Choice), as settings and
// as words say them, not yet run: with a queue, the first four advise
// tries (dropping expired requests, serving the newest first, both, and
// the queue the capacity works off within the timeout); without a queue
// but with a capacity and no budget, gRPC's retry throttling and the AWS
// SDKs' retry quota as they are set in practice (grpc:10:0.1, aws:500:5);
// with a budget, none (the budget may be what loses the clients); else
// none.
func Remedies(s backoff.Settings) ([]backoff.Settings, []words.Remedy) {
	var settings []backoff.Settings
	switch {
	case s.HasQueue():
		// The queue's: advise's pushback is not among the crowd's own.
		for _, r := range advice.Remedies(s) {
			if r.RetryAfter == s.RetryAfter {
				settings = append(settings, r)
			}
		}
	case s.Capacity > 0 && s.Budget.Kind == backoff.BudgetNone:
		for _, b := range []backoff.Budget{{Kind: backoff.BudgetGRPC, A: 10, B: 100}, {Kind: backoff.BudgetAWS, A: 500, B: 5}} {
			r := s
			r.Budget = b
			settings = append(settings, r)
		}
	case s.Budget.Kind != backoff.BudgetNone:
		r := s
		r.Budget = backoff.Budget{}
		settings = append(settings, r)
	}
	settings = settings[:min(len(settings), maxRemedies)]
	remedies := make([]words.Remedy, len(settings))
	for i, r := range settings {
		remedies[i] = words.RemedyOf(s, r)
	}
	return settings, remedies
}

// RemediesCost is the work of running policy p under each of settings,
// as backoff.RunAllCost counts it.
func RemediesCost(p backoff.Policy, settings []backoff.Settings, workers int) int64 {
	var work int64
	for _, r := range settings {
		work += backoff.RunAllCost([]backoff.Policy{p}, r, backoff.Options{}, workers).Work
	}
	return work
}

// RunRemedies runs policy p under each of settings, the remedies' own,
// by crowds (backoff.RunAll, or a test's), and gives the remedies with
// their figures; it stops at the first error (a stop asked for).
func RunRemedies(crowds func([]backoff.Policy, backoff.Settings) ([]backoff.Result, error), p backoff.Policy, settings []backoff.Settings, remedies []words.Remedy) ([]words.Remedy, error) {
	out := make([]words.Remedy, len(remedies))
	copy(out, remedies)
	for i, r := range settings {
		rs, err := crowds([]backoff.Policy{p}, r)
		if err != nil {
			return remedies, err
		}
		if len(rs) == 1 {
			out[i].Ran, out[i].Figures = true, rs[0].Figures
		}
	}
	return out, nil
}

// remedyWork is the work the service's remedies may take beyond the run
// however small the run was: a couple of seconds (backoff.WorkPerSecond).
const remedyWork = 2 * backoff.WorkPerSecond

// RemediesToRun are the service's remedies for the results of policies
// ps under s, where some policy is no good for the service (words.Failure):
// p the first ranked, to run them with, their settings, and the remedies
// as words say them, named, for the choice to offer should the spread over
// seeds find none good; run reports whether no policy is good
// (words.NoneGood) and they cost no more than the run did, or than
// remedyWork, so that they may run. None where every policy is good.
func RemediesToRun(ps []backoff.Policy, s backoff.Settings, results []backoff.Result, workers int) (p backoff.Policy, settings []backoff.Settings, remedies []words.Remedy, run bool) {
	if !slices.ContainsFunc(results, func(r backoff.Result) bool { return words.Failure(s, r.Figures) != "" }) {
		return p, nil, nil, false
	}
	p = results[words.Rank(results)[0].Index].Policy
	settings, remedies = Remedies(s)
	work := backoff.RunAllCost(ps, s, backoff.Options{}, workers).Work
	return p, settings, remedies, words.NoneGood(s, results) && len(settings) > 0 && RemediesCost(p, settings, workers) <= max(work, remedyWork)
}
