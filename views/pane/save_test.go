package pane

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/plan"
)

func TestWrapAtSpaces(t *testing.T) {
	tests := []struct {
		text string
		w    int
		want string
	}{
		{"retry-planner crowd --policies fixed,full-jitter --seeds 100", 30, "retry-planner crowd --policies\nfixed,full-jitter --seeds 100"},
		{"a b  c", 3, "a b\nc"},
		{"abcdefgh ij", 3, "abc\ndef\ngh\nij"},
		{"one\n\ntwo", 10, "one\n\ntwo"},
		{"界界", 1, "界\n界"},
		{"\u200b a", 5, "\u200b a"},
		{"anything", 0, ""},
	}
	for _, tt := range tests {
		if got := WrapAtSpaces(tt.text, tt.w); got != tt.want {
			t.Errorf("WrapAtSpaces(%q, %d): got %q, want %q", tt.text, tt.w, got, tt.want)
		}
	}
}

// A command line wrapped at any width keeps its words whole where they fit,
// never breaks at a hyphen, and reads back as itself with the breaks made
// spaces.
func TestWrapAtSpacesKeepsTheCommand(t *testing.T) {
	p := plan.Default()
	p.Settings.Capacity = 500
	p.Policies = []string{"fixed", "full jitter", "custom"}
	p.Seeds = 100
	cmd := plan.CommandLine(p)
	for w := 1; w <= len(cmd)+1; w++ {
		got := WrapAtSpaces(cmd, w)
		for _, l := range strings.Split(got, "\n") {
			if ansi.StringWidth(l) > w {
				t.Fatalf("width %d: line %q is wider", w, l)
			}
		}
		if w >= len("fixed,full-jitter,custom") && strings.Join(strings.Split(got, "\n"), " ") != cmd {
			t.Errorf("width %d: %q does not read back as %q", w, got, cmd)
		}
	}
}

func TestPlanSaved(t *testing.T) {
	p := plan.Default()
	p.Settings.Draws = backoff.Independent
	got := PlanSaved("my plan.toml", p)
	want := `Saved "my plan.toml". Open it again with: retry-planner --plan 'my plan.toml'` + "\nIts crowd as a command:\nretry-planner crowd --draws independent"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := PlanNotSaved("p.toml", "permission\ndenied"); got != "Could not save p.toml: permission denied." {
		t.Errorf("PlanNotSaved: got %q, want one line", got)
	}
}
