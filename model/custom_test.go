package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// Issue 19, item 2: the policy of one's own carries its own first wait,
// longest wait, attempts and limit; a preset fills those and nothing else.

// toPreset opens the form in pane 5 and moves the cursor to the preset.
func toPreset(t *testing.T, m App) App {
	t.Helper()
	m = deliver(t, m, press("5", "enter")...)
	m = deliver(t, m, enters(slices.Index(formTitles(), "your own policy starts from"))...)
	if f := focusedField(m); f != presetKey {
		t.Fatalf("the cursor is on %q, want the preset", f)
	}
	return m
}

// Choosing gRPC fills your own policy's fields on the third page and
// leaves the five's on the first alone; applied, the five keep 16 s and 6
// attempts and the note names only your own policy's changes. Before, it
// set the first page's fields and said "longest wait 16 s → 2 min,
// attempts 6 → 5".
func TestPresetInTheFormFillsOnlyYourOwn(t *testing.T) {
	m := toPreset(t, quick(t, 120, 40))
	m = deliver(t, m, press("right")...) // grpc
	got := formValues(m)
	want := map[string]string{
		pane.FieldName(backoff.FirstWait): "1s", pane.FieldName(backoff.LongestWait): "16s", pane.FieldName(backoff.Attempts): "6",
		pane.FieldName(backoff.CustomFirstWait): "1s", pane.FieldName(backoff.CustomLongestWait): "2m", pane.FieldName(backoff.CustomAttempts): "5",
		pane.FieldName(backoff.Multiplier): "1.6", "jitter": "spread:0.2", pane.FieldName(backoff.CustomMaxElapsed): "0",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("after grpc: %s holds %q, want %q", name, got[name], w)
		}
	}
	m = deliver(t, m, press("ctrl+s")...)
	s := m.Settings()
	for i, p := range s.Five() {
		if want := backoff.Defaults().Five()[i]; p != want {
			t.Errorf("%s after grpc: %s, want the defaults' %s", p.Name, p.Describe(), want.Describe())
		}
	}
	grpc, _ := backoff.FindPreset("grpc")
	if c := s.Custom(); c.Name != "grpc" || !c.Same(grpc.Policy) {
		t.Errorf("your own policy: %s %s, want grpc's", c.Name, c.Describe())
	}
	note := m.SettingsPane().Note()
	if want := "Applied: multiplier x2 → x1.6, your own longest wait 16 s → 2 min, your own attempts 6 → 5, jitter none → spread:0.2."; note != want {
		t.Errorf("the note: got %q, want %q", note, want)
	}
	for _, leak := range []string{", longest wait", ", attempts", "Applied: longest wait", "Applied: attempts", "first wait"} {
		if strings.Contains(note, leak) {
			t.Errorf("the note %q names a change of the five's (%q)", note, leak)
		}
	}
	// Opened again, the form shows grpc's values in your own fields and
	// picks grpc as the preset.
	m = deliver(t, m, press("enter")...)
	if v := formValues(m)[pane.FieldName(backoff.CustomLongestWait)]; v != "2m" || m.SettingsPane().draft.preset != "grpc" {
		t.Errorf("opened again: your own longest wait %q, preset %q; want 2m and grpc", v, m.SettingsPane().draft.preset)
	}
}

// Your own fields are empty while they follow the five's, and an empty
// one keeps following: the five's first wait typed on the first page is
// custom's too. A value typed in one is custom's alone.
func TestYourOwnFieldsFollowTheFiveWhenEmpty(t *testing.T) {
	m := deliver(t, quick(t, 120, 40), press("5", "enter")...)
	for _, f := range []backoff.Field{backoff.CustomFirstWait, backoff.CustomLongestWait, backoff.CustomAttempts, backoff.CustomMaxElapsed} {
		if v := formValues(m)[pane.FieldName(f)]; v != "" {
			t.Errorf("%s at the defaults holds %q, want empty: it follows the five's", pane.FieldName(f), v)
		}
	}
	m = deliver(t, m, press("ctrl+u", "2s", "ctrl+s")...)
	s := m.Settings()
	if s.FirstWait != 2000 || s.CustomFirstWait != backoff.Follow || s.Custom().FirstWait != 2000 {
		t.Errorf("the five's first wait 2 s: five %d, custom's own %d, custom runs at %d; want 2000, Follow, 2000",
			s.FirstWait, s.CustomFirstWait, s.Custom().FirstWait)
	}
	if note := m.SettingsPane().Note(); note != "Applied: first wait 1 s → 2 s." {
		t.Errorf("the note: got %q", note)
	}

	m = deliver(t, m, press("enter")...)
	m = deliver(t, m, enters(slices.Index(formTitles(), pane.FieldName(backoff.CustomAttempts)))...)
	if f := focusedField(m); f != pane.FieldName(backoff.CustomAttempts) {
		t.Fatalf("the cursor is on %q, want your own attempts", f)
	}
	m = deliver(t, m, press("3", "ctrl+s")...)
	s = m.Settings()
	if s.Attempts != 6 || s.CustomAttempts != 3 || s.Custom().Attempts != 3 {
		t.Errorf("your own attempts 3: the five's %d, custom's own %d; want 6 and 3", s.Attempts, s.CustomAttempts)
	}
	if note := m.SettingsPane().Note(); note != "Applied: your own attempts 6 → 3." {
		t.Errorf("the note: got %q", note)
	}
	// Emptied again, it follows the five's once more.
	m = deliver(t, m, press("enter")...)
	m = deliver(t, m, enters(slices.Index(formTitles(), pane.FieldName(backoff.CustomAttempts)))...)
	m = deliver(t, m, press("ctrl+u", "ctrl+s")...)
	if s := m.Settings(); s.CustomAttempts != backoff.Follow || s.Custom().Attempts != 6 {
		t.Errorf("emptied: custom's own attempts %d, runs at %d; want Follow and 6", s.CustomAttempts, s.Custom().Attempts)
	}
}

// Your own longest wait that follows the five's cannot be shorter than
// your own first wait: the field says so beside it, and nothing applies.
func TestYourOwnLongestBelowYourOwnFirst(t *testing.T) {
	m := deliver(t, quick(t, 120, 40), press("5", "enter")...)
	m = deliver(t, m, enters(slices.Index(formTitles(), pane.FieldName(backoff.CustomFirstWait)))...)
	m = deliver(t, m, press("20s", "ctrl+s")...)
	if !m.SettingsPane().Editing() {
		t.Fatal("ctrl+s applied your own first wait 20 s over the five's longest 16 s")
	}
	want := "The five's longest wait, 16 s, is shorter than your own first wait: type your own longest"
	if view := m.View(); !strings.Contains(strings.Join(strings.Fields(view), " "), want) {
		t.Errorf("the view does not say %q:\n%s", want, view)
	}
	m = deliver(t, m, press("enter", "1m", "ctrl+s")...)
	if s := m.Settings(); m.SettingsPane().Editing() || s.CustomFirstWait != 20000 || s.CustomLongestWait != 60000 || s.LongestWait != 16000 {
		t.Errorf("your own 20 s to 1 min: editing %v, settings %+v", m.SettingsPane().Editing(), s)
	}
}

// Panes 1, 2 and 5 show your own policy's own waits, and the five's as
// they are.
func TestPanesShowYourOwnWaits(t *testing.T) {
	grpc, _ := backoff.FindPreset("grpc")
	s := backoff.Defaults().WithPreset(grpc)
	m := send(t, quick(t, 120, 80), SettingsAppliedMsg{Settings: s})
	crowd := strings.Join(strings.Fields(send(t, m, press("2")...).View()), " ")
	if want := "grpc is your own policy (pane 5, page 3): first 1 s, x1.6, longest 2 min, jitter spread:0.2, 5 attempts."; !strings.Contains(crowd, want) {
		t.Errorf("pane 2 does not say %q:\n%s", want, crowd)
	}
	if want := "each tries 6 times at most, but grpc 5"; !strings.Contains(crowd, want) {
		t.Errorf("pane 2 does not say %q:\n%s", want, crowd)
	}
	m1 := deliver(t, m, press("1")...)
	for range 7 { // from exponential, the policy chosen at first, back to grpc, the last
		if m1.ClientPane().Policy().Name == "grpc" {
			break
		}
		m1 = deliver(t, m1, press("left")...)
	}
	client := m1.View()
	if want := "wait = d - 0.2d to d + 0.2d at random, d = min(longest, first x 1.6^(n-1))"; !strings.Contains(client, want) {
		t.Errorf("pane 1 under grpc does not say %q:\n%s", want, client)
	}
	if !strings.Contains(client, "[grpc]") {
		t.Errorf("pane 1 did not choose grpc:\n%s", client)
	}
	for _, n := range []string{"2", "3", "4", "5"} {
		if lineWith(client, "      "+n+"  ") == "" {
			t.Errorf("pane 1 under grpc has no attempt %s:\n%s", n, client)
		}
	}
	if lineWith(client, "      6  ") != "" {
		t.Errorf("pane 1 under grpc has a sixth attempt, the five's:\n%s", client)
	}
	settings := send(t, m, press("5")...).View()
	for _, want := range []string{"longest wait 16 s", "longest wait 2 min", "attempts 6", "attempts 5", "the policy of one's own grpc"} {
		if !strings.Contains(strings.Join(strings.Fields(settings), " "), want) {
			t.Errorf("pane 5 does not say %q:\n%s", want, settings)
		}
	}
}

// A wait typed into your own field at the five's value is custom's own:
// the figures do not change, the note says so, and the five's changing
// later leaves it.
func TestYourOwnWaitAtTheFivesValue(t *testing.T) {
	m := deliver(t, quick(t, 120, 40), press("5", "enter")...)
	m = deliver(t, m, enters(slices.Index(formTitles(), pane.FieldName(backoff.CustomAttempts)))...)
	m = deliver(t, m, press("6", "ctrl+s")...)
	want := "Applied: your own policy waits as it did; its waits that you typed are its own now, the empty ones the five's."
	if note := m.SettingsPane().Note(); note != want {
		t.Errorf("the note: got %q, want %q", note, want)
	}
	m = deliver(t, m, press("enter", "down", "down", "ctrl+u", "8", "ctrl+s")...)
	if s := m.Settings(); s.Attempts != 8 || s.Custom().Attempts != 6 {
		t.Errorf("the five's attempts 8 after your own 6: five %d, custom %d; want 8 and 6", s.Attempts, s.Custom().Attempts)
	}
	if note := m.SettingsPane().Note(); note != "Applied: attempts 6 → 8." {
		t.Errorf("the note: got %q", note)
	}
}
