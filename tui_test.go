package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Without a terminal the full-screen program says, in one line, to use
// --plain, and exits with status 2.
func TestNotATerminal(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if got := run(nil, strings.NewReader(""), &stdout, &stderr); got != 2 {
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
	if got := run([]string{"--help"}, strings.NewReader(""), &stdout, &stderr); got != 0 {
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
