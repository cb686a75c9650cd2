package report

import (
	"fmt"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
	"github.com/retryplanner/retry-planner/views/plain"
	"github.com/retryplanner/retry-planner/views/words"
)

// The reports' text beyond the reference's: each report starts with the
// reference's lines where the reference has them, byte for byte, and adds
// its own after them (the schedule adds to the end of its lines as well).

// textTable is a table two spaces in: the first column left-aligned, the
// others right-aligned, each as wide as its widest cell and three spaces
// apart.
func textTable(head []string, rows [][]string) string { return textGrid(head, rows, true) }

// timeTable is textTable with the first column, a time, right-aligned too.
func timeTable(head []string, rows [][]string) string { return textGrid(head, rows, false) }

func textGrid(head []string, rows [][]string, leftFirst bool) string {
	widths := make([]int, len(head))
	for _, r := range append([][]string{head}, rows...) {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], len(c))
			}
		}
	}
	if leftFirst {
		widths[0] = max(widths[0], 14) // as wide as the reference's policy column
	}
	var b strings.Builder
	for _, r := range append([][]string{head}, rows...) {
		b.WriteString("  ")
		for i, c := range r {
			if i >= len(widths) {
				break
			}
			switch {
			case i == 0 && leftFirst:
				fmt.Fprintf(&b, "%-*s", widths[0], c)
				continue
			case i == 0:
				fmt.Fprintf(&b, "%*s", widths[0], c)
				continue
			}
			fmt.Fprintf(&b, "   %*s", widths[i], c)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// DrawsLine says which draws a report's figures use, and how to switch.
func DrawsLine(s backoff.Settings) string {
	if s.Draws == backoff.Independent {
		return "Draws: independent (each client its own generator, math/rand/v2's PCG; --draws reference for the original program's).\n"
	}
	return "Draws: reference (the original program's generator; --draws independent for clients that draw independently).\n"
}

// SeedsDrawsLine is DrawsLine for the crowd over many seeds, whose draws
// are independent unless --seed-draws reference (or --draws reference
// without --seed-draws, or a plan) asks for the reference's.
func SeedsDrawsLine(s backoff.Settings) string {
	if s.Draws == backoff.Independent {
		return "Draws: independent (each client its own generator, math/rand/v2's PCG), as the spread over seeds uses unless --seed-draws reference is given.\n"
	}
	return "Draws: reference (the original program's generator), as asked; without --seed-draws reference (or --draws reference) the spread over seeds uses independent draws.\n"
}

// CutShortNote says, with reference draws, which policies' bands are wider
// than the draws reach, from which attempt on, and how to switch; "" when
// none is.
func CutShortNote(s backoff.Settings, ps []backoff.Policy) string {
	if s.Draws != backoff.Reference {
		return ""
	}
	var cut []string
	for _, p := range ps {
		if k := p.CutShort(); k > 0 {
			cut = append(cut, fmt.Sprintf("%s's from attempt %d on (its bands reach %d ms)", p.Name, k+1, p.LongestDraw()))
		}
	}
	if len(cut) == 0 {
		return ""
	}
	return fmt.Sprintf("Reference draws cut some waits short: %s. A reference draw never lands more than %d ms above its band's low end, "+
		"so those waits are shorter than the policy means; --draws independent draws from the whole band.\n",
		strings.Join(cut, "; "), backoff.ReferenceReach-1)
}

// maxNeverLines is the most retries never made that the schedule's text
// lists one by one: more than the reference's 12 attempts can leave, so
// that its lines stay as they are.
const maxNeverLines = 10

// ScheduleReport is the schedule report's text: the reference's lines, each
// retry with its band (for a jittered policy) and its outcome after them,
// then how the client ends, the time before the last attempt it made, the
// policy's formula and the draws.
func ScheduleReport(s backoff.Settings, sc backoff.Schedule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Client %d, %s: attempt 1 at 0 ms, then\n", sc.Client, sc.Policy)
	jittered := sc.Policy.Jitter.Draws()
	lowWidth, highWidth := 1, 1
	for _, r := range sc.Retries {
		lowWidth, highWidth = max(lowWidth, len(itoa(r.Low))), max(highWidth, len(itoa(r.High)))
	}
	anyCut := false
	never := 0 // retries never made: not needed, or past the limit
	for _, r := range sc.Retries {
		if r.Outcome == backoff.NotNeeded || r.Outcome == backoff.PastLimit {
			never++
		}
	}
	collapse, seen := never > maxNeverLines, 0
	for _, r := range sc.Retries {
		if r.Outcome == backoff.NotNeeded || r.Outcome == backoff.PastLimit {
			if seen++; collapse && seen > 1 {
				continue
			}
		}
		fmt.Fprintf(&b, "  attempt %2d  after %6d ms, at %7d ms", r.Attempt, r.Wait, r.At)
		if jittered {
			mark := " "
			if r.Cut {
				mark, anyCut = "*", true
			}
			fmt.Fprintf(&b, "   band %*d to %*d ms%s", lowWidth, r.Low, highWidth, r.High, mark)
		}
		fmt.Fprintf(&b, "  %s\n", r.Outcome)
	}
	if collapse {
		last := sc.Retries[len(sc.Retries)-1]
		fmt.Fprintf(&b, "  ... %s: %s too (CSV and JSON list each)\n", attemptRange(last.Attempt-never+2, last.Attempt), last.Outcome)
	}
	b.WriteString(scheduleEnd(s, sc) + "\n")
	if sc.Made <= 1 {
		b.WriteString("It made one attempt, at 0 ms.\n")
	} else {
		fmt.Fprintf(&b, "In all %d ms before the last attempt it made.\n", sc.Total)
	}
	fmt.Fprintf(&b, "%s: %s; %s.\n", sc.Policy.Name, sc.Policy.Describe(), words.Formula(sc.Policy))
	if jittered {
		b.WriteString("The band is the lowest and the highest wait the policy can draw before that attempt.\n")
	}
	switch {
	case s.HasQueue():
		b.WriteString("This is the client against the outage alone: the capacity, the queue, the fresh load and the budget act on a crowd (crowd, timeline).\n")
	case s.HasService():
		b.WriteString("This is the client against the outage alone: the capacity, the fresh load and the budget act on a crowd (crowd, timeline).\n")
	}
	if anyCut {
		fmt.Fprintf(&b, "* Reference draws cut this band short: no draw lands more than %d ms above the band's low end, so those waits are shorter than the policy means; --draws independent draws from the whole band.\n",
			backoff.ReferenceReach-1)
	}
	b.WriteString(DrawsLine(s))
	return b.String()
}

// scheduleEnd is how the client's schedule ends, in one sentence.
func scheduleEnd(s backoff.Settings, sc backoff.Schedule) string {
	var skipped []int
	for _, r := range sc.Retries {
		if r.Outcome == backoff.NotNeeded || r.Outcome == backoff.PastLimit {
			skipped = append(skipped, r.Attempt)
		}
	}
	rest := ""
	switch len(skipped) {
	case 0:
	case 1:
		rest = attemptRange(skipped[0], skipped[0]) + " is"
	default:
		rest = attemptRange(skipped[0], skipped[len(skipped)-1]) + " are"
	}
	switch sc.End {
	case backoff.EndThrough:
		r, _ := sc.ThroughAt()
		line := fmt.Sprintf("Gets through at attempt %d, at %d ms (the service is back at %d ms)", r.Attempt, r.At, s.Outage)
		if rest != "" {
			line += "; " + rest + " not needed"
		}
		return line + "."
	case backoff.EndOutOfTime:
		var next backoff.Retry
		for _, r := range sc.Retries {
			if r.Outcome == backoff.PastLimit {
				next = r
				break
			}
		}
		line := fmt.Sprintf("Out of time after %d attempts: attempt %d would come at %d ms, more than %d ms (the limit on total time) after the first, so it is not made",
			sc.Made, next.Attempt, next.At, sc.Policy.MaxElapsed)
		if len(skipped) > 1 {
			line += ", nor are " + attemptRange(skipped[1], skipped[len(skipped)-1])
		}
		return line + "."
	}
	return fmt.Sprintf("Gives up after %d attempts: the last, at %d ms, comes before the service is back at %d ms.", sc.Made, sc.Total, s.Outage)
}

// attemptRange is attempts first to last in words: "attempt 6", "attempts
// 6 and 7", "attempts 6 to 12".
func attemptRange(first, last int) string {
	switch last {
	case first:
		return fmt.Sprintf("attempt %d", first)
	case first + 1:
		return fmt.Sprintf("attempts %d and %d", first, last)
	}
	return fmt.Sprintf("attempts %d to %d", first, last)
}

// JobsReport is the jobs report's text: the reference's lines, then the
// jobs the limit on total time stopped, the policy and the draws.
func JobsReport(s backoff.Settings, p backoff.Policy, r ledger.Report) string {
	var b strings.Builder
	b.WriteString(plain.JobsText(r))
	if r.OutOfTime > 0 {
		fmt.Fprintf(&b, "Jobs out of time: %d: the policy's limit on total time, %d ms, came before their attempts ran out.\n", r.OutOfTime, p.MaxElapsed)
	}
	fmt.Fprintf(&b, "Waits: %s, %s; job i waits as the crowd's client i.\n", p.Name, p.Describe())
	switch {
	case s.HasQueue():
		b.WriteString("The jobs fail as they are told to: the capacity, the queue, the fresh load and the budget act on a crowd (crowd, timeline).\n")
	case s.HasService():
		b.WriteString("The jobs fail as they are told to: the capacity, the fresh load and the budget act on a crowd (crowd, timeline).\n")
	}
	b.WriteString(CutShortNote(s, []backoff.Policy{p}))
	b.WriteString(DrawsLine(s))
	return b.String()
}
