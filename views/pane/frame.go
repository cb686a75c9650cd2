package pane

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// AppName is the name in the header.
const AppName = "Retry Planner"

// numPanes is how many panes there are: the plain menu's five, then the
// advice, which the plain menu does not have.
const numPanes = 6

// paneNames are the panes as the plain menu names them, then the advice.
func paneNames() [numPanes]string {
	return [numPanes]string{"one client", "the crowd", "retries over time", "jobs with a ledger", "settings", "advice"}
}

// shortPaneNames are the tabs for a narrow window.
func shortPaneNames() [numPanes]string {
	return [numPanes]string{"client", "crowd", "time", "jobs", "settings", "advice"}
}

// PaneName is pane i's name (0 to 5) as the plain menu writes it, such as
// "the crowd"; "" for any other i.
func PaneName(i int) string {
	if i < 0 || i >= numPanes {
		return ""
	}
	return paneNames()[i]
}

// headerTabs is the header's first line for the focused pane active at
// width w, and where each tab starts and ends, in cells. It drops the
// program's name, then shortens the tabs, then names only the focused one,
// as the width shrinks: a tab is never cut.
func headerTabs(active, w int, st *Styles) (string, [numPanes][2]int) {
	tabs := func(names [numPanes]string, at int) (string, int, [numPanes][2]int) {
		var b strings.Builder
		var cells [numPanes][2]int
		n := 0
		for i, name := range names {
			label := fmt.Sprintf("%d %s", i+1, name)
			if name == "" {
				label = strconv.Itoa(i + 1)
			}
			if i == active {
				label = "[" + label + "]"
				b.WriteString(st.ActiveTab.Render(label))
			} else {
				label = " " + label + " "
				b.WriteString(st.Tab.Render(label))
			}
			lw := ansi.StringWidth(label)
			cells[i] = [2]int{at + n, at + n + lw}
			n += lw
		}
		return b.String(), n, cells
	}
	name := st.App.Render(AppName) + "  "
	nameW := len(AppName) + 2
	full, n, fullCells := tabs(paneNames(), nameW)
	short, m, shortCells := tabs(shortPaneNames(), nameW)
	switch {
	case nameW+n <= w:
		return name + full, fullCells
	case n <= w:
		full, _, cells := tabs(paneNames(), 0)
		return full, cells
	case nameW+m <= w:
		return name + short, shortCells
	}
	if short, m, cells := tabs(shortPaneNames(), 0); m <= w {
		return short, cells
	}
	// The narrowest: the focused pane's short name, the others their
	// numbers, so that no tab is cut.
	var only [numPanes]string
	if active >= 0 && active < numPanes {
		only[active] = shortPaneNames()[active]
	}
	least, _, cells := tabs(only, 0)
	return Fit(least, w, 1), cells
}

// Header is the first two lines of every frame: the program's name and the
// six panes as tabs, the focused one in brackets; then a rule that holds,
// at its left, status (what is being computed) and, at its right, info
// (the seed and the draws every figure uses).
func Header(active, w int, status, info string, st *Styles) string {
	w = max(w, 0)
	line, _ := headerTabs(active, w, st)
	return Fit(line, w, 1) + "\n" + ruleWith(status, info, w, st)
}

// ruleWith is a rule of w cells with left written over its start and right
// over its end, each with a cell of rule around it; right gives way first,
// then left is cut.
func ruleWith(left, right string, w int, st *Styles) string {
	if w <= 0 {
		return ""
	}
	lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
	if left != "" {
		left, lw = " "+left+" ", lw+2
	}
	if right != "" {
		right, rw = " "+right+" ", rw+2
	}
	lead := 0
	if left != "" {
		lead = 1
	}
	if lead+lw+rw+1 > w {
		right, rw = "", 0
	}
	if lead+lw > w {
		left = ansi.Truncate(left, max(w-lead, 0), "…")
		lw = ansi.StringWidth(left)
	}
	fill := max(w-lead-lw-rw-1, 0)
	if right == "" {
		fill = max(w-lead-lw, 0)
	}
	out := st.Rule.Render(strings.Repeat("─", lead)) + left + st.Rule.Render(strings.Repeat("─", fill)) + right
	if right != "" {
		out += st.Rule.Render("─")
	}
	return out
}

// TabAt is the pane whose tab is under column x of the header's first
// line, or -1.
func TabAt(active, w, x int) int {
	_, cells := headerTabs(active, max(w, 0), &Styles{})
	for i, c := range cells {
		if x >= c[0] && x < c[1] && x < w {
			return i
		}
	}
	return -1
}

// TooSmall is the whole frame when the window is below the least size the
// program needs: what it has and what it needs.
func TooSmall(w, h, needW, needH int, st *Styles) string {
	lines := []string{
		fmt.Sprintf("The terminal is too small: %dx%d.", w, h),
		fmt.Sprintf("Retry Planner needs at least %dx%d.", needW, needH),
		"Enlarge the window, or press q to quit: until it is larger, no other key does anything.",
	}
	for i, l := range lines {
		lines[i] = Wrap(l, w)
	}
	return Fit(st.Text.Render(strings.Join(lines, "\n")), w, h)
}
