package model

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views"
)

// ClientKeyMap is pane 1's keys.
type ClientKeyMap struct {
	policyKeys
	Up, Down         key.Binding // the client number
	PageUp, PageDown key.Binding // scroll, when the window is short
}

// DefaultClientKeyMap returns pane 1's keys: the policy with left/right,
// the client with up/down, and, as up and down are the client's, pgup/pgdn
// to scroll.
func DefaultClientKeyMap() ClientKeyMap {
	scroll := defaultScrollKeys()
	return ClientKeyMap{
		policyKeys: defaultPolicyKeys(),
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "next client")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "previous client")),
		PageUp:     scroll.PageUp,
		PageDown:   scroll.PageDown,
	}
}

func (k ClientKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{pair(k.Prev, k.Next, "←/→", "policy"), pair(k.Up, k.Down, "↑/↓", "client"),
		pair(k.PageUp, k.PageDown, "pgup/pgdn", "scroll")}
}

func (k ClientKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Prev, k.Next}, {k.Up, k.Down}, {k.PageUp, k.PageDown}}
}

// scrollKeys are the keys pane 1 scrolls with: pages only.
func (k ClientKeyMap) scrollKeys() scrollKeys {
	none := key.NewBinding(key.WithDisabled())
	return scrollKeys{Up: none, Down: none, PageUp: k.PageUp, PageDown: k.PageDown}
}

// ClientPane is pane 1: one client's schedule under one policy. It opens on
// exponential, client 1.
type ClientPane struct {
	KeyMap ClientKeyMap

	settings backoff.Settings
	policy   backoff.Shape
	client   int
	schedule backoff.Schedule // of policy and client under settings
	width    int
	height   int
	head     string // rendered on change: views.ClientHead
	view     scroller
	frame    string // the head and the lines in sight, joined on change
	styles   *views.Styles
}

// NewClientPane returns pane 1 on exponential, client 1.
func NewClientPane(s backoff.Settings, st *views.Styles) ClientPane {
	km := DefaultClientKeyMap()
	m := ClientPane{KeyMap: km, settings: s, policy: backoff.Exponential, client: 1, view: newScroller(km.scrollKeys(), st), styles: st}
	m.recompute()
	return m
}

// SetSettings recomputes the schedule under new settings, keeping the
// client within the new number of clients.
func (m *ClientPane) SetSettings(s backoff.Settings) {
	m.settings = s
	m.client = min(max(m.client, 1), s.Clients)
	m.recompute()
}

// SetSize sets the pane's size in cells.
func (m *ClientPane) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.render()
}

// Policy is the policy shown.
func (m ClientPane) Policy() backoff.Shape { return m.policy }

// Client is the client number shown.
func (m ClientPane) Client() int { return m.client }

// Schedule is the schedule shown.
func (m ClientPane) Schedule() backoff.Schedule { return m.schedule }

func (m *ClientPane) recompute() {
	m.schedule = backoff.ScheduleOf(m.settings.Policy(m.policy), m.settings, m.client)
	m.render()
}

// render draws the head and the body under it. The scroll stays where it
// was as the policy or the client change, so rows can be compared.
func (m *ClientPane) render() {
	d := views.ClientData{
		Policy: m.policy, Client: m.client, Clients: m.settings.Clients, Outage: m.settings.Outage, Schedule: m.schedule,
	}
	m.head = views.ClientHead(d, m.width, m.styles)
	room := max(m.height-views.Height(m.head), 0)
	m.view.SetContent(views.ClientBody(d, m.width, room, m.styles), m.width, room, false)
	m.join()
}

// join puts the head over the lines in sight.
func (m *ClientPane) join() {
	m.frame = headOver(m.head, m.view, m.width, m.height)
}

// Update changes the policy or the client on their keys, or scrolls.
func (m ClientPane) Update(msg tea.Msg) (ClientPane, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, m.KeyMap.Prev):
		m.policy = stepPolicy(m.policy, false)
	case key.Matches(k, m.KeyMap.Next):
		m.policy = stepPolicy(m.policy, true)
	case key.Matches(k, m.KeyMap.Up):
		m.client = min(m.client+1, m.settings.Clients)
	case key.Matches(k, m.KeyMap.Down):
		m.client = max(m.client-1, 1)
	default:
		cmd := m.view.Update(msg)
		m.join()
		return m, cmd
	}
	m.recompute()
	return m, nil
}

// View draws the pane.
func (m ClientPane) View() string { return m.frame }
