package model

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/plain"
)

// JobsKeyMap is pane 4's keys.
type JobsKeyMap struct {
	scrollKeys
	Type key.Binding // starts typing the jobs
	Run  key.Binding // runs them and stops typing
	Stop key.Binding // stops typing without running
}

// DefaultJobsKeyMap returns pane 4's keys.
func DefaultJobsKeyMap() JobsKeyMap {
	return JobsKeyMap{
		scrollKeys: defaultScrollKeys(),
		Type:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "type jobs")),
		Run:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run"), key.WithDisabled()),
		Stop:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop typing"), key.WithDisabled()),
	}
}

func (k JobsKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Type, k.Run, k.Stop, pair(k.Up, k.Down, "↑/↓", "scroll")}
}

func (k JobsKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Type, k.Run, k.Stop}, {k.Up, k.Down, k.PageUp, k.PageDown}}
}

// jobsPlaceholder stands in the empty line while it does not have the keys.
const jobsPlaceholder = "(enter to type the jobs)"

// jobsLineLimit is the most runes the jobs line holds: room for the most
// jobs a line may have, each with a name of 64 runes and ":fatal", and a
// space between them (8 x 70 + 7). Without a limit every rune typed or
// pasted would measure the whole line again (bubbles' textinput does), so
// a 100 KB paste would cost the square of its length.
const jobsLineLimit = ledger.MaxJobs*(64+len(":fatal")) + ledger.MaxJobs - 1

// JobsPane is pane 4: a line of jobs, run through one ledger.
type JobsPane struct {
	KeyMap JobsKeyMap

	settings  backoff.Settings
	policy    backoff.Policy // the jobs wait as it does: pane 1's
	input     textinput.Model
	jobs      []ledger.Job // the last line that ran
	report    ledger.Report
	note      string // Cancelled., or why the line was refused
	failed    bool   // the note is an error
	view      scroller
	summary   string // rendered on change: pane.JobsSummary
	frame     string // the parts joined after every change
	dirty     bool   // the policy or the settings changed while another pane had the keys: see Refresh
	helpText  string // rendered on change: plain.JobsHelp wrapped
	underText string // rendered on change: the policy the jobs wait under
	line      string // rendered on change: the input line cut to the width
	noteText  string // rendered on change: the note wrapped
	width     int
	height    int
	styles    *pane.Styles
}

// NewJobsPane returns pane 4 with no jobs run.
func NewJobsPane(s backoff.Settings, st *pane.Styles) JobsPane {
	in := textinput.New()
	in.Prompt = plain.JobsPrompt
	in.Placeholder = jobsPlaceholder
	in.CharLimit = jobsLineLimit
	in.PromptStyle = st.InputPrompt
	in.TextStyle = st.InputText
	in.PlaceholderStyle = st.InputPlaceholder
	in.Cursor.Style = st.InputCursor
	in.Cursor.SetMode(cursor.CursorStatic)
	km := DefaultJobsKeyMap()
	m := JobsPane{KeyMap: km, settings: s, policy: s.Policy(backoff.Exponential), input: in, view: newScroller(km.scrollKeys, st), styles: st}
	m.render()
	return m
}

// Typing reports whether the jobs line has the keys.
func (m JobsPane) Typing() bool { return m.input.Focused() }

// Report is the last run's report.
func (m JobsPane) Report() ledger.Report { return m.report }

// Note is the note under the line: Cancelled., or why it was refused.
func (m JobsPane) Note() string { return m.note }

// SetPolicy runs the last line of jobs again under policy p and settings
// s (pane 1's policy, the plan's settings), so the ledger shows what they
// would do now.
func (m *JobsPane) SetPolicy(p backoff.Policy, s backoff.Settings) {
	m.settings, m.policy = s, p
	if m.jobs != nil {
		m.report = ledger.RunAllUnder(m.jobs, p, s)
	}
	m.dirty = true
}

// Refresh draws what changed since the pane last had the keys.
func (m *JobsPane) Refresh() {
	if m.dirty {
		m.render()
		m.join()
	}
}

// Policy is the policy the jobs wait under.
func (m JobsPane) Policy() backoff.Policy { return m.policy }

// SetSize sets the pane's size in cells.
func (m *JobsPane) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.render()
}

// head is the lines above the ledger: what to type, the line, the note.
func (m JobsPane) head() string {
	out := m.helpText + "\n" + m.underText + "\n" + m.line
	if m.noteText != "" {
		out += "\n" + m.noteText
	}
	return out
}

// render lays out the parts that change only with the report or the size.
func (m *JobsPane) render() {
	m.dirty = false
	m.helpText = m.styles.Muted.Render(pane.Wrap(plain.JobsHelp, min(m.width, pane.ProseWidth)))
	m.underText = m.styles.Muted.Render(pane.Wrap(pane.JobsUnder(m.policy), min(m.width, pane.ProseWidth)))
	m.noteText = ""
	if m.note != "" {
		style := m.styles.Note
		if m.failed {
			style = m.styles.Error
		}
		m.noteText = style.Render(pane.Wrap(m.note, min(m.width, pane.ProseWidth)))
	}
	m.input.Width = max(m.width-len(plain.JobsPrompt)-1, 0)
	m.input.SetCursor(m.input.Position()) // scrolls the text to the new width
	m.drawLine()
	m.summary = pane.JobsSummary(m.report, m.failed, m.width, m.styles)
	used := pane.Height(m.head()) + 1 // and a blank line
	if m.summary != "" {
		used += pane.Height(m.summary) + 1
	}
	// The ledger takes the room it needs, the counts right under it.
	m.view.SetContent(pane.JobsBody(m.report, m.failed, m.width, m.styles), m.width, m.height-used, true)
	m.join()
}

// join puts the head, the ledger in sight and the counts together.
func (m *JobsPane) join() {
	m.frame = ""
	if m.width == 0 || m.height == 0 {
		return
	}
	out := m.head() + "\n\n" + m.view.View()
	if m.summary != "" {
		out += "\n\n" + m.summary
	}
	m.frame = pane.ClipHeight(out, m.height)
}

// drawLine renders the input line: after every change to the input, as
// it changes only in Update.
//
// First it puts the line's scroll where the text, the cursor and the width
// alone say: from the start while the cursor fits, else with the cursor at
// the right edge. bubbles' textinput keeps its scroll from one change to the
// next, and so from one width to the next: after a narrow window the line
// would draw otherwise than it does in a window that was always this wide.
func (m *JobsPane) drawLine() {
	pos := m.input.Position()
	m.input.CursorEnd()    // the scroll follows the cursor to the end,
	m.input.CursorStart()  // then back to the start,
	m.input.SetCursor(pos) // then only as far as the cursor needs
	m.line = pane.Fit(m.input.View(), m.width, 1)
}

// Update types, runs and scrolls.
func (m JobsPane) Update(msg tea.Msg) (JobsPane, tea.Cmd) {
	if m.Typing() && insertsText(msg) && utf8.RuneCountInString(m.input.Value()) >= jobsLineLimit {
		// The line is full: the input would take none of it. Dropped here,
		// a long paste costs a count of the line per key, not a frame.
		return m, nil
	}
	m, cmd := m.update(msg)
	m.join()
	return m, cmd
}

func (m JobsPane) update(msg tea.Msg) (JobsPane, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		var cmd tea.Cmd
		m.input, cmd = updateField(m.input, msg)
		m.drawLine()
		return m, cmd
	}
	if m.Typing() {
		switch {
		case key.Matches(k, m.KeyMap.Run):
			m.run(m.input.Value())
			m.stopTyping()
			return m, nil
		case key.Matches(k, m.KeyMap.Stop):
			m.stopTyping()
			return m, nil
		}
		var cmd tea.Cmd
		m.input, cmd = updateField(m.input, msg)
		m.drawLine()
		return m, cmd
	}
	if key.Matches(k, m.KeyMap.Type) {
		cmd := m.input.Focus()
		m.input.CursorEnd()
		m.input.Placeholder = ""
		m.KeyMap.Type.SetEnabled(false)
		m.KeyMap.Run.SetEnabled(true)
		m.KeyMap.Stop.SetEnabled(true)
		m.setScrollKeys(false)
		m.render()
		return m, cmd
	}
	return m, m.view.Update(msg)
}

func (m *JobsPane) stopTyping() {
	m.input.Blur()
	m.input.Placeholder = jobsPlaceholder
	m.KeyMap.Type.SetEnabled(true)
	m.KeyMap.Run.SetEnabled(false)
	m.KeyMap.Stop.SetEnabled(false)
	m.setScrollKeys(true)
	m.render()
}

func (m *JobsPane) setScrollKeys(on bool) {
	for _, b := range []*key.Binding{&m.KeyMap.Up, &m.KeyMap.Down, &m.KeyMap.PageUp, &m.KeyMap.PageDown} {
		b.SetEnabled(on)
	}
	m.view.SetKeys(m.KeyMap.scrollKeys)
}

// run reads a line of jobs: an empty one cancels; one that does not parse,
// holds a name with a format character (ledger.CheckNames) or two jobs of
// one name is refused, saying which job and what rule, and keeps the last
// report, dimmed under the error. The jobs wait as the policy does.
func (m *JobsPane) run(line string) {
	if strings.Trim(line, " ") == "" {
		m.note, m.failed = plain.Cancelled, false
		return
	}
	jobs, err := ledger.Parse(line)
	if err == nil {
		err = ledger.CheckNames(jobs)
	}
	if err == nil {
		err = pane.CheckDuplicates(jobs)
	}
	if err != nil {
		m.note, m.failed = pane.JobLineError(err), true
		return
	}
	m.note, m.failed = "", false
	m.jobs = jobs
	m.report = ledger.RunAllUnder(jobs, m.policy, m.settings)
	m.view.GotoTop()
}

// View draws the pane.
func (m JobsPane) View() string { return m.frame }

// insertsText reports whether msg only types text into a field: runes or a
// space, typed or pasted. With alt a rune is a key of its own (alt+b goes
// back a word).
func insertsText(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyMsg)
	return ok && (k.Type == tea.KeyRunes || k.Type == tea.KeySpace) && !k.Alt
}
