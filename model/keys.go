package model

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
)

// GlobalKeyMap is the keys every pane shares: they move between panes, show
// the full help and quit.
type GlobalKeyMap struct {
	Next  key.Binding
	Prev  key.Binding
	Pane  key.Binding // 1-5
	Help  key.Binding
	Quit  key.Binding // q or ctrl+c
	Force key.Binding // ctrl+c: quits even while a field has the keys
}

// DefaultGlobalKeyMap returns the global keys of the key contract.
func DefaultGlobalKeyMap() GlobalKeyMap {
	return GlobalKeyMap{
		Next:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		Prev:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Pane:  key.NewBinding(key.WithKeys("1", "2", "3", "4", "5"), key.WithHelp("1-5", "pane")),
		Help:  key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "more keys")),
		Quit:  key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Force: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
	}
}

// ShortHelp is the global keys in the footer.
func (k GlobalKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Pane, k.Help, k.Quit}
}

// FullHelp is the global keys as one column of the full help.
func (k GlobalKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev, k.Pane, k.Help, k.Quit}}
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

// scrollKeys are the keys that scroll a pane's long content.
type scrollKeys struct {
	Up, Down, PageUp, PageDown key.Binding
}

func defaultScrollKeys() scrollKeys {
	return scrollKeys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", " "), key.WithHelp("pgdn", "page down")),
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
