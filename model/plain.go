package model

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
	"github.com/retryplanner/retry-planner/views/plain"
)

// Plain is the line-oriented face: the reference's menu, read a line at a
// time. It writes exactly what the reference writes, so scripts and pipes can
// rely on every byte.
type Plain struct {
	in       *bufio.Reader
	out      *bufio.Writer
	echo     bool
	settings backoff.Settings
}

// NewPlain returns a session reading answers from in and writing the screen
// to out. With echo, each answer is written back after its prompt, as a
// terminal would show it; use it when in is not a terminal.
func NewPlain(in io.Reader, out io.Writer, echo bool, s backoff.Settings) *Plain {
	return &Plain{in: bufio.NewReader(in), out: bufio.NewWriter(out), echo: echo, settings: s}
}

// errEnd ends a session at the end of its input. It never leaves Run.
var errEnd = errors.New("end of input")

// InputError is input that could not be read (standard input a folder,
// say): no end of the session but its failure.
type InputError struct{ Err error }

func (e *InputError) Error() string { return "reading the input: " + e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Run runs the session until the user quits or the input ends; both are a
// clean end and return nil. It returns an error when the screen cannot be
// written (a reader that closed the pipe, say), or an *InputError when the
// input cannot be read.
func (p *Plain) Run() error {
	err := p.session()
	if errors.Is(err, errEnd) {
		err = nil
	}
	if ferr := p.out.Flush(); err == nil {
		err = ferr
	}
	return err
}

func (p *Plain) session() error {
	p.println(plain.Title)
	p.println(plain.Tagline)
	for {
		p.println("")
		p.println(plain.Menu)
		choice, err := p.ask(plain.ChoicePrompt)
		if err != nil {
			return err
		}
		switch choice {
		case "1":
			err = p.oneClient()
		case "2":
			p.print(plain.CrowdText(p.settings, runFive(p.settings, false)))
		case "3":
			err = p.retriesOverTime()
		case "4":
			err = p.jobs()
		case "5":
			err = p.changeSettings()
		case "6":
			p.println(plain.Bye)
			return p.out.Flush()
		default:
			p.println(plain.PickChoice)
		}
		if err != nil {
			return err
		}
	}
}

// ask writes the prompt and reads one answer, without the spaces around it
// (and cut to answerKept bytes, which no answer it takes is near). At the
// end of the input it ends the prompt's line and returns errEnd.
func (p *Plain) ask(prompt string) (string, error) {
	var answer trimmed
	if err := p.askLine(prompt, answer.take); err != nil {
		return "", err
	}
	return string(answer.kept), nil
}

// askLine writes the prompt and reads one line into take (see readLine).
func (p *Plain) askLine(prompt string, take func([]byte)) error {
	p.print(prompt)
	if err := p.out.Flush(); err != nil {
		return err
	}
	return p.readLine(take)
}

// askPolicy asks for a policy. ok is false when the answer was empty (the
// user cancelled: "Cancelled." is written) or not a policy (the message is
// written).
func (p *Plain) askPolicy() (policy backoff.Shape, ok bool, err error) {
	answer, err := p.ask(plain.PolicyPrompt)
	if err != nil {
		return 0, false, err
	}
	if answer == "" {
		p.println(plain.Cancelled)
		return 0, false, nil
	}
	policy, perr := backoff.ParseShape(answer)
	if perr != nil {
		p.println(plain.PolicyError)
		return 0, false, nil
	}
	return policy, true, nil
}

// askNumber asks until it reads a whole number in [low, high]; ok is false
// when the user cancelled with an empty answer.
func (p *Plain) askNumber(label string, low, high int) (n int, ok bool, err error) {
	for {
		answer, err := p.ask(plain.NumberPrompt(label, low, high))
		if err != nil {
			return 0, false, err
		}
		if answer == "" {
			return 0, false, nil
		}
		if n, ok := answerNumber(answer); ok && n >= low && n <= high {
			return n, true, nil
		}
		p.println(plain.NumberError(low, high))
	}
}

// answerNumber reads a typed number as --plain does: the spaces around it
// dropped, then 1 to 7 digits and nothing else.
func answerNumber(s string) (int, bool) {
	return backoff.ParseDigits(strings.Trim(s, " "), 7)
}

// readJobs reads a line of jobs as --plain does. It returns the jobs, or the
// message to show instead: Cancelled for an empty line (refused false), or
// why the line was refused (refused true).
func readJobs(line string) (jobs []ledger.Job, message string, refused bool) {
	line = strings.Trim(line, " ")
	if line == "" {
		return nil, plain.Cancelled, false
	}
	jobs, err := ledger.Parse(line)
	if err != nil {
		return nil, plain.JobsError(err), true
	}
	return jobs, "", false
}

func (p *Plain) oneClient() error {
	policy, ok, err := p.askPolicy()
	if !ok || err != nil {
		return err
	}
	client, ok, err := p.askNumber("client number", 1, p.settings.Clients)
	if err != nil {
		return err
	}
	if !ok {
		p.println(plain.Cancelled)
		return nil
	}
	p.print(plain.ScheduleText(backoff.ScheduleOf(p.settings.Policy(policy), p.settings, client)))
	return nil
}

func (p *Plain) retriesOverTime() error {
	policy, ok, err := p.askPolicy()
	if !ok || err != nil {
		return err
	}
	s := perSecond(p.settings)
	r, _ := backoff.Run(s.Policy(policy), s, backoff.Options{Series: true})
	p.print(plain.HistogramText(r))
	return nil
}

func (p *Plain) jobs() error {
	p.println(plain.JobsHelp)
	var answer jobsLine
	if err := p.askLine(plain.JobsPrompt, answer.take); err != nil {
		return err
	}
	line, cut := answer.line()
	jobs, message, _ := readJobs(line)
	if message == "" && cut {
		message = plain.JobNamesTooLong(jobNamesKept)
	}
	if message != "" {
		p.println(message)
		return nil
	}
	p.print(plain.JobsText(ledger.RunAll(jobs, p.settings)))
	return nil
}

// changeSettings asks for the six settings in turn; an empty answer to any of
// them cancels and keeps every setting as it was.
func (p *Plain) changeSettings() error {
	draft := p.settings
	for _, f := range backoff.FormFields() {
		low, high := draft.Range(f)
		n, ok, err := p.askNumber(f.String(), low, high)
		if err != nil {
			return err
		}
		if !ok {
			p.println(plain.Cancelled)
			return nil
		}
		draft.Set(f, n)
	}
	p.settings = draft
	p.print(plain.SettingsText(draft))
	return nil
}

// print and println buffer the screen; write errors surface at the next
// flush, before the next answer is read.
func (p *Plain) print(s string) {
	p.out.WriteString(s)
}

func (p *Plain) println(s string) {
	p.out.WriteString(s)
	p.out.WriteByte('\n')
}
