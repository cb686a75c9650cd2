package words

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
)

// The verdict: one sentence per policy that answers the question people
// bring, "will my service survive the retries after an outage?", from the
// policy's figures alone. Every face prints the same sentence, in the
// units people read (times as Human, counts with commas), so that the
// text report, the CSV, the JSON and pane 2 say the same words.

// Percent is n of all as a percentage to a tenth, halves up, without a
// trailing ".0": 170 of 200 is "85%", 4,772 of 30,500 "15.6%". A share
// that would round to 0% or 100% without being so is "<0.1%" or ">99.9%",
// so that a percentage never says none or all when it is not.
func Percent(n, all int) string {
	if all <= 0 {
		return "-"
	}
	tenths := (int64(n)*2000 + int64(all)) / (2 * int64(all))
	switch {
	case n > 0 && tenths == 0:
		return "<0.1%"
	case n < all && tenths == 1000:
		return ">99.9%"
	}
	return tenthsOf(tenths) + "%"
}

// Share is a count of clients with its denominator and share: "4,772 of
// 30,500, 15.6%".
func Share(n, all int) string {
	return Count(n) + " of " + Count(all) + ", " + Percent(n, all)
}

// Touched is the clients a share of clients not through is of: the
// clients the outage touched (MODEL.md section 5, clients_touched), those
// that start no later than the run's last failure. A later client meets
// nothing but success, so a longer load window adds clients to Clients
// but none to Touched, and cannot dilute the share.
func Touched(f backoff.Figures) int { return f.ClientsTouched }

// NotThroughShare is the clients not through as a share of the clients
// the outage touched, to a tenth: "75%".
func NotThroughShare(f backoff.Figures) string { return Percent(f.NotThrough, Touched(f)) }

// NotThroughOf is the clients not through and their share, for a
// sentence: "19 of 200 (9.5%)" where the outage touched every client,
// "228,135 of the 304,167 clients the outage touched (75%)" where it
// touched fewer, so that the reader knows what the share is of.
func NotThroughOf(f backoff.Figures) string { return countOfTouched(f.NotThrough, f) }

// countOfTouched is n of the clients the outage touched, with its share.
func countOfTouched(n int, f backoff.Figures) string {
	return Count(n) + " of " + TouchedWords(f) + " (" + Percent(n, Touched(f)) + ")"
}

// TouchedWords is what a share of clients not through is of: "200", or
// "the 304,167 clients the outage touched" where that is fewer than all.
func TouchedWords(f backoff.Figures) string {
	if Touched(f) == f.Clients {
		return Count(f.Clients)
	}
	return "the " + clientsOf(Touched(f)) + " the outage touched"
}

// Times is a ratio of two counts to a tenth, halves up, without a
// trailing ".0": 200 against 15 is "13.3x", 150 against 200 "0.8x", 180
// against 15 "12x".
func Times(n, of int) string {
	if of <= 0 {
		return "-"
	}
	tenths := (int64(n)*20 + int64(of)) / (2 * int64(of))
	return tenthsOf(tenths) + "x"
}

// Verdict is the policy's answer in one sentence, in three parts:
//   - the service: whether it recovers and when, or that it is still
//     overloaded when the fresh load stops;
//   - the clients: what share never gets through, and why (gave up,
//     throttled by the budget, out of time; with a queue, how many attempts
//     timed out);
//   - the load: the peak after back against the capacity when one is set,
//     as a rate a second when none is;
//   - with a breaker, what it did (BreakerClause).
func Verdict(s backoff.Settings, f backoff.Figures) string {
	out := serviceClause(s, f) + "; " + clientsClause(s, f) + "; " + peakClause(s, f)
	if s.Breaker.On() {
		out += "; " + BreakerClause(s, f)
	}
	return out + "."
}

// serviceClause is whether the service recovers and when.
func serviceClause(s backoff.Settings, f backoff.Figures) string {
	back := Human(s.Outage)
	switch {
	case f.StillOverloaded || f.RecoveredAfter < 0:
		return "The service is still overloaded when the fresh load stops at " + Human(s.LoadEnd())
	case s.Capacity <= 0 && !s.HasQueue():
		return "With no limit on capacity, the service serves every attempt from the moment it is back, at " + back
	case f.RecoveredAfter == 0:
		return "The service is stable from the moment it is back, at " + back
	}
	return "The service recovers " + Human(f.RecoveredAfter) + " after it is back, at " + Human(f.StableFrom)
}

// clientsClause is the share of clients that never gets through, and why:
// a share of the clients the outage touched, which where it touched fewer
// than all says so.
func clientsClause(s backoff.Settings, f backoff.Figures) string {
	all, touched := f.Clients, Touched(f)
	var out string
	switch {
	case f.NotThrough == 0:
		out = everyOne(all) + " gets through"
		if f.CrowdAllThroughBy >= 0 {
			last := "the last "
			switch {
			case all == 1:
				last = ""
			case s.Load > 0:
				last = "the crowd's last "
			}
			out += ", " + last + "at " + Human(f.CrowdAllThroughBy)
		}
	case f.NotThrough == touched && touched == all:
		out = "none of the " + clientsOf(all) + " gets through (100%): " + reasons(s, f)
		if all == 1 {
			out = "the 1 client never gets through (100%): " + reasons(s, f)
		}
	case f.NotThrough == touched:
		out = "none of " + TouchedWords(f) + " gets through (100%), of " + clientsOf(all) + " in all: " + reasons(s, f)
	case touched == all:
		out = Count(f.NotThrough) + " of " + clientsOf(all) + " (" + Percent(f.NotThrough, all) + ") never get through: " + reasons(s, f)
	default:
		out = Count(f.NotThrough) + " of " + TouchedWords(f) + " (" + Percent(f.NotThrough, touched) + ") never get through: " + reasons(s, f)
	}
	if f.NotThrough > 0 && s.Load > 0 && f.CrowdAllThroughBy < 0 {
		out += ", the whole crowd of " + Count(s.Clients) + " among them"
	}
	if f.TimedOut > 0 {
		out += " (" + attempts(f.TimedOut) + " timed out waiting in the queue)"
	}
	return out
}

// everyOne is "every one of the 200 clients", or "the 1 client".
func everyOne(n int) string {
	if n == 1 {
		return "the 1 client"
	}
	return "every one of the " + clientsOf(n)
}

func clientsOf(n int) string {
	if n == 1 {
		return "1 client"
	}
	return Count(n) + " clients"
}

func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return Count(n) + " attempts"
}

// reasons says how the clients not through ended: "all 170 gave up", or
// "120 gave up, 50 throttled by the budget". A client that gave up when
// nothing was rejected, timed out or short-circuited failed only while the
// service was down, so it gave up before the service was back, unless the
// outage hangs: a hang's failure, and the giving up, may come after.
func reasons(s backoff.Settings, f backoff.Figures) string {
	gaveUp := "gave up"
	if f.Rejected == 0 && f.TimedOut == 0 && f.ShortCircuited == 0 && s.OutageHang == 0 {
		gaveUp = "gave up before the service was back"
	}
	var parts []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+one)
		case n > 1:
			parts = append(parts, Count(n)+" "+many)
		}
	}
	add(f.GaveUp, gaveUp, gaveUp)
	if f.Throttled > 0 {
		bucket := " by the budget (" + SharedBucket(s, f.Clients) + ")"
		add(f.Throttled, "was throttled"+bucket, "were throttled"+bucket)
	}
	add(f.OutOfTime, "ran out of time", "ran out of time")
	if len(parts) == 1 && f.NotThrough > 1 {
		return "all " + parts[0]
	}
	return And(parts)
}

// SharedBucket says who shares each budget's bucket, of clients in all:
// the crowd's clients (the settings', at most clients) and the fresh
// requests, each a client of its own, told apart: "50,000 clients and
// 135,000 fresh requests share one bucket", "up to 3 clients and fresh
// requests share each of 100 buckets", "each client has its own budget"
// (a process per client, or as many processes as clients). Only the
// processes that hold a client have a bucket to share.
func SharedBucket(s backoff.Settings, clients int) string {
	crowd := min(s.Clients, clients)
	fresh := clients - crowd
	p := min(s.ProcessCount(), max(clients, 1))
	switch {
	case clients == 1:
		return "1 client has the bucket"
	case p == 1 && fresh == 0:
		return clientsOf(clients) + " share one bucket"
	case p == 1:
		return clientsOf(crowd) + " and " + freshRequests(fresh) + " share one bucket"
	case p == clients && fresh == 0:
		return "each client has its own budget"
	case p == clients:
		return "each client has its own budget, and so does each fresh request"
	}
	each := (clients + p - 1) / p
	up := ""
	if clients%p != 0 {
		up = "up to "
	}
	who := clientsOf(each)
	if fresh > 0 {
		who = Count(each) + " clients and fresh requests"
	}
	return up + who + " share each of " + Count(p) + " buckets"
}

// freshRequests is "1 fresh request" or "135,000 fresh requests".
func freshRequests(n int) string {
	if n == 1 {
		return "1 fresh request"
	}
	return Count(n) + " fresh requests"
}

// peakClause is the peak after back against the capacity.
func peakClause(s backoff.Settings, f backoff.Figures) string {
	switch {
	case f.PeakAfterBack == 0:
		return "no attempt arrives once it is back"
	case f.SlotCapacity > 0:
		return fmt.Sprintf("its peak after back is %s capacity (%s in a %s slot that serves %s)",
			Times(f.PeakAfterBack, f.SlotCapacity), attempts(f.PeakAfterBack), Human(s.Slot), Count(f.SlotCapacity))
	}
	return fmt.Sprintf("its peak after back is %s in a %s slot (%s)", attempts(f.PeakAfterBack), Human(s.Slot), Rate(f.PeakAfterBack, s.Slot))
}

// A Ranked policy is its place in the run's ranking: policies that tie on
// every figure the ranking weighs share a rank, and the next rank skips
// as many (1, 2, 2, 4).
type Ranked struct {
	Index int // the policy's place in the run
	Rank  int // from 1
}

// rankKeys are what the ranking weighs, in order: whether the service is
// still overloaded when the fresh load stops (a service that does not
// recover does not survive, whatever else), the clients not through, when
// the service recovers, the peak after back, the crowd's last success
// (when it is all through, where none is lost), and the retries; lower is
// better in each. A time that does not
// exist ranks after every time.
func rankKeys(f backoff.Figures) [6]int64 {
	absent := func(v int) int64 {
		if v < 0 {
			return 1 << 62
		}
		return int64(v)
	}
	overloaded := int64(0)
	if f.StillOverloaded {
		overloaded = 1
	}
	return [6]int64{overloaded, int64(f.NotThrough), absent(f.RecoveredAfter), int64(f.PeakAfterBack), absent(f.CrowdAllThroughBy), int64(f.Retries)}
}

// RankingWeighs says in words what the ranking weighs, in its order.
const RankingWeighs = "a service that recovers first, then by clients not through, when it recovers, the peak after back, the crowd's last success, the retries"

// Rank orders the run's results by rankKeys, ties in the run's order.
func Rank(rs []backoff.Result) []Ranked {
	order := make([]Ranked, len(rs))
	for i := range rs {
		order[i] = Ranked{Index: i}
	}
	less := func(a, b int) bool {
		ka, kb := rankKeys(rs[a].Figures), rankKeys(rs[b].Figures)
		for k := range ka {
			if ka[k] != kb[k] {
				return ka[k] < kb[k]
			}
		}
		return false
	}
	// Insertion sort: stable, and a run has a handful of policies.
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && less(order[j].Index, order[j-1].Index); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for i := range order {
		order[i].Rank = i + 1
		if i > 0 && !less(order[i-1].Index, order[i].Index) {
			order[i].Rank = order[i-1].Rank
		}
	}
	return order
}

// Evidence is what a choice rests on beyond the run's one seed: the
// spread of the run's policies over seeds, in their order, when it has
// landed; and the service's remedies, tried or to try, for when no policy
// shown is good for the service.
type Evidence struct {
	Spread   *backoff.SeedsCrowd
	Remedies []Remedy
	Trying   bool // the remedies are running: their figures are on their way
}

// RankingLine is the run's ranking and the policy to choose, and why, in
// one line: "Ranking for this run (...): 1 equal jitter; 2 exponential,
// custom (tied); ... Choose equal jitter: ...".
func RankingLine(s backoff.Settings, rs []backoff.Result, ev Evidence) string {
	ranking, choice := RankingAndChoice(s, rs, ev)
	if ranking == "" {
		return ""
	}
	return ranking + " " + choice
}

// RankingAndChoice are the run's ranking, a sentence ("Ranking for this
// run (...): 1 equal jitter; 2 exponential, custom (tied); ..."), and the
// policy to choose and why, another ("Choose equal jitter: ..."), from one
// ranking of the run; both "" for no results.
func RankingAndChoice(s backoff.Settings, rs []backoff.Result, ev Evidence) (ranking, choice string) {
	if len(rs) == 0 {
		return "", ""
	}
	order := Rank(rs)
	var groups []string
	for i := 0; i < len(order); {
		j := i
		var names []string
		for ; j < len(order) && order[j].Rank == order[i].Rank; j++ {
			names = append(names, rs[order[j].Index].Policy.Name)
		}
		g := strconv.Itoa(order[i].Rank) + " " + strings.Join(names, ", ")
		if len(names) > 1 {
			g += " (tied)"
		}
		groups = append(groups, g)
		i = j
	}
	return "Ranking for this run (" + RankingWeighs + "): " + strings.Join(groups, "; ") + ".", Choice(s, rs, order, ev) + "."
}

// Chosen is the run's policy to choose, by its place in the run: the
// first of the ranking that is good for the service (Failure), unless the
// next one ranks as high, or close enough that the seeds may not tell
// them apart; ok is false when none is chosen.
func Chosen(s backoff.Settings, rs []backoff.Result, order []Ranked, ev Evidence) (index int, ok bool) {
	d := decide(s, rs, order, ev)
	return d.chosen, d.chosen >= 0 && d.noise == "" && !d.allTie
}

// decision is what Choice says, before it says it.
type decision struct {
	chosen int    // the policy chosen, its place in the run; -1 for none
	at     int    // its place in the ranking
	next   int    // the first that ranks after it, its place in the run; -1 for none
	tied   []int  // those that rank as it does, in the run
	allTie bool   // every policy ties: none does better
	noise  string // why chosen and rival may differ by chance alone; "" if not
	rival  int    // the good policy ranked next, where noise says so
}

// decide picks the policy to choose (see Chosen).
func decide(s backoff.Settings, rs []backoff.Result, order []Ranked, ev Evidence) decision {
	d := decision{chosen: -1, next: -1, rival: -1}
	for i, r := range order {
		if FailureOver(s, rs, r.Index, ev.Spread) == "" {
			d.chosen, d.at = r.Index, i
			break
		}
	}
	if d.chosen < 0 {
		return d
	}
	for _, r := range order[d.at+1:] {
		if r.Rank == order[d.at].Rank {
			d.tied = append(d.tied, r.Index)
			continue
		}
		d.next = r.Index
		break
	}
	d.allTie = d.next < 0 && d.at == 0 && len(d.tied) == len(order)-1
	// Chance matters only against another policy that could be chosen: a
	// good one, ranked next of those that are.
	for _, r := range order[d.at+1:] {
		if r.Rank != order[d.at].Rank && FailureOver(s, rs, r.Index, ev.Spread) == "" {
			d.noise = noise(s, rs, d.chosen, r.Index, ev)
			if d.noise != "" {
				d.rival = r.Index
			}
			break
		}
	}
	return d
}

// The figures the ranking weighs, by rankKeys' place, for saying which
// decided: their JSON names.
var rankFigures = [6]string{"", "not_through", "recovered_after_ms", "peak_after_back", "crowd_all_through_by_ms", "retries"}

// decidingKey is the first of rankKeys on which a and b differ; 6 if none.
func decidingKey(a, b backoff.Figures) int {
	ka, kb := rankKeys(a), rankKeys(b)
	for k := range ka {
		if ka[k] != kb[k] {
			return k
		}
	}
	return len(ka)
}

// noise says why the figure that ranks policy a above b may do so by
// chance, "" where it does not. Over seeds (ev.Spread): their medians of
// it differ by no more than either's 95th percentile from its median.
// On one seed, where a policy draws its waits (a jitter): two counts
// (clients, attempts) closer than three times the root of their sum, as a
// count that chance makes varies by about its root ((a-b)^2 < 9(a+b): 36
// against 65 is chance, 35 against 65 not), or two times closer than a
// tenth of the later (91 ms against 100 ms is chance, 90 not). Whether
// the service recovers at all is no matter of degree, and policies that
// draw nothing give every seed the same figures.
func noise(s backoff.Settings, rs []backoff.Result, a, b int, ev Evidence) string {
	k := decidingKey(rs[a].Figures, rs[b].Figures)
	if k == 0 || k >= len(rankFigures) {
		return ""
	}
	ff, _ := backoff.FindField(rankFigures[k])
	lost := rs[a].Figures.NotThrough > 0 || rs[b].Figures.NotThrough > 0
	// pair is the two values in words: "36 clients not through against
	// 65", "a peak after back of 6 against 14".
	pair := func(x, y int) string {
		switch ff.Name {
		case "not_through":
			return Count(x) + " clients not through against " + Count(y)
		case "retries":
			return Count(x) + " retries against " + Count(y)
		case "peak_after_back":
			return "a peak after back of " + Count(x) + " against " + Count(y)
		case "recovered_after_ms":
			return "a recovery " + Human(x) + " after the service is back against " + Human(y)
		}
		return FigureLabel(ff, lost) + " " + Human(x) + " against " + Human(y)
	}
	an, bn := rs[a].Policy.Name, rs[b].Policy.Name
	if sp := ev.Spread; sp != nil && len(sp.Policies) == len(rs) && sp.Policies[a].Policy.Name == an && sp.Policies[b].Policy.Name == bn {
		x, y := sp.Policies[a].Spread(ff.Name), sp.Policies[b].Spread(ff.Name)
		if x.Median < 0 || y.Median < 0 || x.P95 < 0 || y.P95 < 0 {
			return ""
		}
		abs := func(v int) int64 { return max(int64(v), -int64(v)) }
		if abs(x.Median-y.Median) > max(abs(x.P95-x.Median), abs(y.P95-y.Median)) {
			return ""
		}
		return fmt.Sprintf("over the %s seeds, at the median %s lie closer than the seeds spread them (at the 95th percentile %s)",
			Count(sp.Count), pair(x.Median, y.Median), pair(x.P95, y.P95))
	}
	if !rs[a].Policy.Jitter.Draws() && !rs[b].Policy.Jitter.Draws() {
		return ""
	}
	x, y := ff.Get(rs[a].Figures), ff.Get(rs[b].Figures)
	d := int64(max(x, y) - min(x, y))
	switch {
	case x < 0 || y < 0:
		return ""
	case ff.Time && d*10 >= int64(max(x, y)):
		return ""
	case !ff.Time && d*d >= 9*(int64(x)+int64(y)):
		return ""
	}
	return fmt.Sprintf("on seed %d alone, %s may be chance, which another seed's draws can turn round: --seeds 20 shows whether it holds",
		s.Seed, pair(x, y))
}

// Choice says which policy to choose and why: the first of the ranking
// that is good for the service (Failure), against the first that ranks
// after it, by the first figure the ranking weighs on which they differ;
// and, where a policy ranked lower for leaving the service overloaded
// leaves fewer clients not through, that too. It chooses none, and says
// why, where every policy ties, where the two differ by no more than the
// seeds may (noise), and where no policy is good for the service, then
// with the way out (the service's remedies, advise).
func Choice(s backoff.Settings, rs []backoff.Result, order []Ranked, ev Evidence) string {
	d := decide(s, rs, order, ev)
	first := rs[order[0].Index]
	switch {
	case d.chosen < 0 && len(order) == 1:
		return "Only " + first.Policy.Name + " ran, and it is no good for your service: " + FailureOver(s, rs, order[0].Index, ev.Spread) + "; " + wayOut(s, first.Policy.Name, ev)
	case d.chosen < 0:
		return noChoice(s, rs, order, ev) + "; " + wayOut(s, first.Policy.Name, ev)
	case len(order) == 1:
		return "Only " + first.Policy.Name + " ran"
	case d.allTie:
		// A tie of all: the policy does not decide this run. Say what
		// does when a budget throttles clients.
		out := "No policy does better than another here: they tie on every figure the ranking weighs"
		if g := first.Figures; g.Throttled > 0 {
			out += "; whatever the policy, the budget throttles " + countOfTouched(g.Throttled, g)
		}
		return out
	}
	chosen := rs[d.chosen]
	name, g := chosen.Policy.Name, chosen.Figures
	if d.noise != "" {
		return "Choose " + name + " or " + rs[d.rival].Policy.Name + ": " + d.noise + above(s, rs, order, d, ev)
	}
	if d.next < 0 {
		// Those above it are no good, and the rest tie with it.
		return "Choose " + name + orAsWell(rs, d.tied) + above(s, rs, order, d, ev)
	}
	o, on := rs[d.next].Figures, rs[d.next].Policy.Name
	out := "Choose " + name + orAsWell(rs, d.tied)
	as := fmt.Sprintf("as few clients not through as %s (%s)", on, noneOr(g))
	var why string
	switch ka, kb := rankKeys(g), rankKeys(o); {
	case ka[0] != kb[0]:
		why = fmt.Sprintf("with it the service recovers, %s after it is back, where with %s it is still overloaded when the load stops", Human(g.RecoveredAfter), on)
	case ka[1] != kb[1] && g.NotThrough == 0:
		why = fmt.Sprintf("every client gets through, where %s leaves %s not through", on, NotThroughOf(o))
	case ka[1] != kb[1]:
		why = fmt.Sprintf("it leaves fewer clients not through than %s, %s against %s", on, NotThroughOf(g), NotThroughOf(o))
	case ka[2] != kb[2]:
		why = fmt.Sprintf("%s, and the service recovers sooner, %s after it is back against %s", as, Human(g.RecoveredAfter), Human(o.RecoveredAfter))
	case ka[3] != kb[3]:
		why = fmt.Sprintf("%s, and a lower peak after back, %s against %s in a %s slot", as, Count(g.PeakAfterBack), Count(o.PeakAfterBack), Human(s.Slot))
	case ka[4] != kb[4] && o.CrowdAllThroughBy < 0 && g.NotThrough > 0:
		why = fmt.Sprintf("%s, and the crowd's last success at %s, where with %s none of the crowd gets through", as, Human(g.CrowdAllThroughBy), on)
	case ka[4] != kb[4] && o.CrowdAllThroughBy < 0:
		why = fmt.Sprintf("%s, and the crowd all through by %s, where with %s none of the crowd gets through", as, Human(g.CrowdAllThroughBy), on)
	case ka[4] != kb[4] && g.NotThrough > 0:
		// Both leave clients not through: the crowd is not all through.
		why = fmt.Sprintf("%s, and the crowd's last success sooner, at %s against %s", as, Human(g.CrowdAllThroughBy), Human(o.CrowdAllThroughBy))
	case ka[4] != kb[4]:
		why = fmt.Sprintf("%s, and the crowd all through sooner, by %s against %s", as, Human(g.CrowdAllThroughBy), Human(o.CrowdAllThroughBy))
	default:
		why = fmt.Sprintf("%s, and fewer retries, %s against %s", as, Count(g.Retries), Count(o.Retries))
	}
	// A policy ranked lower only for leaving the service overloaded may
	// leave fewer clients not through: say so, with the one that leaves
	// the fewest.
	fewest := -1
	for _, r := range order {
		f := rs[r.Index].Figures
		if f.StillOverloaded && f.NotThrough < g.NotThrough && (fewest < 0 || f.NotThrough < rs[fewest].Figures.NotThrough) {
			fewest = r.Index
		}
	}
	if fewest >= 0 {
		f := rs[fewest].Figures
		why += fmt.Sprintf("; %s leaves fewer not through, %s, but with it the service is still overloaded when the load stops",
			rs[fewest].Policy.Name, NotThroughOf(f))
	}
	// One seed's figures of policies that draw their waits are one draw:
	// say so, and how to see the rest.
	if ev.Spread == nil && (chosen.Policy.Jitter.Draws() || rs[d.next].Policy.Jitter.Draws()) {
		why += fmt.Sprintf(" (seed %d alone: --seeds 20 shows if it holds)", s.Seed)
	}
	return out + ": " + why + above(s, rs, order, d, ev)
}

// orAsWell names the policies tied with the chosen: " (or b, which does as
// well)"; "" for none.
func orAsWell(rs []backoff.Result, tied []int) string {
	if len(tied) == 0 {
		return ""
	}
	var names []string
	for _, i := range tied {
		names = append(names, rs[i].Policy.Name)
	}
	verb := "do"
	if len(names) == 1 {
		verb = "does"
	}
	return " (or " + Or(names) + ", which " + verb + " as well)"
}

// above says why the policies ranked above the chosen are not chosen:
// "; fixed ranks above it, but none of the crowd of 200 gets through";
// "" when the chosen ranks first.
func above(s backoff.Settings, rs []backoff.Result, order []Ranked, d decision, ev Evidence) string {
	if d.at == 0 {
		return ""
	}
	var parts []string
	for _, r := range order[:d.at] {
		parts = append(parts, rs[r.Index].Policy.Name+" ranks above it, but with it "+FailureOver(s, rs, r.Index, ev.Spread))
	}
	return "; " + strings.Join(parts, "; ")
}

// noChoice is the sentence where no policy is good for the service: with
// every one the service stays overloaded, or each loses most of its crowd
// or of the clients the outage touched, or leaves it overloaded, the first
// ranked's reason given.
func noChoice(s backoff.Settings, rs []backoff.Result, order []Ranked, ev Evidence) string {
	overloaded := 0
	for _, r := range rs {
		if r.Figures.StillOverloaded {
			overloaded++
		}
	}
	if overloaded == len(rs) {
		return "No policy here is good for your service: with every one the service is still overloaded when the fresh load stops"
	}
	first := rs[order[0].Index]
	out := "No policy here is good for your service: each leaves it overloaded or loses most of its clients, and with " +
		first.Policy.Name + ", which ranks first, " + FailureOver(s, rs, order[0].Index, ev.Spread)
	if g := first.Figures; g.Throttled > 0 {
		out += "; the budget throttles " + countOfTouched(g.Throttled, g)
	}
	return out
}

// noneOr is a count of clients not through for "as few as", inside
// brackets: "none of 200", or "19 of 200, 9.5%".
func noneOr(f backoff.Figures) string {
	if f.NotThrough == 0 {
		return "none of " + Count(f.Clients)
	}
	return Count(f.NotThrough) + " of " + TouchedWords(f) + ", " + Percent(f.NotThrough, Touched(f))
}

// SeedsVerdict is a policy's verdict over many seeds, figure by figure:
// each figure's median, 95th percentile and worst over the seeds. Each of
// these is a figure some seed gave, but not all from one seed, so the
// sentence speaks of each figure on its own rather than of one run. With
// a breaker it ends with what the breakers did (seedsBreakerClause).
func SeedsVerdict(s backoff.Settings, ps backoff.PolicySpread, seeds int) string {
	all := ps.Spread("clients").Median
	var service string
	switch rec := ps.Spread("recovered_after_ms"); {
	case s.Capacity <= 0 && !s.HasQueue():
		service = "With no limit on capacity, the service serves every attempt from the moment it is back, at " + Human(s.Outage)
	case ps.Overloaded == 0:
		service = "Recovered after: " + trio(rec, Human)
	default:
		service = fmt.Sprintf("Still overloaded when the fresh load stops in %s of %s seeds", Count(ps.Overloaded), Count(seeds))
		if rec.Median >= 0 {
			service += "; recovered after, the seeds still overloaded counted as the worst: " + trio(rec, Human)
		}
	}
	var clients string
	if nt := ps.Spread("not_through"); nt.Worst == 0 {
		clients = everyOne(all) + " gets through in every seed"
	} else {
		// The share is of the clients the outage touched; where that
		// varies over the seeds, of its median, as the words say.
		// Clients touched sorts from low to high: a worst of all is a
		// median of all only where every seed touched every client.
		touched := ps.Spread("clients_touched")
		of := "not through, of " + clientsOf(all)
		if touched.Median != all {
			of = "not through, of the " + clientsOf(touched.Median) + " the outage touched (their median over the seeds)"
		}
		clients = of + ": " + trio(nt, func(n int) string { return Count(n) + " (" + Percent(n, touched.Median) + ")" })
	}
	peak := ps.Spread("peak_after_back")
	load := "peak after back, in a " + Human(s.Slot) + " slot: " + trio(peak, attempts)
	if slot := ps.Spread("slot_capacity").Median; slot > 0 {
		load = "peak after back: " + trio(peak, func(v int) string {
			if v == 0 {
				return "no attempt"
			}
			return Times(v, slot) + " capacity"
		})
	}
	out := service + "; " + clients + "; " + load
	if s.Breaker.On() {
		out += "; " + seedsBreakerClause(s, ps)
	}
	return out + "."
}

// trio is a spread in words, each value once: "0 ms at the median and
// at worst" (the 95th percentile lies between them), "0 ms at the median
// and the 95th percentile, 3.1 s at worst". It leaves out the percentiles
// that land on a seed in which the figure does not exist (-1).
func trio(sp backoff.Spread, show func(int) string) string {
	m, p, w := sp.Median, sp.P95, sp.Worst
	switch {
	case m < 0:
		return "none"
	case p < 0:
		return show(m) + " at the median"
	case w < 0 && m == p:
		return show(m) + " at the median and the 95th percentile"
	case w < 0:
		return show(m) + " at the median, " + show(p) + " at the 95th percentile"
	case m == w:
		return show(m) + " at the median and at worst"
	case m == p:
		return show(m) + " at the median and the 95th percentile, " + show(w) + " at worst"
	case p == w:
		return show(m) + " at the median, " + show(p) + " at the 95th percentile and at worst"
	}
	return show(m) + " at the median, " + show(p) + " at the 95th percentile, " + show(w) + " at worst"
}

// The latest served attempt is all_through_by_ms (and the crowd's own,
// crowd_all_through_by_ms): "all through by" where every client got
// through, but where some never did it is only the last success, and "all
// through by 599,999 ms" would read as though everyone got through. A
// face names it by whether any client it shows was lost.

// LastSuccess is the face's name of all_through_by_ms: "all through by"
// where no client was lost, else "last success".
func LastSuccess(lost bool) string {
	if lost {
		return "last success"
	}
	return "all through by"
}

// CrowdLastSuccess is the face's name of crowd_all_through_by_ms: "crowd
// all through by" where no client was lost, else "crowd's last success".
func CrowdLastSuccess(lost bool) string {
	if lost {
		return "crowd's last success"
	}
	return "crowd all through by"
}

// FigureLabel is a figure's name on a face whose policies leave clients
// not through (lost) or not: the two latest served attempts as LastSuccess
// and CrowdLastSuccess name them, every other figure by its Label.
func FigureLabel(ff backoff.FigureField, lost bool) string {
	switch ff.Name {
	case "all_through_by_ms":
		return LastSuccess(lost)
	case "crowd_all_through_by_ms":
		return CrowdLastSuccess(lost)
	}
	return ff.Label
}

// AnyLost reports whether any of the results leaves a client not through.
func AnyLost(rs []backoff.Result) bool {
	for _, r := range rs {
		if r.Figures.NotThrough > 0 {
			return true
		}
	}
	return false
}
