package model

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/words"
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

// adviceInline runs everything inside Update, the advice's search too, on
// two cores whatever the machine's (the estimates say how many); c copies
// nowhere, as a terminal that takes OSC 52 would say it does.
func adviceInline(more ...Option) []Option {
	c := memo
	c.Advise = memoAdvise
	return inline(append([]Option{WithCompute(c), WithInlineAdvice(), WithAdviceWorkers(2), WithClipboard(func(string) error { return nil })}, more...)...)
}

// manyMeets are the keys that give nine candidates meeting the goal
// recovered<=60s on the small metastable failure (withQueue): more than
// 80x24 lists at once. (A share of clients not through is of the clients
// touched: no candidate keeps 70% of those, so the goal is recovery alone.)
func manyMeets() []tea.Msg {
	return cat([]tea.Msg{applied(withQueue)}, press("6", "e", "enter", "60s", "ctrl+s"))
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
		{"advice_many", manyMeets()},
		{"advice_many_last", cat(manyMeets(), k("down", "down", "down", "down", "down", "down", "down"))},
		{"advice_many_back", cat(manyMeets(), k("down", "down", "down", "down", "down", "down", "down", "up", "up", "up", "up", "up"))},
		{"advice_copied", cat(meets, k("down", "c"))},
	}
}

// TestAdviceGolden draws pane 6 at 80x24, 120x40 and the least size the
// program draws in.
func TestAdviceGolden(t *testing.T) {
	for _, st := range adviceStates() {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {MinWidth, MinHeight}} {
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

// A goal the form cannot read lets the cursor go on, and says why beside
// its field; applying takes the cursor back to it and applies nothing; a
// goal that means nothing for the plan says so, and nothing runs.
func TestAdviceFormRefuses(t *testing.T) {
	m := send(t, newAppWith(t, 120, 40, adviceInline()...), press("6", "e", "1", "enter")...)
	why := "not-through takes a share of the clients from 0% to 100%"
	if got := focusedGoal(m); got != goalRecovered || !strings.Contains(m.View(), why) {
		t.Errorf("after 1 and enter: got field %d, want %d, with %q beside the first:\n%s", got, goalRecovered, why, m.View())
	}
	m = send(t, m, press("ctrl+s")...)
	if got := focusedGoal(m); !m.AdvicePane().Editing() || got != goalNotThrough || m.AdvicePane().Goals().Len() != 0 {
		t.Errorf("ctrl+s with 1: got editing %v on field %d with goals %v, want the form open on field %d and no goals",
			m.AdvicePane().Editing(), got, m.AdvicePane().Goals(), goalNotThrough)
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

// focusedGoal is the goals' form's field the cursor is on, or -1.
func focusedGoal(m App) int {
	a := m.AdvicePane()
	if a.form == nil || a.form.GetFocusedField() == nil {
		return -1
	}
	for i, k := range a.keys {
		if k == a.form.GetFocusedField().GetKey() {
			return i
		}
	}
	return -1
}

// Issue 24, item 8: enter, tab and ↓ go to the next field whatever the
// field holds, as in the settings form: "1", the key, "1 minute" leaves 1
// in the first field and 1 minute in the second (it gave "11 minute");
// shift+tab and ↑ go back.
func TestGoalsFormMovesOn(t *testing.T) {
	for _, next := range []string{"tab", "down", "enter"} {
		for _, back := range []string{"shift+tab", "up"} {
			t.Run(next+"_"+back, func(t *testing.T) {
				m := send(t, newAppWith(t, 80, 24, adviceInline()...), press("6", "e", "1", next, "1 minute")...)
				d := m.AdvicePane().draft
				if d.text[goalNotThrough] != "1" || d.text[goalRecovered] != "1 minute" {
					t.Fatalf("got %q and %q, want %q and %q", d.text[goalNotThrough], d.text[goalRecovered], "1", "1 minute")
				}
				m = send(t, m, press(back, "%")...)
				if d.text[goalNotThrough] != "1%" || focusedGoal(m) != goalNotThrough {
					t.Errorf("after %s and %%: got %q on field %d, want %q on field %d", back, d.text[goalNotThrough], focusedGoal(m), "1%", goalNotThrough)
				}
			})
		}
	}
}

// The same with the whole program running, keys as a terminal sends them:
// each field's reason is beside it, the frame fits.
func TestProgramGoalsFormTab(t *testing.T) {
	tm := teatest.NewTestModel(t, NewApp(backoff.Defaults(), pane.DefaultStyles(), adviceInline()...), teatest.WithInitialTermSize(80, 24))
	sendKeys(tm, "6", "e")
	waitFor(t, tm, "Your goals")
	tm.Type("1")
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	tm.Type("1 minute")
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	waitFor(t, tm, "1m30s")
	m := finalApp(t, tm)
	d := m.AdvicePane().draft
	if d == nil || d.text[goalNotThrough] != "1" || d.text[goalRecovered] != "1 minute" || focusedGoal(m) != goalPeak {
		t.Fatalf("got %+v on field %d, want 1 and 1 minute, on field %d", d, focusedGoal(m), goalPeak)
	}
	view := m.View()
	checkFits(t, view, 80, 24)
	var trimmed []string
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		trimmed = append(trimmed, strings.TrimRight(l, " "))
	}
	for _, want := range []string{"(1%)> 1\n    ✗ not-through takes a share", "(60s)> 1 minute\n    ✗ recovered takes a time"} {
		if !strings.Contains(strings.Join(trimmed, "\n"), want) {
			t.Errorf("the frame does not show %q:\n%s", want, view)
		}
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
	// The two searches' answers are worked out first, untimed, so that the
	// waits below measure the program, not a machine's load.
	for _, clients := range []int{s.Clients, 250} {
		w := s
		w.Clients = clients
		send(t, NewApp(w, pane.DefaultStyles(), adviceInline(WithGoals(goals, 3), WithSeeds(0))...), tea.WindowSizeMsg{Width: 100, Height: 30})
	}
	tm := teatest.NewTestModel(t, NewApp(s, pane.DefaultStyles(), inline(WithCompute(c), WithGoals(goals, 3), WithSeeds(0))...), teatest.WithInitialTermSize(100, 30))
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

// chosenRow finds the chosen candidate's row, "> k", in a frame.
func chosenRow(frame string, k int) bool {
	return regexp.MustCompile(fmt.Sprintf(`(?m)^ > %d\s`, k)).MatchString(ansi.Strip(frame))
}

// Issue 24, item 9: the chosen candidate's row always shows, down to the
// last of eight and back up, at 80x24, 120x40 and the least size (before,
// the sixth went out of sight at 80x24). A line says which rows show.
func TestAdviceChosenAlwaysShows(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {MinWidth, MinHeight}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := send(t, newAppWith(t, size[0], size[1], adviceInline()...), manyMeets()...)
			n := len(m.AdvicePane().Advice().Meets)
			if n < 6 {
				t.Fatalf("got %d candidates, want 6 or more", n)
			}
			steps := cat(press(slices.Repeat([]string{"down"}, n)...), press(slices.Repeat([]string{"up"}, n)...))
			for i, key := range steps {
				m = send(t, m, key)
				want := min(i+1, n-1) // down n times stops at the last, then up
				if i >= n {
					want = max(n-1-(i-n+1), 0)
				}
				frame := m.View()
				checkFits(t, frame, size[0], size[1])
				if got := m.AdvicePane().Chosen(); got != want {
					t.Fatalf("step %d: chosen %d, want %d", i, got, want)
				}
				if !chosenRow(frame, want+1) {
					t.Fatalf("step %d: the chosen row, > %d, is not in the frame:\n%s", i, want+1, frame)
				}
			}
			// Where some rows are hidden, a line says so.
			shown := len(regexp.MustCompile(`(?m)^ [> ] \d+ `).FindAllString(ansi.Strip(m.View()), -1))
			if shown < n && !strings.Contains(m.View(), fmt.Sprintf("of %d, ↓ more below (↑/↓)", n)) {
				t.Errorf("%d of %d rows show, and no line says more candidates are below:\n%s", shown, n, m.View())
			}
			if size[1] <= 14 && shown >= n {
				t.Errorf("all %d rows show at %dx%d: the test no longer scrolls", n, size[0], size[1])
			}
		})
	}
}

// chosenText is the chosen candidate's row, "> k", without its rank.
func chosenText(frame string, k int) string {
	l := regexp.MustCompile(fmt.Sprintf(`(?m)^ > %d\s.*$`, k)).FindString(ansi.Strip(frame))
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), fmt.Sprintf("> %d", k)))
}

// Issue 24, item 9: no two rows read the same: each shows the settings that
// tell its candidate from the others (before, four rows read "yours" and
// the same marks at 80x24 with four goals). Each row is read as the chosen
// one, which always shows.
func TestAdviceRowsTellApart(t *testing.T) {
	goals := map[string][]tea.Msg{
		"two goals":  press("25%", "enter", "60s", "ctrl+s"),
		"four goals": press("25%", "enter", "60s", "enter", "3x", "enter", "10s", "enter", "2x", "ctrl+s"),
		"many":       press("30%", "enter", "60s", "ctrl+s"),
		"none meets": press("0%", "enter", "0ms", "enter", "enter", "0ms", "ctrl+s"),
	}
	for name, keys := range goals {
		// Not at the least size, 50 columns: the closest of "none meets"
		// differ in first wait, longest wait, budget and growth, whose
		// columns with the policy's and the goals' take 68.
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", name, size[0], size[1]), func(t *testing.T) {
				m := send(t, newAppWith(t, size[0], size[1], adviceInline()...), cat([]tea.Msg{applied(withQueue)}, press("6", "e"), keys)...)
				a := m.AdvicePane()
				n := len(a.data().Shown())
				if n < 2 {
					t.Fatalf("got %d candidates, want 2 or more", n)
				}
				seen := map[string]int{}
				for k := 1; k <= n; k++ {
					r := chosenText(m.View(), k)
					if r == "" {
						t.Fatalf("no row > %d:\n%s", k, m.View())
					}
					if j, ok := seen[r]; ok {
						t.Errorf("rows %d and %d both read %q:\n%s", j, k, r, m.View())
					}
					seen[r] = k
					m = send(t, m, press("down")...)
				}
			})
		}
	}
}

// Issue 24, item 9: c copies the chosen candidate's command: to the
// clipboard where there is one, and in the box under the pane in any case,
// laid out so that the lines selected run as one command (each but the
// last ends in " \").
func TestAdviceCopiesTheCommand(t *testing.T) {
	for _, clip := range []bool{true, false} {
		t.Run(fmt.Sprint("clipboard ", clip), func(t *testing.T) {
			var copied []string
			opt := WithClipboard(nil)
			if clip {
				opt = WithClipboard(func(text string) error { copied = append(copied, text); return nil })
			}
			m := send(t, newAppWith(t, 80, 24, adviceInline(opt)...), manyMeets()...)
			m = deliver(t, m, press("down", "down", "c")...)
			a := m.AdvicePane()
			want := a.data().Command(a.Advice().Meets[2])
			intro := pane.CopyByHand
			if clip {
				intro = pane.CopySent
				if len(copied) != 1 || copied[0] != want {
					t.Errorf("copied %q, want %q", copied, want)
				}
			}
			box := m.SaveBox().View()
			if !strings.HasPrefix(box, pane.WrapAtSpaces(intro, 80)) {
				t.Errorf("the box does not start with %q:\n%s", intro, box)
			}
			lines := strings.Split(box, "\n")[pane.Height(pane.WrapAtSpaces(intro, 80)):]
			for i, l := range lines {
				if ends := strings.HasSuffix(l, " \\"); ends != (i < len(lines)-1) {
					t.Errorf("line %d %q: ends in \\ %v, want %v", i, l, ends, i < len(lines)-1)
				}
			}
			joined := strings.Join(strings.Fields(strings.ReplaceAll(strings.Join(lines, "\n"), "\\\n", " ")), " ")
			if joined != want {
				t.Errorf("the box's command reads\n%s\nwant\n%s", joined, want)
			}
			checkFits(t, m.View(), 80, 24)
			if !chosenRow(m.View(), 3) {
				t.Errorf("the box hides the chosen row:\n%s", m.View())
			}
		})
	}
}

// searching is the program at w x h with pane 6 searching for the small
// metastable failure's goals, off the loop: its search never runs (the
// commands are dropped), so that the test sets what its progress reads.
func searching(t *testing.T, w, h int) (App, *adviceRun) {
	t.Helper()
	s := backoff.Defaults()
	withQueue(&s)
	goals := advice.Goals{}.With(advice.Goal{Kind: advice.NotThrough, Limit: 25000}).With(advice.Goal{Kind: advice.Recovered, Limit: 60000})
	m := NewApp(s, pane.DefaultStyles(), inline(WithGoals(goals, 20), WithAdviceWorkers(2))...)
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	m = send(t, m, press("6")...)
	r := m.root.advice.running()
	if r == nil {
		t.Fatal("no search on its way")
	}
	return m, r
}

// Issue 24, item 15: while it searches, pane 6 shows the crowds run of the
// most there will be, the round (its seeds), and the time so far against
// the estimate, drawn again on each tick; an elapsed time equal to the
// estimate is still "of about" it, one past it says so.
func TestAdviceShowsProgress(t *testing.T) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		done, seeds int
		elapsed     time.Duration
		estimate    int64 // ms
		want        string
	}{
		{0, 0, 0, 0, "Every candidate on its first seed; under a second so far."},
		{100, 1, 3 * time.Second, 73200, "Every candidate on its first seed; 3 s so far of about 1 min 13 s (estimated on 2 cores)."},
		{600, 4, 12 * time.Second, 73200, "The 30 most promising on 4 seeds; 12 s so far of about 1 min 13 s (estimated on 2 cores)."},
		// 73 s against an estimate of 73,000 ms: equal, still "of about".
		{800, 20, 73 * time.Second, 73000, "The 10 most promising on all 20 seeds; 1 min 13 s so far of about 1 min 13 s (estimated on 2 cores)."},
		// 73.001 s: past it.
		{800, 20, 73*time.Second + time.Millisecond, 73000, "The 10 most promising on all 20 seeds; 1 min 13 s so far, past the 1 min 13 s estimated on 2 cores."},
	}
	for _, tt := range tests {
		m, r := searching(t, 120, 40)
		r.started = start
		m.root.advice.now = func() time.Time { return start.Add(tt.elapsed) }
		r.done.Store(int64(tt.done))
		r.seeds.Store(int64(tt.seeds))
		r.estimate.Store(tt.estimate)
		m = send(t, m, adviceTickMsg{})
		frame := strings.Join(strings.Fields(ansi.Strip(m.View())), " ")
		bar := fmt.Sprintf("%s of at most %s crowds", words.Count(tt.done), words.Count(r.most))
		if !strings.Contains(frame, tt.want) || !strings.Contains(frame, bar) {
			t.Errorf("%+v: the frame does not say %q and %q:\n%s", tt, bar, tt.want, m.View())
		}
	}
}

// The progress at the three sizes, a third of the way: the bar, the round,
// the time against the estimate.
func TestAdviceProgressGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {MinWidth, MinHeight}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m, r := searching(t, size[0], size[1])
			start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			r.started = start
			m.root.advice.now = func() time.Time { return start.Add(12 * time.Second) }
			r.done.Store(int64(r.most / 3))
			r.seeds.Store(4)
			r.estimate.Store(73200)
			m = send(t, m, adviceTickMsg{})
			view := m.View()
			checkFits(t, view, size[0], size[1])
			golden.RequireEqual(t, []byte(view))
		})
	}
}

// Issue 24, item 15: the form says what a search of its seeds would take
// before it runs, and again when the seeds change: the most crowds
// (advice.Search.Estimate) and the time its cost gives.
func TestGoalsFormEstimates(t *testing.T) {
	m := send(t, newAppWith(t, 80, 24, adviceInline()...), applied(withQueue))
	m = send(t, m, press("6", "e")...)
	for _, seeds := range []int{20, 5} {
		if seeds != 20 {
			m = send(t, m, press("down", "down", "down", "down", "down", "backspace", "backspace", fmt.Sprint(seeds))...)
		}
		a := m.AdvicePane()
		sr := a.search()
		sr.Seeds = seeds
		want := pane.AdviceEstimate(seeds, sr.Estimate(), sr.Cost(2).Seconds(2), 2)
		if frame := strings.Join(strings.Fields(ansi.Strip(m.View())), " "); !strings.Contains(frame, want) {
			t.Errorf("seeds %d: the form does not say %q:\n%s", seeds, want, m.View())
		}
	}
}

// A search its cost says would hold more than the memory ceiling does not
// run: the pane says why in the ceiling's words, whether the search runs
// inside Update or off the loop (where its cost is worked out now).
func TestAdviceRefusesPastTheCeiling(t *testing.T) {
	for _, off := range []bool{false, true} {
		var calls atomic.Int32
		c := memo
		c.Advise = func(sr advice.Search, o advice.Options) (advice.Advice, error) {
			calls.Add(1)
			return memoAdvise(sr, o)
		}
		say := func(need int64) string { return fmt.Sprintf("Past the ceiling: %d bytes.", need) }
		opts := inline(WithCompute(c), WithAdviceWorkers(2), WithMemoryCeiling(1, say))
		if !off {
			opts = append(opts, WithInlineAdvice())
		}
		m := send(t, newAppWith(t, 120, 40, opts...), applied(withQueue))
		m = deliver(t, m, press("6", "e", "25%", "enter", "60s")...)
		// Off the loop, the search's cost is worked out in a command: some
		// hundred crowds in miniature, which a busy machine may take past
		// deliver's 50 ms to give.
		next, cmd := m.Update(press("ctrl+s")[0])
		m = deliver(t, next.(App), messagesWithin(cmd, 10*time.Second)...)
		a := m.AdvicePane()
		want := say(a.search().Cost(2).Bytes)
		if calls.Load() != 0 || m.AdvicePane().Advice() != nil || !strings.Contains(m.View(), want) {
			t.Errorf("off the loop %v: %d searches, want none, and %q:\n%s", off, calls.Load(), want, m.View())
		}
	}
}
