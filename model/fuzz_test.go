package model

import (
	"math/rand/v2"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views"
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
		"h", "j", "k", "l", "a", "enter", "enter", "esc", "backspace", "pgup", "pgdown", "?", "x", ":", "0", "9", "space")
	r := rand.New(rand.NewPCG(1, 2))
	m := NewApp(backoff.Defaults(), views.DefaultStyles())
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
