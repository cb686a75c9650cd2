//go:build linux

package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// Issue 19, item 9: crowd --seeds says on standard error, when it is a
// terminal, how many seeds are done while they run, one line written over
// itself and cleared at the end; the report is the same byte for byte,
// and off a terminal nothing is said (every report test's empty stderr).
func TestSeedsProgressOnATerminal(t *testing.T) {
	tty, shown := aTerminal(t)
	args := []string{"crowd", "--seeds", "60", "--clients", "200000", "--format", "json"}
	var out bytes.Buffer
	if code := Run(args, strings.NewReader(""), &out, tty); code != 0 {
		t.Fatalf("%q: exit %d", args, code)
	}
	said := shown()
	lines := regexp.MustCompile(`retry-planner: the spread: (\d+) of 60 seeds done`).FindAllStringSubmatch(said, -1)
	if len(lines) == 0 || !strings.HasSuffix(said, "\r\x1b[K") {
		t.Fatalf("the terminal showed %q, want the seeds done, the line cleared at the end", said)
	}
	if strings.Contains(said, "\n") {
		t.Errorf("the progress takes more than one line: %q", said)
	}
	if want := reportOf(t, args...); out.String() != want {
		t.Errorf("with the progress on a terminal the report differs")
	}
}
