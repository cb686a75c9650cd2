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

// DefaultPlanFile is the name the field offers first; DefaultPlanFileA
// the name it offers for the pinned plan, A.
const (
	DefaultPlanFile  = "retry-plan.toml"
	DefaultPlanFileA = "retry-plan-a.toml"
)

// The save field's texts: its prompt for the plan, and for the pinned one.
const (
	SavePrompt  = "save the plan as> "
	SavePromptA = "save plan A as> "
	SaveNoName  = "Type a file name."
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
func Saving(file string) string { return "Saving " + words.ShownFile(file) + "… (esc cancels)" }

// SaveCancelled is what the box says once esc has called a save off.
func SaveCancelled(file string) string {
	return "Cancelled: nothing was written to " + words.ShownFile(file) + "."
}

// What the save box says over a candidate's command that c copied in pane
// 6: sent to the clipboard with OSC 52, or, where the terminal takes no
// such thing, to be selected.
const (
	CopySent   = "Copied with OSC 52 (a terminal that does not take it copies nothing; these lines, selected, paste as one command):"
	CopyByHand = "This terminal takes no copy from a program: select these lines, which paste as one command:"
)

// savedLine is a line of what PlanSaved says: a sentence, or a command
// as its words, each flag with its value.
type savedLine struct {
	text    string
	command []string
}

// savedLines are what was saved (what says which, "the plan" or "plan
// A"), then the commands that give the same figures, each on lines of its
// own: the full-screen program opened with the file, the crowd of the
// file, and the same crowd without the file (plan.CommandLine).
func savedLines(what, file string, p plan.Plan) []savedLine {
	withFile := []string{"retry-planner", "--plan " + words.ShellWord(file)}
	crowd := []string{"retry-planner crowd"}
	flags := plan.Flags(p)
	for i := range flags {
		flags[i] = words.ShellWord(flags[i]) // a goal's <= is the shell's
	}
	// Each flag with its value, but a switch (--drop-expired), which has
	// none: no value starts with "--".
	for i := 0; i < len(flags); i++ {
		part := flags[i]
		if i+1 < len(flags) && !strings.HasPrefix(flags[i+1], "--") {
			i++
			part += " " + flags[i]
		}
		crowd = append(crowd, part)
	}
	return []savedLine{
		{text: "Saved " + what + " as " + words.ShownFile(file) + ". Open it again, or run its crowd:"},
		{command: withFile},
		{command: append(append([]string(nil), withFile...), "crowd")},
		{text: "The same crowd without the file:"},
		{command: crowd},
	}
}

// PlanSaved says what was saved (what: "the plan" or "plan A") and the
// command lines that give the same figures, one a line; PlanSavedView lays
// it out at a width.
func PlanSaved(what, file string, p plan.Plan) string {
	var out []string
	for _, l := range savedLines(what, file, p) {
		if l.command != nil {
			out = append(out, strings.Join(l.command, " "))
		} else {
			out = append(out, l.text)
		}
	}
	return strings.Join(out, "\n")
}

// PlanSavedView is PlanSaved at w cells: the sentences wrapped at spaces,
// each command laid out by CommandLines, so that it copies whole.
func PlanSavedView(what, file string, p plan.Plan, w int) string {
	if w <= 0 {
		return ""
	}
	var out []string
	for _, l := range savedLines(what, file, p) {
		if l.command != nil {
			out = append(out, CommandLines(l.command, w))
		} else {
			out = append(out, WrapAtSpaces(l.text, w))
		}
	}
	return strings.Join(out, "\n")
}

// CommandLines lays a command out in lines of at most w cells: its parts
// (the command, then each flag with its value) are never broken, and a line
// that another follows ends in " \\", the next indented two spaces, so that
// the lines copied whole paste into a shell as one command. A part wider
// than a line stands on its own, broken at the width as WrapAtSpaces
// breaks a word: the only case that does not copy whole.
func CommandLines(parts []string, w int) string {
	if w <= 0 || len(parts) == 0 {
		return ""
	}
	const more, indent = " \\", "  "
	// A flag whose value does not fit a line beside it goes on the line
	// before its value, which the shell joins to it.
	var split []string
	for i, part := range parts {
		flag, value, ok := strings.Cut(part, " ")
		if i > 0 && ok && ansi.StringWidth(indent+part+more) > w {
			split = append(split, flag, value)
			continue
		}
		split = append(split, part)
	}
	parts = split
	var out []string
	line := parts[0]
	for i, part := range parts[1:] {
		last := i == len(parts)-2
		need := ansi.StringWidth(line) + 1 + ansi.StringWidth(part)
		if !last {
			need += len(more)
		}
		if need <= w {
			line += " " + part
			continue
		}
		out = append(out, line+more)
		line = indent + part
	}
	out = append(out, line)
	for i, l := range out {
		if ansi.StringWidth(l) > w {
			out[i] = WrapAtSpaces(l, w)
		}
	}
	return strings.Join(out, "\n")
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
