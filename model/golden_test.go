package model

import (
	"fmt"
	"slices"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/retryplanner/retry-planner/backoff"
)

// goldenState is a state the goldens show: the messages that lead to it
// from the program at defaults.
type goldenState struct {
	name string
	msgs []tea.Msg
}

// applied is the message that applies the defaults changed by change.
func applied(change func(*backoff.Settings)) tea.Msg {
	s := backoff.Defaults()
	change(&s)
	return SettingsAppliedMsg{Settings: s}
}

// withService is a capacity of 100 a second and 50 fresh requests a
// second: the crowd's first retries overload it.
func withService(s *backoff.Settings) {
	s.Capacity, s.Load = 100, 50
}

// withQueue is the metastable failure in small: 200 clients of 4
// attempts against 20 a second from a queue of 100, with a timeout of 1 s,
// under 19 fresh requests a second: the service wastes its capacity on
// clients that left and is still overloaded when the load ends.
func withQueue(s *backoff.Settings) {
	s.Attempts, s.Capacity, s.Load, s.Queue, s.Timeout = 4, 20, 19, 100, 1000
}

func cat(parts ...[]tea.Msg) []tea.Msg {
	var out []tea.Msg
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// enters is n presses of enter.
func enters(n int) []tea.Msg { return press(slices.Repeat([]string{"enter"}, n)...) }

// paneStates are shown at each of goldenSizes: every pane, and the parts
// of issues 8 to 10 that change with the size.
func paneStates() []goldenState {
	k := press
	firstWait100 := applied(func(s *backoff.Settings) { s.FirstWait = 100 })
	service := applied(withService)
	queue := applied(withQueue)
	return []goldenState{
		{"client", k("1")},
		{"client_full_jitter", k("1", "right")},
		{"crowd", k("2")},
		{"crowd_service", cat([]tea.Msg{service}, k("2"))},
		{"crowd_ab", cat(k("p"), []tea.Msg{firstWait100}, k("2"))},
		{"timeline", k("3")},
		{"timeline_all", k("3", "a")},
		{"timeline_service", cat([]tea.Msg{service}, k("3", "right"))},
		{"timeline_ab", cat(k("p"), []tea.Msg{firstWait100}, k("3", "right"))},
		{"crowd_queue", cat([]tea.Msg{queue}, k("2", "pgdown"))},
		{"timeline_queue", cat([]tea.Msg{queue}, k("3", "right"))},
		{"jobs", k("4", "enter", "alpha:0 bravo:2 charlie:9 delta:fatal", "enter")},
		{"settings", k("5")},
		{"settings_form", k("5", "enter")},
		{"help", k("?")},
	}
}

// goldenSizes are the sizes issue 9's new user tried.
var goldenSizes = [][2]int{{80, 24}, {120, 40}, {200, 60}}

// moreStates are shown at 120x40.
func moreStates() []goldenState {
	k := press
	cut := applied(func(s *backoff.Settings) { s.FirstWait, s.LongestWait, s.Attempts = 10000, 600000, 12 })
	grpc, _ := backoff.FindPreset("grpc")
	return []goldenState{
		{"client_2", k("1", "down")},
		{"client_cut_short", cat([]tea.Msg{cut}, k("1", "right"))},
		{"client_cut_short_independent", cat([]tea.Msg{cut}, k("1", "right", "d"))},
		{"crowd_cut_short", cat([]tea.Msg{cut}, k("2"))},
		{"client_go_to", k("1", "#", "37")},
		{"client_go_to_refused", k("1", "#", "999", "enter")},
		{"client_went_to_37", k("1", "#", "37", "enter")},
		{"client_outage_0", cat([]tea.Msg{applied(func(s *backoff.Settings) { s.Outage = 0 })}, k("1"))},
		{"client_grpc", cat([]tea.Msg{SettingsAppliedMsg{Settings: backoff.Defaults().WithPreset(grpc)}}, k("1", "left"))},
		{"client_service", cat([]tea.Msg{applied(withService)}, k("1"))},
		{"crowd_budget", cat([]tea.Msg{applied(func(s *backoff.Settings) {
			withService(s)
			s.Budget, s.Processes = backoff.Budget{Kind: backoff.BudgetAWS, A: 500, B: 5}, 4
		})}, k("2", "pgdown"))},
		{"crowd_service_scrolled", cat([]tea.Msg{applied(withService)}, k("2", "pgdown"))},
		{"crowd_first_wait_100", cat([]tea.Msg{applied(func(s *backoff.Settings) { s.FirstWait = 100 })}, k("2"))},
		{"crowd_pinned", k("p", "2")},
		{"crowd_independent", k("d", "2")},
		{"crowd_swapped", cat(k("p"), []tea.Msg{applied(func(s *backoff.Settings) { s.FirstWait = 100 })}, k("x", "2"))},
		{"crowd_dropped", cat(k("p"), []tea.Msg{applied(func(s *backoff.Settings) { s.FirstWait = 100 })}, k("P", "2"))},
		{"timeline_slot_500", cat([]tea.Msg{applied(func(s *backoff.Settings) { s.Slot = 500 })}, k("3"))},
		{"timeline_all_scrolled", k("3", "a", "pgdown")},
		{"timeline_bottom", k("3", "G")},
		{"timeline_after_back", cat([]tea.Msg{applied(withService)}, k("3", "right", "b"))},
		{"jobs_empty", k("4")},
		{"jobs_typing", k("4", "enter", "alpha:0 bravo:2")},
		{"jobs_refused_after_a_run", k("4", "enter", "alpha:0 bravo:2", "enter", "enter", "space", "alpha:1000", "enter")},
		{"jobs_twice", k("4", "enter", "alpha:0 alpha:2", "enter")},
		{"jobs_full", k("4", "enter", "a:0 b:1 c:2 d:3 e:4 f:9 g:fatal h:11", "enter")},
		{"jobs_full_scrolled", k("4", "enter", "a:0 b:1 c:2 d:3 e:4 f:9 g:fatal h:11", "enter", "pgdown")},
		{"jobs_cancelled", k("4", "enter", "enter")},
		{"jobs_under_full_jitter", k("1", "right", "4", "enter", "alpha:0 bravo:2 charlie:9 delta:fatal", "enter")},
		{"settings_error", k("5", "enter", "enter", "backspace", "backspace", "backspace", "999ms", "enter")},
		{"settings_error_gone", k("5", "enter", "enter", "backspace", "backspace", "backspace", "999ms", "enter", "shift+tab")},
		// A number alone could be ms or s: the field says both (issue 24, item 5).
		{"settings_needs_a_unit", k("5", "enter", "enter", "backspace", "backspace", "backspace", "999", "enter")},
		{"settings_takes_durations", cat(k("5", "enter", "backspace", "backspace", "1s500ms"), enters(1))},
		{"settings_page_2", cat(k("5"), enters(8))},
		{"settings_page_3", cat(k("5"), enters(20))},
		{"settings_preset_grpc", cat(k("5"), enters(20), k("right"))},
		{"settings_applied", cat(k("5", "enter", "backspace", "backspace", "1.5s"), enters(formFields))},
		{"settings_cancelled", k("5", "enter", "esc")},
		// A queue: what the service did, dropping expired requests and
		// serving the newest first; pane 3's rows; the settings and the
		// form's page of the service.
		{"crowd_queue_dropped_lifo", cat([]tea.Msg{applied(func(s *backoff.Settings) {
			withQueue(s)
			s.DropExpired, s.QueueOrder = true, backoff.LIFO
		})}, k("2", "pgdown"))},
		{"timeline_queue_dropped", cat([]tea.Msg{applied(func(s *backoff.Settings) { withQueue(s); s.DropExpired = true })}, k("3", "right"))},
		{"timeline_queue_all", cat([]tea.Msg{applied(withQueue)}, k("3", "a"))},
		{"settings_queue", cat([]tea.Msg{applied(withQueue)}, k("5"))},
		{"settings_queue_page_2", cat(k("5"), []tea.Msg{applied(withQueue)}, enters(8))},
	}
}

// TestGolden draws every pane at 80x24, 120x40 and 200x60, more states at
// 120x40, and each pane at the least size the program draws in.
func TestGolden(t *testing.T) {
	for _, st := range paneStates() {
		for _, size := range goldenSizes {
			t.Run(fmt.Sprintf("%s_%dx%d", st.name, size[0], size[1]), func(t *testing.T) {
				checkGolden(t, newApp(t, size[0], size[1]), st.msgs, size)
			})
		}
	}
	for _, st := range moreStates() {
		t.Run(st.name, func(t *testing.T) {
			checkGolden(t, newApp(t, 120, 40), st.msgs, [2]int{120, 40})
		})
	}
	for _, pane := range []string{"1", "2", "3", "4", "5", "?"} {
		name := "least_" + pane
		if pane == "?" {
			name = "least_help"
		}
		t.Run(name, func(t *testing.T) {
			checkGolden(t, newApp(t, MinWidth, MinHeight), press(pane), [2]int{MinWidth, MinHeight})
		})
	}
	t.Run("tiny_30x10", func(t *testing.T) {
		checkGolden(t, newApp(t, 30, 10), press("2", "4", "enter", "x"), [2]int{30, 10})
	})
}

func checkGolden(t *testing.T, m App, msgs []tea.Msg, size [2]int) {
	t.Helper()
	// The form steps from field to field in the Update of each key: no
	// command's message is needed.
	m = send(t, m, msgs...)
	view := m.View()
	checkFits(t, view, size[0], size[1])
	golden.RequireEqual(t, []byte(view))
}
