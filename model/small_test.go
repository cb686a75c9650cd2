package model

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

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
