package report

import (
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/plain"
	"github.com/retryplanner/retry-planner/views/words"
)

// The answer first: each policy's verdict (words.Verdict), the run's
// ranking, and the figures they rest on, right after --plain's lines.

// VerdictBlock is the verdicts, one line a policy, the ranking, then the
// clients not through with their share, and where they say something the
// reference's table cannot: when the crowd, not the fresh load, was all
// through, and when the service recovered. remedies are the service's
// own, tried on the first ranked policy, for when no policy is good for
// the service (words.Choice).
func VerdictBlock(s backoff.Settings, crowds []backoff.Result, remedies []words.Remedy) string {
	if len(crowds) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Will the service survive the retries? Each policy's verdict:\n")
	for _, c := range crowds {
		b.WriteString("  " + c.Policy.String() + ": " + words.Verdict(s, c.Figures) + "\n")
	}
	b.WriteString(words.RankingLine(s, crowds, words.Evidence{Remedies: remedies}) + "\n")
	head := []string{"policy", "not through"}
	about := []string{"not through: the clients that never got through (gave up, throttled or out of time), of the clients the outage touched " +
		"(clients_touched: those that start no later than the run's last failure; a later one meets nothing but success)"}
	lost := words.AnyLost(crowds)
	switch {
	case s.Load > 0 && lost:
		head = append(head, words.CrowdLastSuccess(lost))
		about = append(about, "crowd's last success: when the last client of the crowd, not of the fresh load, to get through did; "+
			"all through by, in the first table, is the last success of any client, when the load stops")
	case s.Load > 0:
		head = append(head, words.CrowdLastSuccess(lost))
		about = append(about, "crowd all through by: when the last client of the crowd, not of the fresh load, got through (all through by is when the load stops)")
	case lost:
		about = append(about, "all through by, in the first table, is the last success: the latest served attempt, though some clients never got through")
	}
	if s.HasService() {
		head = append(head, "recovered after")
		about = append(about, "recovered after: from the outage's end until the service is stable")
	}
	var rows [][]string
	for _, c := range crowds {
		f := c.Figures
		row := []string{c.Policy.String(), words.Share(f.NotThrough, words.Touched(f))}
		if s.Load > 0 {
			row = append(row, plain.ThroughBy(f.CrowdAllThroughBy))
		}
		if s.HasService() {
			recovered := "still overloaded"
			if f.RecoveredAfter >= 0 {
				recovered = plain.Millis(f.RecoveredAfter)
			}
			row = append(row, recovered)
		}
		rows = append(rows, row)
	}
	b.WriteString(textTable(head, rows))
	b.WriteString(upperFirst(strings.Join(about, "; ")) + ".\n")
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// rankingDoc is the ranking for the JSON: the line, the policy to choose
// (null when none is: every policy ties, the two first may differ by
// chance, or none is good for the service), and every policy's rank in
// order.
func rankingDoc(s backoff.Settings, crowds []backoff.Result, remedies []words.Remedy) any {
	if len(crowds) == 0 {
		return nil
	}
	ev := words.Evidence{Remedies: remedies}
	order := words.Rank(crowds)
	ranks := []object{}
	for _, r := range order {
		ranks = append(ranks, object{{"rank", r.Rank}, {"policy", crowds[r.Index].Policy.String()}})
	}
	var choose any
	if i, ok := words.Chosen(s, crowds, order, ev); ok {
		choose = crowds[i].Policy.String()
	}
	return object{{"line", words.RankingLine(s, crowds, ev)}, {"choose", choose}, {"order", ranks}}
}
