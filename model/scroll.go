package model

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/retryplanner/retry-planner/views/pane"
)

// scroller shows a window of content that is already cut to its width: a
// bubbles viewport keeps the offset and reads the keys, and the lines in
// sight are joined, with the scroll hint, whenever the content, the offset
// or the keys change, so View only returns them.
type scroller struct {
	vp     viewport.Model
	top    key.Binding // to the first line
	bottom key.Binding // to the last
	lines  []string
	keys   string // the keys the scroll hint names, such as "pgup/pgdn"
	frame  string // drawn on change: the lines in sight and the hint
	styles *pane.Styles
}

// newScroller scrolls with keys, up and down a line or a page and to the
// top or the bottom, and with the mouse's wheel.
func newScroller(k scrollKeys, st *pane.Styles) scroller {
	v := viewport.New(0, 0)
	none := key.NewBinding(key.WithDisabled())
	v.KeyMap = viewport.KeyMap{
		Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: none, HalfPageDown: none, Left: none, Right: none,
	}
	v.MouseWheelEnabled = true
	v.MouseWheelDelta = 3
	return scroller{vp: v, top: k.Top, bottom: k.Bottom, keys: hintKeys(k), styles: st}
}

// hintKeys names the enabled keys of k for the scroll hint.
func hintKeys(k scrollKeys) string {
	var names []string
	if k.Up.Enabled() || k.Down.Enabled() {
		names = append(names, "↑/↓")
	}
	if k.PageUp.Enabled() || k.PageDown.Enabled() {
		names = append(names, "pgup/pgdn")
	}
	return strings.Join(names, ", ")
}

// SetContent shows content, whose lines are at most w cells, in h lines,
// keeping one for the scroll hint when the content is taller. With fit it
// takes no more lines than the content has.
func (s *scroller) SetContent(content string, w, h int, fit bool) {
	s.lines = strings.Split(content, "\n")
	n := len(s.lines)
	s.vp.Width = max(w, 0)
	switch {
	case n > h && h >= 2:
		s.vp.Height = h - 1
	case fit:
		s.vp.Height = max(min(h, n), 0)
	default:
		s.vp.Height = max(h, 0)
	}
	s.vp.SetContent(content)
	s.vp.SetYOffset(s.vp.YOffset) // within the new content and height
	s.draw()
}

// SetKeys replaces the keys it scrolls with.
func (s *scroller) SetKeys(k scrollKeys) {
	s.vp.KeyMap.Up, s.vp.KeyMap.Down = k.Up, k.Down
	s.vp.KeyMap.PageUp, s.vp.KeyMap.PageDown = k.PageUp, k.PageDown
	s.top, s.bottom = k.Top, k.Bottom
	s.keys = hintKeys(k)
	s.draw()
}

// GotoTop scrolls to the first line.
func (s *scroller) GotoTop() {
	s.vp.GotoTop()
	s.draw()
}

// Update scrolls on its keys and the wheel.
func (s *scroller) Update(msg tea.Msg) tea.Cmd {
	top := s.vp.YOffset
	var cmd tea.Cmd
	switch k, _ := msg.(tea.KeyMsg); {
	case key.Matches(k, s.top):
		s.vp.GotoTop()
	case key.Matches(k, s.bottom):
		s.vp.GotoBottom()
	default:
		s.vp, cmd = s.vp.Update(msg)
	}
	if s.vp.YOffset != top {
		s.draw()
	}
	return cmd
}

// draw joins the lines in sight and, when some are not, adds the scroll
// hint.
func (s *scroller) draw() {
	s.frame = ""
	h := s.vp.Height
	if h <= 0 || s.vp.Width <= 0 {
		return
	}
	total := len(s.lines)
	top := min(max(s.vp.YOffset, 0), max(total-h, 0))
	bottom := min(top+h, total)
	s.frame = strings.Join(s.lines[top:bottom], "\n")
	if total > h {
		s.frame += "\n" + pane.ScrollHint(top+1, bottom, total, s.vp.Width, s.keys, s.styles)
	}
}

// View is the lines in sight and, when some are not, the scroll hint.
func (s scroller) View() string { return s.frame }

// headOver is a pane's frame: a head that stays put over the scroller's
// lines in sight, cut to the pane's height; nothing in a pane of no size.
func headOver(head string, view scroller, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	return pane.ClipHeight(head+"\n"+view.View(), height)
}
