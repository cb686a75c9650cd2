package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/views/words"
)

// The advice: the candidates that meet every goal, or the closest, each
// with its figures over the seeds (median and p95) and the command that
// runs its crowd over the same seeds, in text, CSV and JSON.

// Advised is a search's answer as a report writes it: the advice, and the
// command line that runs each candidate's crowd over the same seeds.
type Advised struct {
	Advice  advice.Advice
	Command func(advice.Candidate) string
}

// adviceFigures are the figures each candidate shows, by their JSON names:
// the load it adds, what its goals limit, and its latency.
var adviceFigures = advice.ShownFigures

// SourceName is where a candidate's policy comes from, as the reports name
// it: five, preset, yours (the scenario's own) or grid.
func SourceName(src advice.Source) string {
	return [...]string{"five", "preset", "yours", "grid"}[src]
}

// shown are the candidates the advice shows, with whether each meets every
// goal: those that do, else the closest.
func (a Advised) shown() ([]advice.Candidate, string) {
	if len(a.Advice.Meets) > 0 {
		return a.Advice.Meets, "meets"
	}
	return a.Advice.Closest, "closest"
}

// candidateName is a candidate's policy, then its budget and service where
// they are not the scenario's.
func candidateName(a advice.Advice, c advice.Candidate) string { return c.Name(a.Search.Settings) }

// SearchLine says what the search tried and how: "Tried 583 candidates:
// the five and the 7 presets, alone and with each of 12 budgets; 357
// policies of your own from a grid and near its best (62), the best 8
// also with the budgets. Every one ran on seed 7, the 30 most promising on
// seeds 7 to 10, the 10 most promising on all 20: 821 crowds in all." A
// crowd of the grid's certain to lose stops part way on the first seed:
// "Every one ran on seed 7 (39 of the grid's crowds stopped part way, each
// certain to lose)".
func SearchLine(a advice.Advice) string {
	named := fmt.Sprintf("the five and the %d presets", len(backoff.Presets()))
	if a.BySource[advice.FromScenario] > 0 {
		named = fmt.Sprintf("the five, the %d presets and your own policy", len(backoff.Presets()))
	}
	tried := fmt.Sprintf("%s, alone and with each of %d budgets; %d policies of your own from a grid and near its best (%d), the best %d also with the budgets",
		named, a.Budgets, a.BySource[advice.FromGrid], a.Refined, advice.KeepBases)
	if a.Breakers > 0 {
		tried += fmt.Sprintf("; the best %d so far with each of %d breakers", advice.KeepBases, a.Breakers)
	}
	switch {
	case a.Remedies > 0:
		tried += fmt.Sprintf("; the best %d so far with each of %d of the service's remedies", advice.KeepBases, a.Remedies)
	case a.Search.AlsoService:
		tried += "; the service has no capacity, so it rejects nothing and has no remedies to try"
	}
	first := a.Search.Settings.Seed
	var rounds []string
	for i, r := range a.Rounds {
		var round string
		switch {
		case i == 0 && r.Seeds == 1 && a.Search.Seeds == 1:
			round = fmt.Sprintf("Every one ran on seed %d, the only seed", first)
		case i == 0:
			round = fmt.Sprintf("Every one ran on seed %d", first)
		case r.Seeds == a.Search.Seeds:
			round = fmt.Sprintf("the %d most promising on all %d", r.Candidates, r.Seeds)
		default:
			round = fmt.Sprintf("the %d most promising on seeds %d to %d", r.Candidates, first, first+r.Seeds-1)
		}
		if i == 0 && a.Stopped > 0 {
			round += fmt.Sprintf(" (%s of the grid's crowds stopped part way, each certain to lose)", words.Count(a.Stopped))
		}
		rounds = append(rounds, round)
	}
	return fmt.Sprintf("Tried %s candidates: %s. %s: %s crowds in all.", words.Count(a.Tried), tried, strings.Join(rounds, ", "), words.Count(a.Crowds))
}

// GoalsLine states the goals and how they are held.
func GoalsLine(a advice.Advice) string {
	sr := a.Search
	return fmt.Sprintf("Goals, each held at the 95th percentile over %s, %s draws (a value equal to a goal meets it): %s.",
		seedsWords(sr.Settings.Seed, sr.Seeds), sr.Settings.Draws, strings.Join(words.GoalsOf(asked(a), sr.Settings), ", "))
}

// BoundsText is what arithmetic says of the goals, a line each, and what
// was searched for when it rules some out: "" when it says nothing.
func BoundsText(a advice.Advice) string {
	var b strings.Builder
	for _, bd := range a.Bounds {
		b.WriteString(words.BoundLine(bd) + "\n")
	}
	switch searched := a.Search.Goals; {
	case a.Asked.Len() == 0 || searched.Same(a.Asked):
	case searched.Len() == 0:
		b.WriteString("Nothing to search for: no candidate can meet these goals. Each line above says what would make its goal possible.\n")
	default:
		b.WriteString("Searched for the other goals: " + searched.String() + ".\n")
	}
	return b.String()
}

func seedsWords(first, n int) string {
	if n == 1 {
		return fmt.Sprintf("seed %d alone", first)
	}
	return fmt.Sprintf("%d seeds, %d to %d", n, first, first+n-1)
}

// GuaranteeLine is what the search promises, and what it does not.
func GuaranteeLine(a advice.Advice) string {
	return fmt.Sprintf("Every figure and every verdict above is over all %s, exactly what the candidate's command gives with crowd --seeds. "+
		"The search may miss candidates: one dropped after fewer seeds, or a policy between the grid's points, might also meet the goals.",
		seedsWords(a.Search.Settings.Seed, a.Search.Seeds))
}

// AdviceText is the advice as text: the scenario and the goals, what the
// search tried, then each candidate: its name, each goal met or missed and
// by how much, its figures' median and p95, and its command.
func AdviceText(a Advised) string {
	adv := a.Advice
	s := adv.Search.Settings
	var b strings.Builder
	fmt.Fprintf(&b, "The scenario: %s clients fail at 0 ms; the service is back at %d ms.\n", words.Count(s.Clients), s.Outage)
	b.WriteString("The service: " + ServiceLine(s) + ".\n")
	b.WriteString(GoalsLine(adv) + "\n")
	b.WriteString(BoundsText(adv))
	if adv.Search.Goals.Len() == 0 {
		return b.String()
	}
	b.WriteString(SearchLine(adv) + "\n")
	cs, kind := a.shown()
	switch {
	case kind == "meets" && len(cs) == 1:
		b.WriteString("1 candidate meets every goal:\n")
	case kind == "meets":
		fmt.Fprintf(&b, "%d candidates meet every goal, ranked by %s:\n", len(cs), RankingWords(adv.Search))
	default:
		b.WriteString("No candidate meets every goal. The closest, with what each misses and by how much:\n")
	}
	if line := words.LosesMostLine(adv.Search.Goals, cs, kind == "meets"); line != "" {
		b.WriteString(line + "\n")
	}
	for i, c := range cs {
		fmt.Fprintf(&b, "\n%d. %s\n", i+1, candidateName(adv, c))
		if line := AlikeLine(c, s); line != "" {
			b.WriteString("   " + line + "\n")
		}
		if kind == "meets" && i+1 < len(cs) {
			b.WriteString("   " + RankedLine(c, cs[i+1], i+2) + "\n")
		}
		for _, v := range c.Verdicts {
			mark := "meets"
			if !v.Met {
				mark = "MISSES"
			}
			fmt.Fprintf(&b, "   %s %s: %s\n", mark, v.Goal, words.GoalLine(v))
		}
		fmt.Fprintf(&b, "   %-18s%12s%12s\n", "figure", "median", "p95")
		for _, name := range adviceFigures {
			ff, _ := backoff.FindField(name)
			sp := c.Spread.Spread(name)
			note := ""
			if name == "attempts" {
				note = "   (" + words.Each(sp.Median, c.Spread.Spread("clients").Median) + " a client)"
			}
			fmt.Fprintf(&b, "   %-18s%12s%12s%s\n", ff.Label, spreadCell(ff, sp.Median), spreadCell(ff, sp.P95), note)
		}
		b.WriteString("   " + a.Command(c) + "\n")
	}
	if len(cs) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(GuaranteeLine(adv) + "\n")
	return b.String()
}

// adviceColumns are one candidate's row.
func adviceColumns(a Advised, rank int, kind string, c advice.Candidate) []column {
	adv := a.Advice
	cols := []column{{"rank", itoa(rank)}, {"result", kind}, {"candidate", candidateName(adv, c)}, {"policy", c.Policy.Name},
		{"source", SourceName(c.Source)}, {"budget", c.Settings.Budget.String()}, {"processes", backoff.FormatProcesses(c.Settings.Processes)},
		{"queue", itoa(c.Settings.Queue)}, {"timeout_ms", itoa(c.Settings.Timeout)}, {"drop_expired", fmt.Sprint(c.Settings.DropExpired)},
		{"queue_order", c.Settings.QueueOrder.String()}}
	cols = append(cols, policyColumns(c.Policy)...)
	rankedBy := ""
	if kind == "meets" && c.RankedBy >= 0 {
		rankedBy = c.RankedBy.Figure()
	}
	cols = append(cols, column{"meets", fmt.Sprint(c.Meets())}, column{"goals_missed", itoa(c.Missed())}, column{"ranked_by", rankedBy},
		column{"alike", AlikeLine(c, adv.Search.Settings)})
	for i, v := range c.Verdicts {
		n := itoa(i + 1)
		value := ""
		if !v.Absent {
			value = itoa(v.Value)
		}
		cols = append(cols, column{"goal_" + n, v.Goal.String()}, column{"goal_" + n + "_figure", v.Goal.Kind.Figure()},
			column{"goal_" + n + "_p95", value}, column{"goal_" + n + "_most", itoa(v.Most)}, column{"goal_" + n + "_met", fmt.Sprint(v.Met)})
	}
	for _, name := range adviceFigures {
		ff, _ := backoff.FindField(name)
		sp := c.Spread.Spread(name)
		all := spreadColumns(ff, sp)
		cols = append(cols, all[0], all[1])
	}
	return append(cols, column{"clients", itoa(c.Spread.Spread("clients").Median)}, column{"seeds", itoa(c.Seeds)},
		column{"first_seed", itoa(adv.Search.Settings.Seed)}, column{"candidates_tried", itoa(adv.Tried)}, column{"command", a.Command(c)})
}

// AdviceCSV is the advice, a row per candidate shown: its rank, whether it
// meets every goal or is among the closest, its policy, budget, service and
// policy settings, each goal (goal_1, its figure, its p95, the most that
// meets it, met), the figures' median and p95, the clients, the seeds, the
// candidates tried and its command. A header alone when none is shown.
func AdviceCSV(a Advised) string {
	cs, kind := a.shown()
	var header []string
	var records [][]string
	for i, c := range cs {
		var row []string
		for _, col := range adviceColumns(a, i+1, kind, c) {
			if i == 0 {
				header = append(header, col.name)
			}
			row = append(row, col.cell)
		}
		records = append(records, row)
	}
	if len(cs) == 0 {
		header = []string{"rank", "result", "candidate", "command"}
	}
	return csvDoc(header, records)
}

// goalJSON is a goal as the document states it.
func goalJSON(g advice.Goal, s backoff.Settings) object {
	return object{{"goal", g.String()}, {"figure", g.Kind.Figure()}, {"limit", goalLimitJSON(g)}}
}

// goalLimitJSON is the goal's limit in its own unit: a percent, ms, a
// ratio, a rate a second.
func goalLimitJSON(g advice.Goal) any {
	switch g.Kind {
	case advice.NotThrough, advice.PeakTimes, advice.Attempts:
		return thousandths(g.Limit)
	}
	return g.Limit
}

// candidateJSON is one candidate: its policy and where it comes from, the
// settings its command runs, its budget and service, whether it meets
// every goal and each goal's verdict, its figures' median and p95 and its
// command.
func candidateJSON(a Advised, rank int, c advice.Candidate) object {
	var met []string
	var goals []object
	for _, v := range c.Verdicts {
		if v.Met {
			met = append(met, v.Goal.String())
		}
		var p95 any = v.Value
		if v.Absent {
			p95 = nil
		}
		goal := object{{"goal", v.Goal.String()}, {"figure", v.Goal.Kind.Figure()}, {"p95", p95}}
		if v.Goal.Kind == advice.NotThrough { // the share's p95 is a seed's: its clients touched
			goal = append(goal, member{"clients_touched", v.Of})
		}
		goals = append(goals, append(goal, member{"most", v.Most}, member{"met", v.Met}, member{"words", words.GoalLine(v)}))
	}
	if met == nil {
		met = []string{}
	}
	figures := object{}
	for _, name := range adviceFigures {
		ff, _ := backoff.FindField(name)
		sp := spreadJSON(ff, c.Spread.Spread(name))
		figures = append(figures, member{name, sp[:2]})
	}
	s := c.Settings
	var rankedBy, alike any
	if c.Meets() && c.RankedBy >= 0 {
		rankedBy = c.RankedBy.Figure()
	}
	if len(c.Alike) > 0 {
		group := append([]advice.Candidate{c}, c.Alike...)
		var setting, values any
		if k, ok := advice.AlikeIn(group); ok {
			var vs []any
			for _, v := range alikeValues(c, k) {
				vs = append(vs, settingJSON(v, k))
			}
			setting, values = settingNames[k][0], vs
		}
		var names []string
		for _, x := range group {
			names = append(names, candidateName(a.Advice, x))
		}
		alike = object{{"setting", setting}, {"values", values}, {"candidates", names}, {"never_reached", advice.NeverReached(group)}}
	}
	return object{{"rank", rank}, {"candidate", candidateName(a.Advice, c)}, {"policy", c.Policy.Name}, {"source", SourceName(c.Source)},
		{"policy_settings", policySettings(c.Policy)}, {"budget", s.Budget.String()},
		{"service", object{{"queue", s.Queue}, {"timeout_ms", s.Timeout}, {"drop_expired", s.DropExpired}, {"queue_order", s.QueueOrder.String()}}},
		{"settings", settingsJSON(s)}, {"meets", c.Meets()}, {"ranked_by", rankedBy}, {"alike", alike}, {"goals_met", met}, {"goals", goals}, {"figures", figures},
		{"clients", c.Spread.Spread("clients").Median}, {"seeds", c.Seeds}, {"command", a.Command(c)}}
}

// AdviceDoc is the advice as a JSON document: the scenario's settings, the
// seeds, the goals, how many candidates were tried and how, then meets
// (every goal met over all the seeds, ranked) and closest (when none
// meets), each candidate as candidateJSON.
func AdviceDoc(a Advised) string {
	adv := a.Advice
	sr := adv.Search
	goals := []object{}
	for _, g := range asked(adv).List() {
		goals = append(goals, goalJSON(g, sr.Settings))
	}
	searched := []string{}
	for _, g := range sr.Goals.List() {
		searched = append(searched, g.String())
	}
	bounds := []object{}
	for _, b := range adv.Bounds {
		bounds = append(bounds, boundJSON(b))
	}
	list := func(cs []advice.Candidate) []object {
		out := []object{}
		for i, c := range cs {
			out = append(out, candidateJSON(a, i+1, c))
		}
		return out
	}
	rounds := []object{}
	for _, r := range adv.Rounds {
		rounds = append(rounds, object{{"candidates", r.Candidates}, {"seeds", r.Seeds}})
	}
	search := object{{"five", adv.BySource[advice.FromFive]}, {"presets", adv.BySource[advice.FromPreset]}, {"yours", adv.BySource[advice.FromScenario]},
		{"grid", adv.BySource[advice.FromGrid]}, {"refined", adv.Refined}, {"budgets", adv.Budgets}, {"breakers", adv.Breakers}, {"remedies", adv.Remedies},
		{"rounds", rounds}, {"crowds", adv.Crowds}, {"stopped", adv.Stopped}}
	seeds := object{{"first", sr.Settings.Seed}, {"last", sr.Settings.Seed + sr.Seeds - 1}, {"count", sr.Seeds}, {"draws", sr.Settings.Draws.String()}}
	return jsonDoc(object{{"settings", settingsJSON(sr.Settings)}, {"slot_ms", sr.Settings.Slot}, {"seeds", seeds}, {"goals", goals},
		{"bounds", bounds}, {"searched_goals", searched}, {"candidates_tried", adv.Tried}, {"search", search}, {"meets", list(adv.Meets)}, {"closest", list(adv.Closest)}})
}

// rankNames are the Ranking's keys in words, by kind.
var rankNames = [advice.NumKinds]string{
	advice.NotThrough: "clients not through (a share of those touched)",
	advice.Recovered:  "recovery",
	advice.PeakTimes:  "the peak after back",
	advice.PeakRate:   "the peak after back",
	advice.P99:        "p99 latency",
	advice.Attempts:   "attempts",
}

// RankingWords says how the candidates that meet every goal are ranked:
// "recovery, then clients not through (a share of those touched), p99
// latency and attempts, each at the 95th percentile (your goals first, in
// the order given)".
func RankingWords(sr advice.Search) string {
	var names []string
	for _, k := range sr.Ranking() {
		names = append(names, rankNames[k])
	}
	// The ranking has at least its four keys beside the goals'.
	list := names[0] + ", then " + strings.Join(names[1:len(names)-1], ", ") + " and " + names[len(names)-1]
	return list + ", each at the 95th percentile (your goals first, in the order given)"
}

// RankValue is candidate c's figure on key k of the ranking, in words:
// "0.8% (3,012 of 365,000 touched)", "36.8 s", "still overloaded", "140 in
// a slot", "2,410,581 (2.4 a client)".
func RankValue(c advice.Candidate, k advice.Kind) string {
	v := c.RankValue(k)
	switch k {
	case advice.NotThrough:
		return words.Percent(c.Lost.NotThrough, c.Lost.Touched) + " (" + words.Count(c.Lost.NotThrough) + " of " + words.Count(c.Lost.Touched) + " touched)"
	case advice.Recovered, advice.P99:
		switch {
		case v == math.MaxInt && k == advice.Recovered:
			return "still overloaded"
		case v == math.MaxInt:
			return "none through"
		}
		return words.Human(v)
	case advice.PeakTimes, advice.PeakRate:
		return words.Count(v) + " in a slot"
	}
	return words.Count(v) + " (" + words.Each(v, c.Spread.Spread("clients").P95) + " a client)"
}

// RankedLine says why c, shown as one rank, comes before next, shown as
// rank nextRank: "ranked above #2 by recovery: 36.8 s against 41.2 s";
// where they tie on every key, that the search made it first.
func RankedLine(c, next advice.Candidate, nextRank int) string {
	if c.RankedBy < 0 {
		return fmt.Sprintf("ranked above #%d only as the search found it first: they tie on every figure ranked", nextRank)
	}
	a, b := RankValue(c, c.RankedBy), RankValue(next, c.RankedBy)
	if a == b { // the words round two values alike: say them exactly
		a, b = strconv.Itoa(c.RankValue(c.RankedBy)), strconv.Itoa(next.RankValue(c.RankedBy))
		if c.RankedBy == advice.Recovered || c.RankedBy == advice.P99 {
			a, b = a+" ms", b+" ms"
		}
		if c.RankedBy == advice.NotThrough {
			a, b = fmt.Sprintf("%d of %d", c.Lost.NotThrough, c.Lost.Touched), fmt.Sprintf("%d of %d", next.Lost.NotThrough, next.Lost.Touched)
		}
	}
	return fmt.Sprintf("ranked above #%d by %s: %s against %s", nextRank, rankNames[c.RankedBy], a, b)
}

// settingNames are each setting's JSON name and its words.
var settingNames = [...][2]string{
	advice.FirstWaitSetting:   {"first_wait_ms", "first wait"},
	advice.LongestWaitSetting: {"longest_wait_ms", "longest wait"},
	advice.AttemptsSetting:    {"attempts", "attempts"},
	advice.MultiplierSetting:  {"multiplier", "multiplier"},
	advice.GrowthSetting:      {"growth", "growth"},
	advice.JitterSetting:      {"jitter", "jitter"},
	advice.BudgetSetting:      {"budget", "budget"},
	advice.QueueSetting:       {"queue", "queue"},
	advice.DropExpiredSetting: {"drop_expired", "expired requests"},
	advice.QueueOrderSetting:  {"queue_order", "queue order"},
	advice.BreakerSetting:     {"breaker", "breaker"},
	advice.RetryAfterSetting:  {"retry_after_ms", "retry after"},
}

// alikeValues are the values of setting k of c and those alike, each
// once, as they come.
func alikeValues(c advice.Candidate, k advice.Setting) []advice.Candidate {
	var out []advice.Candidate
	seen := map[string]bool{}
	for _, x := range append([]advice.Candidate{c}, c.Alike...) {
		if w := settingWords(x, k); !seen[w] {
			seen[w] = true
			out = append(out, x)
		}
	}
	return out
}

// settingNumber is setting k's value of c where it is a number: ms,
// attempts, thousandths of the multiplier, the queue; ok false else.
func settingNumber(c advice.Candidate, k advice.Setting) (int, bool) {
	n, ok := advice.SettingOf(c, k).(int)
	return n, ok
}

// settingWords is setting k's value of c in words: "30 s", "4", "x1.5",
// "linear", "full", "grpc:10:0.1", "drop", "lifo", "5:30s".
func settingWords(c advice.Candidate, k advice.Setting) string {
	n, _ := settingNumber(c, k)
	switch k {
	case advice.FirstWaitSetting, advice.LongestWaitSetting, advice.RetryAfterSetting:
		return words.Human(n)
	case advice.BreakerSetting:
		return c.Settings.Breaker.String()
	case advice.AttemptsSetting, advice.QueueSetting:
		return words.Count(n)
	case advice.MultiplierSetting:
		return "x" + backoff.FormatThousandths(n)
	case advice.GrowthSetting:
		return c.Policy.Growth.String()
	case advice.JitterSetting:
		return c.Policy.Jitter.String()
	case advice.BudgetSetting:
		return c.Settings.Budget.String()
	case advice.DropExpiredSetting:
		if c.Settings.DropExpired {
			return "dropped"
		}
		return "wasted"
	}
	return c.Settings.QueueOrder.String()
}

// settingJSON is setting k's value of c as the JSON writes it.
func settingJSON(c advice.Candidate, k advice.Setting) any {
	if n, ok := settingNumber(c, k); ok {
		if k == advice.MultiplierSetting {
			return thousandths(n)
		}
		return n
	}
	if k == advice.DropExpiredSetting {
		return c.Settings.DropExpired
	}
	return settingWords(c, k)
}

// AlikeLine says the candidates collapsed into c, which show its figures:
// where they differ in one setting, its range, "the same figures with
// longest wait 30 s to 2 min (never reached): 3 candidates, one line";
// else each, "the same figures: full jitter, budget grpc:10:0.1; equal
// jitter, budget grpc:10:0.1". "" when none is.
func AlikeLine(c advice.Candidate, scenario backoff.Settings) string {
	group := append([]advice.Candidate{c}, c.Alike...)
	if len(group) < 2 {
		return ""
	}
	k, ok := advice.AlikeIn(group)
	if !ok {
		var names []string
		for _, x := range c.Alike {
			names = append(names, x.Name(scenario))
		}
		return "the same figures: " + strings.Join(names, "; ")
	}
	var span string
	if _, numeric := settingNumber(c, k); numeric {
		lo, hi := c, c
		for _, x := range group {
			n, _ := settingNumber(x, k)
			if l, _ := settingNumber(lo, k); n < l {
				lo = x
			}
			if h, _ := settingNumber(hi, k); n > h {
				hi = x
			}
		}
		span = settingWords(lo, k) + " to " + settingWords(hi, k)
	} else {
		var ws []string
		for _, x := range alikeValues(c, k) {
			ws = append(ws, settingWords(x, k))
		}
		span = strings.Join(ws, ", ")
	}
	note := ""
	if advice.NeverReached(group) {
		note = " (never reached)"
	}
	return fmt.Sprintf("the same figures with %s %s%s: %d candidates, one line", settingNames[k][1], span, note, len(group))
}

// asked is the goals the person asked: Advice.Asked, or the searched
// goals for an answer that does not say.
func asked(a advice.Advice) advice.Goals {
	if a.Asked.Len() > 0 {
		return a.Asked
	}
	return a.Search.Goals
}

// boundKinds are the bounds' names in JSON.
var boundKinds = [...]string{advice.Overloaded: "overloaded", advice.PeakFloor: "peak", advice.AttemptsFloor: "attempts",
	advice.LatencyFloor: "latency", advice.Drain: "drain"}

// boundJSON is a bound as the document states it: its kind, its goal (and
// the not-through goal it is held with), whether it rules the goal out,
// its numbers and its line.
func boundJSON(b advice.Bound) object {
	var with, meet, lost, needs any
	if b.HasWith {
		with = b.With.String()
	}
	if b.HasMeet {
		meet = b.MeetGoal.String()
	}
	if b.HasLost && b.LostGoal.Limit <= advice.MaxNotThrough {
		lost = b.LostGoal.String()
	}
	if b.Needs > 0 {
		needs = b.Needs
	}
	var serve any = b.Serve
	if b.Serve == math.MaxInt {
		serve = nil
	}
	return object{{"kind", boundKinds[b.Kind]}, {"goal", b.Goal.String()}, {"with", with}, {"impossible", b.Impossible}, {"only_breaker", b.Breaker},
		{"clients", b.Clients}, {"crowd", b.Crowd}, {"backlog", b.Backlog}, {"lost", b.Lost}, {"from_ms", b.From}, {"to_ms", b.To},
		{"arrive", b.Arrive}, {"serve", serve}, {"queue", b.Queue}, {"timeout_ms", b.Timeout}, {"floor", b.Floor}, {"slow", b.Slow},
		{"allowed", b.Allowed}, {"most", b.Most}, {"capacity_needed", needs}, {"goal_allowed", meet}, {"not_through_needed", lost},
		{"words", words.BoundLine(b)}}
}
