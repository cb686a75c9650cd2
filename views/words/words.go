// Package words writes the planner's times, counts, rates, lists and
// policies as people read them: the vocabulary the panes, the reports and
// the pictures share, so that one figure reads the same on every face.
package words

import (
	"strings"
	"unicode"
)

// And is a list in words: "a", "a and b", "a, b and c".
func And(items []string) string { return join(items, " and ") }

// Or is a list of choices in words: "a, b or c".
func Or(items []string) string { return join(items, " or ") }

func join(items []string, last string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + last + items[len(items)-1]
}

// Keeps reports whether a line must not break between the words a and b,
// that stand side by side with a space between them (issue 24, item 10): a
// number and its unit ("40 s", "600 ms", "2 min 5 s", "1 h 5 min", each
// unit joined to the number after it too), and a legend's mark and the word
// it explains ("* the best", "! the worst", "~ not judged"), a mark being a
// word of one or two characters that are neither letters nor digits. A
// wrapper keeps such words on one line; a hyphen is no place to break
// either ("not-through<=1%").
func Keeps(a, b string) bool {
	switch {
	case isMark(a):
		return true
	case isNumber(a) && isUnit(b):
		return true
	case (a == "min" || a == "h") && isNumber(b):
		return true // "2 min 5 s": the number after a unit is its second part
	}
	return false
}

// isNumber reports whether w is a number as the faces write one, with
// commas and a point, perhaps after a bracket, a sign or a comparison:
// "40", "1,000", "24.6", "(3", "-2", "<=60", "~10".
func isNumber(w string) bool {
	w = strings.TrimLeft(w, "([~<>=+-−")
	if w == "" {
		return false
	}
	for i, r := range w {
		switch {
		case r >= '0' && r <= '9':
		case (r == ',' || r == '.') && i > 0:
		default:
			return false
		}
	}
	return true
}

// isUnit reports whether w is a unit of time, perhaps followed by
// punctuation: "s", "ms", "min", "h", "s,", "ms)", "s.".
func isUnit(w string) bool {
	switch strings.TrimRight(w, ".,;:)]") {
	case "ms", "s", "min", "h":
		return true
	}
	return false
}

// isMark reports whether w is a legend's mark: one or two characters, none
// a letter or a digit ("*", "!!", "✓", "●").
func isMark(w string) bool {
	n := 0
	for _, r := range w {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r) {
			return false
		}
		n++
	}
	return n >= 1 && n <= 2
}
