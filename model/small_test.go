package model

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/plan"
	"github.com/retryplanner/retry-planner/views/pane"
)

// Issue 19, item 10: small things a newcomer met.

// At 80 columns every pane's footer keeps p and d.
func TestFootersKeepPinAndDrawsAt80(t *testing.T) {
	for _, p := range []string{"1", "2", "3", "4", "5"} {
		m := send(t, quick(t, 80, 24), press(p)...)
		footer := lines(m.View())[len(lines(m.View()))-1]
		for _, want := range []string{"p pin plan as A", "d draws", "? more keys • q quit"} {
			if !strings.Contains(footer, want) {
				t.Errorf("pane %s at 80 columns: footer %q does not hold %q", p, footer, want)
			}
		}
		if ansi.StringWidth(footer) > 80 {
			t.Errorf("pane %s: footer %q is wider than 80", p, footer)
		}
	}
}

// p in pane 3 says that the plan is pinned, as pane 2 does, until a change
// sets A beside B.
func TestPinSaysSoInPane3(t *testing.T) {
	m := send(t, quick(t, 100, 30), press("3", "p")...)
	if view := strings.Join(strings.Fields(m.View()), " "); !strings.Contains(view, pane.PinnedNote) {
		t.Errorf("p in pane 3 does not say the plan is pinned:\n%s", m.View())
	}
	m = send(t, m, press("d")...)
	if view := m.View(); strings.Contains(strings.Join(strings.Fields(view), " "), pane.PinnedNote) || !strings.Contains(view, "A: exponential") {
		t.Errorf("after d, pane 3 shows A and B, without the note:\n%s", view)
	}
}

// After s, each command is whole on its own lines: a flag never parts from
// its value, and a line that another continues ends in " \", so that the
// lines copied paste as one command; tab saves the pinned plan, A, instead.
func TestSaveShowsCommandsWholeAndSavesA(t *testing.T) {
	files := newMemFiles()
	m := saving(t, files, 80, 24, WithSeeds(0))
	m = deliver(t, m, press("p")...)
	m = deliver(t, m, applied(func(s *backoff.Settings) { s.Capacity, s.Load = 2000, 1500 }))
	a, ok := m.SavedPinned()
	if !ok {
		t.Fatal("a plan is pinned and differs, but SavedPinned has none")
	}
	m = deliver(t, m, press("s")...)
	if footer := lines(m.View())[len(lines(m.View()))-1]; !strings.Contains(footer, "tab plan A instead") {
		t.Errorf("footer while naming: %q, want it to offer plan A", footer)
	}
	m = deliver(t, m, press("tab")...)
	if got := bottom(m.View(), 1); !strings.HasPrefix(got, pane.SavePromptA+pane.DefaultPlanFileA) {
		t.Errorf("after tab: above the footer %q, want %q", got, pane.SavePromptA+pane.DefaultPlanFileA)
	}
	m = deliver(t, m, press("enter")...)
	if got := decodeSaved(t, files, pane.DefaultPlanFileA); !got.Equal(a) || got.Settings.Capacity != 0 {
		t.Errorf("plan A's file decodes to %+v, want A, %+v", got, a)
	}
	if _, there := files.file(pane.DefaultPlanFile); there {
		t.Error("saving A wrote the plan's file too")
	}
	frame := m.View()
	checkFits(t, frame, 80, 24)
	want := plan.CommandLine(a)
	var command []string
	for _, l := range lines(frame) {
		l = strings.TrimRight(l, " ")
		if strings.HasPrefix(l, "retry-planner crowd") || len(command) > 0 && strings.HasSuffix(command[len(command)-1], " \\") {
			command = append(command, l)
		}
	}
	joined := strings.Join(strings.Fields(strings.ReplaceAll(strings.Join(command, "\n"), " \\\n", " ")), " ")
	if joined != want || len(command) < 2 {
		t.Errorf("the crowd's command shows as %q, which joins to %q; want %q on lines that continue", command, joined, want)
	}
	for _, l := range command {
		for _, flag := range []string{"--policies", "--seeds"} {
			if strings.HasSuffix(strings.TrimSuffix(l, " \\"), flag) {
				t.Errorf("line %q parts %s from its value", l, flag)
			}
		}
	}
	if !strings.Contains(frame, "Saved plan A as "+pane.DefaultPlanFileA+".") {
		t.Errorf("the box does not say plan A was saved:\n%s", frame)
	}
}
