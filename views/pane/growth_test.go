package pane

import (
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// linearSettings is your own policy grown linearly: 1 s, 2 s, ... up to 5 s.
func linearSettings() backoff.Settings {
	s := backoff.Defaults()
	s.Growth, s.CustomLongestWait = backoff.GrowthLinear, 5000
	return s
}

// Your own policy grown linearly says so where the multiplier would be, in
// pane 2's legend and pane 5's summary, and the multiplier it ignores is
// marked ignored; exponential growth, the default, adds no row.
func TestPanesSayLinearGrowth(t *testing.T) {
	s := linearSettings()
	if got, want := DescribePolicy(s.Custom()), "first 1 s, linear (+1 s each retry), longest 5 s, no jitter, 6 attempts"; got != want {
		t.Errorf("DescribePolicy: got %q, want %q", got, want)
	}
	if got := DescribePolicy(backoff.Defaults().Custom()); !strings.Contains(got, ", x2, ") || strings.Contains(got, "linear") {
		t.Errorf("DescribePolicy of an exponential policy: got %q, want x2 and no linear", got)
	}
	legend := strings.Join(strings.Fields(CrowdPane(CrowdData{B: six(t, s, 0)}, 100, DefaultStyles())), " ")
	if want := "custom is your own policy (pane 5, page 3): first 1 s, linear (+1 s each retry), longest 5 s"; !strings.Contains(legend, want) {
		t.Errorf("pane 2 does not say %q:\n%s", want, legend)
	}
	summary := SettingsSummary(s, 0, backoff.Independent, 120, DefaultStyles())
	for _, w := range []string{"growth", "linear, plus the first wait", "x2, ignored"} {
		if !strings.Contains(summary, w) {
			t.Errorf("pane 5 does not say %q:\n%s", w, summary)
		}
	}
	if plain := SettingsSummary(backoff.Defaults(), 0, backoff.Independent, 120, DefaultStyles()); strings.Contains(plain, "growth") || strings.Contains(plain, "ignored") {
		t.Errorf("pane 5 at the defaults names the growth:\n%s", plain)
	}
	if got := PlanChanges(backoff.Defaults(), s); got != "your own longest wait 16 s → 5 s, growth exponential → linear" {
		t.Errorf("PlanChanges: got %q", got)
	}
}
