package cli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestMainProcess is not a test: the tests below start the test binary
// again with RETRY_PLANNER_MAIN=1 to run the program as a real process, as
// main.go runs it.
func TestMainProcess(t *testing.T) {
	if os.Getenv("RETRY_PLANNER_MAIN") != "1" {
		t.Skip("runs only as a child of another test")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	// What main.go does: a reader that goes away is a write error, not a
	// signal.
	signal.Ignore(syscall.SIGPIPE)
	code := Run(args, os.Stdin, os.Stdout, os.Stderr)
	// The peak resident set of this program's own memory, for a test that
	// measures it (TestEstimateAgainstRealRuns): the rusage's max RSS of
	// a child also holds its parent's at the fork.
	if out := os.Getenv("RETRY_PLANNER_PEAK"); out != "" {
		if status, err := os.ReadFile("/proc/self/status"); err == nil {
			for _, line := range strings.Split(string(status), "\n") {
				if strings.HasPrefix(line, "VmHWM:") {
					os.WriteFile(out, []byte(strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))), 0o600)
				}
			}
		}
	}
	os.Exit(code)
}

func mainProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestMainProcess$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "RETRY_PLANNER_MAIN=1")
	return cmd
}

// The real program, its input a file that is not a terminal: it echoes each
// answer and gives the reference's screen.
func TestPlainProcess(t *testing.T) {
	for _, session := range []string{"basic", "bad-input", "crlf", "eof-at-client"} {
		in, err := os.Open(filepath.Join(repoTestdata, "sessions") + "/" + session + ".in")
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(repoTestdata, "sessions") + "/" + session + ".screen")
		if err != nil {
			t.Fatal(err)
		}
		cmd := mainProcess(t, "--plain")
		var stdout, stderr bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = in, &stdout, &stderr
		err = cmd.Run()
		in.Close()
		if err != nil || stderr.Len() > 0 {
			t.Fatalf("%s: got %v and stderr %q, want exit 0 and nothing on stderr", session, err, stderr.String())
		}
		if stdout.String() != string(want) {
			t.Errorf("%s: the screen differs from the reference's", session)
		}
	}
}

// A reader that stops early (| head) ends the program quietly: exit status
// 0, nothing on standard error.
func TestPlainProcessReaderGoesAway(t *testing.T) {
	cmd := mainProcess(t, "--plain")
	cmd.Stdin = strings.NewReader(strings.Repeat("2\n3\nequal jitter\n", 20000))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 500)
	if _, err := io.ReadFull(stdout, head); err != nil {
		t.Fatal(err)
	}
	stdout.Close()
	if err := cmd.Wait(); err != nil || stderr.Len() > 0 {
		t.Fatalf("got %v and stderr %q, want exit 0 and nothing on stderr", err, stderr.String())
	}
}

func TestPlainThroughRun(t *testing.T) {
	in, err := os.ReadFile(filepath.Join(repoTestdata, "sessions", "basic.in"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join(repoTestdata, "sessions", "basic.screen"))
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"--plain"}, bytes.NewReader(in), &stdout, &stderr); code != 0 || stdout.String() != string(want) || stderr.Len() > 0 {
		t.Fatalf("run --plain: got status %d, stderr %q, screen equal %v", code, stderr.String(), stdout.String() == string(want))
	}
}

// Issue 20.10: input that cannot be read (standard input a folder: read
// fails with EISDIR) is no end of input: one line on stderr, exit 1, after
// the screen as far as it got.
func TestPlainReadErrorIsAFailure(t *testing.T) {
	dir, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	cmd := mainProcess(t, "--plain")
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	_ = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 1 || stderr.String() != "retry-planner: reading standard input: is a directory\n" {
		t.Errorf("--plain < a folder: exit %d, stderr %q; want 1 and one line saying it could not read", code, stderr.String())
	}
	if !strings.HasSuffix(stdout.String(), "choice> \n") {
		t.Errorf("the screen ends %q, want the prompt's line ended", stdout.String()[max(0, stdout.Len()-40):])
	}
	// The end of the input is still a clean end.
	cmd = mainProcess(t, "--plain")
	cmd.Stdin = strings.NewReader("2\n")
	if err := cmd.Run(); err != nil {
		t.Errorf("--plain at the end of its input: %v, want exit 0", err)
	}
}
