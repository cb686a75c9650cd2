package model

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/views/pane"
)

// memoAdvise is advice.Run, remembering its answers: the goldens ask the
// same searches at every size.
var memoAdvise = func() func(advice.Search, advice.Options) (advice.Advice, error) {
	var answers sync.Map
	return func(sr advice.Search, o advice.Options) (advice.Advice, error) {
		k := fmt.Sprint(sr.Settings, sr.Custom, sr.Seeds, sr.Goals, sr.AlsoService)
		if a, ok := answers.Load(k); ok {
			return a.(advice.Advice), nil
		}
		a, err := advice.Run(sr, o)
		if err == nil {
			answers.Store(k, a)
		}
		return a, err
	}
}()

// adviceInline runs everything inside Update, the advice's search too.
func adviceInline(more ...Option) []Option {
	c := memo
	c.Advise = memoAdvise
	return inline(append([]Option{WithCompute(c), WithInlineAdvice()}, more...)...)
}

// adviceStates are pane 6's goldens, on the small metastable failure
// (withQueue): no goals, the form, candidates that meet the goals, none
// that does (the closest), a candidate applied, and pane 2 after it.
func adviceStates() []goldenState {
	k := press
	queue := applied(withQueue)
	meets := cat([]tea.Msg{queue}, k("6", "e", "enter", "60s", "ctrl+s"))
	return []goldenState{
		{"advice_empty", k("6")},
		{"advice_form", cat([]tea.Msg{queue}, k("6", "e", "25%", "enter", "60s"))},
		{"advice_meets", meets},
		{"advice_second", cat(meets, k("down"))},
		{"advice_closest", cat([]tea.Msg{queue}, k("6", "e", "0%", "enter", "0ms", "enter", "enter", "0ms", "ctrl+s"))},
		{"advice_form_refuses", cat([]tea.Msg{queue}, k("6", "e", "1", "enter"))},
		{"advice_applied", cat(meets, k("down", "enter"))},
		{"advice_applied_crowd", cat(meets, k("down", "enter", "2"))},
	}
}

// TestAdviceGolden draws pane 6 at 80x24 and 120x40.
func TestAdviceGolden(t *testing.T) {
	for _, st := range adviceStates() {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", st.name, size[0], size[1]), func(t *testing.T) {
				m := send(t, newAppWith(t, size[0], size[1], adviceInline()...), st.msgs...)
				view := m.View()
				checkFits(t, view, size[0], size[1])
				golden.RequireEqual(t, []byte(view))
			})
		}
	}
}

// Enter on a candidate makes it the plan's own policy (custom) and its
// budget the budget, at once: the plan, the crowd's policies and panes 1,
// 3 and 4's chosen policy follow; the search does not run again for it.
func TestAdviceEnterApplies(t *testing.T) {
	m := send(t, newAppWith(t, 120, 40, adviceInline()...), applied(withQueue))
	m = send(t, m, press("6", "e", "enter", "60s", "ctrl+s")...)
	adv := m.AdvicePane().Advice()
	if adv == nil || len(adv.Meets) < 2 {
		t.Fatalf("want two candidates or more that meet the goals, got %+v", adv)
	}
	before := m.Plan().Settings
	m = send(t, m, press("down", "enter")...)
	c := adv.Meets[1]
	want := CandidateSettings(before, c)
	got := m.Plan().Settings
	if got != want || got.Budget != c.Settings.Budget || !got.Custom().Same(c.Policy) {
		t.Fatalf("after enter on #2: settings %+v, want %+v (custom %+v, budget %s)", got, want, c.Policy, c.Settings.Budget)
	}
	custom := -1
	for i, r := range m.CrowdPane().Crowds() {
		if r.Policy.Same(c.Policy) && r.Policy.Name == got.Custom().Name {
			custom = i
		}
	}
	if custom < 0 {
		t.Errorf("the crowd does not show the candidate's policy: %v", m.CrowdPane().Crowds())
	}
	if m.ClientPane().Chosen() != custom && got.Custom().Name == "custom" {
		t.Errorf("pane 1 shows policy %d, want custom (%d)", m.ClientPane().Chosen(), custom)
	}
	if m.AdvicePane().Advice() != adv || m.AdvicePane().Searching() {
		t.Error("enter started a new search")
	}
	if !strings.Contains(m.View(), "Applied #2 as your own policy (custom) and budget") {
		t.Errorf("no note of what enter did:\n%s", m.View())
	}
	// A change of the plan from elsewhere searches again.
	m = send(t, m, applied(func(s *backoff.Settings) { withQueue(s); s.Clients = 250 }))
	if m.AdvicePane().Advice() == adv {
		t.Error("a change of the plan did not search again")
	}
}

// A goal the form cannot read keeps the cursor on its field, with why; a
// goal that means nothing for the plan says so, and nothing runs.
func TestAdviceFormRefuses(t *testing.T) {
	m := send(t, newAppWith(t, 120, 40, adviceInline()...), press("6", "e", "1", "enter")...)
	if !m.AdvicePane().Editing() || !strings.Contains(m.View(), "not through at most: not-through takes a share of the clients from 0% to 100%") {
		t.Errorf("the form let 1 go, or said nothing:\n%s", m.View())
	}
	m = send(t, m, press("%", "enter", "enter", "2x", "ctrl+s")...) // peak<=2x without a capacity
	if m.AdvicePane().Editing() || m.AdvicePane().Advice() != nil || !strings.Contains(m.View(), "peak<=2x measures the peak against the capacity") {
		t.Errorf("peak<=2x without a capacity: editing %v, searched %v:\n%s", m.AdvicePane().Editing(), m.AdvicePane().Advice() != nil, m.View())
	}
	m = send(t, m, press("e", "esc")...)
	if m.AdvicePane().Editing() || !strings.Contains(m.View(), "Cancelled. The goals are as they were.") {
		t.Errorf("esc:\n%s", m.View())
	}
}

// blockingAdvice is a search that waits to be let go, polling its stop
// flag as the core does, and counts how many run at once.
type blockingAdvice struct {
	release           chan struct{}
	running, most     atomic.Int32
	calls, superseded atomic.Int32
	stoppedIn         atomic.Int64 // the longest a stop took to end a search, in ns
}

func (b *blockingAdvice) run(sr advice.Search, o advice.Options) (advice.Advice, error) {
	n := b.running.Add(1)
	defer b.running.Add(-1)
	for m := b.most.Load(); n > m && !b.most.CompareAndSwap(m, n); m = b.most.Load() {
	}
	b.calls.Add(1)
	for {
		select {
		case <-b.release:
			return memoAdvise(sr, o)
		default:
		}
		if o.Stop() {
			b.superseded.Add(1)
			return advice.Advice{}, backoff.ErrStopped
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// While a search runs off the update loop, the keys are answered; a change
// of the plan supersedes it: it stops, the next starts only once it has,
// never two at once, and the answer shown is the last search's.
func TestAdviceSearchOffTheLoop(t *testing.T) {
	b := &blockingAdvice{release: make(chan struct{})}
	c := memo
	c.Advise = b.run
	goals := advice.Goals{}.With(advice.Goal{Kind: advice.NotThrough, Limit: 25000}).With(advice.Goal{Kind: advice.Recovered, Limit: 60000})
	s := backoff.Defaults()
	withQueue(&s)
	tm := teatest.NewTestModel(t, NewApp(s, pane.DefaultStyles(), inline(WithCompute(c), WithGoals(goals, 3))...), teatest.WithInitialTermSize(100, 30))
	sendKeys(tm, "6")
	waitFor(t, tm, "Searching", "of at most")
	// Keys while it runs: to pane 1 and back, the full help and back.
	sendKeys(tm, "1")
	waitFor(t, tm, "[1 one client]")
	sendKeys(tm, "6", "?")
	waitFor(t, tm, "close help")
	sendKeys(tm, "?")
	// A change supersedes the search: it stops, and the next runs.
	s.Clients = 250
	tm.Send(SettingsAppliedMsg{Settings: s})
	deadline := time.Now().Add(finalTimeout)
	for (b.superseded.Load() < 1 || b.calls.Load() < 2) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	close(b.release)
	waitFor(t, tm, "Tried")
	// Enter makes the first candidate the plan's own policy and budget.
	sendKeys(tm, "enter")
	waitFor(t, tm, "Applied #1 as your own policy")
	m := finalApp(t, tm)
	adv := m.AdvicePane().Advice()
	switch {
	case b.superseded.Load() != 1 || b.calls.Load() != 2:
		t.Errorf("%d searches, %d superseded; want 2 and 1", b.calls.Load(), b.superseded.Load())
	case b.most.Load() != 1:
		t.Errorf("%d searches ran at once, want 1", b.most.Load())
	case adv == nil || adv.Search.Settings.Clients != 250:
		t.Errorf("the answer shown is not the last search's: %+v", adv)
	case m.Focus() != FocusAdvice || m.AdvicePane().Searching():
		t.Errorf("focus %v, searching %v", m.Focus(), m.AdvicePane().Searching())
	case m.Plan().Settings != CandidateSettings(s, firstShown(adv)):
		t.Errorf("after enter the plan's settings are %+v, want %+v", m.Plan().Settings, CandidateSettings(s, firstShown(adv)))
	}
}

// firstShown is the first candidate the table lists.
func firstShown(adv *advice.Advice) advice.Candidate {
	if len(adv.Meets) > 0 {
		return adv.Meets[0]
	}
	return adv.Closest[0]
}

// No number in pane 6 is cut, at any width from 50 to 200: the table
// leaves columns out and shortens its heads, never a cell.
func TestAdviceCutsNoNumber(t *testing.T) {
	m := send(t, newAppWith(t, 200, 60, adviceInline()...), applied(withQueue))
	m = send(t, m, press("6", "e", "25%", "enter", "60s", "enter", "3x", "enter", "10s", "enter", "2x", "ctrl+s")...)
	if m.AdvicePane().Advice() == nil {
		t.Fatal("no search")
	}
	for w := 50; w <= 200; w++ {
		m = send(t, m, tea.WindowSizeMsg{Width: w, Height: 60})
		frame := m.View()
		if cut := cutNumber.FindString(frame); cut != "" {
			t.Fatalf("width %d: %q is cut:\n%s", w, cut, frame)
		}
		checkFits(t, frame, w, 60)
	}
}
