package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// AppName is the name in the header.
const AppName = "Retry Planner"

// paneNames are the five panes as the plain menu names them.
func paneNames() [5]string {
	return [5]string{"one client", "the crowd", "retries over time", "jobs with a ledger", "settings"}
}

// shortPaneNames are the tabs for a narrow window.
func shortPaneNames() [5]string {
	return [5]string{"client", "crowd", "time", "jobs", "settings"}
}

// PaneName is pane i's name (0 to 4) as the plain menu writes it, such as
// "the crowd"; "" for any other i.
func PaneName(i int) string {
	if i < 0 || i >= 5 {
		return ""
	}
	return paneNames()[i]
}

// Header is the first two lines of every frame: the program's name and the
// five panes as tabs, the focused one in brackets, then a rule. It drops the
// name, then shortens the tabs, as the width shrinks.
func Header(active, w int, st *Styles) string {
	w = max(w, 0)
	tabs := func(names [5]string) (string, int) {
		var b strings.Builder
		n := 0
		for i, name := range names {
			label := fmt.Sprintf("%d %s", i+1, name)
			if i == active {
				label = "[" + label + "]"
				b.WriteString(st.ActiveTab.Render(label))
			} else {
				label = " " + label + " "
				b.WriteString(st.Tab.Render(label))
			}
			n += ansi.StringWidth(label)
		}
		return b.String(), n
	}
	full, n := tabs(paneNames())
	short, m := tabs(shortPaneNames())
	name := st.App.Render(AppName) + "  "
	nameW := len(AppName) + 2
	var line string
	switch {
	case nameW+n <= w:
		line = name + full
	case n <= w:
		line = full
	case nameW+m <= w:
		line = name + short
	default:
		line = short
	}
	return Fit(line, w, 1) + "\n" + st.Rule.Render(strings.Repeat("─", w))
}

// TooSmall is the whole frame when the window is below the least size the
// program needs: what it has and what it needs.
func TooSmall(w, h, needW, needH int, st *Styles) string {
	lines := []string{
		fmt.Sprintf("The terminal is too small: %dx%d.", w, h),
		fmt.Sprintf("Retry Planner needs at least %dx%d.", needW, needH),
		"Enlarge the window, or press q to quit.",
	}
	for i, l := range lines {
		lines[i] = Wrap(l, w)
	}
	return Fit(st.Text.Render(strings.Join(lines, "\n")), w, h)
}
