package glyph

import (
	"strconv"
	"testing"
)

func TestUnseen(t *testing.T) {
	for _, tt := range []struct {
		r    rune
		want bool
		why  string
	}{
		{'a', false, "a letter"},
		{' ', false, "the ASCII space shows as a space"},
		{'é', false, "a letter with its accent"},
		{'日', false, "a letter"},
		{'\u0301', false, "a combining accent shows on the letter before it"},
		{'\uFFFD', false, "the replacement character shows"},
		{'😀', false, "a symbol beyond the BMP"},
		{'\t', true, "a control"},
		{'\x7f', true, "a control"},
		{'\u0085', true, "a C1 control"},
		{'\u00A0', true, "a no-break space: White_Space"},
		{'\u00AD', true, "soft hyphen: Cf"},
		{'\u034F', true, "combining grapheme joiner: default-ignorable, not Cf"},
		{'\u115F', true, "Hangul choseong filler: default-ignorable, not Cf"},
		{'\u1160', true, "Hangul jungseong filler: default-ignorable"},
		{'\u180E', true, "Mongolian vowel separator: Cf"},
		{'\u200B', true, "zero width space: Cf"},
		{'\u202E', true, "right-to-left override: Cf"},
		{'\u2028', true, "line separator: Zl, not graphic"},
		{'\u2029', true, "paragraph separator"},
		{'\u2066', true, "left-to-right isolate: Cf"},
		{'\u2800', true, "Braille pattern blank: graphic, shows as nothing"},
		{'\u3000', true, "ideographic space: White_Space"},
		{'\u3164', true, "Hangul filler: default-ignorable, not Cf"},
		{'\uFE0F', true, "variation selector 16"},
		{'\uFEFF', true, "byte-order mark: Cf"},
		{'\uFFA0', true, "halfwidth Hangul filler"},
		{'\uE000', true, "private use"},
		{0xE0041, true, "tag latin capital letter A: Cf"},
		{0xE0100, true, "variation selector 17"},
		{0x10FFFF, true, "a noncharacter"},
	} {
		if got := Unseen(tt.r); got != tt.want {
			t.Errorf("Unseen(%U) (%s): got %v, want %v", tt.r, tt.why, got, tt.want)
		}
	}
}

func TestFirst(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want rune
		ok   bool
	}{
		{"plan.toml", 0, false},
		{"my plan.toml", 0, false},
		{"a\xffb", 0, false}, // not UTF-8: the caller's to refuse
		{"plan\u202Elmth.toml", 0x202E, true},
		{"x\u200By\u3164", 0x200B, true},
		{"\u3164", 0x3164, true},
	} {
		if got, ok := First(tt.s); got != tt.want || ok != tt.ok {
			t.Errorf("First(%q): got %U, %v; want %U, %v", tt.s, got, ok, tt.want, tt.ok)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, tt := range []struct{ s, want string }{
		{"alpha:1", `"alpha:1"`},
		{"a\u202eb", `"a\u202eb"`},
		{"\u3164:1", `"\u3164:1"`},
		{"x\u2800y", `"x\u2800y"`},
		{"é \t", `"é \t"`},
	} {
		got := Quote(tt.s)
		if got != tt.want {
			t.Errorf("Quote(%q): got %s, want %s", tt.s, got, tt.want)
		}
		if back, err := strconv.Unquote(got); err != nil || back != tt.s {
			t.Errorf("Quote(%q) = %s: unquoted %q, %v; want it back", tt.s, got, back, err)
		}
	}
}
