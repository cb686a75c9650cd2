package model

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// TimelineKeyMap is pane 3's keys.
type TimelineKeyMap struct {
	policyKeys
	scrollKeys
	All  key.Binding
	Back key.Binding // the time from the service's return on, or the whole run
}

// DefaultTimelineKeyMap returns pane 3's keys: the policy with left/right,
// a for all of them side by side, up/down, pages and the ends to scroll.
func DefaultTimelineKeyMap() TimelineKeyMap {
	return TimelineKeyMap{
		policyKeys: defaultPolicyKeys(),
		scrollKeys: defaultScrollKeys(),
		All:        key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "all policies")),
		Back:       key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "after back")),
	}
}

func (k TimelineKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{pair(k.Prev, k.Next, "←/→", "policy"), k.All, k.Back, pair(k.Up, k.Down, "↑/↓", "scroll"),
		pair(k.Top, k.Bottom, "g/G", "top/bottom")}
}

func (k TimelineKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Prev, k.Next, k.All, k.Back}, {k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}}
}

// TimelinePane is pane 3: the attempts of each slot on one time axis, as
// stacked bars of what the service did, one policy at a time or all side
// by side on one scale; A and B side by side while a plan is pinned. It
// runs nothing: it sums the run's series, kept per slot, to its rows.
type TimelinePane struct {
	KeyMap TimelineKeyMap

	b, a   pane.RunData
	hasA   bool
	data   pane.TimelineData
	head   string // rendered on change: TimelineHead
	view   scroller
	frame  string // the head and the lines in sight, joined on change
	dirty  bool   // the policy changed while another pane had the keys: see Refresh
	width  int
	height int
	window int // the lines the pane has without the full help: the rows' width follows it
	styles *pane.Styles
}

// NewTimelinePane returns pane 3 on exponential, with nothing to show yet.
func NewTimelinePane(st *pane.Styles) TimelinePane {
	km := DefaultTimelineKeyMap()
	m := TimelinePane{KeyMap: km, view: newScroller(km.scrollKeys, st), styles: st}
	m.data.Chosen = int(backoff.Exponential)
	return m
}

// SetRuns shows run b, and a beside it when not nil; stale says b is the
// last run while the plan's is on its way, pinned that b is pinned as A.
func (m *TimelinePane) SetRuns(b pane.RunData, a *pane.RunData, stale, pinned bool) {
	m.b, m.hasA = b, a != nil
	if a != nil {
		m.a = *a
	}
	m.data.Stale, m.data.Pinned = stale, pinned
	m.aggregate()
}

// SetChosen picks policy i, chosen in another pane: the pane draws it
// when it next has the keys (Refresh), so that a key held in pane 1 draws
// one pane.
func (m *TimelinePane) SetChosen(i int) {
	if i == m.data.Chosen || i < 0 {
		return
	}
	m.data.Chosen = i
	m.view.GotoTop()
	m.dirty = true
}

// Refresh draws what changed since the pane last had the keys.
func (m *TimelinePane) Refresh() {
	if m.dirty {
		m.render()
	}
}

// SetSize sets the pane's size in cells, and the lines it has when the
// full help is closed, which the rows' width follows: opening the help
// leaves the rows as they are.
func (m *TimelinePane) SetSize(w, h, window int) {
	m.width, m.height, m.window = max(w, 0), max(h, 0), max(window, h, 0)
	m.aggregate()
}

// Chosen is the index of the policy shown, or picked out among them all.
func (m TimelinePane) Chosen() int { return m.data.Chosen }

// All reports whether all policies are shown.
func (m TimelinePane) All() bool { return m.data.All }

// FromBack reports whether the pane shows the time from the service's
// return on.
func (m TimelinePane) FromBack() bool { return m.data.FromBack }

// RowMs is how wide each row is, in ms.
func (m TimelinePane) RowMs() int { return m.data.RowMs }

// Rows are policy i's rows of the run shown.
func (m TimelinePane) Rows(i int) []pane.SlotRow {
	if i < 0 || i >= len(m.data.B.Rows) {
		return nil
	}
	return m.data.B.Rows[i]
}

// aggregate chooses the rows' width, so that the longest run shown fits in
// a screenful or two, and sums each policy's series to it.
func (m *TimelinePane) aggregate() {
	runs := []pane.RunData{m.b}
	if m.hasA {
		runs = append(runs, m.a)
	}
	unit, span := 0, 0
	for _, r := range runs {
		slot := max(r.Settings.Slot, 1)
		unit = lcm(unit, slot)
		span = max(span, r.Settings.Outage+slot)
		for _, c := range r.Crowds {
			if c.Series != nil {
				span = max(span, c.Series.Len()*c.Series.Slot)
			}
		}
	}
	// From back, the rows start at the unit the service is back in, and
	// are as wide as the time from there on needs.
	m.data.FromMs = 0
	if m.data.FromBack {
		m.data.FromMs = m.b.Settings.Outage / max(unit, 1) * unit
		span -= m.data.FromMs
	}
	room := max(m.window-6, 4) // the head takes about six lines
	m.data.RowMs = pane.TimelineRowMs(unit, (span+unit-1)/max(unit, 1), room)
	m.data.B = timelineRun(m.b, m.data.FromMs, m.data.RowMs)
	m.data.A = nil
	if m.hasA {
		a := timelineRun(m.a, m.data.FromMs, m.data.RowMs)
		m.data.A = &a
	}
	m.render()
}

// timelineRun is run d's series summed to rows of rowMs from fromMs on.
func timelineRun(d pane.RunData, fromMs, rowMs int) pane.TimelineRun {
	out := pane.TimelineRun{Settings: d.Settings, Policies: d.Policies, Rows: make([][]pane.SlotRow, len(d.Crowds))}
	for i, c := range d.Crowds {
		out.Rows[i] = pane.AggregateRowsFrom(c.Series, fromMs, rowMs)
		out.Truncated = out.Truncated || (c.Series != nil && c.Series.Truncated)
	}
	return out
}

// lcm is the least common multiple of a and b, 0 counting as none; it
// stops at an hour of ms, far past any row the pane draws.
func lcm(a, b int) int {
	if a == 0 {
		return b
	}
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return min(a/x*b, backoff.MaxWait)
}

func (m *TimelinePane) render() {
	m.dirty = false
	m.head = pane.TimelineHead(m.data, m.width, m.styles)
	room := max(m.height-pane.Height(m.head), 0)
	m.view.SetContent(pane.TimelineBody(m.data, m.width, m.styles), m.width, room, false)
	m.join()
}

// join puts the head over the lines in sight.
func (m *TimelinePane) join() {
	m.frame = headOver(m.head, m.view, m.width, m.height)
}

// Update changes the policy, toggles all of them, or scrolls.
func (m TimelinePane) Update(msg tea.Msg) (TimelinePane, tea.Cmd) {
	if mm, ok := msg.(tea.MouseMsg); ok {
		return m.mouse(mm)
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	n := len(m.b.Policies)
	switch {
	case key.Matches(k, m.KeyMap.Prev, m.KeyMap.Next) && m.data.All && !m.hasA:
		// All of them stay as they are; only the head picks out another.
		m.data.Chosen = stepPolicy(m.data.Chosen, n, key.Matches(k, m.KeyMap.Next))
		m.head = pane.TimelineHead(m.data, m.width, m.styles)
		m.join()
		return m, nil
	case key.Matches(k, m.KeyMap.Prev):
		m.data.Chosen = stepPolicy(m.data.Chosen, n, false)
	case key.Matches(k, m.KeyMap.Next):
		m.data.Chosen = stepPolicy(m.data.Chosen, n, true)
	case key.Matches(k, m.KeyMap.All):
		m.data.All = !m.data.All
	case key.Matches(k, m.KeyMap.Back):
		m.data.FromBack = !m.data.FromBack
		m.KeyMap.Back.SetHelp("b", map[bool]string{false: "after back", true: "whole run"}[m.data.FromBack])
		m.view.GotoTop()
		m.aggregate()
		return m, nil
	default:
		cmd := m.view.Update(msg)
		m.join()
		return m, cmd
	}
	m.view.GotoTop()
	m.render()
	return m, nil
}

// mouse scrolls on the wheel and picks the policy clicked: in the row of
// policies, or among the columns' names with all of them shown.
func (m TimelinePane) mouse(mm tea.MouseMsg) (TimelinePane, tea.Cmd) {
	if mm.Action == tea.MouseActionPress && mm.Button == tea.MouseButtonLeft {
		i := -1
		switch {
		case mm.Y == 0 && (!m.data.All || m.hasA):
			i = pane.PolicyRowAt(pane.PolicyNames(m.b.Policies), m.width, mm.X)
		case m.data.All && mm.Y == pane.Height(m.head)-1:
			i = pane.TimelineColumnAt(m.data, m.width, mm.X)
		}
		if i >= 0 && i != m.data.Chosen {
			m.data.Chosen = i
			m.view.GotoTop()
			m.render()
		}
		return m, nil
	}
	cmd := m.view.Update(mm)
	m.join()
	return m, cmd
}

// View draws the pane.
func (m TimelinePane) View() string { return m.frame }
