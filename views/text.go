// Package views turns the core's results into text: the plain menu's lines
// here, and the full-screen program's panes.
package views

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
)

// The plain menu's fixed lines and messages, as the reference writes them.
const (
	Title        = "== Retry planner =="
	Tagline      = "Waits between retries under five policies, a crowd coming back after an outage, and a job runner whose ledger checks itself."
	Menu         = "1) one client  2) the crowd  3) retries over time  4) jobs with a ledger  5) settings  6) quit"
	ChoicePrompt = "choice> "
	PickChoice   = "Pick a number from 1 to 6."
	Cancelled    = "Cancelled."
	Bye          = "Bye."
	JobsHelp     = "Jobs as name:failures, or name:fatal for a job that cannot be retried, such as alpha:0 bravo:2 charlie:9 delta:fatal."
	JobsPrompt   = "jobs> "
	JobsFormat   = "Type each job as name:number or name:fatal."
	JobsTooMany  = "Up to 8 jobs."
	LedgerCheck  = "Every attempt was counted once, and finally ran on each - after a return, after a raise, and after a failure alike."
)

// The plain menu's question for a policy, and its answer to a name that is
// not one; TestPolicyTextsNameEveryPolicy keeps them in step with the core.
const (
	PolicyPrompt = "policy (fixed, exponential, full jitter, equal jitter or decorrelated)> "
	PolicyError  = "Type fixed, exponential, full jitter, equal jitter or decorrelated."
)

// NumberPrompt asks for a number in [low, high]: "clients (1 to 1000)> ".
func NumberPrompt(label string, low, high int) string {
	return fmt.Sprintf("%s (%d to %d)> ", label, low, high)
}

// NumberError is the answer to a number outside [low, high].
func NumberError(low, high int) string {
	return fmt.Sprintf("Type a whole number from %d to %d.", low, high)
}

// JobsError is the answer to a line of jobs that ledger.Parse refused, or,
// in the full-screen program, ledger.CheckNames.
func JobsError(err error) string {
	var name *ledger.NameError
	switch {
	case errors.Is(err, ledger.ErrTooManyJobs):
		return JobsTooMany
	case errors.As(err, &name):
		return fmt.Sprintf("Job %s: a name cannot hold invisible or direction-changing characters (Unicode format characters), here %U.", strconv.Quote(name.Job.String()), name.Char)
	}
	return JobsFormat
}

// JobNamesTooLong is --plain's answer to a line of jobs that would run but
// whose names take more than kept bytes, more than it keeps of a line.
func JobNamesTooLong(kept int) string {
	return fmt.Sprintf("The jobs' names take more than %d bytes, more than are kept of a line; they did not run.", kept)
}

// SettingsText confirms new settings.
func SettingsText(s backoff.Settings) string {
	return fmt.Sprintf("First wait %d ms, longest %d ms, %d attempts, %d clients, outage %d ms, seed %d.\n",
		s.FirstWait, s.LongestWait, s.Attempts, s.Clients, s.Outage, s.Seed)
}

// ScheduleText is one client's schedule, every retry drawn, as the
// reference writes it.
func ScheduleText(sc backoff.Schedule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Client %d, %s: attempt 1 at 0 ms, then\n", sc.Client, sc.Policy)
	for _, r := range sc.Retries {
		fmt.Fprintf(&b, "  attempt %2d  after %6d ms, at %7d ms\n", r.Attempt, r.Wait, r.At)
	}
	fmt.Fprintf(&b, "In all %d ms before the last attempt.\n", sc.DrawnTotal())
	return b.String()
}

// CrowdIntro is the sentence before every crowd table, without its final
// punctuation: "200 clients fail at 0 ms; ... Retries counted per 100 ms".
func CrowdIntro(s backoff.Settings) string {
	return fmt.Sprintf("%d clients fail at 0 ms; the service is back at %d ms; each tries %d times at most. Retries counted per %d ms",
		s.Clients, s.Outage, s.Attempts, s.Slot)
}

// CrowdText is the crowd table of the policies and, for the reference's
// five, what it shows.
func CrowdText(s backoff.Settings, crowds []backoff.Result) string {
	var b strings.Builder
	b.WriteString(CrowdIntro(s) + ":\n")
	b.WriteString("  policy          retries   most in a slot   the slot from   all through by   gave up\n")
	for _, c := range crowds {
		f := c.Figures
		fmt.Fprintf(&b, "  %-14s%9d%17d%16s%17s%10d\n", c.Policy, f.Retries, f.MostInASlot, Millis(BusiestFrom(f, s.Slot)), LastThrough(f), f.GaveUp)
	}
	if !AreTheFive(s, crowds) {
		return b.String()
	}
	b.WriteString(CrowdExplained(crowds))
	b.WriteString("\n")
	if note, ok := CrowdGaveUpNote(crowds); ok {
		b.WriteString(note)
		b.WriteString("\n")
	}
	return b.String()
}

// AreTheFive reports whether the results are the reference's five shapes
// over the settings, in its order: the crowd's sentences speak of them.
func AreTheFive(s backoff.Settings, crowds []backoff.Result) bool {
	five := s.Five()
	if len(crowds) != len(five) {
		return false
	}
	for i, c := range crowds {
		if c.Policy != five[i] {
			return false
		}
	}
	return true
}

// BusiestFrom is where the busiest slot starts as the reference writes it:
// with no retries at all it has none, and the reference's slot -1 starts
// at minus a slot.
func BusiestFrom(f backoff.Figures, slot int) int {
	if f.BusiestSlotFrom < 0 {
		return -slot
	}
	return f.BusiestSlotFrom
}

// Millis writes a time as the reference does: "400 ms".
func Millis(ms int) string {
	return fmt.Sprintf("%d ms", ms)
}

// LastThrough is the crowd's "all through by" figure: a time, or "-" when no
// client got through.
func LastThrough(f backoff.Figures) string {
	return throughBy(f.AllThroughBy)
}

// throughBy writes an "all through by" time, -1 (no client through) as "-".
func throughBy(ms int) string {
	if ms < 0 {
		return "-"
	}
	return Millis(ms)
}

// CrowdExplained is the reference's first sentence under the crowd table
// of the five (see AreTheFive).
func CrowdExplained(crowds []backoff.Result) string {
	top := func(sh backoff.Shape) int { return crowds[sh].Figures.MostInASlot }
	return fmt.Sprintf("Fixed and exponential waits are the same for every client, so each round of retries lands in a single slot. "+
		"A wait that depends on the client spreads each round over the whole wait, which lowers the busiest slot only when the waits are long against the slot: "+
		"here %d, %d and %d against %d.",
		top(backoff.FullJitter), top(backoff.EqualJitter), top(backoff.Decorrelated), top(backoff.Exponential))
}

// CrowdGaveUpNote is the reference's second sentence under the crowd table;
// it applies only when full or equal jitter left more clients giving up than
// exponential waits did.
func CrowdGaveUpNote(crowds []backoff.Result) (string, bool) {
	gave := func(sh backoff.Shape) int { return crowds[sh].Figures.GaveUp }
	full, equal, expo := gave(backoff.FullJitter), gave(backoff.EqualJitter), gave(backoff.Exponential)
	if full <= expo && equal <= expo {
		return "", false
	}
	return fmt.Sprintf("Full and equal jitter wait on average about a half and three quarters of the exponential wait, "+
		"so with the same attempts %d and %d clients gave up, against %d with exponential waits.", full, equal, expo), true
}

// HashScale is how many retries one # stands for, so that the busiest slot
// takes at most 40 of them.
func HashScale(most int) int {
	return max(1, (most+39)/40)
}

// HistogramText is the retries of a crowd per slot as rows of #, one row per
// non-empty slot; the reference uses 1000 ms slots, "in each second". The
// result must hold its series.
func HistogramText(c backoff.Result) string {
	scale := HashScale(c.Figures.MostInASlot)
	each := "second"
	if c.Series.Slot != 1000 {
		each = Millis(c.Series.Slot)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: retries in each %s, # for every %d:\n", c.Policy, each, scale)
	for i, n := range c.Series.Retries {
		if n > 0 {
			fmt.Fprintf(&b, "  %7d ms %5d  %s\n", i*c.Series.Slot, n, strings.Repeat("#", (n+scale-1)/scale))
		}
	}
	return b.String()
}

// JobsText is a run of jobs: each job's result, the ledger, its counts and
// its self-check.
func JobsText(r ledger.Report) string {
	var b strings.Builder
	for _, res := range r.Results {
		fmt.Fprintf(&b, "  %s\n", res)
	}
	b.WriteString("Ledger:\n")
	for _, e := range r.Ledger.Entries {
		fmt.Fprintf(&b, "  %s\n", e)
	}
	b.WriteString(LedgerCounts(r))
	b.WriteString("\n")
	if r.Ledger.Balanced() {
		b.WriteString(LedgerCheck)
		b.WriteString("\n")
	}
	return b.String()
}

// LedgerCounts is the ledger's counts and the jobs' outcomes, two sentences
// on two lines.
func LedgerCounts(r ledger.Report) string {
	l := r.Ledger
	return fmt.Sprintf("Attempts %d: %d done, %d failed. The finally block ran %d times. Waited %d ms in all.\nJobs done, given up, refused: %d, %d, %d.",
		l.Attempts, l.Successes, l.Failures, l.FinallyRuns, l.Waited, r.Done, r.GaveUp, r.Refused)
}

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
	fmt.Fprintf(&b, "%s: %s; %s.\n", sc.Policy.Name, sc.Policy.Describe(), Formula(sc.Policy))
	if jittered {
		b.WriteString("The band is the lowest and the highest wait the policy can draw before that attempt.\n")
	}
	if s.HasService() {
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
	b.WriteString(JobsText(r))
	if r.OutOfTime > 0 {
		fmt.Fprintf(&b, "Jobs out of time: %d: the policy's limit on total time, %d ms, came before their attempts ran out.\n", r.OutOfTime, p.MaxElapsed)
	}
	fmt.Fprintf(&b, "Waits: %s, %s; job i waits as the crowd's client i.\n", p.Name, p.Describe())
	if s.HasService() {
		b.WriteString("The jobs fail as they are told to: the capacity, the fresh load and the budget act on a crowd (crowd, timeline).\n")
	}
	b.WriteString(CutShortNote(s, []backoff.Policy{p}))
	b.WriteString(DrawsLine(s))
	return b.String()
}
