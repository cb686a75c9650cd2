package model

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// Issue 19, item 1: every key typed into the settings form lands in the
// field that has the focus after the keys before it, however fast they
// come.

// formValues are the form's text fields as they hold now, by name.
func formValues(m App) map[string]string {
	out := map[string]string{}
	f := m.SettingsPane()
	if f.draft == nil {
		return out
	}
	for i, t := range formTexts() {
		out[t.name] = f.draft.text[i]
	}
	return out
}

// focusedField is the key of the field the cursor is on.
func focusedField(m App) string {
	if f := m.SettingsPane().form; f != nil {
		return f.GetFocusedField().GetKey()
	}
	return ""
}

// burst updates m with every message in turn, as bubbletea does with keys
// that arrive faster than their commands run: the messages of the
// commands come after the last key (and are delivered then, with theirs).
func burst(t testing.TB, m App, msgs ...tea.Msg) App {
	t.Helper()
	var pending []tea.Msg
	for _, msg := range msgs {
		next, cmd := m.Update(msg)
		m = next.(App)
		pending = append(pending, messagesWithin(cmd, 50*time.Millisecond)...)
	}
	return deliver(t, m, pending...)
}

// burstCases are bursts of keys in the open form, what each field holds
// after them and where the cursor is.
func burstCases() []struct {
	name  string
	keys  []string
	want  map[string]string
	focus string
} {
	first, longest, attempts := pane.FieldName(backoff.FirstWait), pane.FieldName(backoff.LongestWait), pane.FieldName(backoff.Attempts)
	capacity := pane.FieldName(backoff.Capacity)
	return []struct {
		name  string
		keys  []string
		want  map[string]string
		focus string
	}{
		{"tab ctrl+u 7ms", []string{"tab", "ctrl+u", "7ms"}, map[string]string{first: "1s", longest: "7ms"}, longest},
		// 9 ms is below the first wait: the second tab is refused, so 3ms
		// replaces the 9ms.
		{"tab ctrl+u 9ms tab ctrl+u 3ms", []string{"tab", "ctrl+u", "9ms", "tab", "ctrl+u", "3ms"}, map[string]string{first: "1s", longest: "3ms"}, longest},
		{"three fields", []string{"ctrl+u", "2ms", "tab", "ctrl+u", "20s", "enter", "ctrl+u", "8"},
			map[string]string{first: "2ms", longest: "20s", attempts: "8"}, attempts},
		{"down and up", []string{"down", "ctrl+u", "7s", "up", "ctrl+u", "3ms"}, map[string]string{first: "3ms", longest: "7s"}, first},
		{"to the second page and back", []string{"tab", "tab", "tab", "tab", "tab", "tab", "tab", "ctrl+u", "2,000", "shift+tab", "ctrl+u", "50ms"},
			map[string]string{pane.FieldName(backoff.Slot): "50ms", capacity: "2,000"}, pane.FieldName(backoff.Slot)},
		{"up on the first field stays", []string{"up", "ctrl+u", "5ms"}, map[string]string{first: "5ms", longest: "16s"}, first},
	}
}

func TestFormKeysLandWhereTheFocusIs(t *testing.T) {
	for _, tc := range burstCases() {
		t.Run(tc.name, func(t *testing.T) {
			for _, way := range []struct {
				name string
				run  func(testing.TB, App, ...tea.Msg) App
			}{{"in a burst", burst}, {"one at a time", deliver}} {
				open := deliver(t, quick(t, 100, 30), press("5", "enter")...) // App is a handle: a fresh one each way
				m := way.run(t, open, press(tc.keys...)...)
				got := formValues(m)
				for name, want := range tc.want {
					if got[name] != want {
						t.Errorf("%s: %s holds %q, want %q", way.name, name, got[name], want)
					}
				}
				if f := focusedField(m); f != tc.focus {
					t.Errorf("%s: the cursor is on %q, want %q", way.name, f, tc.focus)
				}
			}
		})
	}
}

// The whole program, the burst sent in one message: a sequence the runtime
// delivers key after key, its commands running beside it. ctrl+s applies
// from the field the cursor is on.
func TestProgramTakesABurstInTheForm(t *testing.T) {
	tm := startProgram(t)
	sendKeys(tm, "5", "enter")
	waitFor(t, tm, "first wait (1 ms to 1 h)> 1s")
	var keys []tea.Cmd
	for _, msg := range press("ctrl+u", "2ms", "tab", "ctrl+u", "20s", "tab", "ctrl+u", "8", "ctrl+s", "2") {
		keys = append(keys, func() tea.Msg { return msg })
	}
	tm.Send(tea.Sequence(keys...)())
	waitFor(t, tm, "[2 the crowd]")
	m := finalApp(t, tm)
	want := backoff.Defaults()
	want.FirstWait, want.LongestWait, want.Attempts = 2, 20000, 8
	if m.Settings() != want {
		t.Errorf("settings: got %+v, want %+v", m.Settings(), want)
	}
	if m.SettingsPane().Editing() || m.Focus() != FocusCrowd {
		t.Errorf("after ctrl+s 2: editing %v, focus %v; want the form closed, the crowd", m.SettingsPane().Editing(), m.Focus())
	}
	if got, want := m.SettingsPane().Note(), "Applied: first wait 1 s → 2 ms, longest wait 16 s → 20 s, attempts 6 → 8."; got != want {
		t.Errorf("note: got %q, want %q", got, want)
	}
	golden.RequireEqual(t, []byte(m.View()))
}

// ctrl+s applies from any field, and refuses, beside the field, what
// cannot be applied; after it the pane's keys work again, and the pane
// says how to open the form again.
func TestFormAppliesFromAnyField(t *testing.T) {
	m := deliver(t, quick(t, 100, 30), press("5", "enter", "ctrl+u", "1500ms", "ctrl+s")...)
	if m.SettingsPane().Editing() || m.Settings().FirstWait != 1500 {
		t.Fatalf("ctrl+s on the first field: editing %v, first wait %d; want closed, 1500", m.SettingsPane().Editing(), m.Settings().FirstWait)
	}
	if view := m.View(); !strings.Contains(view, "enter opens the form again") {
		t.Errorf("the pane does not say how to open the form again:\n%s", view)
	}
	m = deliver(t, m, press("enter", "down", "down", "down", "ctrl+u", "1_500", "down", "ctrl+u", "40s")...)
	if f := focusedField(m); f != pane.FieldName(backoff.Outage) {
		t.Fatalf("three downs and one more: the cursor is on %q, want the outage", f)
	}
	m = deliver(t, m, press("up", "ctrl+u", "0", "ctrl+s")...)
	if !m.SettingsPane().Editing() {
		t.Fatal("ctrl+s applied clients 0")
	}
	if view := m.View(); !strings.Contains(view, rangeError(backoff.Defaults(), backoff.Clients)) {
		t.Errorf("clients 0: the view does not say why beside the field:\n%s", view)
	}
	m = deliver(t, m, press("ctrl+u", "1,500", "ctrl+s", "2")...)
	if m.SettingsPane().Editing() || m.Settings().Clients != 1500 || m.Settings().Outage != 40000 || m.Focus() != FocusCrowd {
		t.Errorf("after ctrl+s 2: editing %v, clients %d, outage %d, focus %v; want closed, 1500, 40000, the crowd",
			m.SettingsPane().Editing(), m.Settings().Clients, m.Settings().Outage, m.Focus())
	}
}
