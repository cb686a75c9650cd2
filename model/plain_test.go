package model

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/plain"
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
	if !strings.Contains(got, plain.JobsTooMany) {
		t.Fatalf("half a million jobs: want %q", plain.JobsTooMany)
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
	head := plain.Title + "\n" + plain.Tagline + "\n\n" + plain.Menu + "\n" + plain.ChoicePrompt
	f.Fuzz(func(t *testing.T, input []byte) {
		got := plainScreen(t, input)
		if !strings.HasPrefix(got, head) {
			t.Fatalf("the screen must open with the title and the menu, got %q", got[:min(len(got), 200)])
		}
		if !strings.HasSuffix(got, "\n"+plain.Bye+"\n") && !strings.HasSuffix(got, "> \n") {
			t.Fatalf("the screen must end with %q or a closed prompt, got %q", plain.Bye, got[max(0, len(got)-200):])
		}
		if again := plainScreen(t, input); again != got {
			t.Fatal("the same input gave two screens")
		}
	})
}

// repeated is pattern over and over to n bytes, made as it is read: a line
// of it is never in memory.
type repeated struct {
	pattern string
	left    int
	at      int // where in pattern the next byte is
}

func (r *repeated) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	if len(r.pattern) < 4096 { // so that a read copies a block, not a byte
		r.pattern = strings.Repeat(r.pattern, 4096/len(r.pattern)+1)
	}
	n := 0
	for n < len(p) && r.left > 0 {
		c := copy(p[n:min(len(p), n+r.left)], r.pattern[r.at:])
		n, r.left, r.at = n+c, r.left-c, (r.at+c)%len(r.pattern)
	}
	return n, nil
}

// streamCheck compares what is written to it with want as it comes,
// keeping nothing but where the first difference is.
type streamCheck struct {
	want    io.Reader
	written int
	differs int // the offset of the first difference, or -1
	buf     []byte
}

func (c *streamCheck) Write(p []byte) (int, error) {
	if len(c.buf) < len(p) {
		c.buf = make([]byte, len(p))
	}
	n, _ := io.ReadFull(c.want, c.buf[:len(p)])
	if c.differs < 0 && !bytes.Equal(p, c.buf[:n]) {
		i := 0
		for i < n && p[i] == c.buf[i] {
			i++
		}
		c.differs = c.written + i
	}
	c.written += len(p)
	return len(p), nil
}

// A line of 50 MB streams through --plain: it is echoed whole, answered
// as the reference answers it, and costs the session no more than a few
// MiB of memory in all, however long it is.
func TestPlainStreamsALongLine(t *testing.T) {
	size := 50 << 20
	if testing.Short() {
		size = 5 << 20
	}
	spaces := func(n int) io.Reader { return &repeated{pattern: " ", left: n} }
	text := strings.NewReader
	tests := []struct {
		name          string
		before, after string             // the session around the long line
		long          func() []io.Reader // the long line, made as it is read, in parts
		short         string             // a line the reference answers the same
		answer        string             // --plain's own answer instead, for a short that is refused as malformed
	}{
		{"spaces around a choice", "", "6\n", func() []io.Reader { return []io.Reader{spaces(size / 2), text("2"), spaces(size / 2)} }, "2", ""},
		{"digits at the choice", "", "6\n", func() []io.Reader { return []io.Reader{&repeated{pattern: "9", left: size}} }, "99999999", ""},
		{"spaces around a number", "1\nexponential\n", "6\n", func() []io.Reader { return []io.Reader{spaces(size / 2), text("7"), spaces(size / 2)} }, "7", ""},
		{"spaces inside a policy", "1\n", "6\n", func() []io.Reader { return []io.Reader{text("full"), spaces(size), text("jitter")} }, "full  jitter", ""},
		{"jobs between spaces", "4\n", "6\n", func() []io.Reader {
			return []io.Reader{spaces(size / 2), text("alpha:0"), spaces(size / 2), text("bravo:2 ")}
		}, "alpha:0 bravo:2", ""},
		{"too many jobs", "4\n", "6\n", func() []io.Reader { return []io.Reader{&repeated{pattern: "a:1 ", left: size}} }, strings.Repeat("a:1 ", 9), ""},
		{"a malformed job at the end", "4\n", "6\n", func() []io.Reader { return []io.Reader{&repeated{pattern: "a:1 ", left: size}, text("b:x")} }, "a:1 b:x", ""},
		{"a malformed job at the start", "4\n", "6\n", func() []io.Reader { return []io.Reader{text("b:12345 "), &repeated{pattern: "a:1 ", left: size}} }, "b:12345", ""},
		// The one answer that is not the reference's: it would run the job
		// and print its name, which --plain did not keep.
		{"a job with a long name", "4\n", "6\n", func() []io.Reader { return []io.Reader{&repeated{pattern: "n", left: size}, text(":2")} }, "x", plain.JobNamesTooLong(jobNamesKept)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLongLine(t, tt.before, tt.long, tt.short, tt.answer, tt.after)
		})
	}
}

// checkLongLine runs the session before, long, after. Its screen must be
// that of before, short, after, with long echoed where short is (and, if
// answer is set, answer for short's JobsFormat), and the session must
// allocate a bounded amount in all. The line is made as the session reads
// it, and its echo compared as it comes: the test holds neither.
func checkLongLine(t *testing.T, before string, long func() []io.Reader, short, answer, after string) {
	t.Helper()
	head := strings.TrimSuffix(plainScreen(t, []byte(before)), "\n") // ends with the prompt
	whole := plainScreen(t, []byte(before+short+"\n"+after))
	if !strings.HasPrefix(whole, head+short+"\n") {
		t.Fatalf("the session with %q does not begin as the session before it", short)
	}
	tail := whole[len(head)+len(short):]
	if answer != "" {
		tail = strings.Replace(tail, "\n"+plain.JobsFormat+"\n", "\n"+answer+"\n", 1)
	}
	screen := &streamCheck{want: io.MultiReader(append(append([]io.Reader{strings.NewReader(head)}, long()...), strings.NewReader(tail))...), differs: -1}
	input := io.MultiReader(append(append([]io.Reader{strings.NewReader(before)}, long()...), strings.NewReader("\n"+after))...)

	stop := sampleHeap()
	var start, end runtime.MemStats
	runtime.ReadMemStats(&start)
	err := NewPlain(input, screen, true, backoff.Defaults()).Run()
	runtime.ReadMemStats(&end)
	top := stop()
	if err != nil {
		t.Fatal(err)
	}
	if screen.differs >= 0 {
		t.Errorf("the screen differs from the expected at byte %d of %d", screen.differs, screen.written)
	}
	if rest, _ := io.Copy(io.Discard, screen.want); rest > 0 {
		t.Errorf("the screen is %d bytes short of the expected", rest)
	}
	const bound = 8 << 20
	if got := end.TotalAlloc - start.TotalAlloc; got > bound {
		t.Errorf("the session allocated %d bytes in all, want at most %d", got, bound)
	}
	t.Logf("allocated %d KiB in all; the heap peaked %d KiB above the %d KiB before (sampled every ms)",
		(end.TotalAlloc-start.TotalAlloc)>>10, (top-min(top, start.HeapAlloc))>>10, start.HeapAlloc>>10)
}

// sampleHeap samples the heap's size every millisecond until stop, which
// returns the most it saw.
func sampleHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak.Load()
	}
}

// A line of jobs keeps its names up to jobNamesKept bytes in all: a name
// that fits runs under its whole name, one that does not is cut and said
// so. What decides a word's form is kept whatever its length.
func TestJobsLineKeepsNamesToTheLimit(t *testing.T) {
	n := func(k int) string { return strings.Repeat("n", k) }
	tests := []struct {
		name string
		line string
		want string // the line as readJobs gets it
		cut  bool
	}{
		{"a name of the limit", n(jobNamesKept) + ":1", n(jobNamesKept) + ":1", false},
		{"a name past it", n(jobNamesKept+1) + ":1", n(jobNamesKept) + ":1", true},
		{"two that pass it together", "  " + n(jobNamesKept/2) + ":fatal   " + n(jobNamesKept/2+1) + ":2 ", n(jobNamesKept/2) + ":fatal " + n(jobNamesKept/2) + ":2", true},
		{"a long rest", "a:" + n(100), "a:nnnnnn", false},
		{"no name", ":" + n(100), ":nnnnnn", false},
		{"no colon", n(jobNamesKept + 5), n(jobNamesKept), true},
		{"words after the ninth: only a malformed one", strings.Repeat("a:1 ", 12) + "bad:1x a:2 :3", strings.TrimSpace(strings.Repeat("a:1 ", 9)) + " x:1x", false},
	}
	for _, tt := range tests {
		var l jobsLine
		for piece := range slices.Chunk([]byte(tt.line), 4096) {
			l.take(piece)
		}
		got, cut := l.line()
		if got != tt.want || cut != tt.cut {
			t.Errorf("%s: got %.40q... (%d bytes), cut %v; want %.40q... (%d bytes), cut %v", tt.name, got, len(got), cut, tt.want, len(tt.want), tt.cut)
		}
	}
}

// Read in pieces of any size, a line gives the answer that the whole line,
// held in memory, gives: the same trimmed answer to the menu, a policy or
// a number (as far as answerKept), and the same jobs or message to the
// jobs prompt.
func FuzzLineReaders(f *testing.F) {
	for _, s := range []string{"  1  ", "full  jitter", "alpha:0 bravo:2 charlie:9 delta:fatal", strings.Repeat("a:1 ", 12) + "b:x",
		" :1 a: a::1 a:1000 a:FATAL a:fatal:x ", "a:0001 b:12345678 c:fatalx", "\r", "x\xff:1 \xfe:fatal"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, line string, piece uint8) {
		if strings.Contains(line, "\n") {
			return
		}
		var answer trimmed
		var jl jobsLine
		for p := range slices.Chunk([]byte(line), int(piece)+1) {
			answer.take(p)
			jl.take(p)
		}
		want := strings.Trim(line, " ")
		if got := string(answer.kept); got != want[:min(len(want), answerKept)] {
			t.Errorf("%q: answer %q, want %q", line, got, want)
		}
		short, cut := jl.line()
		gotJobs, gotMsg, gotRefused := readJobs(short)
		wantJobs, wantMsg, wantRefused := readJobs(line)
		if cut || gotMsg != wantMsg || gotRefused != wantRefused || !slices.Equal(gotJobs, wantJobs) {
			t.Errorf("%q: read as %q (cut %v): %v %q; want %v %q", line, short, cut, gotJobs, gotMsg, wantJobs, wantMsg)
		}
	})
}

// failingReader gives its text, then fails as a folder does.
type failingReader struct{ text string }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.text == "" {
		return 0, syscall.EISDIR
	}
	n := copy(p, r.text)
	r.text = r.text[n:]
	return n, nil
}

// Issue 20.10: a read that fails ends the session with an *InputError,
// mid-line too; the end of the input ends it cleanly, as before.
func TestPlainReadFailure(t *testing.T) {
	for _, in := range []string{"", "2\n", "2\n1"} {
		var out strings.Builder
		err := NewPlain(&failingReader{in}, &out, true, backoff.Defaults()).Run()
		var ie *InputError
		if !errors.As(err, &ie) || !errors.Is(err, syscall.EISDIR) {
			t.Errorf("input %q, then a failure: got %v, want an *InputError of EISDIR", in, err)
		}
	}
	if err := NewPlain(strings.NewReader("2\n1"), io.Discard, true, backoff.Defaults()).Run(); err != nil {
		t.Errorf("the end of the input: %v, want a clean end", err)
	}
}
