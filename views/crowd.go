package views

import (
	"strconv"

	"github.com/charmbracelet/lipgloss"

	"github.com/retryplanner/retry-planner/backoff"
)

// BestMark follows the best value of each crowd column, so the best stands
// out without colour too.
const BestMark = "*"

// The crowd table's columns.
const (
	colPolicy = iota
	colRetries
	colMost
	colFrom
	colThrough
	colGaveUp
	crowdCols
)

// CrowdBest says which cells of the crowd table are the best of their
// column: fewest retries, lowest busiest slot, earliest all through (among
// the policies where anyone got through) and fewest gave up. Ties are all
// best, but a column where all five are alike, or none has a value, has no
// best.
func CrowdBest(crowds []backoff.Result) [][crowdCols]bool {
	best := make([][crowdCols]bool, len(crowds))
	value := func(c backoff.Result, col int) (int, bool) {
		f := c.Figures
		switch col {
		case colRetries:
			return f.Retries, true
		case colMost:
			return f.MostInASlot, true
		case colThrough:
			return f.AllThroughBy, f.AllThroughBy >= 0
		case colGaveUp:
			return f.GaveUp, true
		}
		return 0, false
	}
	for col := colRetries; col < crowdCols; col++ {
		low, found := 0, false
		for _, c := range crowds {
			if v, ok := value(c, col); ok && (!found || v < low) {
				low, found = v, true
			}
		}
		ties := make([]bool, len(crowds))
		n := 0
		for i, c := range crowds {
			if v, ok := value(c, col); ok && found && v == low {
				ties[i] = true
				n++
			}
		}
		if n == len(crowds) {
			continue // all alike: nothing to pick out
		}
		for i := range ties {
			best[i][col] = ties[i]
		}
	}
	return best
}

// CrowdPane is pane 2's whole content at width w, for a viewport to scroll:
// what the crowd is, the table of the five policies with the best of each
// column picked out, and the reference's sentences under it.
func CrowdPane(s backoff.Settings, crowds []backoff.Result, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 {
		return ""
	}
	intro := CrowdIntro(s) + ":"
	best := CrowdBest(crowds)
	rows := make([][]string, len(crowds))
	for i, c := range crowds {
		f := c.Figures
		mark := func(col int, v string) string {
			if best[i][col] {
				return v + BestMark
			}
			return v + " "
		}
		rows[i] = []string{
			c.Policy.String(),
			mark(colRetries, strconv.Itoa(f.Retries)),
			mark(colMost, strconv.Itoa(f.MostInASlot)),
			Millis(BusiestFrom(f, s.Slot)) + " ",
			mark(colThrough, LastThrough(f)),
			mark(colGaveUp, strconv.Itoa(f.GaveUp)),
		}
	}
	style := func(row, col int) lipgloss.Style {
		if row >= 0 && row < len(best) && best[row][col] {
			return st.Best
		}
		return st.Cell
	}
	right := []bool{false, true, true, true, true, true}
	// The headers are the reference's, each followed by the mark's column;
	// a narrow pane gets shorter ones before the table cuts its cells.
	tbl := readTable([]string{"policy", "retries ", "most in a slot ", "the slot from ", "all through by ", "gave up "}, rows, right, 1<<16, st, style)
	if Width(tbl) > w {
		tbl = readTable([]string{"policy", "retries ", "busiest ", "from ", "through ", "gave up "}, rows, right, w, st, style)
	}
	legend := st.Muted.Render(Wrap(BestMark+" the best of its column: fewest retries, lowest busiest slot, earliest all through, fewest gave up.", w))
	out := st.Text.Render(Wrap(intro, w)) + "\n\n" + tbl + "\n" + legend
	if AreTheFive(s, crowds) {
		out += "\n\n" + st.Text.Render(Wrap(CrowdExplained(crowds), w))
		if note, ok := CrowdGaveUpNote(crowds); ok {
			out += "\n" + st.Text.Render(Wrap(note, w))
		}
	}
	return Fit(out, w, Height(out))
}
