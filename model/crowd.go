package model

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// CrowdKeyMap is pane 2's keys: it scrolls when the window is short.
type CrowdKeyMap struct {
	scrollKeys
}

// DefaultCrowdKeyMap returns pane 2's keys.
func DefaultCrowdKeyMap() CrowdKeyMap { return CrowdKeyMap{defaultScrollKeys()} }

func (k CrowdKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{pair(k.Up, k.Down, "↑/↓", "scroll"), pair(k.Top, k.Bottom, "g/G", "top/bottom")}
}

func (k CrowdKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}}
}

// CrowdPane is pane 2: every policy's crowd, their spread over seeds, the
// service's figures, and plans A and B side by side. It runs nothing: the
// root gives it the runs to show.
type CrowdPane struct {
	KeyMap CrowdKeyMap

	data   pane.CrowdData
	view   scroller
	width  int
	height int
	styles *pane.Styles
}

// NewCrowdPane returns pane 2 with nothing to show yet.
func NewCrowdPane(st *pane.Styles) CrowdPane {
	km := DefaultCrowdKeyMap()
	return CrowdPane{KeyMap: km, view: newScroller(km.scrollKeys, st), styles: st}
}

// SetRuns shows run b, and a beside it when not nil; stale says b is the
// last run while the plan's is on its way, pinned that b is pinned as A.
func (m *CrowdPane) SetRuns(b pane.RunData, a *pane.RunData, stale, pinned bool) {
	m.data = pane.CrowdData{B: b, A: a, Stale: stale, Pinned: pinned}
	m.render()
}

// SetSize sets the pane's size in cells.
func (m *CrowdPane) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.render()
}

// Crowds are the crowds shown, one per policy.
func (m CrowdPane) Crowds() []backoff.Result { return m.data.B.Crowds }

// Data is what the pane shows.
func (m CrowdPane) Data() pane.CrowdData { return m.data }

func (m *CrowdPane) render() {
	m.view.SetContent(pane.CrowdPane(m.data, m.width, m.styles), m.width, m.height, false)
}

// Update scrolls.
func (m CrowdPane) Update(msg tea.Msg) (CrowdPane, tea.Cmd) {
	switch msg.(type) {
	case tea.KeyMsg, tea.MouseMsg:
		return m, m.view.Update(msg)
	}
	return m, nil
}

// View draws the pane.
func (m CrowdPane) View() string { return m.view.View() }
