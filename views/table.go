package views

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/charmbracelet/x/ansi"
)

// readTable renders a read-only table: a rule under the header and no other
// border, columns two cells apart, those marked in right aligned right.
// When it is wider than w it shrinks to w, cutting cells with an ellipsis.
// style, if not nil, gives a body cell's style; it may return the zero style.
func readTable(headers []string, rows [][]string, right []bool, w int, st *Styles, style func(row, col int) lipgloss.Style) string {
	w = max(w, 0)
	if w == 0 {
		return ""
	}
	last := len(headers) - 1
	cellStyle := func(row, col int) lipgloss.Style {
		s := st.Cell
		if row == table.HeaderRow {
			s = st.Header
		} else if style != nil {
			s = style(row, col)
		}
		if col < last {
			s = s.PaddingRight(2)
		}
		if col < len(right) && right[col] {
			s = s.Align(lipgloss.Right)
		}
		return s
	}
	t := table.New().
		Border(lipgloss.NormalBorder()).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderColumn(false).BorderHeader(true).
		BorderStyle(st.Rule).
		Headers(headers...).
		Rows(rows...).
		Wrap(false).
		StyleFunc(cellStyle)
	out := t.String()
	if Width(out) > w {
		out = t.Width(w).String()
	}
	// The table's own shrinking stops at its columns' padding; cut the rest.
	if Width(out) > w {
		out = Fit(out, w, Height(out))
	}
	return out
}

// cut shortens a plain string to w cells with an ellipsis.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}
