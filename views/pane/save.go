package pane

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/retryplanner/retry-planner/backoff/plan"
	"github.com/retryplanner/retry-planner/views/words"
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

// SaveUnseen refuses a name holding r, a character that does not show as
// itself (glyph.Unseen), such as U+202E, which turns the text after it
// around, or U+200B, which shows as nothing.
func SaveUnseen(r rune) string {
	return fmt.Sprintf("A file name cannot hold %U, which does not show as itself: type the name again.", r)
}

// SaveExists asks before file is overwritten.
func SaveExists(file string) string {
	return words.ShownFile(file) + " exists: overwrite? y/n"
}

// SaveKept is the answer to n: the file stays as it was.
func SaveKept(file string) string {
	return "Kept " + words.ShownFile(file) + ": type another name, or esc to cancel."
}

// Saving is shown while the file is written.
func Saving(file string) string { return "Saving " + words.ShownFile(file) + "…" }

// PlanSaved says what was saved and the command lines that give the same
// figures: the full-screen program opened with the plan, and the crowd of
// its policies and seeds (PlanCommandLine), on a line of its own. Wrap it
// with WrapAtSpaces, so that the command copies as it is.
func PlanSaved(file string, p plan.Plan) string {
	return "Saved " + words.ShownFile(file) + ". Open it again with: retry-planner --plan " + words.ShellWord(file) +
		"\nIts crowd as a command:\n" + plan.CommandLine(p)
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
	return "Could not save " + words.ShownFile(file) + ": " + strings.Join(strings.Fields(why), " ") + "."
}
