package model

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views"
)

// TimelineKeyMap is pane 3's keys.
type TimelineKeyMap struct {
	policyKeys
	scrollKeys
	All key.Binding
}

// DefaultTimelineKeyMap returns pane 3's keys: the policy with left/right,
// a for all five side by side, up/down to scroll.
func DefaultTimelineKeyMap() TimelineKeyMap {
	return TimelineKeyMap{
		policyKeys: defaultPolicyKeys(),
		scrollKeys: defaultScrollKeys(),
		All:        key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "all five")),
	}
}

func (k TimelineKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{pair(k.Prev, k.Next, "←/→", "policy"), k.All, pair(k.Up, k.Down, "↑/↓", "scroll")}
}

func (k TimelineKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Prev, k.Next, k.All}, {k.Up, k.Down, k.PageUp, k.PageDown}}
}

// TimelinePane is pane 3: retries per second as bars, one policy at a time
// or all five side by side on one scale.
type TimelinePane struct {
	KeyMap TimelineKeyMap

	data   views.TimelineData
	head   string // rendered on change: TimelineHead
	view   scroller
	frame  string // the head and the lines in sight, joined on change
	width  int
	height int
	styles *views.Styles
}

// NewTimelinePane runs the crowds per second under s; it opens on
// exponential.
func NewTimelinePane(s backoff.Settings, st *views.Styles) TimelinePane {
	km := DefaultTimelineKeyMap()
	m := TimelinePane{KeyMap: km, view: newScroller(km.scrollKeys, st), styles: st}
	m.data.Policy = backoff.Exponential
	m.SetSettings(s)
	return m
}

// SetSettings runs the five crowds again, counting per second as the
// reference does.
func (m *TimelinePane) SetSettings(s backoff.Settings) {
	m.data.Crowds = runFive(perSecond(s), true)
	m.data.Outage, m.data.Attempts = s.Outage, s.Attempts
	m.render()
}

// SetSize sets the pane's size in cells.
func (m *TimelinePane) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.render()
}

// Policy is the policy shown, or picked out in all-five mode.
func (m TimelinePane) Policy() backoff.Shape { return m.data.Policy }

// All reports whether all five policies are shown.
func (m TimelinePane) All() bool { return m.data.All }

// Crowd is the policy's retries per second.
func (m TimelinePane) Crowd(p backoff.Shape) backoff.Result { return m.data.Crowds[p] }

func (m *TimelinePane) render() {
	m.head = views.TimelineHead(m.data, m.width, m.styles)
	room := max(m.height-views.Height(m.head), 0)
	m.view.SetContent(views.TimelineBody(m.data, m.width, m.styles), m.width, room, false)
	m.join()
}

// join puts the head over the lines in sight.
func (m *TimelinePane) join() {
	m.frame = headOver(m.head, m.view, m.width, m.height)
}

// Update changes the policy, toggles all five, or scrolls.
func (m TimelinePane) Update(msg tea.Msg) (TimelinePane, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, m.KeyMap.Prev, m.KeyMap.Next) && m.data.All:
		// All five stay as they are; only the header picks out another.
		m.data.Policy = stepPolicy(m.data.Policy, key.Matches(k, m.KeyMap.Next))
		m.head = views.TimelineHead(m.data, m.width, m.styles)
		m.join()
		return m, nil
	case key.Matches(k, m.KeyMap.Prev):
		m.data.Policy = stepPolicy(m.data.Policy, false)
	case key.Matches(k, m.KeyMap.Next):
		m.data.Policy = stepPolicy(m.data.Policy, true)
	case key.Matches(k, m.KeyMap.All):
		m.data.All = !m.data.All
	default:
		cmd := m.view.Update(msg)
		m.join()
		return m, cmd
	}
	m.view.GotoTop()
	m.render()
	return m, nil
}

// View draws the pane.
func (m TimelinePane) View() string { return m.frame }

// stepPolicy is the next policy in the reference's order, or the previous
// one, going round.
func stepPolicy(p backoff.Shape, next bool) backoff.Shape {
	if next {
		return (p + 1) % backoff.NumShapes
	}
	return (p + backoff.NumShapes - 1) % backoff.NumShapes
}
