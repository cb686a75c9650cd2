package cli

import (
	"bytes"
	"encoding/base64"
	"os"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/retryplanner/retry-planner/views/pane"
)

// Without a terminal the full-screen program says, in one line, to use
// --plain, and exits with status 2.
func TestNotATerminal(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if got := Run(nil, strings.NewReader(""), &stdout, &stderr); got != 2 {
		t.Errorf("status: got %d, want 2", got)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout: got %q, want nothing", stdout.String())
	}
	msg := stderr.String()
	if strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, "\n") || !strings.Contains(msg, "--plain") {
		t.Errorf("stderr: got %q, want one line that says to use --plain", msg)
	}
}

func TestHelpListsFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if got := Run([]string{"--help"}, strings.NewReader(""), &stdout, &stderr); got != 0 {
		t.Errorf("status: got %d, want 0", got)
	}
	if !strings.Contains(stdout.String(), "--plain") {
		t.Errorf("--help does not list --plain:\n%s", stdout.String())
	}
}

type panicky struct{}

func (panicky) Init() tea.Cmd                       { return nil }
func (panicky) Update(tea.Msg) (tea.Model, tea.Cmd) { return panicky{}, nil }
func (panicky) View() string                        { panic("drawing failed") }

// A panic in the model ends the program with status 1, after the terminal
// is restored.
func TestPanicIsAnError(t *testing.T) {
	// bubbletea writes the panic to standard output and its stack to
	// standard error.
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	stdout, stderrFile := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = devNull, devNull
	defer func() { os.Stdout, os.Stderr = stdout, stderrFile }()

	var out, stderr bytes.Buffer
	p := tea.NewProgram(panicky{}, tea.WithInput(nil), tea.WithOutput(&out), tea.WithoutSignalHandler())
	restored := false
	if got := runProgram(p, &stderr, func() { restored = true }); got != 1 {
		t.Errorf("status: got %d, want 1", got)
	}
	if !restored {
		t.Error("the terminal was not restored")
	}
	if !strings.Contains(stderr.String(), "panic") {
		t.Errorf("stderr: got %q, want it to mention the panic", stderr.String())
	}
}

// colours are the colours set in the styles, the help's included: each
// style's foreground and background that is not lipgloss.NoColor, by name.
func colours(st *pane.Styles) []string {
	var set []string
	var walk func(name string, v reflect.Value)
	walk = func(name string, v reflect.Value) {
		if style, ok := v.Interface().(lipgloss.Style); ok {
			for _, c := range []lipgloss.TerminalColor{style.GetForeground(), style.GetBackground()} {
				if c != (lipgloss.NoColor{}) {
					set = append(set, name)
				}
			}
			return
		}
		if v.Kind() != reflect.Struct {
			return
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				walk(name+"."+f.Name, v.Field(i))
			}
		}
	}
	walk("Styles", reflect.ValueOf(st).Elem())
	return set
}

// With NO_COLOR the styles have no colour at all; without it they do. The
// output is a file, not a terminal, so the colour profile stays as it was.
func TestChooseStylesNoColor(t *testing.T) {
	profile, dark := lipgloss.ColorProfile(), lipgloss.HasDarkBackground()
	t.Cleanup(func() {
		lipgloss.SetColorProfile(profile)
		lipgloss.SetHasDarkBackground(dark)
	})
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	render := func(st *pane.Styles) string {
		lipgloss.SetColorProfile(termenv.ANSI) // as a 16-colour terminal would
		defer lipgloss.SetColorProfile(profile)
		return st.Bar.Render("█") + st.ActiveTab.Render("1")
	}

	t.Setenv("NO_COLOR", "1")
	st := chooseStyles(out)
	if got := lipgloss.ColorProfile(); got != profile {
		t.Errorf("NO_COLOR: colour profile got %v, want %v as before", got, profile)
	}
	if set := colours(st); len(set) != 0 {
		t.Errorf("NO_COLOR: colours set in %v, want none", set)
	}
	if got := render(st); strings.Contains(got, "\x1b[3") || strings.Contains(got, "\x1b[4") || strings.Contains(got, "\x1b[9") {
		t.Errorf("NO_COLOR: bar and tab render as %q, want no colour codes", got)
	}

	t.Setenv("NO_COLOR", "")
	st = chooseStyles(out)
	if got := lipgloss.ColorProfile(); got != profile {
		t.Errorf("colour: colour profile got %v, want %v as before", got, profile)
	}
	if set := colours(st); len(set) == 0 {
		t.Error("without NO_COLOR: no colour set, want the palette")
	}
	if got := render(st); !strings.Contains(got, "\x1b[") {
		t.Errorf("without NO_COLOR: bar and tab render as %q, want colour codes", got)
	}
}

// The advice's c key copies with OSC 52 where the terminal may take it
// (wrapped for screen), and not at all where it is known not to: the
// program then shows the command to select.
func TestClipboard(t *testing.T) {
	text := "retry-planner crowd --seed 7"
	sent := base64.StdEncoding.EncodeToString([]byte(text))
	tests := []struct {
		term, program string
		want          string // "" for no clipboard
	}{
		{"xterm-256color", "", "\x1b]52;c;" + sent + "\x07"},
		{"tmux-256color", "", "\x1b]52;c;" + sent + "\x07"},
		{"xterm-kitty", "", "\x1b]52;c;" + sent + "\x07"},
		{"screen-256color", "", "\x1bP\x1b]52;c;" + sent + "\x07\x1b\\"},
		{"xterm-256color", "Apple_Terminal", ""},
		{"linux", "", ""},
		{"dumb", "", ""},
		{"vt100", "", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		env := map[string]string{"TERM": tt.term, "TERM_PROGRAM": tt.program}
		copyTo := clipboard(&out, func(k string) string { return env[k] })
		if (copyTo != nil) != (tt.want != "") {
			t.Errorf("TERM=%q TERM_PROGRAM=%q: a clipboard %v, want %v", tt.term, tt.program, copyTo != nil, tt.want != "")
			continue
		}
		if copyTo == nil {
			continue
		}
		if err := copyTo(text); err != nil || out.String() != tt.want {
			t.Errorf("TERM=%q: wrote %q (%v), want %q", tt.term, out.String(), err, tt.want)
		}
	}
}
