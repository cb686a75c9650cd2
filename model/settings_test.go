package model

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// formFields is how many fields the settings form has: its text fields and
// six selects (the queue's order and expired requests, the preset, the
// growth, the draws and the spread's draws).
var formFields = len(formTexts()) + 6

// messagesOf runs cmd as bubbletea would, batches command by command, and
// returns the messages it gives. A command that has not returned within a
// moment (the cursor's blink, which waits half a second) is left out.
func messagesOf(cmd tea.Cmd) []tea.Msg { return messagesWithin(cmd, 100*time.Millisecond) }

// messagesWithin is messagesOf, waiting up to d for each command.
func messagesWithin(cmd tea.Cmd, d time.Duration) []tea.Msg {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(d):
		return nil
	}
	switch msg := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, messagesWithin(c, d)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// step updates m with msg and returns the messages its commands give.
func step(t *testing.T, m App, msg tea.Msg) (App, []tea.Msg) {
	t.Helper()
	next, cmd := m.Update(msg)
	return next.(App), messagesOf(cmd)
}

// settle updates m with msgs and with every message their commands give,
// until none is left or stop says to stop; it returns the messages not yet
// delivered then.
func settle(t *testing.T, m App, stop func(App) bool, msgs ...tea.Msg) (App, []tea.Msg) {
	t.Helper()
	for len(msgs) > 0 && !stop(m) {
		var more []tea.Msg
		m, more = step(t, m, msgs[0])
		msgs = append(msgs[1:], more...)
	}
	return m, msgs
}

func never(App) bool { return false }

// checkFirstWait100 fails unless every pane shows a first wait of 100 ms.
func checkFirstWait100(t *testing.T, m App) {
	t.Helper()
	want := backoff.Defaults()
	want.FirstWait = 100
	if m.Settings() != want {
		t.Fatalf("settings: got %+v, want %+v", m.Settings(), want)
	}
	if got := m.ClientPane().Schedule().DrawnTotal(); got != 3100 {
		t.Errorf("pane 1 total: got %d, want 3100", got)
	}
	if got := m.CrowdPane().Crowds()[backoff.FullJitter].Figures.MostInASlot; got != 250 {
		t.Errorf("pane 2 full jitter busiest slot: got %d, want 250", got)
	}
	checkTimelineIsTheCrowds(t, m)
	if got := m.SettingsPane().Settings(); got != want {
		t.Errorf("pane 5: got %+v, want %+v", got, want)
	}
}

// The settings a form applies reach every pane in the Update that completes
// it: when enter is held (or pasted) and opens the form again before any
// command's message arrives, nothing is lost.
func TestSettingsApplyBeforeTheFormOpensAgain(t *testing.T) {
	m, _ := settle(t, newApp(t, 100, 30), never, press("5", "enter")...)
	m, _ = settle(t, m, never, press("backspace", "backspace", "backspace", "backspace", "100ms")...)
	// Enter on each field, delivering the form's messages, until it closes;
	// whatever is still on its way then waits.
	var pending []tea.Msg
	for range formFields {
		if !m.SettingsPane().Editing() {
			break
		}
		m, pending = settle(t, m, func(m App) bool { return !m.SettingsPane().Editing() }, press("enter")...)
	}
	if m.SettingsPane().Editing() {
		t.Fatal("the form did not complete")
	}
	if got, want := m.SettingsPane().Note(), "Applied: first wait 1 s → 100 ms."; got != want {
		t.Errorf("note: got %q, want %q", got, want)
	}
	m, _ = step(t, m, press("enter")[0]) // opens the form again
	if !m.SettingsPane().Editing() {
		t.Fatal("enter did not open the form again")
	}
	m, _ = settle(t, m, never, pending...)
	m, _ = step(t, m, press("esc")[0])
	checkFirstWait100(t, m)
	if view := m.View(); !regexp.MustCompile(`first wait +100 ms`).MatchString(view) {
		t.Errorf("pane 5 does not show a first wait of 100:\n%s", view)
	}
}

// What a closed form's commands send (here the new page's refresh, after
// the step from the first page to the second) does nothing to a form
// opened after it.
func TestStaleFormMessagesDoNotMoveAFreshForm(t *testing.T) {
	m, _ := settle(t, newApp(t, 100, 30), never, press("5", "enter", "tab", "tab", "tab", "tab", "tab", "tab")...)
	// The step to the second page: hold what its commands send.
	m, pending := step(t, m, press("tab")[0])
	if len(pending) == 0 {
		t.Fatal("the step to the second page sent nothing")
	}
	if got, want := m.SettingsPane().form.GetFocusedField().GetKey(), pane.FieldName(backoff.Capacity); got != want {
		t.Fatalf("after seven tabs the cursor is on %q, want %q", got, want)
	}
	m, _ = settle(t, m, never, press("esc", "enter")...)
	m, _ = settle(t, m, never, pending...)
	if !m.SettingsPane().Editing() {
		t.Fatal("the fresh form closed")
	}
	if got, want := m.SettingsPane().form.GetFocusedField().GetKey(), pane.FieldName(backoff.FirstWait); got != want {
		t.Errorf("the fresh form's field: got %q, want %q", got, want)
	}
	// And the form that completes is the fresh one, with what was typed in
	// it.
	m, _ = settle(t, m, never, press("backspace", "backspace", "backspace", "backspace", "100ms")...)
	for range formFields {
		m, _ = settle(t, m, func(m App) bool { return !m.SettingsPane().Editing() }, press("enter")...)
	}
	checkFirstWait100(t, m)
}

// The summary under a closed form is drawn from the settings it applied,
// before the root has passed them back.
func TestSettingsSummaryShowsTheAppliedSettings(t *testing.T) {
	p := NewSettingsPane(DefaultPlan(backoff.Defaults()), pane.DefaultStyles())
	p.SetSize(100, 30)
	msgs := press("enter", "backspace", "backspace", "backspace", "backspace", "100ms")
	for range formFields {
		msgs = append(msgs, press("enter")...)
	}
	for len(msgs) > 0 {
		var cmd tea.Cmd
		p, cmd = p.Update(msgs[0])
		msgs = append(msgs[1:], messagesOf(cmd)...)
	}
	if p.Editing() {
		t.Fatal("the form did not complete")
	}
	var row string
	for _, l := range strings.Split(p.View(), "\n") {
		if strings.HasPrefix(l, pane.FieldName(backoff.FirstWait)) {
			row = strings.Join(strings.Fields(l), " ")
		}
	}
	if want := pane.FieldName(backoff.FirstWait) + " 100 ms "; !strings.HasPrefix(row, want) {
		t.Errorf("summary row: got %q, want it to start %q", row, want)
	}
}

// The open form is drawn after every change, so a frame is never behind
// the form: after each key and each message of its commands, the cursor's
// blink included, the pane shows what the form draws now.
func TestSettingsFormDrawnLive(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI) // the cursor shows in reverse video
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	m := newApp(t, 100, 30)
	check := func(when string) {
		t.Helper()
		p := m.SettingsPane()
		if want := pane.Fit(p.title+"\n\n"+p.form.View(), p.width, p.height); p.View() != want {
			t.Fatalf("%s: the pane shows\n%s\nwant what the form draws now\n%s", when, p.View(), want)
		}
	}
	m, _ = step(t, m, press("5")[0])
	m, msgs := step(t, m, press("enter")[0])
	check("opened")
	blinks := 0
	for _, key := range press("backspace", "7ms", "enter", "4") {
		next, cmd := m.Update(key)
		m = next.(App)
		// A key starts the cursor's blink again: it blinks after half a
		// second.
		msgs = append(msgs, messagesWithin(cmd, time.Second)...)
		check("after a key")
	}
	// The blink comes after half a second.
	deadline := time.Now().Add(3 * time.Second)
	for len(msgs) > 0 && blinks < 2 && time.Now().Before(deadline) {
		before := m.View()
		var next tea.Msg
		next, msgs = msgs[0], msgs[1:]
		next2, cmd := m.Update(next)
		m = next2.(App)
		msgs = append(msgs, messagesWithin(cmd, time.Second)...)
		check("after a message of the form's commands")
		if fm, ok := next.(formMsg); ok {
			if _, ok := fm.msg.(cursor.BlinkMsg); ok && m.View() != before {
				blinks++
			}
		}
	}
	if blinks == 0 {
		t.Error("no blink of the cursor changed the frame")
	}
}

// The jobs line is drawn after every change, the same as it draws itself.
func TestJobsLineDrawnLive(t *testing.T) {
	m := newApp(t, 100, 30)
	for _, key := range press("4", "enter", "alpha:0 br", "backspace", "left", "x", "enter", "enter", "esc") {
		m = send(t, m, key)
		j := m.JobsPane()
		if want := pane.Fit(j.input.View(), j.width, 1); j.line != want {
			t.Fatalf("the jobs line shows %q, want %q", j.line, want)
		}
	}
}
