package pane

import (
	"strings"

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
	if out, ok := quickTable(headers, rows, right, w, st, style); ok {
		return out
	}
	return lipglossTable(headers, rows, right, w, st, style)
}

// lipglossTable is readTable drawn by lipgloss/table, which can shrink a
// table to a width.
func lipglossTable(headers []string, rows [][]string, right []bool, w int, st *Styles, style func(row, col int) lipgloss.Style) string {
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

// quickTable draws what lipglossTable draws for a table that fits w, as
// lipgloss/table lays it out (each column as wide as its widest cell, two
// cells after every column but the last, a rule under the header), with
// each style worked out once: lipgloss/table measures and styles every
// cell anew, which costs a millisecond for pane 1's six schedules. It
// reports false for a table wider than w, which lipglossTable shrinks.
func quickTable(headers []string, rows [][]string, right []bool, w int, st *Styles, style func(row, col int) lipgloss.Style) (string, bool) {
	n := len(headers)
	for _, r := range rows {
		if len(r) != n {
			return "", false
		}
	}
	widths := make([]int, n)
	for c, h := range headers {
		widths[c] = ansi.StringWidth(h)
	}
	for _, r := range rows {
		for c, cell := range r {
			widths[c] = max(widths[c], ansi.StringWidth(cell))
		}
	}
	total := 0
	for c, wc := range widths {
		total += wc
		if c < n-1 {
			total += 2
		}
	}
	if total > w {
		return "", false
	}
	paintOf := st.paintOf
	var b strings.Builder
	line := func(cells []string, styleOf func(c int) lipgloss.Style) {
		for c, cell := range cells {
			pad := strings.Repeat(" ", max(widths[c]-ansi.StringWidth(cell), 0))
			text := cell + pad
			if c < len(right) && right[c] {
				text = pad + cell
			}
			if c < n-1 {
				text += "  "
			}
			b.WriteString(paintOf(styleOf(c)).paint(text))
		}
	}
	line(headers, func(int) lipgloss.Style { return st.Header })
	b.WriteString("\n" + st.Rule.Render(strings.Repeat("─", total)))
	for r, cells := range rows {
		b.WriteByte('\n')
		line(cells, func(c int) lipgloss.Style {
			if style == nil {
				return st.Cell
			}
			return style(r, c)
		})
	}
	return b.String(), true
}

// sameStyle reports whether a and b draw alike, as far as a table's cells
// go: their colours, attributes and alignment.
func sameStyle(a, b lipgloss.Style) bool {
	return a.GetForeground() == b.GetForeground() && a.GetBackground() == b.GetBackground() &&
		a.GetBold() == b.GetBold() && a.GetFaint() == b.GetFaint() && a.GetItalic() == b.GetItalic() &&
		a.GetUnderline() == b.GetUnderline() && a.GetReverse() == b.GetReverse() && a.GetStrikethrough() == b.GetStrikethrough()
}
