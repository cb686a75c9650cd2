package model

import "errors"

// Files is where the program saves plans (the s key). The program calls
// it only in a command, off the update loop. The command line gives it the
// disk's files; tests a file system in memory.
//
// There is no Exists: a file that appears between a look and a write would
// be overwritten without asking. Write without overwrite creates the file
// only if nothing is there (O_CREATE|O_EXCL), so the look and the creation
// are one step.
type Files interface {
	// Write puts data in the file name. Without overwrite it creates a new
	// file, and when something is there already it writes nothing and
	// returns an error for which errors.Is(err, fs.ErrExist) holds (not
	// for a folder: that is an error of its own, as nothing may be written
	// over it). With overwrite it replaces the file there at once, never
	// leaving it half written.
	Write(name string, data []byte, overwrite bool) error
}

// CancelFiles are Files whose writes can be called off (esc while the box
// says "Saving…"): WriteCancel is Write, but once cancelled says so before
// the file is complete it writes nothing, leaves what was there as it was,
// and returns ErrSaveCancelled.
type CancelFiles interface {
	Files
	WriteCancel(name string, data []byte, overwrite bool, cancelled func() bool) error
}

// ErrSaveCancelled is a write called off before it was complete.
var ErrSaveCancelled = errors.New("the save was cancelled")

// noFiles is the Files of a program given none: nothing can be saved.
type noFiles struct{}

// errNoFiles is why a program given no Files saves nothing.
var errNoFiles = errors.New("this program was started without files to save to")

func (noFiles) Write(string, []byte, bool) error { return errNoFiles }
