package model

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/retryplanner/retry-planner/ledger"
)

// --plain reads a line in bounded memory, however long it is: the line
// streams through, echoed as it arrives, and only what its answer needs is
// kept. For every line a person could type the answer is the reference's;
// see jobNamesKept for the one line whose answer is not.

// answerKept is the most bytes kept of an answer to the menu, a policy or a
// number, without the spaces around it: more than any answer they take (a
// policy's name has 12 bytes, a number 7 digits), so a longer answer is
// refused as the reference refuses it, whatever the rest holds.
const answerKept = 64

// jobNamesKept is the most bytes of job names kept from one line of jobs
// (1 MiB). Whether a line of jobs is well formed, and how many jobs it has,
// are decided as the line streams, so those answers are the reference's
// for a line of any length. But the reference runs a line of up to 8 jobs
// whatever their names' length and prints each name in full, and a name
// that is not kept cannot be printed: a line whose jobs' names take more
// than this is answered with plain.JobNamesTooLong and does not run. No
// person types such a line.
const jobNamesKept = 1 << 20

// readLine reads one line of the input ("\r" is part of it, as it is for
// the reference) and gives it to take piece by piece as it arrives, echoing
// each piece when the session echoes. A line that the end of the input cuts
// short is a line, as it is for the reference; at the end of the input
// before any byte of a line it ends the prompt's line and returns errEnd;
// at a failure to read (after what of the line came before it) it ends the
// prompt's line and returns an *InputError: the session fails, it did not
// end.
func (p *Plain) readLine(take func(piece []byte)) error {
	started := false
	for {
		chunk, err := p.in.ReadSlice('\n')
		piece, ended := bytes.CutSuffix(chunk, []byte("\n"))
		if len(chunk) > 0 {
			started = true
		}
		if len(piece) > 0 {
			take(piece)
			if p.echo {
				if _, werr := p.out.Write(piece); werr != nil {
					return werr
				}
			}
		}
		switch {
		case ended:
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && !errors.Is(err, io.EOF):
			p.println("")
			return &InputError{Err: err}
		case err != nil && !started:
			p.println("")
			return errEnd
		}
		if p.echo {
			p.println("")
		}
		return nil
	}
}

// trimmed is a line as the reference's plain reads it, without the spaces
// at either end, up to answerKept bytes: a longer answer keeps its first
// answerKept, which no prompt takes.
type trimmed struct {
	kept   []byte
	spaces int // spaces since the last other byte: kept only if another byte follows
}

func (t *trimmed) take(piece []byte) {
	for _, c := range piece {
		if len(t.kept) == answerKept {
			return
		}
		if c == ' ' {
			if len(t.kept) > 0 {
				t.spaces++
			}
			continue
		}
		n := min(t.spaces, answerKept-len(t.kept))
		t.kept = append(t.kept, strings.Repeat(" ", n)...)
		t.spaces = 0
		if len(t.kept) < answerKept {
			t.kept = append(t.kept, c)
		}
	}
}

// jobsLine is a line of jobs as readJobs needs it, in bounded memory: its
// words, each cut down to what decides whether it is a job (see word), the
// first ledger.MaxJobs+1 of them with as much of their names as
// jobNamesKept allows, and of the words after those only the first that is
// not a job. readJobs gives this line the answer it gives the whole one:
// Cancelled for no words; the format message when any word is not a job;
// Up to 8 jobs when there are more; else the jobs.
type jobsLine struct {
	words   []string
	names   int  // bytes of names kept
	cut     bool // a name of the first ledger.MaxJobs words is not kept whole
	refused bool // a word after the first ledger.MaxJobs+1 is not a job, and is in words
	inWord  bool
	word    word // the word being read
	// shapes are words after the first ledger.MaxJobs+1, as cut down, and
	// whether each is a job: a long line repeats few, and each then costs
	// nothing to read. At most maxShapes are kept.
	shapes map[string]bool
}

const maxShapes = 1024

// word is a word of a line of jobs as it streams. A word is a job when the
// bytes before its first colon (the name) are not none and those after it
// (the rest) are 1 to 3 digits or "fatal": whether there is a name, and the
// rest's first 6 bytes, decide it (no rest of 6 bytes is a job). So the
// name's first bytes, the colon and the rest's first 6 bytes are a word that
// ledger.ParseJob reads as it reads the whole.
type word struct {
	text    []byte // the name as far as it is kept, the colon, the rest as far as it is kept
	nameLen int    // the name's bytes, kept or not
	colon   bool
	restLen int  // the rest's bytes, kept or not
	keep    int  // how many of the name's bytes to keep, at least 1
	anyName bool // keep "x" for the name: only whether there is one counts
}

func (w *word) add(c byte) {
	switch {
	case w.colon:
		if w.restLen < 6 {
			w.text = append(w.text, c)
		}
		w.restLen++
	case c == ':':
		w.colon = true
		w.text = append(w.text, c)
	default:
		switch {
		case w.nameLen >= w.keep:
		case w.anyName:
			w.text = append(w.text, 'x')
		default:
			w.text = append(w.text, c)
		}
		w.nameLen++
	}
}

func (l *jobsLine) take(piece []byte) {
	for _, c := range piece {
		switch {
		case c == ' ':
			l.endWord()
		case !l.inWord:
			l.startWord()
			fallthrough
		default:
			l.word.add(c)
		}
	}
}

// startWord readies the next word: the first ledger.MaxJobs+1 keep their
// names as far as jobNamesKept allows; after those, whether there is a name
// is enough, and each keeps "x" for it.
func (l *jobsLine) startWord() {
	keep := 1
	if len(l.words) <= ledger.MaxJobs {
		keep = max(jobNamesKept-l.names, 1)
	}
	l.word = word{text: l.word.text[:0], keep: keep, anyName: len(l.words) > ledger.MaxJobs}
	l.inWord = true
}

func (l *jobsLine) endWord() {
	if !l.inWord {
		return // spaces between words, or before the first
	}
	l.inWord = false
	w := &l.word
	n := len(l.words)
	switch {
	case n <= ledger.MaxJobs:
		l.words = append(l.words, string(w.text))
		l.names += min(w.nameLen, w.keep)
		if n < ledger.MaxJobs && w.nameLen > w.keep {
			l.cut = true
		}
	case !l.refused:
		isJob, known := l.shapes[string(w.text)]
		if !known {
			_, err := ledger.ParseJob(string(w.text))
			isJob = err == nil
			if l.shapes == nil {
				l.shapes = map[string]bool{}
			}
			if len(l.shapes) < maxShapes {
				l.shapes[string(w.text)] = isJob
			}
		}
		if !isJob {
			l.words = append(l.words, string(w.text))
			l.refused = true
		}
	}
}

// line ends the line and returns it as readJobs reads it, and whether the
// name of a job that would run was cut.
func (l *jobsLine) line() (string, bool) {
	l.endWord()
	return strings.Join(l.words, " "), l.cut
}
