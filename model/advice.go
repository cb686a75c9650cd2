package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/table"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/backoff/plan"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/plain"
	"github.com/retryplanner/retry-planner/views/words"
)

// Pane 6, the advice: a short form of goals, a search for the settings
// that meet them (advice.Run) off the update loop, and the candidates as a
// table that scrolls with the chosen one; enter on one makes it the plan's
// own policy and budget, c copies its command.
//
// A search runs for the plan and goals of the moment it starts, in a
// tea.Cmd, which first works out its cost (advice.Search.Cost): past the
// memory ceiling it stops there, else the cost's time is its estimate. Its
// progress (the crowds run, the round's seeds, the time against the
// estimate) is drawn four times a second. The form says what a search of
// its seeds would take before it runs, worked out off the loop too. A new
// one starts when the goals are applied, on r, and when the plan changes
// while there are goals, except by enter here; it supersedes the one
// running, whose stop flag it sets (the core polls it every few hundred
// microseconds) and whose end it waits for before it starts, so that no
// two searches ever run at once and a superseded one stops within a frame.
// A search's answer is dropped unless it is the last started.

// AdviceKeyMap is pane 6's keys; the form's own are listed while it is
// open.
type AdviceKeyMap struct {
	Goals  key.Binding // opens the goals' form
	Search key.Binding // searches again
	Up     key.Binding // the candidate above
	Down   key.Binding // the candidate below
	Use    key.Binding // makes the chosen candidate the plan's own policy and budget
	Copy   key.Binding // copies the chosen candidate's command
	Next   key.Binding // in the form: the next field, or apply on the last
	Back   key.Binding // in the form: the previous field
	Apply  key.Binding // in the form: apply, from any field
	Cancel key.Binding // in the form: close it, changing nothing
}

// DefaultAdviceKeyMap returns pane 6's keys.
func DefaultAdviceKeyMap() AdviceKeyMap {
	return AdviceKeyMap{
		Goals:  key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "goals")),
		Search: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "search again")),
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Use:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "use it")),
		Copy:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy command")),
		Next:   key.NewBinding(key.WithKeys("enter", "tab", "down"), key.WithHelp("enter", "next / apply"), key.WithDisabled()),
		Back:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "back"), key.WithDisabled()),
		Apply:  key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "apply"), key.WithDisabled()),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"), key.WithDisabled()),
	}
}

// ShortHelp is the keys that do something now, the most useful first (the
// footer keeps the first two longest): the form's while it is open; enter,
// c and ↑/↓ while there are candidates; else e and r.
func (k AdviceKeyMap) ShortHelp() []key.Binding {
	switch {
	case k.Next.Enabled():
		return []key.Binding{k.Next, k.Apply, k.Cancel}
	case k.Use.Enabled():
		return []key.Binding{k.Use, k.Copy, pair(k.Up, k.Down, "↑/↓", "choose"), k.Goals, k.Search}
	}
	return []key.Binding{k.Goals, k.Search}
}

func (k AdviceKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Goals, k.Search, k.Use, k.Copy, k.Up, k.Down}, {k.Next, k.Back, k.Apply, k.Cancel}}
}

// DefaultAdviceSeeds is how many seeds the advice holds its goals over
// unless told, as advise does.
const DefaultAdviceSeeds = 20

// MaxAdviceWork is the most clients a search may run, summed over its
// crowds, as advise's --max-work allows by default.
const MaxAdviceWork = 2_000_000_000

// The goals' form: a text field for each kind of goal but the two peaks,
// which share one, the seeds, and whether to try the service's remedies.
const (
	goalNotThrough = iota
	goalRecovered
	goalPeak
	goalP99
	goalAttempts
	goalSeeds
	numGoalTexts
	alsoServiceKey = "also the service's remedies"
)

// goalFields are the form's text fields: each one's title, the goal's name
// its text follows, and an example.
var goalFields = [numGoalTexts]struct{ title, name, example string }{
	{"not through at most", "not-through", "1%"},
	{"recovered within", "recovered", "60s"},
	{"peak after back at most", "peak", "2x or 5000/s"},
	{"p99 latency at most", "p99", "30s"},
	{"attempts a client at most", "attempts", "3x"},
	{"seeds", "", "20"},
}

// goalsDraft is what the form's fields write into: one string per text
// field, and the remedies' choice. It lives behind a pointer so that the
// fields' bindings survive the pane being copied.
type goalsDraft struct {
	text        [numGoalTexts]string
	alsoService bool
}

// goals reads the draft's goals and seeds: the first field that does not
// read is the error, as "field: what it takes".
func (d *goalsDraft) goals() (advice.Goals, int, error) {
	var gs advice.Goals
	for i := range goalSeeds {
		if err := d.check(i); err != nil {
			return gs, 0, err
		}
		if t := strings.TrimSpace(d.text[i]); t != "" {
			g, _ := advice.ParseGoal(goalFields[i].name + "<=" + t)
			gs = gs.With(g)
		}
	}
	if err := d.check(goalSeeds); err != nil {
		return gs, 0, err
	}
	seeds := DefaultAdviceSeeds
	if t := strings.TrimSpace(d.text[goalSeeds]); t != "" {
		seeds, _ = backoff.ParseCount(t)
	}
	return gs, seeds, nil
}

// check is why text field i cannot hold what it holds, or nil; empty is no
// goal (for the seeds, the default).
func (d *goalsDraft) check(i int) error {
	t := strings.TrimSpace(d.text[i])
	if t == "" {
		return nil
	}
	if i == goalSeeds {
		if n, ok := backoff.ParseCount(t); !ok || n < 1 || n > backoff.MaxSeeds {
			return fmt.Errorf("seeds: want a whole number from 1 to %d", backoff.MaxSeeds)
		}
		return nil
	}
	if _, err := advice.ParseGoal(goalFields[i].name + "<=" + t); err != nil {
		var ge *advice.GoalError
		if errors.As(err, &ge) {
			return fmt.Errorf("%s", ge.Rule)
		}
		return err
	}
	return nil
}

// adviceRun is one search. Only stopped, done and finished are shared with
// the goroutine that runs it.
type adviceRun struct {
	gen      int
	plan     Plan      // the plan it searches for
	most     int       // the most crowds it runs
	started  time.Time // when it was asked for
	stopped  atomic.Bool
	done     atomic.Int64
	seeds    atomic.Int64  // the seeds of the round running (advice.Options.Seeds)
	estimate atomic.Int64  // its estimate in ms on its cores, once worked out; 0 before
	finished chan struct{} // closed when its goroutine is done
}

// The search's messages.
type (
	adviceLandedMsg struct {
		gen int
		adv advice.Advice
		err error
	}
	adviceTickMsg struct{} // time to draw the search's progress again
	// adviceEstimateMsg is what a search of the form's seeds and
	// remedies would take, worked out off the loop for form number form.
	adviceEstimateMsg struct {
		form  int
		ask   estimateAsk
		work  advice.Work
		secs  float64
		valid bool // the search could run
	}
	adviceFormMsg  struct{ form int } // a message of the goals' form, tagged with the form that sent it
	adviceFormWrap struct {
		adviceFormMsg
		msg tea.Msg
	}
)

// AdvicePane is pane 6.
type AdvicePane struct {
	KeyMap AdviceKeyMap

	plan        Plan // the plan every pane shows
	goals       advice.Goals
	seeds       int
	alsoService bool
	compute     func(advice.Search, advice.Options) (advice.Advice, error)
	inline      bool                    // the search runs inside Update (tests)
	maxMemory   int64                   // see Options.MaxMemory: a search past it is not run
	refusal     func(need int64) string // why, in Options.Refusal's words
	now         func() time.Time        // the clock the progress reads
	workers     int                     // the cores a search runs on

	run       *adviceRun     // the last search started
	landedGen int            // the last search whose answer landed
	polling   bool           // a progress tick is on its way
	shown     *advice.Advice // the last search's answer
	shownOf   Plan           // the plan it was for
	err       string         // why no search runs
	note      string         // what the last enter did
	applied   *backoff.Settings
	expect    *backoff.Settings // the settings the last enter applied: the plan that follows is no change to search for
	used      bool              // the plan is the search's but for the candidate enter applied

	table  table.Model // the rows that show, from offset: the pane scrolls them, not the table
	chosen int         // the candidate chosen, into data().Shown()
	offset int         // the first candidate the table shows
	copy   *string     // the command c asked to copy, until the root takes it

	form   *huh.Form // nil while closed; a fresh one each time it opens
	opened int       // how many forms have opened: tags the form's messages
	draft  *goalsDraft
	keys   []string           // the form's fields' keys, in order
	left   [numGoalTexts]bool // the text fields the cursor has left: each that does not read says why beside it
	asked  estimateAsk        // the last search the form asked an estimate of
	est    *adviceEstimateMsg // its answer, once it lands

	head, detail, frame string // drawn on change
	width, height       int
	styles              *pane.Styles
}

// NewAdvicePane returns pane 6 with no goals, its searches run as o says
// (o.Compute.Advise, o.InlineAdvice, o.MaxMemory).
func NewAdvicePane(p Plan, o Options, st *pane.Styles) AdvicePane {
	t := table.New(table.WithFocused(true))
	t.SetStyles(pane.AdviceTableStyles(st))
	m := AdvicePane{KeyMap: DefaultAdviceKeyMap(), plan: p, seeds: DefaultAdviceSeeds, compute: o.Compute.Advise, inline: o.InlineAdvice,
		maxMemory: o.MaxMemory, refusal: o.Refusal, now: time.Now, workers: max(o.AdviceWorkers, 1), table: t, styles: st}
	m.render()
	return m
}

// Editing reports whether the goals' form is open and has the keys.
func (m AdvicePane) Editing() bool { return m.form != nil }

// Goals are the goals the pane searches for.
func (m AdvicePane) Goals() advice.Goals { return m.goals }

// Searching reports whether a search is on its way.
func (m AdvicePane) Searching() bool { return m.running() != nil }

// Advice is the last search's answer shown, if any.
func (m AdvicePane) Advice() *advice.Advice { return m.shown }

// Chosen is the candidate chosen, into those the table lists.
func (m AdvicePane) Chosen() int { return m.chosen }

// SetGoals sets the goals, seeds and remedies (a plan's, or the command
// line's) and starts a search for them.
func (m *AdvicePane) SetGoals(gs advice.Goals, seeds int, alsoService bool) tea.Cmd {
	m.goals, m.seeds, m.alsoService = gs, max(seeds, 1), alsoService
	cmd := m.start()
	m.render()
	return cmd
}

// SetPlan follows the plan every pane shows: a change starts a search,
// unless it is the one enter here just made.
func (m *AdvicePane) SetPlan(p Plan) tea.Cmd {
	if p == m.plan {
		return nil
	}
	m.plan = p
	if m.expect != nil && *m.expect == p.Settings {
		m.expect = nil
		m.render()
		return nil
	}
	m.expect, m.note, m.used = nil, "", false
	cmd := m.start()
	m.render()
	return cmd
}

// TakeCopy returns the command c asked to copy, once.
func (m *AdvicePane) TakeCopy() (string, bool) {
	if m.copy == nil {
		return "", false
	}
	text := *m.copy
	m.copy = nil
	return text, true
}

// TakeApplied returns the settings enter made, once.
func (m *AdvicePane) TakeApplied() (backoff.Settings, bool) {
	if m.applied == nil {
		return backoff.Settings{}, false
	}
	s := *m.applied
	m.applied = nil
	return s, true
}

// search is the question for the plan: its settings under the spread's
// draws (the plan's own policy, when it has one of its own, among the
// candidates), the goals, the seeds.
func (m *AdvicePane) search() advice.Search {
	s := m.plan.spreadSettings()
	sr := advice.Search{Settings: s, Seeds: m.seeds, Goals: m.goals, AlsoService: m.alsoService}
	if c := s.Custom(); c.Name == "custom" && !c.Same(s.Policy(backoff.Exponential)) {
		sr.Custom = &c
	}
	return sr
}

// start starts a search for the plan and goals, superseding the one
// running; none without goals, or when the goals mean nothing for the
// plan or the search would pass MaxAdviceWork, which the pane then says.
func (m *AdvicePane) start() tea.Cmd {
	m.err = ""
	prev := m.run
	if prev != nil {
		prev.stopped.Store(true)
	}
	if m.goals.Len() == 0 {
		m.run = nil
		return nil
	}
	sr := m.search()
	if err := sr.Check(); err != nil {
		m.run, m.err = nil, err.Error()
		return nil
	}
	w := sr.Estimate()
	if w.Total > MaxAdviceWork {
		m.run = nil
		m.err = fmt.Sprintf("The search would run up to %s crowds of %s clients, more than %s clients in all: fewer seeds, or advise --max-work on the command line.",
			words.Count(w.Crowds), words.Count(w.Clients), words.Count64(MaxAdviceWork))
		return nil
	}
	gen := 1
	if prev != nil {
		gen = prev.gen + 1
	}
	r := &adviceRun{gen: gen, plan: m.plan, most: w.Crowds, started: m.now(), finished: make(chan struct{})}
	m.run = r
	compute, workers, prepare := m.compute, m.workers, m.prepare(sr)
	if m.inline {
		err := prepare(r, workers)
		adv := advice.Advice{}
		if err == nil {
			adv, err = compute(sr, advice.Options{Workers: workers, Done: &r.done, Seeds: &r.seeds})
		}
		close(r.finished)
		m.Message(adviceLandedMsg{gen: r.gen, adv: adv, err: err})
		return nil
	}
	run := func() tea.Msg {
		if prev != nil {
			<-prev.finished // it was told to stop: it ends within a few hundred microseconds of work
		}
		defer close(r.finished)
		if r.stopped.Load() {
			return adviceLandedMsg{gen: r.gen, err: backoff.ErrStopped}
		}
		if err := prepare(r, workers); err != nil {
			return adviceLandedMsg{gen: r.gen, err: err}
		}
		adv, err := compute(sr, advice.Options{Workers: workers, Stop: r.stopped.Load, Done: &r.done, Seeds: &r.seeds})
		return adviceLandedMsg{gen: r.gen, adv: adv, err: err}
	}
	return tea.Batch(run, m.poll())
}

// prepare is what a search does before it runs, off the loop: it works
// out its cost (a few milliseconds), refuses to run past the memory
// ceiling, in the ceiling's words, and keeps its estimate for the
// progress.
func (m *AdvicePane) prepare(sr advice.Search) func(r *adviceRun, workers int) error {
	ceiling, refusal := m.maxMemory, m.refusal
	return func(r *adviceRun, workers int) error {
		c := sr.Cost(workers)
		if ceiling > 0 && c.Bytes > ceiling {
			if refusal != nil {
				return errors.New(refusal(c.Bytes))
			}
			return fmt.Errorf("The search would hold about %s bytes of memory.", words.Count64(c.Bytes))
		}
		r.estimate.Store(max(int64(c.Seconds(workers)*1000), 1))
		return nil
	}
}

// adviceProgressEvery is how often the search's progress is drawn: a few
// times a second, whatever its pace.
const adviceProgressEvery = 250 * time.Millisecond

// poll asks for the progress to be drawn again soon, unless it has been.
func (m *AdvicePane) poll() tea.Cmd {
	if m.polling {
		return nil
	}
	m.polling = true
	return tea.Tick(adviceProgressEvery, func(time.Time) tea.Msg { return adviceTickMsg{} })
}

// running is the search on its way, or nil.
func (m *AdvicePane) running() *adviceRun {
	if m.run != nil && m.landedGen != m.run.gen {
		return m.run
	}
	return nil
}

// Message takes the search's own messages, wherever the keys are: its
// answer (dropped unless it is the last search's) and its progress ticks.
func (m *AdvicePane) Message(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case adviceLandedMsg:
		if m.run == nil || msg.gen != m.run.gen || errors.Is(msg.err, backoff.ErrStopped) {
			return nil, true
		}
		if msg.err != nil {
			m.err = msg.err.Error()
		} else {
			adv := msg.adv
			m.shown, m.shownOf, m.used = &adv, m.run.plan, false
		}
		m.landedGen = m.run.gen
		m.chosen, m.offset = 0, 0
		m.render()
		return nil, true
	case adviceEstimateMsg:
		if m.form != nil && msg.form == m.opened && msg.ask == m.asked {
			m.est = &msg
			m.render()
		}
		return nil, true
	case adviceTickMsg:
		m.polling = false
		var cmd tea.Cmd
		if m.running() != nil {
			cmd = m.poll()
		}
		m.render()
		return cmd, true
	}
	return nil, false
}

// Update takes the keys: the form's while it is open; else e opens it, r
// searches again, ↑ and ↓ choose a candidate, enter uses it.
func (m AdvicePane) Update(msg tea.Msg) (AdvicePane, tea.Cmd) {
	if w, ok := msg.(adviceFormWrap); ok {
		if m.form == nil || w.form != m.opened {
			return m, nil // from a form closed since
		}
		msg = w.msg
	}
	k, isKey := msg.(tea.KeyMsg)
	if m.form != nil {
		return m, m.updateForm(msg)
	}
	if !isKey {
		return m, nil
	}
	var cmd tea.Cmd
	switch {
	case key.Matches(k, m.KeyMap.Goals):
		cmd = m.open()
	case key.Matches(k, m.KeyMap.Search):
		cmd = m.start()
	case key.Matches(k, m.KeyMap.Use):
		m.use()
	case key.Matches(k, m.KeyMap.Copy):
		if cs := m.data().Shown(); m.chosen < len(cs) && m.shown != nil {
			text := m.data().Command(cs[m.chosen])
			m.copy = &text
		}
	case key.Matches(k, m.KeyMap.Up):
		m.chosen = max(m.chosen-1, 0)
	case key.Matches(k, m.KeyMap.Down):
		m.chosen = min(m.chosen+1, max(len(m.data().Shown())-1, 0))
	}
	m.render()
	return m, cmd
}

// use makes the chosen candidate the plan's own policy (custom), its budget
// the budget and its service the service; the root takes the settings
// (TakeApplied) and every pane shows them.
func (m *AdvicePane) use() {
	cs := m.data().Shown()
	i := m.chosen
	if i < 0 || i >= len(cs) {
		return
	}
	c := cs[i]
	s := CandidateSettings(m.plan.Settings, c)
	m.applied, m.expect, m.used = &s, &s, true
	m.note = fmt.Sprintf("Applied #%d as your own policy (custom) and budget (%s)", i+1, s.Budget)
	if changes := advice.ServiceChanges(m.plan.Settings, s); len(changes) > 0 {
		m.note += " with the service's " + strings.Join(changes, ", ")
	}
	m.note += ": every pane shows it."
}

// CandidateSettings are the settings s with candidate c as the plan's own
// policy (custom: its own first wait, longest wait, attempts and limit,
// its multiplier, growth and jitter; the five keep theirs), its budget as
// the budget and its service's queue, order and what becomes of expired
// requests.
func CandidateSettings(s backoff.Settings, c advice.Candidate) backoff.Settings {
	p := c.Policy
	s.CustomFirstWait, s.CustomLongestWait, s.CustomAttempts, s.CustomMaxElapsed = p.FirstWait, p.LongestWait, p.Attempts, p.MaxElapsed
	s.Multiplier, s.Growth, s.Jitter = p.Multiplier, p.Growth, p.Jitter
	s.Budget = c.Settings.Budget
	s.Queue, s.DropExpired, s.QueueOrder = c.Settings.Queue, c.Settings.DropExpired, c.Settings.QueueOrder
	return s
}

// open builds a fresh form bound to a fresh draft of the goals.
func (m *AdvicePane) open() tea.Cmd {
	d := &goalsDraft{alsoService: m.alsoService}
	for i, f := range goalFields {
		if f.name == "" {
			continue
		}
		for _, g := range m.goals.List() {
			if g.Kind.Name() == f.name && d.text[i] == "" {
				d.text[i] = strings.TrimPrefix(g.String(), f.name+"<=")
			}
		}
	}
	d.text[goalSeeds] = fmt.Sprint(m.seeds)
	m.draft, m.left = d, [numGoalTexts]bool{}
	var fields []huh.Field
	m.keys = nil
	for i, f := range goalFields {
		in := huh.NewInput().Key(f.title).Title(f.title + " (" + f.example + ")").Inline(true).Prompt("> ").CharLimit(fieldLimit).
			Value(&d.text[i])
		fields = append(fields, in)
		m.keys = append(m.keys, f.title)
	}
	fields = append(fields, huh.NewSelect[bool]().Key(alsoServiceKey).Title(alsoServiceKey+" (←/→; where the service queues)").Inline(true).
		Options(huh.NewOption("no", false), huh.NewOption("yes", true)).Value(&d.alsoService))
	m.keys = append(m.keys, alsoServiceKey)
	off := key.NewBinding(key.WithDisabled())
	keys := huh.NewDefaultKeyMap()
	keys.Quit = off
	keys.Select.Filter = off
	keys.Input.Next, keys.Input.Prev, keys.Input.Submit = off, off, off
	keys.Select.Next, keys.Select.Prev, keys.Select.Submit, keys.Select.Up, keys.Select.Down = off, off, off, off, off
	m.form = huh.NewForm(huh.NewGroup(fields...).Title("Your goals, each at the 95th percentile over the seeds; leave a field empty for no goal")).
		WithTheme(m.styles.FormTheme()).WithKeyMap(keys).WithShowHelp(false).WithShowErrors(false).
		WithWidth(m.width).WithHeight(max(m.height-2, 1))
	m.opened++
	m.asked, m.est = estimateAsk{}, nil
	cmd := tea.Batch(m.form.Init(), m.askEstimate())
	m.render()
	return cmd
}

// estimateAsk is what a search's estimate depends on beside the plan: its
// seeds and whether it tries the service's remedies (its goals do not
// change which candidates it runs).
type estimateAsk struct {
	seeds int
	also  bool
}

// askEstimate works out, off the loop, what a search of the form's seeds
// and remedies would take, unless it has been asked for them or the seeds
// do not read.
func (m *AdvicePane) askEstimate() tea.Cmd {
	seeds := DefaultAdviceSeeds
	if t := strings.TrimSpace(m.draft.text[goalSeeds]); t != "" {
		if m.draft.check(goalSeeds) != nil {
			return nil
		}
		seeds, _ = backoff.ParseCount(t)
	}
	ask := estimateAsk{seeds, m.draft.alsoService}
	if ask == m.asked {
		return nil
	}
	m.asked = ask
	sr := m.search()
	sr.Seeds, sr.AlsoService = ask.seeds, ask.also
	form, workers := m.opened, m.workers
	estimate := func() tea.Msg {
		msg := adviceEstimateMsg{form: form, ask: ask, valid: sr.Settings.ValidateIn(backoff.WideLimits) == nil}
		if msg.valid {
			msg.work, msg.secs = sr.Estimate(), sr.Cost(workers).Seconds(workers)
		}
		return msg
	}
	if m.inline {
		m.Message(estimate())
		return nil
	}
	return estimate
}

// setKeys turns on the keys that do something: the form's while it is
// open; else e and r, and enter, c, ↑ and ↓ while there are candidates.
func (m *AdvicePane) setKeys() {
	open := m.form != nil
	for _, b := range []*key.Binding{&m.KeyMap.Goals, &m.KeyMap.Search} {
		b.SetEnabled(!open)
	}
	choose := !open && len(m.data().Shown()) > 0
	for _, b := range []*key.Binding{&m.KeyMap.Up, &m.KeyMap.Down, &m.KeyMap.Use, &m.KeyMap.Copy} {
		b.SetEnabled(choose)
	}
	for _, b := range []*key.Binding{&m.KeyMap.Next, &m.KeyMap.Back, &m.KeyMap.Apply, &m.KeyMap.Cancel} {
		b.SetEnabled(open)
	}
}

// updateForm gives msg to the open form: esc closes it changing nothing;
// ctrl+s, or enter on its last field, applies it once every field reads,
// else takes the cursor to the first that does not; enter, tab and ↓ go to
// the next field, shift+tab and ↑ back, whatever the field holds: a field
// left holding what it cannot take says why beside it (issue 24, item 8:
// a field that kept the cursor, its reason gone at the next key, took the
// next field's text).
func (m *AdvicePane) updateForm(msg tea.Msg) tea.Cmd {
	k, isKey := msg.(tea.KeyMsg)
	focused := m.form.GetFocusedField()
	at := 0
	for i, key := range m.keys {
		if focused != nil && focused.GetKey() == key {
			at = i
		}
	}
	var cmd tea.Cmd
	switch {
	case isKey && key.Matches(k, m.KeyMap.Cancel):
		m.closeForm(plain.Cancelled + " The goals are as they were.")
		return nil
	case isKey && (key.Matches(k, m.KeyMap.Apply) || key.Matches(k, m.KeyMap.Next) && k.Type == tea.KeyEnter && at == len(m.keys)-1):
		gs, seeds, err := m.draft.goals()
		if err != nil {
			for i := range m.left {
				m.left[i] = true
			}
			cmd = m.toField(at, m.draft.firstBad())
			break
		}
		m.goals, m.seeds, m.alsoService = gs, seeds, m.draft.alsoService
		note := ""
		if gs.Len() == 0 {
			note = "No goals: nothing to search for."
		}
		m.closeForm(note)
		cmd = m.start()
		m.render()
		return cmd
	case isKey && key.Matches(k, m.KeyMap.Next):
		cmd = m.toField(at, min(at+1, len(m.keys)-1))
	case isKey && key.Matches(k, m.KeyMap.Back):
		cmd = m.toField(at, max(at-1, 0))
	default:
		model, c := m.form.Update(msg)
		if f, ok := model.(*huh.Form); ok {
			m.form = f
		}
		cmd = c
	}
	ask := m.askEstimate()
	m.render()
	return tea.Batch(tagAdviceForm(m.opened, cmd), ask)
}

// toField moves the cursor from field at to field to, now: huh's
// NextField and PrevField move the form where they are called, so that
// the keys typed behind this one land in the field it moved to. The field
// left is checked from then on.
func (m *AdvicePane) toField(at, to int) tea.Cmd {
	if at < numGoalTexts && to != at {
		m.left[at] = true
	}
	var cmds []tea.Cmd
	for ; at < to; at++ {
		cmds = append(cmds, m.form.NextField())
	}
	for ; at > to; at-- {
		cmds = append(cmds, m.form.PrevField())
	}
	return tea.Batch(cmds...)
}

// firstBad is the first text field that does not read, or -1.
func (d *goalsDraft) firstBad() int {
	for i := range numGoalTexts {
		if d.check(i) != nil {
			return i
		}
	}
	return -1
}

// fieldErrors is the form's view with why each field the cursor has left
// cannot hold what it holds, beside the field or under it.
func (m *AdvicePane) fieldErrors(view string) string {
	lines := strings.Split(view, "\n")
	for i := numGoalTexts - 1; i >= 0; i-- {
		err := m.draft.check(i)
		if !m.left[i] || err == nil {
			continue
		}
		title := goalFields[i].title + " (" + goalFields[i].example + ")"
		for j, l := range lines {
			if plainLine := strings.TrimLeft(ansi.Strip(l), "┃ "); strings.HasPrefix(plainLine, title) {
				under := "    "
				if strings.HasPrefix(ansi.Strip(l), "┃") {
					under = "┃   "
				}
				lines = besideLine(lines, j, under, pane.ErrorMark+" "+err.Error(), m.width, m.styles)
				break
			}
		}
	}
	return strings.Join(lines, "\n")
}

func (m *AdvicePane) closeForm(note string) {
	m.form, m.draft, m.keys, m.note, m.left, m.est = nil, nil, nil, note, [numGoalTexts]bool{}, nil
	m.render()
}

// tagAdviceForm runs cmd and tags what it returns as the form's, a batch
// command by command; bubbletea's own messages are left for the runtime.
func tagAdviceForm(form int, cmd tea.Cmd) tea.Cmd {
	return tagCmd(cmd, func(msg tea.Msg) tea.Msg { return adviceFormWrap{adviceFormMsg{form}, msg} })
}

// data is what the pane shows.
func (m *AdvicePane) data() pane.AdviceData {
	d := pane.AdviceData{Goals: m.goals, Seeds: m.seeds, AlsoService: m.alsoService, Advice: m.shown, Err: m.err, Note: m.note}
	if r := m.running(); r != nil {
		d.Searching, d.Done, d.Most, d.RoundSeeds = true, int(r.done.Load()), r.most, int(r.seeds.Load())
		d.Elapsed = m.now().Sub(r.started).Seconds()
		d.Estimate, d.Cores = float64(r.estimate.Load())/1000, m.workers
	}
	d.Stale = m.shown != nil && m.shownOf != m.plan && !m.used
	if m.shown != nil {
		sr := m.shown.Search
		of := m.shownOf
		d.Command = func(c advice.Candidate) string {
			return plan.AdviceCommand(plan.OfCandidate(c, of.Settings.Draws, sr.Seeds, sr.Settings.Draws, sr.Goals, ""))
		}
	}
	return d
}

// SetSize sets the pane's size in cells.
func (m *AdvicePane) SetSize(w, h int) {
	if w == m.width && h == m.height {
		return
	}
	m.width, m.height = max(w, 0), max(h, 0)
	if m.form != nil {
		m.form = m.form.WithWidth(m.width).WithHeight(max(m.height-2, 1))
	}
	m.render()
}

// render draws the pane again: the head, the table at the room left, the
// chosen candidate under it; or the open form.
//
// The table shows the rows from offset, the chosen one always among them:
// the pane scrolls them itself (bubbles' table, given rows past its
// height, lost the cursor from sight as the rows were set again on each
// change). The chosen one's lines under it give way, from the figures to
// its command on one line to its name alone, before the table shows fewer
// than three rows; below that the table keeps the chosen row and what the
// head leaves.
func (m *AdvicePane) render() {
	m.setKeys()
	st := m.styles
	if m.width == 0 || m.height == 0 {
		m.frame = ""
		return
	}
	if m.form != nil {
		m.frame = pane.Fit(m.formView(), m.width, m.height)
		return
	}
	d := m.data()
	cs := d.Shown()
	m.chosen = min(max(m.chosen, 0), max(len(cs)-1, 0))
	cols, rows := pane.AdviceTable(d, m.chosen, m.width)
	least := min(len(rows), 5)
	// The bounds' arithmetic in full where it leaves the table its least
	// rows (with the chosen one's name under it), else in brief; the head
	// leaves at least the table's head and one row.
	m.head = pane.AdviceHead(d, m.width, false, st)
	if len(rows) > 0 && m.height-pane.Height(m.head)-4 < least { // 4: two blanks, the table's head, the chosen one's name
		m.head = pane.AdviceHead(d, m.width, true, st)
	}
	if lines := strings.Split(m.head, "\n"); len(lines) > max(m.height-2, 1) {
		m.head = strings.Join(lines[:max(m.height-2, 1)], "\n")
	}
	if len(rows) == 0 {
		m.frame = pane.Fit(m.head, m.width, m.height)
		return
	}
	headH := pane.Height(m.head)
	room := 0 // the lines for the table's rows and its scroll line
	m.detail = ""
	for level := pane.DetailFull; level < pane.NumDetailLevels; level++ {
		detail := pane.AdviceDetail(d, m.chosen, m.width, level, st)
		if room = m.height - headH - 1 - 1 - (1 + pane.Height(detail)); room >= least {
			m.detail = detail
			break
		}
	}
	blank := 1
	if m.detail == "" {
		room = m.height - headH - 1 - 1
		if room < 1 {
			blank, room = 0, room+1
		}
	}
	room = max(room, 1)
	shown := len(rows)
	if shown > room {
		shown = max(room-1, 1) // a line says which show
	}
	m.offset = min(max(m.offset, m.chosen-shown+1), m.chosen, len(rows)-shown)
	m.offset = max(m.offset, 0)
	m.table.SetRows(nil)
	m.table.SetColumns(cols)
	m.table.SetWidth(min(pane.TableWidth(cols), m.width))
	m.table.SetHeight(shown + 1)
	m.table.SetRows(rows[m.offset : m.offset+shown])
	m.table.SetCursor(m.chosen - m.offset)
	parts := []string{m.head}
	if blank > 0 {
		parts = append(parts, "")
	}
	parts = append(parts, m.table.View())
	if shown < len(rows) && room > 1 {
		parts = append(parts, pane.ListHint("candidates", m.offset+1, m.offset+shown, len(rows), m.width, "↑/↓", st))
	}
	if m.detail != "" {
		parts = append(parts, "", m.detail)
	}
	m.frame = pane.Fit(strings.Join(parts, "\n"), m.width, m.height)
}

// formView is the open form, each field the cursor has left that does not
// read with why beside it, and under it what a search of its seeds would
// take, where there is room. Where the reasons make it taller than the
// pane, it shows the lines that end with the focused field's.
func (m *AdvicePane) formView() string {
	lines := strings.Split(m.fieldErrors(m.form.View()), "\n")
	for len(lines) > 1 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	if e := m.est; e != nil && e.valid {
		est := strings.Split(m.styles.Muted.Render(pane.Wrap(pane.AdviceEstimate(e.ask.seeds, e.work, e.secs, m.workers), min(m.width, pane.ProseWidth))), "\n")
		switch room := m.height - len(lines); {
		case room > len(est):
			lines = append(append(lines, ""), est...)
		case room == len(est):
			lines = append(lines, est...)
		}
	}
	if len(lines) > m.height {
		end := m.height
		for i, l := range lines {
			if strings.HasPrefix(ansi.Strip(l), "┃") {
				end = max(end, i+1)
			}
		}
		lines = lines[end-m.height : end]
	}
	return strings.Join(lines, "\n")
}

// View draws the pane.
func (m AdvicePane) View() string { return m.frame }

// adviceMessage takes the advice search's own messages.
func (m *root) adviceMessage(msg tea.Msg, cmd *tea.Cmd) bool {
	c, ok := m.advice.Message(msg)
	*cmd = c
	return ok
}

// useAdvice makes s, a candidate's settings, the plan's, with custom among
// the policies compared and chosen in panes 1, 3 and 4.
func (m *root) useAdvice(s backoff.Settings) tea.Cmd {
	p := m.plan
	p.Settings = s
	if p.Policies != "" && !slices.Contains(strings.Split(p.Policies, ","), "custom") {
		p.Policies += ",custom"
	}
	cmd := m.setPlan(p)
	for i, pol := range m.policies {
		if pol.Name == s.Custom().Name {
			m.policy = i
			m.client.SetChosen(i)
			m.timeline.SetChosen(i)
			m.jobs.SetPolicy(pol, s)
		}
	}
	return cmd
}

// copyCommand copies a candidate's command: to the clipboard with OSC 52
// where the terminal takes it, off the loop, and in the save box in any
// case, laid out to be selected from the screen (each line but the last
// ends in " \\"), until the next key. A terminal that takes OSC 52
// silently ignores what it cannot do, so the box says what was sent.
func (m *root) copyCommand(text string) tea.Cmd {
	parts := pane.CommandParts(text)
	if m.clipboard == nil {
		m.save.ShowCommand(pane.CopyByHand, parts)
		return nil
	}
	m.save.ShowCommand(pane.CopySent, parts)
	copy := m.clipboard
	return func() tea.Msg {
		_ = copy(text) // a terminal's write that fails shows in the frame after
		return nil
	}
}
