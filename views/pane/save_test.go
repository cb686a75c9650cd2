package pane

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

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
	p.Settings.Draws = backoff.Reference // the default is independent: the reference's need the flag
	got := PlanSaved("the plan", "my plan.toml", p)
	want := `Saved the plan as "my plan.toml". Open it again, or run its crowd:` + "\nretry-planner --plan 'my plan.toml'" +
		"\nretry-planner --plan 'my plan.toml' crowd\nThe same crowd without the file:\nretry-planner crowd --draws reference"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// --drop-expired, a switch, last: the crowd keeps it, each flag with
	// its value, times with their units (issue 24, item 5).
	q := plan.Default()
	q.Settings.Capacity, q.Settings.Queue, q.Settings.Timeout, q.Settings.DropExpired = 10, 5, 1500, true
	if got := PlanSaved("the plan", "q.toml", q); !strings.HasSuffix(got, "\nretry-planner crowd --capacity 10 --queue 5 --timeout 1.5s --drop-expired") {
		t.Errorf("a switch last: got %q, want the crowd to end --timeout 1.5s --drop-expired", got)
	}
	q.Settings.QueueOrder = backoff.LIFO
	lines := PlanSavedView("the plan", "q.toml", q, 40)
	if !strings.Contains(lines, "--queue-order lifo") || !strings.HasSuffix(strings.ReplaceAll(lines, " \\\n  ", " "), " --drop-expired --queue-order lifo") {
		t.Errorf("a switch among flags at 40 cells: got\n%s\nwant --queue-order with its value, after --drop-expired", lines)
	}
	if got := PlanNotSaved("p.toml", "permission\ndenied"); got != "Could not save p.toml: permission denied." {
		t.Errorf("PlanNotSaved: got %q, want one line", got)
	}
}

// A command laid out at any width keeps each flag with its value on one
// line where they fit together, ends every line but the last in " \", and
// reads back as itself once the shell joins the lines (issue 19, item 10).
func TestCommandLinesCopyWhole(t *testing.T) {
	p := plan.Default()
	p.Settings.Capacity, p.Settings.Load = 2000, 1500
	p.Policies = []string{"fixed", "exponential", "full jitter", "equal jitter", "decorrelated", "custom"}
	p.Seeds = 100
	parts := []string{"retry-planner crowd"}
	flags := plan.Flags(p)
	for i := 0; i+1 < len(flags); i += 2 {
		parts = append(parts, flags[i]+" "+flags[i+1])
	}
	whole := strings.Join(parts, " ")
	longest := 0
	for _, part := range parts {
		longest = max(longest, len(part))
	}
	for w := 1; w <= 200; w++ {
		got := CommandLines(parts, w)
		ls := strings.Split(got, "\n")
		for i, l := range ls {
			if w >= longest+4 && ansi.StringWidth(l) > w {
				t.Fatalf("width %d: line %q is wider", w, l)
			}
			if i < len(ls)-1 && !strings.HasSuffix(l, " \\") && w >= longest+4 {
				t.Fatalf("width %d: line %q goes on without a \\", w, l)
			}
		}
		if w < longest+4 {
			continue
		}
		joined := strings.Join(strings.Fields(strings.ReplaceAll(got, " \\\n", " ")), " ")
		if joined != whole {
			t.Errorf("width %d: %q joins to %q, want %q", w, got, joined, whole)
		}
		for _, part := range parts {
			if !strings.Contains(got, part) {
				t.Errorf("width %d: %q breaks %q", w, got, part)
			}
		}
		if len(whole) <= w && got != whole {
			t.Errorf("width %d: %q, want the command on one line", w, got)
		}
	}
	// A flag whose value does not fit beside it goes on the line before it.
	if got, want := CommandLines([]string{"retry-planner crowd", "--policies fixed,exponential"}, 24), "retry-planner crowd \\\n  --policies \\\n  fixed,exponential"; got != want {
		t.Errorf("a long value: got %q, want %q", got, want)
	}
}

// CommandParts keeps the program with its command and each flag with its
// value; a switch (a flag another follows) stands alone, as does a flag at
// the end.
func TestCommandParts(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
	}{
		{"retry-planner crowd --policies custom --drop-expired --queue-order lifo --seed 7",
			[]string{"retry-planner crowd", "--policies custom", "--drop-expired", "--queue-order lifo", "--seed 7"}},
		{"retry-planner --plain", []string{"retry-planner", "--plain"}},
		{"retry-planner crowd --drop-expired", []string{"retry-planner crowd", "--drop-expired"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := CommandParts(tt.cmd); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("CommandParts(%q): got %q, want %q", tt.cmd, got, tt.want)
		}
	}
}

// CommandParts loses and adds no word of the command; CommandLines lays
// the parts out in lines of at most w cells, each but the last ending in
// " \", that read back as the command where no part is wider than a line.
func FuzzCommandParts(f *testing.F) {
	f.Add("retry-planner crowd --policies custom --drop-expired --queue-order lifo --seed 7", 40)
	f.Add("retry-planner --plain", 10)
	f.Add("  a  -b c --d   ", 3)
	f.Fuzz(func(t *testing.T, cmd string, w int) {
		if !utf8.ValidString(cmd) || strings.Contains(cmd, "\\") { // the program's commands: UTF-8, no backslash of their own
			return
		}
		parts := CommandParts(cmd)
		if got, want := strings.Fields(strings.Join(parts, " ")), strings.Fields(cmd); !reflect.DeepEqual(got, want) && len(want) > 0 {
			t.Fatalf("CommandParts(%q) = %q: its words are %q, want %q", cmd, parts, got, want)
		}
		w = w%200 + 1
		if w < 1 {
			w += 200
		}
		widest := 0
		for _, p := range parts {
			widest = max(widest, ansi.StringWidth(p))
		}
		if len(parts) == 0 || widest+4 > w {
			return
		}
		lines := strings.Split(CommandLines(parts, w), "\n")
		for i, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Fatalf("width %d: line %q is wider", w, l)
			}
			if ends := strings.HasSuffix(l, " \\"); ends != (i < len(lines)-1) {
				t.Fatalf("width %d: line %d %q ends in \\ %v", w, i, l, ends)
			}
		}
		back := strings.ReplaceAll(strings.Join(lines, "\n"), " \\\n", " ")
		if got, want := strings.Fields(back), strings.Fields(cmd); !reflect.DeepEqual(got, want) {
			t.Fatalf("width %d: the lines read back %q, want %q", w, got, want)
		}
	})
}
