package words

import "testing"

// Issue 24, item 10: the words a line keeps together, and those it may
// break between.
func TestKeeps(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"40", "s", true},
		{"600", "ms;", true},
		{"1,000", "ms)", true},
		{"24.6", "s.", true},
		{"2", "min", true},
		{"min", "5", true}, // "2 min 5 s"
		{"1", "h", true},
		{"(3", "s", true},
		{"<=60", "s", true},
		{"*", "the", true},
		{"!!", "the", true},
		{"✓", "B", true},
		{"40", "seconds", false},
		{"40", "clients", false},
		{"s", "40", false},
		{"at", "40", false},
		{"not-", "through", false},
		{"-!", "x", true}, // two marks: a mark
		{"***", "x", false},
		{"a", "s", false},
		{"3.9x", "capacity", false},
		{"", "s", false},
	} {
		if got := Keeps(tt.a, tt.b); got != tt.want {
			t.Errorf("Keeps(%q, %q): got %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
