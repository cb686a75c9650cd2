package model

import (
	"errors"
	"io/fs"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/plan"
	"github.com/retryplanner/retry-planner/ledger/glyph"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/words"
)

// SaveKeyMap is the keys of the box that saves the plan.
type SaveKeyMap struct {
	Save   key.Binding // enter: save under the name typed
	Which  key.Binding // tab: save the pinned plan, A, or the plan again
	Yes    key.Binding // y: overwrite the file that is there
	No     key.Binding // n: keep it, and type another name
	Cancel key.Binding // esc: close the box, saving nothing
}

// DefaultSaveKeyMap returns the save box's keys, all off until it opens.
func DefaultSaveKeyMap() SaveKeyMap {
	return SaveKeyMap{
		Save:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save"), key.WithDisabled()),
		Which:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "plan A instead"), key.WithDisabled()),
		Yes:    key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "overwrite"), key.WithDisabled()),
		No:     key.NewBinding(key.WithKeys("n", "N"), key.WithHelp("n", "keep it"), key.WithDisabled()),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"), key.WithDisabled()),
	}
}

func (k SaveKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Save, k.Which, k.Yes, k.No, k.Cancel}
}

func (k SaveKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// saveFieldLimit is the most runes the name field holds: a path of a few
// folders. Without a limit every rune typed or pasted would measure the
// whole field again (bubbles' textinput does), so a long paste would cost
// the square of its length.
const saveFieldLimit = 256

// saveStage is where the box is.
type saveStage int

const (
	saveClosed  saveStage = iota
	saveNaming            // the name field has the keys
	saveAsking            // the file is there: overwrite? y/n has the keys
	saveWriting           // a write is on its way; the keys are the panes'
	saveShown             // what came of it, or a notice, until the next key
)

// SavedPlan is the plan the s key saves: the settings; the policies
// the panes show (by default the five and your own, "custom", which the file's
// [custom] table and shared waits define), so that the plan's crowd is the
// screen's; the spread's seeds and draws; and the note of the plan the
// program was started with.
func (m App) SavedPlan() plan.Plan { return m.savedPlan(m.plan) }

// SavedPinned is the pinned plan, A, as the s key saves it, when a plan is
// pinned and differs from the plan shown.
func (m App) SavedPinned() (plan.Plan, bool) {
	a := m.savedPinned()
	if a == nil {
		return plan.Plan{}, false
	}
	return *a, true
}

func (m *root) savedPinned() *plan.Plan {
	if a := m.runs.pinned; a != nil && a.plan != m.plan {
		p := m.savedPlan(a.plan)
		return &p
	}
	return nil
}

// savedPlan is p as a plan file holds it, its policies by name: the
// five's as the reference writes them ("full jitter").
func (m *root) savedPlan(p Plan) plan.Plan {
	names := p.PolicyNames()
	for i, n := range names {
		for _, sh := range backoff.Shapes() {
			if n == policyName(sh.String()) {
				names[i] = sh.String()
			}
		}
	}
	return plan.Plan{Settings: p.Settings, Policies: names, Seeds: p.Seeds,
		SeedDraws: p.SpreadDraws, Note: m.note, Goals: m.advice.Goals()}
}

// planSavedMsg is what came of a write.
type planSavedMsg struct {
	gen       int // SaveBox.gen when it was asked for
	overwrite bool
	err       error
}

// SaveBox saves the plan to a file: a field for the name, offered as the
// last name saved (pane.DefaultPlanFile at first); the question before a
// file there is overwritten; then, until the next key, what was saved and
// the command lines that give the same figures, or why not. The writing is
// a command's, through Files, never the update loop's. It sits between the
// pane and the footer, and has the keys while the field or the question is
// open.
type SaveBox struct {
	KeyMap SaveKeyMap

	files   Files
	stage   saveStage
	input   textinput.Model
	plan    plan.Plan     // the plan being saved
	plans   [2]*plan.Plan // the plan shown and the pinned one, A (nil when none is pinned, or it is the plan)
	pinned  bool          // A is the one being saved
	names   [2]string     // the names offered for each: the last saved, or the defaults
	saved   string        // once shown: what was saved ("the plan", "plan A"), "" for anything else
	name    string        // the file it goes to
	gen     int           // the write on its way
	cancel  *atomic.Bool  // set by esc while it is on its way
	note    string        // beside the field: why a name was refused, or that a file was kept
	failed  bool          // the note, or the result, is an error
	result  string        // once shown: what was saved, or why not, or a notice
	command []string      // once shown: a command under the result, laid out by pane.CommandLines
	view    string        // rendered on change
	width   int
	styles  *pane.Styles
}

// NewSaveBox returns the box, closed, saving through files.
func NewSaveBox(files Files, st *pane.Styles) SaveBox {
	if files == nil {
		files = noFiles{}
	}
	in := textinput.New()
	in.Prompt = pane.SavePrompt
	in.CharLimit = saveFieldLimit
	in.PromptStyle, in.TextStyle, in.Cursor.Style = st.InputPrompt, st.InputText, st.InputCursor
	in.Cursor.SetMode(cursor.CursorStatic)
	in.SetValue(pane.DefaultPlanFile)
	return SaveBox{KeyMap: DefaultSaveKeyMap(), files: files, input: in, styles: st,
		names: [2]string{pane.DefaultPlanFile, pane.DefaultPlanFileA}}
}

// Captured reports whether the box has the keys: the name field or the
// question is open.
func (m SaveBox) Captured() bool { return m.stage == saveNaming || m.stage == saveAsking }

// Writing reports whether a write is on its way.
func (m SaveBox) Writing() bool { return m.stage == saveWriting }

// Shown is what the box shows once done: what was saved, why not, or a
// notice; "" otherwise.
func (m SaveBox) Shown() string {
	if m.stage != saveShown {
		return ""
	}
	return m.result
}

// Failed reports whether what the box shows is an error.
func (m SaveBox) Failed() bool { return m.failed }

// Value is what the name field holds.
func (m SaveBox) Value() string { return m.input.Value() }

// Open offers to save p, the field holding the last name saved; with a,
// the pinned plan, tab offers it instead, and back.
func (m *SaveBox) Open(p plan.Plan, a *plan.Plan) tea.Cmd {
	m.plans = [2]*plan.Plan{&p, a}
	m.command = nil
	m.choose(false)
	m.note, m.failed = "", false
	m.stage = saveNaming
	cmd := m.input.Focus()
	m.input.CursorEnd()
	m.setKeys()
	m.render()
	return cmd
}

// choose makes the pinned plan, or the plan shown, the one to save: the
// prompt says which, and the field offers its last name, keeping what was
// typed for the other.
func (m *SaveBox) choose(pinned bool) {
	if m.pinned != pinned {
		m.names[b2i(m.pinned)] = m.input.Value()
	}
	m.pinned = pinned && m.plans[1] != nil
	m.plan = *m.plans[b2i(m.pinned)]
	m.input.Prompt = pane.SavePrompt
	if m.pinned {
		m.input.Prompt = pane.SavePromptA
	}
	m.input.SetValue(m.names[b2i(m.pinned)])
	m.input.CursorEnd()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// SetNotice shows text until the next key, as a result is shown.
func (m *SaveBox) SetNotice(text string) {
	if text == "" || m.Captured() || m.Writing() {
		return
	}
	m.stage, m.result, m.failed, m.saved, m.command = saveShown, text, false, "", nil
	m.render()
}

// ShowCommand shows text and under it a command, its parts (see
// pane.CommandParts) laid out at the box's width, until the next key.
func (m *SaveBox) ShowCommand(text string, parts []string) {
	if m.Captured() || m.Writing() {
		return
	}
	m.stage, m.result, m.failed, m.saved, m.command = saveShown, text, false, "", parts
	m.render()
}

// Dismiss closes what the box shows once done; a key does it.
func (m *SaveBox) Dismiss() {
	if m.stage == saveShown {
		m.stage = saveClosed
		m.render()
	}
}

// SetWidth sets the box's width in cells.
func (m *SaveBox) SetWidth(w int) {
	if w = max(w, 0); w != m.width {
		m.width = w
		m.render()
	}
}

// Update types the name, answers the question and takes the result of a
// write, which comes whatever has the keys; esc calls off a write on its
// way.
func (m SaveBox) Update(msg tea.Msg) (SaveBox, tea.Cmd) {
	if r, ok := msg.(planSavedMsg); ok {
		m.landed(r)
		return m, nil
	}
	k, isKey := msg.(tea.KeyMsg)
	switch m.stage {
	case saveWriting:
		if isKey && key.Matches(k, m.KeyMap.Cancel) {
			m.cancelWrite()
		}
		return m, nil
	case saveAsking:
		switch {
		case !isKey:
		case key.Matches(k, m.KeyMap.Yes):
			return m, m.write(true)
		case key.Matches(k, m.KeyMap.No):
			m.stage = saveNaming
			m.note, m.failed = pane.SaveKept(m.name), false
			cmd := m.input.Focus()
			m.setKeys()
			m.render()
			return m, cmd
		case key.Matches(k, m.KeyMap.Cancel):
			m.close()
		}
		return m, nil
	case saveNaming:
		switch {
		case isKey && key.Matches(k, m.KeyMap.Which):
			m.choose(!m.pinned)
			m.note, m.failed = "", false
			m.setKeys()
			m.render()
			return m, nil
		case isKey && key.Matches(k, m.KeyMap.Save):
			name := strings.TrimSpace(m.input.Value())
			if name == "" {
				m.note, m.failed = pane.SaveNoName, true
				m.render()
				return m, nil
			}
			if r, unseen := glyph.First(name); unseen {
				// U+202E would turn the name around, U+200B hide in it: in
				// "Open it again with" the command would not say what it is.
				m.note, m.failed = pane.SaveUnseen(r), true
				m.render()
				return m, nil
			}
			m.name = name
			return m, m.write(false)
		case isKey && key.Matches(k, m.KeyMap.Cancel):
			m.close()
			return m, nil
		case insertsText(msg) && utf8.RuneCountInString(m.input.Value()) >= saveFieldLimit:
			// The field is full: it would take none of it. Dropped here, a
			// long paste costs a count of the field per key, not a frame.
			return m, nil
		}
		before := m.input.Value()
		var cmd tea.Cmd
		m.input, cmd = updateField(m.input, msg)
		if m.input.Value() != before {
			m.note = ""
		}
		m.render()
		return m, cmd
	}
	return m, nil
}

// write asks for the plan to be written to the file named, in a command.
func (m *SaveBox) write(overwrite bool) tea.Cmd {
	m.gen++
	m.stage = saveWriting
	m.input.Blur()
	m.setKeys()
	m.render()
	gen, files, name := m.gen, m.files, m.name
	cancel := new(atomic.Bool)
	m.cancel = cancel
	data := []byte(plan.Encode(m.plan))
	return func() tea.Msg {
		var err error
		if cf, ok := files.(CancelFiles); ok {
			err = cf.WriteCancel(name, data, overwrite, cancel.Load)
		} else {
			err = files.Write(name, data, overwrite)
		}
		return planSavedMsg{gen: gen, overwrite: overwrite, err: err}
	}
}

// cancelWrite calls off the write on its way: the box says so at once,
// and s saves again. A write that was already complete says what it did
// when it lands.
func (m *SaveBox) cancelWrite() {
	m.cancel.Store(true)
	m.stage, m.result, m.failed, m.saved = saveShown, pane.SaveCancelled(m.name), false, ""
	m.setKeys()
	m.render()
}

// landed takes what came of a write: the question when the file is there,
// else what was saved or why not.
func (m *SaveBox) landed(r planSavedMsg) {
	if r.gen != m.gen || m.stage != saveWriting && !(m.cancel.Load() && r.err == nil) {
		return // another write's, or one called off that wrote nothing
	}
	switch {
	case !r.overwrite && errors.Is(r.err, fs.ErrExist):
		m.stage = saveAsking
		m.note, m.failed = "", false
	case r.err != nil:
		m.stage, m.result, m.failed, m.saved = saveShown, pane.PlanNotSaved(m.name, words.FileReason(r.err, "no such folder")), true, ""
	default:
		m.saved = "the plan"
		if m.pinned {
			m.saved = "plan A"
		}
		m.stage, m.result, m.failed = saveShown, pane.PlanSaved(m.saved, m.name, m.plan), false
		m.names[b2i(m.pinned)] = m.name
		m.input.SetValue(m.name)
	}
	m.setKeys()
	m.render()
}

func (m *SaveBox) close() {
	m.stage = saveClosed
	m.input.Blur()
	m.note = ""
	m.setKeys()
	m.render()
}

// setKeys turns on the keys of the stage.
func (m *SaveBox) setKeys() {
	m.KeyMap.Save.SetEnabled(m.stage == saveNaming)
	m.KeyMap.Which.SetEnabled(m.stage == saveNaming && m.plans[1] != nil)
	m.KeyMap.Which.SetHelp("tab", "plan A instead")
	if m.pinned {
		m.KeyMap.Which.SetHelp("tab", "the plan instead")
	}
	m.KeyMap.Yes.SetEnabled(m.stage == saveAsking)
	m.KeyMap.No.SetEnabled(m.stage == saveAsking)
	m.KeyMap.Cancel.SetEnabled(m.Captured() || m.stage == saveWriting)
}

// render draws the box: the field and the note under it, the question, the file
// being written, or what came of it, wrapped to the width.
func (m *SaveBox) render() {
	st := m.styles
	switch m.stage {
	case saveNaming:
		// The field scrolls to keep the cursor in sight.
		m.input.Width = max(m.width-ansi.StringWidth(m.input.Prompt)-1, 0)
		m.input.SetCursor(m.input.Position())
		m.view = pane.Fit(m.input.View(), m.width, 1)
		if m.note != "" {
			style := st.Note
			if m.failed {
				style = st.Error
			}
			m.view += "\n" + style.Render(pane.Fit(m.note, m.width, 1))
		}
	case saveAsking:
		m.view = st.Title.Render(pane.Fit(pane.SaveExists(m.name), m.width, 1))
	case saveWriting:
		m.view = st.Muted.Render(pane.Fit(pane.Saving(m.name), m.width, 1))
	case saveShown:
		style := st.Note
		if m.failed {
			style = st.Error
		}
		switch {
		case m.saved != "" && !m.failed:
			m.view = style.Render(pane.PlanSavedView(m.saved, m.name, m.plan, m.width))
		case m.command != nil:
			m.view = style.Render(pane.WrapAtSpaces(m.result, m.width))
			for _, l := range strings.Split(pane.CommandLines(m.command, m.width), "\n") {
				m.view += "\n" + style.Render(l) // line by line: no padding after a \\
			}
		default:
			m.view = style.Render(pane.WrapAtSpaces(m.result, m.width))
		}
	default:
		m.view = ""
	}
	if m.width == 0 {
		m.view = ""
	}
}

// View draws the box: "" when closed.
func (m SaveBox) View() string { return m.view }
