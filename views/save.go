package views

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// The full-screen program saves its plan to a file (the s key): a field
// for the name, a question before a file is overwritten, and then what was
// saved and the command lines that give the same figures, or why not.

// DefaultPlanFile is the name the field offers first.
const DefaultPlanFile = "retry-plan.toml"

// The save field's texts.
const (
	SavePrompt = "save the plan as> "
	SaveNoName = "Type a file name."
)

// SaveExists asks before file is overwritten.
func SaveExists(file string) string {
	return ShownFile(file) + " exists: overwrite? y/n"
}

// SaveKept is the answer to n: the file stays as it was.
func SaveKept(file string) string {
	return "Kept " + ShownFile(file) + ": type another name, or esc to cancel."
}

// Saving is shown while the file is written.
func Saving(file string) string { return "Saving " + ShownFile(file) + "…" }

// PlanSaved says what was saved and the command lines that give the same
// figures: the full-screen program opened with the plan, and the crowd of
// its policies and seeds (PlanCommandLine), on a line of its own. Wrap it
// with WrapAtSpaces, so that the command copies as it is.
func PlanSaved(file string, p Plan) string {
	return "Saved " + ShownFile(file) + ". Open it again with: retry-planner --plan " + ShellWord(file) +
		"\nIts crowd as a command:\n" + PlanCommandLine(p)
}

// WrapAtSpaces word-wraps plain text to w cells, each of its lines on its
// own, breaking only at spaces: never inside a word, as Wrap does at a
// hyphen, so that a command line wrapped copies as it is. A word longer
// than a line is broken at the width (a character wider than the line
// stands alone). Runs of spaces become one; width 0 gives "".
func WrapAtSpaces(s string, w int) string {
	if w <= 0 {
		return ""
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line, width := "", 0
		for _, word := range strings.Fields(para) {
			ww := ansi.StringWidth(word)
			switch {
			case line != "" && width+1+ww <= w:
				line, width = line+" "+word, width+1+ww
				continue
			case line != "":
				out = append(out, line)
			}
			line, width = word, ww
			for width > w {
				head := ansi.Truncate(line, w, "")
				if head == "" { // a character wider than the line
					_, size := utf8.DecodeRuneInString(line)
					head = line[:size]
				}
				if len(head) == len(line) {
					break
				}
				out = append(out, head)
				line = line[len(head):]
				width = ansi.StringWidth(line)
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// PlanNotSaved is a save that failed, in one line: why, without the file's
// name, comes from the file system ("permission denied", "is a directory").
func PlanNotSaved(file, why string) string {
	return "Could not save " + ShownFile(file) + ": " + planOneLine(why) + "."
}

// ShownFile is a file's name for a message: as given, or quoted when it
// holds a space, a quote or anything that does not show as itself.
func ShownFile(name string) string {
	if name == "" || !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool {
		return r == ' ' || r == '"' || !unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r)
	}) {
		return strconv.Quote(name)
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
