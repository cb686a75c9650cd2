package model

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views"
)

// Focus is the pane that has the keys.
type Focus int

// The five panes, numbered as the plain menu numbers them (from 0 here).
const (
	FocusClient Focus = iota
	FocusCrowd
	FocusTimeline
	FocusJobs
	FocusSettings
	numPanes
)

// String is the pane's name as the plain menu writes it, such as "the crowd".
func (f Focus) String() string {
	if f < 0 || f >= numPanes {
		return fmt.Sprintf("Focus(%d)", int(f))
	}
	return views.PaneName(int(f))
}

// The least window the program draws in; below it, it says so.
const (
	MinWidth  = 50
	MinHeight = 14
)

// headerHeight is the header's lines: the tabs and a rule.
const headerHeight = 2

// App is the full-screen program's root model. It holds the five panes and
// routes every message in one fixed order (see Update).
type App struct {
	keys     GlobalKeyMap
	help     help.Model
	focus    Focus
	settings backoff.Settings

	client   ClientPane
	crowd    CrowdPane
	timeline TimelinePane
	jobs     JobsPane
	form     SettingsPane

	width, height int    // the window
	bodyHeight    int    // the panes' height: the window less header and footer
	header        string // drawn for headerOf
	headerOf      [2]int // the focus and width the header was drawn for
	footer        string // drawn for footerOf
	footerOf      string // what the footer was drawn for: see footerInputs
	styles        *views.Styles
}

// NewApp returns the program on pane 1 with settings s.
func NewApp(s backoff.Settings, st *views.Styles) App {
	h := help.New()
	h.Styles = st.Help
	m := App{
		keys:     DefaultGlobalKeyMap(),
		help:     h,
		settings: s,
		client:   NewClientPane(s, st),
		crowd:    NewCrowdPane(s, st),
		timeline: NewTimelinePane(s, st),
		jobs:     NewJobsPane(s, st),
		form:     NewSettingsPane(s, st),
		styles:   st,
	}
	return m
}

// Init starts nothing: every figure is computed before the first frame.
func (m App) Init() tea.Cmd { return nil }

// Focus is the focused pane.
func (m App) Focus() Focus { return m.focus }

// Settings are the settings every pane shows.
func (m App) Settings() backoff.Settings { return m.settings }

// Panes, for tests and callers that inspect the state.
func (m App) ClientPane() ClientPane     { return m.client }
func (m App) CrowdPane() CrowdPane       { return m.crowd }
func (m App) TimelinePane() TimelinePane { return m.timeline }
func (m App) JobsPane() JobsPane         { return m.jobs }
func (m App) SettingsPane() SettingsPane { return m.form }

// Update routes msg in this order, and only this order:
//
//  1. the window's size;
//  2. an open form or text field, which takes every message (ctrl+c still quits);
//  3. the global keys;
//  4. messages for every pane (SettingsAppliedMsg);
//  5. keys and anything else to the focused pane.
//
// Then it lays the frame out again, as the footer's height may have changed.
func (m App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	// Keys typed faster than they are read arrive as one message of several
	// runes ("ll"); outside a text field each is a key of its own. Each is
	// routed on the concrete App, which costs the same whatever the runes
	// before it: a pasted megabyte is a megabyte of keys, no more.
	if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste && !m.captured() {
		var cmds []tea.Cmd
		for _, r := range k.Runes {
			var cmd tea.Cmd
			m, cmd = m.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt})
			if cmd != nil {
				cmds = append(cmds, cmd)
			}
		}
		return m, tea.Batch(cmds...)
	}
	return m.update(msg)
}

// update is Update for one message that is not several keys at once.
func (m App) update(msg tea.Msg) (App, tea.Cmd) {
	var cmd tea.Cmd
	switch {
	case m.resize(msg):
	case m.captured():
		cmd = m.updateCaptured(msg)
	case m.globalKey(msg, &cmd):
	case m.paneMessage(msg):
	default:
		cmd = m.updateFocused(msg)
	}
	m.layout()
	return m, cmd
}

// resize takes a new window size.
func (m *App) resize(msg tea.Msg) bool {
	ws, ok := msg.(tea.WindowSizeMsg)
	if !ok {
		return false
	}
	m.width, m.height = max(ws.Width, 0), max(ws.Height, 0)
	m.bodyHeight = -1 // lay out again
	return true
}

// captured reports whether a text field or the form has the keys.
func (m App) captured() bool {
	return (m.focus == FocusJobs && m.jobs.Typing()) || (m.focus == FocusSettings && m.form.Editing())
}

func (m *App) updateCaptured(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok && key.Matches(k, m.keys.Force) {
		return tea.Quit
	}
	return m.updateFocused(msg)
}

// globalKey moves between panes, toggles the full help, or quits.
func (m *App) globalKey(msg tea.Msg, cmd *tea.Cmd) bool {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return false
	}
	switch {
	case key.Matches(k, m.keys.Quit):
		*cmd = tea.Quit
	case key.Matches(k, m.keys.Next):
		m.focus = (m.focus + 1) % numPanes
	case key.Matches(k, m.keys.Prev):
		m.focus = (m.focus + numPanes - 1) % numPanes
	case key.Matches(k, m.keys.Pane):
		m.focus = Focus(k.Runes[0] - '1')
	case key.Matches(k, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
	default:
		return false
	}
	return true
}

// paneMessage handles the messages that are for every pane.
func (m *App) paneMessage(msg tea.Msg) bool {
	applied, ok := msg.(SettingsAppliedMsg)
	if !ok {
		return false
	}
	m.apply(applied.Settings)
	return true
}

// apply recomputes every pane under settings s.
func (m *App) apply(s backoff.Settings) {
	m.settings = s
	m.client.SetSettings(m.settings)
	m.crowd.SetSettings(m.settings)
	m.timeline.SetSettings(m.settings)
	m.jobs.SetSettings(m.settings)
	m.form.SetSettings(m.settings)
}

func (m *App) updateFocused(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch m.focus {
	case FocusClient:
		m.client, cmd = m.client.Update(msg)
	case FocusCrowd:
		m.crowd, cmd = m.crowd.Update(msg)
	case FocusTimeline:
		m.timeline, cmd = m.timeline.Update(msg)
	case FocusJobs:
		m.jobs, cmd = m.jobs.Update(msg)
	case FocusSettings:
		m.form, cmd = m.form.Update(msg)
		// A form that completes has applied its settings: every pane takes
		// them in this same Update, before any other message.
		if s := m.form.Settings(); s != m.settings {
			m.apply(s)
		}
	}
	return cmd
}

// footerKeys are the keys the footer lists now.
func (m App) footerKeys() footerKeys {
	var pane help.KeyMap
	switch m.focus {
	case FocusClient:
		pane = m.client.KeyMap
	case FocusCrowd:
		pane = m.crowd.KeyMap
	case FocusTimeline:
		pane = m.timeline.KeyMap
	case FocusJobs:
		pane = m.jobs.KeyMap
	default:
		pane = m.form.KeyMap
	}
	return footerKeys{pane: pane, global: m.keys, captured: m.captured()}
}

// layout draws the header and footer again and gives the panes the room
// left between them, when it has changed.
func (m *App) layout() {
	m.help.Width = m.width
	if of := [2]int{int(m.focus), m.width}; of != m.headerOf || m.header == "" {
		m.header, m.headerOf = views.Header(int(m.focus), m.width, m.styles), of
	}
	// The footer is drawn again only when what it shows has changed: a
	// frame's help costs more than most keys' work.
	if of := m.footerInputs(); of != m.footerOf {
		m.footer, m.footerOf = views.Fit(m.help.View(m.footerKeys()), m.width, m.height), of
	}
	body := max(m.height-headerHeight-views.Height(m.footer), 0)
	if body == m.bodyHeight {
		return
	}
	m.bodyHeight = body
	m.client.SetSize(m.width, body)
	m.crowd.SetSize(m.width, body)
	m.timeline.SetSize(m.width, body)
	m.jobs.SetSize(m.width, body)
	m.form.SetSize(m.width, body)
}

// footerInputs is everything the footer's drawing depends on, as one
// string: the window, whether the help is full, and the keys it lists.
func (m App) footerInputs() string {
	keys := m.footerKeys()
	groups := [][]key.Binding{keys.ShortHelp()}
	if m.help.ShowAll {
		groups = keys.FullHelp()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%dx%d %v", m.width, m.height, m.help.ShowAll)
	for _, g := range groups {
		b.WriteByte('\n')
		for _, k := range g {
			if k.Enabled() {
				b.WriteString(k.Help().Key + "\t" + k.Help().Desc + "\t")
			}
		}
	}
	return b.String()
}

// View draws the frame: header, the focused pane, footer; or, in a window
// below the least size, what size it needs.
func (m App) View() string {
	if m.width < MinWidth || m.height < MinHeight {
		return views.TooSmall(m.width, m.height, MinWidth, MinHeight, m.styles)
	}
	var body string
	switch m.focus {
	case FocusClient:
		body = m.client.View()
	case FocusCrowd:
		body = m.crowd.View()
	case FocusTimeline:
		body = m.timeline.View()
	case FocusJobs:
		body = m.jobs.View()
	default:
		body = m.form.View()
	}
	// The panes cut their lines to the width when their content changes,
	// so a frame only joins strings.
	return m.header + "\n" + views.ClipHeight(body, m.bodyHeight) + "\n" + m.footer
}
