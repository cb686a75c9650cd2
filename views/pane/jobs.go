package pane

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/charmbracelet/lipgloss"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
	"github.com/retryplanner/retry-planner/ledger/glyph"
	"github.com/retryplanner/retry-planner/views/plain"
	"github.com/retryplanner/retry-planner/views/words"
)

// JobsNothingYet is pane 4's body before any line of jobs has run.
const JobsNothingYet = "No jobs have run yet. Press enter, type the jobs, and press enter to run them."

// The marks before each job's result.
const (
	DoneMark    = "✓"
	GaveUpMark  = "✗"
	RefusedMark = "⊘"
)

// JobsCheck is the ledger's self-check, in the reference's words, as the
// jobs report and --plain say it.
const JobsCheck = plain.LedgerCheck

// JobsUnder says which policy the jobs wait under.
func JobsUnder(p backoff.Policy) string {
	return fmt.Sprintf("The jobs wait as %s does (pane 1's policy): job i as the crowd's client i.", p.Name)
}

// DuplicateJobError is a line of jobs in which two share a name: the
// ledger could not tell their attempts apart.
type DuplicateJobError struct{ Name string }

func (e *DuplicateJobError) Error() string {
	return fmt.Sprintf("%s appears twice: give each job its own name, so that the ledger tells them apart.", shown(e.Name))
}

// CheckDuplicates refuses two jobs of one name.
func CheckDuplicates(jobs []ledger.Job) error {
	seen := map[string]bool{}
	for _, j := range jobs {
		if seen[j.Name] {
			return &DuplicateJobError{Name: j.Name}
		}
		seen[j.Name] = true
	}
	return nil
}

// shown is a token as typed, quoted only when it holds what would not show.
func shown(s string) string {
	for _, r := range s {
		if !unicode.IsGraphic(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// JobLineError is the full-screen program's answer to a line of jobs it
// refuses: the token and the rule it breaks, such as "alpha:1000: failures
// go from 0 to 999".
func JobLineError(err error) string {
	var format *ledger.FormatError
	var many *ledger.TooManyJobsError
	var name *ledger.NameError
	var dup *DuplicateJobError
	switch {
	case errors.As(err, &format):
		return shown(format.Job) + ": " + jobRule(format.Job)
	case errors.As(err, &many):
		return fmt.Sprintf("%d jobs: up to %d run at a time.", many.Count, ledger.MaxJobs)
	case errors.As(err, &name):
		return fmt.Sprintf("%s: a name cannot hold a character that does not show as itself (invisible, blank or direction-changing), here %U.", glyph.Quote(name.Job.String()), name.Char)
	case errors.As(err, &dup):
		return dup.Error()
	case err != nil:
		return err.Error()
	}
	return ""
}

// jobRule is the rule a malformed job breaks.
func jobRule(word string) string {
	name, rest, colon := strings.Cut(word, ":")
	switch {
	case !colon:
		return "write a job as name:failures (0 to 999) or name:fatal."
	case name == "":
		return "a job needs a name before the colon."
	case rest == "":
		return "after the colon, how many times it fails (0 to 999), or fatal."
	}
	if _, digits := backoff.ParseDigits(rest, len(rest)); digits {
		return ledger.DigitsRule(rest) + "."
	}
	return "after the colon, a number of failures from 0 to 999, or fatal; " + shown(rest) + " is neither."
}

// jobLine is how a job ended, in the reference's words, as the jobs
// report and --plain say it.
func jobLine(r ledger.Result) string { return r.String() }

// entryOutcome is how an attempt ended, in the reference's words (the
// ledger's lines of the jobs report and --plain), the wait in the units
// people read.
func entryOutcome(e ledger.Entry) string {
	switch e.Outcome {
	case ledger.Done:
		return "done"
	case ledger.Retry:
		return "failed, retry after " + words.Human(e.Wait)
	case ledger.LastFail:
		return "failed, no attempts left"
	case ledger.OutOfTime:
		return "failed, out of time"
	}
	return "cannot be retried, stopped"
}

// JobsBody is pane 4's scrollable part at width w: each job's result, then
// the ledger as a table, one row per attempt. A report of no jobs gives
// the note that nothing ran yet. Stale results (an error is showing) are
// drawn faint and said to be the last run's.
func JobsBody(r ledger.Report, stale bool, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 {
		return ""
	}
	if len(r.Results) == 0 {
		return st.Muted.Render(prose(JobsNothingYet, w))
	}
	var b strings.Builder
	if stale {
		b.WriteString(st.Note.Render(cut("The last run's, before the line above:", w)) + "\n")
	}
	dim := func(s lipgloss.Style) lipgloss.Style {
		if stale {
			return s.Inherit(st.Stale).Faint(true)
		}
		return s
	}
	for _, res := range r.Results {
		mark, style := DoneMark, st.Good
		switch {
		case res.Err == nil:
		case errors.Is(res.Err, ledger.ErrNotRetryable):
			mark, style = RefusedMark, st.Bad
		default:
			mark, style = GaveUpMark, st.Warn
		}
		b.WriteString(dim(style).Render(Wrap(mark+" "+jobLine(res), w)) + "\n")
	}
	b.WriteString("\n" + dim(st.Title).Render("Ledger") + "\n")
	rows := make([][]string, len(r.Ledger.Entries))
	for i, e := range r.Ledger.Entries {
		rows[i] = []string{e.Job, strconv.Itoa(e.Attempt), entryOutcome(e)}
	}
	b.WriteString(readTable([]string{"job", "attempt", "outcome"}, rows, []bool{false, true, false}, w, st,
		func(row, col int) lipgloss.Style {
			if col != 2 || row >= len(r.Ledger.Entries) {
				return dim(st.Cell)
			}
			switch r.Ledger.Entries[row].Outcome {
			case ledger.Done:
				return dim(st.Good)
			case ledger.Retry:
				return dim(st.Cell)
			case ledger.LastFail:
				return dim(st.Warn)
			}
			return dim(st.Bad)
		}))
	return Fit(b.String(), w, Height(b.String()))
}

// JobsCounts is the ledger's counts and the jobs' outcomes in the
// reference's words (plain.LedgerCounts, which the jobs report starts
// with), the time waited in the units people read; two sentences on two
// lines, and a third when the limit on total time stopped some.
func JobsCounts(r ledger.Report) string {
	l := r.Ledger
	out := fmt.Sprintf("Attempts %d: %d done, %d failed. The finally block ran %d times. Waited %s in all.\nJobs done, given up, refused: %d, %d, %d.",
		l.Attempts, l.Successes, l.Failures, l.FinallyRuns, words.Human(l.Waited), r.Done, r.GaveUp, r.Refused)
	if r.OutOfTime > 0 {
		out += fmt.Sprintf("\nJobs out of time: %d.", r.OutOfTime)
	}
	return out
}

// JobsSummary is what stays under the ledger: its counts and, when it
// balances, the self-check, wrapped to w.
func JobsSummary(r ledger.Report, stale bool, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 || len(r.Results) == 0 {
		return ""
	}
	text, good := st.Text, st.Good
	if stale {
		text, good = st.Stale, st.Stale
	}
	out := text.Render(prose(JobsCounts(r), w))
	if r.Ledger.Balanced() {
		out += "\n" + good.Render(prose(JobsCheck, w))
	}
	return out
}
