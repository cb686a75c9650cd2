package model

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/retryplanner/retry-planner/views/pane"
)

// GlobalKeyMap is the keys every pane shares: they move between panes,
// switch the draws, pin and compare plans, save the plan to a file, show
// the full help and quit.
type GlobalKeyMap struct {
	Next  key.Binding
	Prev  key.Binding
	Pane  key.Binding // 1-6
	Draws key.Binding // reference or independent draws
	Pin   key.Binding // pin the plan as A
	Swap  key.Binding // swap A and the plan
	Drop  key.Binding // unpin A
	Save  key.Binding // save the plan to a file
	Help  key.Binding
	Quit  key.Binding // q or ctrl+c
	Force key.Binding // ctrl+c: quits even while a field has the keys
}

// DefaultGlobalKeyMap returns the global keys.
func DefaultGlobalKeyMap() GlobalKeyMap {
	k := GlobalKeyMap{
		Next:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		Prev:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Pane:  key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6"), key.WithHelp("1-6", "pane")),
		Draws: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "draws")),
		Pin:   key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pin plan as A")),
		Swap:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "swap A and B")),
		Drop:  key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "drop A")),
		Save:  key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save plan")),
		Help:  key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "more keys")),
		Quit:  key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Force: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
	}
	k.setPinned(false)
	return k
}

// setPinned turns on the keys that need a pinned plan.
func (k *GlobalKeyMap) setPinned(pinned bool) {
	k.Swap.SetEnabled(pinned)
	k.Drop.SetEnabled(pinned)
}

// ShortHelp is the global keys in the footer, ? and q last.
func (k GlobalKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Pane, k.Draws, k.Pin, k.Swap, k.Drop, k.Save, k.Help, k.Quit}
}

// FullHelp is the global keys as two columns of the full help.
func (k GlobalKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev, k.Pane, k.Help, k.Quit}, {k.Draws, k.Pin, k.Swap, k.Drop, k.Save}}
}

// footerKeys is what the footer shows: the focused pane's keys, then the
// global ones; while a field has the keys, only the way out that still
// works beside the pane's own.
type footerKeys struct {
	pane     help.KeyMap
	global   GlobalKeyMap
	captured bool
}

func (f footerKeys) ShortHelp() []key.Binding {
	if f.captured {
		return append(f.pane.ShortHelp(), f.global.Force)
	}
	return append(f.pane.ShortHelp(), f.global.ShortHelp()...)
}

func (f footerKeys) FullHelp() [][]key.Binding {
	if f.captured {
		return append(f.pane.FullHelp(), []key.Binding{f.global.Force})
	}
	return append(f.pane.FullHelp(), f.global.FullHelp()...)
}

// footerKeys are the keys the footer lists now: while the save box has
// the keys, its own in the pane's place.
func (m *root) footerKeys() footerKeys {
	var pane help.KeyMap
	switch {
	case m.save.Captured():
		pane = m.save.KeyMap
	case m.focus == FocusClient:
		pane = m.client.KeyMap
	case m.focus == FocusCrowd:
		pane = m.crowd.KeyMap
	case m.focus == FocusTimeline:
		pane = m.timeline.KeyMap
	case m.focus == FocusJobs:
		pane = m.jobs.KeyMap
	case m.focus == FocusAdvice:
		pane = m.advice.KeyMap
	default:
		pane = m.form.KeyMap
	}
	g := m.keys
	if m.help.ShowAll {
		g.Help.SetHelp("?", "close help")
	}
	return footerKeys{pane: pane, global: g, captured: m.captured()}
}

// footerInputs is everything the footer's drawing depends on, as one
// string: the window, whether the help is full, and the keys it lists.
func (m *root) footerInputs() string {
	keys := m.footerKeys()
	groups := keys.FullHelp()
	var b strings.Builder
	fmt.Fprintf(&b, "%dx%d %v %v", m.width, m.height, m.help.ShowAll, keys.captured)
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

// drawFooter is the footer: one line of keys that fits the width; with the
// full help open, every key in columns over a line that says how to close
// it.
func (m *root) drawFooter() string {
	keys := m.footerKeys()
	line := m.shortHelp(keys)
	if !m.help.ShowAll {
		return line
	}
	return m.fullHelp(keys.FullHelp()) + "\n" + line
}

// fullHelp is every group of keys as a column, as many side by side as
// the width holds, the rest in rows under them: none is cut off.
func (m *root) fullHelp(groups [][]key.Binding) string {
	h := m.help
	h.Width = 0
	var cols []string
	for _, g := range groups {
		if col := h.FullHelpView([][]key.Binding{g}); col != "" {
			cols = append(cols, col)
		}
	}
	// Room is left for the header, a line of the pane and the line under.
	return pane.Fit(pane.Flow(cols, m.width), m.width, max(m.height-headerHeight-2, 1))
}

// Footer entries give way in this order as the width shrinks, the lowest
// first: 1-6 (the tabs name the panes' numbers), x and P (which need a
// pinned plan), the pane's keys from its least useful (the last) up to its
// third, tab, s, d (the header's rule names it too), the pane's second
// key, p, then the pane's most useful key; ? and q (ctrl+c while a field has
// the keys) never do. A useful key (tab and above) given up for a longer one
// comes back where it fits.
// At 80 columns every pane keeps p and d (issue 19, item 10).
const (
	dropPane   = 1
	dropPlans  = 2
	dropLocal  = 10 // and two more for each pane key above the last
	dropTab    = 1000
	dropSave   = 1001
	dropDraws  = 1002
	dropSecond = 1003
	dropPin    = 1004
	dropFirst  = 1005
	neverDrops = 1 << 30
)

type footerEntry struct {
	b    key.Binding
	drop int
}

// footerEntries are the short help's keys, each with when it gives way.
func footerEntries(keys footerKeys) []footerEntry {
	var out []footerEntry
	pane := keys.pane.ShortHelp()
	for i, b := range pane {
		drop := dropLocal + 2*(len(pane)-1-i)
		switch i {
		case 0:
			drop = dropFirst
		case 1:
			drop = dropSecond
		}
		out = append(out, footerEntry{b, drop})
	}
	g := keys.global
	if keys.captured {
		return append(out, footerEntry{g.Force, neverDrops})
	}
	if g.Help.Help().Desc == "close help" {
		return append(out, footerEntry{g.Help, neverDrops}, footerEntry{g.Quit, neverDrops})
	}
	return append(out,
		footerEntry{g.Next, dropTab}, footerEntry{g.Pane, dropPane}, footerEntry{g.Draws, dropDraws},
		footerEntry{g.Pin, dropPin}, footerEntry{g.Swap, dropPlans}, footerEntry{g.Drop, dropPlans},
		footerEntry{g.Save, dropSave}, footerEntry{g.Help, neverDrops}, footerEntry{g.Quit, neverDrops})
}

// shortHelp is the footer's line of keys: as many as fit the width, those
// that give way first left out; never cut in the middle of a key or ending
// in a separator.
func (m *root) shortHelp(keys footerKeys) string {
	var entries []footerEntry
	for _, e := range footerEntries(keys) {
		if e.b.Enabled() {
			entries = append(entries, e)
		}
	}
	if m.help.ShowAll {
		// Over the full help, the line only says how to close it.
		kept := entries[:0]
		for _, e := range entries {
			if e.drop == neverDrops {
				kept = append(kept, e)
			}
		}
		entries = kept
	}
	h := m.help
	h.Width = 0 // measured here, not cut with an ellipsis
	kept := make([]bool, len(entries))
	for i := range kept {
		kept[i] = true
	}
	view := func() string {
		var bindings []key.Binding
		for i, e := range entries {
			if kept[i] {
				bindings = append(bindings, e.b)
			}
		}
		return h.ShortHelpView(bindings)
	}
	for {
		line := view()
		if ansi.StringWidth(line) <= m.width {
			break
		}
		drop := -1
		for i, e := range entries {
			if kept[i] && e.drop != neverDrops && (drop < 0 || e.drop < entries[drop].drop) {
				drop = i
			}
		}
		if drop < 0 {
			return pane.Fit(line, m.width, 1)
		}
		kept[drop] = false
	}
	// A key given up for a longer one may fit where that did not: the
	// useful ones (tab and above) come back, the most useful first.
	for {
		back := -1
		for i, e := range entries {
			if !kept[i] && e.drop >= dropTab && (back < 0 || e.drop > entries[back].drop) {
				back = i
			}
		}
		if back < 0 {
			break
		}
		kept[back] = true
		if ansi.StringWidth(view()) > m.width {
			kept[back] = false
		}
		entries[back].drop = -1 // tried
	}
	return view()
}

// scrollKeys are the keys that scroll a pane's long content.
type scrollKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

func defaultScrollKeys() scrollKeys {
	return scrollKeys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", " "), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "bottom")),
	}
}

// policyKeys change the policy in panes 1 and 3.
type policyKeys struct {
	Prev, Next key.Binding
}

func defaultPolicyKeys() policyKeys {
	return policyKeys{
		Prev: key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "previous policy")),
		Next: key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next policy")),
	}
}

// pair is one footer entry for two bindings that do opposite things, such
// as ←/→ for the previous and next policy: the footer has room for one.
func pair(a, b key.Binding, keys, desc string) key.Binding {
	both := key.NewBinding(key.WithKeys(append(a.Keys(), b.Keys()...)...), key.WithHelp(keys, desc))
	both.SetEnabled(a.Enabled() || b.Enabled())
	return both
}

// stepPolicy is the next policy of n, or the previous one, going round.
func stepPolicy(i, n int, next bool) int {
	if n <= 0 {
		return 0
	}
	if next {
		return (i + 1) % n
	}
	return (i + n - 1) % n
}
