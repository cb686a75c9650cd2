package model

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/words"
)

// One run per change of the plan feeds every pane. The root holds the plan
// and, for each plan it still wants, a run: the six policies' crowds with
// their series (backoff.RunAll), then their spread over seeds
// (backoff.RunSeeds). Both run off the update loop in a tea.Cmd unless the
// work is below Options.InlineWork; each run carries a generation number,
// and its messages are dropped once the root no longer wants it. A run is
// wanted while it is the current plan's or the pinned plan's; once neither,
// its stop flag is set, which the core polls, so it ends early. Panes 2 and
// 3 show the last run whose crowds landed, marked stale while a newer one
// is on its way; pane 1 draws one client's schedule from the plan at once,
// which is no crowd.

// Plan is everything the figures are computed from: the settings, the
// policies compared, and how the spread over seeds is drawn.
type Plan struct {
	Settings    backoff.Settings
	Policies    string        // the policies' names joined by commas (see PolicyNames); "" for the five and custom
	Seeds       int           // the spread's seeds: 0 for none, up to backoff.MaxSeeds
	SpreadDraws backoff.Draws // Independent unless the user chooses Reference
}

// DefaultSeeds is how many seeds the spread takes unless told.
const DefaultSeeds = 100

// DefaultPlan is s with the spread over DefaultSeeds seeds, independent
// draws.
func DefaultPlan(s backoff.Settings) Plan {
	return Plan{Settings: s, Seeds: DefaultSeeds, SpreadDraws: backoff.Independent}
}

// spreadSettings are the settings the spread runs: the plan's, with the
// spread's draws.
func (p Plan) spreadSettings() backoff.Settings {
	s := p.Settings
	s.Draws = p.SpreadDraws
	return s
}

// Compute is how the program runs the core: the crowds of policies under
// settings, and their spread over seeds. Tests put a slow or blocking one
// in its place (WithCompute).
type Compute struct {
	Crowds func(ps []backoff.Policy, s backoff.Settings, o backoff.Options) ([]backoff.Result, error)
	Spread func(ps []backoff.Policy, s backoff.Settings, seeds int, o backoff.SeedOptions) (backoff.SeedsCrowd, error)
	// Advise searches for the advice pane (advice.Run).
	Advise func(sr advice.Search, o advice.Options) (advice.Advice, error)
}

// CoreCompute runs the core on every core.
func CoreCompute() Compute {
	return Compute{
		Crowds: func(ps []backoff.Policy, s backoff.Settings, o backoff.Options) ([]backoff.Result, error) {
			return backoff.RunAll(ps, s, o, runtime.GOMAXPROCS(0))
		},
		Spread: func(ps []backoff.Policy, s backoff.Settings, seeds int, o backoff.SeedOptions) (backoff.SeedsCrowd, error) {
			if o.Workers <= 0 {
				o.Workers = runtime.GOMAXPROCS(0)
			}
			return backoff.RunSeeds(ps, s, seeds, o)
		},
		Advise: advice.Run,
	}
}

// run is one plan's computation. Only stopped and seedsDone are shared
// with the goroutines that compute it; the rest lives on the update loop.
type run struct {
	gen      int
	plan     Plan
	policies []backoff.Policy

	crowds    []backoff.Result
	crowdsErr error
	landed    bool // the crowds have landed (or failed)

	spread    *backoff.SeedsCrowd
	spreadErr error
	spreading bool                // the spread is on its way
	partial   *backoff.SeedsCrowd // while it is: the spread of the seeds done so far, once some are

	// The service's remedies, where no policy is good for the service
	// (words.Choice): named until they have run, on the first ranked
	// policy, off the loop.
	remedies  []words.Remedy
	remedying bool // the remedies are on their way

	stopped   atomic.Bool         // set once no one wants the run; the core polls it
	seedsDone atomic.Int64        // seeds of the spread done, for the progress bar
	soFar     *backoff.SeedsSoFar // the seeds as they land, asked for the spread so far off the loop
}

// work estimates what the run's crowds cost: attempts at most, over every
// policy, each with its own attempts. A queue adds the milliseconds the engine visits while requests
// wait: each attempt that joins keeps the queue busy for 1000/C ms at most
// (C the capacity a second), so a small crowd against a slow service, a
// thousand clients at 1 a second, is no work for the update loop.
func (r *run) work() int64 {
	s := r.plan.Settings
	clients := int64(s.Clients + s.FreshRequests())
	var work int64
	for _, p := range r.policies { // each its own attempts: a preset's may be many
		attempts := clients * int64(p.Attempts)
		work += attempts
		if s.HasQueue() && s.Capacity > 0 {
			work += min(attempts, math.MaxInt64/1000) * 1000 / int64(s.Capacity)
		}
		work = min(work, math.MaxInt64/2)
	}
	return work
}

// data is the run as panes 2 and 3 show it.
func (r *run) data() pane.RunData {
	if r == nil {
		return pane.RunData{}
	}
	d := pane.RunData{Settings: r.plan.Settings, Policies: r.policies, Crowds: r.crowds, Err: r.crowdsErr,
		Seeds: r.plan.Seeds, SpreadDraws: r.plan.SpreadDraws, Spread: r.spread, SpreadErr: r.spreadErr, Remedies: r.remedies, Trying: r.remedying}
	if r.spread == nil && r.spreadErr == nil && r.partial != nil {
		d.Spread, d.SpreadSoFar = r.partial, true
	}
	return d
}

// The messages of the computations.
type (
	crowdsMsg struct {
		gen    int
		crowds []backoff.Result
		err    error
		big    bool // the run was big: see freeAfter
	}
	spreadMsg struct {
		gen    int
		spread backoff.SeedsCrowd
		err    error
		big    bool
	}
	progressMsg struct{} // time to draw the spread's progress again
	// soFarMsg is the spread of the seeds done so far of run gen, asked
	// for off the loop; changed is false when no seed had landed since
	// the last, and every is when to ask again.
	soFarMsg struct {
		gen     int
		spread  backoff.SeedsCrowd
		changed bool
		every   time.Duration
	}
	// remediesMsg is run gen's remedies with their figures.
	remediesMsg struct {
		gen      int
		remedies []words.Remedy
		err      error
	}
)

// progressEvery is how often the spread's progress is drawn.
const progressEvery = 100 * time.Millisecond

// soFarEvery is how often, at most, pane 2 takes the spread of the seeds
// done so far: a few times a second however fast the seeds land, and
// less often when summing them up takes long (four times as long as it
// takes), so that the summing costs a fifth of a core at most.
const soFarEvery = 250 * time.Millisecond

// freeAfter is the work of a run (see run.work) past which its end, landed
// or stopped, gives the memory no one holds any more back to the system:
// the run it replaced, or its own. Go's collector would keep it for
// minutes, so that RSS after a storm of changes would stay at its peak.
const freeAfter = 1 << 24

// free gives the memory no one holds back to the system, off the loop;
// one at a time, as one does for all.
func (rs *runs) free() tea.Cmd {
	if !rs.freeing.CompareAndSwap(false, true) {
		return nil
	}
	freeing := rs.freeing
	return func() tea.Msg {
		debug.FreeOSMemory()
		freeing.Store(false)
		return nil
	}
}

// maxAlive is the most computations alive off the update loop at once:
// the plan's or A's, and one told to stop that has not yet seen it. A
// computation waits for its place before it starts, and gives it back
// once its core returns, so that a storm of changes never has more than
// two runs' memory in use, however slow a superseded run is to stop.
const maxAlive = 2

// gate holds the places of the computations alive off the update loop.
type gate chan struct{}

// enter waits for a place, and takes it unless r was told to stop while it
// waited: a run superseded before its turn computes nothing.
func (g gate) enter(r *run) bool {
	g <- struct{}{}
	if r.stopped.Load() {
		<-g
		return false
	}
	return true
}

// leave gives a place back.
func (g gate) leave() { <-g }

// runs is the root's computations: the current plan's, the one panes 2 and
// 3 show, and the pinned one (A).
type runs struct {
	compute      Compute
	inline       int64 // the most work run inside Update
	inlineSpread bool  // the spread too runs inside Update (tests)
	gen          int
	cur          *run         // the plan's
	shown        *run         // the last whose crowds landed
	pinned       *run         // A, or nil
	gate         gate         // the computations off the loop, at most maxAlive at once
	freeing      *atomic.Bool // memory is being given back (free)
	maxMemory    int64        // see Options.MaxMemory
	refusal      func(need int64) string
	spin         spinner.Model
	spinning     bool // a spinner tick is on its way
	polling      bool // a progress tick is on its way
	bar          progress.Model
}

func newRuns(o Options, st *pane.Styles) runs {
	bar := progress.New(progress.WithoutPercentage(), progress.WithWidth(16), progress.WithSolidFill("5"),
		progress.WithColorProfile(lipgloss.ColorProfile()))
	return runs{compute: o.Compute, inline: o.InlineWork, inlineSpread: o.InlineSpread, gate: make(gate, maxAlive), freeing: new(atomic.Bool),
		maxMemory: o.MaxMemory, refusal: o.Refusal,
		spin: spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(st.Title)), bar: bar}
}

// wanted reports whether r is still wanted: the plan's or the pinned one.
func (rs *runs) wanted(r *run) bool { return r != nil && (r == rs.cur || r == rs.pinned) }

// find is the wanted run of generation gen.
func (rs *runs) find(gen int) *run {
	for _, r := range []*run{rs.cur, rs.pinned} {
		if r != nil && r.gen == gen {
			return r
		}
	}
	return nil
}

// release stops r once nothing wants it.
func (rs *runs) release(r *run) {
	if r != nil && !rs.wanted(r) {
		r.stopped.Store(true)
	}
}

// comparing is the pinned run when panes 2 and 3 compare it with the one
// they show.
func (rs *runs) comparing() *run {
	if rs.pinned == nil || rs.pinned == rs.shown || rs.shown == nil {
		return nil
	}
	return rs.pinned
}

// setPlan makes p the plan: every pane that follows the plan at once takes
// it, and one run starts for it, unless the plan is the current one or the
// pinned one, whose run is there already.
func (m *root) setPlan(p Plan) tea.Cmd {
	rs := &m.runs
	if rs.cur != nil && rs.cur.plan == p {
		return nil
	}
	m.plan = p
	m.planChanged()
	old := rs.cur
	if pin := rs.pinned; pin != nil && pin.plan == p {
		rs.cur = pin
		rs.release(old)
		if pin.landed {
			rs.shown = pin
		}
		m.showRuns()
		return nil
	}
	rs.gen++
	r := &run{gen: rs.gen, plan: p, policies: policiesOf(p)}
	rs.cur = r
	rs.release(old)
	if err := rs.tooBig(r); err != nil {
		m.showRuns()
		return m.landCrowds(r, nil, err)
	}
	// A change of the spread alone keeps the crowds: only the spread runs.
	if old != nil && old.landed && old.crowdsErr == nil && old.plan.Settings == p.Settings && old.plan.Policies == p.Policies {
		r.policies = old.policies
		return m.landCrowds(r, old.crowds, nil)
	}
	m.showRuns()
	return m.startCrowds(r)
}

// PastCeilingError is a plan whose run would hold more memory than the
// program may use: it is not run.
type PastCeilingError struct {
	Need int64  // the bytes the run would hold, by its estimate
	Text string // why, and what allows it
}

func (e *PastCeilingError) Error() string { return e.Text }

// cost is what r's run holds at most: its crowds with their series, kept
// while their spread over seeds runs.
func (r *run) cost() backoff.Cost {
	workers := runtime.GOMAXPROCS(0)
	c := backoff.RunAllCost(r.policies, r.plan.Settings, backoff.Options{Series: true}, workers)
	if r.plan.Seeds > 0 {
		c = c.Plus(backoff.RunSeedsCost(r.policies, r.plan.spreadSettings(), r.plan.Seeds, backoff.SeedOptions{Workers: workers}))
	}
	return c
}

// tooBig is a *PastCeilingError when r's run would pass the memory
// ceiling, else nil.
func (rs *runs) tooBig(r *run) error {
	if rs.maxMemory <= 0 {
		return nil
	}
	need := r.cost().Bytes
	if need <= rs.maxMemory {
		return nil
	}
	text := fmt.Sprintf("it would hold about %d MB of memory, past the program's ceiling of %d MB", need>>20, rs.maxMemory>>20)
	if rs.refusal != nil {
		text = rs.refusal(need)
	}
	return &PastCeilingError{Need: need, Text: text}
}

// startCrowds runs r's crowds: inside Update when the work is small, else
// in a command, with the spinner going.
func (m *root) startCrowds(r *run) tea.Cmd {
	crowds, ps, s := m.runs.compute.Crowds, r.policies, r.plan.Settings
	opts := backoff.Options{Series: true, Stop: r.stopped.Load}
	if r.work() <= m.runs.inline {
		res, err := crowds(ps, s, opts)
		return m.landCrowds(r, res, err)
	}
	gen, g, big := r.gen, m.runs.gate, r.work() >= freeAfter
	run := func() tea.Msg {
		if !g.enter(r) {
			return crowdsMsg{gen: gen, err: backoff.ErrStopped}
		}
		defer g.leave()
		res, err := crowds(ps, s, opts)
		return crowdsMsg{gen: gen, crowds: res, err: err, big: big}
	}
	return tea.Batch(run, m.spin())
}

// landCrowds takes r's crowds: the panes show them when r is the plan's,
// and its spread starts.
func (m *root) landCrowds(r *run, crowds []backoff.Result, err error) tea.Cmd {
	r.crowds, r.crowdsErr, r.landed = crowds, err, true
	if err != nil {
		r.crowds = nil
	}
	if r == m.runs.cur {
		m.runs.shown = r
	}
	remedies := m.startRemedies(r)
	m.showRuns()
	return tea.Batch(m.startSpread(r), remedies)
}

// startRemedies runs the service's remedies on r's first ranked policy
// where no policy of r is good for the service, and they cost little
// (RemediesToRun): off the loop unless the run was small enough to run
// inside Update; until they land pane 2 names them, being tried. The
// caller shows the runs after.
func (m *root) startRemedies(r *run) tea.Cmd {
	if r.crowdsErr != nil {
		return nil
	}
	workers := runtime.GOMAXPROCS(0)
	first, settings, remedies, runIt := RemediesToRun(r.policies, r.plan.Settings, r.crowds, workers)
	r.remedies = remedies
	if !runIt {
		return nil
	}
	crowds := m.runs.compute.Crowds
	opts := backoff.Options{Stop: r.stopped.Load}
	runOne := func(ps []backoff.Policy, s backoff.Settings) ([]backoff.Result, error) { return crowds(ps, s, opts) }
	// Inside Update only if the remedies' runs together are as small as a
	// run that would run there.
	var work int64
	for _, rs := range settings {
		work += (&run{plan: Plan{Settings: rs}, policies: []backoff.Policy{first}}).work()
	}
	if work <= m.runs.inline {
		if ran, err := RunRemedies(runOne, first, settings, remedies); err == nil {
			r.remedies = ran
		}
		return nil
	}
	gen, g := r.gen, m.runs.gate
	r.remedying = true
	return func() tea.Msg {
		if !g.enter(r) {
			return remediesMsg{gen: gen, err: backoff.ErrStopped}
		}
		defer g.leave()
		ran, err := RunRemedies(runOne, first, settings, remedies)
		return remediesMsg{gen: gen, remedies: ran, err: err}
	}
}

// startSpread runs r's spread over seeds, off the loop, with its progress
// polled; none for a plan of no seeds or a run that failed.
func (m *root) startSpread(r *run) tea.Cmd {
	if r.plan.Seeds <= 0 || r.crowdsErr != nil {
		return nil
	}
	spread, ps, s, n := m.runs.compute.Spread, r.policies, r.plan.spreadSettings(), r.plan.Seeds
	r.soFar = new(backoff.SeedsSoFar)
	opts := backoff.SeedOptions{Stop: r.stopped.Load, Done: &r.seedsDone, SoFar: r.soFar}
	r.spreading = true
	if m.runs.inlineSpread {
		sc, err := spread(ps, s, n, opts)
		m.landSpread(r, sc, err)
		return nil
	}
	gen, g, big := r.gen, m.runs.gate, r.work() >= freeAfter
	run := func() tea.Msg {
		if !g.enter(r) {
			return spreadMsg{gen: gen, err: backoff.ErrStopped}
		}
		defer g.leave()
		sc, err := spread(ps, s, n, opts)
		return spreadMsg{gen: gen, spread: sc, err: err, big: big}
	}
	return tea.Batch(run, m.poll(), askSoFar(r, 0, soFarEvery))
}

// askSoFar asks, after every, for run r's spread of the seeds done so
// far, in a command: summing up the seeds sorts each figure of each, which
// is not for the update loop. had is how many seeds the spread shown
// holds: with no more landed, nothing is summed.
func askSoFar(r *run, had int, every time.Duration) tea.Cmd {
	gen, soFar := r.gen, r.soFar
	return tea.Tick(every, func(time.Time) tea.Msg {
		if done, _ := soFar.Done(); done <= had {
			return soFarMsg{gen: gen, every: soFarEvery}
		}
		start := time.Now()
		sc, ok := soFar.Spread()
		return soFarMsg{gen: gen, spread: sc, changed: ok, every: max(soFarEvery, 4*time.Since(start))}
	})
}

// takeSoFar shows the spread of the seeds done so far of the run it is
// from, while that run is wanted and its spread on its way, and asks for
// the next.
func (m *root) takeSoFar(msg soFarMsg) tea.Cmd {
	r := m.runs.find(msg.gen)
	if r == nil || !r.spreading {
		return nil // superseded, or the whole spread has landed
	}
	had := 0
	if r.partial != nil {
		had = r.partial.Count
	}
	if msg.changed && msg.spread.Count > had && msg.spread.Count < r.plan.Seeds {
		r.partial = &msg.spread
		had = msg.spread.Count
		m.showRuns()
	}
	return askSoFar(r, had, msg.every)
}

func (m *root) landSpread(r *run, sc backoff.SeedsCrowd, err error) {
	r.spreading, r.partial = false, nil
	if err != nil {
		r.spreadErr = err
	} else {
		r.spread = &sc
	}
	m.showRuns()
}

// spin starts the spinner unless it is going.
func (m *root) spin() tea.Cmd {
	if m.runs.spinning {
		return nil
	}
	m.runs.spinning = true
	return m.runs.spin.Tick
}

// poll asks for the spread's progress to be drawn again soon, unless it
// has been asked already.
func (m *root) poll() tea.Cmd {
	if m.runs.polling {
		return nil
	}
	m.runs.polling = true
	return tea.Tick(progressEvery, func(time.Time) tea.Msg { return progressMsg{} })
}

// computing reports whether some wanted run's crowds, or spread, are on
// their way.
func (m *root) computing() (crowds, spread bool) {
	for _, r := range []*run{m.runs.cur, m.runs.pinned} {
		if r != nil {
			crowds = crowds || !r.landed
			spread = spread || r.spreading
		}
	}
	return crowds, spread
}

// computation takes the computations' own messages, wherever the keys are:
// results (dropped when their run is no longer wanted), the spinner's
// ticks and the progress ticks.
func (m *root) computation(msg tea.Msg, cmd *tea.Cmd) bool {
	switch msg := msg.(type) {
	case crowdsMsg:
		if r := m.runs.find(msg.gen); r != nil && !r.landed && !errors.Is(msg.err, backoff.ErrStopped) {
			*cmd = m.landCrowds(r, msg.crowds, msg.err)
		}
		if msg.big {
			*cmd = tea.Batch(*cmd, m.runs.free())
		}
	case spreadMsg:
		if r := m.runs.find(msg.gen); r != nil && r.spreading && !errors.Is(msg.err, backoff.ErrStopped) {
			m.landSpread(r, msg.spread, msg.err)
		}
		if msg.big {
			*cmd = tea.Batch(*cmd, m.runs.free())
		}
	case soFarMsg:
		*cmd = m.takeSoFar(msg)
	case remediesMsg:
		if r := m.runs.find(msg.gen); r != nil && r.remedying {
			r.remedying = false
			if msg.err == nil {
				r.remedies = msg.remedies
			}
			m.showRuns()
		}
	case progressMsg:
		m.runs.polling = false
		if _, spread := m.computing(); spread {
			*cmd = m.poll()
		}
	case spinner.TickMsg:
		m.runs.spinning = false
		if crowds, _ := m.computing(); crowds {
			m.runs.spinning = true
			m.runs.spin, *cmd = m.runs.spin.Update(msg)
		}
	default:
		return false
	}
	return true
}

// status is what the header says is being computed: the spinner and the
// crowd, or the spread's progress; "" when nothing is.
func (m *root) status() string {
	rs := &m.runs
	for _, r := range []*run{rs.cur, rs.pinned} {
		if r != nil && !r.landed {
			return rs.spin.View() + " computing " + pane.Computing(r.plan.Settings, len(r.policies)) + "…"
		}
	}
	for i, r := range []*run{rs.cur, rs.pinned} {
		if r == nil || !r.spreading {
			continue
		}
		done := r.seedsDone.Load()
		label := pane.SpreadComputing(r.plan.Seeds, r.plan.SpreadDraws)
		if i == 1 {
			label = "A: " + label
		}
		pct := math.Min(float64(done)/float64(max(r.plan.Seeds, 1)), 1)
		return rs.bar.ViewAs(pct) + " " + label + ": " + words.Count(int(done)) + " of " + words.Count(r.plan.Seeds)
	}
	return ""
}

// pin pins the plan's run as A.
func (m *root) pin() {
	m.runs.pinned = m.runs.cur
	m.showRuns()
}

// swap makes A the plan and the plan A; its results are there already, or
// on their way.
func (m *root) swap() {
	rs := &m.runs
	a, b := rs.pinned, rs.cur
	if a == nil || a == b {
		return
	}
	rs.pinned, rs.cur = b, a
	m.plan = a.plan
	m.planChanged()
	if a.landed {
		rs.shown = a
	}
	m.showRuns()
}

// drop unpins A.
func (m *root) drop() {
	a := m.runs.pinned
	m.runs.pinned = nil
	m.runs.release(a)
	m.showRuns()
}

// showRuns gives panes 2 and 3 the run to show and, when comparing, A.
func (m *root) showRuns() {
	rs := &m.runs
	var a *pane.RunData
	if r := rs.comparing(); r != nil {
		d := r.data()
		a = &d
	}
	b := rs.shown
	if b == nil {
		b = rs.cur
	}
	stale := rs.shown != nil && rs.shown != rs.cur
	pinned := rs.pinned != nil && rs.pinned == b
	m.crowd.SetRuns(b.data(), a, stale, pinned)
	m.timeline.SetRuns(b.data(), a, stale, pinned)
}
