package model

import (
	"fmt"
	"testing"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
)

// altD is alt+d as bubbletea reads it; altDelete alt+delete.
var (
	altD      = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'d'}, Alt: true}
	altDelete = tea.KeyMsg{Type: tea.KeyDelete, Alt: true}
	ctrlA     = tea.KeyMsg{Type: tea.KeyCtrlA}
)

// Issue 20.1: alt+d or alt+delete with the cursor on the last character of
// a text field deletes that character; it panicked inside bubbles'
// textinput (deleteWordForward reads past the end). On the last character
// of a word it deletes that character, not the next word as well; on a
// space, the spaces and the word after them.
func TestWordDeleteOnTheLastCharacter(t *testing.T) {
	for _, del := range []tea.KeyMsg{altD, altDelete} {
		for _, tt := range []struct {
			name string
			keys []tea.Msg
			want string // the field's value after
		}{
			{"go to client", cat(press("1", "#", "1"), []tea.Msg{ctrlA, del}), ""},
			{"jobs line", cat(press("4", "enter", "ab", "left"), []tea.Msg{del}), "a"},
			{"jobs line, the last of a word", cat(press("4", "enter", "ab", "space", "c", "left", "left", "left"), []tea.Msg{del}), "a c"},
			{"jobs line, a space", cat(press("4", "enter", "a", "space", "space", "bc", "space", "d", "home", "right"), []tea.Msg{del}), "a d"},
			{"save field", cat(press("s", "end", "left"), []tea.Msg{del}), "retry-plan.tom"},
			{"settings form", cat(press("5", "enter", "end", "left"), []tea.Msg{del}), "1"}, // the first wait, 1s
		} {
			t.Run(fmt.Sprintf("%s/%s", tt.name, del), func(t *testing.T) {
				m := quick(t, 100, 30)
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%s panicked: %v", del, r)
					}
				}()
				m = send(t, m, tt.keys...)
				if got := fieldValue(m); got != tt.want {
					t.Errorf("the field holds %q, want %q", got, tt.want)
				}
			})
		}
	}
}

// fieldValue is what the text field that has the keys holds: the save
// box's, the go-to field's, the jobs line's, or the form's focused field's.
func fieldValue(m App) string {
	if m.Focus() == FocusClient && m.client.Typing() {
		return m.client.goTo.Value()
	}
	return focusedValue(m)
}

// wordKeys are the keys that edit or move by words and lines, as
// bubbletea reads them.
var wordKeys = []tea.KeyMsg{
	altD, altDelete,
	{Type: tea.KeyBackspace, Alt: true}, // alt+backspace
	{Type: tea.KeyCtrlW}, {Type: tea.KeyCtrlK}, {Type: tea.KeyCtrlU},
	{Type: tea.KeyLeft, Alt: true}, {Type: tea.KeyRight, Alt: true},
	{Type: tea.KeyCtrlLeft}, {Type: tea.KeyCtrlRight},
	{Type: tea.KeyRunes, Runes: []rune{'b'}, Alt: true}, {Type: tea.KeyRunes, Runes: []rune{'f'}, Alt: true},
	{Type: tea.KeyHome}, {Type: tea.KeyEnd}, ctrlA, {Type: tea.KeyCtrlE},
	{Type: tea.KeyLeft}, {Type: tea.KeyRight}, {Type: tea.KeyDelete}, {Type: tea.KeyBackspace},
}

// textFields are the program's text fields: the keys that open each, from
// a fresh program.
func textFields() []struct {
	name string
	open []string
} {
	return []struct {
		name string
		open []string
	}{
		{"go to client", []string{"1", "#"}},
		{"jobs line", []string{"4", "enter"}},
		{"save field", []string{"s"}},
		{"settings form's first field", []string{"5", "enter"}},
		{"settings form's policies", []string{"5", "enter"}}, // then tab to it
	}
}

// openField is a fresh program with the text field of case i open.
func openField(t testing.TB, i int) App {
	t.Helper()
	f := textFields()[i]
	m := send(t, quick(t, 100, 30), press(f.open...)...)
	if f.name == "settings form's policies" {
		for range 40 {
			if focusedField(m) == policiesField {
				break
			}
			m = send(t, m, press("tab")...)
		}
		if focusedField(m) != policiesField {
			t.Fatalf("tab never reached the field of the policies")
		}
	}
	return m
}

// fill empties the open field and types text into it, then puts the
// cursor after pos characters of what the field holds; it returns what
// the field holds and where the cursor is.
func fill(t testing.TB, m App, text string, pos int) (App, []rune, int) {
	t.Helper()
	m = send(t, m, press("end", "ctrl+u")...)
	for _, r := range text {
		if r == ' ' {
			m = send(t, m, press("space")...)
		} else {
			m = send(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		}
	}
	v := []rune(fieldValue(m))
	pos = min(pos, len(v))
	m = send(t, m, press("home")...)
	for range pos {
		m = send(t, m, press("right")...)
	}
	return m, v, pos
}

// Every text field, at every cursor position: alt+d deletes the spaces
// after the cursor and the word after those, and no word-editing key panics, makes
// the text longer or draws a frame wider than the window.
func FuzzWordKeys(f *testing.F) {
	for field := range textFields() {
		f.Add(uint8(field), "ab", []byte{0})
		f.Add(uint8(field), "a b  cd ", []byte{1, 2, 3, 6, 7, 0})
		f.Add(uint8(field), "  ", []byte{0, 0, 4, 5})
		f.Add(uint8(field), "grpc, aws", []byte{6, 0, 8, 1, 13, 16, 0})
		f.Add(uint8(field), "1s", []byte{12, 17, 0, 9, 0, 10, 11, 2})
		f.Add(uint8(field), "日本 語x", []byte{0, 14, 1, 15, 19, 18, 0})
	}
	f.Fuzz(func(t *testing.T, which uint8, text string, keys []byte) {
		var typed []rune
		for _, r := range text {
			if r == ' ' || unicode.IsGraphic(r) && !unicode.Is(unicode.Cf, r) {
				typed = append(typed, r)
			}
		}
		if len(typed) > 16 || len(keys) > 12 {
			t.Skip() // a field's worth; longer inputs find nothing more
		}
		i := int(which) % len(textFields())
		field := textFields()[i]
		m := openField(t, i)
		for pos := 0; ; pos++ {
			var v []rune
			var at int
			m, v, at = fill(t, m, string(typed), pos)
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%s holding %q, cursor at %d: a key panicked: %v", field.name, string(v), at, r)
					}
				}()
				m = send(t, m, altD)
				want := string(v[:at]) + string(v[wordEnd(v, at):])
				if got := fieldValue(m); got != want {
					t.Fatalf("%s holding %q, cursor at %d: alt+d leaves %q, want %q", field.name, string(v), at, got, want)
				}
				for _, b := range keys {
					before := len([]rune(fieldValue(m)))
					k := wordKeys[int(b)%len(wordKeys)]
					m = send(t, m, k)
					if after := len([]rune(fieldValue(m))); after > before {
						t.Fatalf("%s holding %q, cursor at %d: %s made the text longer, %d runes from %d", field.name, string(v), at, k, after, before)
					}
					checkFits(t, m.View(), 100, 30)
				}
			}()
			if at >= len(v) {
				break
			}
		}
	})
}
