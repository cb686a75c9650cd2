package words

import "testing"

func TestShellWordAndShownFile(t *testing.T) {
	tests := []struct{ name, shell, shown string }{
		{"retry-plan.toml", "retry-plan.toml", "retry-plan.toml"},
		{"plans/a_b+c.toml", "plans/a_b+c.toml", "plans/a_b+c.toml"},
		{"my plan.toml", "'my plan.toml'", `"my plan.toml"`},
		{"it's.toml", `'it'\''s.toml'`, "it's.toml"},
		{"$HOME.toml", "'$HOME.toml'", "$HOME.toml"},
		{"a\u202eb", "'a\u202eb'", `"a\u202eb"`},
		{"", "''", `""`},
		// Not format characters, yet unseen: escaped where strconv.Quote
		// would leave them as they are.
		{"a\u3164.toml", "'a\u3164.toml'", `"a\u3164.toml"`},
		{"b\u2800.toml", "'b\u2800.toml'", `"b\u2800.toml"`},
	}
	for _, tt := range tests {
		if got := ShellWord(tt.name); got != tt.shell {
			t.Errorf("ShellWord(%q): got %s, want %s", tt.name, got, tt.shell)
		}
		if got := ShownFile(tt.name); got != tt.shown {
			t.Errorf("ShownFile(%q): got %s, want %s", tt.name, got, tt.shown)
		}
	}
}
