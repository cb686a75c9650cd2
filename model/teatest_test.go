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
	"github.com/retryplanner/retry-planner/views/pane"
)

// The teatest runs drive the whole program, commands and all, as a person
// would at 100x30, then golden the final model's view.

const finalTimeout = 5 * time.Second

// startProgram runs the program at defaults at 100x30. Every computation
// runs inside Update unless opts say otherwise, so that the final frame,
// which these runs golden, does not depend on when a computation lands.
func startProgram(t *testing.T, opts ...Option) *teatest.TestModel {
	t.Helper()
	if opts == nil {
		opts = inline()
	}
	return teatest.NewTestModel(t, NewApp(backoff.Defaults(), pane.DefaultStyles(), opts...), teatest.WithInitialTermSize(100, 30))
}

// sendKeys sends each key of press(names...) in turn.
func sendKeys(tm *teatest.TestModel, names ...string) {
	for _, msg := range press(names...) {
		tm.Send(msg)
	}
}

// waitFor waits until the program has drawn each of texts since the last
// wait (teatest's output is read as it is waited for).
func waitFor(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, text := range texts {
			if !bytes.Contains(b, []byte(text)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(finalTimeout), teatest.WithCheckInterval(10*time.Millisecond))
}

// formTitles are the beginnings of the form's fields' titles, in order.
func formTitles() []string {
	var out []string
	for _, t := range formTexts() {
		switch t.name {
		case pane.FieldName(backoff.OutageHang):
			out = append(out, "queue order (", "expired requests (")
		case pane.FieldName(backoff.CustomFirstWait):
			out = append(out, "your own policy starts from")
		case pane.FieldName(backoff.Multiplier):
			out = append(out, "growth (")
		case "the spread's seeds":
			out = append(out, "draws (")
		}
		out = append(out, t.name)
	}
	return append(out, "the spread's draws")
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

// Panes 1 and 3 share one chosen policy: right in pane 3, then right in
// pane 1, is equal jitter in both.
func TestProgramNavigates(t *testing.T) {
	tm := startProgram(t)
	sendKeys(tm, "tab", "right", "a", "shift+tab", "1", "right", "down", "down", "j", "up")
	waitFor(t, tm, "Client 3 of 200")
	m := finalApp(t, tm)
	if m.Focus() != FocusClient {
		t.Errorf("focus: got %v, want %v", m.Focus(), FocusClient)
	}
	if c := m.ClientPane(); c.Policy().Name != "equal jitter" || c.Client() != 3 {
		t.Errorf("pane 1: got %v client %d, want equal jitter client 3", c.Policy(), c.Client())
	}
	if tl := m.TimelinePane(); tl.Chosen() != int(backoff.EqualJitter) || !tl.All() {
		t.Errorf("pane 3: got policy %d, all %v; want equal jitter, all of them", tl.Chosen(), tl.All())
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

// Through the form: first wait 100 ms, typed as a duration; then the
// crowd's busiest slots are the reference's 250, 195 and 119.
func TestProgramAppliesSettings(t *testing.T) {
	tm := startProgram(t)
	sendKeys(tm, "5", "enter")
	waitFor(t, tm, "first wait (1 ms to 1 h)> 1s")
	sendKeys(tm, "backspace", "backspace", "100ms", "enter")
	waitFor(t, tm, "┃ longest wait (100 ms to 1 h)")
	// A longest wait below the first wait is refused, beside the field.
	sendKeys(tm, "backspace", "backspace", "backspace", "99ms", "enter")
	first100 := backoff.Defaults()
	first100.FirstWait = 100
	waitFor(t, tm, "> 99ms  "+pane.ErrorMark+" "+rangeError(first100, backoff.LongestWait))
	sendKeys(tm, "backspace", "backspace", "backspace", "backspace", "16s", "enter")
	waitFor(t, tm, "┃ attempts")
	sendKeys(tm, "shift+tab")
	waitFor(t, tm, "┃ longest wait")
	// Each enter moves at once; waiting for each field's title shows that
	// every page is drawn on the way.
	for _, title := range formTitles()[2:] {
		sendKeys(tm, "enter")
		waitFor(t, tm, "┃ "+title)
	}
	sendKeys(tm, "enter")
	waitFor(t, tm, "Applied: first wait 1 s → 100 ms.")
	sendKeys(tm, "2", "pgdown") // the crowd table, under the verdicts
	waitFor(t, tm, "250 · 2,500/s")
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
	waitFor(t, tm, "first wait (1 ms to 1 h)> 1s")
	sendKeys(tm, "backspace", "7ms", "enter")
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
	waitFor(t, tm, "jobs: up to 8 run at a time.")
	sendKeys(tm, "5", "enter", "backspace", "backspace", "backspace", "backspace")
	for _, msg := range pasteMsgs(sized("1234567890", 100_000)) {
		tm.Send(msg)
	}
	sendKeys(tm, "enter")
	waitFor(t, tm, rangeError(backoff.Defaults(), backoff.FirstWait))
	m := finalApp(t, tm)
	if got := utf8.RuneCountInString(m.JobsPane().input.Value()); got != jobsLineLimit {
		t.Errorf("the jobs line holds %d runes, want %d, its limit", got, jobsLineLimit)
	}
	if got, want := focusedValue(m), sized("1234567890", fieldLimit); got != want {
		t.Errorf("the first wait holds %d runes, %.20q..., want %q, the paste's first %d", utf8.RuneCountInString(got), got, want, fieldLimit)
	}
}
