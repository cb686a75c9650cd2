package model

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views"
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
				out[i] = tagged(form, c)
			}
			return out
		}
		if reflect.TypeOf(msg).PkgPath() == reflect.TypeFor[tea.KeyMsg]().PkgPath() {
			return msg
		}
		return formMsg{form: form, msg: msg}
	}
}

// SettingsKeyMap is pane 5's keys; the form's own are listed while it is
// open.
type SettingsKeyMap struct {
	Open   key.Binding
	Next   key.Binding // in the form: the next field, or apply on the last
	Back   key.Binding // in the form: the previous field
	Cancel key.Binding // in the form: close it, changing nothing
}

// DefaultSettingsKeyMap returns pane 5's keys.
func DefaultSettingsKeyMap() SettingsKeyMap {
	return SettingsKeyMap{
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "change settings")),
		Next:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next / apply"), key.WithDisabled()),
		Back:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "back"), key.WithDisabled()),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"), key.WithDisabled()),
	}
}

func (k SettingsKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Next, k.Back, k.Cancel}
}

func (k SettingsKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Open, k.Next, k.Back, k.Cancel}}
}

// fieldLimit is the most runes a settings field holds: a value is at most
// 7 digits today, and room is left for durations such as "1h30m" or
// "1s500ms", which the form is to take. Without a limit every rune typed
// or pasted would measure the whole field again (bubbles' textinput does),
// so a long paste would cost the square of its length.
const fieldLimit = 16

// formDraft is what the form's fields write into as they are typed: one
// string per setting, in backoff.FormFields order. It lives behind a
// pointer so the fields' bindings survive the pane being copied.
type formDraft struct {
	values [6]string
}

// SettingsPane is pane 5: the settings, and a form to change the six that
// --plain asks for.
type SettingsPane struct {
	KeyMap SettingsKeyMap

	settings backoff.Settings
	form     *huh.Form // nil while closed; a fresh one each time it opens
	opened   int       // how many forms have opened: tags the form's messages
	draft    *formDraft
	longest  *huh.Input // its title's range follows the first wait typed
	history  []tea.Msg  // every message the open form has taken, to build it again
	builtFor [2]int     // the width and form height the open form was built at
	note     string     // what the last form did
	summary  string     // rendered on change: the settings and the note
	title    string     // rendered on change: the form's title, wrapped
	frame    string     // drawn after every change to the open form
	width    int
	height   int
	styles   *views.Styles
}

// NewSettingsPane returns pane 5 showing s, the form closed.
func NewSettingsPane(s backoff.Settings, st *views.Styles) SettingsPane {
	return SettingsPane{KeyMap: DefaultSettingsKeyMap(), settings: s, styles: st}
}

// Editing reports whether the form is open and has the keys.
func (m SettingsPane) Editing() bool { return m.form != nil }

// Note is what the last form did: the new settings, or Cancelled.
func (m SettingsPane) Note() string { return m.note }

// Settings are the settings shown: once the form completes, the ones it
// applied.
func (m SettingsPane) Settings() backoff.Settings { return m.settings }

// SetSettings shows new settings.
func (m *SettingsPane) SetSettings(s backoff.Settings) {
	m.settings = s
	m.render()
}

func (m *SettingsPane) render() {
	m.summary = ""
	if m.width == 0 || m.height == 0 {
		return
	}
	out := views.SettingsSummary(m.settings, m.width, m.styles)
	if m.note != "" {
		out += "\n\n" + m.styles.Note.Render(views.Wrap(m.note, m.width))
	}
	m.summary = views.Fit(out, m.width, m.height)
	st := m.styles
	title := st.Title.Render("Change the settings") + st.Muted.Render(": enter for the next, and on the last to apply; esc cancels.")
	m.title = views.Wrap(title, m.width)
}

// drawForm draws the open form under its title. The form changes only in
// Update (huh builds its fields' view there too), so the pane draws it after
// each message it passes on, the cursor's blinks included.
func (m *SettingsPane) drawForm() {
	m.frame = ""
	if m.form == nil || m.width == 0 || m.height == 0 {
		return
	}
	m.frame = views.Fit(m.title+"\n\n"+m.form.View(), m.width, m.height)
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

// rebuild builds the open form again at the pane's size, from the settings
// it opened with, and gives it the messages the old one took, in order.
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

// formHeight leaves room above the form for the title and below it for
// an error.
func (m SettingsPane) formHeight() int {
	return max(min(m.height-4, len(backoff.FormFields())), 1)
}

// draftSettings are the settings the draft holds so far: each field, in
// the form's order, whose value is a number in its range replaces the
// current value.
func (m SettingsPane) draftSettings() backoff.Settings {
	s := m.settings
	for i, f := range backoff.FormFields() {
		if v, ok := answerNumber(m.draft.values[i]); ok && s.Check(f, v) == nil {
			s.Set(f, v)
		}
	}
	return s
}

// validator checks field f with --plain's range and message. The longest
// wait's range starts at the first wait being typed.
func (m SettingsPane) validator(f backoff.Field) func(string) error {
	return func(typed string) error {
		low, high := m.draftSettings().Range(f)
		if v, ok := answerNumber(typed); !ok || v < low || v > high {
			return errors.New(views.NumberError(low, high))
		}
		return nil
	}
}

func fieldTitle(f backoff.Field, s backoff.Settings) string {
	low, high := s.Range(f)
	return fmt.Sprintf("%s (%d to %d)", f, low, high)
}

// open builds a fresh form bound to a fresh draft of the current settings.
func (m *SettingsPane) open() tea.Cmd {
	m.draft = &formDraft{}
	m.history = nil
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
// which it sets to the current settings.
func (m *SettingsPane) build() {
	fields := make([]huh.Field, 0, len(backoff.FormFields()))
	for i, f := range backoff.FormFields() {
		m.draft.values[i] = strconv.Itoa(m.settings.Get(f))
		in := huh.NewInput().
			Key(f.String()).
			Title(fieldTitle(f, m.settings)).
			Inline(true).
			Prompt("> ").
			CharLimit(fieldLimit).
			Value(&m.draft.values[i]).
			Validate(m.validator(f))
		if f == backoff.LongestWait {
			m.longest = in
		}
		fields = append(fields, in)
	}
	keys := huh.NewDefaultKeyMap()
	keys.Quit = key.NewBinding(key.WithDisabled()) // the root quits on ctrl+c
	m.form = huh.NewForm(huh.NewGroup(fields...)).
		WithTheme(m.styles.FormTheme()).
		WithKeyMap(keys).
		WithShowHelp(false).
		WithWidth(m.width).
		WithHeight(m.formHeight())
	m.builtFor = [2]int{m.width, m.formHeight()}
}

// take gives msg to the form and returns its command.
func (m *SettingsPane) take(msg tea.Msg) tea.Cmd {
	model, cmd := m.form.Update(msg)
	if f, ok := model.(*huh.Form); ok {
		m.form = f
	}
	// Set here, in Update, rather than with huh's TitleFunc, which would
	// read the draft from a command's goroutine while fields write it.
	m.longest.Title(fieldTitle(backoff.LongestWait, m.draftSettings()))
	return cmd
}

func (m *SettingsPane) close(note string) {
	m.form, m.draft, m.longest, m.history, m.note, m.frame = nil, nil, nil, nil, note, ""
	m.setFormKeys(false)
	m.render()
}

func (m *SettingsPane) setFormKeys(open bool) {
	m.KeyMap.Open.SetEnabled(!open)
	m.KeyMap.Next.SetEnabled(open)
	m.KeyMap.Back.SetEnabled(open)
	m.KeyMap.Cancel.SetEnabled(open)
}

// Update opens the form on enter; while it is open every message goes to
// it, but esc, which closes it changing nothing. When the form completes,
// its settings are the pane's at once (see Settings).
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
		return m, nil
	}
	if isKey && key.Matches(k, m.KeyMap.Cancel) {
		m.close(views.Cancelled + " The settings are as they were.")
		return m, nil
	}
	if m.fieldFull(msg) {
		return m, nil
	}
	// A blink of the cursor changes nothing a form built again would show:
	// its cursors are new, and take no blink of the old ones.
	if _, blink := msg.(cursor.BlinkMsg); !blink {
		m.history = append(m.history, msg)
	}
	cmd := m.take(msg)
	// The form never aborts: huh aborts only on its quit key, which open
	// disables (the root quits on ctrl+c), and esc closes it above.
	if m.form.State == huh.StateCompleted {
		s := m.draftSettings()
		if err := s.Validate(); err != nil {
			// The fields check themselves; this is only a safety net.
			m.close(err.Error())
			return m, nil
		}
		m.settings = s
		m.close("Applied. " + strings.TrimSuffix(views.SettingsText(s), "\n"))
		return m, nil
	}
	m.drawForm()
	return m, tagged(m.opened, cmd)
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
	return ok && f.Error() == nil && utf8.RuneCountInString(v) >= fieldLimit
}

// View draws the pane: the form while it is open, else the settings.
func (m SettingsPane) View() string {
	if m.form != nil {
		return m.frame
	}
	return m.summary
}
