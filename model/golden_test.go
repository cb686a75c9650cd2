package model

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/retryplanner/retry-planner/backoff"
)

// goldenStates are the states the goldens show, each as the messages that
// lead to it from the program at defaults.
func goldenStates() []struct {
	name string
	msgs []tea.Msg
} {
	firstWait100 := backoff.Defaults()
	firstWait100.FirstWait = 100
	outage0 := backoff.Defaults()
	outage0.Outage = 0
	k := press
	cat := func(parts ...[]tea.Msg) []tea.Msg {
		var out []tea.Msg
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	return []struct {
		name string
		msgs []tea.Msg
	}{
		{"client_fixed", k("left")},
		{"client_exponential", nil},
		{"client_full_jitter", k("right")},
		{"client_full_jitter_client_2", k("right", "up")},
		{"client_equal_jitter", k("right", "right")},
		{"client_decorrelated", k("left", "left")},
		{"client_outage_0", []tea.Msg{SettingsAppliedMsg{Settings: outage0}}},
		{"crowd", k("2")},
		{"crowd_first_wait_100", cat([]tea.Msg{SettingsAppliedMsg{Settings: firstWait100}}, k("2"))},
		{"timeline_fixed", k("3", "left")},
		{"timeline_exponential", k("3")},
		{"timeline_full_jitter", k("3", "right")},
		{"timeline_equal_jitter", k("3", "right", "right")},
		{"timeline_decorrelated", k("3", "left", "left")},
		{"timeline_all", k("3", "a")},
		{"timeline_all_scrolled", k("3", "a", "pgdown")},
		{"jobs_empty", k("4")},
		{"jobs_typing", k("4", "enter", "alpha:0 bravo:2")},
		{"jobs_reference", k("4", "enter", "alpha:0 bravo:2 charlie:9 delta:fatal", "enter")},
		{"jobs_full", k("4", "enter", "a:0 b:1 c:2 d:3 e:4 f:9 g:fatal h:11", "enter")},
		{"jobs_full_scrolled", k("4", "enter", "a:0 b:1 c:2 d:3 e:4 f:9 g:fatal h:11", "enter", "pgdown")},
		{"jobs_error", k("4", "enter", "alpha", "enter")},
		{"jobs_cancelled", k("4", "enter", "enter")},
		{"settings", k("5")},
		{"settings_form", k("5", "enter")},
		{"settings_error", k("5", "enter", "backspace", "backspace", "backspace", "backspace", "0", "enter")},
		{"settings_cancelled", k("5", "enter", "esc")},
		{"help", k("?")},
	}
}

// TestGolden draws each state at 100x30, and each pane at the least size
// the program draws in.
func TestGolden(t *testing.T) {
	for _, st := range goldenStates() {
		t.Run(st.name, func(t *testing.T) {
			m := send(t, newApp(t, 100, 30), st.msgs...)
			view := m.View()
			checkFits(t, view, 100, 30)
			golden.RequireEqual(t, []byte(view))
		})
	}
	for _, pane := range []string{"1", "2", "3", "4", "5"} {
		t.Run("least_"+pane, func(t *testing.T) {
			m := send(t, newApp(t, MinWidth, MinHeight), press(pane)...)
			view := m.View()
			checkFits(t, view, MinWidth, MinHeight)
			golden.RequireEqual(t, []byte(view))
		})
	}
	t.Run("tiny_30x10", func(t *testing.T) {
		view := newApp(t, 30, 10).View()
		checkFits(t, view, 30, 10)
		golden.RequireEqual(t, []byte(view))
	})
}
