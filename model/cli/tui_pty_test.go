//go:build linux

package cli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// The full-screen program as a person runs it: the real process on a
// pseudo-terminal, ended by a key or a signal. Linux only: the terminal's
// modes are read with TCGETS.

// ptyRun is the program running on a pseudo-terminal.
type ptyRun struct {
	cmd    *exec.Cmd
	master *os.File // the terminal's side: what a person types and sees
	tty    *os.File // the program's side, kept open here to read its modes
	stderr bytes.Buffer
	drawn  chan struct{} // closed once the master reads nothing more

	mu  sync.Mutex
	out bytes.Buffer // everything the program wrote to the terminal
}

func (r *ptyRun) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.Write(p)
}

func (r *ptyRun) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// startOnPty starts the program with no arguments on a 100x30 terminal and
// waits for its first frame.
func startOnPty(t *testing.T) *ptyRun {
	t.Helper()
	// A terminal that lipgloss does not ask for its background colour,
	// which this test would have to answer.
	r := launchOnPty(t, "dumb")
	r.waitFor(t, "200 clients fail at 0 ms") // pane 2, where it opens
	return r
}

// launchOnPty starts the program with no arguments on a 100x30 terminal
// of type term, and returns at once.
func launchOnPty(t *testing.T, term string) *ptyRun {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{cmd: mainProcess(t), master: master, tty: tty, drawn: make(chan struct{})}
	r.cmd.Env = append(r.cmd.Env, "TERM="+term)
	r.cmd.Stdin, r.cmd.Stdout, r.cmd.Stderr = tty, tty, &r.stderr
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = io.Copy(r, master) // until the last tty is closed: EIO
		close(r.drawn)
	}()
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			_ = r.cmd.Process.Kill()
			_ = r.cmd.Wait()
		}
		tty.Close()
		master.Close()
	})
	return r
}

// waitFor waits until the terminal shows text.
func (r *ptyRun) waitFor(t *testing.T, text string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if strings.Contains(r.output(), text) {
			return
		}
	}
	t.Fatalf("the terminal never showed %q; it got %q", text, r.output())
}

// lflag is the terminal's local modes now.
func (r *ptyRun) lflag(t *testing.T) uint32 {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(r.tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag
}

// wait waits for the program to end and returns its exit status (-1 if a
// signal ended it).
func (r *ptyRun) wait(t *testing.T) int {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- r.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Fatal("the program did not end within 10 s")
	}
	return r.cmd.ProcessState.ExitCode()
}

// drain closes the program's side of the terminal and returns all that was
// written to it.
func (r *ptyRun) drain(t *testing.T) string {
	t.Helper()
	r.tty.Close()
	select {
	case <-r.drawn:
	case <-time.After(5 * time.Second):
		t.Fatal("the terminal's output did not end")
	}
	return r.output()
}

// Every way out of the full-screen program leaves the terminal as it found
// it: cooked mode with echo, the main screen, the cursor shown; and each
// has its exit status: 0 for a quit key, 128 plus the signal for a signal,
// nothing said.
func TestWaysOutRestoreTheTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the program on a pseudo-terminal")
	}
	tests := []struct {
		name   string
		key    string         // typed, or
		signal syscall.Signal // sent
		status int
	}{
		{name: "q", key: "q", status: 0},
		{name: "ctrl+c", key: "\x03", status: 0},
		{name: "SIGHUP", signal: syscall.SIGHUP, status: 129},
		{name: "SIGINT", signal: syscall.SIGINT, status: 130},
		{name: "SIGTERM", signal: syscall.SIGTERM, status: 143},
		{name: "SIGQUIT", signal: syscall.SIGQUIT, status: 131}, // issue 20.10: a trace, exit 2 and a raw terminal before
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := startOnPty(t)
			if l := r.lflag(t); l&(unix.ICANON|unix.ECHO) != 0 {
				t.Fatalf("while the program runs: ICANON %v, ECHO %v; want raw mode", l&unix.ICANON != 0, l&unix.ECHO != 0)
			}
			if tt.key != "" {
				if _, err := r.master.WriteString(tt.key); err != nil {
					t.Fatal(err)
				}
			} else if err := r.cmd.Process.Signal(tt.signal); err != nil {
				t.Fatal(err)
			}
			if status := r.wait(t); status != tt.status {
				t.Errorf("exit status: got %d, want %d", status, tt.status)
			}
			if l := r.lflag(t); l&unix.ICANON == 0 || l&unix.ECHO == 0 {
				t.Errorf("after: ICANON %v, ECHO %v; want both on", l&unix.ICANON != 0, l&unix.ECHO != 0)
			}
			out := r.drain(t)
			if restored := "\x1b[?1049l\x1b[?25h"; !strings.HasSuffix(out, restored) {
				t.Errorf("the terminal's output ends %q, want it to end leaving the alternate screen and showing the cursor, %q", out[max(0, len(out)-80):], restored)
			}
			if r.stderr.Len() > 0 {
				t.Errorf("stderr: got %q, want nothing", r.stderr.String())
			}
			if strings.Contains(out, "killed") || strings.Contains(out, "interrupted") {
				t.Errorf("the terminal shows a message: %q", out[max(0, len(out)-200):])
			}
		})
	}
}

// Issue 20.10: on a terminal that answers no query (neither its
// background colour nor where its cursor is), the first frame comes at
// once, not after a query's 5 s timeout, and a key typed before it is
// not lost: 1, typed at once, opens pane 1.
func TestSilentTerminalFirstFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the program on a pseudo-terminal")
	}
	start := time.Now()
	r := launchOnPty(t, "xterm-256color")
	if _, err := r.master.WriteString("1"); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "Client 1 of 200")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("pane 1 came %v after the start, want well under the 5 s a query waits", d)
	}
	if strings.Contains(r.output(), "\x1b]11;?") || strings.Contains(r.output(), "\x1b[6n") {
		t.Errorf("the program asked the terminal: %q", r.output()[:min(len(r.output()), 200)])
	}
	if _, err := r.master.WriteString("q"); err != nil {
		t.Fatal(err)
	}
	if status := r.wait(t); status != 0 {
		t.Errorf("exit status %d, want 0", status)
	}
}
