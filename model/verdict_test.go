package model

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// paneLine is the first line of the view that begins with prefix; "" for
// none.
func paneLine(view, prefix string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// Pane 2 at the defaults: the verdicts first; once the service is back,
// fixed's peak of 0 comes from clients who all gave up before it was back,
// so it is not marked best, and its 200 who gave up carry the worst mark.
func TestProgramCrowdVerdictsAtDefaults(t *testing.T) {
	tm := startProgram(t)
	sendKeys(tm, "2")
	waitFor(t, tm, pane.VerdictTitle, "Choose equal jitter")
	sendKeys(tm, "pgdown", "down", "down")
	waitFor(t, tm, "Once the service is back at 10 s")
	m := finalApp(t, tm)
	view := m.View()
	back := view[strings.Index(view, "Once the service is back"):]
	fixed := paneLine(back, "fixed ")
	if fixed == "" || strings.Contains(fixed, pane.BestMark) {
		t.Errorf("fixed once the service is back: %q, want its peak of 0 not marked %s", fixed, pane.BestMark)
	}
	if equal := paneLine(back, "equal jitter "); !strings.Contains(equal, "9 · 90/s"+pane.BestMark) {
		t.Errorf("equal jitter once the service is back: %q, want its peak of 9 marked best", equal)
	}
	golden.RequireEqual(t, []byte(view))
}

// The budget scenario, in the full-screen program: 50,000 clients,
// a 30 s outage, capacity 2,000 a second, a fresh load of 1,500 a second,
// --budget grpc:10:0.1, your own policy grpc. The first figure shown is
// the clients not through, 95,000 of 185,000, every one of the 95,000 the
// outage touched (issue 24, item 1), in every verdict and first in the
// crowd table, where gave up says 0.
func TestProgramBudgetVerdicts(t *testing.T) {
	pr, _ := backoff.FindPreset("grpc")
	s := backoff.Defaults().WithPreset(pr)
	s.Clients, s.Outage, s.Capacity, s.Load = 50000, 30000, 2000, 1500
	s.Budget = backoff.Budget{Kind: backoff.BudgetGRPC, A: 10, B: 100}
	tm := teatest.NewTestModel(t, NewApp(s, pane.DefaultStyles(), inline(WithSeeds(0))...), teatest.WithInitialTermSize(100, 30))
	sendKeys(tm, "2")
	waitFor(t, tm, pane.VerdictTitle)
	m := finalApp(t, tm)
	view := m.View()
	verdict := "none of the 95,000 clients the outage touched gets through (100%), of 185,000 clients in all: all 95,000 were throttled by the budget (50,000 clients and 135,000 fresh requests share one bucket)"
	if n := strings.Count(strings.Join(strings.Fields(view), " "), verdict); n == 0 {
		t.Errorf("no verdict says %q:\n%s", verdict, view)
	}
	for _, r := range m.CrowdPane().Crowds() {
		if f := r.Figures; f.NotThrough != 95000 || f.Clients != 185000 || f.GaveUp != 0 {
			t.Errorf("%s: not through %d of %d, gave up %d; want 95,000 of 185,000 and 0", r.Policy.Name, f.NotThrough, f.Clients, f.GaveUp)
		}
	}
	golden.RequireEqual(t, []byte(view))
	// Below the verdicts, the crowd table's first column is the clients not
	// through with their share; gave up says 0.
	tm = teatest.NewTestModel(t, NewApp(s, pane.DefaultStyles(), inline(WithSeeds(0))...), teatest.WithInitialTermSize(100, 30))
	sendKeys(tm, "2", "pgdown")
	waitFor(t, tm, "policy ")
	table := finalApp(t, tm).View()
	head := strings.Fields(paneLine(table, "policy "))
	row := strings.Join(strings.Fields(paneLine(table, "grpc ")), " ") // your own policy, named after its preset
	if len(head) < 2 || head[1] != "lost" && head[1] != "not" || !strings.HasPrefix(row, "grpc 95,000 · 100% 95,000") || !strings.HasSuffix(row, " 0") {
		t.Errorf("the crowd table: head %q, grpc's row %q; want not through first, 95,000 · 100%% of the 95,000 touched, and gave up 0 last", head, row)
	}
}

// The settings form explains the budget where it is set: how many clients
// share a bucket with the settings the form holds, what an outage does to
// it, and the libraries' typical values; the text follows the fields.
func TestFormExplainsTheBudget(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Load, s.Processes = 50000, 30000, 2000, 1500, 10
	tm := teatest.NewTestModel(t, NewApp(s, pane.DefaultStyles(), inline(WithSeeds(0))...), teatest.WithInitialTermSize(100, 30))
	sendKeys(tm, "5", "enter")
	waitFor(t, tm, "┃ first wait")
	for _, title := range formTitles()[1:] {
		sendKeys(tm, "enter")
		waitFor(t, tm, "┃ "+title)
		if title == "budget" {
			break
		}
	}
	view := strings.Join(strings.Fields(strings.ReplaceAll(finalApp(t, tm).View(), "┃", " ")), " ")
	for _, want := range []string{
		"here 18,500 clients and fresh requests share each of 10 buckets", // 50,000 and 1,500 a second until 90 s, over 10 processes
		"A total outage empties a bucket",
		"grpc:10:0.1, gRPC's example; aws:500:5, the AWS SDKs' standard.",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the budget field does not say %q:\n%s", want, view)
		}
	}
	// On another field, the text is gone; the clients it counts follow
	// the form as it is typed: here one process.
	tm = teatest.NewTestModel(t, NewApp(s, pane.DefaultStyles(), inline(WithSeeds(0))...), teatest.WithInitialTermSize(100, 30))
	sendKeys(tm, "5", "enter")
	waitFor(t, tm, "┃ first wait")
	for _, title := range formTitles()[1:] {
		sendKeys(tm, "enter")
		waitFor(t, tm, "┃ "+title)
		if title == "processes" {
			break
		}
	}
	sendKeys(tm, "backspace", "backspace", "1", "shift+tab")
	waitFor(t, tm, "┃ budget")
	view = strings.Join(strings.Fields(strings.ReplaceAll(finalApp(t, tm).View(), "┃", " ")), " ")
	if !strings.Contains(view, "here 50,000 clients and 135,000 fresh requests share one bucket") {
		t.Errorf("with one process typed, the budget field does not say the 50,000 and the 135,000 share one bucket:\n%s", view)
	}
}

// Issue 24, item 3, in the full-screen program: where no policy is good
// for the service (the README's metastable queue, all five overloaded),
// pane 2 chooses none, and the service's remedies run off the update loop
// on the first ranked policy (named as being tried until they land), then
// say what each gives.
func TestProgramTriesTheRemediesOffTheLoop(t *testing.T) {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Attempts, s.Capacity, s.Load, s.LoadUntil, s.Queue, s.Timeout = 2000, 30000, 4, 100, 95, 300000, 1000, 1000
	tm := teatest.NewTestModel(t, NewApp(s, pane.DefaultStyles(), WithSeeds(0), WithInlineWork(0), WithCompute(memo), WithPolicies([]string{"fixed", "exponential", "full jitter", "equal jitter", "decorrelated"})),
		teatest.WithInitialTermSize(120, 60))
	sendKeys(tm, "2")
	waitFor(t, tm, pane.VerdictTitle)
	waitFor(t, tm, "alone:") // "none of the service's own remedies is enough alone:", once they ran
	view := strings.Join(strings.Fields(finalApp(t, tm).View()), " ")
	for _, w := range []string{
		"No policy here is good for your service: with every one the service is still overloaded when the fresh load stops; " +
			"with decorrelated, none of the service's own remedies is enough alone: dropping expired requests (--drop-expired)",
		"retry-planner advise",
	} {
		if !strings.Contains(view, w) {
			t.Errorf("pane 2 does not say %q:\n%s", w, view)
		}
	}
	if strings.Contains(view, "Choose") {
		t.Errorf("pane 2 chooses a policy:\n%s", view)
	}
}
