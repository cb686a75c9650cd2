package model

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// A service that queues in the full-screen program (issue 15): the form's
// page of the service takes it, a run with a queue is weighed by the
// milliseconds its queue keeps the engine busy, and a million clients'
// queue stays off the update loop.

// millionQueue is the speed case: a million clients, an outage of
// 30 s, 8 attempts, 20,000 a second served from a queue of 20,000 with a
// timeout of 2 s, under 15,000 fresh requests a second for 3 minutes.
func millionQueue(s *backoff.Settings) {
	s.Clients, s.Outage, s.Attempts, s.Capacity, s.Load, s.LoadUntil = million, 30000, 8, 20000, 15000, 180000
	s.Queue, s.Timeout = 20000, 2000
}

// The work a run is weighed by, worked by hand: 1,000 clients of 8
// attempts are 8,000 attempts, 48,000 over six policies, which runs inside
// Update; a queue served at 1 a second keeps the engine busy up to 1,000 ms
// an attempt, 8,000,000 ms a policy, which does not. At the most capacity
// the queue adds nothing (8,000 x 1,000 / 10^8 rounds down to 0).
func TestRunWorkWithAQueue(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Attempts = 1000, 8
	work := func(s backoff.Settings) int64 {
		p := DefaultPlan(s)
		r := &run{plan: p, policies: policiesOf(p)}
		return r.work()
	}
	if got := work(s); got != 48_000 || got > DefaultInlineWork {
		t.Errorf("no queue: work %d, want 48,000, inside Update", got)
	}
	s.Capacity = 1
	if got := work(s); got != 48_000 {
		t.Errorf("a capacity, no queue: work %d, want 48,000", got)
	}
	s.Queue = 1
	if got := work(s); got != 48_000+6*8_000_000 || got <= DefaultInlineWork {
		t.Errorf("a queue at 1 a second: work %d, want %d, off the update loop", got, 48_000+6*8_000_000)
	}
	s.Capacity = backoff.MaxCapacity
	if got := work(s); got != 48_000 {
		t.Errorf("a queue at %d a second: work %d, want 48,000", backoff.MaxCapacity, got)
	}
	// Each policy with its own attempts (issue 19, item 2): cenkalti as your
	// own policy tries 100 times, so 1,000 clients are 5 x 8,000 + 100,000.
	cenkalti, _ := backoff.FindPreset("cenkalti")
	own := backoff.Defaults()
	own.Clients, own.Attempts = 1000, 8
	if got := work(own.WithPreset(cenkalti)); got != 140_000 {
		t.Errorf("the five of 8 attempts and cenkalti's 100: work %d, want 140,000", got)
	}
	// The largest run the settings allow does not overflow.
	s.Clients, s.Attempts, s.Capacity, s.Load, s.LoadUntil = backoff.MaxClients, backoff.MaxAttempts, 1, 100_000, 100_000
	if got := work(s); got <= 0 {
		t.Errorf("the largest queue: work %d, want it positive", got)
	}
}

// queueBlocker is a Compute whose crowds of a million clients with a queue
// block until they are stopped or released; any other runs as the core
// does. Released, it runs the core itself.
type queueBlocker struct {
	started chan struct{} // closed when the million clients' queue starts
	stopped chan struct{} // closed when it sees its stop
	release chan struct{}
	landed  atomic.Int64 // crowds of a million clients that came back
}

func newQueueBlocker() *queueBlocker {
	return &queueBlocker{started: make(chan struct{}), stopped: make(chan struct{}), release: make(chan struct{})}
}

func (b *queueBlocker) compute() Compute {
	core := CoreCompute()
	return Compute{
		Crowds: func(ps []backoff.Policy, s backoff.Settings, o backoff.Options) ([]backoff.Result, error) {
			if s.Clients != million || !s.HasQueue() {
				return core.Crowds(ps, s, o)
			}
			close(b.started)
			for {
				select {
				case <-b.release:
					b.landed.Add(1)
					return core.Crowds(ps, s, o)
				case <-time.After(time.Millisecond):
				}
				if o.Stop() {
					close(b.stopped)
					return nil, backoff.ErrStopped
				}
			}
		},
		Spread: func(ps []backoff.Policy, s backoff.Settings, n int, o backoff.SeedOptions) (backoff.SeedsCrowd, error) {
			if s.Clients == million {
				return backoff.SeedsCrowd{}, errors.New("not in this test")
			}
			return core.Spread(ps, s, n, o)
		},
	}
}

// While a million clients' queue is computed (at the program's own inline
// work, not a test's), every key is answered and the header says what is
// computed; a change of settings stops it, and the panes show the new
// settings' queue.
func TestProgramAnswersKeysWhileAMillionQueueRuns(t *testing.T) {
	b := newQueueBlocker()
	defer close(b.release)
	tm := startProgram(t, WithCompute(b.compute()), WithSeeds(0))
	sendKeys(tm, "2")
	waitFor(t, tm, "Will the service survive the retries?")
	tm.Send(settingsWith(millionQueue))
	wait(t, b.started, "the million clients' queue")
	waitFor(t, tm, "computing a crowd of 1,000,000 clients and 2,700,000 fresh requests under 6 policies, against a") // the header cuts it
	sendKeys(tm, "1", "down")
	waitFor(t, tm, "Client 2 of 1,000,000")
	sendKeys(tm, "2")
	waitFor(t, tm, "Recomputing for the new settings; these are the last settings' figures.")
	sendKeys(tm, "5")
	waitFor(t, tm, "queue order")
	// A change supersedes it: a queue of 100 before 200 clients.
	tm.Send(settingsWith(func(s *backoff.Settings) {
		s.Attempts, s.Capacity, s.Load, s.Queue, s.Timeout = 4, 20, 19, 100, 1000
	}))
	wait(t, b.stopped, "the million clients' queue stopping")
	sendKeys(tm, "2", "pgdown") // the service's sentence is under the verdicts
	waitFor(t, tm, "from a queue")
	m := finalApp(t, tm)
	if r := m.runs.cur; !r.landed || r.plan.Settings.Clients != 200 || r.plan.Settings.Queue != 100 {
		t.Errorf("the plan's run: landed %v, %d clients, a queue of %d; want landed, 200, 100", r.landed, r.plan.Settings.Clients, r.plan.Settings.Queue)
	}
	for _, c := range m.CrowdPane().Crowds() {
		if c.Figures.Clients == million || c.Figures.QueuePeak == 0 {
			t.Fatalf("%s: %d clients, queue peak %d; want the small queue's run", c.Policy.Name, c.Figures.Clients, c.Figures.QueuePeak)
		}
	}
	if got := b.landed.Load(); got != 0 {
		t.Errorf("%d million clients' runs came back, want none", got)
	}
}

// The core itself, a million clients' queue on its way, stops when a change
// supersedes it: the run asks whether to stop as it goes, and once the root
// says so it returns ErrStopped, whose results no pane shows.
func TestProgramStopsAMillionQueueInTheCore(t *testing.T) {
	core := CoreCompute()
	asked, returned := make(chan struct{}), make(chan error, 1)
	var calls atomic.Int64
	c := Compute{
		Crowds: func(ps []backoff.Policy, s backoff.Settings, o backoff.Options) ([]backoff.Result, error) {
			if s.Clients != million {
				return core.Crowds(ps, s, o)
			}
			stop := o.Stop
			o.Stop = func() bool {
				// RunAll asks once before each policy it starts; past
				// twice as many asks, an engine is running a queue.
				if calls.Add(1) == int64(2*len(ps)+1) {
					// Let the test change the settings, and wait until
					// the root stops this run.
					close(asked)
					for deadline := time.Now().Add(finalTimeout); !stop() && time.Now().Before(deadline); {
						time.Sleep(time.Millisecond)
					}
				}
				return stop()
			}
			rs, err := core.Crowds(ps, s, o)
			returned <- err
			return rs, err
		},
		Spread: core.Spread,
	}
	tm := startProgram(t, WithCompute(c), WithSeeds(0))
	sendKeys(tm, "2")
	waitFor(t, tm, "Will the service survive the retries?")
	tm.Send(settingsWith(millionQueue))
	wait(t, asked, "the core asking whether to stop")
	tm.Send(settingsWith(func(s *backoff.Settings) { s.Clients = 300 }))
	select {
	case err := <-returned:
		if !errors.Is(err, backoff.ErrStopped) {
			t.Errorf("the million clients' queue returned %v, want ErrStopped", err)
		}
	case <-time.After(finalTimeout):
		t.Fatal("the million clients' queue did not stop")
	}
	waitFor(t, tm, "300 clients fail at 0 ms")
	m := finalApp(t, tm)
	if got := m.CrowdPane().Crowds()[0].Figures.Clients; got != 300 {
		t.Errorf("pane 2 shows %d clients, want 300", got)
	}
}

// thirdPage is how many fields the form's third page has: the form's
// fields less the first page's seven and the second's twelve (the
// service's five, the queue's two and its two selects, the guards' three).
var thirdPage = formFields - 7 - 12

// openServicePage opens the form at the defaults and moves to the first
// field of its second page, the capacity.
func openServicePage(t *testing.T) App {
	t.Helper()
	m := deliver(t, quick(t, 120, 40), press("5", "enter")...)
	m = deliver(t, m, enters(7)...)
	if f := m.SettingsPane().form.GetFocusedField(); f == nil || f.GetKey() != pane.FieldName(backoff.Capacity) {
		t.Fatalf("the focused field is %v, want the capacity", f)
	}
	return m
}

// focused is the key of the form's focused field.
func focused(m App) string {
	if f := m.SettingsPane().form.GetFocusedField(); f != nil {
		return f.GetKey()
	}
	return ""
}

// The service's page takes the queue: a capacity, then a queue, a timeout,
// the order and drop-expired, applied with the rest of the form, and said
// in the note.
func TestFormTakesTheQueue(t *testing.T) {
	m := openServicePage(t)
	m = deliver(t, m, press("backspace", "100")...)
	m = deliver(t, m, enters(5)...) // load, load until, budget, processes, queue
	if got := focused(m); got != pane.FieldName(backoff.Queue) {
		t.Fatalf("the focused field is %q, want the queue", got)
	}
	m = deliver(t, m, press("backspace", "1000", "enter", "backspace", "1.5s", "enter")...)
	if got := focused(m); got != queueOrderKey {
		t.Fatalf("the focused field is %q, want the queue's order", got)
	}
	m = deliver(t, m, press("right", "enter", "right", "enter")...) // lifo; dropped unworked
	m = deliver(t, m, enters(3+thirdPage)...)                       // the guards, the third page, and apply
	if m.SettingsPane().Editing() {
		t.Fatalf("the form is still open: %q", m.SettingsPane().finalErr)
	}
	s := m.Settings()
	if s.Capacity != 100 || s.Queue != 1000 || s.Timeout != 1500 || s.QueueOrder != backoff.LIFO || !s.DropExpired {
		t.Errorf("applied %+v, want capacity 100, queue 1000, timeout 1500 ms, lifo, drop expired", s)
	}
	want := "Applied: capacity a second 0 → 100, queue none → 1,000, timeout none → 1.5 s, queue order fifo → lifo, drop expired no → yes."
	if got := m.SettingsPane().Note(); got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	// The form opens again with them, and pane 2 runs the queue.
	if got := m.CrowdPane().Crowds()[backoff.Exponential].Figures; got.QueuePeak == 0 {
		t.Errorf("pane 2's crowds have no queue: %+v", got)
	}
}

// The form refuses, beside the field, a queue without a capacity and a
// timeout without a queue, and, at the last enter, lifo or drop-expired
// without a queue: the form stays open and nothing is applied.
func TestFormRefusesAQueueWithoutWhatItNeeds(t *testing.T) {
	m := openServicePage(t)
	m = deliver(t, m, enters(5)...) // to the queue, the capacity at 0
	m = deliver(t, m, press("backspace", "10", "enter")...)
	if got := focused(m); got != pane.FieldName(backoff.Queue) {
		t.Errorf("a queue without a capacity: the cursor moved on to %q", got)
	}
	if view := m.View(); !strings.Contains(view, "A queue needs a capacity to serve it: set the capacity above, or 0 for no queue.") {
		t.Errorf("no error beside the queue:\n%s", view)
	}
	m = deliver(t, m, press("backspace", "backspace", "0", "enter", "backspace", "2s", "enter")...)
	if got := focused(m); got != pane.FieldName(backoff.Timeout) {
		t.Errorf("a timeout without a queue: the cursor moved on to %q", got)
	}
	if view := m.View(); !strings.Contains(view, "A timeout needs a queue to wait in: set the queue above, or 0 for none.") {
		t.Errorf("no error beside the timeout:\n%s", view)
	}
	// lifo without a queue: refused when the form is applied.
	m = deliver(t, m, press("backspace", "backspace", "0", "enter", "right")...)
	m = deliver(t, m, enters(2+3+thirdPage)...) // drop expired, the guards, the third page, apply
	if !m.SettingsPane().Editing() {
		t.Fatalf("lifo without a queue was applied: %+v", m.Settings())
	}
	if view := m.View(); !strings.Contains(view, "queue order: lifo needs a queue to take the newest from: set a queue, or the order fifo") {
		t.Errorf("no error at the last field:\n%s", view)
	}
	if m.Settings() != backoff.Defaults() {
		t.Errorf("settings changed: %+v", m.Settings())
	}
}
