package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// names are the names of the policies pane 2 compares.
func names(m App) []string {
	var out []string
	for _, p := range m.CrowdPane().Data().B.Policies {
		out = append(out, p.Name)
	}
	return out
}

// Issue 19, item 4: the panes compare the policies a person chooses, the
// five, presets and their own, from the command line (WithPolicies) or the
// form; the s key's plan keeps them.
func TestChoosePolicies(t *testing.T) {
	m := send(t, quick(t, 120, 40), press()...)
	if got, want := names(m), []string{"fixed", "exponential", "full jitter", "equal jitter", "decorrelated", "custom"}; !slices.Equal(got, want) {
		t.Fatalf("by default: %q, want %q", got, want)
	}
	m = newAppWith(t, 120, 40, inline(WithSeeds(0), WithPolicies([]string{"grpc", "aws", "full-jitter"}))...)
	if got, want := names(m), []string{"grpc", "aws", "full jitter"}; !slices.Equal(got, want) {
		t.Errorf("WithPolicies(grpc, aws, full-jitter): %q, want %q", got, want)
	}
	if got := m.SavedPlan().Policies; !slices.Equal(got, []string{"grpc", "aws", "full jitter"}) {
		t.Errorf("the s key's plan names %q, want grpc, aws and full jitter", got)
	}
	// In the form: the field after the limit on total time.
	to := slices.Index(formTitles(), policiesField)
	m = send(t, quick(t, 120, 40), press("5", "enter")...)
	m = send(t, m, enters(to)...)
	if f := focusedField(m); f != policiesField {
		t.Fatalf("after %d enters the cursor is on %q, want the policies", to, f)
	}
	m = send(t, m, press("ctrl+u", "fixed,grpc,nope", "ctrl+s")...)
	if !m.SettingsPane().Editing() || !strings.Contains(m.View(), errPolicies.Error()[:40]) {
		t.Errorf("nope: the form applied, or does not say why not:\n%s", m.View())
	}
	m = send(t, m, press("ctrl+u", "Exponential, grpc,aws , custom", "ctrl+s")...)
	if got, want := names(m), []string{"exponential", "grpc", "aws", "custom"}; !slices.Equal(got, want) {
		t.Errorf("after the form: %q, want %q", got, want)
	}
	if got, want := m.SettingsPane().Note(), "Applied: the policies compared → exponential, grpc, aws, custom."; got != want {
		t.Errorf("note: got %q, want %q", got, want)
	}
	if got := m.SavedPlan().Policies; !slices.Equal(got, []string{"exponential", "grpc", "aws", "custom"}) {
		t.Errorf("the s key's plan names %q", got)
	}
	// Panes 1 and 3 step through the four; the jobs wait as the chosen one.
	m = send(t, m, press("1", "right")...)
	if got := m.ClientPane().Policy().Name; got != "aws" {
		t.Errorf("pane 1 after right: %s, want aws (from grpc, the second)", got)
	}
	if got := m.JobsPane().Policy().Name; got != "aws" {
		t.Errorf("the jobs wait as %s, want aws", got)
	}
	// grpc listed twice, once as custom made grpc: refused.
	grpc, _ := backoff.FindPreset("grpc")
	s := m.Settings().WithPreset(grpc)
	if _, err := parsePolicies(s, "custom,grpc"); err == nil {
		t.Error("custom (grpc's) and grpc: taken, want each once")
	}
	if got, _ := parsePolicies(s, "fixed, Exponential ,full_jitter,equal-jitter,DECORRELATED,custom"); got != "" {
		t.Errorf("the default six, written otherwise: %q, want \"\"", got)
	}
	// Pane 2 says what each policy beyond the five is.
	if view := strings.Join(strings.Fields(send(t, m, press("2", "G")...).View()), " "); !strings.Contains(view, "grpc is a preset: first 1 s, x1.6") {
		t.Errorf("pane 2 does not say what grpc is:\n%s", view)
	}
}

// A pinned plan of other policies is held against the plan by name: the
// policies both compare, side by side, and those only one compares named.
func TestComparePlansOfOtherPolicies(t *testing.T) {
	m := newAppWith(t, 120, 40, inline(WithSeeds(0))...)
	m = send(t, m, press("p", "5", "enter")...)
	m = send(t, m, enters(slices.Index(formTitles(), policiesField))...)
	m = send(t, m, press("ctrl+u", "exponential,grpc", "ctrl+s", "2")...)
	view := strings.Join(strings.Fields(m.View()), " ")
	for _, want := range []string{"B differs in the policies compared", "Only A compares fixed, full jitter, equal jitter, decorrelated and custom; only B compares grpc."} {
		if !strings.Contains(view, want) {
			t.Errorf("pane 2 does not say %q:\n%s", want, m.View())
		}
	}
	if strings.Count(view, "exponential A B change") != 1 {
		t.Errorf("pane 2 does not set exponential of A beside B's once:\n%s", m.View())
	}
}

// Issue 19, item 3: pane 2's first sentence says each policy's attempts
// where they differ.
func TestPane2SaysEachPolicysAttempts(t *testing.T) {
	m := newAppWith(t, 120, 40, inline(WithSeeds(0), WithPolicies([]string{"grpc", "aws"}))...)
	view := strings.Join(strings.Fields(m.View()), " ")
	if !strings.Contains(view, "the service is back at 10 s; grpc tries 5 times at most, aws 3. Retries are counted") {
		t.Errorf("pane 2 does not say grpc's and aws's attempts:\n%s", m.View())
	}
	if view := strings.Join(strings.Fields(quick(t, 120, 40).View()), " "); !strings.Contains(view, "each tries 6 times at most. Retries") {
		t.Errorf("pane 2 of the five and custom does not say each tries 6 times:\n%s", view)
	}
}

// Issue 19, item 8: b in pane 3 shows the time from the service's return
// on, scaled to what happens there, the capacity drawn across; b again the
// whole run.
func TestTimelineAfterBack(t *testing.T) {
	m := newAppWith(t, 80, 24, inline(WithSeeds(0))...)
	m = send(t, m, applied(func(s *backoff.Settings) {
		s.Clients, s.Outage, s.Capacity, s.Load = 50000, 30000, 2000, 1500
	}))
	m = send(t, m, press("3", "right")...) // full jitter
	// capacityAt is where the capacity stands in the bars' room, from 0 at
	// their start to 1 at the line's end, on the rows that draw it.
	capacityAt := func(view string) (rows int, share float64) {
		for _, l := range lines(view) {
			r := []rune(l)
			start, mark := -1, -1
			for i, c := range r {
				if start < 0 && strings.ContainsRune("█▒░│", c) {
					start = i
				}
				if c == '│' {
					mark = i
				}
			}
			if mark < 0 || !strings.ContainsAny(l, "█▒░") {
				continue
			}
			rows++
			share = float64(mark-start) / float64(80-start)
		}
		return rows, share
	}
	_, whole := capacityAt(m.View())
	m = send(t, m, press("b")...)
	if !m.TimelinePane().FromBack() {
		t.Fatal("b did not show the time from the service's return")
	}
	view := m.View()
	var body string // the first row of the time axis
	for _, l := range lines(view) {
		if f := strings.Fields(l); len(f) > 0 && f[0] >= "0" && f[0] <= "9" {
			body = l
			break
		}
	}
	if !strings.HasPrefix(strings.TrimSpace(body), "30 s ▶") {
		t.Errorf("the first row is %q, want the row the service is back in, 30 s", body)
	}
	rows, back := capacityAt(view)
	if rows == 0 || back < 4*whole || back < 0.15 {
		t.Errorf("the capacity stands at %.2f of the line after back (%d rows), %.2f over the whole run; want it well in sight:\n%s", back, rows, whole, view)
	}
	if m = send(t, m, press("b")...); m.TimelinePane().FromBack() {
		t.Error("b again did not show the whole run")
	}
}
