package model

import (
	"bytes"
	"testing"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views"
)

// The teatest runs drive the whole program, commands and all, as a person
// would at 100x30, then golden the final model's view.

const finalTimeout = 5 * time.Second

func startProgram(t *testing.T) *teatest.TestModel {
	t.Helper()
	return teatest.NewTestModel(t, NewApp(backoff.Defaults(), views.DefaultStyles()), teatest.WithInitialTermSize(100, 30))
}

// sendKeys sends each key of press(names...) in turn.
func sendKeys(tm *teatest.TestModel, names ...string) {
	for _, msg := range press(names...) {
		tm.Send(msg)
	}
}

// waitFor waits until the program has drawn text.
func waitFor(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
		teatest.WithDuration(finalTimeout), teatest.WithCheckInterval(10*time.Millisecond))
}

func finalApp(t *testing.T, tm *teatest.TestModel) App {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	m, ok := tm.FinalModel(t, teatest.WithFinalTimeout(finalTimeout)).(App)
	if !ok {
		t.Fatal("the final model is not an App")
	}
	return m
}

func TestProgramNavigates(t *testing.T) {
	tm := startProgram(t)
	sendKeys(tm, "tab", "tab", "right", "a", "shift+tab", "1", "right", "up", "up", "k", "down")
	waitFor(t, tm, "Client 3 of 200")
	m := finalApp(t, tm)
	if m.Focus() != FocusClient {
		t.Errorf("focus: got %v, want %v", m.Focus(), FocusClient)
	}
	if c := m.ClientPane(); c.Policy() != backoff.FullJitter || c.Client() != 3 {
		t.Errorf("pane 1: got %v client %d, want full jitter client 3", c.Policy(), c.Client())
	}
	if tl := m.TimelinePane(); tl.Policy() != backoff.FullJitter || !tl.All() {
		t.Errorf("pane 3: got %v, all %v; want full jitter, all five", tl.Policy(), tl.All())
	}
	golden.RequireEqual(t, []byte(m.View()))
}

func TestProgramRunsJobs(t *testing.T) {
	tm := startProgram(t)
	sendKeys(tm, "4", "enter", "alpha:0 bravo:2 charlie:9 delta:fatal q1", "backspace", "backspace", "backspace", "enter")
	waitFor(t, tm, "Jobs done, given up, refused: 2, 1, 1.")
	m := finalApp(t, tm)
	r := m.JobsPane().Report()
	if r.Done != 2 || r.GaveUp != 1 || r.Refused != 1 || r.Ledger.Attempts != 11 || r.Ledger.Waited != 34000 || !r.Ledger.Balanced() {
		t.Errorf("report: got done %d, gave up %d, refused %d, %d attempts, waited %d, balanced %v; want 2, 1, 1, 11, 34000, true",
			r.Done, r.GaveUp, r.Refused, r.Ledger.Attempts, r.Ledger.Waited, r.Ledger.Balanced())
	}
	if m.JobsPane().Typing() || m.Focus() != FocusJobs {
		t.Errorf("after enter: typing %v, focus %v; want not typing, jobs", m.JobsPane().Typing(), m.Focus())
	}
	golden.RequireEqual(t, []byte(m.View()))
}

// Through the form: first wait 100 ms; then the crowd's busiest slots are
// the reference's 250, 195 and 119.
func TestProgramAppliesSettings(t *testing.T) {
	tm := startProgram(t)
	sendKeys(tm, "5", "enter")
	waitFor(t, tm, "first wait in ms (1 to 10000)> 1000")
	sendKeys(tm, "backspace", "backspace", "backspace", "backspace", "100", "enter")
	waitFor(t, tm, "┃ longest wait in ms (100 to 600000)")
	// A longest wait below the first wait is refused with --plain's message.
	sendKeys(tm, "backspace", "backspace", "backspace", "backspace", "backspace", "99", "enter")
	waitFor(t, tm, views.NumberError(100, 600000))
	sendKeys(tm, "backspace", "backspace", "16000", "enter")
	waitFor(t, tm, "┃ attempts per client")
	sendKeys(tm, "shift+tab")
	waitFor(t, tm, "┃ longest wait")
	for _, field := range []string{"attempts per client", "clients", "outage in ms", "seed"} {
		sendKeys(tm, "enter")
		waitFor(t, tm, "┃ "+field)
	}
	sendKeys(tm, "enter")
	waitFor(t, tm, "Applied.")
	sendKeys(tm, "2")
	waitFor(t, tm, "here 250, 195 and 119 against 200")
	m := finalApp(t, tm)
	want := backoff.Defaults()
	want.FirstWait = 100
	if m.Settings() != want {
		t.Errorf("settings: got %+v, want %+v", m.Settings(), want)
	}
	crowds := m.CrowdPane().Crowds()
	for p, most := range map[backoff.Shape]int{backoff.FullJitter: 250, backoff.EqualJitter: 195, backoff.Decorrelated: 119} {
		if got := crowds[p].Figures.MostInASlot; got != most {
			t.Errorf("%v busiest slot: got %d, want %d", p, got, most)
		}
	}
	golden.RequireEqual(t, []byte(m.View()))
}

// esc closes the form without a change, even after typing.
func TestProgramCancelsSettings(t *testing.T) {
	tm := startProgram(t)
	sendKeys(tm, "5", "enter")
	waitFor(t, tm, "first wait in ms (1 to 10000)> 1000")
	sendKeys(tm, "backspace", "7", "enter")
	waitFor(t, tm, "┃ longest wait")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "Cancelled.")
	m := finalApp(t, tm)
	if m.Settings() != backoff.Defaults() || m.SettingsPane().Editing() {
		t.Errorf("after esc: settings %+v, editing %v; want defaults, closed", m.Settings(), m.SettingsPane().Editing())
	}
}

// 100 KB pasted without bracketed-paste markers into the jobs line, then
// into a settings field: the key after each paste is answered (the work it
// costs is TestLongPasteIsLinear's), and neither field holds more than its
// limit.
func TestProgramTakesALongPaste(t *testing.T) {
	tm := startProgram(t)
	sendKeys(tm, "4", "enter")
	for _, msg := range pasteMsgs(sized("alpha:1 ", 100_000)) {
		tm.Send(msg)
	}
	sendKeys(tm, "enter")
	waitFor(t, tm, views.JobsTooMany)
	sendKeys(tm, "5", "enter", "backspace", "backspace", "backspace", "backspace")
	for _, msg := range pasteMsgs(sized("1234567890", 100_000)) {
		tm.Send(msg)
	}
	sendKeys(tm, "enter")
	waitFor(t, tm, views.NumberError(1, 10000))
	m := finalApp(t, tm)
	if got := utf8.RuneCountInString(m.JobsPane().input.Value()); got != jobsLineLimit {
		t.Errorf("the jobs line holds %d runes, want %d, its limit", got, jobsLineLimit)
	}
	if got, want := focusedValue(m), sized("1234567890", fieldLimit); got != want {
		t.Errorf("the first wait holds %d runes, %.20q..., want %q, the paste's first %d", utf8.RuneCountInString(got), got, want, fieldLimit)
	}
}
