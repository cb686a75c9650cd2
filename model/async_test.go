package model

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// A million clients' crowds take a second and more: here a computation that
// blocks until it is stopped or released stands in for them, so that the
// tests see the program while a run is in flight, however fast the
// machine. Nothing is timed: the tests wait for frames and states.

const million = 1_000_000

// blocker is a Compute whose runs of a million clients block; any other
// runs as the core does.
type blocker struct {
	started chan struct{} // closed when a million clients' crowds start
	stopped chan struct{} // closed when such a run sees its stop
	release chan struct{} // closing it lets the run go on
	fake    atomic.Bool   // a released run returns made-up figures instead of running
	spreads atomic.Int64  // how many spreads of a million clients started
}

func newBlocker() *blocker {
	return &blocker{started: make(chan struct{}), stopped: make(chan struct{}), release: make(chan struct{})}
}

func (b *blocker) compute() Compute {
	core := CoreCompute()
	return Compute{
		Crowds: func(ps []backoff.Policy, s backoff.Settings, o backoff.Options) ([]backoff.Result, error) {
			if s.Clients != million {
				return core.Crowds(ps, s, o)
			}
			close(b.started)
			for {
				select {
				case <-b.release:
					return b.madeUp(ps, s), nil
				case <-time.After(time.Millisecond):
				}
				if o.Stop() {
					close(b.stopped)
					// As if it finished just as it was superseded: the
					// root must drop these, of a generation it no longer
					// wants.
					return b.madeUp(ps, s), nil
				}
			}
		},
		Spread: func(ps []backoff.Policy, s backoff.Settings, n int, o backoff.SeedOptions) (backoff.SeedsCrowd, error) {
			if s.Clients == million {
				b.spreads.Add(1)
				return backoff.SeedsCrowd{}, errors.New("not in this test")
			}
			return core.Spread(ps, s, n, o)
		},
	}
}

// madeUp are figures no real crowd gives: 7 retries each.
func (b *blocker) madeUp(ps []backoff.Policy, s backoff.Settings) []backoff.Result {
	out := make([]backoff.Result, len(ps))
	for i, p := range ps {
		out[i] = backoff.Result{Policy: p, Figures: backoff.Figures{Clients: s.Clients, Retries: 7}, Series: &backoff.Series{Slot: s.Slot}}
	}
	return out
}

// wait fails the test unless ch closes within the final timeout.
func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(finalTimeout):
		t.Fatalf("%s did not happen", what)
	}
}

func settingsWith(change func(*backoff.Settings)) SettingsAppliedMsg {
	s := backoff.Defaults()
	change(&s)
	return SettingsAppliedMsg{Settings: s}
}

// While a million clients' crowds are in flight every key is answered:
// the header says what is being computed, pane 1 follows the new settings
// at once (a schedule is no crowd), and panes 2 and 3 keep the last
// figures, marked as such.
func TestProgramAnswersKeysWhileAMillionRun(t *testing.T) {
	b := newBlocker()
	defer close(b.release)
	tm := startProgram(t, WithCompute(b.compute()), WithSeeds(0))
	sendKeys(tm, "2")
	waitFor(t, tm, "200 clients fail at 0 ms") // the first run has landed
	tm.Send(settingsWith(func(s *backoff.Settings) { s.Clients = million }))
	wait(t, b.started, "the million clients' run")
	waitFor(t, tm, "computing a crowd of 1,000,000 clients under 6 policies")
	sendKeys(tm, "1", "right", "down", "down")
	waitFor(t, tm, "Client 3 of 1,000,000")
	sendKeys(tm, "2")
	waitFor(t, tm, "Recomputing for the new settings; these are the last settings' figures.")
	sendKeys(tm, "3", "a", "4", "enter", "alpha:1", "enter")
	waitFor(t, tm, "✓ alpha: done on attempt 2")
	sendKeys(tm, "5")
	waitFor(t, tm, "Your own policy and the draws")
	m := finalApp(t, tm)
	if r := m.runs.cur; r.landed || r.plan.Settings.Clients != million {
		t.Errorf("the million clients' run: landed %v, clients %d; want in flight, 1,000,000", r.landed, r.plan.Settings.Clients)
	}
	if c := m.ClientPane(); c.Client() != 3 || c.Policy().Name != "full jitter" {
		t.Errorf("pane 1: client %d under %s, want 3 under full jitter", c.Client(), c.Policy().Name)
	}
	if got := m.CrowdPane().Crowds()[0].Figures.Clients; got != 200 {
		t.Errorf("pane 2 shows a crowd of %d clients, want the last one's 200 while the new one runs", got)
	}
	if !m.TimelinePane().All() || m.JobsPane().Report().Ledger.Attempts != 2 {
		t.Errorf("pane 3 all %v, pane 4 %d attempts; want all, 2", m.TimelinePane().All(), m.JobsPane().Report().Ledger.Attempts)
	}
}

// A change of settings while a million clients' run is in flight stops
// it, and whatever it sends afterwards is dropped: the panes show the new
// settings' crowds.
func TestProgramSupersedesAMillionRun(t *testing.T) {
	b := newBlocker()
	tm := startProgram(t, WithCompute(b.compute()), WithSeeds(0))
	sendKeys(tm, "2")
	waitFor(t, tm, "200 clients fail at 0 ms")
	tm.Send(settingsWith(func(s *backoff.Settings) { s.Clients = million }))
	wait(t, b.started, "the million clients' run")
	tm.Send(settingsWith(func(s *backoff.Settings) { s.Clients = 300 }))
	wait(t, b.stopped, "the million clients' run stopping")
	waitFor(t, tm, "300 clients fail at 0 ms")
	m := finalApp(t, tm)
	for _, c := range m.CrowdPane().Crowds() {
		if c.Figures.Clients != 300 || c.Figures.Retries == 7 {
			t.Fatalf("%s: %d clients, %d retries; want the 300 clients' run, not the superseded one's", c.Policy.Name, c.Figures.Clients, c.Figures.Retries)
		}
	}
	if got := b.spreads.Load(); got != 0 {
		t.Errorf("%d spreads of the superseded run started, want none", got)
	}
	if m.runs.cur.plan.Settings.Clients != 300 || !m.runs.cur.landed {
		t.Errorf("the plan's run: %d clients, landed %v; want 300, landed", m.runs.cur.plan.Settings.Clients, m.runs.cur.landed)
	}
}

// slowSpread is a Compute whose spread does half its seeds, then waits
// until it is stopped.
type slowSpread struct {
	half    chan struct{}
	stopped chan struct{}
	once    atomic.Bool
}

func (w *slowSpread) compute() Compute {
	core := CoreCompute()
	return Compute{
		Crowds: core.Crowds,
		Spread: func(ps []backoff.Policy, s backoff.Settings, n int, o backoff.SeedOptions) (backoff.SeedsCrowd, error) {
			if s.FirstWait != 1000 {
				return core.Spread(ps, s, n, o)
			}
			o.Done.Add(int64(n / 2))
			close(w.half)
			for !o.Stop() {
				time.Sleep(time.Millisecond)
			}
			close(w.stopped)
			return backoff.SeedsCrowd{}, backoff.ErrStopped
		},
	}
}

// The spread over seeds runs off the loop with its progress in the header,
// and a change of settings supersedes it.
func TestProgramShowsTheSpreadsProgress(t *testing.T) {
	w := &slowSpread{half: make(chan struct{}), stopped: make(chan struct{})}
	tm := startProgram(t, WithCompute(w.compute()))
	wait(t, w.half, "half the spread")
	waitFor(t, tm, pane.SpreadComputing(100, backoff.Independent)+": 50 of 100")
	sendKeys(tm, "2", "pgdown") // the crowd table, under the verdicts
	tm.Send(settingsWith(func(s *backoff.Settings) { s.FirstWait = 100 }))
	wait(t, w.stopped, "the spread stopping")
	waitFor(t, tm, "253/264") // full jitter's busiest slot over 100 seeds, at a first wait of 100 ms
	m := finalApp(t, tm)
	if r := m.runs.cur; r.spread == nil || r.spreading || r.plan.Settings.FirstWait != 100 {
		t.Errorf("the plan's spread: landed %v, spreading %v, first wait %d; want landed, 100", r.spread != nil, r.spreading, r.plan.Settings.FirstWait)
	}
}

// Pin the plan, change a setting: panes 2 and 3 show both plans and the
// changes, marked; x swaps them; P drops A.
func TestProgramComparesPlans(t *testing.T) {
	tm := startProgram(t, inline()...)
	sendKeys(tm, "2", "p")
	waitFor(t, tm, "This plan is pinned as A")
	tm.Send(settingsWith(func(s *backoff.Settings) { s.FirstWait = 100 }))
	waitFor(t, tm, "B differs in first wait 1 s → 100 ms.", "+200 ✗") // exponential: 800 retries, then 1,000
	sendKeys(tm, "3", "right")
	waitFor(t, tm, "B differs from A in first wait 1 s → 100 ms.")
	// x: the defaults are the plan again, first wait 100 ms is A.
	sendKeys(tm, "x")
	waitFor(t, tm, "B differs from A in first wait 100 ms → 1 s.")
	sendKeys(tm, "1")
	waitFor(t, tm, "2  152 ms   0 ms–1 s  152 ms") // pane 1 follows the plan: full jitter (chosen in pane 3) at the defaults
	sendKeys(tm, "P", "2")
	waitFor(t, tm, "36 of 200 clients (18%) never get through") // full jitter's verdict at the defaults, first in the crowd pane
	m := finalApp(t, tm)
	if m.runs.pinned != nil || m.CrowdPane().Data().A != nil {
		t.Error("after P: a plan is still pinned")
	}
	if m.Settings().FirstWait != 1000 {
		t.Errorf("after x and P: first wait %d, want 1000", m.Settings().FirstWait)
	}
	if got := m.CrowdPane().Crowds()[backoff.FullJitter].Figures.MostInASlot; got != 28 {
		t.Errorf("after P: full jitter's busiest slot %d, want 28, the plan's", got)
	}
}

// A change of the spread's seeds or draws alone runs the spread, not the
// crowds again.
func TestSpreadChangeKeepsTheCrowds(t *testing.T) {
	var crowds atomic.Int64
	core := CoreCompute()
	counting := Compute{
		Crowds: func(ps []backoff.Policy, s backoff.Settings, o backoff.Options) ([]backoff.Result, error) {
			crowds.Add(1)
			return core.Crowds(ps, s, o)
		},
		Spread: core.Spread,
	}
	m := newAppWith(t, 100, 30, WithInlineWork(1<<62), WithInlineSpread(), WithCompute(counting), WithSeeds(10))
	m = deliver(t, m, press("5", "enter")...)
	m = deliver(t, m, enters(slices.Index(formTitles(), "the spread's seeds"))...)
	m = deliver(t, m, press("backspace", "backspace", "20")...)
	m = deliver(t, m, enters(2)...)
	if got := m.Plan().Seeds; got != 20 {
		t.Fatalf("seeds: got %d, want 20", got)
	}
	if got := crowds.Load(); got != 1 {
		t.Errorf("the crowds ran %d times, want once: the second change was the spread's alone", got)
	}
	if sp := m.CrowdPane().Data().B.Spread; sp == nil || sp.Count != 20 {
		t.Errorf("the spread shown: %+v, want 20 seeds", sp)
	}
}
