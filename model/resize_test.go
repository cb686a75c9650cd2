package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// resizeStates are states of the program, each as the keys that lead to it
// and a key or two to press once the window has its final size.
//
// A pane scrolled before the window changed keeps its top line where it can
// (the scroll is state, as the cursor is), where a fresh start scrolls by a
// page of its own size: those states are compared once both have scrolled
// back to the top.
func resizeStates() []struct {
	name     string
	keys     []string
	after    []string
	scrolled bool
} {
	longLine := strings.Repeat("alpha:1 bravo:fatal ", 8) // longer than the widest line
	toTop := slices.Repeat([]string{"pgup"}, 20)
	return []struct {
		name     string
		keys     []string
		after    []string
		scrolled bool
	}{
		{"client", []string{"right", "up"}, []string{"left"}, false},
		{"crowd", []string{"2"}, []string{"down"}, false},
		{"timeline", []string{"3", "a"}, []string{"a"}, false},
		{"jobs run", []string{"4", "enter", "alpha:0 bravo:2 charlie:9 delta:fatal", "enter"}, []string{"down"}, false},
		{"jobs line typed", []string{"4", "enter", longLine, "left", "left", "left"}, []string{"right", "x"}, false},
		{"jobs line at its start", []string{"4", "enter", longLine, "home"}, []string{"right"}, false},
		{"settings", []string{"5"}, []string{"down"}, false},
		{"form", []string{"5", "enter"}, []string{"tab"}, false},
		{"form second field", []string{"5", "enter", "backspace", "7ms", "enter", "left", "left"}, []string{"tab", "shift+tab"}, false},
		{"form long value", []string{"5", "enter", "enter", "9999999999999999", "left", "left", "left"}, []string{"right"}, false},
		{"form error", []string{"5", "enter", "backspace", "backspace", "backspace", "backspace", "0", "enter"}, []string{"1", "enter"}, false},
		{"full help", []string{"?"}, []string{"?"}, false},
		{"client scrolled", []string{"pgdown"}, toTop, true},
		{"timeline scrolled", []string{"3", "a", "pgdown", "down"}, toTop, true},
		{"jobs scrolled", []string{"4", "enter", "a:0 b:1 c:2 d:3 e:4 f:9 g:fatal h:11", "enter", "pgdown"}, toTop, true},
	}
}

// keyMsgs is press with the keys the resize states need besides.
func keyMsgs(names ...string) []tea.Msg {
	var msgs []tea.Msg
	for _, n := range names {
		if n == "home" {
			msgs = append(msgs, tea.KeyMsg{Type: tea.KeyHome})
			continue
		}
		msgs = append(msgs, press(n)...)
	}
	return msgs
}

// panesView is every pane's view, as it draws when it next has the keys,
// and the frame, for a message when they differ.
func panesView(m App) string {
	c, tl, j := m.client, m.timeline, m.jobs
	c.Refresh()
	tl.Refresh()
	j.Refresh()
	return fmt.Sprintf("frame:\n%s\n1:\n%s\n2:\n%s\n3:\n%s\n4:\n%s\n5:\n%s", m.View(),
		c.View(), m.crowd.View(), tl.View(), j.View(), m.form.View())
}

// delivered is what msgs lead to: msgs and the messages of their commands,
// in the order settle delivers them (a command that waits, as the
// cursor's blink does, left out), and the program after them.
func delivered(t *testing.T, m App, msgs []tea.Msg) (App, []tea.Msg) {
	t.Helper()
	var out []tea.Msg
	for len(msgs) > 0 {
		var more []tea.Msg
		m, more = step(t, m, msgs[0])
		out = append(out, msgs[0])
		msgs = append(msgs[1:], more...)
	}
	return m, out
}

// reach is a program at size brought to a state by keys. Below the least
// size keys do nothing, so there the keys are given at 100x30 and the
// window then shrinks.
func reach(t *testing.T, size [2]int, keys []tea.Msg) App {
	t.Helper()
	if size[0] < MinWidth || size[1] < MinHeight {
		return send(t, send(t, quick(t, 100, 30), keys...), tea.WindowSizeMsg{Width: size[0], Height: size[1]})
	}
	return send(t, quick(t, size[0], size[1]), keys...)
}

// Whatever sizes the window had before, every pane draws what a program
// started at the final size and brought to the same state draws, and goes
// on doing so after more keys. The sizes include none at all, one cell, and
// two columns, in which the form's fields wrap over many lines. Each state's
// messages, its commands' included, are gathered once and then given to
// every program, so that each gets the same.
func TestResizeDrawsAsAFreshStart(t *testing.T) {
	sizes := [][2]int{{0, 0}, {1, 1}, {2, 40}, {40, 2}, {MinWidth, MinHeight}, {MinWidth - 1, MinHeight}, {60, 20}, {80, 24}, {100, 30}, {200, 60}, {300, 5}}
	r := rand.New(rand.NewPCG(11, 4))
	for _, st := range resizeStates() {
		reached, keys := delivered(t, quick(t, 100, 30), keyMsgs(st.keys...))
		_, after := delivered(t, reached, keyMsgs(st.after...))
		for run := range 12 {
			start, final := [2]int{100, 30}, [2]int{100, 30}
			// The issue's: 100x30, then 2x40, then 100x30; then random.
			seq := []tea.Msg{tea.WindowSizeMsg{Width: 2, Height: 40}, tea.WindowSizeMsg{Width: 100, Height: 30}}
			if run > 0 {
				start, seq = sizes[r.IntN(len(sizes))], nil
				for range 1 + r.IntN(4) {
					final = sizes[r.IntN(len(sizes))]
					seq = append(seq, tea.WindowSizeMsg{Width: final[0], Height: final[1]})
				}
			}
			name := fmt.Sprintf("%s from %dx%d through %d sizes to %dx%d", st.name, start[0], start[1], len(seq), final[0], final[1])
			m := send(t, reach(t, start, keys), seq...)
			fresh := reach(t, final, keys)
			if got, want := panesView(m), panesView(fresh); got != want && !st.scrolled {
				t.Fatalf("%s: got\n%s\nwant, as a fresh start,\n%s", name, got, want)
			}
			m, fresh = send(t, m, after...), send(t, fresh, after...)
			view := panesView
			if final[0] < MinWidth || final[1] < MinHeight {
				// Keys do nothing there: a pane scrolled before stays
				// scrolled, and only the frame is drawn.
				view = func(m App) string { return m.View() }
			}
			if got, want := view(m), view(fresh); got != want {
				t.Fatalf("%s, then %q: got\n%s\nwant, as a fresh start,\n%s", name, st.after, got, want)
			}
		}
	}
}
