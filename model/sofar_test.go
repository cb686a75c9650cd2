package model

import (
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// Issue 19, item 9: pane 2 shows the spread of the seeds done so far as
// they land, a few times a second at most, off the update loop, until the
// whole spread lands or a change supersedes it.

// gatedSpread is the core's spread over seeds on one worker that waits,
// the n-th time it runs, once gates[n] seeds are done, until released or
// stopped; a run past the gates, or with none, runs through. stopped
// counts the runs that ended stopped.
type gatedSpread struct {
	gates   []int
	release chan struct{}
	calls   atomic.Int64
	stopped atomic.Int64
}

func (g *gatedSpread) compute() Compute {
	c := CoreCompute()
	c.Spread = func(ps []backoff.Policy, s backoff.Settings, seeds int, o backoff.SeedOptions) (backoff.SeedsCrowd, error) {
		n := int(g.calls.Add(1) - 1)
		gate := -1
		if n < len(g.gates) {
			gate = g.gates[n]
		}
		stop := o.Stop
		o.Workers = 1
		o.Stop = func() bool {
			if done, _ := o.SoFar.Done(); done == gate {
				for {
					if stop() {
						return true
					}
					select {
					case <-g.release:
						gate = -1
						return false
					case <-time.After(5 * time.Millisecond):
					}
				}
			}
			return stop()
		}
		sc, err := backoff.RunSeeds(ps, s, seeds, o)
		if errors.Is(err, backoff.ErrStopped) {
			g.stopped.Add(1)
		}
		return sc, err
	}
	return c
}

func startSpreading(t *testing.T, g *gatedSpread) *teatest.TestModel {
	t.Helper()
	app := NewApp(backoff.Defaults(), pane.DefaultStyles(), WithInlineWork(1<<62), WithSeeds(10), WithCompute(g.compute()))
	return teatest.NewTestModel(t, app, teatest.WithInitialTermSize(200, 150))
}

// A slow spread shows the seeds done so far, then the whole spread, which
// is RunSeeds of every seed exactly.
func TestProgramShowsTheSpreadSoFar(t *testing.T) {
	g := &gatedSpread{gates: []int{3}, release: make(chan struct{})}
	tm := startSpreading(t, g)
	waitFor(t, tm, "median/p95 over the 3 of 10 seeds done so far", "Peak after back over the 3 of 10 seeds done so far")
	close(g.release)
	waitFor(t, tm, "Peak after back over 10 seeds (independent draws)")
	m := finalApp(t, tm)
	d := m.CrowdPane().Data().B
	if d.Spread == nil || d.SpreadSoFar || d.Spread.Count != 10 {
		t.Fatalf("the spread shown at the end: %+v, so far %v; want the whole 10 seeds", d.Spread, d.SpreadSoFar)
	}
	s := backoff.Defaults()
	s.Draws = backoff.Independent
	want, err := backoff.RunSeeds(d.Policies, s, 10, backoff.SeedOptions{Workers: 2})
	if err != nil || !reflect.DeepEqual(*d.Spread, want) {
		t.Errorf("the whole spread differs from RunSeeds of 10 seeds (%v)", err)
	}
	if view := m.View(); strings.Contains(view, "so far") {
		t.Errorf("the whole spread still says so far:\n%s", view)
	}
}

// A change while the spread is under way stops it and drops what it had:
// the new plan's spread so far is shown, never the old one's.
func TestProgramSupersedesTheSpreadSoFar(t *testing.T) {
	g := &gatedSpread{gates: []int{3, 5}, release: make(chan struct{})}
	tm := startSpreading(t, g)
	waitFor(t, tm, "median/p95 over the 3 of 10 seeds done so far")
	sendKeys(tm, "d") // the crowd's draws: a new plan, and a new spread
	waitFor(t, tm, "median/p95 over the 5 of 10 seeds done so far")
	m := finalApp(t, tm)
	d := m.CrowdPane().Data().B
	if d.Settings.Draws != backoff.Independent || !d.SpreadSoFar || d.Spread == nil || d.Spread.Count != 5 {
		t.Errorf("after d: draws %v, so far %v, spread %+v; want independent draws and 5 seeds so far", d.Settings.Draws, d.SpreadSoFar, d.Spread)
	}
	deadline := time.Now().Add(finalTimeout)
	for g.stopped.Load() < 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g.stopped.Load() < 1 {
		t.Errorf("the first spread was not stopped")
	}
}

// The spread so far is asked for in a command that waits soFarEvery: at
// most a few a second, however fast the seeds land; it sums nothing when
// no seed has landed since the last, and a spread of no more seeds than
// the one shown is not taken.
func TestAskSoFarWaitsAndSumsOnlyWhatIsNew(t *testing.T) {
	if soFarEvery < 200*time.Millisecond {
		t.Fatalf("soFarEvery %v: more than five a second", soFarEvery)
	}
	s := backoff.Defaults()
	s.Draws = backoff.Independent
	ps := s.Five()
	r := &run{gen: 1, soFar: new(backoff.SeedsSoFar), spreading: true, plan: Plan{Settings: s, Seeds: 10}, policies: ps}
	ask := func(had int, every time.Duration) (soFarMsg, time.Duration) {
		start := time.Now()
		msg, _ := askSoFar(r, had, every)().(soFarMsg)
		return msg, time.Since(start)
	}
	if msg, took := ask(0, 30*time.Millisecond); msg.changed || took < 30*time.Millisecond || msg.gen != 1 {
		t.Errorf("no seed yet: %+v after %v; want unchanged, after 30 ms", msg, took)
	}
	stop := func() bool { done, _ := r.soFar.Done(); return done >= 4 }
	if _, err := backoff.RunSeeds(ps, s, 10, backoff.SeedOptions{Workers: 1, Stop: stop, SoFar: r.soFar}); !errors.Is(err, backoff.ErrStopped) {
		t.Fatal(err)
	}
	msg, _ := ask(0, time.Millisecond)
	want, _ := backoff.RunSeeds(ps, s, 4, backoff.SeedOptions{Workers: 1})
	if !msg.changed || !reflect.DeepEqual(msg.spread, want) || msg.every < soFarEvery {
		t.Errorf("4 seeds done: changed %v, %d seeds, every %v; want the spread of 4, every %v or more", msg.changed, msg.spread.Count, msg.every, soFarEvery)
	}
	if again, _ := ask(4, time.Millisecond); again.changed {
		t.Errorf("no seed since the 4 shown: summed again")
	}

	m := quick(t, 100, 30)
	m.runs.cur = r
	if cmd := m.takeSoFar(msg); cmd == nil || r.partial == nil || r.partial.Count != 4 {
		t.Fatalf("took %v, want the 4 seeds and the next ask", r.partial)
	}
	older := msg
	older.spread.Count = 3
	m.takeSoFar(older)
	if r.partial.Count != 4 {
		t.Errorf("a spread of 3 seeds after 4: shown %d, want 4 kept", r.partial.Count)
	}
	r.spreading = false
	if cmd := m.takeSoFar(msg); cmd != nil {
		t.Errorf("the whole spread landed: asked again")
	}
	m.runs.cur = nil
	r.spreading = true
	if cmd := m.takeSoFar(msg); cmd != nil {
		t.Errorf("a run no longer wanted: asked again")
	}
}
