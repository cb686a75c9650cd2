package advice

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/retryplanner/retry-planner/backoff"
)

// Search is one question: the scenario, the goals, and how many seeds
// hold them.
type Search struct {
	// Settings are the scenario: the crowd, the outage, the service and its
	// load, the budget and the policies' shared waits. Draws are the
	// spread's draws (independent unless a person asks otherwise); Seed is
	// the first seed.
	Settings backoff.Settings
	// Custom, if not nil, is the scenario's own policy: tried beside the
	// others.
	Custom *backoff.Policy
	Seeds  int // the seeds every goal is held over, from Settings.Seed: 1 to backoff.MaxSeeds
	Goals  Goals
	// AlsoService tries the service's own remedies too (see Remedies).
	AlsoService bool
}

// The search's rounds: every candidate runs on the first seed; the
// KeepFirst most promising then on the first ScreenSeeds; the KeepLast
// most promising of those on every seed. A candidate whose policy gives
// the same figures on every seed (backoff.Policy.SameEverySeed) runs once.
const (
	ScreenSeeds = 4
	KeepFirst   = 30
	KeepLast    = 10
	// RefineBest is how many of the best policies of one's own each of
	// RefinePasses refines, trying their neighbours.
	RefineBest   = 4
	RefinePasses = 2
	// KeepBases is how many of the policies tried alone go on to be tried
	// with each budget (beside the five and the presets), and how many of
	// the best with their budgets go on to be tried with each of the
	// service's remedies.
	KeepBases = 8
	// ShowClosest is how many of the closest candidates Advice keeps when
	// none meets every goal.
	ShowClosest = 5
)

// Options are how a search runs; the answer does not depend on them.
type Options struct {
	Workers int           // goroutines at most (each holds its own scratch; SeedsMemory bounds them all)
	Stop    func() bool   // polled as the core polls it; when it says true the search stops with backoff.ErrStopped
	Done    *atomic.Int64 // if set, counts the crowds run, for a progress bar (Work.Crowds is the most there will be)
	// Seeds, if set, is the seeds the round running holds each of its
	// candidates over: 1 while every candidate runs on the first seed,
	// then ScreenSeeds, then all the search's, for a progress bar.
	Seeds *atomic.Int64
	// Whole runs every crowd to its end: none is stopped part way, certain
	// to lose (executor.screen). The same answer, more crowds.
	Whole bool
}

// round says that a round on n seeds has started.
func (o Options) round(n int) {
	if o.Seeds != nil {
		o.Seeds.Store(int64(n))
	}
}

// Round is how many candidates a round ran, and on how many seeds each.
type Round struct {
	Candidates int
	Seeds      int
}

// Advice is a search's answer.
type Advice struct {
	// Search is what was searched for: the question asked, less the goals
	// that Bounds rule out.
	Search Search
	// Asked is the goals asked; Bounds, what arithmetic says of them before
	// any crowd runs (Search.Bounds): a goal one of them rules out is not
	// searched for, and when every goal is ruled out nothing runs.
	Asked    Goals
	Bounds   []Bound
	Tried    int    // candidates tried: each ran on the first seed at least
	BySource [4]int // of them, how many from each Source
	Refined  int    // of the policies of one's own, how many the refinement tried
	Budgets  int    // the budgets tried beside the scenario's
	Breakers int    // the client's breakers tried beside the scenario's, with the best so far
	Remedies int    // the service's remedies tried (AlsoService)
	Rounds   []Round
	Crowds   int // the crowds run in all
	// Stopped is how many of them stopped part way on the first seed,
	// their candidate (a policy of the grid) certain to lose: certain to
	// miss goals, and behind enough others whatever its figures turned
	// out to be, to be kept for nothing that follows.
	Stopped int
	// Meets are the candidates that meet every goal over all the seeds,
	// ranked (see Search.Ranking): by the goals' figures in the order they
	// were given, then the clients not through, the recovery, the p99
	// latency and the attempts, each at the 95th percentile; each says the
	// key that ranked it above the next (RankedBy), and holds the
	// candidates of the same shown figures (Alike). Every figure of each is
	// over all the seeds.
	Meets []Candidate
	// Closest, when none meets every goal, are those that came closest:
	// the fewest goals missed first, then the least missed in all. Also
	// over all the seeds.
	Closest []Candidate
}

// Work is what a search will cost at most, before it starts.
type Work struct {
	Crowds  int   // crowds at most
	Clients int   // the clients of each crowd: the crowd and the fresh requests
	Total   int64 // Crowds * Clients: the clients run in all, at most
}

// Check returns an error when the search cannot run: no goals, a goal
// that means nothing under the settings, settings not valid, seeds out of
// range.
func (sr Search) Check() error {
	switch {
	case sr.Goals.Len() == 0:
		return errors.New("no goals: give at least one")
	case sr.Seeds < 1 || sr.Seeds > backoff.MaxSeeds:
		return fmt.Errorf("seeds: %d is not from 1 to %d", sr.Seeds, backoff.MaxSeeds)
	}
	if err := sr.Settings.ValidateIn(backoff.WideLimits); err != nil {
		return err
	}
	return sr.Goals.Check(sr.Settings)
}

// searchable is the goals that no bound rules out, in the order given.
func (sr Search) searchable(bounds []Bound) Goals {
	gs := sr.Goals
	for _, g := range Impossible(bounds).List() {
		gs = gs.Without(g.Kind)
	}
	return gs
}

// seedsAt is how many seeds each round runs its candidates on: 1, then
// ScreenSeeds, then all, each at most the search's.
func (sr Search) seedsAt() []int {
	out := []int{1}
	for _, n := range []int{min(ScreenSeeds, sr.Seeds), sr.Seeds} {
		if n > out[len(out)-1] {
			out = append(out, n)
		}
	}
	return out
}

// keepAt is how many candidates go on after round r.
func keepAt(r int) int {
	if r == 0 {
		return KeepFirst
	}
	return KeepLast
}

// policies is what phase one tries: the five over the scenario's waits,
// the presets, the scenario's own policy and the grid, each under the
// scenario's budget and service, each once.
func (sr Search) policies() []Candidate {
	s := sr.Settings
	var out []Candidate
	for _, p := range s.Five() {
		out = append(out, newCandidate(FromFive, p, s))
	}
	for _, pr := range backoff.Presets() {
		out = append(out, newCandidate(FromPreset, pr.Policy, s))
	}
	if sr.Custom != nil {
		out = append(out, newCandidate(FromScenario, *sr.Custom, s))
	}
	for _, p := range gridPolicies(s) {
		out = append(out, newCandidate(FromGrid, p, s))
	}
	return out
}

// Estimate is the most work the search can do: every phase's candidates
// on the first seed, then the rounds' on their seeds, as if none were run
// once for all.
func (sr Search) Estimate() Work {
	if sr.Goals.Len() > 0 && sr.searchable(sr.Bounds()).Len() == 0 {
		return Work{Clients: sr.Settings.Clients + sr.Settings.FreshRequests()} // nothing runs
	}
	seeds := sr.seedsAt()
	first := len(sr.runnable(sr.policies()))
	bases := backoff.NumShapes + len(backoff.Presets()) + KeepBases
	if sr.Custom != nil {
		bases++
	}
	crowds := first + RefinePasses*RefineBest*maxNeighbours + len(Budgets(sr.Settings.Budget))*bases + len(Breakers(sr.Settings.Breaker))*KeepBases
	if sr.AlsoService {
		crowds += len(Remedies(sr.Settings)) * KeepBases
	}
	for r := 1; r < len(seeds); r++ {
		crowds += keepAt(r-1) * (seeds[r] - seeds[r-1])
	}
	clients := sr.Settings.Clients + sr.Settings.FreshRequests()
	return Work{Crowds: crowds, Clients: clients, Total: int64(crowds) * int64(clients)}
}

// runnable is the candidates that can run, each once (the first of each
// key): some of the grid could make a queue go on past what a run counts.
func (sr Search) runnable(cs []Candidate) []Candidate {
	seen := map[string]bool{}
	var out []Candidate
	for _, c := range cs {
		if seen[c.key] || c.Policy.Validate() != nil || c.Settings.ValidateIn(backoff.WideLimits) != nil ||
			backoff.CheckQueue(c.Policy, c.Settings) != nil {
			continue
		}
		seen[c.key] = true
		out = append(out, c)
	}
	return out
}

// Run searches: every candidate on the first seed, budgets with the best
// policies, breakers with the best of those, the service's remedies with
// the best of all (AlsoService),
// then rounds of the most promising on more seeds, the last on every seed.
// The answer is a pure function of sr; it does not depend on o.
//
// What it guarantees: every figure of every candidate in Meets and Closest
// is over all the seeds, exactly what crowd --seeds gives that candidate,
// and so is whether it meets each goal. What it does not: a candidate left
// out after a round on fewer seeds could have met every goal on all of
// them, and a policy between the grid's points could do better: the search
// may miss candidates that meet the goals; it never shows one that does not.
func Run(sr Search, o Options) (Advice, error) {
	adv := Advice{Search: sr, Asked: sr.Goals}
	if err := sr.Check(); err != nil {
		return adv, err
	}
	adv.Bounds = sr.Bounds()
	sr.Goals = sr.searchable(adv.Bounds)
	if adv.Search = sr; sr.Goals.Len() == 0 {
		return adv, nil // every goal ruled out: nothing to search for
	}
	ex := newExecutor(sr, o)
	o.round(1)
	all := sr.runnable(sr.policies())
	seen := map[string]bool{}
	for _, c := range all {
		seen[c.key] = true
	}
	// Phase one: the policies alone. A policy of the grid certain to lose
	// stops part way (executor.screen), and goes no further.
	all, cut, err := ex.screen(all, nil)
	if err != nil {
		return adv, err
	}
	// Refined: the neighbours of the best policies of one's own, twice.
	own := func(c Candidate) bool { return c.Source == FromGrid || c.Source == FromScenario }
	for range RefinePasses {
		var near []Candidate
		for _, c := range sr.best(filter(all, own), RefineBest) {
			for _, q := range neighbours(c.Policy) {
				near = append(near, newCandidate(FromGrid, q, sr.Settings))
			}
		}
		near = sr.fresh(near, seen)
		adv.Refined += len(near)
		ran, n, err := ex.screen(near, all)
		if err != nil {
			return adv, err
		}
		cut += n
		all = append(all, ran...)
	}
	// Phase two: budgets with the five, the presets, the scenario's own and
	// the best of the rest.
	var bases []Candidate
	for _, c := range all {
		if c.Source != FromGrid {
			bases = append(bases, c)
		}
	}
	bases = append(bases, sr.best(filter(all, func(c Candidate) bool { return c.Source == FromGrid }), KeepBases)...)
	// runNew runs the candidates not run yet on the first seed, and keeps
	// them.
	runNew := func(cs []Candidate) error {
		cs = sr.fresh(cs, seen)
		if err := ex.runSeeds(cs, 1); err != nil {
			return err
		}
		all = append(all, cs...)
		return nil
	}
	budgets := Budgets(sr.Settings.Budget)
	adv.Budgets = len(budgets)
	var withBudget []Candidate
	for _, b := range budgets {
		for _, c := range bases {
			s := c.Settings
			s.Budget = b
			withBudget = append(withBudget, c.under(s))
		}
	}
	if err := runNew(withBudget); err != nil {
		return adv, err
	}
	// The client's breakers with the best so far, budgets among them.
	breakers := Breakers(sr.Settings.Breaker)
	adv.Breakers = len(breakers)
	var withBreaker []Candidate
	for _, c := range sr.best(all, KeepBases) {
		for _, b := range breakers {
			s := c.Settings
			s.Breaker = b
			withBreaker = append(withBreaker, c.under(s))
		}
	}
	if err := runNew(withBreaker); err != nil {
		return adv, err
	}
	// Phase three: the service's remedies with the best so far.
	if sr.AlsoService {
		remedies := Remedies(sr.Settings)
		adv.Remedies = len(remedies)
		var withService []Candidate
		for _, c := range sr.best(all, KeepBases) {
			for _, r := range remedies {
				s := c.Settings
				s.Queue, s.DropExpired, s.QueueOrder, s.RetryAfter = r.Queue, r.DropExpired, r.QueueOrder, r.RetryAfter
				withService = append(withService, c.under(s))
			}
		}
		if err := runNew(withService); err != nil {
			return adv, err
		}
	}
	for i := range all {
		all[i].order = i
		adv.BySource[all[i].Source]++
	}
	adv.BySource[FromGrid] += cut // only the grid's are stopped
	adv.Tried, adv.Stopped = len(all)+cut, ex.cut
	adv.Rounds = append(adv.Rounds, Round{Candidates: adv.Tried, Seeds: 1})
	// The rounds: the most promising on more seeds each time.
	going := all
	seeds := sr.seedsAt()
	for r := 1; r < len(seeds); r++ {
		going = sr.promising(ex.distinct(going), keepAt(r-1))
		o.round(seeds[r])
		if err := ex.runSeeds(going, seeds[r]); err != nil {
			return adv, err
		}
		adv.Rounds = append(adv.Rounds, Round{Candidates: len(going), Seeds: seeds[r]})
	}
	if len(seeds) == 1 { // one seed: every candidate ran on all of them
		going = sr.promising(ex.distinct(going), KeepLast)
	}
	adv.Crowds = int(ex.crowds.Load())
	for _, c := range going {
		if c.Meets() {
			adv.Meets = append(adv.Meets, c)
		}
	}
	adv.Meets = sr.rank(adv.Meets)
	if len(adv.Meets) == 0 {
		adv.Closest = sr.closest(going, ShowClosest)
	}
	return adv, nil
}

// fresh is the candidates that can run and have not been tried, each
// once, marking them seen.
func (sr Search) fresh(cs []Candidate, seen map[string]bool) []Candidate {
	var out []Candidate
	for _, c := range sr.runnable(cs) {
		if !seen[c.key] {
			seen[c.key] = true
			out = append(out, c)
		}
	}
	return out
}

// promising is the n candidates to go on with: the best by byPromise,
// at most a third of them with one budget and service (so that the
// candidates confirmed show other ways too, where one budget alone would
// fill the list with every policy), and among them, for each goal, the
// one that meets every other goal and misses this one the least, and the
// one that misses least in all, so that the closest can say what giving
// up each goal would bring.
func (sr Search) promising(cs []Candidate, n int) []Candidate {
	if len(cs) <= n {
		return cs
	}
	picks := sr.picks(cs)
	ordered := sr.best(cs, len(cs))
	kept := map[string]bool{}
	per := map[string]int{}
	most := max(n/3, 1)
	var out []Candidate
	take := func(c Candidate, capped bool) {
		g := serviceKey(c.Settings)
		if kept[c.key] || len(out) >= n || capped && per[g] >= most {
			return
		}
		kept[c.key] = true
		per[g]++
		out = append(out, c)
	}
	for _, c := range ordered {
		if len(out) >= n-len(picks) {
			break
		}
		take(c, true)
	}
	for _, c := range picks {
		take(c, false)
	}
	for _, c := range ordered {
		take(c, true)
	}
	for _, c := range ordered {
		take(c, false)
	}
	slices.SortStableFunc(out, sr.byPromise)
	return out
}

// under is c's policy from its source run under settings s instead, not
// run yet.
func (c Candidate) under(s backoff.Settings) Candidate {
	return Candidate{Source: c.Source, Policy: c.Policy, Settings: s, key: candidateKey(c.Policy, s), run: runKey(c.Policy, s)}
}

// serviceKey is a candidate's budget and service, and whether it has a
// breaker: the breakers tried, which often differ little, take a third
// together at most.
func serviceKey(s backoff.Settings) string {
	return fmt.Sprintf("%s|%d|%v|%v|%v|%d", s.Budget, s.Queue, s.DropExpired, s.QueueOrder, s.Breaker.On(), s.RetryAfter)
}

// picks are, for each goal in order, the candidate that meets every other
// goal and misses this one the least (none when no candidate meets the
// others), then the one that misses least in all.
func (sr Search) picks(cs []Candidate) []Candidate {
	var out []Candidate
	for gi := range sr.Goals.List() {
		var pick *Candidate
		for i := range cs {
			c := &cs[i]
			if gi >= len(c.Verdicts) || c.Verdicts[gi].Met || c.Missed() != 1 {
				continue
			}
			if pick == nil || cmp.Or(cmp.Compare(c.Verdicts[gi].miss(), pick.Verdicts[gi].miss()), sr.byRank(*c, *pick)) < 0 {
				pick = c
			}
		}
		if pick != nil {
			out = append(out, *pick)
		}
	}
	least := slices.MinFunc(cs, func(a, b Candidate) int { return cmp.Or(cmp.Compare(a.totalMiss(), b.totalMiss()), sr.byRank(a, b)) })
	return append(out, least)
}

// closest is the n candidates that come closest, none meeting every goal:
// for each goal, the one that meets the others and misses it the least;
// the one that misses least in all; then the best of the rest by
// byPromise. A candidate of the same shown figures as one kept goes
// with it (Alike), as in the ranking: a breaker that never opens, say,
// beside the same candidate without one.
func (sr Search) closest(cs []Candidate, n int) []Candidate {
	kept := map[string]bool{}
	var out []Candidate
	for _, c := range append(sr.picks(cs), sr.best(cs, len(cs))...) {
		if kept[c.key] {
			continue
		}
		if i := slices.IndexFunc(out, func(o Candidate) bool { return sameFigures(o, c) }); i >= 0 {
			kept[c.key] = true
			out[i].Alike = append(out[i].Alike, c)
			continue
		}
		if len(out) < n {
			kept[c.key] = true
			out = append(out, c)
		}
	}
	return out
}

func filter(cs []Candidate, keep func(Candidate) bool) []Candidate {
	var out []Candidate
	for _, c := range cs {
		if keep(c) {
			out = append(out, c)
		}
	}
	return out
}

// best is the n most promising candidates, best first, by their figures
// over the seeds they ran on: those that meet every goal, ranked (see
// Ranking); then the others, the fewest goals missed first, then the least
// missed in all (each goal's miss as a share of its limit), then as
// ranked.
func (sr Search) best(cs []Candidate, n int) []Candidate {
	out := slices.Clone(cs)
	slices.SortStableFunc(out, sr.byPromise)
	return out[:min(n, len(out))]
}

func (sr Search) byPromise(a, b Candidate) int {
	am, bm := a.Meets(), b.Meets()
	switch {
	case am && !bm:
		return -1
	case bm && !am:
		return 1
	case am && bm:
		return sr.byRank(a, b)
	}
	return cmp.Or(cmp.Compare(a.Missed(), b.Missed()), cmp.Compare(a.totalMiss(), b.totalMiss()), sr.byRank(a, b))
}

// Ranking is the keys that rank candidates, the first that differs
// deciding: the figures of the goals in the order they were given, then
// the clients not through, the recovery, the p99 latency and the attempts,
// each kind once; each at the 95th percentile over the seeds, the lower
// the better (a share of the clients touched for not-through; either kind
// of peak is the peak, PeakTimes; still overloaded and no latency worst).
// Candidates that tie on every key keep the order the search made them in.
func (sr Search) Ranking() []Kind {
	var out []Kind
	add := func(k Kind) {
		if k == PeakRate {
			k = PeakTimes // one figure, peak_after_back
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	for _, g := range sr.Goals.Given() {
		add(g.Kind)
	}
	for _, k := range []Kind{NotThrough, Recovered, P99, Attempts} {
		add(k)
	}
	return out
}

// byRank orders two candidates by the Ranking's keys, then the order the
// search made them in.
func (sr Search) byRank(a, b Candidate) int {
	if k, ok := sr.decider(a, b); ok {
		return compareOn(k, a, b)
	}
	return cmp.Compare(a.order, b.order)
}

// decider is the first of the Ranking's keys on which a and b differ.
func (sr Search) decider(a, b Candidate) (Kind, bool) {
	for _, k := range sr.Ranking() {
		if compareOn(k, a, b) != 0 {
			return k, true
		}
	}
	return 0, false
}

// compareOn compares a and b on one key of the Ranking, the better first.
func compareOn(k Kind, a, b Candidate) int {
	if k == NotThrough { // shares, not_through / clients_touched, in whole numbers
		return cmp.Compare(int64(a.Lost.NotThrough)*int64(b.Lost.Touched), int64(b.Lost.NotThrough)*int64(a.Lost.Touched))
	}
	return cmp.Compare(a.RankValue(k), b.RankValue(k))
}

// RankValue is the candidate's figure that key k of the Ranking compares,
// at the 95th percentile: the clients not through of the seed whose share
// is there, the recovery or the p99 latency in ms (the largest int where
// absent: still overloaded, none through), the peak after back, the
// attempts.
func (c Candidate) RankValue(k Kind) int {
	if k == NotThrough {
		return c.Lost.NotThrough
	}
	if v := c.Spread.Spread(k.Figure()).P95; v >= 0 {
		return v
	}
	return math.MaxInt
}

// rank sorts the candidates that meet every goal by byRank, collapses
// those of the same shown figures into the first (Alike), and says, of
// each, the key that ranks it above the next.
func (sr Search) rank(cs []Candidate) []Candidate {
	cs = slices.Clone(cs)
	slices.SortStableFunc(cs, sr.byRank)
	var out []Candidate
	for _, c := range cs {
		if n := len(out); n > 0 && sameFigures(out[n-1], c) {
			out[n-1].Alike = append(out[n-1].Alike, c)
			continue
		}
		out = append(out, c)
	}
	for i := range out {
		out[i].RankedBy = -1
		if i+1 < len(out) {
			if k, ok := sr.decider(out[i], out[i+1]); ok {
				out[i].RankedBy = k
			}
		}
	}
	return out
}

func (c Candidate) totalMiss() float64 {
	t := 0.0
	for _, v := range c.Verdicts {
		t += v.miss()
	}
	return t
}

// executor runs candidates' crowds on a pool of workers, keeping each
// candidate's figures seed by seed.
type executor struct {
	sr     Search
	o      Options
	figs   map[string][]backoff.Figures // by run key (runID): the figures of the seeds run so far, in order
	crowds atomic.Int64
	// cut counts the crowds stopped part way, their candidate certain to
	// lose (screen).
	cut int
}

func newExecutor(sr Search, o Options) *executor {
	return &executor{sr: sr, o: o, figs: map[string][]backoff.Figures{}}
}

// runID is the key the candidate's figures are kept by: its run key, where
// it has one.
func (c Candidate) runID() string {
	if c.run == "" {
		return c.key
	}
	return c.run
}

// task is one crowd: candidate c on seed index seed, watched where the
// search may stop it part way (screen).
type task struct {
	c, seed int
	watch   bool
}

// runSeeds runs each candidate on its seeds up to n that it has not run
// (a candidate whose policy gives the same figures on every seed,
// backoff.Policy.SameEverySeed, runs once and takes that for
// every seed; candidates of one run key run once for all), then sets its
// spread and verdicts over n seeds.
func (ex *executor) runSeeds(cs []Candidate, n int) error {
	_, err := ex.run(cs, n, nil)
	return err
}

// run is runSeeds, but that with a bar, the crowd of a candidate the bar
// may rule out (see bar.cuts) stops once its figures so far are certain to
// rule it out; it returns which candidates were so stopped, their figures
// unset.
func (ex *executor) run(cs []Candidate, n int, b *bar) ([]bool, error) {
	var tasks []task
	planned := map[string]int{}
	watch := map[string]bool{}
	for _, c := range cs {
		id := c.runID()
		cut, seen := watch[id]
		watch[id] = b != nil && b.cuts(c) && (cut || !seen)
	}
	for i, c := range cs {
		id := c.runID()
		have := max(len(ex.figs[id]), planned[id])
		if c.Policy.SameEverySeed() && have > 0 {
			continue
		}
		for seed := have; seed < n; seed++ {
			tasks = append(tasks, task{i, seed, watch[id]})
			if c.Policy.SameEverySeed() {
				break
			}
		}
		planned[id] = max(have, n)
	}
	// The longest first, so that no worker is left with one at the end.
	slices.SortStableFunc(tasks, func(a, b task) int { return cmp.Compare(cost(cs[b.c]), cost(cs[a.c])) })
	results := make([]backoff.Figures, len(tasks))
	stopped := make([]bool, len(tasks))
	if err := ex.pool(cs, tasks, b, results, stopped); err != nil {
		return nil, err
	}
	for t, tk := range tasks {
		if stopped[t] {
			ex.cut++
			continue
		}
		id := cs[tk.c].runID()
		figs := ex.figs[id]
		if len(figs) <= tk.seed {
			figs = append(figs, make([]backoff.Figures, tk.seed+1-len(figs))...)
		}
		figs[tk.seed] = results[t]
		ex.figs[id] = figs
	}
	cut := make([]bool, len(cs))
	for i := range cs {
		c := &cs[i]
		figs := ex.figs[c.runID()]
		if len(figs) == 0 {
			cut[i] = true // its crowd was stopped, and its twins'
			continue
		}
		if c.Policy.SameEverySeed() {
			for len(figs) < n {
				figs = append(figs, figs[0])
			}
			ex.figs[c.runID()] = figs
		}
		c.Seeds = n
		c.Spread = backoff.SpreadOf(c.Policy, figs[:n])
		c.Verdicts = ex.sr.Goals.Judge(c.Settings, figs[:n])
		at := shareP95(figs[:n])
		c.Lost = Share{at.NotThrough, at.ClientsTouched}
	}
	return cut, nil
}

// screen runs the candidates on the first seed, the policies of the grid
// among them against a bar: each stopped part way once its figures so far
// are certain to rule it out against those of done and of the others run
// before it (bar.cuts). Where nothing has run yet, it runs in steps of
// cost: the candidates no bar stops and the cheapest of the grid first,
// then each costlier step of the grid against all run before, so that the
// costliest crowds meet the strongest bar. It returns the candidates that
// ran to the end, in order, and how many were stopped. Which are stopped
// does not depend on the workers: each crowd is held to its step's bar
// wherever it runs.
func (ex *executor) screen(cs, done []Candidate) ([]Candidate, int, error) {
	step := make([]int, len(cs))
	var costs []int
	if b := ex.bar(done); b != nil && len(done) == 0 {
		for _, c := range cs {
			if b.cuts(c) {
				costs = append(costs, cost(c))
			}
		}
		slices.Sort(costs)
		costs = slices.Compact(costs)
		for i, c := range cs {
			if b.cuts(c) {
				step[i] = slices.Index(costs, cost(c))
			}
		}
	}
	cut := make([]bool, len(cs))
	ran := slices.Clone(done)
	for st := range max(len(costs), 1) {
		var part []Candidate
		var at []int
		for i, c := range cs {
			if step[i] == st {
				part, at = append(part, c), append(at, i)
			}
		}
		stopped, err := ex.run(part, 1, ex.bar(ran))
		if err != nil {
			return nil, 0, err
		}
		for j, i := range at {
			cs[i], cut[i] = part[j], stopped[j]
			if !stopped[j] {
				ran = append(ran, part[j])
			}
		}
	}
	var kept []Candidate
	for i, c := range cs {
		if !cut[i] {
			kept = append(kept, c)
		}
	}
	return kept, len(cs) - len(kept), nil
}

// A bar is what a policy of the grid on the first seed must beat to go
// on: the figures of the candidates that ran to the end before it.
type bar struct {
	sr    Search
	rival []rival
}

// rival is one candidate's standing as byPromise, picks and promising
// read it.
type rival struct {
	meets     bool
	missed    int
	total     float64
	miss      []float64 // each goal's, 0 where met
	own, grid bool
	class     int // candidates of the same figures share one: a round keeps one of them (distinct)
}

// bar is the bar the candidates in done, run on the first seed, make.
func (ex *executor) bar(done []Candidate) *bar {
	if ex.o.Whole {
		return nil
	}
	b := &bar{sr: ex.sr}
	classes := map[string]int{}
	for _, c := range done {
		figs := ex.figs[c.runID()]
		if c.Seeds != 1 || len(figs) == 0 {
			continue
		}
		k := fmt.Sprint(figs[:1])
		if _, ok := classes[k]; !ok {
			classes[k] = len(classes)
		}
		r := rival{meets: c.Meets(), missed: c.Missed(), total: c.totalMiss(), own: c.Custom(), grid: c.Source == FromGrid, class: classes[k]}
		for _, v := range c.Verdicts {
			r.miss = append(r.miss, v.miss())
		}
		b.rival = append(b.rival, r)
	}
	return b
}

// cuts reports whether the bar may stop c's crowd part way: a policy of the
// grid under the scenario's budget, breaker and service, which the
// search keeps only among the best of its candidates on the first seed.
// The five, the presets and the scenario's own go on with the budgets
// whatever their figures.
func (b *bar) cuts(c Candidate) bool {
	return b != nil && c.Source == FromGrid && serviceKey(c.Settings) == serviceKey(b.sr.Settings)
}

// loses reports whether a candidate that cuts, under settings s, whose
// crowd's figures on the first seed are at least so, is certain to lose:
// certain to miss some goals (lower bounds of its figures), and then, by
// those bounds, behind enough rivals to be among none of the candidates
// the search goes on with. Run takes from the candidates on the first
// seed: the RefineBest best of one's own (each refinement), the KeepBases
// best of the grid (the budgets' bases) and best of all (the breakers', the
// service's remedies), and KeepFirst distinct ones (promising, the
// closest's picks among them; with one seed KeepLast). A rival ahead of
// it whatever its figures turn out to be is one that meets every goal,
// misses fewer, or misses as many by less in all (byPromise); it is not
// a pick when it misses two goals or more, or one by more than a rival
// that misses only that one does, and a rival misses less in all.
func (b *bar) loses(s backoff.Settings, so backoff.SoFar) bool {
	goals := b.sr.Goals.List()
	lower := make([]float64, len(goals))
	missed, only := 0, -1
	for gi, g := range goals {
		if v, ok := lowerVerdict(g, s, so); ok {
			lower[gi] = v.miss()
			missed++
			only = gi
		}
	}
	if missed == 0 {
		return false
	}
	total := 0.0
	for _, m := range lower {
		total += m
	}
	least, picked := false, missed >= 2
	classes := map[int]bool{}
	own, grid := 0, 0
	for _, r := range b.rival {
		least = least || r.total < total
		picked = picked || r.missed == 1 && r.miss[only] > 0 && r.miss[only] < lower[only]
		if r.meets || r.missed < missed || r.missed == missed && r.total < total {
			classes[r.class] = true
			if r.own {
				own++
			}
			if r.grid {
				grid++
			}
		}
	}
	return least && picked && len(classes) >= KeepFirst && own >= RefineBest && grid >= KeepBases
}

// lowerVerdict is goal g held against the least a crowd's figure can end
// at, given its figures so far, and whether that already misses it: then
// the crowd misses it, by at least the verdict's miss. Not through: the
// clients not through so far, of every client (the clients touched are at
// most those); recovered: the end of the last slot busy so far, less the
// outage (still overloaded misses by the most); peak: the peak so far;
// attempts: the attempts so far. Nothing so far bounds the p99 latency.
func lowerVerdict(g Goal, s backoff.Settings, so backoff.SoFar) (Verdict, bool) {
	v := Verdict{Goal: g}
	switch g.Kind {
	case NotThrough:
		v.Value, v.Of = so.NotThrough, s.Clients+s.FreshRequests()
	case Recovered:
		v.Value = so.StableFrom - s.Outage
	case PeakTimes:
		v.Value, v.Of = so.PeakAfterBack, slotCapacity(s)
	case PeakRate:
		v.Value, v.Of = so.PeakAfterBack, s.Slot
	case Attempts:
		v.Value, v.Of = so.Attempts, s.Clients+s.FreshRequests()
	default:
		return v, false
	}
	v.Most = g.Most(v.Of)
	return v, v.Value > v.Most || g.Kind == PeakTimes && v.Of <= 0
}

// distinct is the candidates with the first of each set of twins:
// candidates whose every figure was the same on every seed they ran on
// (a budget that throttles every retry, say, whatever the policy). A
// round keeps one of them, the first the search made, so that the
// candidates confirmed differ.
func (ex *executor) distinct(cs []Candidate) []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	for _, c := range cs {
		k := fmt.Sprint(ex.figs[c.runID()][:c.Seeds])
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// cost is a rough measure of a candidate's crowd, to order runs by: its
// attempts, far fewer without jitter, where clients that wait alike go as
// one cohort, or with a budget, which throttles them.
func cost(c Candidate) int {
	n := c.Policy.Attempts * 16
	if !c.Policy.Jitter.Draws() && c.Settings.Budget.Kind == backoff.BudgetNone {
		n /= 4
	}
	if c.Settings.Budget.Kind != backoff.BudgetNone {
		n /= 4
	}
	return n
}

// pool runs the tasks on the options' workers, each with a Crowds of its
// own, results[i] being task i's figures.
func (ex *executor) pool(cs []Candidate, tasks []task, b *bar, results []backoff.Figures, cut []bool) error {
	if len(tasks) == 0 {
		return nil
	}
	ps := make([]backoff.Policy, len(cs))
	ss := make([]backoff.Settings, len(cs))
	for i, c := range cs {
		ps[i], ss[i] = c.Policy, c.Settings
	}
	workers := min(backoff.CrowdsWorkers(ps, ss, max(ex.o.Workers, 1)), len(tasks))
	var next atomic.Int64
	var stopped atomic.Bool
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var crowds backoff.Crowds
			for {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) || stopped.Load() {
					return
				}
				if ex.o.Stop != nil && ex.o.Stop() {
					stopped.Store(true)
					errs[w] = backoff.ErrStopped
					return
				}
				tk := tasks[i]
				s := cs[tk.c].Settings
				s.Seed = ex.sr.Settings.Seed + tk.seed
				var watch func(backoff.SoFar) bool
				if tk.watch {
					watch = func(so backoff.SoFar) bool {
						cut[i] = b.loses(s, so)
						return cut[i]
					}
				}
				f, err := crowds.RunWatched(cs[tk.c].Policy, s, ex.o.Stop, watch)
				if err != nil && cut[i] {
					err = nil // certain to lose: stopped part way
				}
				if err != nil {
					stopped.Store(true)
					errs[w] = err
					return
				}
				results[i] = f
				ex.crowds.Add(1)
				if ex.o.Done != nil {
					ex.o.Done.Add(1)
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if errors.Is(err, backoff.ErrStopped) {
			return backoff.ErrStopped
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// searchTakes is the share of its crowds' estimated work a search takes,
// measured (CPU time against the estimate, a quiet 2-core machine) on three
// searches of two goals over 20 seeds: 1,000 clients at 100 a second under
// a load of 50 (1.46 s against 2.19), the README's queue (8.0 s against
// 16.9) and its 50,000 clients at 2,000 a second (14.6 s against 27.6). A
// crowd alone is estimated within a few tenths (model/cli's real runs);
// a search's run far fewer: the means stand for candidates that the
// rounds keep, which recover soonest, and the most neighbours the
// refinement can try, not the few it does.
const searchTakes = 0.55

// Cost is what the search takes on workers cores, as backoff counts a
// run's cost (backoff.Cost). Its work is its crowds', each as a worker
// that keeps its scratch runs it (backoff.CrowdCost), phase by phase as
// Run makes them: the five, the presets and the scenario's own policy,
// and the grid, whose mean is taken from every seventh of its policies
// (seven is prime to each of its dimensions, so every first wait, longest
// wait, attempts and jitter is among them); the refinement's neighbours
// at the grid's mean; the five, the presets and the scenario's own with
// each budget, taken from the middle budget of each kind, and the best of
// the grid with each at the mean of those; with AlsoService the best with
// each of the service's remedies, at the mean of the five's with it; then
// the rounds' crowds on more seeds, at the mean of the candidates that
// draw (one the same on every seed runs once). Which candidates go on is not
// known before they run: the means stand for them, and Estimate's counts
// for how many. Its memory: each worker keeps the largest scratch of the
// crowds it ran, the fast path's and the engine's (a service or a budget
// puts a crowd on the engine), and the figures of every crowd are kept.
// It runs some hundred crowds in miniature: tens of milliseconds.
func (sr Search) Cost(workers int) backoff.Cost {
	if sr.Goals.Len() > 0 && sr.searchable(sr.Bounds()).Len() == 0 {
		return backoff.Cost{Parallel: 1} // nothing runs
	}
	// The scratch of each path's crowds, and of those that draw, which
	// may run on every worker at once; the most work of a crowd.
	var scratch, drawn [2][]int64
	var most int64
	crowd := func(p backoff.Policy, s backoff.Settings) backoff.Cost {
		one := backoff.CrowdCost(p, s)
		path := 0
		if s.HasService() {
			path = 1
		}
		scratch[path] = append(scratch[path], one.Bytes)
		if !p.SameEverySeed() {
			drawn[path] = append(drawn[path], one.Bytes)
		}
		most = max(most, one.Work)
		return backoff.Cost{Work: one.Work}
	}
	// mean is the mean work of the crowds in sum, n of them, as a cost.
	mean := func(sum backoff.Cost, n int) backoff.Cost {
		return backoff.Cost{Work: sum.Work / int64(max(n, 1))}
	}
	cs := sr.runnable(sr.policies())
	var known, drawing, grid backoff.Cost
	var nDrawing, nGrid, nSampled int
	var bases []Candidate // the five, the presets and the scenario's own: the bases known before the search
	ps := make([]backoff.Policy, 0, len(cs))
	ss := make([]backoff.Settings, 0, len(cs))
	for _, cand := range cs {
		ps, ss = append(ps, cand.Policy), append(ss, cand.Settings)
		if cand.Source == FromGrid {
			nGrid++
			if (nGrid-1)%7 != 0 {
				continue
			}
			nSampled++
		}
		one := crowd(cand.Policy, cand.Settings)
		if cand.Source == FromGrid {
			grid = grid.Plus(one)
		} else {
			known = known.Plus(one)
			bases = append(bases, cand)
		}
		if !cand.Policy.SameEverySeed() {
			drawing, nDrawing = drawing.Plus(one), nDrawing+1
		}
	}
	gridMean := mean(grid, nSampled)
	all := known.Plus(gridMean.Times(int64(nGrid))).Plus(gridMean.Times(RefinePasses * RefineBest * maxNeighbours))
	// The budgets, each kind's from its middle one.
	budgets := Budgets(sr.Settings.Budget)
	for _, kind := range []backoff.BudgetKind{backoff.BudgetNone, backoff.BudgetGRPC, backoff.BudgetAWS} {
		var of []backoff.Budget
		for _, b := range budgets {
			if b.Kind == kind {
				of = append(of, b)
			}
		}
		if len(of) == 0 {
			continue
		}
		var with backoff.Cost
		for _, cand := range bases {
			s := cand.Settings
			s.Budget = of[len(of)/2]
			with = with.Plus(crowd(cand.Policy, s))
		}
		all = all.Plus(with.Plus(mean(with, len(bases)).Times(KeepBases)).Times(int64(len(of))))
	}
	// The breakers, each with the best so far, from the middle one's.
	if bs := Breakers(sr.Settings.Breaker); len(bs) > 0 {
		var with backoff.Cost
		for _, cand := range bases {
			s := cand.Settings
			s.Breaker = bs[len(bs)/2]
			with = with.Plus(crowd(cand.Policy, s))
		}
		all = all.Plus(mean(with, len(bases)).Times(int64(KeepBases * len(bs))))
	}
	if sr.AlsoService {
		for _, r := range Remedies(sr.Settings) {
			var with backoff.Cost
			for _, p := range sr.Settings.Five() {
				s := sr.Settings
				s.Queue, s.DropExpired, s.QueueOrder, s.RetryAfter = r.Queue, r.DropExpired, r.QueueOrder, r.RetryAfter
				with = with.Plus(crowd(p, s))
			}
			all = all.Plus(mean(with, backoff.NumShapes).Times(KeepBases))
		}
	}
	// The rounds: the candidates that draw run on each seed more.
	seeds := sr.seedsAt()
	more := 0
	for r := 1; r < len(seeds); r++ {
		more += keepAt(r-1) * (seeds[r] - seeds[r-1])
	}
	share := float64(nDrawing) / float64(max(len(bases)+nSampled, 1))
	all = all.Plus(mean(drawing, nDrawing).Times(int64(float64(more) * share)))
	w := sr.Estimate()
	work := int64(float64(all.Work) * searchTakes)
	c := backoff.Cost{Bytes: int64(w.Crowds) * 512, Work: work, Span: most, Parallel: backoff.CrowdsWorkers(ps, ss, max(workers, 1))}
	// Each worker keeps the largest scratch of each path it ran: at once,
	// the largest crowds' of each path, one a worker, or the largest of
	// those that draw on every worker.
	for path := range scratch {
		slices.SortFunc(scratch[path], func(a, b int64) int { return cmp.Compare(b, a) })
		var held, each backoff.Cost
		for i := range min(c.Parallel, len(scratch[path])) {
			held = held.Plus(backoff.Cost{Bytes: scratch[path][i]})
		}
		if len(drawn[path]) > 0 {
			for range c.Parallel {
				each = each.Plus(backoff.Cost{Bytes: slices.Max(drawn[path])})
			}
		}
		c.Bytes = c.Plus(backoff.Cost{Bytes: max(held.Bytes, each.Bytes)}).Bytes
	}
	return c
}
