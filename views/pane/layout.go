package pane

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/views/words"
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

// Wrap word-wraps plain text to w cells, each of its lines on its own: it
// breaks at spaces alone, never at a hyphen ("not-through<=1%" stays
// whole), never between two words words.Keeps together (a number and its
// unit, "40 s"; a legend's mark and what it explains, "* the best"), and
// breaks a word longer than a line; a line's leading spaces stay on its
// first line. Lines carry no trailing spaces. Width 0 gives "".
func Wrap(s string, w int) string {
	if w <= 0 {
		return ""
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = append(out, wrapLine(para, w)...)
	}
	return strings.Join(out, "\n")
}

// wrapLine wraps one line of text: its words joined into pieces that stay
// on one line (words.Keeps), then the pieces laid out greedily, each
// separated by the spaces that stood before it.
func wrapLine(line string, w int) []string {
	indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
	type piece struct {
		text  string
		space string // the spaces before it in the line
	}
	var pieces []piece
	prev := ""
	for rest := line[len(indent):]; rest != ""; {
		word := rest
		if i := strings.IndexByte(rest, ' '); i >= 0 {
			word = rest[:i]
		}
		rest = rest[len(word):]
		space := rest[:len(rest)-len(strings.TrimLeft(rest, " "))]
		rest = rest[len(space):]
		switch {
		case word == "":
		case len(pieces) > 0 && words.Keeps(prev, word):
			last := &pieces[len(pieces)-1]
			last.text += last.space + word
			last.space = ""
		default:
			pieces = append(pieces, piece{text: word})
		}
		if word != "" {
			prev = word
			pieces[len(pieces)-1].space = space
		}
	}
	var out []string
	cur, curW := indent, ansi.StringWidth(indent)
	sep := ""
	for _, p := range pieces {
		pw := ansi.StringWidth(p.text)
		if curW > 0 && curW+len(sep)+pw > w && strings.TrimSpace(cur) != "" {
			out = append(out, strings.TrimRight(cur, " "))
			cur, curW, sep = "", 0, ""
		}
		cur += sep + p.text
		curW += len(sep) + pw
		sep = p.space
		// A piece longer than a line is broken where it must be.
		if curW > w {
			parts := strings.Split(ansi.Hardwrap(cur, w, true), "\n")
			for _, part := range parts[:len(parts)-1] {
				out = append(out, strings.TrimRight(part, " "))
			}
			cur = parts[len(parts)-1]
			curW = ansi.StringWidth(cur)
		}
	}
	return append(out, strings.TrimRight(cur, " "))
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
