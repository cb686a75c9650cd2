// Package ledger runs jobs through a retry loop and keeps a ledger that
// proves the loop's bookkeeping: every attempt is counted when it starts, and
// again by a deferred function when it ends, however it ends. The ledger is
// balanced when the deferred count equals the attempts and every attempt
// ended either done or failed.
//
// A failed attempt is retried after the wait of a policy, the reference's
// exponential one unless told (RunAllUnder), until the policy's attempts run
// out; a job that cannot be retried stops at its first attempt. Job i of a
// run (from 1) waits as the crowd's client i draws its waits, under the
// settings' draws and seed. Nothing sleeps: the waits are recorded, not
// spent.
package ledger

import (
	"errors"
	"fmt"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger/glyph"
)

// MaxJobs is how many jobs one run takes.
const MaxJobs = 8

// Job is a job that fails its first Failures attempts and then succeeds, or,
// when Fatal, fails with an error that must not be retried.
type Job struct {
	Name     string
	Failures int // 0 to 999
	Fatal    bool
}

// String writes the job as it is typed: "bravo:2" or "delta:fatal".
func (j Job) String() string {
	if j.Fatal {
		return j.Name + ":fatal"
	}
	return fmt.Sprintf("%s:%d", j.Name, j.Failures)
}

// ErrNotRetryable marks an attempt's error that no retry can cure.
// errors.Is finds it in a *NotRetryableError.
var ErrNotRetryable = errors.New("cannot be retried")

// NotRetryableError is a fatal job's failure.
type NotRetryableError struct {
	Job string
}

func (e *NotRetryableError) Error() string { return e.Job + ": cannot be retried" }

// Unwrap lets errors.Is(err, ErrNotRetryable) hold.
func (e *NotRetryableError) Unwrap() error { return ErrNotRetryable }

// FailedError is one failed attempt of a job that may be retried.
type FailedError struct {
	Job     string
	Attempt int
}

func (e *FailedError) Error() string {
	return fmt.Sprintf("%s: failed on attempt %d", e.Job, e.Attempt)
}

// GaveUpError is a job that failed on every attempt it had.
type GaveUpError struct {
	Job      string
	Attempts int
}

func (e *GaveUpError) Error() string {
	return fmt.Sprintf("%s: gave up after %d attempts", e.Job, e.Attempts)
}

// OutOfTimeError is a job that failed on every attempt it made before its
// next attempt would have come more than Limit ms after its first.
type OutOfTimeError struct {
	Job      string
	Attempts int // attempts made
	Limit    int // the policy's limit on total time, ms
}

func (e *OutOfTimeError) Error() string {
	return fmt.Sprintf("%s: out of time after %d attempts (the next would pass %d ms)", e.Job, e.Attempts, e.Limit)
}

// Attempt tries the job for the n-th time (n >= 1).
func (j Job) Attempt(n int) error {
	if j.Fatal {
		return &NotRetryableError{Job: j.Name}
	}
	if n <= j.Failures {
		return &FailedError{Job: j.Name, Attempt: n}
	}
	return nil
}

// Outcome is how one attempt ended.
type Outcome int

// The ways an attempt ends.
const (
	Done      Outcome = iota // the job succeeded
	Retry                    // it failed and will be retried after Entry.Wait
	LastFail                 // it failed with no attempts left
	Stopped                  // it failed and cannot be retried
	OutOfTime                // it failed, and the next attempt would pass the policy's limit on total time
)

// Entry is one line of the ledger: one attempt.
type Entry struct {
	Job     string
	Attempt int
	Outcome Outcome
	Wait    int // ms before the next attempt, for Retry
}

// String writes the entry as the reference does, such as "bravo attempt 1:
// failed, retry after 1000 ms".
func (e Entry) String() string {
	head := fmt.Sprintf("%s attempt %d: ", e.Job, e.Attempt)
	switch e.Outcome {
	case Done:
		return head + "done"
	case Retry:
		return head + fmt.Sprintf("failed, retry after %d ms", e.Wait)
	case LastFail:
		return head + "failed, no attempts left"
	case OutOfTime:
		return head + "failed, out of time"
	default:
		return head + "cannot be retried, stopped"
	}
}

// Ledger is the record of every attempt and its counts.
type Ledger struct {
	Entries     []Entry
	Attempts    int // attempts started
	Successes   int // attempts that ended done
	Failures    int // attempts that ended failed, retryable or not
	FinallyRuns int // times the deferred bookkeeping ran
	Waited      int // ms of waits between attempts, in all
}

// Balanced is the ledger's self-check: the deferred bookkeeping ran once per
// attempt, and each attempt ended done or failed, once.
func (l *Ledger) Balanced() bool {
	return l.FinallyRuns == l.Attempts && l.Successes+l.Failures == l.Attempts
}

// Run tries job j up to the policy's attempts, waiting as sched says
// before each retry, and records every attempt. It returns the attempt on
// which the job was done, or an error: a *NotRetryableError (errors.Is
// ErrNotRetryable), a *GaveUpError, or an *OutOfTimeError when the
// policy's limit on total time stops it first.
func (l *Ledger) Run(j Job, sched backoff.Schedule) (int, error) {
	attempts := sched.Policy.Attempts
	for n := 1; n <= attempts; n++ {
		err := l.try(j, n, sched)
		if err == nil {
			return n, nil
		}
		if errors.Is(err, ErrNotRetryable) {
			return n, err
		}
		if n < attempts && pastLimit(sched, n) {
			return n, &OutOfTimeError{Job: j.Name, Attempts: n, Limit: sched.Policy.MaxElapsed}
		}
	}
	return attempts, &GaveUpError{Job: j.Name, Attempts: attempts}
}

// try is one attempt. Its deferred count is the reference's finally block: it
// runs whether the attempt returns a result or an error.
func (l *Ledger) try(j Job, n int, sched backoff.Schedule) (err error) {
	l.Attempts++
	defer func() { l.FinallyRuns++ }()
	e := Entry{Job: j.Name, Attempt: n}
	err = j.Attempt(n)
	switch {
	case err == nil:
		l.Successes++
		e.Outcome = Done
	case errors.Is(err, ErrNotRetryable):
		l.Failures++
		e.Outcome = Stopped
	case n < sched.Policy.Attempts && pastLimit(sched, n):
		l.Failures++
		e.Outcome = OutOfTime
	case n < sched.Policy.Attempts:
		l.Failures++
		e.Outcome = Retry
		e.Wait = sched.Retries[n-1].Wait
		l.Waited += e.Wait
	default:
		l.Failures++
		e.Outcome = LastFail
	}
	l.Entries = append(l.Entries, e)
	return err
}

// pastLimit reports whether attempt n+1 would come more than the policy's
// limit on total time after the first attempt.
func pastLimit(sched backoff.Schedule, n int) bool {
	limit := sched.Policy.MaxElapsed
	return limit > 0 && n-1 < len(sched.Retries) && sched.Retries[n-1].At > limit
}

// Result is how one job ended.
type Result struct {
	Job     Job
	Attempt int   // the attempt it was done on, or its last
	Err     error // nil when done
}

// String is the reference's line for the job: "alpha: done on attempt 1",
// "charlie: gave up after 6 attempts" or "delta: cannot be retried".
func (r Result) String() string {
	if r.Err != nil {
		return r.Err.Error()
	}
	return fmt.Sprintf("%s: done on attempt %d", r.Job.Name, r.Attempt)
}

// Report is a run of several jobs through one ledger.
type Report struct {
	Results   []Result
	Ledger    Ledger
	Done      int // jobs done
	GaveUp    int // jobs that ran out of attempts
	Refused   int // jobs that could not be retried
	OutOfTime int // jobs the policy's limit on total time stopped
}

// RunAll runs the jobs in order through one ledger, with the reference's
// exponential waits.
func RunAll(jobs []Job, s backoff.Settings) Report {
	return RunAllUnder(jobs, s.Policy(backoff.Exponential), s)
}

// RunAllUnder runs the jobs in order through one ledger, waiting as policy
// p does: job i (from 1) as the crowd's client i.
func RunAllUnder(jobs []Job, p backoff.Policy, s backoff.Settings) Report {
	var r Report
	for i, j := range jobs {
		n, err := r.Ledger.Run(j, backoff.ScheduleOf(p, s, i+1))
		var late *OutOfTimeError
		switch {
		case err == nil:
			r.Done++
		case errors.Is(err, ErrNotRetryable):
			r.Refused++
		case errors.As(err, &late):
			r.OutOfTime++
		default:
			r.GaveUp++
		}
		r.Results = append(r.Results, Result{Job: j, Attempt: n, Err: err})
	}
	return r
}

// ErrTooManyJobs is a line of more than MaxJobs jobs; errors.Is finds it in
// a *TooManyJobsError.
var ErrTooManyJobs = fmt.Errorf("more than %d jobs", MaxJobs)

// TooManyJobsError is a line of Count jobs, more than MaxJobs.
type TooManyJobsError struct {
	Count int
}

func (e *TooManyJobsError) Error() string {
	return fmt.Sprintf("%d jobs, want at most %d", e.Count, MaxJobs)
}

// Is makes errors.Is(err, ErrTooManyJobs) hold.
func (e *TooManyJobsError) Is(target error) bool { return target == ErrTooManyJobs }

// FormatError is a job not written name:number or name:fatal.
type FormatError struct {
	Job string // the word as typed
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("job %q: want name:number (0 to 999 failures, 1 to 3 digits) or name:fatal", e.Job)
}

// FailureDigits is how many digits a job's failures may have: 1 to 3, as
// the reference reads them, so 099 is 99 and 0000, which has 4, is refused
// though it is 0. The one rule of --plain, the reports and the
// full-screen program.
const FailureDigits = 3

// DigitsRule is the rule a job's failures break when they are all digits
// but more than FailureDigits of them: "failures go from 0 to 999" when
// they are more, else "failures are written in 1 to 3 digits: 0099 has 4;
// write 99".
func DigitsRule(failures string) string {
	n := strings.TrimLeft(failures, "0")
	if n == "" {
		n = "0"
	}
	if len(n) > FailureDigits {
		return "failures go from 0 to 999"
	}
	return fmt.Sprintf("failures are written in 1 to %d digits: %s has %d; write %s", FailureDigits, failures, len(failures), n)
}

// Rule is the rule the job breaks, in words: "failures go from 0 to 999".
func (e *FormatError) Rule() string {
	colon := strings.IndexByte(e.Job, ':')
	rest := e.Job[colon+1:]
	switch {
	case colon < 0:
		return "a job is name:failures (0 to 999) or name:fatal"
	case colon == 0:
		return "the name before the colon is empty"
	case rest == "":
		return "nothing after the colon: give the failures, 0 to 999, or fatal"
	case strings.Trim(rest, "0123456789") == "":
		return DigitsRule(rest)
	}
	return "after the colon come the failures, a whole number from 0 to 999, or fatal"
}

// DuplicateError is a line that names a job twice.
type DuplicateError struct {
	Name string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%s appears twice; give each job its own name", e.Name)
}

// CheckUnique refuses a line that names a job twice, with a
// *DuplicateError for the first name seen again. Parse takes repeated
// names, as the reference does; the reports call this.
func CheckUnique(jobs []Job) error {
	seen := make(map[string]bool, len(jobs))
	for _, j := range jobs {
		if seen[j.Name] {
			return &DuplicateError{Name: j.Name}
		}
		seen[j.Name] = true
	}
	return nil
}

// Parse reads jobs separated by spaces, each read by ParseJob. It checks
// every job's form before their number, so a malformed job is reported even
// in a line of too many. A line with no jobs gives none and no error.
func Parse(line string) ([]Job, error) {
	var jobs []Job
	for _, word := range strings.Split(line, " ") {
		if word == "" {
			continue
		}
		j, err := ParseJob(word)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, j)
	}
	if len(jobs) > MaxJobs {
		return nil, &TooManyJobsError{Count: len(jobs)}
	}
	return jobs, nil
}

// ParseJob reads one job, written without spaces: name:failures (1 to
// FailureDigits digits, as the reference reads them) or name:fatal. The name is what comes before the first colon and
// must not be empty; anything else is a *FormatError.
func ParseJob(word string) (Job, error) {
	colon := strings.IndexByte(word, ':')
	if colon < 1 || colon == len(word)-1 {
		return Job{}, &FormatError{Job: word}
	}
	name, rest := word[:colon], word[colon+1:]
	if rest == "fatal" {
		return Job{Name: name, Fatal: true}, nil
	}
	n, ok := backoff.ParseDigits(rest, FailureDigits)
	if !ok {
		return Job{}, &FormatError{Job: word}
	}
	return Job{Name: name, Failures: n}, nil
}

// NameError is a job whose name holds a character that does not show as
// itself (glyph.Unseen): a format character, such as U+200B, which shows
// as nothing, or U+202E, which turns the text after it around; another
// default-ignorable one, such as the Hangul filler U+3164; a blank other
// than the space, such as U+2800 or the line separator U+2028. A report that
// writes the name would not show what it says, and two jobs could look
// the same.
type NameError struct {
	Job  Job
	Char rune // the first such character in the name
}

func (e *NameError) Error() string {
	return fmt.Sprintf("job %s: a name cannot hold a character that does not show as itself (invisible, blank or direction-changing), here %U",
		glyph.Quote(e.Job.String()), e.Char)
}

// CheckNames refuses a job whose name holds a character that does not
// show as itself, with a *NameError. Parse takes any name, as the
// reference does (--plain keeps its behaviour); the reports and the
// full-screen program call this too.
func CheckNames(jobs []Job) error {
	for _, j := range jobs {
		if r, ok := glyph.First(j.Name); ok {
			return &NameError{Job: j, Char: r}
		}
	}
	return nil
}
