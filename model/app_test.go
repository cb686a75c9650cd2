package model

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/plain"
)

// TestMain fixes the colour profile and background so that goldens are the
// same on every machine.
func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// inline runs every computation inside Update, so that each message's
// frame shows its results: for tests that golden or inspect them. The
// core's answers are kept for the next program that asks the same (the
// core is deterministic, and the programs only read what it gives).
func inline(more ...Option) []Option {
	return append([]Option{WithInlineWork(math.MaxInt64), WithInlineSpread(), WithCompute(memo)}, more...)
}

// memo is the core, remembering its answers.
var memo = func() Compute {
	core := CoreCompute()
	var crowds, spreads sync.Map
	key := func(ps []backoff.Policy, s backoff.Settings, n int, series bool) string {
		return fmt.Sprint(ps, s, n, series)
	}
	return Compute{
		Crowds: func(ps []backoff.Policy, s backoff.Settings, o backoff.Options) ([]backoff.Result, error) {
			k := key(ps, s, 0, o.Series)
			if r, ok := crowds.Load(k); ok {
				return r.([]backoff.Result), nil
			}
			r, err := core.Crowds(ps, s, o)
			if err == nil {
				crowds.Store(k, r)
			}
			return r, err
		},
		Spread: func(ps []backoff.Policy, s backoff.Settings, n int, o backoff.SeedOptions) (backoff.SeedsCrowd, error) {
			k := key(ps, s, n, false)
			if r, ok := spreads.Load(k); ok {
				o.Done.Add(int64(n))
				return r.(backoff.SeedsCrowd), nil
			}
			r, err := core.Spread(ps, s, n, o)
			if err == nil {
				spreads.Store(k, r)
			}
			return r, err
		},
	}
}()

// newApp is the program at defaults in a w x h window, every computation
// run inside Update.
func newApp(t testing.TB, w, h int) App {
	t.Helper()
	return newAppWith(t, w, h, inline()...)
}

// newAppWith is the program at defaults in a w x h window, with opts.
func newAppWith(t testing.TB, w, h int, opts ...Option) App {
	t.Helper()
	return send(t, NewApp(backoff.Defaults(), pane.DefaultStyles(), opts...), tea.WindowSizeMsg{Width: w, Height: h})
}

// quick is newApp without the spread over seeds, for tests that make many
// programs.
func quick(t testing.TB, w, h int) App {
	t.Helper()
	return newAppWith(t, w, h, inline(WithSeeds(0))...)
}

// send updates m with each message in turn, dropping the commands.
func send(t testing.TB, m App, msgs ...tea.Msg) App {
	t.Helper()
	for _, msg := range msgs {
		next, _ := m.Update(msg)
		m = next.(App)
	}
	return m
}

// press is the messages of keys written as bubbletea names them ("enter",
// "shift+tab", "left") or, for any other word, typed rune by rune.
func press(names ...string) []tea.Msg {
	special := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
		"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown,
		"backspace": tea.KeyBackspace, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"ctrl+c": tea.KeyCtrlC, "ctrl+u": tea.KeyCtrlU, "ctrl+s": tea.KeyCtrlS, "home": tea.KeyHome, "end": tea.KeyEnd,
	}
	var msgs []tea.Msg
	for _, n := range names {
		if n == "space" {
			msgs = append(msgs, tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
			continue
		}
		if k, ok := special[n]; ok {
			msgs = append(msgs, tea.KeyMsg{Type: k})
			continue
		}
		for _, r := range n {
			msgs = append(msgs, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		}
	}
	return msgs
}

// deliver updates m with each message in turn and, before the next, with
// the messages its commands give at once, as the runtime does for keys
// typed at a person's pace (the form's steps from field to field); a
// command that waits, such as the cursor's blink, is left out.
func deliver(t testing.TB, m App, msgs ...tea.Msg) App {
	t.Helper()
	for _, msg := range msgs {
		next, cmd := m.Update(msg)
		m = deliver(t, next.(App), messagesWithin(cmd, 50*time.Millisecond)...)
	}
	return m
}

// checkFits fails unless the frame has at most h lines of at most w cells.
func checkFits(t testing.TB, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) > max(h, 1) {
		t.Fatalf("%dx%d: frame has %d lines, want at most %d:\n%s", w, h, len(lines), h, frame)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Fatalf("%dx%d: line %d is %d cells wide, want at most %d: %q", w, h, i, n, w, l)
		}
	}
}

func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// The program opens on the crowd, what a person comes for (issue 19, item
// 10); pane 1 waits on exponential's client 1.
func TestOpensOnTheCrowdClientOneExponential(t *testing.T) {
	m := newApp(t, 100, 30)
	if m.Focus() != FocusCrowd {
		t.Errorf("focus: got %v, want %v", m.Focus(), FocusCrowd)
	}
	c := m.ClientPane()
	if c.Policy().Name != "exponential" || c.Client() != 1 {
		t.Errorf("got %v client %d, want exponential client 1", c.Policy(), c.Client())
	}
	if got := c.Schedule().DrawnTotal(); got != 31000 {
		t.Errorf("total: got %d, want 31000", got)
	}
	if got := m.TimelinePane().Chosen(); got != int(backoff.Exponential) {
		t.Errorf("timeline policy: got %d, want exponential's, %d", got, int(backoff.Exponential))
	}
}

func TestNavigation(t *testing.T) {
	tests := []struct {
		keys []string
		want Focus
	}{
		{[]string{"tab"}, FocusTimeline},
		{[]string{"tab", "tab", "tab", "tab", "tab"}, FocusClient},
		{[]string{"tab", "tab", "tab", "tab", "tab", "tab"}, FocusCrowd},
		{[]string{"shift+tab"}, FocusClient},
		{[]string{"shift+tab", "shift+tab"}, FocusAdvice},
		{[]string{"shift+tab", "shift+tab", "shift+tab"}, FocusSettings},
		{[]string{"6"}, FocusAdvice},
		{[]string{"3"}, FocusTimeline},
		{[]string{"5", "4"}, FocusJobs},
		{[]string{"45"}, FocusSettings}, // two keys read at once
	}
	for _, tt := range tests {
		m := send(t, newApp(t, 100, 30), press(tt.keys...)...)
		if m.Focus() != tt.want {
			t.Errorf("%q: got %v, want %v", tt.keys, m.Focus(), tt.want)
		}
	}
}

// Six policies, the settings' own last; up is the previous client and down
// the next, as in every list.
func TestPolicyAndClientKeys(t *testing.T) {
	tests := []struct {
		keys   []string
		policy string
		client int
	}{
		{[]string{"right"}, "full jitter", 1},
		{[]string{"l", "l"}, "equal jitter", 1},
		{[]string{"left", "h"}, "custom", 1},
		{[]string{"left", "h", "h"}, "decorrelated", 1},
		{[]string{"down", "j", "down"}, "exponential", 4},
		{[]string{"down", "up", "k", "up"}, "exponential", 1}, // not below 1
	}
	for _, tt := range tests {
		c := send(t, quick(t, 100, 30), press(append([]string{"1"}, tt.keys...)...)...).ClientPane()
		if c.Policy().Name != tt.policy || c.Client() != tt.client {
			t.Errorf("%q: got %v client %d, want %v client %d", tt.keys, c.Policy(), c.Client(), tt.policy, tt.client)
		}
	}
	// Not above the number of clients.
	s := backoff.Defaults()
	s.Clients = 3
	m := send(t, quick(t, 100, 30), SettingsAppliedMsg{Settings: s})
	m = send(t, m, press("1", "down", "down", "down", "down", "down")...)
	if got := m.ClientPane().Client(); got != 3 {
		t.Errorf("client after five downs with 3 clients: got %d, want 3", got)
	}
	want := backoff.ScheduleOf(s.Policy(backoff.Exponential), s, 3)
	if got := m.ClientPane().Schedule(); len(got.Retries) != len(want.Retries) || got.Retries[0] != want.Retries[0] || got.Client != 3 {
		t.Errorf("schedule: got %v, want %v", got, want)
	}
}

func TestTimelineKeys(t *testing.T) {
	m := send(t, quick(t, 100, 30), press("3", "right", "right")...)
	if got := m.TimelinePane().Chosen(); got != int(backoff.EqualJitter) {
		t.Errorf("policy: got %v, want equal jitter", got)
	}
	m = send(t, m, press("a")...)
	if !m.TimelinePane().All() {
		t.Error("a did not show all five")
	}
	m = send(t, m, press("a")...)
	if m.TimelinePane().All() {
		t.Error("a again did not go back to one policy")
	}
	// At 100x30 the rows are a second each, as the reference counts.
	if got := m.TimelinePane().RowMs(); got != 1000 {
		t.Fatalf("rows: got %d ms, want 1000", got)
	}
	if got, want := m.TimelinePane().Rows(int(backoff.EqualJitter))[2].Retries, 147; got != want {
		t.Errorf("equal jitter in second 2: got %d, want %d", got, want)
	}
}

func TestQuit(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		next, cmd := newApp(t, 100, 30).Update(press(k)[0])
		if !quits(cmd) {
			t.Errorf("%s did not quit", k)
		}
		_ = next
	}
}

// While the jobs line or the form has the keys, 1-5, q and tab are typed
// into it; ctrl+c still quits.
func TestFieldsTakeTheKeys(t *testing.T) {
	m := send(t, newApp(t, 100, 30), press("4", "enter")...)
	if !m.JobsPane().Typing() {
		t.Fatal("enter on pane 4 did not start typing")
	}
	for _, k := range []string{"q", "1", "tab", "5", "?"} {
		var cmd tea.Cmd
		var next tea.Model
		next, cmd = m.Update(press(k)[0])
		m = next.(App)
		if quits(cmd) || m.Focus() != FocusJobs {
			t.Fatalf("%s left the jobs line", k)
		}
	}
	if _, cmd := m.Update(press("ctrl+c")[0]); !quits(cmd) {
		t.Error("ctrl+c did not quit while typing")
	}

	m = send(t, newApp(t, 100, 30), press("5", "enter")...)
	if !m.SettingsPane().Editing() {
		t.Fatal("enter on pane 5 did not open the form")
	}
	m = send(t, m, press("q", "1", "tab", "2")...)
	if m.Focus() != FocusSettings || !m.SettingsPane().Editing() {
		t.Fatal("keys left the form")
	}
	if _, cmd := m.Update(press("ctrl+c")[0]); !quits(cmd) {
		t.Error("ctrl+c did not quit in the form")
	}
}

func TestJobs(t *testing.T) {
	tests := []struct {
		line     string
		note     string
		attempts int
	}{
		{"alpha:0 bravo:2 charlie:9 delta:fatal", "", 11},
		{"   ", plain.Cancelled, 0},
		{"", plain.Cancelled, 0},
		{"alpha", "alpha: write a job as name:failures (0 to 999) or name:fatal.", 0},
		{"alpha:1000", "alpha:1000: failures go from 0 to 999.", 0},
		// --plain's rule, 1 to 3 digits: 099 runs as 99, 0099 is refused,
		// and the words say why.
		{"a:0099", "a:0099: failures are written in 1 to 3 digits: 0099 has 4; write 99.", 0},
		{"a:0000", "a:0000: failures are written in 1 to 3 digits: 0000 has 4; write 0.", 0},
		{"a:099", "", 6}, // 99 failures: every one of the 6 attempts fails
		{":3", ":3: a job needs a name before the colon.", 0},
		{"bravo:", "bravo:: after the colon, how many times it fails (0 to 999), or fatal.", 0},
		{"bravo:two", "bravo:two: after the colon, a number of failures from 0 to 999, or fatal; two is neither.", 0},
		{"a:1 b:1 c:1 d:1 e:1 f:1 g:1 h:1 i:1", "9 jobs: up to 8 run at a time.", 0},
		{"alpha:0 bravo:1 alpha:2", "alpha appears twice: give each job its own name, so that the ledger tells them apart.", 0},
	}
	for _, tt := range tests {
		keys := []string{"4", "enter"}
		if tt.line != "" {
			keys = append(keys, tt.line)
		}
		m := send(t, quick(t, 100, 30), press(append(keys, "enter")...)...)
		j := m.JobsPane()
		if j.Typing() {
			t.Errorf("%q: still typing after enter", tt.line)
		}
		if j.Note() != tt.note {
			t.Errorf("%q: note: got %q, want %q", tt.line, j.Note(), tt.note)
		}
		if got := j.Report().Ledger.Attempts; got != tt.attempts {
			t.Errorf("%q: attempts: got %d, want %d", tt.line, got, tt.attempts)
		}
	}
	// esc stops typing without running.
	m := send(t, newApp(t, 100, 30), press("4", "enter", "alpha:0", "esc")...)
	if j := m.JobsPane(); j.Typing() || len(j.Report().Results) != 0 || j.Note() != "" {
		t.Errorf("esc: typing %v, %d results, note %q; want stopped, none, no note", j.Typing(), len(j.Report().Results), j.Note())
	}
}

// The jobs line refuses a name with a format character (it would not show
// what it holds), naming the job and the rule; --plain takes it, as the
// reference does.
func TestJobsRefuseFormatCharacters(t *testing.T) {
	tests := []struct {
		line, job, char string
	}{
		{"alpha:0 b\u202eravo:2", `"b\u202eravo:2"`, "U+202E"},
		{"\u200bx:fatal", `"\u200bx:fatal"`, "U+200B"},
		{"a:1 b\u2066c:3", `"b\u2066c:3"`, "U+2066"},
		// Not format characters, and as unseen: two jobs would look alike.
		{"a:1 a\u3164:1", `"a\u3164:1"`, "U+3164"},
		{"\u115fa:1", `"\u115fa:1"`, "U+115F"},
		{"e\u034f:2", `"e\u034f:2"`, "U+034F"},
		{"x\u2800:fatal", `"x\u2800:fatal"`, "U+2800"},
		{"l\u2028m:0", `"l\u2028m:0"`, "U+2028"},
	}
	for _, tt := range tests {
		m := send(t, newApp(t, 100, 30), press("4", "enter", "ok:0", "enter", "enter", "backspace", "backspace", "backspace", "backspace", tt.line, "enter")...)
		j := m.JobsPane()
		if note := j.Note(); !strings.Contains(note, tt.job) || !strings.Contains(note, tt.char) || !strings.Contains(note, "direction-changing") {
			t.Errorf("%q: note %q, want it to name %s, %s and the rule", tt.line, note, tt.job, tt.char)
		}
		if got := j.Report().Results; len(got) != 1 || got[0].Job.Name != "ok" {
			t.Errorf("%q: results %v, want the last run's, ok:0", tt.line, got)
		}
		screen := plainScreen(t, []byte("4\n"+tt.line+"\n6\n"))
		if !strings.Contains(screen, plain.LedgerCheck) {
			t.Errorf("%q: --plain does not run it as the reference does:\n%s", tt.line, screen)
		}
	}
}

func TestJobsRunAgainWithNewSettings(t *testing.T) {
	m := send(t, newApp(t, 100, 30), press("4", "enter", "charlie:9", "enter")...)
	s := backoff.Defaults()
	s.Attempts = 3
	m = send(t, m, SettingsAppliedMsg{Settings: s})
	if got := m.JobsPane().Report().Ledger.Attempts; got != 3 {
		t.Errorf("attempts after 3 attempts per client: got %d, want 3", got)
	}
}

// The settings form checks each field with the wide range, and says so
// beside the field.
func TestSettingsFormValidation(t *testing.T) {
	m := send(t, quick(t, 100, 30), press("5", "enter", "backspace", "backspace", "backspace", "backspace", "0", "enter")...)
	want := rangeError(backoff.Defaults(), backoff.FirstWait)
	if view := m.View(); !strings.Contains(view, "> 0  "+pane.ErrorMark+" "+want) {
		t.Errorf("first wait 0: the view does not say %q beside the field:\n%s", want, view)
	}
	if !m.SettingsPane().Editing() {
		t.Error("the form closed on an error")
	}
	m = send(t, m, press("esc")...)
	if m.SettingsPane().Editing() || m.Settings() != backoff.Defaults() {
		t.Errorf("esc: editing %v, settings %+v; want closed, defaults", m.SettingsPane().Editing(), m.Settings())
	}
	if !strings.HasPrefix(m.SettingsPane().Note(), plain.Cancelled) {
		t.Errorf("esc: note %q, want it to start with %q", m.SettingsPane().Note(), plain.Cancelled)
	}
}

// The longest wait's range starts at the first wait being typed; a field
// takes what the flags take.
func TestSettingsLongestWaitRange(t *testing.T) {
	p := NewSettingsPane(DefaultPlan(backoff.Defaults()), pane.DefaultStyles())
	p.SetSize(100, 20)
	p, _ = p.Update(press("enter")[0])
	p.draft.text[0] = "5s"
	check := func(typed string) error { return p.draft.check(p.plan, 1, typed) }
	first5s := backoff.Defaults()
	first5s.FirstWait = 5000
	if err := check("4999ms"); err == nil || err.Error() != rangeError(first5s, backoff.LongestWait) {
		t.Errorf("longest 4999 after first 5s: got %v, want %q", err, rangeError(first5s, backoff.LongestWait))
	}
	for _, good := range []string{"5000ms", "5s", "1.5m", "1m30s", "1s4000ms", "1h", "5S"} {
		if err := check(good); err != nil {
			t.Errorf("longest %q after first 5s: got %v, want nil", good, err)
		}
	}
	for _, bad := range []string{"", "x", "-1", "+5000", "12345678901", "1h1ms", "1.5ms", "5000ms "} {
		if err := check(bad); err == nil {
			t.Errorf("longest %q: got nil, want an error", bad)
		}
	}
	// A number alone could be ms or s (issue 24, item 5): the field says so.
	for _, bare := range []string{"5000", "3600001"} {
		if err := check(bare); err == nil || err.Error() != "A time needs a unit: "+bare+"ms or "+bare+"s?" {
			t.Errorf("longest %q: got %v, want both readings", bare, err)
		}
	}
}

func TestSettingsAppliedRecomputesEveryPane(t *testing.T) {
	s := backoff.Defaults()
	s.FirstWait = 100
	m := send(t, quick(t, 100, 30), SettingsAppliedMsg{Settings: s})
	if m.Settings() != s {
		t.Fatalf("settings: got %+v, want %+v", m.Settings(), s)
	}
	crowds := m.CrowdPane().Crowds()
	for p, want := range map[backoff.Shape]int{backoff.Exponential: 200, backoff.FullJitter: 250, backoff.EqualJitter: 195, backoff.Decorrelated: 119} {
		if got := crowds[p].Figures.MostInASlot; got != want {
			t.Errorf("%v busiest slot: got %d, want %d", p, got, want)
		}
	}
	if got := m.ClientPane().Schedule().DrawnTotal(); got != 3100 {
		t.Errorf("client total: got %d, want 3100", got)
	}
	checkTimelineIsTheCrowds(t, m)
}

// checkTimelineIsTheCrowds fails unless pane 3's rows add up to pane 2's
// crowds: one run feeds both.
func checkTimelineIsTheCrowds(t *testing.T, m App) {
	t.Helper()
	for i, c := range m.CrowdPane().Crowds() {
		retries, attempts := 0, 0
		for _, r := range m.TimelinePane().Rows(i) {
			retries += r.Retries
			attempts += r.Attempts()
		}
		if retries != c.Figures.Retries || attempts != c.Figures.Attempts {
			t.Errorf("%s: pane 3 counts %d retries and %d attempts, pane 2 %d and %d", c.Policy.Name, retries, attempts, c.Figures.Retries, c.Figures.Attempts)
		}
	}
}

// crowdRow is the cells of policy p's row of the crowd table in a frame,
// the marks and the first cell, the clients not through, left out:
// retries, per client, most in a slot and its rate, where the busiest slot
// starts, gave up.
func crowdRow(t *testing.T, frame string, p backoff.Shape) []string {
	t.Helper()
	for _, l := range strings.Split(frame, "\n") {
		cells := regexp.MustCompile(` {2,}`).Split(strings.TrimSpace(strings.NewReplacer("*", " ", "!", " ").Replace(l)), -1)
		if cells[0] == p.String() && len(cells) > 2 {
			return cells[2:]
		}
	}
	t.Fatalf("no %v row in the crowd table:\n%s", p, frame)
	return nil
}

func TestCrowdFigures(t *testing.T) {
	m := newApp(t, 100, 60) // tall enough for the verdicts and the crowd table under them
	c := m.CrowdPane().Crowds()[backoff.FullJitter].Figures
	if c.Retries != 962 || c.MostInASlot != 28 || c.BusiestSlotFrom != 400 || c.AllThroughBy != 24563 || c.GaveUp != 36 {
		t.Errorf("full jitter: got %d / %d / %d ms / %d ms / %d, want 962 / 28 / 400 ms / 24563 ms / 36",
			c.Retries, c.MostInASlot, c.BusiestSlotFrom, c.AllThroughBy, c.GaveUp)
	}
	row := crowdRow(t, send(t, m, press("2")...).View(), backoff.FullJitter)
	if got, want := strings.Join(row, " / "), "962 / 4.81 / 28 · 280/s / 400 ms / 36"; got != want { // 962 over 200 to a hundredth (issue 24 item 12)
		t.Errorf("full jitter row: got %s, want %s", got, want)
	}
	// With a first wait of 100 ms the busiest slots become 250, 195 and 119.
	s := backoff.Defaults()
	s.FirstWait = 100
	frame := send(t, m, SettingsAppliedMsg{Settings: s}, press("2")[0]).View()
	for p, want := range map[backoff.Shape]string{backoff.FullJitter: "250", backoff.EqualJitter: "195", backoff.Decorrelated: "119"} {
		if got := strings.Fields(crowdRow(t, frame, p)[2])[0]; got != want {
			t.Errorf("first wait 100, %v: most in a slot got %s, want %s", p, got, want)
		}
	}
}

func TestTooSmall(t *testing.T) {
	m := newApp(t, 30, 10)
	view := m.View()
	checkFits(t, view, 30, 10)
	if !strings.Contains(view, "too small") || !strings.Contains(view, "50x14") {
		t.Errorf("30x10 view does not say it is too small and needs 50x14:\n%s", view)
	}
}

func TestFirstViewBeforeAnySize(t *testing.T) {
	m := NewApp(backoff.Defaults(), pane.DefaultStyles())
	if v := m.View(); v != "" {
		t.Errorf("view before any window size: got %q, want nothing", v)
	}
}

// At the least size pane 1's schedule, total and strip do not all fit:
// pgup/pgdn scroll them (up and down stay the client's), the head stays,
// and the hint says how.
func TestClientScrolls(t *testing.T) {
	m := send(t, newApp(t, MinWidth, MinHeight), press("1")...)
	top := m.View()
	checkFits(t, top, MinWidth, MinHeight)
	for _, want := range []string{"[exponential]", "Client 1 of 200", "↓ more below (pgup/pgdn)"} {
		if !strings.Contains(top, want) {
			t.Errorf("top: does not show %q:\n%s", want, top)
		}
	}
	if strings.Contains(top, "31 s before the last attempt") {
		t.Errorf("top: the total already shows, nothing to scroll:\n%s", top)
	}
	m = send(t, m, press("pgdown")...)
	bottom := m.View()
	checkFits(t, bottom, MinWidth, MinHeight)
	for _, want := range []string{"[exponential]", "Client 1 of 200", "In all 15 s before the last attempt it made,", "× down  ✓ gets through", "↑ more above (pgup/pgdn)"} {
		if !strings.Contains(bottom, want) {
			t.Errorf("after pgdn: does not show %q:\n%s", want, bottom)
		}
	}
	golden.RequireEqual(t, []byte(bottom))
	// down is the next client, and the scroll stays where it was.
	m = send(t, m, press("down")...)
	if got := m.ClientPane().Client(); got != 2 {
		t.Errorf("client after down: got %d, want 2", got)
	}
	if v := m.View(); !strings.Contains(v, "Client 2 of 200") || !strings.Contains(v, "↑ more above") {
		t.Errorf("after down: want client 2, still scrolled:\n%s", v)
	}
	if v := send(t, m, press("pgup")...).View(); !strings.Contains(v, "↓ more below") {
		t.Errorf("after pgup: want the top again:\n%s", v)
	}
	// At 100x30 it all fits: no hint.
	if v := send(t, newApp(t, 100, 30), press("1")...).View(); strings.Contains(v, "more below") {
		t.Errorf("100x30: a scroll hint, want none:\n%s", v)
	}
}
