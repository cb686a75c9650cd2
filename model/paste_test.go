package model

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
)

// A paste that a terminal does not bracket arrives as typing: bubbletea v1
// reads up to 256 bytes at a time, gives the runes of each read as one
// KeyRunes message, and each space as a KeySpace of its own. The program
// must take it at a cost that grows as the paste does, not as its square.

// pasteMsgs is s as bubbletea reads it when the terminal does not bracket
// a paste.
func pasteMsgs(s string) []tea.Msg {
	var msgs []tea.Msg
	for len(s) > 0 {
		read := s[:min(len(s), 256)]
		for read != "" && !utf8.ValidString(read) {
			read = read[:len(read)-1]
		}
		s = s[len(read):]
		for _, word := range strings.SplitAfter(read, " ") {
			if w := strings.TrimSuffix(word, " "); w != "" {
				msgs = append(msgs, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(w)})
			}
			if strings.HasSuffix(word, " ") {
				msgs = append(msgs, tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
			}
		}
	}
	return msgs
}

// sized is text repeated to n bytes.
func sized(text string, n int) string {
	return strings.Repeat(text, n/len(text)+1)[:n]
}

// work is the bytes allocated while m takes msgs: the measure of the work
// of taking them. Measuring a field's width is part of it, since bubbles'
// textinput turns the field's whole value into a string each time.
func work(t *testing.T, m App, msgs []tea.Msg) (App, uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m = send(t, m, msgs...)
	runtime.ReadMemStats(&after)
	return m, after.TotalAlloc - before.TotalAlloc
}

// focusedValue is what the focused field holds: the save box's name, the
// jobs line, or the settings field that has the keys.
func focusedValue(m App) string {
	if m.save.Captured() {
		return m.save.Value()
	}
	if m.Focus() == FocusJobs {
		return m.jobs.input.Value()
	}
	if m.form.form == nil {
		return ""
	}
	v, _ := m.form.form.GetFocusedField().GetValue().(string)
	return v
}

// pasteCases are the fields a long paste goes into, and the key after it.
func pasteCases() []struct {
	name   string
	open   []string // keys that give the field the keys
	text   string   // pasted over and over
	limit  int      // the most runes the field may hold; 0 for no field
	answer string   // what the frame shows once the key after the paste is answered
} {
	return []struct {
		name   string
		open   []string
		text   string
		limit  int
		answer string
	}{
		{"jobs line", []string{"4", "enter"}, "alpha:1 ", jobsLineLimit, "jobs: up to 8 run at a time."},
		{"settings field", []string{"5", "enter", "backspace", "backspace"}, "1234567890", fieldLimit, rangeError(backoff.Defaults(), backoff.FirstWait)},
		{"save field", []string{"s", "ctrl+u"}, "plans/ ", saveFieldLimit, `Saving "plans/ plans/`},
		{"no field", []string{"1"}, "xyz", 0, "[exponential]"}, // runes that are no key: the root takes each on its own
	}
}

// Pasting twice as much costs twice the work, not four times; the field
// holds no more than its limit; and the key after the paste is answered.
func TestLongPasteIsLinear(t *testing.T) {
	const kb = 1000
	for _, tt := range pasteCases() {
		t.Run(tt.name, func(t *testing.T) {
			// The program's state is behind a pointer: each paste gets a
			// program of its own.
			open := func() App { return send(t, quick(t, 100, 30), press(tt.open...)...) }
			_, half := work(t, open(), pasteMsgs(sized(tt.text, 50*kb)))
			m, whole := work(t, open(), pasteMsgs(sized(tt.text, 100*kb)))
			if ratio := float64(whole) / float64(half); ratio > 2.3 {
				t.Errorf("work for 100 KB against 50 KB: got %.2f times (%d and %d bytes allocated), want at most 2.3: linear", ratio, whole, half)
			}
			// The square of the paste would be far more.
			if perByte := whole / (100 * kb); perByte > 16*kb {
				t.Errorf("work per byte pasted: got %d bytes allocated, want at most %d", perByte, 16*kb)
			}
			if got := utf8.RuneCountInString(focusedValue(m)); got > tt.limit {
				t.Errorf("the field holds %d runes, want at most %d", got, tt.limit)
			}
			m = send(t, m, press("enter")...)
			if view := m.View(); !strings.Contains(view, tt.answer) {
				t.Errorf("after the paste, enter: the frame does not show %q:\n%s", tt.answer, view)
			}
			checkFits(t, m.View(), 100, 30)
		})
	}
}
