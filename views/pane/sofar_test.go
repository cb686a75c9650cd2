package pane

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
)

// Issue 19, item 9: a spread that is the seeds done so far says how many,
// beside it, in its legend and over its box strip; the whole one does not.
func TestCrowdPaneSaysTheSeedsDoneSoFar(t *testing.T) {
	s := backoff.Defaults()
	whole := six(t, s, 37)
	soFar := whole
	soFar.Seeds, soFar.SpreadSoFar = 100, true
	st := DefaultStyles()
	flat := func(d RunData, w int) string {
		return strings.Join(strings.Fields(ansi.Strip(CrowdPane(CrowdData{B: d}, w, st))), " ")
	}
	for _, w := range []int{60, 100, 200} {
		view := flat(soFar, w)
		for _, want := range []string{
			"median/p95 over the 37 of 100 seeds done so far; they settle as the rest land.",
			"the median and the 95th percentile over the 37 of 100 seeds done so far, seeds 7 to 43, with independent draws",
			"Peak after back over the 37 of 100 seeds done so far (independent draws)",
		} {
			if !strings.Contains(view, want) {
				t.Errorf("width %d, 37 of 100 seeds: no %q in\n%s", w, want, view)
			}
		}
		if strings.Count(view, "median/p95") < len(whole.Policies) {
			t.Errorf("width %d: the spread rows so far are not drawn:\n%s", w, view)
		}
		if got := flat(whole, w); strings.Contains(got, "so far") || !strings.Contains(got, "Peak after back over 37 seeds (independent draws)") {
			t.Errorf("width %d, the whole spread of 37: says so far, or not its 37 seeds:\n%s", w, got)
		}
	}
	// A and B side by side hold the medians back until both spreads are
	// whole.
	a := whole
	a.Settings.Attempts = 5
	if view := ansi.Strip(CompareView(a, soFar, 120, st)); strings.Contains(view, "median A") {
		t.Errorf("B's spread so far: A and B show medians:\n%s", view)
	}
	if view := ansi.Strip(CompareView(a, whole, 120, st)); !strings.Contains(view, "median A") {
		t.Errorf("both whole: A and B show no medians:\n%s", view)
	}
}
