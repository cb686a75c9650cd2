package model

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views"
)

// CrowdKeyMap is pane 2's keys: it scrolls when the window is short.
type CrowdKeyMap struct {
	scrollKeys
}

// DefaultCrowdKeyMap returns pane 2's keys.
func DefaultCrowdKeyMap() CrowdKeyMap { return CrowdKeyMap{defaultScrollKeys()} }

func (k CrowdKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{pair(k.Up, k.Down, "↑/↓", "scroll")}
}

func (k CrowdKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown}}
}

// CrowdPane is pane 2: the five policies' crowds side by side.
type CrowdPane struct {
	KeyMap CrowdKeyMap

	settings backoff.Settings
	crowds   []backoff.Result
	view     scroller
	width    int
	height   int
	styles   *views.Styles
}

// NewCrowdPane runs the five crowds under s.
func NewCrowdPane(s backoff.Settings, st *views.Styles) CrowdPane {
	km := DefaultCrowdKeyMap()
	m := CrowdPane{KeyMap: km, view: newScroller(km.scrollKeys, st), styles: st}
	m.SetSettings(s)
	return m
}

// SetSettings runs the crowds again.
func (m *CrowdPane) SetSettings(s backoff.Settings) {
	m.settings = s
	m.crowds = runFive(s, false)
	m.render()
}

// SetSize sets the pane's size in cells.
func (m *CrowdPane) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.render()
}

// Crowds are the five crowds shown.
func (m CrowdPane) Crowds() []backoff.Result { return m.crowds }

func (m *CrowdPane) render() {
	m.view.SetContent(views.CrowdPane(m.settings, m.crowds, m.width, m.styles), m.width, m.height, false)
}

// Update scrolls.
func (m CrowdPane) Update(msg tea.Msg) (CrowdPane, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); !ok {
		return m, nil
	}
	return m, m.view.Update(msg)
}

// View draws the pane.
func (m CrowdPane) View() string { return m.view.View() }
