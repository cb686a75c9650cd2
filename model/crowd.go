package model

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
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
	crowds   [backoff.NumPolicies]backoff.Crowd
	view     viewport.Model
	width    int
	height   int
	styles   *views.Styles
}

// NewCrowdPane runs the five crowds under s.
func NewCrowdPane(s backoff.Settings, st *views.Styles) CrowdPane {
	km := DefaultCrowdKeyMap()
	m := CrowdPane{KeyMap: km, view: newViewport(km.scrollKeys), styles: st}
	m.SetSettings(s)
	return m
}

// SetSettings runs the crowds again.
func (m *CrowdPane) SetSettings(s backoff.Settings) {
	m.settings = s
	m.crowds = backoff.RunCrowds(s)
	m.render()
}

// SetSize sets the pane's size in cells.
func (m *CrowdPane) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.render()
}

// Crowds are the five crowds shown.
func (m CrowdPane) Crowds() [backoff.NumPolicies]backoff.Crowd { return m.crowds }

func (m *CrowdPane) render() {
	sizeViewport(&m.view, views.CrowdPane(m.settings, m.crowds, m.width, m.styles), m.width, m.height, false)
}

// Update scrolls.
func (m CrowdPane) Update(msg tea.Msg) (CrowdPane, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); !ok {
		return m, nil
	}
	var cmd tea.Cmd
	m.view, cmd = m.view.Update(msg)
	return m, cmd
}

// View draws the pane.
func (m CrowdPane) View() string { return viewportView(m.view, m.styles) }

// newViewport is a viewport that scrolls with keys only: up and down a line
// or a page.
func newViewport(k scrollKeys) viewport.Model {
	v := viewport.New(0, 0)
	none := key.NewBinding(key.WithDisabled())
	v.KeyMap = viewport.KeyMap{
		Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: none, HalfPageDown: none, Left: none, Right: none,
	}
	v.MouseWheelEnabled = false
	return v
}

// sizeViewport gives v the room h for content, keeping a line for the
// scroll hint when the content is taller than the room. With fit, v takes
// no more lines than the content has.
func sizeViewport(v *viewport.Model, content string, w, h int, fit bool) {
	lines := views.Height(content)
	v.Width = max(w, 0)
	switch {
	case lines > h && h >= 2:
		v.Height = h - 1
	case fit:
		v.Height = max(min(h, lines), 0)
	default:
		v.Height = max(h, 0)
	}
	v.SetContent(content)
}

// viewportView is v's lines and, when they do not all show, the scroll hint.
func viewportView(v viewport.Model, st *views.Styles) string {
	total := v.TotalLineCount()
	if total <= v.Height || v.Height <= 0 {
		return v.View()
	}
	first := v.YOffset + 1
	last := min(v.YOffset+v.Height, total)
	return v.View() + "\n" + views.ScrollHint(first, last, total, v.Width, st)
}
