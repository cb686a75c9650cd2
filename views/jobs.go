package views

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/retryplanner/retry-planner/ledger"
)

// JobsNothingYet is pane 4's body before any line of jobs has run.
const JobsNothingYet = "No jobs have run yet. Press enter, type the jobs, and press enter to run them."

// The marks before each job's result.
const (
	DoneMark    = "✓"
	GaveUpMark  = "✗"
	RefusedMark = "⊘"
)

// JobsBody is pane 4's scrollable part at width w: each job's result, then
// the ledger as a table, one row per attempt. A report of no jobs gives
// the note that nothing ran yet.
func JobsBody(r ledger.Report, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 {
		return ""
	}
	if len(r.Results) == 0 {
		return st.Muted.Render(Wrap(JobsNothingYet, w))
	}
	var b strings.Builder
	for _, res := range r.Results {
		mark, style := DoneMark, st.Good
		switch {
		case res.Err == nil:
		case errors.Is(res.Err, ledger.ErrNotRetryable):
			mark, style = RefusedMark, st.Bad
		default:
			mark, style = GaveUpMark, st.Warn
		}
		b.WriteString(style.Render(cut(mark+" "+res.String(), w)) + "\n")
	}
	b.WriteString("\n" + st.Title.Render("Ledger") + "\n")
	rows := make([][]string, len(r.Ledger.Entries))
	for i, e := range r.Ledger.Entries {
		rows[i] = []string{e.Job, strconv.Itoa(e.Attempt), entryOutcome(e)}
	}
	b.WriteString(readTable([]string{"job", "attempt", "outcome"}, rows, []bool{false, true, false}, w, st,
		func(row, col int) lipgloss.Style {
			if col != 2 || row >= len(r.Ledger.Entries) {
				return st.Cell
			}
			switch r.Ledger.Entries[row].Outcome {
			case ledger.Done:
				return st.Good
			case ledger.Retry:
				return st.Cell
			case ledger.LastFail:
				return st.Warn
			}
			return st.Bad
		}))
	return Fit(b.String(), w, Height(b.String()))
}

// entryOutcome is how an attempt ended, as the ledger line writes it after
// "job attempt n: ".
func entryOutcome(e ledger.Entry) string {
	return strings.TrimPrefix(e.String(), fmt.Sprintf("%s attempt %d: ", e.Job, e.Attempt))
}

// JobsSummary is what stays under the ledger: its counts and, when it
// balances, the self-check, wrapped to w.
func JobsSummary(r ledger.Report, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 || len(r.Results) == 0 {
		return ""
	}
	out := st.Text.Render(Wrap(LedgerCounts(r), w))
	if r.Ledger.Balanced() {
		out += "\n" + st.Good.Render(Wrap(LedgerCheck, w))
	}
	return out
}
