package model

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// Focus is the pane that has the keys.
type Focus int

// The panes, numbered as the plain menu numbers them (from 0 here), then
// the advice, which the plain menu does not have.
const (
	FocusClient Focus = iota
	FocusCrowd
	FocusTimeline
	FocusJobs
	FocusSettings
	FocusAdvice
	numPanes
)

// String is the pane's name as the plain menu writes it, such as "the crowd".
func (f Focus) String() string {
	if f < 0 || f >= numPanes {
		return fmt.Sprintf("Focus(%d)", int(f))
	}
	return pane.PaneName(int(f))
}

// The least window the program draws in; below it, it says so.
const (
	MinWidth  = 50
	MinHeight = 14
)

// headerHeight is the header's lines: the tabs and a rule.
const headerHeight = 2

// App is the full-screen program's root model: a handle on its state, so
// that bubbletea's copy of the model on every message copies one pointer,
// not the panes. Its methods route every message in one fixed order (see
// Update).
type App struct{ *root }

// root is the program's state.
type root struct {
	keys     GlobalKeyMap
	help     help.Model
	focus    Focus
	plan     Plan
	policies []backoff.Policy // the plan's six
	policy   int              // the policy panes 1, 3 and 4 share, into policies
	runs     runs
	initCmd  tea.Cmd // the first run, for Init

	client   ClientPane
	crowd    CrowdPane
	timeline TimelinePane
	jobs     JobsPane
	form     SettingsPane
	advice   AdvicePane
	save     SaveBox
	note     string // kept in every plan saved

	clipboard func(text string) error // see Options.Clipboard

	width, height int       // the window
	sized         bool      // a window size has come: before it, keys wait in early
	early         []tea.Msg // keys typed before the first window size, taken once it comes
	bodyHeight    int       // the panes' height: the window less header and footer
	header        string    // drawn for headerOf
	headerOf      headerKey // what the header was drawn for
	footer        string    // drawn for footerOf
	footerOf      string    // what the footer was drawn for: see footerInputs
	saveHeight    int       // the save box's lines under the pane
	styles        *pane.Styles
}

// headerKey is everything the header's drawing depends on.
type headerKey struct {
	focus  Focus
	width  int
	status string
	info   string
}

// NewApp returns the program on pane 2, the crowd, with settings s, the spread over
// DefaultSeeds seeds with independent draws unless opts say otherwise. Its
// first run starts in Init, or, when it is small enough to run inside
// Update (WithInlineWork), here.
func NewApp(s backoff.Settings, st *pane.Styles, opts ...Option) App {
	o := newOptions(opts)
	h := help.New()
	h.Styles = st.Help
	m := &root{
		keys:     DefaultGlobalKeyMap(),
		help:     h,
		runs:     newRuns(o, st),
		focus:    FocusCrowd, // what a person comes for
		policy:   int(backoff.Exponential),
		client:   NewClientPane(s, st),
		crowd:    NewCrowdPane(st),
		timeline: NewTimelinePane(st),
		jobs:     NewJobsPane(s, st),
		save:     NewSaveBox(o.Files, st),
		note:     o.Note,
		styles:   st,

		clipboard: o.Clipboard,
	}
	p := DefaultPlan(s)
	if policies, err := parsePolicies(s, strings.Join(o.Policies, ",")); err == nil {
		p.Policies = policies
	}
	p.Seeds = min(max(o.Seeds, 0), backoff.MaxSeeds)
	if o.SpreadDraws == backoff.Reference {
		p.SpreadDraws = backoff.Reference
	}
	m.save.SetNotice(o.Notice)
	m.form = NewSettingsPane(p, st)
	m.advice = NewAdvicePane(p, o, st)
	m.initCmd = tea.Batch(m.setPlan(p), m.advice.SetGoals(o.Goals, cmp.Or(o.AdviceSeeds, DefaultAdviceSeeds), o.AlsoService))
	return App{m}
}

// Init starts the first run, unless it ran in NewApp.
func (m App) Init() tea.Cmd {
	cmd := m.initCmd
	m.initCmd = nil
	return cmd
}

// Focus is the focused pane.
func (m App) Focus() Focus { return m.focus }

// Settings are the settings every pane shows.
func (m App) Settings() backoff.Settings { return m.plan.Settings }

// Plan is the plan every pane shows.
func (m App) Plan() Plan { return m.plan }

// Panes, for tests and callers that inspect the state.
func (m App) ClientPane() ClientPane     { return m.client }
func (m App) CrowdPane() CrowdPane       { return m.crowd }
func (m App) TimelinePane() TimelinePane { return m.timeline }
func (m App) JobsPane() JobsPane         { return m.jobs }
func (m App) SettingsPane() SettingsPane { return m.form }
func (m App) AdvicePane() AdvicePane     { return m.advice }
func (m App) SaveBox() SaveBox           { return m.save }

// Update routes msg in this order, and only this order (a key first
// closes what the save box shows once done, a save's result or a notice,
// then goes on as any key):
//
//  0. before the first window size, keys wait for it (the runtime reads
//     the terminal before it tells its size), and are taken after it;
//  1. the window's size;
//  2. the computations' own messages (results, the spinner, the progress,
//     the advice's search) and what came of saving the plan, which no
//     field takes and which must reach the panes while one has the keys;
//     esc while a save is on its way, which calls it off;
//  3. below the least size, keys and the mouse: only q and ctrl+c do
//     anything, and both quit;
//  4. the save box's field or question, or else an open form or text
//     field, which takes every other message (ctrl+c still quits);
//  5. the global keys;
//  6. the mouse: a click on a tab, or to the focused pane;
//  7. messages for every pane (SettingsAppliedMsg);
//  8. keys and anything else to the focused pane.
//
// Then the advice follows the plan (a change starts its search), and it
// lays the frame out again, as the footer's height may have changed.
func (m App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	// Keys typed faster than they are read arrive as one message of several
	// runes ("ll"); outside a text field each is a key of its own. A pasted
	// megabyte is a megabyte of keys, no more.
	if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste && !m.captured() {
		var cmds []tea.Cmd
		for _, r := range k.Runes {
			if cmd := m.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt}); cmd != nil {
				cmds = append(cmds, cmd)
			}
		}
		return m, tea.Batch(cmds...)
	}
	return m, m.update(msg)
}

// update is Update for one message that is not several keys at once.
func (m *root) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(tea.KeyMsg); ok {
		m.save.Dismiss()
	}
	switch {
	case m.keepEarly(msg):
	case m.resize(msg):
		if len(m.early) > 0 {
			m.layout()
			cmd = m.takeEarly()
		}
	case m.computation(msg, &cmd):
	case m.adviceMessage(msg, &cmd):
	case m.saved(msg):
	case m.cancelsSave(msg):
	case m.tooSmall(msg, &cmd):
	case m.captured():
		cmd = m.updateCaptured(msg)
	case m.globalKey(msg, &cmd):
	case m.mouse(msg, &cmd):
	case m.paneMessage(msg, &cmd):
	default:
		cmd = m.updateFocused(msg)
	}
	if c := m.advice.SetPlan(m.plan); c != nil {
		cmd = tea.Batch(cmd, c)
	}
	m.layout()
	return cmd
}

// resize takes a new window size; the first one takes the keys typed
// before it, in order.
func (m *root) resize(msg tea.Msg) bool {
	ws, ok := msg.(tea.WindowSizeMsg)
	if !ok {
		return false
	}
	m.width, m.height = max(ws.Width, 0), max(ws.Height, 0)
	m.bodyHeight = -1 // lay out again
	m.sized = true
	return true
}

// maxEarly is the most keys kept before the first window size: a burst a
// person types while the program starts, not a paste.
const maxEarly = 64

// keepEarly keeps a key that comes before the first window size, which
// would otherwise meet a window of no size and be dropped: the runtime
// reads the terminal before it has told its size.
func (m *root) keepEarly(msg tea.Msg) bool {
	if m.sized {
		return false
	}
	if _, ok := msg.(tea.KeyMsg); !ok {
		return false
	}
	if len(m.early) < maxEarly {
		m.early = append(m.early, msg)
	}
	return true
}

// takeEarly gives the keys kept before the first window size to update,
// once it has come.
func (m *root) takeEarly() tea.Cmd {
	early := m.early
	m.early = nil
	var cmds []tea.Cmd
	for _, k := range early {
		cmds = append(cmds, m.update(k))
	}
	return tea.Batch(cmds...)
}

// small reports whether the window is below the least size.
func (m *root) small() bool { return m.width < MinWidth || m.height < MinHeight }

// tooSmall takes keys and the mouse below the least size: q and ctrl+c
// quit, even while a field had the keys; nothing else does anything.
func (m *root) tooSmall(msg tea.Msg, cmd *tea.Cmd) bool {
	if !m.small() {
		return false
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if key.Matches(msg, m.keys.Quit) {
			*cmd = tea.Quit
		}
		return true
	case tea.MouseMsg:
		return true
	}
	return false
}

// saved takes what came of saving the plan.
func (m *root) saved(msg tea.Msg) bool {
	r, ok := msg.(planSavedMsg)
	if ok {
		m.save, _ = m.save.Update(r)
	}
	return ok
}

// cancelsSave takes esc while a save is on its way: it calls the save
// off, whatever has the keys.
func (m *root) cancelsSave(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyMsg)
	if !ok || !m.save.Writing() || !key.Matches(k, m.save.KeyMap.Cancel) {
		return false
	}
	m.save, _ = m.save.Update(msg)
	return true
}

// captured reports whether the save box, a text field or the form has the
// keys.
func (m *root) captured() bool {
	if m.save.Captured() {
		return true
	}
	switch m.focus {
	case FocusClient:
		return m.client.Typing()
	case FocusJobs:
		return m.jobs.Typing()
	case FocusSettings:
		return m.form.Editing()
	case FocusAdvice:
		return m.advice.Editing()
	}
	return false
}

func (m *root) updateCaptured(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok && key.Matches(k, m.keys.Force) {
		return tea.Quit
	}
	if m.save.Captured() {
		var cmd tea.Cmd
		m.save, cmd = m.save.Update(msg)
		return cmd
	}
	return m.updateFocused(msg)
}

// globalKey moves between panes, toggles the full help, switches the
// draws, pins, swaps and drops plan A, opens the save box (unless a write
// is on its way), or quits.
func (m *root) globalKey(msg tea.Msg, cmd *tea.Cmd) bool {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return false
	}
	switch {
	case key.Matches(k, m.keys.Quit):
		*cmd = tea.Quit
	case key.Matches(k, m.keys.Next):
		m.focus = (m.focus + 1) % numPanes
	case key.Matches(k, m.keys.Prev):
		m.focus = (m.focus + numPanes - 1) % numPanes
	case key.Matches(k, m.keys.Pane):
		m.focus = Focus(k.Runes[0] - '1')
	case key.Matches(k, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
	case key.Matches(k, m.keys.Draws):
		p := m.plan
		p.Settings.Draws = 1 - p.Settings.Draws
		*cmd = m.setPlan(p)
	case key.Matches(k, m.keys.Pin):
		m.pin()
	case key.Matches(k, m.keys.Swap):
		m.swap()
	case key.Matches(k, m.keys.Drop):
		m.drop()
	case key.Matches(k, m.keys.Save):
		if !m.save.Writing() {
			*cmd = m.save.Open(m.savedPlan(m.plan), m.savedPinned())
		}
	default:
		return false
	}
	m.keys.setPinned(m.runs.pinned != nil)
	return true
}

// mouse takes the mouse: a click on a tab focuses its pane; anything in
// the body goes to the focused pane, in the pane's own rows.
func (m *root) mouse(msg tea.Msg, cmd *tea.Cmd) bool {
	mm, ok := msg.(tea.MouseMsg)
	if !ok {
		return false
	}
	switch {
	case mm.Y == 0:
		if mm.Action == tea.MouseActionPress && mm.Button == tea.MouseButtonLeft {
			if i := pane.TabAt(int(m.focus), m.width, mm.X); i >= 0 {
				m.focus = Focus(i)
			}
		}
	case mm.Y >= headerHeight && mm.Y < headerHeight+m.bodyHeight:
		mm.Y -= headerHeight
		*cmd = m.updateFocused(mm)
	}
	return true
}

// paneMessage handles the messages that are for every pane.
func (m *root) paneMessage(msg tea.Msg, cmd *tea.Cmd) bool {
	applied, ok := msg.(SettingsAppliedMsg)
	if !ok {
		return false
	}
	p := m.plan
	p.Settings = applied.Settings
	*cmd = m.setPlan(p)
	return true
}

// planChanged gives the plan to the panes that follow it at once: pane 1's
// schedules and pane 4's jobs are no crowd, and the form's summary.
func (m *root) planChanged() {
	s := m.plan.Settings
	m.policies = policiesOf(m.plan)
	m.policy = min(max(m.policy, 0), len(m.policies)-1)
	m.client.SetSettings(s, m.policies)
	m.client.SetChosen(m.policy)
	m.timeline.SetChosen(m.policy)
	m.jobs.SetPolicy(m.policies[m.policy], s)
	m.form.SetPlan(m.plan)
}

func (m *root) updateFocused(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch m.focus {
	case FocusClient:
		m.client, cmd = m.client.Update(msg)
	case FocusCrowd:
		m.crowd, cmd = m.crowd.Update(msg)
	case FocusTimeline:
		m.timeline, cmd = m.timeline.Update(msg)
	case FocusJobs:
		m.jobs, cmd = m.jobs.Update(msg)
	case FocusSettings:
		m.form, cmd = m.form.Update(msg)
		// A form that completes has applied its plan: every pane takes it
		// in this same Update, before any other message.
		if p := m.form.Plan(); p != m.plan {
			cmd = tea.Batch(cmd, m.setPlan(p))
		}
	case FocusAdvice:
		m.advice, cmd = m.advice.Update(msg)
		if s, ok := m.advice.TakeApplied(); ok {
			cmd = tea.Batch(cmd, m.useAdvice(s))
		}
		if text, ok := m.advice.TakeCopy(); ok {
			cmd = tea.Batch(cmd, m.copyCommand(text))
		}
	}
	m.sharePolicy()
	return cmd
}

// sharePolicy gives the policy chosen in pane 1 or 3 to the other, and to
// the jobs, which wait as it does.
func (m *root) sharePolicy() {
	i := m.policy
	switch m.focus {
	case FocusClient:
		i = m.client.Chosen()
	case FocusTimeline:
		i = m.timeline.Chosen()
	}
	if i == m.policy {
		return
	}
	m.policy = i
	m.client.SetChosen(i)
	m.timeline.SetChosen(i)
	m.jobs.SetPolicy(m.policies[i], m.plan.Settings)
}

// layout draws the header and footer again and gives the panes the room
// left between them, when it has changed; the focused pane draws what
// changed while another had the keys.
func (m *root) layout() {
	defer m.refresh()
	hk := headerKey{focus: m.focus, width: m.width, status: m.status(), info: pane.SeedAndDraws(m.plan.Settings) + " (d)"}
	if hk != m.headerOf || m.header == "" {
		m.header, m.headerOf = pane.Header(int(m.focus), m.width, hk.status, hk.info, m.styles), hk
	}
	// The footer is drawn again only when what it shows has changed: a
	// frame's help costs more than most keys' work.
	if of := m.footerInputs(); of != m.footerOf {
		m.footer, m.footerOf = m.drawFooter(), of
	}
	m.save.SetWidth(m.width)
	// The save box takes at most half the room under the header.
	room := max(m.height-headerHeight-pane.Height(m.footer), 0)
	m.saveHeight = 0
	if v := m.save.View(); v != "" {
		m.saveHeight = min(pane.Height(v), max(room/2, 1))
	}
	body := max(room-m.saveHeight, 0)
	if body == m.bodyHeight {
		return
	}
	m.bodyHeight = body
	m.client.SetSize(m.width, body)
	m.crowd.SetSize(m.width, body)
	m.timeline.SetSize(m.width, body, m.height-headerHeight-1)
	m.jobs.SetSize(m.width, body)
	m.form.SetSize(m.width, body)
	m.advice.SetSize(m.width, body)
}

// refresh has the focused pane draw what changed while it was hidden.
func (m *root) refresh() {
	switch m.focus {
	case FocusClient:
		m.client.Refresh()
	case FocusTimeline:
		m.timeline.Refresh()
	case FocusJobs:
		m.jobs.Refresh()
	}
}

// View draws the frame: header, the focused pane, footer; or, in a window
// below the least size, what size it needs.
func (m App) View() string {
	if m.small() {
		return pane.TooSmall(m.width, m.height, MinWidth, MinHeight, m.styles)
	}
	var body string
	switch m.focus {
	case FocusClient:
		body = m.client.View()
	case FocusCrowd:
		body = m.crowd.View()
	case FocusTimeline:
		body = m.timeline.View()
	case FocusJobs:
		body = m.jobs.View()
	case FocusAdvice:
		body = m.advice.View()
	default:
		body = m.form.View()
	}
	// The panes cut their lines to the width when their content changes,
	// so a frame only joins strings.
	under := m.footer
	if m.saveHeight > 0 {
		under = pane.ClipHeight(m.save.View(), m.saveHeight) + "\n" + m.footer
	}
	if m.bodyHeight == 0 {
		return pane.Fit(m.header+"\n"+under, m.width, m.height)
	}
	return m.header + "\n" + pane.ClipHeight(body, m.bodyHeight) + "\n" + under
}
