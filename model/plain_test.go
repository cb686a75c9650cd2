package model

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views"
)

func plainScreen(t testing.TB, input []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := NewPlain(bytes.NewReader(input), &out, true, backoff.Defaults()).Run(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out.String()
}

// Every session in testdata/sessions gives the reference's screen, byte for
// byte.
func TestPlainSessions(t *testing.T) {
	ins, err := filepath.Glob("../testdata/sessions/*.in")
	if err != nil || len(ins) < 22 {
		t.Fatalf("want at least 22 sessions, got %d (%v)", len(ins), err)
	}
	for _, in := range ins {
		t.Run(filepath.Base(in), func(t *testing.T) {
			input, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(in, ".in") + ".screen")
			if err != nil {
				t.Fatal(err)
			}
			if got := plainScreen(t, input); got != string(want) {
				t.Errorf("screen differs from the reference's at byte %d:\n%s", firstDifference(got, string(want)), lineDiff(got, string(want)))
			}
		})
	}
}

func firstDifference(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// lineDiff shows the first differing line of each.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + "\n got: " + strings.ToValidUTF8(gl, "?") + "\nwant: " + strings.ToValidUTF8(wl, "?")
		}
	}
	return ""
}

// A 2 MB line is only a wrong answer.
func TestPlainLongLine(t *testing.T) {
	long := strings.Repeat("9", 2<<20)
	got := plainScreen(t, []byte(long+"\n6\n"))
	want := strings.Replace(plainScreen(t, []byte("x\n6\n")), "choice> x\n", "choice> "+long+"\n", 1)
	if got != want {
		t.Fatalf("a 2 MB answer: screen of %d bytes differs from the expected %d", len(got), len(want))
	}
	got = plainScreen(t, []byte("4\n"+strings.Repeat("a:1 ", 1<<19)+"\n6\n"))
	if !strings.Contains(got, views.JobsTooMany) {
		t.Fatalf("half a million jobs: want %q", views.JobsTooMany)
	}
}

// On a terminal the terminal echoes the answers; the session must not.
func TestPlainWithoutEcho(t *testing.T) {
	var out bytes.Buffer
	if err := NewPlain(strings.NewReader("1\nexponential\n1\n6\n"), &out, false, backoff.Defaults()).Run(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "> exponential") || !strings.Contains(out.String(), "client number (1 to 200)> Client 1, exponential") {
		t.Fatalf("without echo the answers must not be written back:\n%s", out.String())
	}
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n <= 0 {
		return 0, os.ErrClosed
	}
	w.n--
	return len(p), nil
}

// A screen that cannot be written ends the session with the error, at once.
func TestPlainStopsWhenTheScreenIsGone(t *testing.T) {
	endless := strings.Repeat("2\n", 100000)
	err := NewPlain(strings.NewReader(endless), &failingWriter{n: 3}, true, backoff.Defaults()).Run()
	if err == nil {
		t.Fatal("got nil, want the write error")
	}
}

// Whatever the input, the session ends, and it ends either with "Bye." or,
// at the end of the input, with the prompt's line closed.
func FuzzPlain(f *testing.F) {
	ins, _ := filepath.Glob("../testdata/sessions/*.in")
	for _, in := range ins {
		if b, err := os.ReadFile(in); err == nil && len(b) < 4096 {
			f.Add(b)
		}
	}
	f.Add([]byte("5\n1\n1\n12\n1000\n0\n0\n2\n3\nfull jitter\n"))
	head := views.Title + "\n" + views.Tagline + "\n\n" + views.Menu + "\n" + views.ChoicePrompt
	f.Fuzz(func(t *testing.T, input []byte) {
		got := plainScreen(t, input)
		if !strings.HasPrefix(got, head) {
			t.Fatalf("the screen must open with the title and the menu, got %q", got[:min(len(got), 200)])
		}
		if !strings.HasSuffix(got, "\n"+views.Bye+"\n") && !strings.HasSuffix(got, "> \n") {
			t.Fatalf("the screen must end with %q or a closed prompt, got %q", views.Bye, got[max(0, len(got)-200):])
		}
		if again := plainScreen(t, input); again != got {
			t.Fatal("the same input gave two screens")
		}
	})
}
