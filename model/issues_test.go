package model

import (
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/words"
)

// The tests of issues 7 to 10's full-screen parts, an item each, in the
// issues' words.

// lines are a frame's lines.
func lines(frame string) []string { return strings.Split(frame, "\n") }

// lineWith is the first line of frame that holds text, or "".
func lineWith(frame, text string) string {
	for _, l := range lines(frame) {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}

// Issue 9.1: pane 2 shows the busiest slot once the service is back, every
// per-slot count also as a rate a second, and the retries per client (962
// retries for 200 clients is 4.81 each, to a hundredth as every face writes
// it, issue 24 item 12); pane 3 the busiest row at or after
// the service is back.
func TestIssue9BusiestAfterBackRatesAndRetriesPerClient(t *testing.T) {
	frame := send(t, newApp(t, 120, 90), press("2")...).View()
	frame = frame[strings.Index(frame, "fail at 0 ms"):] // the tables, under the verdicts
	for _, want := range []string{"per client", "peak after back"} {
		if !strings.Contains(frame, want) {
			t.Errorf("pane 2 has no %q column:\n%s", want, frame)
		}
	}
	if got := strings.Join(strings.Fields(lineWith(frame, "full jitter")), " "); got != "full jitter 36 · 18% 962 4.81 28 · 280/s 400 ms 36" {
		t.Errorf("full jitter's row: got %q, want 962 retries, 4.81 each, 28 (280/s) at 400 ms, 36 gave up", got)
	}
	after := frame[strings.Index(frame, "Once the service is back"):]
	if got := strings.Join(strings.Fields(lineWith(after, "full jitter")), " "); got != "full jitter 5 · 50/s 10.4 s 24.6 s" {
		t.Errorf("full jitter once back: got %q, want a peak of 5 (50/s) from 10.4 s, all through by 24.6 s", got)
	}
	timeline := send(t, newApp(t, 100, 30), press("3", "right")...).View()
	if want := "once the service is back, 23 at 10 s (23/s)"; !strings.Contains(timeline, want) {
		t.Errorf("pane 3 does not say %q:\n%s", want, timeline)
	}
}

// Issue 9.2: pane 1 shows the chosen policy's formula on the line under
// the policy row.
func TestIssue9FormulaUnderThePolicyRow(t *testing.T) {
	m := send(t, quick(t, 120, 40), press("1")...)
	for range 6 {
		p := m.ClientPane().Policy()
		if got, want := lines(m.View())[3], words.Formula(p); got != want {
			t.Errorf("%s: the line under the policies is %q, want %q", p.Name, got, want)
		}
		m = send(t, m, press("right")...)
	}
}

// Issue 9.3: pane 3 shows every slot on one time axis, empty ones too, one
// policy or all; it counts per the slot setting, and says so.
func TestIssue9EveryRowOnOneAxis(t *testing.T) {
	m := send(t, quick(t, 100, 30), press("3")...) // exponential: retries at 1, 3, 7 and 15 s
	body := m.View()
	for _, row := range []string{" 2 s   ", " 4 s   ", "10 s ▶"} {
		if !strings.Contains(body, row) {
			t.Errorf("one policy: no row %q (every second has a row):\n%s", row, body)
		}
	}
	if n := len(m.TimelinePane().Rows(int(backoff.Exponential))); n < 16 {
		t.Errorf("exponential's rows: %d, want every second to 15 s", n)
	}
	for _, tt := range []struct {
		w, h int
		head string
	}{{120, 40, "attempts in each 500 ms"}, {100, 30, "attempts in each second (2 slots of 500 ms)"}} {
		slot := send(t, quick(t, tt.w, tt.h), SettingsAppliedMsg{Settings: withSlot(500)}, press("3")[0]).View()
		if !strings.Contains(slot, tt.head) {
			t.Errorf("slot 500 ms at %dx%d: the head does not say %q:\n%s", tt.w, tt.h, tt.head, slot)
		}
	}
}

func withSlot(ms int) backoff.Settings {
	s := backoff.Defaults()
	s.Slot = ms
	return s
}

// Issue 9.4: the footer keeps ? and q at every width, drops the least
// useful keys first, never ends in a separator, and while the full help is
// open offers to close it.
func TestIssue9FooterKeepsHelpAndQuit(t *testing.T) {
	for _, pane := range []string{"1", "2", "3", "4", "5"} {
		for w := MinWidth; w <= 200; w += 5 {
			m := send(t, quick(t, w, 30), press(pane)...)
			footer := lines(m.View())[len(lines(m.View()))-1]
			if !strings.HasSuffix(footer, "? more keys • q quit") {
				t.Errorf("pane %s at %d columns: footer %q does not end with ? and q", pane, w, footer)
			}
			if ansi.StringWidth(footer) > w {
				t.Errorf("pane %s at %d columns: footer %q is wider", pane, w, footer)
			}
		}
	}
	narrow := lines(send(t, quick(t, MinWidth, 20), press("1")...).View())
	if got := narrow[len(narrow)-1]; !strings.HasPrefix(got, "←/→ policy") || strings.Contains(got, "tab next pane") {
		t.Errorf("pane 1 at 50 columns: footer %q, want the pane's first keys before tab", got)
	}
	help := lines(send(t, quick(t, 80, 24), press("?")...).View())
	if got := help[len(help)-1]; got != "? close help • q quit" {
		t.Errorf("with the full help open: footer %q, want ? close help • q quit", got)
	}
}

// Issue 9.6: every pane's head says the seed and the draws; d switches
// them, and says so.
func TestIssue9SeedAndDrawsInEveryPane(t *testing.T) {
	m := quick(t, 100, 30)
	for _, pane := range []string{"1", "2", "3", "4", "5"} {
		m = send(t, m, press(pane)...)
		if head := lines(m.View())[1]; !strings.Contains(head, "seed 7, reference draws (d)") {
			t.Errorf("pane %s: the head %q does not say the seed and the draws", pane, head)
		}
	}
	m = send(t, m, press("d", "2")...)
	if head := lines(m.View())[1]; !strings.Contains(head, "seed 7, independent draws (d)") {
		t.Errorf("after d: the head %q does not say independent draws", head)
	}
	if m.Settings().Draws != backoff.Independent || !strings.Contains(content(m), "seed 7, independent draws.") {
		t.Errorf("after d: draws %v; pane 2 must say them:\n%s", m.Settings().Draws, content(m))
	}
}

// Issue 9.7: the form takes what the flags take (1s, 1.5s, 1s500ms), and
// an error sits beside its field until the field changes or the cursor
// leaves it.
func TestIssue9FormTakesDurationsAndErrorsGo(t *testing.T) {
	for _, typed := range []string{"1500ms", "1.5s", "1s500ms", "1.5S"} {
		m := deliver(t, quick(t, 100, 30), press("5", "enter", "backspace", "backspace", typed)...)
		m = deliver(t, m, enters(formFields)...)
		if got := m.Settings().FirstWait; got != 1500 || m.SettingsPane().Editing() {
			t.Errorf("first wait %q: got %d ms (form open %v), want 1500, applied", typed, got, m.SettingsPane().Editing())
		}
	}
	// The program's state is behind a pointer: each way on from the error
	// starts from a program of its own.
	atError := func() App {
		return deliver(t, quick(t, 100, 30), press("5", "enter", "enter", "backspace", "backspace", "backspace", "999ms", "enter")...)
	}
	want := "> 999ms  " + pane.ErrorMark + " " + rangeError(backoff.Defaults(), backoff.LongestWait)
	if m := atError(); !strings.Contains(m.View(), want) {
		t.Fatalf("the error is not beside the field (%q):\n%s", want, m.View())
	}
	if typed := deliver(t, atError(), press("9")...); strings.Contains(typed.View(), pane.ErrorMark) {
		t.Errorf("the error stays after the field changed:\n%s", typed.View())
	}
	left := deliver(t, atError(), press("shift+tab")...)
	if strings.Contains(left.View(), pane.ErrorMark) {
		t.Errorf("the error stays after the cursor left the field:\n%s", left.View())
	}
	// Back on the field, the error shows again only when enter is pressed
	// on it again (huh checks a field as the cursor leaves it, and would
	// show it at once).
	back := deliver(t, left, press("enter")...)
	if strings.Contains(back.View(), pane.ErrorMark) || !strings.Contains(back.View(), "┃ longest wait") {
		t.Errorf("back on the field: an error before enter, or not on the field:\n%s", back.View())
	}
	if again := deliver(t, back, press("enter")...); !strings.Contains(again.View(), want) {
		t.Errorf("enter on the field again: no error:\n%s", again.View())
	}
}

// Issue 9.8: a bad job names the token and the rule; old results dim under
// an error; duplicate names get a message; the jobs wait as pane 1's policy
// does; pane 4 speaks Go.
func TestIssue9Jobs(t *testing.T) {
	m := send(t, quick(t, 100, 40), press("4", "enter", "alpha:0 bravo:2", "enter", "enter", "space", "alpha:1000", "enter")...)
	frame := m.View()
	for _, want := range []string{"alpha:1000: failures go from 0 to 999.", "The last run's, before the line above:", "✓ bravo: done on attempt 3"} {
		if !strings.Contains(frame, want) {
			t.Errorf("does not show %q:\n%s", want, frame)
		}
	}
	full := send(t, quick(t, 100, 40), press("1", "right", "4", "enter", "bravo:2 delta:fatal", "enter")...)
	if got := full.JobsPane().Policy().Name; got != "full jitter" {
		t.Errorf("jobs wait as %s, want pane 1's full jitter", got)
	}
	if e := full.JobsPane().Report().Ledger.Entries[0]; e.Wait != 152 {
		t.Errorf("bravo's first wait: got %d ms, want 152 (full jitter's client 1)", e.Wait)
	}
	frame = full.View()
	// Issue 19, item 10: the words of the jobs report and --plain, the
	// reference's, for the same things.
	for _, want := range []string{"The finally block ran 4 times.", "cannot be retried, stopped", "Jobs done, given up, refused: 1, 0, 1."} {
		if !strings.Contains(frame, want) {
			t.Errorf("does not say %q:\n%s", want, frame)
		}
	}
	for _, other := range []string{"deferred", "TypeError"} {
		if strings.Contains(frame, other) {
			t.Errorf("pane 4 says %q, which the jobs report does not:\n%s", other, frame)
		}
	}
}

// Issue 9.9: the wheel scrolls, a click on a tab or a policy selects it,
// home/end and g/G go to the top and bottom, # goes to client N, and
// panes 1 and 3 share one chosen policy.
func TestIssue9Navigation(t *testing.T) {
	wheel := func(b tea.MouseButton) tea.MouseMsg {
		return tea.MouseMsg{X: 10, Y: 10, Button: b, Action: tea.MouseActionPress}
	}
	m := send(t, quick(t, 100, 24), press("2")...)
	m = send(t, m, wheel(tea.MouseButtonWheelDown))
	if !strings.Contains(m.View(), "lines 4-") {
		t.Errorf("the wheel did not scroll pane 2 by three lines:\n%s", m.View())
	}
	m = send(t, m, press("G")...)
	if !strings.Contains(m.View(), "↑ more above") {
		t.Errorf("G did not go to the bottom:\n%s", m.View())
	}
	m = send(t, m, tea.KeyMsg{Type: tea.KeyHome})
	if !strings.Contains(m.View(), "↓ more below") || strings.Contains(m.View(), "more above") {
		t.Errorf("home did not go to the top:\n%s", m.View())
	}
	// A click on tab 3, then on full jitter in its row of policies.
	header := lines(m.View())[0]
	m = send(t, m, tea.MouseMsg{X: strings.Index(header, "3 retries"), Y: 0, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if m.Focus() != FocusTimeline {
		t.Fatalf("a click on tab 3: focus %v, want %v", m.Focus(), FocusTimeline)
	}
	row := lines(m.View())[2]
	m = send(t, m, tea.MouseMsg{X: strings.Index(row, "full jitter"), Y: 2, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if got := m.TimelinePane().Chosen(); got != int(backoff.FullJitter) {
		t.Errorf("a click on full jitter: pane 3's policy %d, want %d", got, int(backoff.FullJitter))
	}
	if got := m.ClientPane().Policy().Name; got != "full jitter" {
		t.Errorf("pane 1's policy after pane 3's: %s, want full jitter (they share one)", got)
	}
	m = send(t, m, press("1", "#", "37", "enter")...)
	if got := m.ClientPane().Client(); got != 37 {
		t.Errorf("# 37 enter: client %d, want 37", got)
	}
	if !strings.Contains(m.View(), "Client 37 of 200") || !strings.HasPrefix(lines(m.View())[2], " fixed   exponential  [full jitter]") {
		t.Errorf("pane 1 after # 37 does not show client 37 under full jitter:\n%s", m.View())
	}
}

// Issue 9.10: from 160 columns pane 1 shows the schedules side by side and
// pane 2 its tables beside their bars; prose stays within 100 columns.
func TestIssue9LargeWindows(t *testing.T) {
	client := send(t, newApp(t, 200, 60), press("1")...).View()
	heads := lineWith(client, "[exponential]")
	for _, name := range []string{"fixed", "full jitter", "equal jitter", "decorrelated", "custom"} {
		if !strings.Contains(lines(client)[6], name) || heads == "" {
			t.Errorf("pane 1 at 200 columns: no column for %s:\n%s", name, client)
		}
	}
	crowd := send(t, newApp(t, 200, 60), press("2")...).View()
	l := lineWith(crowd, "Peak after back, seed 7")
	prose, _, beside := strings.Cut(l, "    Peak after back")
	if !beside || !strings.HasPrefix(prose, pane.VerdictTitle) {
		t.Fatalf("pane 2 at 200 columns: the bars are not beside the tables: %q", l)
	}
	if n := ansi.StringWidth(strings.TrimRight(prose, " ")); n > pane.ProseWidth {
		t.Errorf("prose %d columns wide, want at most %d: %q", n, pane.ProseWidth, prose)
	}
}

// Issue 9.11: below the least size only q and ctrl+c do anything, and q
// quits, even with the jobs line focused.
func TestIssue9TooSmallTakesOnlyQuit(t *testing.T) {
	m := send(t, quick(t, 100, 30), press("4", "enter", "ab")...)
	m = send(t, m, tea.WindowSizeMsg{Width: 30, Height: 10})
	for _, k := range press("x", "2", "enter", "tab", "esc", "?", "d", "p") {
		next, cmd := m.Update(k)
		m = next.(App)
		if quits(cmd) {
			t.Errorf("%v quit", k)
		}
	}
	if got := m.jobs.input.Value(); got != "ab" || m.Focus() != FocusJobs || !m.JobsPane().Typing() {
		t.Errorf("keys acted while too small: line %q, focus %v, typing %v; want ab, jobs, typing", got, m.Focus(), m.JobsPane().Typing())
	}
	if m.Settings().Draws != backoff.Reference || m.runs.pinned != nil {
		t.Error("d or p acted while too small")
	}
	if _, cmd := m.Update(press("q")[0]); !quits(cmd) {
		t.Error("q did not quit while too small, the jobs line focused")
	}
}

// Issue 9.12: times as people read them; the heads say what they are; the
// "-" is explained; pane 3 has a legend.
func TestIssue9Units(t *testing.T) {
	crowd := send(t, newApp(t, 120, 80), press("2")...).View()
	for _, want := range []string{"busiest slot starts", "- means there is none", "24.6 s", "2.4 s"} {
		if !strings.Contains(crowd, want) {
			t.Errorf("pane 2 does not say %q:\n%s", want, crowd)
		}
	}
	if regexp.MustCompile(`\d{4,} ms`).MatchString(crowd) {
		t.Errorf("pane 2 writes a time in thousands of ms:\n%s", crowd)
	}
	timeline := send(t, quick(t, 120, 40), press("3")...).View()
	if !strings.Contains(timeline, "█ served  ▒ rejected  ░ failed while down") {
		t.Errorf("pane 3 has no legend:\n%s", timeline)
	}
}

// Issue 7: the policy row's sixth place is the settings' own policy, named
// after the preset it equals; the form picks a preset and fills its fields.
func TestIssue7PresetInTheForm(t *testing.T) {
	m := deliver(t, quick(t, 120, 40), press("5")...)
	m = deliver(t, m, enters(20)...) // the preset, on the third page
	if f := m.SettingsPane().form.GetFocusedField(); f.GetKey() != presetKey {
		t.Fatalf("the focused field is %q, want the preset", f.GetKey())
	}
	m = deliver(t, m, press("right")...)        // grpc
	m = deliver(t, m, enters(formFields-19)...) // to the last field, and apply
	grpc, _ := backoff.FindPreset("grpc")
	if got := m.Settings().Custom(); got.Name != "grpc" || !got.Same(grpc.Policy) {
		t.Fatalf("the settings' own policy: %+v, want grpc's", got)
	}
	row := lines(send(t, m, press("1")...).View())[2]
	if !strings.HasSuffix(strings.TrimSpace(row), "grpc") {
		t.Errorf("the policy row %q does not end with grpc", row)
	}
	// Issue 19, item 2: the preset is your own policy's alone; the five
	// keep their 16 s and 6 attempts (this asserted 5 attempts before).
	if got := m.Settings(); got.Attempts != 6 || got.LongestWait != 16000 || got.FirstWait != 1000 {
		t.Errorf("the five's waits after grpc: first %d, longest %d, attempts %d; want 1000, 16000 and 6", got.FirstWait, got.LongestWait, got.Attempts)
	}
	want := "Applied: multiplier x2 → x1.6, your own longest wait 16 s → 2 min, your own attempts 6 → 5, jitter none → spread:0.2."
	if got := m.SettingsPane().Note(); got != want {
		t.Errorf("the note: got %q, want %q", got, want)
	}
}

// Issue 7: where reference draws cut a band short, pane 2 says so beside
// the figure and how to switch.
func TestIssue7CutShortInPane2(t *testing.T) {
	s := backoff.Defaults()
	s.FirstWait, s.LongestWait, s.Attempts = 10000, 600000, 12
	frame := send(t, quick(t, 120, 80), SettingsAppliedMsg{Settings: s}, press("2")[0]).View()
	if row := lineWith(frame[strings.Index(frame, "fail at 0 ms"):], "full jitter"); !strings.Contains(row, pane.CutMark) {
		t.Errorf("full jitter's row has no %s: %q", pane.CutMark, row)
	}
	if !strings.Contains(frame, "press d for independent draws") {
		t.Errorf("pane 2 does not say how to switch:\n%s", frame)
	}
	frame = send(t, quick(t, 120, 80), SettingsAppliedMsg{Settings: s}, press("d")[0], press("2")[0]).View()
	if strings.Contains(frame, pane.CutMark) {
		t.Errorf("independent draws: pane 2 still marks a cut:\n%s", frame)
	}
}
