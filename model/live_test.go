package model

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// slowToStop is a Compute whose runs of a million clients, crowds and
// spread alike, go on until they are stopped or have run for a while, and
// look at their stop only every 20 ms, as a core busy with a long step
// would: it counts the runs alive at once.
type slowToStop struct {
	live, peak, runs atomic.Int64
}

// alive counts a run in until the function it returns is called.
func (c *slowToStop) alive() func() {
	c.runs.Add(1)
	n := c.live.Add(1)
	for p := c.peak.Load(); n > p && !c.peak.CompareAndSwap(p, n); p = c.peak.Load() {
	}
	return func() { c.live.Add(-1) }
}

// busy runs for up to d, looking at stop every 20 ms; it reports whether
// it was stopped.
func busy(stop func() bool, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
		if stop() {
			return true
		}
	}
	return false
}

func (c *slowToStop) compute() Compute {
	core := CoreCompute()
	fake := &blocker{}
	return Compute{
		Crowds: func(ps []backoff.Policy, s backoff.Settings, o backoff.Options) ([]backoff.Result, error) {
			if s.Clients != million {
				return core.Crowds(ps, s, o)
			}
			defer c.alive()()
			if busy(o.Stop, 300*time.Millisecond) {
				return nil, backoff.ErrStopped
			}
			return fake.madeUp(ps, s), nil
		},
		Spread: func(ps []backoff.Policy, s backoff.Settings, n int, o backoff.SeedOptions) (backoff.SeedsCrowd, error) {
			if s.Clients != million {
				return core.Spread(ps, s, n, o)
			}
			defer c.alive()()
			if busy(o.Stop, 300*time.Millisecond) {
				return backoff.SeedsCrowd{}, backoff.ErrStopped
			}
			return backoff.SeedsCrowd{First: s.Seed, Count: n}, nil
		},
	}
}

// Issue 20.2: whatever the keys, at most two runs are alive at once (the
// plan's, or A's, and one that has been told to stop and has not yet
// seen it): a storm of d, p, x, P and changes of settings at a million
// clients never piles runs up, and once it is over the panes show the
// last plan's crowds and nothing is left running.
func TestAtMostTwoRunsAlive(t *testing.T) {
	c := &slowToStop{}
	tm := startProgram(t, WithCompute(c.compute()), WithSeeds(10))
	tm.Send(settingsWith(func(s *backoff.Settings) { s.Clients = million }))
	r := rand.New(rand.NewPCG(20, 2))
	for i := range 300 {
		switch k := r.IntN(10); {
		case k < 5:
			sendKeys(tm, "d")
		case k == 5:
			sendKeys(tm, "p")
		case k == 6:
			sendKeys(tm, "x")
		case k == 7:
			sendKeys(tm, "P")
		default:
			tm.Send(settingsWith(func(s *backoff.Settings) { s.Clients, s.Seed = million, i }))
		}
		if i%20 == 0 {
			time.Sleep(5 * time.Millisecond) // some keys at a person's pace, most in bursts
		}
	}
	deadline := time.Now().Add(3 * finalTimeout)
	for c.live.Load() > 0 || c.runs.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d runs still alive long after the keys", c.live.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'q'}})
	m := finalApp(t, tm)
	if got := c.peak.Load(); got > 2 {
		t.Errorf("at most %d runs were alive at once (of %d started), want at most 2", got, c.runs.Load())
	}
	if cur := m.runs.cur; cur.plan != m.plan || !cur.landed {
		t.Errorf("the plan's run: landed %v, its plan the plan's %v; want both", cur.landed, cur.plan == m.plan)
	}
	t.Logf("%d runs started, at most %d alive at once", c.runs.Load(), c.peak.Load())
}

// counted is c with its runs, crowds and spreads, counted as slowToStop
// counts its own.
func (c *slowToStop) counted(core Compute) Compute {
	return Compute{
		Crowds: func(ps []backoff.Policy, s backoff.Settings, o backoff.Options) ([]backoff.Result, error) {
			defer c.alive()()
			return core.Crowds(ps, s, o)
		},
		Spread: func(ps []backoff.Policy, s backoff.Settings, n int, o backoff.SeedOptions) (backoff.SeedsCrowd, error) {
			defer c.alive()()
			return core.Spread(ps, s, n, o)
		},
	}
}

// The same with the core itself, at settings whose crowds take a while
// (20,000 clients of 50 attempts, waits to an hour, a day's outage): d
// pressed in bursts never has more than two runs alive.
func TestAtMostTwoCoreRunsAlive(t *testing.T) {
	c := &slowToStop{}
	tm := startProgram(t, WithCompute(c.counted(CoreCompute())), WithSeeds(20))
	tm.Send(settingsWith(func(s *backoff.Settings) {
		s.Clients, s.Attempts, s.FirstWait, s.LongestWait, s.Outage = 20_000, 50, 1, 3_600_000, 86_400_000
	}))
	for range 8 {
		for range 5 {
			sendKeys(tm, "d")
		}
		time.Sleep(30 * time.Millisecond)
	}
	waitFor(t, tm, "20,000 clients fail at 0 ms")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'q'}})
	finalApp(t, tm)
	if got := c.peak.Load(); got > 2 {
		t.Errorf("at most %d core runs were alive at once (of %d started), want at most 2", got, c.runs.Load())
	}
	t.Logf("%d core runs started, at most %d alive at once", c.runs.Load(), c.peak.Load())
}

// Issue 20.3: a plan whose run would pass the memory ceiling is not run:
// pane 2 says why, and nothing is computed for it; a plan within it runs
// as ever.
func TestPastTheCeilingIsNotRun(t *testing.T) {
	var calls atomic.Int64
	core := CoreCompute()
	counted := Compute{
		Crowds: func(ps []backoff.Policy, s backoff.Settings, o backoff.Options) ([]backoff.Result, error) {
			calls.Add(1)
			return core.Crowds(ps, s, o)
		},
		Spread: func(ps []backoff.Policy, s backoff.Settings, n int, o backoff.SeedOptions) (backoff.SeedsCrowd, error) {
			calls.Add(1)
			return core.Spread(ps, s, n, o)
		},
	}
	const ceiling = 64 << 20
	say := func(need int64) string { return fmt.Sprintf("it would hold %d MB, past 64 MB", need>>20) }
	m := newAppWith(t, 100, 40, WithInlineWork(math.MaxInt64), WithInlineSpread(), WithCompute(counted), WithMemoryCeiling(ceiling, say))
	before := calls.Load()
	big := settingsWith(func(s *backoff.Settings) {
		s.Clients, s.Attempts, s.FirstWait, s.LongestWait, s.Outage = 300_000, 100, 1, 3_600_000, 86_400_000
	})
	m = send(t, m, big)
	if got := calls.Load() - before; got != 0 {
		t.Errorf("%d computations started for a plan past the ceiling, want none", got)
	}
	var past *PastCeilingError
	if err := m.runs.cur.crowdsErr; !errors.As(err, &past) || past.Need <= ceiling {
		t.Fatalf("the plan's run: error %v, want a *PastCeilingError of more than %d bytes", err, ceiling)
	}
	frame := strings.Join(strings.Fields(send(t, m, press("2")...).View()), " ")
	if want := "The crowd could not run: " + say(past.Need); !strings.Contains(frame, want) {
		t.Errorf("pane 2 does not say %q:\n%s", want, frame)
	}
	m = send(t, m, settingsWith(func(s *backoff.Settings) { s.Clients = 300 }))
	if r := m.runs.cur; r.crowdsErr != nil || len(r.crowds) == 0 || calls.Load() == before {
		t.Errorf("a plan within the ceiling: error %v, %d crowds; want it run", r.crowdsErr, len(r.crowds))
	}
}

// stuckFiles are CancelFiles whose writes wait until they are called off
// (a slow disk, a file that will not take the bytes): they write nothing.
type stuckFiles struct {
	started, ended chan struct{}
	written        atomic.Bool
}

func (f *stuckFiles) Write(name string, data []byte, overwrite bool) error {
	return f.WriteCancel(name, data, overwrite, func() bool { return false })
}

func (f *stuckFiles) WriteCancel(name string, data []byte, overwrite bool, cancelled func() bool) error {
	close(f.started)
	defer close(f.ended)
	for end := time.Now().Add(finalTimeout); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if cancelled() {
			return ErrSaveCancelled
		}
	}
	f.written.Store(true)
	return nil
}

// Issue 20.7: esc calls off a save on its way: the box says nothing was
// written, the write stops without writing, and s saves again.
func TestEscCancelsASave(t *testing.T) {
	f := &stuckFiles{started: make(chan struct{}), ended: make(chan struct{})}
	m := saving(t, f, 100, 30)
	next, cmd := m.Update(press("s")[0])
	m = next.(App)
	next, cmd = m.Update(press("enter")[0])
	m = next.(App)
	if !m.SaveBox().Writing() || cmd == nil {
		t.Fatalf("enter: writing %v, want the write on its way", m.SaveBox().Writing())
	}
	landed := make(chan tea.Msg, 1)
	go func() { landed <- cmd() }()
	wait(t, f.started, "the write")
	if frame := m.View(); !strings.Contains(frame, "(esc cancels)") {
		t.Errorf("while saving, the box does not say esc cancels:\n%s", frame)
	}
	m = send(t, m, press("esc")...)
	if m.SaveBox().Writing() || !strings.Contains(m.View(), "Cancelled: nothing was written to retry-plan.toml.") {
		t.Errorf("after esc: writing %v, frame\n%s\nwant the save called off, said", m.SaveBox().Writing(), m.View())
	}
	wait(t, f.ended, "the write ending")
	m = send(t, m, <-landed)
	if f.written.Load() || strings.Contains(m.View(), "Saved") {
		t.Errorf("the write called off: written %v, frame\n%s", f.written.Load(), m.View())
	}
	m = send(t, m, press("s")...)
	if !m.SaveBox().Captured() {
		t.Errorf("s after a save called off: the box does not open")
	}
}

// Issue 20.10: keys typed before the first window size are not lost: they
// wait for it and are taken, in order, once it comes.
func TestKeysBeforeTheFirstSize(t *testing.T) {
	m := NewApp(backoff.Defaults(), pane.DefaultStyles(), inline(WithSeeds(0))...)
	m = send(t, m, press("1", "down", "down")...)
	if m.Focus() != FocusCrowd {
		t.Fatalf("before any size: focus %v, want the keys kept for the size", m.Focus())
	}
	m = send(t, m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if m.Focus() != FocusClient || !strings.Contains(m.View(), "Client 3 of 200") { // down twice: client 3
		t.Errorf("after the size: focus %v, want pane 1, its keys taken:\n%s", m.Focus(), m.View())
	}
	many := NewApp(backoff.Defaults(), pane.DefaultStyles(), inline(WithSeeds(0))...)
	for range 2 * maxEarly {
		many = send(t, many, press("2")...)
	}
	if got := len(many.early); got != maxEarly {
		t.Errorf("%d keys kept before the size, want at most %d", got, maxEarly)
	}
}
