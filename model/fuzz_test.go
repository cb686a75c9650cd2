package model

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/plain"
)

// randomSettings are valid settings, mostly moderate, sometimes at the ends
// of their ranges.
func randomSettings(r *rand.Rand) backoff.Settings {
	s := backoff.Defaults()
	pick := func(low, high, moderate int) int {
		if r.IntN(5) == 0 {
			return []int{low, high}[r.IntN(2)]
		}
		return low + r.IntN(min(high, moderate)-low+1)
	}
	s.FirstWait = pick(1, 10000, 3000)
	s.LongestWait = pick(s.FirstWait, 600000, s.FirstWait+60000)
	s.Attempts = pick(2, 12, 12)
	s.Clients = pick(1, 1000, 300)
	s.Outage = pick(0, 600000, 60000)
	s.Seed = pick(0, 999999, 999999)
	return s
}

// TestRandomKeysAndSizes feeds thousands of random keys, window sizes and
// settings to Update and checks that nothing panics and every frame fits
// the window.
func TestRandomKeysAndSizes(t *testing.T) {
	steps := 6000
	if testing.Short() {
		steps = 600
	}
	keys := press("tab", "shift+tab", "1", "2", "3", "4", "5", "left", "right", "up", "down",
		"h", "j", "k", "l", "a", "enter", "enter", "esc", "backspace", "pgup", "pgdown", "?", "x", ":", "0", "9", "space",
		"p", "P", "d", "g", "G", "#", "home", "end", "s")
	r := rand.New(rand.NewPCG(1, 2))
	m := NewApp(backoff.Defaults(), pane.DefaultStyles(), inline(WithSeeds(3))...)
	w, h := 0, 0
	checkFits(t, m.View(), w, h)
	for i := range steps {
		var msg tea.Msg
		switch n := r.IntN(100); {
		case n < 8:
			w, h = r.IntN(220), r.IntN(70)
			if r.IntN(4) == 0 {
				w, h = MinWidth+r.IntN(3)-1, MinHeight+r.IntN(3)-1
			}
			msg = tea.WindowSizeMsg{Width: w, Height: h}
		case n < 10:
			msg = SettingsAppliedMsg{Settings: randomSettings(r)}
		case n < 14:
			buttons := []tea.MouseButton{tea.MouseButtonLeft, tea.MouseButtonWheelUp, tea.MouseButtonWheelDown}
			msg = tea.MouseMsg{X: r.IntN(max(w, 1)), Y: r.IntN(max(h, 1)), Button: buttons[r.IntN(len(buttons))], Action: tea.MouseActionPress}
		default:
			msg = keys[r.IntN(len(keys))]
		}
		next, _ := m.Update(msg)
		m = next.(App)
		if t.Failed() {
			return
		}
		frame := m.View()
		checkFits(t, frame, w, h)
		if t.Failed() {
			t.Fatalf("step %d, after %#v", i, msg)
		}
	}
}

// typedKeys is s typed into the full-screen program: printable runes as
// KeyRunes messages of up to chunk runes each (as bubbletea reads what
// comes faster than it is read), a space as a KeySpace, and some control
// characters as the keys they are on a keyboard.
func typedKeys(s string, chunk int) []tea.Msg {
	special := map[rune]tea.KeyType{
		'\r': tea.KeyEnter, '\n': tea.KeyEnter, '\x7f': tea.KeyBackspace, '\x1b': tea.KeyEsc, '\t': tea.KeyTab,
		'\x01': tea.KeyHome, '\x05': tea.KeyEnd, '\x02': tea.KeyLeft, '\x06': tea.KeyRight, '\x0b': tea.KeyCtrlK,
		'\x15': tea.KeyCtrlU, '\x17': tea.KeyCtrlW, '\x04': tea.KeyDelete,
	}
	var msgs []tea.Msg
	var run []rune
	flush := func() {
		for len(run) > 0 {
			n := min(len(run), max(chunk, 1))
			msgs = append(msgs, tea.KeyMsg{Type: tea.KeyRunes, Runes: slices.Clone(run[:n])})
			run = run[n:]
		}
	}
	for _, r := range s {
		switch k, ok := special[r]; {
		case ok:
			flush()
			msgs = append(msgs, tea.KeyMsg{Type: k})
		case r == ' ':
			flush()
			msgs = append(msgs, tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
		case unicode.IsControl(r):
			flush() // a key no binding has
			msgs = append(msgs, tea.KeyMsg{Type: tea.KeyCtrlG})
		default:
			run = append(run, r)
		}
	}
	flush()
	return msgs
}

// Whatever is typed into the jobs line, in a window of any size: nothing
// panics, every frame fits the window, the line never holds more than its
// limit, and enter answers the line as the rules say: --plain's form, the
// format characters' rule and one name for each job. Below the least size
// no key does anything.
func FuzzJobsLine(f *testing.F) {
	f.Add("alpha:0 bravo:2 charlie:9 delta:fatal", uint8(1), uint8(100), uint8(30))
	f.Add("alpha:0 bravo:2\x02\x02\x7fx\x01q1\x05 c:fatal", uint8(3), uint8(50), uint8(14))
	f.Add(strings.Repeat("a:1 ", 200), uint8(255), uint8(80), uint8(24))
	f.Add(strings.Repeat("abcdefgh", 100), uint8(200), uint8(80), uint8(24))
	f.Add("b\u202eravo:2 \u200bx:fatal", uint8(2), uint8(120), uint8(40))
	f.Add("日本語:1 é:fatal \x1b\ra:1\r", uint8(4), uint8(60), uint8(20))
	f.Add(":1 a: a::1 a:1000 a:FATAL", uint8(7), uint8(2), uint8(40))
	f.Fuzz(func(t *testing.T, typed string, chunk, w, h uint8) {
		width, height := int(w)%221, int(h)%71
		m := send(t, quick(t, width, height), press("4", "enter")...)
		for _, msg := range typedKeys(typed, int(chunk)) {
			if !m.JobsPane().Typing() {
				m = send(t, m, press("4", "enter")...) // enter ran the line, or esc stopped: type again
			}
			m = send(t, m, msg)
			if n := utf8.RuneCountInString(m.jobs.input.Value()); n > jobsLineLimit {
				t.Fatalf("the jobs line holds %d runes, want at most %d", n, jobsLineLimit)
			}
			checkFits(t, m.View(), width, height)
		}
		if !m.JobsPane().Typing() {
			return
		}
		line := m.jobs.input.Value()
		m = send(t, m, press("enter")...)
		note := ""
		jobs, err := ledger.Parse(line)
		if err == nil {
			err = ledger.CheckNames(jobs)
		}
		if err == nil {
			err = pane.CheckDuplicates(jobs)
		}
		switch {
		case strings.Trim(line, " ") == "":
			note = plain.Cancelled
		case err != nil:
			note = pane.JobLineError(err)
		}
		if got := m.JobsPane().Note(); got != note {
			t.Fatalf("enter on %q: note %q, want %q", line, got, note)
		}
		checkFits(t, m.View(), width, height)
	})
}
