package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// Issue 19, item 11: the form's third page chooses how your own policy's
// waits grow, beside the multiplier, whose title says it is ignored while
// the growth is linear.

// toGrowth opens the form in pane 5 and moves the cursor to the growth.
func toGrowth(t *testing.T, m App) App {
	t.Helper()
	m = deliver(t, m, press("5", "enter")...)
	m = deliver(t, m, enters(slices.Index(formTitles(), "growth ("))...)
	if f := focusedField(m); f != growthKey {
		t.Fatalf("the cursor is on %q, want the growth", f)
	}
	return m
}

// multiplierTitle is the multiplier's title as the open form holds it.
func multiplierTitle(m App) string {
	p := m.SettingsPane()
	return p.titles[slices.IndexFunc(formTexts(), func(t formText) bool { return t.field == backoff.Multiplier })]
}

// → on the growth chooses linear; the multiplier's title says it is
// ignored at once, and ← takes that back; applied, your own policy waits
// 1, 2, 3, 4, 5 s up to its own longest 5 s, the five exponential as
// before, and the note says the growth changed.
func TestFormChoosesLinearGrowth(t *testing.T) {
	m := toGrowth(t, quick(t, 120, 40))
	if got := multiplierTitle(m); strings.Contains(got, "ignored") {
		t.Fatalf("exponential: the multiplier's title %q says ignored", got)
	}
	m = deliver(t, m, press("right")...)
	if got := multiplierTitle(m); got != "multiplier (1 to 10; ignored: the growth is linear)" {
		t.Errorf("linear: the multiplier's title %q, want it ignored", got)
	}
	if view := m.View(); !strings.Contains(view, "ignored: the growth is linear") || !strings.Contains(view, pane.GrowthName(backoff.GrowthLinear)) {
		t.Errorf("linear: the form does not show it:\n%s", view)
	}
	m = deliver(t, m, press("left")...)
	if got := multiplierTitle(m); strings.Contains(got, "ignored") {
		t.Errorf("exponential again: the multiplier's title %q says ignored", got)
	}
	m = deliver(t, m, press("right", "shift+tab", "shift+tab", "ctrl+u", "5s", "ctrl+s")...)
	if m.SettingsPane().Editing() {
		t.Fatalf("ctrl+s did not apply: %s", m.SettingsPane().finalErr)
	}
	s := m.Settings()
	c := s.Custom()
	var waits []int
	for k := 1; k < c.Attempts; k++ {
		waits = append(waits, c.Base(k))
	}
	if s.Growth != backoff.GrowthLinear || !slices.Equal(waits, []int{1000, 2000, 3000, 4000, 5000}) {
		t.Errorf("applied: growth %v, custom's waits %v; want linear, 1 to 5 s", s.Growth, waits)
	}
	for i, p := range s.Five() {
		if p != backoff.Defaults().Five()[i] {
			t.Errorf("%s: %s, want the defaults'", p.Name, p.Describe())
		}
	}
	if got, want := m.SettingsPane().Note(), "Applied: your own longest wait 16 s → 5 s, growth exponential → linear."; got != want {
		t.Errorf("the note: got %q, want %q", got, want)
	}
	// Pane 1's formula for custom, the sixth policy.
	client := send(t, m, press("1", "right", "right", "right", "right")...).View()
	if !strings.Contains(client, "wait = min(longest, n x first)") {
		t.Errorf("pane 1 does not give custom's linear formula:\n%s", client)
	}
	// Opened again, the form holds linear, and the title says so.
	m = toGrowth(t, m)
	if m.SettingsPane().draft.growth != backoff.GrowthLinear || !strings.Contains(multiplierTitle(m), "ignored") {
		t.Errorf("opened again: growth %v, multiplier's title %q; want linear, ignored", m.SettingsPane().draft.growth, multiplierTitle(m))
	}
}

// A preset fills the growth as it fills the multiplier: every preset
// multiplies, so choosing one after linear sets exponential back, and the
// select shows it; linear after the preset keeps its waits and is custom.
func TestPresetInTheFormSetsTheGrowth(t *testing.T) {
	s := backoff.Defaults()
	s.Growth = backoff.GrowthLinear
	m := quick(t, 120, 40)
	m = deliver(t, m, SettingsAppliedMsg{Settings: s})
	m = toPreset(t, m)
	m = deliver(t, m, press("right")...) // grpc
	if got := m.SettingsPane().draft.growth; got != backoff.GrowthExponential {
		t.Fatalf("after grpc: growth %v, want exponential", got)
	}
	if got := multiplierTitle(m); strings.Contains(got, "ignored") {
		t.Errorf("after grpc: the multiplier's title %q says ignored", got)
	}
	m = deliver(t, m, enters(slices.Index(formTitles(), "growth (")-slices.Index(formTitles(), "your own policy starts from"))...)
	if f := focusedField(m); f != growthKey {
		t.Fatalf("the cursor is on %q, want the growth", f)
	}
	if v, _ := m.SettingsPane().growth.Hovered(); v != backoff.GrowthExponential {
		t.Errorf("after grpc the growth's select is on %v, want exponential", v)
	}
	m = deliver(t, m, press("right", "ctrl+s")...)
	c := m.Settings().Custom()
	if c.Name != "custom" || c.Growth != backoff.GrowthLinear || c.Multiplier != 1600 || c.LongestWait != 120000 {
		t.Errorf("grpc then linear: %s %s, want custom, grpc's waits grown linearly", c.Name, c.Describe())
	}
}

// The whole program: the growth chosen with → and applied with ctrl+s
// from the multiplier; pane 5 then says linear and the multiplier ignored.
func TestProgramAppliesLinearGrowth(t *testing.T) {
	tm := startProgram(t)
	sendKeys(tm, "5", "enter")
	waitFor(t, tm, "first wait (1 ms to 1 h)> 1s")
	sendKeys(tm, "ctrl+s")
	waitFor(t, tm, "enter opens the form again")
	keys := append(press("enter"), enters(slices.Index(formTitles(), "growth ("))...)
	for _, k := range keys {
		tm.Send(k)
	}
	waitFor(t, tm, "growth (←/→)")
	sendKeys(tm, "right", "tab")
	waitFor(t, tm, "ignored: the growth is linear")
	sendKeys(tm, "ctrl+s")
	waitFor(t, tm, "growth exponential → linear")
	m := finalApp(t, tm)
	if got := m.Settings(); got.Growth != backoff.GrowthLinear || got.Custom().Base(3) != 3000 {
		t.Errorf("settings: growth %v, custom's third wait %d; want linear, 3000", got.Growth, got.Custom().Base(3))
	}
	golden.RequireEqual(t, []byte(m.View()))
}
