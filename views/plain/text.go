// Package plain writes the original program's screens, byte for byte: the
// line menu's prompts, answers and tables that --plain prints, and that
// every text report starts with.
package plain

import (
	"errors"
	"fmt"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
	"github.com/retryplanner/retry-planner/ledger/glyph"
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
		return fmt.Sprintf("Job %s: a name cannot hold a character that does not show as itself (invisible, blank or direction-changing), here %U.", glyph.Quote(name.Job.String()), name.Char)
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
func CrowdIntro(s backoff.Settings) string { return CrowdIntroOf(s, nil) }

// CrowdIntroOf is CrowdIntro for a crowd under policies ps: the
// reference's sentence, byte for byte, when every policy tries the
// settings' attempts (always so in --plain); else it says each policy's
// attempts where they differ (see TriesAtMost).
func CrowdIntroOf(s backoff.Settings, ps []backoff.Policy) string {
	return fmt.Sprintf("%d clients fail at 0 ms; the service is back at %d ms; %s. Retries counted per %d ms",
		s.Clients, s.Outage, TriesAtMost(s.Attempts, ps), s.Slot)
}

// TriesAtMost says how many times a client of each policy tries at most:
// "each tries 6 times at most", the reference's words, when every policy
// tries attempts, or all of them tries the same; "each tries 6 times at
// most, but grpc 5 and aws 3" when some policies try attempts and others
// not; "grpc tries 5 times at most, aws 3" when none tries attempts.
func TriesAtMost(attempts int, ps []backoff.Policy) string {
	var others []string
	base, shared := attempts, false
	for _, p := range ps {
		shared = shared || p.Attempts == attempts
	}
	if !shared && len(ps) > 0 {
		base = ps[0].Attempts
	}
	for _, p := range ps {
		if p.Attempts != base {
			others = append(others, fmt.Sprintf("%s %d", p.Name, p.Attempts))
		}
	}
	switch {
	case len(others) == 0:
		return fmt.Sprintf("each tries %d times at most", base)
	case shared:
		return fmt.Sprintf("each tries %d times at most, but %s", base, andList(others))
	}
	return fmt.Sprintf("%s tries %d times at most, %s", ps[0].Name, base, andList(others))
}

// andList is "a, b and c".
func andList(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// CrowdText is the crowd table of the policies and, for the reference's
// five, what it shows.
func CrowdText(s backoff.Settings, crowds []backoff.Result) string {
	var b strings.Builder
	var ps []backoff.Policy
	for _, c := range crowds {
		ps = append(ps, c.Policy)
	}
	b.WriteString(CrowdIntroOf(s, ps) + ":\n")
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
	return ThroughBy(f.AllThroughBy)
}

// ThroughBy writes an "all through by" time, -1 (no client through) as "-".
func ThroughBy(ms int) string {
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
