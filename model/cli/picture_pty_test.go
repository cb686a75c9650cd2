//go:build linux

package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// A PNG is refused on a terminal (it would fill it with bytes); an SVG, which
// is text, is not.
func TestPictureOnATerminal(t *testing.T) {
	tty, shown := aTerminal(t)
	var errb bytes.Buffer
	if code := Run([]string{"timeline", "--policy", "fixed", "--format", "png"}, strings.NewReader(""), tty, &errb); code != 2 ||
		errb.String() != "retry-planner: a PNG is not for a terminal: use --out FILE or redirect\n" {
		t.Errorf("a PNG to a terminal: exit %d, stderr %q; want 2 and the reason", code, errb.String())
	}
	errb.Reset()
	if code := Run([]string{"timeline", "--policy", "fixed", "--format", "svg"}, strings.NewReader(""), tty, &errb); code != 0 || errb.Len() > 0 {
		t.Errorf("an SVG to a terminal: exit %d, stderr %q; want 0", code, errb.String())
	}
	file := filepath.Join(t.TempDir(), "t.png")
	if code := Run([]string{"timeline", "--policy", "fixed", "--format", "png", "--out", file}, strings.NewReader(""), tty, &errb); code != 0 {
		t.Errorf("a PNG to --out from a terminal: exit %d, stderr %q; want 0", code, errb.String())
	}
	if seen := shown(); !strings.Contains(seen, "<svg") || strings.Contains(seen, "PNG") {
		t.Errorf("the terminal showed %d bytes, want the SVG and no PNG", len(seen))
	}
	if _, err := os.Stat(file); err != nil {
		t.Errorf("--out: %v", err)
	}
}

// aTerminal is a pseudo-terminal for a report to write to; shown closes it
// and returns all that it showed. Without one the test is skipped.
func aTerminal(t *testing.T) (tty *os.File, shown func() string) {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() {
		master.Close()
		tty.Close()
	})
	var seen bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&seen, master) // until the tty is closed
		close(done)
	}()
	return tty, func() string {
		tty.Close()
		<-done
		return seen.String()
	}
}
