package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// longWrite is a report whose file takes a while to write: a timeline of
// a hundred thousand clients as JSON, a row a millisecond over 20 minutes
// (about 200 MB).
var longWrite = []string{"timeline", "--policy", "all", "--clients", "100000", "--slot", "1ms", "--every", "1ms", "--attempts", "20",
	"--first-wait", "1ms", "--longest", "10s", "--outage", "20m", "--format", "json", "--draws", "independent"}

// waitForBytes waits until target, or a hidden file beside it, holds at
// least n bytes: the report is writing.
func waitForBytes(t *testing.T, dir, target string, n int64) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() == target || strings.HasPrefix(e.Name(), "."+target+".") {
				if fi, err := e.Info(); err == nil && fi.Size() >= n {
					return e.Name()
				}
			}
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("no file beside %s reached %d bytes", target, n)
	return ""
}

// Issue 20.5: a report killed while it writes its file leaves nothing
// behind: no partial file under the name (which the next run would refuse
// as there), no hidden file beside it; with --force the old file stays as
// it was. Each signal ends it with 128 plus its number. SIGPIPE, which the
// program ignores (a reader that goes away is a write error), does not
// stop it: the file is put in place whole, nothing beside it.
func TestKilledWhileWritingLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200 MB reports")
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE} {
		for _, force := range []bool{false, true} {
			dir := t.TempDir()
			target := filepath.Join(dir, "new.json")
			if force {
				writeFile(t, dir, "new.json", "the old report\n")
			}
			args := append(slices.Clone(longWrite), "--out", target, "--save-plan", filepath.Join(dir, "plan.toml"))
			if force {
				args = append(args, "--force")
			}
			cmd := mainProcess(t, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitForBytes(t, dir, "new.json", 1<<20)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			names := listDir(t, dir)
			switch {
			case sig == syscall.SIGPIPE:
				if code != 0 || !slices.Equal(names, []string{"new.json", "plan.toml"}) {
					t.Errorf("%v, force %v: exit %d, the folder holds %q; want 0 and the report and plan alone", sig, force, code, names)
				}
				if fi, err := os.Stat(target); err != nil || fi.Size() < 100<<20 {
					t.Errorf("%v, force %v: the report: %v, want it whole", sig, force, err)
				}
			case force:
				if code != 128+int(sig) || !slices.Equal(names, []string{"new.json"}) || readFile(t, target) != "the old report\n" {
					t.Errorf("%v, force: exit %d, the folder holds %q; want %d and the old report alone, as it was", sig, code, names, 128+int(sig))
				}
			default:
				if code != 128+int(sig) || len(names) != 0 {
					t.Errorf("%v: exit %d, the folder holds %q; want %d and nothing", sig, code, names, 128+int(sig))
				}
			}
			if sig != syscall.SIGPIPE && stderr.Len() > 0 {
				t.Errorf("%v, force %v: stderr %.300q, want nothing (the signal was asked for)", sig, force, stderr.String())
			}
		}
	}
}

// Issue 20.6: --out and --save-plan that name one file under two names are
// refused before anything runs, whether the file is there or not: by the
// file where it is (os.SameFile: a link, ./), by the cleaned absolute path
// where it is not.
func TestOneFileUnderTwoNames(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, there := range []bool{false, true} {
		if there {
			writeFile(t, dir, "r.txt", "the report\n")
			if err := os.Symlink("r.txt", "l.txt"); err != nil {
				t.Fatal(err)
			}
		}
		cases := [][2]string{{"r.txt", "./r.txt"}, {"r.txt", filepath.Join(dir, "r.txt")}, {"sub/../r.txt", "r.txt"}}
		if there {
			cases = append(cases, [2]string{"l.txt", "r.txt"})
		}
		for _, c := range cases {
			for _, force := range [][]string{nil, {"--force"}} {
				args := append([]string{"crowd", "--out", c[0], "--save-plan", c[1]}, force...)
				checkUsageError(t, args, "retry-planner: --out and --save-plan both name one file, "+shownFile(c[0])+" and "+shownFile(c[1])+": give each its own file\n")
			}
		}
		if got := listDir(t, dir); there && !slices.Equal(got, []string{"l.txt", "r.txt", "sub"}) || !there && !slices.Equal(got, []string{"sub"}) {
			t.Errorf("there %v: the folder holds %q, want nothing written", there, got)
		}
		if there && readFile(t, "r.txt") != "the report\n" {
			t.Errorf("the file was written over")
		}
	}
	// Two files are two files.
	if _, errs, code := runArgs(t, "", "crowd", "--out", "a.txt", "--save-plan", "sub/a.txt"); code != 0 {
		t.Errorf("two files: exit %d, stderr %q", code, errs)
	}
}

// Issue 20.7: a named pipe for --out or --save-plan is refused at once,
// with --force or without, never opened (opening it would block until a
// reader came); and so is the s key's save to one, asked to overwrite or
// not.
func TestNamedPipeIsRefused(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := syscall.Mkfifo("f.toml", 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	for _, flag := range []string{"--out", "--save-plan"} {
		for _, force := range [][]string{nil, {"--force"}} {
			args := append([]string{"crowd", flag, "f.toml"}, force...)
			done := make(chan struct{})
			go func() {
				defer close(done)
				checkUsageError(t, args, "retry-planner: "+flag+" f.toml: a named pipe (FIFO), not a regular file: remove it, or name another file\n")
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("%q: blocked on the named pipe", args)
			}
		}
	}
	for _, overwrite := range []bool{false, true} {
		done := make(chan error, 1)
		go func() { done <- newPlanFiles().Write("f.toml", []byte("x"), overwrite) }()
		select {
		case err := <-done:
			if err == nil || isExist(err) || !strings.Contains(err.Error(), "a named pipe (FIFO), not a regular file") {
				t.Errorf("the s key's save, overwrite %v: %v; want refused as a named pipe, with no question to overwrite", overwrite, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("the s key's save, overwrite %v: blocked on the named pipe", overwrite)
		}
	}
	if got := listDir(t, dir); !slices.Equal(got, []string{"f.toml"}) {
		t.Errorf("the folder holds %q, want the pipe alone", got)
	}
}

// A device is written in place, as before: --out /dev/null --force.
func TestDeviceIsWrittenInPlace(t *testing.T) {
	if _, errs, code := runArgs(t, "", "crowd", "--save-plan", os.DevNull, "--force"); code != 0 || errs != "" {
		t.Errorf("--save-plan %s --force: exit %d, stderr %q", os.DevNull, code, errs)
	}
}
