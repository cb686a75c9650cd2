package pane

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Fit cuts s to at most h lines of at most w cells each: the last resort
// that keeps every frame inside the window, whatever a view drew. It keeps
// colour codes whole. Lines are not padded.
func Fit(s string, w, h int) string {
	w, h = max(w, 0), max(h, 0)
	if h == 0 || w == 0 {
		return strings.Repeat("\n", max(h-1, 0))
	}
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		// A cell takes at least a byte, so a line of no more bytes than
		// cells fits without being measured.
		if len(l) > w && ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

// ClipHeight keeps the first h lines of s and pads it with empty lines to
// exactly h, without measuring widths: for text already cut to its width.
func ClipHeight(s string, h int) string {
	if h <= 0 {
		return ""
	}
	n := strings.Count(s, "\n") + 1
	if n > h {
		at := 0
		for i := 0; i < h; i++ {
			at += strings.IndexByte(s[at:], '\n') + 1
		}
		return s[:at-1]
	}
	return s + strings.Repeat("\n", h-n)
}

// Wrap word-wraps plain text to w cells, each of its lines on its own, breaking words longer than a line;
// lines carry no trailing spaces. Width 0 gives "".
func Wrap(s string, w int) string {
	if w <= 0 {
		return ""
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		for _, l := range strings.Split(ansi.Wrap(para, w, ""), "\n") {
			// ansi.Wrap can leave a line too long around a lone "-".
			if ansi.StringWidth(l) > w {
				l = ansi.Hardwrap(l, w, true)
			}
			for _, part := range strings.Split(l, "\n") {
				out = append(out, strings.TrimRight(part, " "))
			}
		}
	}
	return strings.Join(out, "\n")
}

// Height is the number of lines of s.
func Height(s string) int {
	return strings.Count(s, "\n") + 1
}

// Width is the widest line of s in cells.
func Width(s string) int {
	most := 0
	for _, l := range strings.Split(s, "\n") {
		most = max(most, ansi.StringWidth(l))
	}
	return most
}

// padLeft right-aligns s in a field of n cells; a longer s is left as is.
func padLeft(s string, n int) string {
	return strings.Repeat(" ", max(n-ansi.StringWidth(s), 0)) + s
}

// padRight left-aligns s in a field of n cells; a longer s is left as is.
func padRight(s string, n int) string {
	return s + strings.Repeat(" ", max(n-ansi.StringWidth(s), 0))
}

// ScrollHint is the line under a scrolled view: which of its lines show and,
// when keys is not empty, the keys that show the rest, such as "pgup/pgdn".
func ScrollHint(first, last, total, w int, keys string, st *Styles) string {
	return ListHint("lines", first, last, total, w, keys, st)
}

// ListHint is ScrollHint of a list of what: "candidates 3-7 of 10, ↕ more
// above and below (↑/↓)".
func ListHint(what string, first, last, total, w int, keys string, st *Styles) string {
	var where string
	switch {
	case first <= 1:
		where = "↓ more below"
	case last >= total:
		where = "↑ more above"
	default:
		where = "↕ more above and below"
	}
	if keys != "" {
		where += " (" + keys + ")"
	}
	return Fit(st.Muted.Render(fmt.Sprintf("%s %d-%d of %d, %s", what, first, last, total, where)), w, 1)
}
