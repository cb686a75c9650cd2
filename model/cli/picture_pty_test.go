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
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer master.Close()
	defer tty.Close()
	var seen bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&seen, master)
		close(done)
	}()
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
	tty.Close()
	<-done
	if !strings.Contains(seen.String(), "<svg") || strings.Contains(seen.String(), "PNG") {
		t.Errorf("the terminal showed %d bytes, want the SVG and no PNG", seen.Len())
	}
	if _, err := os.Stat(file); err != nil {
		t.Errorf("--out: %v", err)
	}
}
