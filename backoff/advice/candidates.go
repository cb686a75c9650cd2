package advice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
)

// Source is where a candidate's policy comes from.
type Source int

const (
	FromFive     Source = iota // one of the reference's five, over the scenario's waits
	FromPreset                 // a library's preset
	FromScenario               // the scenario's own policy (custom), as its settings give it
	FromGrid                   // a policy of one's own from the search's grid
)

// A Candidate is one way to run the scenario: a policy, the budget its
// clients' processes keep, and the service's own settings (its queue,
// what it does with expired requests, its order), with its figures over
// the seeds once it has run.
type Candidate struct {
	Source Source
	Policy backoff.Policy
	// Settings are what the candidate runs under: the scenario's, with the
	// candidate's budget and service; for a policy of one's own also custom's
	// own first wait, longest wait, attempts and limit, its multiplier and
	// jitter, so that Settings.Custom() waits as Policy does. The five and
	// the presets keep the scenario's waits, custom as the defaults have
	// it.
	Settings backoff.Settings
	// Seeds is how many seeds, from the first, the figures are over: all the
	// search's for every candidate Advice shows.
	Seeds    int
	Spread   backoff.PolicySpread // over those seeds
	Verdicts []Verdict            // each goal, in the goals' order
	// RankedBy, among the candidates that meet every goal, is the key of
	// the Ranking that ranks it above the next one shown; -1 for the last,
	// or where they tie on every key.
	RankedBy Kind
	// Alike are the candidates of the same shown figures (ShownFigures, and
	// each goal's verdict) ranked after it: one line says them all, naming
	// the one setting they differ in where there is one (AlikeIn).
	Alike []Candidate

	// Lost is the clients not through and the clients touched of the seed
	// at the 95th percentile of their share, as the not-through goal holds
	// them (whether or not there is one).
	Lost Share

	key   string
	run   string // runKey: candidates of one run key share their crowds
	order int    // its place in the search, for ties
}

// A Share is clients not through of the clients touched, one seed's.
type Share struct{ NotThrough, Touched int }

// ShownFigures are the figures a candidate shows, by their JSON names: the
// load it adds, what its goals limit, and its latency.
var ShownFigures = []string{"attempts", "not_through", "recovered_after_ms", "peak_after_back", "latency_p99_ms"}

// sameFigures reports whether a and b show the same figures: the median
// and p95 of each of ShownFigures, and each goal's verdict.
func sameFigures(a, b Candidate) bool {
	for _, name := range ShownFigures {
		if a.Spread.Spread(name) != b.Spread.Spread(name) {
			return false
		}
	}
	return slices.Equal(a.Verdicts, b.Verdicts) && a.Lost == b.Lost
}

// A Setting is one of a candidate's settings that the search varies.
type Setting int

// The settings a candidate varies, as AlikeIn names the one that differs.
const (
	FirstWaitSetting Setting = iota
	LongestWaitSetting
	AttemptsSetting
	MultiplierSetting
	GrowthSetting
	JitterSetting
	BudgetSetting
	QueueSetting
	DropExpiredSetting
	QueueOrderSetting
	BreakerSetting
	RetryAfterSetting
	numSettings
)

// SettingOf is the candidate's value of setting k, as a comparable value:
// an int for the waits (ms), the attempts, the multiplier (thousandths),
// the queue and the pushback (ms).
func SettingOf(c Candidate, k Setting) any {
	switch k {
	case FirstWaitSetting:
		return c.Policy.FirstWait
	case LongestWaitSetting:
		return c.Policy.LongestWait
	case AttemptsSetting:
		return c.Policy.Attempts
	case MultiplierSetting:
		return c.Policy.Multiplier
	case GrowthSetting:
		return c.Policy.Growth
	case JitterSetting:
		return c.Policy.Jitter
	case BudgetSetting:
		return c.Settings.Budget
	case QueueSetting:
		return c.Settings.Queue
	case DropExpiredSetting:
		return c.Settings.DropExpired
	case BreakerSetting:
		return c.Settings.Breaker
	case RetryAfterSetting:
		return c.Settings.RetryAfter
	}
	return c.Settings.QueueOrder
}

// AlikeIn is the one setting in which the candidates differ, all else
// (their policy's name and limit on total time, their processes and
// timeout) the same; false when they differ in none or in more than one.
func AlikeIn(cs []Candidate) (Setting, bool) {
	if len(cs) < 2 {
		return 0, false
	}
	var differ []Setting
	for k := range numSettings {
		for _, c := range cs[1:] {
			if SettingOf(c, k) != SettingOf(cs[0], k) {
				differ = append(differ, k)
				break
			}
		}
	}
	for _, c := range cs[1:] {
		if c.Policy.Name != cs[0].Policy.Name || c.Source != cs[0].Source || c.Policy.MaxElapsed != cs[0].Policy.MaxElapsed ||
			c.Settings.Processes != cs[0].Settings.Processes || c.Settings.Timeout != cs[0].Settings.Timeout {
			return 0, false
		}
	}
	if len(differ) != 1 {
		return 0, false
	}
	return differ[0], true
}

// NeverReached reports whether no wait of the candidates, which differ in
// their longest wait alone, can reach the least of their longest waits:
// every base wait below it (a decorrelated draw below three times the
// last, from the first wait on), so that it bounds nothing.
func NeverReached(cs []Candidate) bool {
	if k, ok := AlikeIn(cs); !ok || k != LongestWaitSetting {
		return false
	}
	least := cs[0].Policy.LongestWait
	for _, c := range cs {
		least = min(least, c.Policy.LongestWait)
	}
	p := cs[0].Policy
	p.LongestWait = backoff.MaxWait * 3 // waits as if there were no longest
	if p.Jitter.Kind == backoff.JitterDecorrelated {
		return drawsBelow(p, least)
	}
	for k := 1; k < p.Attempts; k++ {
		if p.Base(k) >= least {
			return false
		}
	}
	return true
}

// drawsBelow reports whether every wait decorrelated jitter can draw for
// p, u(first, 3*previous) from the first wait on, is below longest: the
// largest before retry k is first*3^k.
func drawsBelow(p backoff.Policy, longest int) bool {
	most := int64(p.FirstWait)
	for range p.Attempts - 1 {
		most *= 3
		if most >= int64(longest) {
			return false
		}
	}
	return true
}

// Custom reports whether the candidate's policy is one of one's own:
// crowd runs it as --policies custom with its waits as the settings.
func (c Candidate) Custom() bool { return c.Source == FromScenario || c.Source == FromGrid }

// Meets reports whether the candidate meets every goal.
func (c Candidate) Meets() bool {
	for _, v := range c.Verdicts {
		if !v.Met {
			return false
		}
	}
	return len(c.Verdicts) > 0
}

// Missed is how many goals the candidate misses.
func (c Candidate) Missed() int {
	n := 0
	for _, v := range c.Verdicts {
		if !v.Met {
			n++
		}
	}
	return n
}

// Name is how the candidate is named: its policy, then its budget and
// its service where they are not the scenario's. scenario is the search's
// settings.
func (c Candidate) Name(scenario backoff.Settings) string {
	parts := []string{c.Policy.Name}
	if c.Custom() {
		parts[0] = "custom (" + c.Policy.Describe() + ")"
	}
	if c.Settings.Budget != scenario.Budget {
		parts = append(parts, "budget "+c.Settings.Budget.String())
	}
	if c.Settings.Breaker != scenario.Breaker {
		parts = append(parts, "breaker "+c.Settings.Breaker.String())
	}
	parts = append(parts, ServiceChanges(scenario, c.Settings)...)
	return strings.Join(parts, ", ")
}

// ServiceChanges are the service's settings of s that differ from the
// scenario's, in words: "queue 500", "drop expired", "lifo", "retry after
// 2s".
func ServiceChanges(scenario, s backoff.Settings) []string {
	var out []string
	if s.Queue != scenario.Queue {
		out = append(out, fmt.Sprintf("queue %d", s.Queue))
	}
	if s.DropExpired != scenario.DropExpired {
		if s.DropExpired {
			out = append(out, "drop expired")
		} else {
			out = append(out, "keep expired")
		}
	}
	if s.QueueOrder != scenario.QueueOrder {
		out = append(out, s.QueueOrder.String())
	}
	if s.RetryAfter != scenario.RetryAfter {
		out = append(out, "retry after "+backoff.FormatTime(s.RetryAfter))
	}
	return out
}

// The grid of policies of one's own: every first wait, longest wait (at
// least the first wait), attempts and jitter below, doubling each wait,
// each named once however many points of the grid wait alike (two
// attempts, say, wait only the first wait, whatever the longest). Then the
// best of them are refined (see neighbours): other multipliers, half and
// twice the waits, attempts between the grid's.
var (
	gridFirstWaits = []int{50, 250, 1000, 3000, 10000}
	gridLongest    = []int{1000, 10000, 60000, 300000}
	gridAttempts   = []int{2, 3, 5, 8, 12}
	gridJitters    = []backoff.Jitter{
		{Kind: backoff.JitterFull},
		{Kind: backoff.JitterEqual},
		{Kind: backoff.JitterDecorrelated},
		{Kind: backoff.JitterSpread, Factor: 500},
	}
	// The refinement's steps: the multipliers beside doubling, the
	// attempts between the grid's, and the waits' bounds.
	refineMultipliers = []int{1500, 2000, 3000}
	refineAttempts    = []int{2, 3, 4, 5, 6, 8, 10, 12}
	minFirstWait      = 50
	maxFirstWait      = 10000
	minLongest        = 1000
	maxLongest        = 300000
)

// gridPolicies are the grid's policies under the scenario's limit on total
// time.
func gridPolicies(s backoff.Settings) []backoff.Policy {
	var out []backoff.Policy
	for _, first := range gridFirstWaits {
		for _, longest := range gridLongest {
			if longest < first {
				continue
			}
			for _, attempts := range gridAttempts {
				for _, j := range gridJitters {
					out = append(out, backoff.Policy{Name: "custom", FirstWait: first, LongestWait: longest, Multiplier: 2000,
						Jitter: j, Attempts: attempts, MaxElapsed: s.MaxElapsed})
				}
			}
		}
	}
	return out
}

// neighbours are the policies one step from p: each other multiplier and
// the other growth (not for decorrelated jitter, which reads neither),
// half and twice the first
// wait and the longest wait within the grid's bounds (the first never
// above the longest), and the attempts just below and above in
// refineAttempts.
// maxNeighbours is the most neighbours a policy has.
const maxNeighbours = 10

func neighbours(p backoff.Policy) []backoff.Policy {
	var out []backoff.Policy
	add := func(q backoff.Policy) {
		if q.FirstWait >= minFirstWait && q.FirstWait <= maxFirstWait && q.LongestWait >= max(minLongest, q.FirstWait) &&
			q.LongestWait <= maxLongest && !q.Same(p) {
			out = append(out, q)
		}
	}
	if p.Jitter.Kind != backoff.JitterDecorrelated {
		for _, m := range refineMultipliers {
			q := p
			q.Multiplier = m
			add(q)
		}
		// The other growth: linear adds the first wait each retry, and
		// ignores the multiplier, kept at doubling.
		q := p
		q.Growth, q.Multiplier = backoff.GrowthLinear, 2000
		if p.Growth == backoff.GrowthLinear {
			q.Growth = backoff.GrowthExponential
		}
		add(q)
	}
	for _, f := range []int{p.FirstWait / 2, p.FirstWait * 2} {
		q := p
		q.FirstWait = f
		add(q)
	}
	for _, l := range []int{p.LongestWait / 2, p.LongestWait * 2} {
		q := p
		q.LongestWait = l
		add(q)
	}
	i := slices.Index(refineAttempts, p.Attempts)
	for _, j := range []int{i - 1, i + 1} {
		if i >= 0 && j >= 0 && j < len(refineAttempts) {
			q := p
			q.Attempts = refineAttempts[j]
			add(q)
		}
	}
	return out
}

// Budgets are the retry budgets the search tries beside the scenario's:
// gRPC's retryThrottling at 10, 100 and 1000 tokens, each with a ratio of
// 0.1 and 0.5, and the AWS retry quota at 100, 500 and 5000 tokens, each
// at a cost of 1 and 5; and no budget, when the scenario has one.
func Budgets(scenario backoff.Budget) []backoff.Budget {
	var out []backoff.Budget
	if scenario.Kind != backoff.BudgetNone {
		out = append(out, backoff.Budget{})
	}
	for _, tokens := range []int{10, 100, 1000} {
		for _, ratio := range []int{100, 500} {
			out = append(out, backoff.Budget{Kind: backoff.BudgetGRPC, A: tokens, B: ratio})
		}
	}
	for _, quota := range []int{100, 500, 5000} {
		for _, cost := range []int{1, 5} {
			out = append(out, backoff.Budget{Kind: backoff.BudgetAWS, A: quota, B: cost})
		}
	}
	kept := out[:0]
	for _, b := range out {
		if b != scenario {
			kept = append(kept, b)
		}
	}
	return kept
}

// Breakers are the circuit breakers the search tries with the best
// candidates so far, beside the scenario's: F:D for F consecutive failures
// of 3, 5, 10 and 20 and D open 5 s and 30 s, and sony/gobreaker's
// defaults (6:60s); and none, when the scenario has one.
func Breakers(scenario backoff.Breaker) []backoff.Breaker {
	var out []backoff.Breaker
	if scenario.On() {
		out = append(out, backoff.Breaker{})
	}
	for _, f := range []int{3, 5, 10, 20} {
		for _, d := range []int{5000, 30000} {
			out = append(out, backoff.Breaker{Failures: f, Open: d})
		}
	}
	if pr, ok := backoff.FindBreakerPreset("gobreaker"); ok {
		out = append(out, pr.Breaker)
	}
	kept := out[:0]
	for _, b := range out {
		if b != scenario {
			kept = append(kept, b)
		}
	}
	return kept
}

// pushbacks are the retry-after times the service's remedies try: 1 s,
// 2 s and 5 s.
var pushbacks = []int{1000, 2000, 5000}

// Remedies are the service's own settings the search tries with
// AlsoService. Where the scenario has a queue: dropping expired requests,
// serving the newest first, both, and shorter queues (the queue the
// capacity works off within the timeout, half the queue and a tenth of
// it), each alone and with expired requests dropped. Where it has a
// capacity, so that it rejects: pushback, telling a rejected client to come
// back after each of pushbacks (and none, where the scenario has some).
// None without a capacity.
func Remedies(scenario backoff.Settings) []backoff.Settings {
	out := queueRemedies(scenario)
	if scenario.Capacity > 0 {
		if scenario.RetryAfter > 0 {
			none := scenario
			none.RetryAfter = 0
			out = append(out, none)
		}
		for _, r := range pushbacks {
			if r != scenario.RetryAfter {
				s := scenario
				s.RetryAfter = r
				out = append(out, s)
			}
		}
	}
	return out
}

// queueRemedies are Remedies' of a queue; none without one.
func queueRemedies(scenario backoff.Settings) []backoff.Settings {
	if !scenario.HasQueue() {
		return nil
	}
	var out []backoff.Settings
	add := func(s backoff.Settings) {
		if s == scenario {
			return
		}
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	drop, lifo, both := scenario, scenario, scenario
	drop.DropExpired = true
	lifo.QueueOrder = backoff.LIFO
	both.DropExpired, both.QueueOrder = true, backoff.LIFO
	add(drop)
	add(lifo)
	add(both)
	var shorter []int
	if scenario.Timeout > 0 {
		shorter = append(shorter, int(int64(scenario.Capacity)*int64(scenario.Timeout)/1000))
	}
	shorter = append(shorter, scenario.Queue/2, scenario.Queue/10)
	for _, q := range shorter {
		if q < 1 || q >= scenario.Queue {
			continue
		}
		s := scenario
		s.Queue = q
		add(s)
		s.DropExpired = true
		add(s)
	}
	return out
}

// waitKey is what makes two policies wait alike for every client: the
// jitter, the attempts, the limit on total time and the base wait of each
// retry; decorrelated jitter reads the first and longest wait instead. Two
// policies of one key give the same figures.
func waitKey(p backoff.Policy) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%d/%d/", p.Jitter, p.Attempts, p.MaxElapsed)
	if p.Jitter.Kind == backoff.JitterDecorrelated {
		fmt.Fprintf(&b, "%d-%d", p.FirstWait, p.LongestWait)
		return b.String()
	}
	for k := 1; k < p.Attempts; k++ {
		fmt.Fprintf(&b, "%d,", p.Base(k))
	}
	return b.String()
}

// runKey is candidateKey, but that decorrelated jitter whose longest wait
// no draw reaches (drawsBelow) is keyed without it: each wait is
// min(longest, u(first, 3*previous)), the same draws whatever a longest
// above them all, so candidates of one run key give the same figures on
// every seed, and the search runs one crowd for them all.
func runKey(p backoff.Policy, s backoff.Settings) string {
	if p.Jitter.Kind == backoff.JitterDecorrelated && drawsBelow(p, p.LongestWait) {
		p.LongestWait = 0
	}
	return candidateKey(p, s)
}

// candidateKey is waitKey with what the candidate's service and budget
// are.
func candidateKey(p backoff.Policy, s backoff.Settings) string {
	return fmt.Sprintf("%s|%s|%d|%d|%v|%v|%d|%s|%d", waitKey(p), s.Budget, s.Processes, s.Queue, s.DropExpired, s.QueueOrder, s.Timeout, s.Breaker, s.RetryAfter)
}

// newCandidate is policy p from src under settings s: for a policy of
// one's own, s with p as custom, its own first wait, longest wait,
// attempts and limit, its multiplier, growth and jitter (the five keep the
// scenario's waits); else s with custom as the defaults have it, which
// only custom reads.
func newCandidate(src Source, p backoff.Policy, s backoff.Settings) Candidate {
	d := backoff.Defaults()
	if src == FromScenario || src == FromGrid {
		s.CustomFirstWait, s.CustomLongestWait, s.CustomAttempts, s.CustomMaxElapsed = p.FirstWait, p.LongestWait, p.Attempts, p.MaxElapsed
		s.Multiplier, s.Growth, s.Jitter = p.Multiplier, p.Growth, p.Jitter
		p = s.Custom()
		if p.Name != "custom" {
			src = FromPreset // it is a preset's waits: crowd names it so
		}
	} else {
		s.CustomFirstWait, s.CustomLongestWait, s.CustomAttempts, s.CustomMaxElapsed = d.CustomFirstWait, d.CustomLongestWait, d.CustomAttempts, d.CustomMaxElapsed
		s.Multiplier, s.Growth, s.Jitter = d.Multiplier, d.Growth, d.Jitter
	}
	return Candidate{Source: src, Policy: p, Settings: s, key: candidateKey(p, s), run: runKey(p, s)}
}
