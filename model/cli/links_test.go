package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/retryplanner/retry-planner/views/words"
)

// A symbolic link to nothing is neither a file there (that --force would
// overwrite) nor a folder that is missing: every way in says what it is,
// and nothing is written, the link's target included.
func TestDanglingLinks(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, link := range []struct{ name, target string }{
		{"near.txt", "missing.txt"},              // its folder is there
		{"far.txt", "/nonexistent/folder/x.txt"}, // its folder is not
	} {
		if err := os.Symlink(link.target, link.name); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"crowd", "--out", "near.txt"}, "--out near.txt: a symbolic link to missing.txt, which is not there: remove it, or name another file"},
		{[]string{"crowd", "--out", "near.txt", "--force"}, "--out near.txt: a symbolic link to missing.txt, which is not there: remove it, or name another file"},
		{[]string{"crowd", "--out", "far.txt", "--force"}, "--out far.txt: a symbolic link to /nonexistent/folder/x.txt, which is not there: remove it, or name another file"},
		{[]string{"crowd", "--save-plan", "near.txt"}, "--save-plan near.txt: a symbolic link to missing.txt, which is not there: remove it, or name another file"},
		{[]string{"jobs", "a:1", "--save-plan", "far.txt", "--force"}, "--save-plan far.txt: a symbolic link to /nonexistent/folder/x.txt, which is not there: remove it, or name another file"},
		{[]string{"crowd", "--plan", "near.txt"}, "--plan near.txt: a symbolic link to missing.txt, which is not there"},
	} {
		checkUsageError(t, tt.args, "retry-planner: "+tt.want+"\n")
	}
	if names := listDir(t, dir); !slices.Equal(names, []string{"far.txt", "near.txt"}) {
		t.Errorf("the directory holds %q, want the two links alone", names)
	}

	// The s key's writes: no question to overwrite, and the reason the
	// save box shows.
	for _, overwrite := range []bool{false, true} {
		err := newPlanFiles().Write("near.txt", []byte("x"), overwrite)
		if got, want := words.FileReason(err, "no such folder"), "a symbolic link to missing.txt, which is not there"; got != want {
			t.Errorf("Write(near.txt, overwrite %v): got %q (%v), want %q", overwrite, got, err, want)
		}
		if isExist(err) {
			t.Errorf("Write(near.txt, overwrite %v): got %v, which asks to overwrite; want the link said", overwrite, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "missing.txt")); !os.IsNotExist(err) {
		t.Errorf("the link's target: got %v, want it not written", err)
	}

	// A link to a file that is there is that file: taken as it is.
	writeFile(t, dir, "real.txt", "before\n")
	if err := os.Symlink("real.txt", "good.txt"); err != nil {
		t.Fatal(err)
	}
	checkUsageError(t, []string{"crowd", "--out", "good.txt"}, "--out good.txt: the file exists; add --force to overwrite it")
}
