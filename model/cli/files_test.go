package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The files a report writes: --out and --save-plan make a file, refuse one
// that is there unless --force, and leave nothing behind when they fail.

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// --out writes the report to its file and nothing to standard output, in
// every format; --save-plan writes the plan beside it.
func TestOutWritesTheReport(t *testing.T) {
	for _, args := range [][]string{
		{"crowd"},
		{"crowd", "--format", "csv", "--seeds", "3"},
		{"timeline", "--policy", "all", "--format", "json"},
		{"schedule", "--policy", "grpc", "--client", "4"},
		{"jobs", "a:1", "b:3", "--format", "csv"},
	} {
		dir := t.TempDir()
		out, plan := filepath.Join(dir, "report"), filepath.Join(dir, "plan.toml")
		stdout, errs, code := runArgs(t, "", append(slices.Clone(args), "--out", out, "--save-plan", plan)...)
		if code != 0 || stdout != "" || errs != "" {
			t.Errorf("%q --out: exit %d, stdout %q, stderr %q; want 0 and nothing", args, code, stdout, errs)
		}
		if got, want := readFile(t, out), reportOf(t, args...); got != want {
			t.Errorf("%q --out: the file holds\n%s\nwant\n%s", args, got, want)
		}
		if got := readFile(t, plan); !strings.HasPrefix(got, "# A Retry Planner plan") {
			t.Errorf("%q --save-plan: the file holds\n%s\nwant a plan", args, got)
		}
		if fi, err := os.Stat(out); err != nil || fi.Mode().Perm()&0o600 != 0o600 {
			t.Errorf("%q --out: %v, mode %v; want a file its owner reads and writes", args, err, fi.Mode())
		}
	}
}

// A file that is there is refused without --force, and left as it was;
// with --force it is overwritten, keeping its mode.
func TestForceOverwrites(t *testing.T) {
	for _, flag := range []string{"--out", "--save-plan"} {
		dir := t.TempDir()
		file := writeFile(t, dir, "there", "before\n")
		if err := os.Chmod(file, 0o640); err != nil {
			t.Fatal(err)
		}
		args := []string{"crowd", "--clients", "20", flag, file}
		checkUsageError(t, args, flag+" "+file+": the file exists; add --force to overwrite it")
		if got := readFile(t, file); got != "before\n" {
			t.Errorf("%q: the file holds %q, want it as it was", args, got)
		}
		for _, force := range [][]string{{"--force"}, {"--force", "--format", "json"}} {
			stdout, errs, code := runArgs(t, "", append(slices.Clone(args), force...)...)
			if code != 0 || errs != "" {
				t.Fatalf("%q %q: exit %d, stderr %q", args, force, code, errs)
			}
			got := readFile(t, file)
			switch flag {
			case "--out":
				if want := reportOf(t, append([]string{"crowd", "--clients", "20"}, force[1:]...)...); got != want || stdout != "" {
					t.Errorf("%q %q: the file holds\n%s\nand stdout %q; want the report and nothing", args, force, got, stdout)
				}
			default:
				if !strings.HasPrefix(got, "# A Retry Planner plan") || !strings.Contains(got, "clients = 20\n") || stdout == "" {
					t.Errorf("%q %q: the file holds\n%s\nwant the plan", args, force, got)
				}
			}
			if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o640 {
				t.Errorf("%q %q: mode %v, want the file's own, 0640", args, force, fi.Mode().Perm())
			}
			if names := listDir(t, dir); !slices.Equal(names, []string{"there"}) {
				t.Errorf("%q %q: the directory holds %q, want the file alone", args, force, names)
			}
		}
	}
	// --force writes in place what is not a regular file.
	if _, errs, code := runArgs(t, "", "crowd", "--out", os.DevNull, "--force"); code != 0 || errs != "" {
		t.Errorf("--out %s --force: exit %d, stderr %q; want 0", os.DevNull, code, errs)
	}
}

// The files' flags where they do not go, and a file that cannot be written.
func TestFileFlagErrors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, tt := range []errorCase{
		{[]string{"crowd", "--force"}, []string{"--force overwrites the file of --out or --save-plan"}},
		{[]string{"--force", "crowd", "--out", "x"}, []string{`"--force" goes after a command`}},
		{[]string{"crowd", "--force=yes", "--out", "x"}, []string{"--force takes no value"}},
		{[]string{"crowd", "--out", "same.txt", "--save-plan", "same.txt"}, []string{"--out and --save-plan both name same.txt"}},
		{[]string{"crowd", "--out", ""}, []string{`--out "": want a file`}},
		{[]string{"crowd", "--save-plan", ""}, []string{`--save-plan "": want a file`}},
		{[]string{"crowd", "--out"}, []string{"--out needs a value"}},
		{[]string{"--out", "x"}, []string{`"--out" goes after a command`}},
		{[]string{"crowd", "--out", "."}, []string{"--out .: the file exists; add --force"}},
	} {
		checkUsageError(t, tt.args, tt.want...)
	}
	if names := listDir(t, dir); len(names) > 0 {
		t.Errorf("the directory holds %q, want nothing", names)
	}
	// A file in a folder that is not there: exit 1 with the reason, and
	// nothing written, the report included.
	for _, tt := range []struct {
		args   []string
		reason string
	}{
		{[]string{"crowd", "--out", "missing/report.txt"}, ": no such folder\n"},
		{[]string{"crowd", "--save-plan", "missing/plan.toml"}, ": no such folder\n"},
		{[]string{"crowd", "--out", "report.txt", "--save-plan", "missing/plan.toml"}, ": no such folder\n"},
		{[]string{"crowd", "--out", ".", "--force"}, ""},
	} {
		args := tt.args
		stdout, errs, code := runArgs(t, "", args...)
		if code != 1 || stdout != "" || !strings.HasPrefix(errs, "retry-planner: writing ") || strings.Count(errs, "\n") != 1 ||
			!strings.HasSuffix(errs, tt.reason) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 1, nothing and one line saying what it could not write, ending %q",
				args, code, stdout, errs, tt.reason)
		}
		if names := listDir(t, dir); len(names) > 0 {
			t.Errorf("%q: the directory holds %q, want nothing", args, names)
		}
	}
}
