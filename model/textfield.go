package model

import (
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

// bubbles v1.0.0's textinput deletes the word after the cursor (alt+d,
// alt+delete) by first stepping past the character under the cursor and
// then reading the one there without looking for the end of the text: with
// the cursor on the last character it reads past the end and panics, and
// with the cursor on the last character of a word it deletes the next word
// too (charmbracelet/bubbles#1056, open). Every text field of the program
// (pane 1's client, pane 4's jobs line, the save box's name, and through
// huh every field of the settings form) gives its keys to textinput
// through updateField or the form's wordForward, which delete the word
// themselves, as the key means: the spaces after the cursor, then the word
// after them.

// wordForward is the key that deletes the word after the cursor, as
// textinput binds it.
var wordForward = textinput.DefaultKeyMap.DeleteWordForward

// isWordForward reports whether msg deletes the word after the cursor.
func isWordForward(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyMsg)
	return ok && key.Matches(k, wordForward)
}

// wordEnd is where the deletion of the word after the cursor at pos ends:
// past any spaces, then past everything up to the next space or the end of
// v (emacs's kill-word, which the key is in textinput's own words).
func wordEnd(v []rune, pos int) int {
	i := min(max(pos, 0), len(v))
	for i < len(v) && unicode.IsSpace(v[i]) {
		i++
	}
	for i < len(v) && !unicode.IsSpace(v[i]) {
		i++
	}
	return i
}

// updateField gives msg to the text field in: as in.Update, but the word
// after the cursor is deleted here, the cursor left where it was.
func updateField(in textinput.Model, msg tea.Msg) (textinput.Model, tea.Cmd) {
	if !isWordForward(msg) || !in.Focused() || in.EchoMode != textinput.EchoNormal {
		return in.Update(msg)
	}
	v, pos := []rune(in.Value()), in.Position()
	if end := wordEnd(v, pos); end > pos {
		in.SetValue(string(append(v[:pos:pos], v[end:]...)))
		in.SetCursor(pos)
	}
	return in, nil
}

// The settings form's text fields are huh's, whose textinput the pane
// cannot reach, nor ask where its cursor is. ctrl+k deletes the text after
// the cursor, which tells where it was; the text after the word is typed
// back, and the cursor stepped back over it.
var (
	cutToEnd = tea.KeyMsg{Type: tea.KeyCtrlK}
	stepLeft = tea.KeyMsg{Type: tea.KeyLeft}
)

// wordForward deletes the word after the cursor of the form's focused
// field, through the form's own keys. A field that holds no text (a
// select) takes the key as it is.
func (m *SettingsPane) wordForward(msg tea.Msg) tea.Cmd {
	f := m.form.GetFocusedField()
	in, ok := f.(*huh.Input)
	if !ok {
		return m.toForm(msg)
	}
	before, _ := in.GetValue().(string)
	m.toForm(cutToEnd)
	head, _ := in.GetValue().(string)
	v, pos := []rune(before), len([]rune(head))
	if pos > len(v) || string(v[:pos]) != head {
		return nil // not what ctrl+k does; nothing more to do safely
	}
	tail := v[wordEnd(v, pos):]
	if len(tail) == 0 {
		return nil
	}
	cmd := m.toForm(tea.KeyMsg{Type: tea.KeyRunes, Runes: tail})
	for range tail {
		m.toForm(stepLeft)
	}
	return cmd
}

// toForm gives msg to the form as it is.
func (m *SettingsPane) toForm(msg tea.Msg) tea.Cmd {
	model, cmd := m.form.Update(msg)
	if f, ok := model.(*huh.Form); ok {
		m.form = f
	}
	return cmd
}
