package model

import (
	"fmt"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/words"
)

// ClientKeyMap is pane 1's keys.
type ClientKeyMap struct {
	policyKeys
	Up, Down         key.Binding // the previous and the next client
	PageUp, PageDown key.Binding // scroll, when the window is short
	Top, Bottom      key.Binding
	GoTo             key.Binding // opens the field to go to client N
	Go, Cancel       key.Binding // in that field
}

// DefaultClientKeyMap returns pane 1's keys: the policy with left/right,
// the previous and next client with up/down as in every list, pages and
// the top and bottom to scroll, and # to go to a client.
func DefaultClientKeyMap() ClientKeyMap {
	scroll := defaultScrollKeys()
	return ClientKeyMap{
		policyKeys: defaultPolicyKeys(),
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous client")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next client")),
		PageUp:     scroll.PageUp,
		PageDown:   scroll.PageDown,
		Top:        scroll.Top,
		Bottom:     scroll.Bottom,
		GoTo:       key.NewBinding(key.WithKeys("#", ":"), key.WithHelp("#", "go to client")),
		Go:         key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go"), key.WithDisabled()),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"), key.WithDisabled()),
	}
}

func (k ClientKeyMap) ShortHelp() []key.Binding {
	if k.Go.Enabled() {
		return []key.Binding{k.Go, k.Cancel}
	}
	return []key.Binding{pair(k.Prev, k.Next, "←/→", "policy"), pair(k.Up, k.Down, "↑/↓", "client"), k.GoTo,
		pair(k.PageUp, k.PageDown, "pgup/pgdn", "scroll")}
}

func (k ClientKeyMap) FullHelp() [][]key.Binding {
	if k.Go.Enabled() {
		return [][]key.Binding{{k.Go, k.Cancel}}
	}
	return [][]key.Binding{{k.Prev, k.Next}, {k.Up, k.Down, k.GoTo}, {k.PageUp, k.PageDown, k.Top, k.Bottom}}
}

// scrollKeys are the keys pane 1 scrolls with: pages and the ends only, as
// up and down are the clients'.
func (k ClientKeyMap) scrollKeys() scrollKeys {
	none := key.NewBinding(key.WithDisabled())
	return scrollKeys{Up: none, Down: none, PageUp: k.PageUp, PageDown: k.PageDown, Top: k.Top, Bottom: k.Bottom}
}

// clientFieldLimit is the most runes the field for a client number holds:
// a number of clients has at most 7 digits.
const clientFieldLimit = 8

// ClientPane is pane 1: one client's schedule under each policy, the chosen
// one in full. It opens on exponential, client 1.
type ClientPane struct {
	KeyMap ClientKeyMap

	settings  backoff.Settings
	policies  []backoff.Policy
	chosen    int
	client    int
	schedules []backoff.Schedule // of each policy, for client, under settings
	tables    pane.ClientTables  // the schedules drawn at the width
	goTo      textinput.Model    // the field for a client number, while it is open
	goToErr   string
	width     int
	height    int
	head      string // rendered on change: pane.ClientHead
	view      scroller
	frame     string // the head and the lines in sight, joined on change
	dirty     bool   // the policy changed while another pane had the keys: see Refresh
	styles    *pane.Styles
}

// NewClientPane returns pane 1 on exponential, client 1.
func NewClientPane(s backoff.Settings, st *pane.Styles) ClientPane {
	km := DefaultClientKeyMap()
	in := textinput.New()
	in.CharLimit = clientFieldLimit
	in.PromptStyle, in.TextStyle, in.Cursor.Style = st.InputPrompt, st.InputText, st.InputCursor
	in.Cursor.SetMode(cursor.CursorStatic)
	m := ClientPane{KeyMap: km, settings: s, policies: policiesOf(DefaultPlan(s)), chosen: int(backoff.Exponential), client: 1,
		goTo: in, view: newScroller(km.scrollKeys(), st), styles: st}
	m.recompute()
	return m
}

// SetSettings recomputes the schedules of policies under new settings,
// keeping the client within the new number of clients and the chosen
// policy among them.
func (m *ClientPane) SetSettings(s backoff.Settings, policies []backoff.Policy) {
	m.settings, m.policies = s, policies
	m.client = min(max(m.client, 1), s.Clients)
	m.chosen = min(max(m.chosen, 0), len(policies)-1)
	m.recompute()
}

// SetChosen picks policy i, chosen in another pane: the pane draws it
// when it next has the keys (Refresh).
func (m *ClientPane) SetChosen(i int) {
	if i == m.chosen || i < 0 || i >= len(m.policies) {
		return
	}
	m.chosen = i
	m.dirty = true
}

// Refresh draws what changed since the pane last had the keys.
func (m *ClientPane) Refresh() {
	if m.dirty {
		m.render()
	}
}

// SetSize sets the pane's size in cells.
func (m *ClientPane) SetSize(w, h int) {
	if w = max(w, 0); w != m.width {
		m.width = w
		m.drawTables()
	}
	m.height = max(h, 0)
	m.render()
}

// Chosen is the index of the policy shown.
func (m ClientPane) Chosen() int { return m.chosen }

// Policy is the policy shown.
func (m ClientPane) Policy() backoff.Policy { return m.policies[m.chosen] }

// Client is the client number shown.
func (m ClientPane) Client() int { return m.client }

// Schedule is the schedule shown.
func (m ClientPane) Schedule() backoff.Schedule { return m.schedules[m.chosen] }

// Typing reports whether the field for a client number has the keys.
func (m ClientPane) Typing() bool { return m.goTo.Focused() }

func (m *ClientPane) recompute() {
	m.schedules = make([]backoff.Schedule, len(m.policies))
	for i, p := range m.policies {
		m.schedules[i] = backoff.ScheduleOf(p, m.settings, m.client)
	}
	m.drawTables()
	m.render()
}

// drawTables draws the schedules at the pane's width: a key that only
// picks another policy then draws no table.
func (m *ClientPane) drawTables() {
	m.tables = pane.NewClientTables(m.data(), m.width, m.styles)
}

func (m *ClientPane) data() pane.ClientData {
	return pane.ClientData{Policies: m.policies, Chosen: m.chosen, Client: m.client, Settings: m.settings, Schedules: m.schedules}
}

// render draws the head and the body under it. The scroll stays where it
// was as the policy or the client change, so rows can be compared.
func (m *ClientPane) render() {
	m.dirty = false
	d := m.data()
	m.head = pane.ClientHead(d, m.width, m.styles)
	if m.Typing() || m.goToErr != "" {
		m.head += "\n" + m.goToLine()
	}
	room := max(m.height-pane.Height(m.head), 0)
	m.view.SetContent(pane.ClientBody(d, m.tables, m.width, room, m.styles), m.width, room, false)
	m.join()
}

// goToLine is the field for a client number, or why the last was refused.
func (m *ClientPane) goToLine() string {
	if !m.Typing() {
		return m.styles.Error.Render(pane.Fit(m.goToErr, m.width, 1))
	}
	line := m.goTo.View()
	if m.goToErr != "" {
		line += "  " + m.styles.Error.Render(m.goToErr)
	}
	return pane.Fit(line, m.width, 1)
}

// join puts the head over the lines in sight.
func (m *ClientPane) join() {
	m.frame = headOver(m.head, m.view, m.width, m.height)
}

// Update changes the policy or the client on their keys, goes to a client,
// or scrolls.
func (m ClientPane) Update(msg tea.Msg) (ClientPane, tea.Cmd) {
	if m.Typing() {
		return m.updateGoTo(msg)
	}
	if mm, ok := msg.(tea.MouseMsg); ok {
		return m.mouse(mm)
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	m.goToErr = ""
	switch {
	case key.Matches(k, m.KeyMap.Prev):
		m.chosen = stepPolicy(m.chosen, len(m.policies), false)
	case key.Matches(k, m.KeyMap.Next):
		m.chosen = stepPolicy(m.chosen, len(m.policies), true)
	case key.Matches(k, m.KeyMap.Up):
		m.client = max(m.client-1, 1)
		m.recompute()
		return m, nil
	case key.Matches(k, m.KeyMap.Down):
		m.client = min(m.client+1, m.settings.Clients)
		m.recompute()
		return m, nil
	case key.Matches(k, m.KeyMap.GoTo):
		return m, m.openGoTo()
	default:
		cmd := m.view.Update(msg)
		m.join()
		return m, cmd
	}
	m.render()
	return m, nil
}

// mouse scrolls on the wheel and picks the policy clicked in the row of
// policies, the head's first line.
func (m ClientPane) mouse(mm tea.MouseMsg) (ClientPane, tea.Cmd) {
	if mm.Y == 0 && mm.Action == tea.MouseActionPress && mm.Button == tea.MouseButtonLeft {
		if i := pane.PolicyRowAt(pane.PolicyNames(m.policies), m.width, mm.X); i >= 0 {
			m.chosen = i
			m.render()
		}
		return m, nil
	}
	cmd := m.view.Update(mm)
	m.join()
	return m, cmd
}

func (m *ClientPane) openGoTo() tea.Cmd {
	m.goTo.Prompt = fmt.Sprintf("go to client (1 to %s)> ", words.Count(m.settings.Clients))
	m.goTo.SetValue("")
	m.goToErr = ""
	m.setGoToKeys(true)
	cmd := m.goTo.Focus()
	m.render()
	return cmd
}

func (m *ClientPane) setGoToKeys(open bool) {
	m.KeyMap.Go.SetEnabled(open)
	m.KeyMap.Cancel.SetEnabled(open)
}

// updateGoTo types into the field; enter goes to the client typed, esc
// closes it.
func (m ClientPane) updateGoTo(msg tea.Msg) (ClientPane, tea.Cmd) {
	k, isKey := msg.(tea.KeyMsg)
	switch {
	case isKey && key.Matches(k, m.KeyMap.Cancel):
		m.goTo.Blur()
		m.goToErr = ""
	case isKey && key.Matches(k, m.KeyMap.Go):
		n, ok := backoff.ParseCount(m.goTo.Value())
		if !ok || n < 1 || n > m.settings.Clients {
			m.goToErr = fmt.Sprintf("Type a client from 1 to %s.", words.Count(m.settings.Clients))
			m.render()
			return m, nil
		}
		m.goTo.Blur()
		m.goToErr = ""
		m.client = n
		m.setGoToKeys(false)
		m.recompute()
		return m, nil
	default:
		if isKey && insertsText(msg) && len(m.goTo.Value()) >= clientFieldLimit {
			return m, nil
		}
		var cmd tea.Cmd
		before := m.goTo.Value()
		m.goTo, cmd = updateField(m.goTo, msg)
		if m.goTo.Value() != before {
			m.goToErr = ""
		}
		m.render()
		return m, cmd
	}
	m.setGoToKeys(false)
	m.render()
	return m, nil
}

// View draws the pane.
func (m ClientPane) View() string { return m.frame }
