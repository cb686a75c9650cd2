// Package glyph tells the characters that show as themselves from those
// that do not. A name a person reads and tells from others (a job's, a
// file's) must not hold a character that shows as nothing, shows as a
// blank, or turns the text around it: two names that look the same could
// then differ, and a line could say what it does not hold.
//
// Unseen is Unicode's Default_Ignorable_Code_Point (format characters,
// category Cf, such as U+200B and U+202E; variation selectors; the other
// default-ignorables, such as the Hangul fillers U+115F and U+3164 and
// the combining grapheme joiner U+034F), every white space but the ASCII
// space (U+00A0, U+3000, the line separator U+2028), every character that
// is not graphic (controls, private use, unassigned), and the blank
// patterns that are graphic but show as nothing (U+2800, the blank Braille
// pattern). Unicode's tables in package unicode decide, at the version Go
// was built with.
package glyph

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// blanks are graphic characters that show as nothing and are in none of
// the tables Unseen reads.
var blanks = []rune{
	0x2800, // BRAILLE PATTERN BLANK
}

// Unseen reports whether r does not show as itself: see the package
// comment. The ASCII space shows as itself.
func Unseen(r rune) bool {
	switch {
	case r == ' ':
		return false
	case !unicode.IsGraphic(r):
		return true
	case unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point, unicode.White_Space):
		return true
	}
	for _, b := range blanks {
		if r == b {
			return true
		}
	}
	return false
}

// First is the first character of s that does not show as itself, and
// whether there is one. Bytes that are not UTF-8 are not characters: they
// are for the caller to refuse.
func First(s string) (rune, bool) {
	for _, r := range s {
		if r != '\uFFFD' && Unseen(r) {
			return r, true
		}
	}
	return 0, false
}

// Quote is s in double quotes, as strconv.Quote writes it, with every
// character that does not show as itself written as an escape: \u3164
// where strconv.Quote would leave the Hangul filler as it is.
func Quote(s string) string {
	q := strconv.Quote(s)
	if _, ok := First(q); !ok {
		return q
	}
	var b strings.Builder
	for _, r := range q {
		switch {
		case !Unseen(r):
			b.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
