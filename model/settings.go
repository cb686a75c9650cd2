package model

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/plain"
)

// SettingsAppliedMsg gives every pane new settings from outside the form.
// The form itself applies its settings in the Update that completes it
// (the root reads them from SettingsPane.Settings), not with a message:
// one sent by a command could reach a form opened again in the meantime
// and be lost there.
type SettingsAppliedMsg struct {
	Settings backoff.Settings
}

// formMsg is a message of the form's commands, tagged with the form that
// asked for it: a message of a form closed since (a step to the next field,
// or the one that completes it) must not move or complete a fresh one.
type formMsg struct {
	form int // SettingsPane.opened when the form sent it
	msg  tea.Msg
}

// tagged runs cmd and tags what it returns as form's, a batch command by
// command. Messages of bubbletea's own (such as tea.QuitMsg) are left for
// the runtime.
func tagged(form int, cmd tea.Cmd) tea.Cmd {
	return tagCmd(cmd, func(msg tea.Msg) tea.Msg { return formMsg{form: form, msg: msg} })
}

// tagCmd runs cmd and gives what it returns to wrap, a batch command by
// command: a form's messages are told apart from another's by the tag.
// Messages of bubbletea's own (such as tea.QuitMsg) are left for the
// runtime.
func tagCmd(cmd tea.Cmd, wrap func(tea.Msg) tea.Msg) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		msg := cmd()
		switch msg := msg.(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for i, c := range msg {
				out[i] = tagCmd(c, wrap)
			}
			return out
		}
		if reflect.TypeOf(msg).PkgPath() == reflect.TypeFor[tea.KeyMsg]().PkgPath() {
			return msg
		}
		return wrap(msg)
	}
}

// SettingsKeyMap is pane 5's keys; the form's own are listed while it is
// open. The form moves between its fields itself, in the Update of the key
// (see SettingsPane.take), so that the keys after it land in the field it
// moved to.
type SettingsKeyMap struct {
	scrollKeys // the settings, while the form is closed
	Open       key.Binding
	Next       key.Binding // in the form: the next field, or apply on the last
	Back       key.Binding // in the form: the previous field
	FieldDown  key.Binding // in the form: the next field
	FieldUp    key.Binding // in the form: the previous field
	Apply      key.Binding // in the form: apply, from any field
	Cancel     key.Binding // in the form: close it, changing nothing
}

// DefaultSettingsKeyMap returns pane 5's keys.
func DefaultSettingsKeyMap() SettingsKeyMap {
	return SettingsKeyMap{
		scrollKeys: defaultScrollKeys(),
		Open:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "change settings")),
		Next:       key.NewBinding(key.WithKeys("enter", "tab"), key.WithHelp("enter", "next / apply"), key.WithDisabled()),
		Back:       key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "back"), key.WithDisabled()),
		FieldDown:  key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next field"), key.WithDisabled()),
		FieldUp:    key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous field"), key.WithDisabled()),
		Apply:      key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "apply"), key.WithDisabled()),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"), key.WithDisabled()),
	}
}

func (k SettingsKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Next, k.Apply, pair(k.FieldUp, k.FieldDown, "↑/↓", "field"), k.Cancel, k.Back,
		pair(k.Up, k.Down, "↑/↓", "scroll")}
}

func (k SettingsKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Open, k.Next, k.Back, k.FieldDown, k.FieldUp, k.Apply, k.Cancel}, {k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}}
}

// fieldLimit is the most runes a settings field holds: room for a budget
// such as "aws:1000000:1000000" and durations such as "1h30m" or
// "1s500ms". Without a limit every rune typed or pasted would measure the
// whole field again (bubbles' textinput does), so a long paste would cost
// the square of its length.
const fieldLimit = 20

// policiesLimit is the most runes the field of the policies holds: room
// for every name the program takes, separated by commas.
const policiesLimit = 160

// guardFields are the keys of the client's guards' fields, which close
// the service's page after its selects.
func guardFields() []string {
	return []string{pane.FieldName(backoff.OutageHang), breakerField, pane.FieldName(backoff.RetryAfter)}
}

// The keys of the form's selects.
const (
	presetKey      = "preset"
	growthKey      = "growth"
	drawsKey       = "draws"
	spreadDrawsKey = "the spread's draws"
	queueOrderKey  = "queue order"
	dropExpiredKey = "drop expired"
	customPreset   = "custom"
)

// formDraft is what the form's fields write into as they are typed: one
// string per text field, in formTexts order, and the selects' choices. It
// lives behind a pointer so the fields' bindings survive the pane being
// copied.
type formDraft struct {
	text        []string // as many as formTexts
	preset      string
	growth      backoff.Growth
	draws       backoff.Draws
	spreadDraws backoff.Draws
	queueOrder  backoff.QueueOrder
	dropExpired bool
}

// plan is base with the draft's fields read into it, in order, each that
// reads and is in its range; with upTo >= 0 only the text fields before
// upTo. It returns the first field's error.
func (d *formDraft) plan(base Plan, upTo int) (Plan, error) {
	p := base
	var first error
	for i, t := range formTexts() {
		if upTo >= 0 && i >= upTo {
			break
		}
		if err := t.set(&p, d.text[i]); err != nil && first == nil {
			first = fmt.Errorf("%s: %w", t.name, err)
		}
	}
	p.Settings.Growth = d.growth
	p.Settings.Draws, p.SpreadDraws = d.draws, d.spreadDraws
	p.Settings.QueueOrder, p.Settings.DropExpired = d.queueOrder, d.dropExpired
	return p, first
}

// SettingsPane is pane 5: the plan's settings, and a form of three pages to
// change them: the crowd, the service, and the policy of one's own with the
// draws and the spread.
type SettingsPane struct {
	KeyMap SettingsKeyMap

	plan     Plan
	form     *huh.Form // nil while closed; a fresh one each time it opens
	opened   int       // how many forms have opened: tags the form's messages
	draft    *formDraft
	inputs   []*huh.Input   // the text fields, in formTexts order
	titles   map[int]string // the titles the fields show, by their place in formTexts
	pages    [][]string     // the fields' keys, page by page
	filled   string         // the preset the fields were last filled from
	fieldErr string         // why the field the cursor is on did not let it go, until the next key
	history  []tea.Msg      // every message the open form has taken, to build it again
	builtFor [2]int         // the width and form height the open form was built at
	finalErr string         // why the plan cannot be applied, shown at the last field
	note     string         // what the last form did
	view     scroller       // the settings and the note, while the form is closed
	title    string         // rendered on change: the form's title, wrapped
	frame    string         // drawn after every change to the open form
	width    int
	height   int
	styles   *pane.Styles

	// growth is the growth's select on the third page, which a preset
	// moves to the preset's growth.
	growth *huh.Select[backoff.Growth]
}

// NewSettingsPane returns pane 5 showing plan p, the form closed.
func NewSettingsPane(p Plan, st *pane.Styles) SettingsPane {
	km := DefaultSettingsKeyMap()
	return SettingsPane{KeyMap: km, plan: p, view: newScroller(km.scrollKeys, st), styles: st}
}

// Editing reports whether the form is open and has the keys.
func (m SettingsPane) Editing() bool { return m.form != nil }

// Note is what the last form did: the changes it applied, or Cancelled.
func (m SettingsPane) Note() string { return m.note }

// Plan is the plan shown: once the form completes, the one it applied.
func (m SettingsPane) Plan() Plan { return m.plan }

// Settings are the plan's settings.
func (m SettingsPane) Settings() backoff.Settings { return m.plan.Settings }

// SetPlan shows a new plan.
func (m *SettingsPane) SetPlan(p Plan) {
	m.plan = p
	m.render()
}

func (m *SettingsPane) render() {
	if m.width == 0 || m.height == 0 {
		m.view.SetContent("", m.width, m.height, false)
		return
	}
	out := pane.SettingsSummary(m.plan.Settings, m.plan.Seeds, m.plan.SpreadDraws, m.width, m.styles)
	if m.note != "" {
		out = m.styles.Note.Render(pane.Wrap(m.note+" "+reopen, min(m.width, pane.ProseWidth))) + "\n\n" + out
	}
	m.view.SetContent(pane.Fit(out, m.width, pane.Height(out)), m.width, m.height, false)
	st := m.styles
	title := st.Title.Render("Change the settings") +
		st.Muted.Render(": enter, tab or ↓ next field; ↑ or shift+tab back; ctrl+s, or enter on the last field, applies; esc cancels. 1,500 or 1_500 for 1500; a time with its unit: 1.5s, 1500ms, 1m30s.")
	m.title = pane.Wrap(title, min(m.width, pane.ProseWidth))
}

// drawForm draws the open form under its title, the focused field's error
// beside it. The form changes only in Update (huh builds its fields' view
// there too), so the pane draws it after each message it passes on, the
// cursor's blinks included.
func (m *SettingsPane) drawForm() {
	m.frame = ""
	if m.form == nil || m.width == 0 || m.height == 0 {
		return
	}
	view := m.form.View()
	if msg := m.fieldError(); msg != "" {
		view = besideFocused(view, pane.ErrorMark+" "+msg, m.width, m.styles)
	} else if desc := m.focusedDescription(); desc != "" {
		view = underFocused(view, m.styles.Muted.Render(pane.Wrap(desc, max(min(m.width, pane.ProseWidth)-4, 1))))
	}
	m.frame = pane.Fit(m.title+"\n\n"+view, m.width, m.height)
}

// reopen follows what the last form did: the form is closed, and the
// pane's keys are its own again.
const reopen = "enter opens the form again."

// fieldError is the error of the field the cursor is on: why enter did not
// move on from it, or why the plan cannot be applied.
func (m *SettingsPane) fieldError() string {
	if m.finalErr != "" {
		return m.finalErr
	}
	return m.fieldErr
}

// focusedDescription is what the focused text field says under it, from
// the settings the form holds so far; "" for most fields. It is drawn by
// the pane rather than by huh, whose inline fields run a description into
// their title.
func (m *SettingsPane) focusedDescription() string {
	f := m.form.GetFocusedField()
	if f == nil {
		return ""
	}
	for _, t := range formTexts() {
		if t.name == f.GetKey() && t.desc != nil {
			p, _ := m.draft.plan(m.plan, -1)
			return t.desc(p.Settings)
		}
	}
	return ""
}

// underFocused puts text, already styled, on lines of their own under the
// focused field (the lines the theme's thick border starts), within the
// border.
func underFocused(view, text string) string {
	lines := strings.Split(view, "\n")
	last := -1
	for i, l := range lines {
		if strings.HasPrefix(ansi.Strip(l), "┃") {
			last = i
		}
	}
	if last < 0 {
		return view + "\n" + text
	}
	under := "┃   " + strings.ReplaceAll(text, "\n", "\n┃   ")
	return strings.Join(append(lines[:last+1], append([]string{under}, lines[last+1:]...)...), "\n")
}

// besideFocused puts msg after the focused field's last line (the lines
// the theme's thick border starts), or on a line of its own under it when
// it does not fit beside.
func besideFocused(view, msg string, w int, st *pane.Styles) string {
	lines := strings.Split(view, "\n")
	last := -1
	for i, l := range lines {
		if strings.HasPrefix(ansi.Strip(l), "┃") {
			last = i
		}
	}
	if last < 0 {
		return view + "\n" + st.Error.Render(pane.Wrap(msg, w))
	}
	return strings.Join(besideLine(lines, last, "┃   ", msg, w, st), "\n")
}

// besideLine puts msg after line at of lines, or on lines of their own
// under it, each starting with under, when it does not fit beside.
func besideLine(lines []string, at int, under, msg string, w int, st *pane.Styles) []string {
	l := lines[at]
	used := ansi.StringWidth(strings.TrimRight(ansi.Strip(l), " "))
	if used+2+ansi.StringWidth(msg) <= w {
		lines[at] = ansi.Truncate(l, used, "") + "  " + st.Error.Render(msg)
		return lines
	}
	text := st.Error.Render(pane.Wrap(msg, max(w-ansi.StringWidth(under), 1)))
	text = under + strings.ReplaceAll(text, "\n", "\n"+under)
	return append(lines[:at+1], append([]string{text}, lines[at+1:]...)...)
}

// SetSize sets the pane's size in cells. An open form is built again at
// the new size and given every message the old one took, so that it draws
// what a form opened at this size and used the same way draws. huh's form
// cannot be resized in place: a field that was cut to a small height keeps
// it when the form grows, its lines are laid out at the width of the last
// message, and a field's scroll depends on the widths it had.
func (m *SettingsPane) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.render()
	if m.form != nil && m.width > 0 && m.height > 0 && m.builtFor != [2]int{m.width, m.formHeight()} {
		m.rebuild()
	}
	m.drawForm()
}

// rebuild builds the open form again at the pane's size, from the plan it
// opened with, and gives it the messages the old one took, in order.
// Their commands are dropped: the messages those sent have come back
// already and are in the history, or are on their way, tagged for this
// same form.
func (m *SettingsPane) rebuild() {
	m.build()
	m.form.Init()
	for _, msg := range m.history {
		m.take(msg)
	}
}

// formPageLines is the most lines a page of the form takes: the third, its
// title, four selects of two lines each (the preset, the growth, the draws
// and the spread's draws), seven more fields (your own policy's six and the
// seeds) and the policies' field of two lines or three, with room for two
// titles that wrap in a narrow pane (the second, the service's and its
// queue's, takes 14).
const formPageLines = 21

// formHeight leaves room above the form for the title and below it for
// an error.
func (m SettingsPane) formHeight() int {
	return max(min(m.height-3-pane.Height(m.title), formPageLines), 1)
}

// open builds a fresh form bound to a fresh draft of the plan.
func (m *SettingsPane) open() tea.Cmd {
	m.draft = &formDraft{text: make([]string, len(formTexts()))}
	m.history = nil
	m.finalErr, m.fieldErr = "", ""
	m.build()
	m.note = ""
	m.opened++
	m.setFormKeys(true)
	// Init's messages are not tagged (bubbletea runs them in a sequence,
	// which cannot be taken apart): they refresh the fields and start the
	// cursor, which does nothing to a form opened later.
	cmd := m.form.Init()
	m.drawForm()
	return cmd
}

// build makes the form at the pane's size, its fields bound to the draft,
// which it sets to the plan.
func (m *SettingsPane) build() {
	texts := formTexts()
	m.inputs = make([]*huh.Input, len(texts))
	m.titles = map[int]string{}
	var pages [3][]huh.Field
	byName := map[string]*huh.Input{}
	for i, t := range texts {
		m.draft.text[i] = t.get(m.plan)
		m.titles[i] = fieldTitle(t, m.plan.Settings)
		in := huh.NewInput().
			Key(t.name).
			Title(m.titles[i]).
			Inline(t.name != policiesField). // a long list takes a line of its own
			Prompt("> ").
			CharLimit(t.limit()).
			Value(&m.draft.text[i])
		m.inputs[i] = in
		byName[t.name] = in
		if t.group < 2 && !slices.Contains(guardFields(), t.name) {
			pages[t.group] = append(pages[t.group], in)
		}
	}
	m.draft.preset, m.filled = customPreset, customPreset
	if c := m.plan.Settings.Custom(); c.Name != customPreset {
		m.draft.preset, m.filled = c.Name, c.Name
	}
	m.draft.growth = m.plan.Settings.Growth
	m.draft.draws, m.draft.spreadDraws = m.plan.Settings.Draws, m.plan.SpreadDraws
	m.draft.queueOrder, m.draft.dropExpired = m.plan.Settings.QueueOrder, m.plan.Settings.DropExpired
	// The queue's order and what becomes of expired requests close the
	// service's page; the final check says when they need a queue.
	pages[1] = append(pages[1],
		huh.NewSelect[backoff.QueueOrder]().Key(queueOrderKey).Title("queue order (←/→): which waiting request the service takes next").
			Inline(true).Options(huh.NewOption(pane.QueueOrderName(backoff.FIFO), backoff.FIFO), huh.NewOption(pane.QueueOrderName(backoff.LIFO), backoff.LIFO)).
			Value(&m.draft.queueOrder),
		huh.NewSelect[bool]().Key(dropExpiredKey).Title("expired requests (←/→): those whose client timed out, in the queue").
			Inline(true).Options(huh.NewOption("worked on for nothing (wasted)", false), huh.NewOption("dropped unworked", true)).
			Value(&m.draft.dropExpired))
	// The client's guards close it, after the queue's.
	for _, name := range guardFields() {
		pages[1] = append(pages[1], byName[name])
	}
	presets := []huh.Option[string]{huh.NewOption("custom: the fields below", customPreset)}
	for _, pr := range backoff.Presets() {
		presets = append(presets, huh.NewOption(pr.Name, pr.Name))
	}
	// Before the multiplier, whose title then says whether it counts.
	m.growth = huh.NewSelect[backoff.Growth]().Key(growthKey).Title("growth (←/→): how each base wait grows from the one before").
		Inline(true).Options(huh.NewOption(pane.GrowthName(backoff.GrowthExponential), backoff.GrowthExponential),
		huh.NewOption(pane.GrowthName(backoff.GrowthLinear), backoff.GrowthLinear)).
		Value(&m.draft.growth)
	draws := func() []huh.Option[backoff.Draws] {
		return []huh.Option[backoff.Draws]{huh.NewOption("reference", backoff.Reference), huh.NewOption("independent", backoff.Independent)}
	}
	pages[2] = []huh.Field{
		huh.NewSelect[string]().Key(presetKey).Title("your own policy starts from (←/→; a preset fills the fields below, the five keep theirs)").
			Inline(true).Options(presets...).Value(&m.draft.preset),
		byName[pane.FieldName(backoff.CustomFirstWait)], byName[pane.FieldName(backoff.CustomLongestWait)], byName[pane.FieldName(backoff.CustomAttempts)],
		m.growth, byName[pane.FieldName(backoff.Multiplier)], byName["jitter"], byName[pane.FieldName(backoff.CustomMaxElapsed)], byName[policiesField],
		huh.NewSelect[backoff.Draws]().Key(drawsKey).Title("draws (←/→): reference, as the original program, or independent").
			Inline(true).Options(draws()...).Value(&m.draft.draws),
		byName["the spread's seeds"],
		huh.NewSelect[backoff.Draws]().Key(spreadDrawsKey).Title("the spread's draws (←/→)").
			Inline(true).Options(draws()...).Value(&m.draft.spreadDraws),
	}
	// The pane moves between fields (take), never huh's commands; the root
	// quits on ctrl+c.
	off := key.NewBinding(key.WithDisabled())
	keys := huh.NewDefaultKeyMap()
	keys.Quit = off
	keys.Select.Filter = off
	keys.Input.Next, keys.Input.Prev, keys.Input.Submit = off, off, off
	keys.Select.Next, keys.Select.Prev, keys.Select.Submit, keys.Select.Up, keys.Select.Down = off, off, off, off, off
	m.pages = make([][]string, len(pages))
	for i, page := range pages {
		for _, f := range page {
			m.pages[i] = append(m.pages[i], f.GetKey())
		}
	}
	titles := [3]string{"Page 1 of 3: the crowd", "Page 2 of 3: the service once it is back, its queue, and the client's guards", "Page 3 of 3: your own policy, the draws and the spread over seeds"}
	groups := make([]*huh.Group, 3)
	for i := range pages {
		groups[i] = huh.NewGroup(pages[i]...).Title(titles[i])
	}
	m.form = huh.NewForm(groups...).
		WithTheme(m.styles.FormTheme()).
		WithKeyMap(keys).
		WithShowHelp(false).
		WithShowErrors(false).
		WithWidth(m.width).
		WithHeight(m.formHeight())
	m.builtFor = [2]int{m.width, m.formHeight()}
}

// check is why text field i cannot hold typed, given the plan the fields
// before it make (the longest wait's range starts at the first wait), or
// nil.
func (d *formDraft) check(base Plan, i int, typed string) error {
	p, _ := d.plan(base, i)
	return formTexts()[i].set(&p, typed)
}

// take gives msg to the form and returns its command. A key that moves to
// another field moves there now, in this Update, not in a command: keys
// typed behind it, in the same burst, must land in the field it moved to.
func (m *SettingsPane) take(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	k, isKey := msg.(tea.KeyMsg)
	switch {
	case isKey && key.Matches(k, m.KeyMap.Next, m.KeyMap.FieldDown):
		cmd = m.step(true)
	case isKey && key.Matches(k, m.KeyMap.Back, m.KeyMap.FieldUp):
		cmd = m.step(false)
	case isWordForward(msg):
		cmd = m.wordForward(msg)
	default:
		cmd = m.toForm(msg)
	}
	m.fillPreset()
	// Set here, in Update, rather than with huh's TitleFunc, which would
	// read the draft from a command's goroutine while fields write it. The
	// longest waits' ranges start at the first waits typed before them; the
	// multiplier's says whether the growth chosen above it ignores it. A
	// title changed is drawn at once: the page draws its fields' views on
	// the message after.
	changed := false
	for i, t := range formTexts() {
		if t.field == backoff.LongestWait || t.field == backoff.CustomLongestWait || t.field == backoff.Multiplier {
			p, _ := m.draft.plan(m.plan, i)
			if title := fieldTitle(t, p.Settings); title != m.titles[i] {
				m.titles[i] = title
				m.inputs[i].Title(title)
				changed = true
			}
		}
	}
	if changed {
		if f, ok := m.draft.refresh(m.form); ok {
			m.form = f
		}
	}
	return cmd
}

// at is the page of the field called name and its place on it.
func (m *SettingsPane) at(name string) (page, i int) {
	for p, keys := range m.pages {
		for j, k := range keys {
			if k == name {
				return p, j
			}
		}
	}
	return 0, 0
}

// step moves the cursor to the next field, or the previous, at once: huh's
// NextField and NextGroup update the form where they are called, and the
// step to another page that the field's step asks for in a command is
// taken here instead. The next field waits for the field the cursor leaves
// to hold what it can take; nothing is checked going back. The form's own
// commands (the cursor's blinks) go back to the runtime.
func (m *SettingsPane) step(next bool) tea.Cmd {
	f := m.form.GetFocusedField()
	page, i := m.at(f.GetKey())
	if !next {
		switch {
		case i > 0:
			return m.form.PrevField()
		case page > 0:
			m.form.PrevField() // blurs, and asks for the page before: taken here
			return m.form.PrevGroup()
		}
		return nil
	}
	for t, in := range m.inputs {
		if in == f {
			if err := m.draft.check(m.plan, t, m.draft.text[t]); err != nil {
				m.fieldErr = err.Error()
				return nil
			}
		}
	}
	switch {
	case i < len(m.pages[page])-1:
		return m.form.NextField()
	case page < len(m.pages)-1:
		m.form.NextField() // blurs, and asks for the next page: taken here
		return m.form.NextGroup()
	}
	return nil
}

// fillPreset fills the policy's own fields from the preset just chosen,
// all on its page: its first wait, longest wait, attempts, growth,
// multiplier, jitter and limit on total time. The five's, on the first
// page, are left as they are (issue 19, item 2).
func (m *SettingsPane) fillPreset() {
	if m.draft.preset == m.filled {
		return
	}
	m.filled = m.draft.preset
	pr, ok := backoff.FindPreset(m.draft.preset)
	if !ok {
		return
	}
	p, _ := m.draft.plan(m.plan, -1)
	s := p.Settings.WithPreset(pr)
	for i, t := range formTexts() {
		switch t.field {
		case backoff.CustomFirstWait, backoff.CustomLongestWait, backoff.CustomAttempts, backoff.Multiplier, backoff.CustomMaxElapsed:
			m.draft.text[i] = typedValue(s, t.field)
		default:
			if t.name != "jitter" {
				continue
			}
			m.draft.text[i] = s.Jitter.String()
		}
		m.inputs[i].Value(&m.draft.text[i])
	}
	m.draft.growth = s.Growth
	m.growth.Value(&m.draft.growth) // moves the select to it
	// The page draws its fields' views on its next message: give it one
	// that no field takes, so that it shows the values just filled.
	if f, ok := m.draft.refresh(m.form); ok {
		m.form = f
	}
}

// redraw is a message no field takes: the form's page draws its fields
// again on it.
type redraw struct{}

// refresh gives the form a redraw.
func (d *formDraft) refresh(form *huh.Form) (*huh.Form, bool) {
	model, _ := form.Update(redraw{})
	f, ok := model.(*huh.Form)
	return f, ok
}

func (m *SettingsPane) close(note string) {
	m.form, m.draft, m.inputs, m.history, m.note, m.frame, m.finalErr, m.fieldErr = nil, nil, nil, nil, note, "", "", ""
	m.setFormKeys(false)
	m.render()
}

func (m *SettingsPane) setFormKeys(open bool) {
	for _, b := range []*key.Binding{&m.KeyMap.Up, &m.KeyMap.Down, &m.KeyMap.PageUp, &m.KeyMap.PageDown, &m.KeyMap.Top, &m.KeyMap.Bottom} {
		b.SetEnabled(!open)
	}
	m.KeyMap.Open.SetEnabled(!open)
	for _, b := range []*key.Binding{&m.KeyMap.Next, &m.KeyMap.Back, &m.KeyMap.FieldDown, &m.KeyMap.FieldUp, &m.KeyMap.Apply, &m.KeyMap.Cancel} {
		b.SetEnabled(open)
	}
}

// onLastField reports whether the cursor is on the form's last field, where
// enter applies.
func (m *SettingsPane) onLastField() bool {
	f := m.form.GetFocusedField()
	return f != nil && f.GetKey() == spreadDrawsKey
}

// Update opens the form on enter; while it is open every message goes to
// it, but esc, which closes it changing nothing, and ctrl+s, or enter on
// its last field, which apply it: its plan is the pane's at once (see
// Plan).
func (m SettingsPane) Update(msg tea.Msg) (SettingsPane, tea.Cmd) {
	if fm, ok := msg.(formMsg); ok {
		if m.form == nil || fm.form != m.opened {
			return m, nil // from a form closed since
		}
		msg = fm.msg
	}
	k, isKey := msg.(tea.KeyMsg)
	if m.form == nil {
		if isKey && key.Matches(k, m.KeyMap.Open) {
			return m, m.open()
		}
		switch msg.(type) {
		case tea.KeyMsg, tea.MouseMsg:
			return m, m.view.Update(msg)
		}
		return m, nil
	}
	if isKey && key.Matches(k, m.KeyMap.Cancel) {
		m.close(plain.Cancelled + " The settings are as they were.")
		return m, nil
	}
	if m.fieldFull(msg) {
		return m, nil
	}
	if isKey {
		m.finalErr, m.fieldErr = "", ""
	}
	// The whole plan is checked before it is applied: a refusal keeps the
	// form open, the error beside the field.
	if isKey && (key.Matches(k, m.KeyMap.Apply) || key.Matches(k, m.KeyMap.Next) && m.onLastField()) {
		p, err := m.checkedPlan()
		if err != nil {
			m.finalErr = err.Error()
			m.drawForm()
			return m, nil
		}
		m.apply(p)
		return m, nil
	}
	// A blink of the cursor changes nothing a form built again would show:
	// its cursors are new, and take no blink of the old ones.
	if _, blink := msg.(cursor.BlinkMsg); !blink {
		m.history = append(m.history, msg)
	}
	cmd := m.take(msg)
	m.drawForm()
	return m, tagged(m.opened, cmd)
}

// apply makes p the pane's plan and closes the form, saying what changed.
// The form never completes or aborts in huh's sense: its keys to submit
// and quit are off.
func (m *SettingsPane) apply(p Plan) {
	old := m.plan
	m.plan = p
	note := "Applied; nothing changed."
	changes := pane.PlanChanges(old.Settings, p.Settings)
	if p.Policies != old.Policies {
		changes = strings.TrimPrefix(changes+", the policies compared → "+strings.Join(p.PolicyNames(), ", "), ", ")
	}
	switch {
	case changes != "":
		note = "Applied: " + changes + "."
	case p.Settings != old.Settings:
		// Custom's own waits that stopped or started following the five's
		// at the values they had.
		note = "Applied: your own policy waits as it did; its waits that you typed are its own now, the empty ones the five's."
	case p != old:
		note = "Applied: the spread's seeds or draws changed."
	}
	m.close(note)
}

// checkedPlan is the plan the draft makes, or the first reason it cannot
// be applied.
func (m *SettingsPane) checkedPlan() (Plan, error) {
	p, err := m.draft.plan(m.plan, -1)
	if err != nil {
		return m.plan, err
	}
	if err := p.Settings.ValidateIn(backoff.WideLimits); err != nil {
		return m.plan, err
	}
	for _, pol := range policiesOf(p) {
		if err := backoff.CheckQueue(pol, p.Settings); err != nil {
			return m.plan, err
		}
	}
	return p, nil
}

// fieldFull reports whether msg would type text into the focused field,
// which is full and shows no error: the field would take none of it and
// change nothing (a key clears a field's error, so with one shown the key
// goes through). Dropped here, a long paste costs a count of the field per
// key, not a form's frame.
func (m SettingsPane) fieldFull(msg tea.Msg) bool {
	if !insertsText(msg) {
		return false
	}
	f := m.form.GetFocusedField()
	v, ok := f.GetValue().(string)
	limit := fieldLimit
	for i, in := range m.inputs {
		if in == f {
			limit = formTexts()[i].limit()
		}
	}
	return ok && m.fieldErr == "" && m.finalErr == "" && utf8.RuneCountInString(v) >= limit
}

// View draws the pane: the form while it is open, else the settings.
func (m SettingsPane) View() string {
	if m.form != nil {
		return m.frame
	}
	return m.view.View()
}
