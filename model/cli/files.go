package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/retryplanner/retry-planner/backoff/plan"
	"github.com/retryplanner/retry-planner/views/words"
)

// The files the command line names: plans it reads (--plan, --compare) and
// the files a report writes (--out, --save-plan). Reading the command line
// only reads plans and looks at whether a file to write exists, through
// files, so that a test can read it without a disk; the writing is the
// report's, once the command line is taken.

// files is what reading the command line needs of a file system.
type files interface {
	// readPlan returns at most plan.MaxBytes+1 bytes of the file.
	readPlan(name string) ([]byte, error)
	// exists reports whether something is at name.
	exists(name string) bool
	// dangling is an error saying what name is when it is a symbolic link
	// to nothing, else nil.
	dangling(name string) error
}

// osFiles are the process's files.
type osFiles struct{}

func (osFiles) readPlan(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		if link := danglingLink(name); link != nil {
			return nil, link
		}
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	return io.ReadAll(io.LimitReader(f, plan.MaxBytes+1))
}

func (osFiles) exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}

func (osFiles) dangling(name string) error { return danglingLink(name) }

// danglingLinkError is a name that is a symbolic link to nothing: what it
// points to is not there.
type danglingLinkError struct{ target string }

func (e danglingLinkError) Error() string {
	return "a symbolic link to " + shownFile(e.target) + ", which is not there"
}

// danglingLink is a *fs.PathError holding a danglingLinkError when name is
// a symbolic link to nothing, else nil. Such a name is neither a file that
// is there (to overwrite with --force) nor a folder that is missing: a
// report or a save refuses it, saying what it is.
func danglingLink(name string) error {
	fi, err := os.Lstat(name)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	if _, err := os.Stat(name); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	target, err := os.Readlink(name)
	if err != nil {
		return nil
	}
	return &fs.PathError{Op: "open", Path: name, Err: danglingLinkError{target: target}}
}

// loadPlan reads and decodes the plan in file for flag (--plan or
// --compare): a usage error naming the file, and for a plan that does not
// decode its line and rule, as "plan.toml:7: ...".
func loadPlan(fsys files, flag, file string) (plan.Plan, error) {
	if file == "" {
		return plan.Plan{}, usagef("%s \"\": want a plan's file name", flag)
	}
	data, err := fsys.readPlan(file)
	if err != nil {
		return plan.Plan{}, usagef("%s %s: %s", flag, shownFile(file), words.FileReason(err, "no such file"))
	}
	if len(data) > plan.MaxBytes {
		return plan.Plan{}, usagef("%s:1: a plan of more than %d bytes: want at most %d (a plan is a page of settings)",
			shownFile(file), plan.MaxBytes, plan.MaxBytes)
	}
	p, err := plan.Decode(shownFile(file), data)
	if err != nil {
		return plan.Plan{}, usagef("%s", oneLine(err.Error()))
	}
	return p, nil
}

// shownFile is a file's name for a message: as given, or quoted when it
// holds a space or anything that does not show as itself.
func shownFile(name string) string { return words.ShownFile(name) }

// oneLine is s with every run of control characters a single space, so
// that a message stays one line.
func oneLine(s string) string {
	out := []rune{}
	space := false
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			if !space {
				out = append(out, ' ')
			}
			space = true
			continue
		}
		out = append(out, r)
		space = false
	}
	return string(out)
}

// existsError is a file a report would write that is there already.
func existsError(flag, file string) error {
	return usagef("%s %s: the file exists; add --force to overwrite it", flag, shownFile(file))
}

// outFile is a file a report writes: created only if it is not there, or
// with --force, written beside it and renamed over it once complete, so
// that a report that fails leaves the old file as it was. A file that is
// not a regular one (/dev/null, a pipe) is written in place.
type outFile struct {
	*os.File
	name    string
	temp    string // the file written beside name, renamed over it
	created bool   // the file is new: removed if the report fails
}

// createOut opens name for a report to write; without force, a file
// already there is an error for which exists reports true.
func createOut(name string, force bool) (*outFile, error) {
	if err := danglingLink(name); err != nil {
		return nil, err
	}
	fi, err := os.Lstat(name)
	switch {
	case !force || errors.Is(err, fs.ErrNotExist):
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return nil, err
		}
		return &outFile{File: f, name: name, created: true}, nil
	case err == nil && fi.Mode().IsRegular():
		f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
		if err != nil {
			return nil, err
		}
		if err := f.Chmod(fi.Mode().Perm()); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, err
		}
		return &outFile{File: f, name: name, temp: f.Name()}, nil
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return nil, err
	}
	return &outFile{File: f, name: name}, nil
}

// commit closes the file and puts it in its place.
func (o *outFile) commit() error {
	if err := o.Close(); err != nil {
		o.abort()
		return err
	}
	if o.temp != "" {
		if err := os.Rename(o.temp, o.name); err != nil {
			os.Remove(o.temp)
			return err
		}
	}
	return nil
}

// abort closes the file and removes what the report made: a new file, or
// the one written beside the old.
func (o *outFile) abort() {
	o.Close()
	switch {
	case o.temp != "":
		os.Remove(o.temp)
	case o.created:
		os.Remove(o.name)
	}
}

// isExist reports whether err is a file that is there already.
func isExist(err error) bool {
	return errors.Is(err, fs.ErrExist) || errors.Is(err, syscall.EEXIST)
}

// writeFailure is the message for a file a report could not write.
func writeFailure(file string, err error) string {
	return fmt.Sprintf("writing %s: %s", shownFile(file), words.FileReason(err, "no such folder"))
}

// planFiles are the disk's files for the full-screen program's s key, which
// saves its plan as --save-plan does: a new file only if nothing is there
// (O_CREATE|O_EXCL); on an overwrite agreed to, written beside the old one
// and renamed over it once complete, keeping its mode (a file that is not
// a regular one, such as /dev/null, is written in place).
type planFiles struct{}

func (planFiles) Write(name string, data []byte, overwrite bool) error {
	o, err := createOut(name, overwrite)
	if err != nil {
		if fi, serr := os.Stat(name); !overwrite && isExist(err) && serr == nil && fi.IsDir() {
			// Nothing may be written over a folder: no question to ask.
			return &fs.PathError{Op: "open", Path: name, Err: syscall.EISDIR}
		}
		return err
	}
	if _, err := o.Write(data); err != nil {
		o.abort()
		return err
	}
	return o.commit()
}
