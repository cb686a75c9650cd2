package words

import (
	"errors"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/retryplanner/retry-planner/ledger/glyph"
)

// ShownFile is a file's name for a message: as given, or quoted when it
// holds a space, a quote or anything that does not show as itself
// (glyph.Unseen), which the quotes write as an escape: U+3164, which
// shows as nothing, as \u3164.
func ShownFile(name string) string {
	if name == "" || !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool {
		return r == ' ' || r == '"' || glyph.Unseen(r)
	}) {
		return glyph.Quote(name)
	}
	return name
}

// ShellWord is s as one word of a POSIX shell's command line: as it is
// when it holds only letters, digits and marks no shell gives a meaning
// to, else in single quotes (a quote inside written '\”).
func ShellWord(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./+:,@%=", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// FileReason is why a file could not be read or written, without the
// file's name, which the message gives already: missing where it is not
// there ("no such file" for a read, "no such folder" for a write), else
// "permission denied", "is a directory" and the like.
func FileReason(err error, missing string) string {
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return missing
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.As(err, &pe):
		return pe.Err.Error()
	}
	return err.Error()
}
