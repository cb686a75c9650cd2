package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/retryplanner/retry-planner/backoff/plan"
	"github.com/retryplanner/retry-planner/model"
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
	// unfit is an error saying what name is when no report may write
	// there: a symbolic link to nothing, or something that is neither a
	// regular file nor a device (a named pipe, a socket); else nil.
	unfit(name string) error
	// same reports whether a and b name one file: the same file where
	// both are there, else the same cleaned absolute path, the links of
	// its folders followed.
	same(a, b string) bool
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

func (osFiles) unfit(name string) error {
	if err := danglingLink(name); err != nil {
		return err
	}
	if fi, err := os.Stat(name); err == nil && !fi.IsDir() && !fi.Mode().IsRegular() && fi.Mode()&fs.ModeCharDevice == 0 {
		return &fs.PathError{Op: "open", Path: name, Err: notRegularError{kindOf(fi.Mode())}}
	}
	return nil
}

func (osFiles) same(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	return resolved(a) == resolved(b)
}

// resolved is name as an absolute, cleaned path, the links of its folder
// followed as far as they go: two names of a file not yet there are one
// file when they resolve alike.
func resolved(name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		return filepath.Clean(name)
	}
	dir, base := filepath.Split(abs)
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	return filepath.Join(dir, base)
}

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

// outFile is a file a report or the s key writes: always a temporary
// file beside the target (".name.NNNN.tmp"), put in the target's place
// only once complete (commit), and removed on every way out before that
// (abort): an error, a signal, a stop. Without --force the target must
// not be there when the file is put in place either: it is linked to its
// name, which fails when something is there, rather than renamed over it.
// A device, such as /dev/null, is written in place; anything else that is
// not a regular file (a named pipe, a socket, a folder) is refused before
// it is opened, so that nothing blocks on it.
type outFile struct {
	*os.File
	name   string // the target, its links followed
	temp   string // the file written beside it; "" for a device written in place
	force  bool   // the target may be replaced
	mu     sync.Mutex
	closed bool // committed or aborted: nothing more to do
}

// notRegularError is a target that is neither a regular file nor a
// device: writing to it could block for ever (a named pipe without a
// reader) or mean nothing.
type notRegularError struct{ what string }

func (e notRegularError) Error() string { return e.what + ", not a regular file" }

// kindOf is what a file of mode m is, for a message.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0:
		return "a block device"
	case m.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

// createOut opens a file for a report to write to name; without force, a
// file already there is an error for which isExist reports true.
func createOut(name string, force bool) (*outFile, error) {
	if err := danglingLink(name); err != nil {
		return nil, err
	}
	target := name
	if t, err := filepath.EvalSymlinks(name); err == nil {
		target = t // a link to a file: the file is written, the link kept
	}
	fi, err := os.Stat(target)
	switch {
	case err == nil && !fi.IsDir() && !fi.Mode().IsRegular() && fi.Mode()&fs.ModeCharDevice == 0:
		// Refused before any question to overwrite it.
		return nil, &fs.PathError{Op: "open", Path: name, Err: notRegularError{kindOf(fi.Mode())}}
	case err == nil && !force:
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrExist}
	case err == nil && fi.IsDir():
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EISDIR}
	case err == nil && fi.Mode()&fs.ModeCharDevice != 0:
		// O_NONBLOCK: what is named may have become a pipe since.
		f, err := os.OpenFile(target, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return nil, err
		}
		if fi, err := f.Stat(); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			f.Close()
			return nil, &fs.PathError{Op: "open", Path: name, Err: notRegularError{kindOf(fi.Mode())}}
		}
		return &outFile{File: f, name: target, force: true}, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	perm := fs.FileMode(0o644)
	if err == nil {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &outFile{File: f, name: target, temp: f.Name(), force: force}, nil
}

// commit closes the file and puts it in its place: over the file there
// with force, else only where nothing is (an error for which isExist
// reports true when something appeared meanwhile).
func (o *outFile) commit() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return errInterrupted
	}
	o.closed = true
	if err := o.Close(); err != nil {
		o.remove()
		return err
	}
	if o.temp == "" {
		return nil
	}
	defer o.remove()
	if o.force {
		return os.Rename(o.temp, o.name)
	}
	err := os.Link(o.temp, o.name)
	if err == nil || isExist(err) {
		return err
	}
	// A file system without hard links: a look, then the rename.
	if _, serr := os.Lstat(o.name); serr == nil {
		return &fs.PathError{Op: "open", Path: o.name, Err: fs.ErrExist}
	}
	return os.Rename(o.temp, o.name)
}

// abort closes the file and removes the temporary file, leaving the
// target as it was. It may be called from a signal's goroutine while the
// file is written, and more than once.
func (o *outFile) abort() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	o.closed = true
	o.Close()
	o.remove()
}

// remove removes the temporary file, if it is still there.
func (o *outFile) remove() {
	if o.temp != "" {
		os.Remove(o.temp)
	}
}

// errInterrupted is a write stopped by a signal.
var errInterrupted = errors.New("interrupted")

// isExist reports whether err is a file that is there already.
func isExist(err error) bool {
	return errors.Is(err, fs.ErrExist) || errors.Is(err, syscall.EEXIST)
}

// writeFailure is the message for a file a report could not write.
func writeFailure(file string, err error) string {
	return fmt.Sprintf("writing %s: %s", shownFile(file), words.FileReason(err, "no such folder"))
}

// planFiles are the disk's files for the full-screen program's s key, which
// saves its plan as --save-plan does (see outFile): a new file only where
// nothing is; on an overwrite agreed to, over the old one once complete,
// keeping its mode; never a named pipe, which would block the save. It
// knows the files being written, so that a signal that ends the program
// removes them.
type planFiles struct {
	mu      sync.Mutex
	writing map[*outFile]bool
}

func newPlanFiles() *planFiles { return &planFiles{writing: map[*outFile]bool{}} }

func (p *planFiles) Write(name string, data []byte, overwrite bool) error {
	return p.WriteCancel(name, data, overwrite, nil)
}

// WriteCancel is Write, writing nothing once cancelled says so before the
// file is complete.
func (p *planFiles) WriteCancel(name string, data []byte, overwrite bool, cancelled func() bool) error {
	o, err := createOut(name, overwrite)
	if err != nil {
		if fi, serr := os.Stat(name); !overwrite && isExist(err) && serr == nil && fi.IsDir() {
			// Nothing may be written over a folder: no question to ask.
			return &fs.PathError{Op: "open", Path: name, Err: syscall.EISDIR}
		}
		return err
	}
	p.mu.Lock()
	p.writing[o] = true
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.writing, o)
		p.mu.Unlock()
	}()
	if _, err := o.Write(data); err != nil {
		o.abort()
		return err
	}
	if cancelled != nil && cancelled() {
		o.abort()
		return model.ErrSaveCancelled
	}
	return o.commit()
}

// abortAll removes every file being written: the program is ending.
func (p *planFiles) abortAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for o := range p.writing {
		o.abort()
	}
}
