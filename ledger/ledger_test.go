package ledger

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

func TestParse(t *testing.T) {
	tests := []struct {
		line string
		want []Job
		err  error
	}{
		{"alpha:0 bravo:2 charlie:9 delta:fatal", []Job{{"alpha", 0, false}, {"bravo", 2, false}, {"charlie", 9, false}, {"delta", 0, true}}, nil},
		{"   a:007    b:999  ", []Job{{"a", 7, false}, {"b", 999, false}}, nil},
		{"", nil, nil},
		{"a:1 a:fatal", []Job{{"a", 1, false}, {"a", 0, true}}, nil},
		{"日本:3", []Job{{"日本", 3, false}}, nil},
		{"a:1\tb:2", nil, &FormatError{}}, // only spaces separate jobs
		{"alpha", nil, &FormatError{}},
		{":3", nil, &FormatError{}},
		{"a:", nil, &FormatError{}},
		{"a:x", nil, &FormatError{}},
		{"a:1000", nil, &FormatError{}},
		{"a:-1", nil, &FormatError{}},
		{"a:FATAL", nil, &FormatError{}},
		{"a:fatal:x", nil, &FormatError{}},
		{"a:0:1", nil, &FormatError{}},
		{"a:1 b:1 c:1 d:1 e:1 f:1 g:1 h:1", []Job{{"a", 1, false}, {"b", 1, false}, {"c", 1, false}, {"d", 1, false}, {"e", 1, false}, {"f", 1, false}, {"g", 1, false}, {"h", 1, false}}, nil},
		{"a:1 b:1 c:1 d:1 e:1 f:1 g:1 h:1 i:1", nil, ErrTooManyJobs},
		{"a:1 b:x c:1 d:1 e:1 f:1 g:1 h:1 i:1", nil, &FormatError{}}, // the form is checked first
	}
	for _, tt := range tests {
		got, err := Parse(tt.line)
		switch want := tt.err.(type) {
		case nil:
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("Parse(%q): got %v, %v; want %v", tt.line, got, err, tt.want)
			}
		case *FormatError:
			var fe *FormatError
			if !errors.As(err, &fe) || got != nil {
				t.Errorf("Parse(%q): got %v, %v; want a *FormatError", tt.line, got, err)
			}
			_ = want
		default:
			if !errors.Is(err, tt.err) || got != nil {
				t.Errorf("Parse(%q): got %v, %v; want %v", tt.line, got, err, tt.err)
			}
		}
	}
}

func TestRunAllAtTheDefaults(t *testing.T) {
	jobs, err := Parse("alpha:0 bravo:2 charlie:9 delta:fatal")
	if err != nil {
		t.Fatal(err)
	}
	r := RunAll(jobs, backoff.Defaults())
	var results []string
	for _, res := range r.Results {
		results = append(results, res.String())
	}
	wantResults := []string{"alpha: done on attempt 1", "bravo: done on attempt 3", "charlie: gave up after 6 attempts", "delta: cannot be retried"}
	if !slices.Equal(results, wantResults) {
		t.Errorf("results: got %q, want %q", results, wantResults)
	}
	var entries []string
	for _, e := range r.Ledger.Entries {
		entries = append(entries, e.String())
	}
	wantEntries := []string{
		"alpha attempt 1: done",
		"bravo attempt 1: failed, retry after 1000 ms",
		"bravo attempt 2: failed, retry after 2000 ms",
		"bravo attempt 3: done",
		"charlie attempt 1: failed, retry after 1000 ms",
		"charlie attempt 2: failed, retry after 2000 ms",
		"charlie attempt 3: failed, retry after 4000 ms",
		"charlie attempt 4: failed, retry after 8000 ms",
		"charlie attempt 5: failed, retry after 16000 ms",
		"charlie attempt 6: failed, no attempts left",
		"delta attempt 1: cannot be retried, stopped",
	}
	if !slices.Equal(entries, wantEntries) {
		t.Errorf("ledger:\n got %q\nwant %q", entries, wantEntries)
	}
	l := r.Ledger
	if l.Attempts != 11 || l.Successes != 2 || l.Failures != 9 || l.FinallyRuns != 11 || l.Waited != 34000 || !l.Balanced() {
		t.Errorf("counts: got %+v, want 11 attempts, 2 done, 9 failed, finally 11 times, 34000 ms, balanced", l)
	}
	if r.Done != 2 || r.GaveUp != 1 || r.Refused != 1 {
		t.Errorf("outcomes: got %d, %d, %d; want 2, 1, 1", r.Done, r.GaveUp, r.Refused)
	}
}

func TestErrorsCanBeToldApart(t *testing.T) {
	s := backoff.Defaults()
	var l Ledger
	sched := backoff.ScheduleOf(s.Policy(backoff.Exponential), s, 1)
	_, err := l.Run(Job{Name: "d", Fatal: true}, sched)
	var nr *NotRetryableError
	if !errors.Is(err, ErrNotRetryable) || !errors.As(err, &nr) || nr.Job != "d" {
		t.Errorf("fatal job: got %v, want a *NotRetryableError that is ErrNotRetryable", err)
	}
	_, err = l.Run(Job{Name: "c", Failures: 99}, sched)
	var gu *GaveUpError
	if errors.Is(err, ErrNotRetryable) || !errors.As(err, &gu) || gu.Attempts != 6 {
		t.Errorf("failing job: got %v, want a *GaveUpError after 6 attempts, not ErrNotRetryable", err)
	}
	if err := (Job{Name: "b", Failures: 1}).Attempt(1); errors.Is(err, ErrNotRetryable) {
		t.Errorf("a retryable failure is not ErrNotRetryable: got %v", err)
	}
}

// The ledger balances for every mix of jobs and settings, and its counts
// follow from the jobs alone.
func TestLedgerBalances(t *testing.T) {
	for attempts := 2; attempts <= 12; attempts++ {
		s := backoff.Defaults()
		s.Attempts = attempts
		for failures := 0; failures <= 13; failures++ {
			jobs := []Job{{Name: "x", Failures: failures}, {Name: "y", Fatal: true}, {Name: "z"}}
			r := RunAll(jobs, s)
			tries := min(failures+1, attempts)
			wantAttempts := tries + 1 + 1
			if !r.Ledger.Balanced() || r.Ledger.Attempts != wantAttempts || len(r.Ledger.Entries) != wantAttempts {
				t.Fatalf("attempts %d, failures %d: got %+v, want %d attempts, balanced", attempts, failures, r.Ledger, wantAttempts)
			}
			// A wait follows each failed attempt but the last one allowed.
			wantWait := 0
			for n := 1; n <= min(failures, attempts-1); n++ {
				wantWait += backoff.Expo(s.FirstWait, s.LongestWait, n)
			}
			if r.Ledger.Waited != wantWait {
				t.Fatalf("attempts %d, failures %d: waited %d, want %d", attempts, failures, r.Ledger.Waited, wantWait)
			}
		}
	}
}

func TestJobString(t *testing.T) {
	for _, line := range []string{"a:0", "b:999", "c:fatal"} {
		jobs, err := Parse(line)
		if err != nil || len(jobs) != 1 || jobs[0].String() != line {
			t.Errorf("Parse(%q) then String: got %v, %v", line, jobs, err)
		}
	}
}

// referenceParse follows the reference's rules literally, character by
// character, as an oracle for Parse.
func referenceParse(t string) (n int, ok bool, tooMany bool) {
	var words []string
	w := ""
	for _, c := range t + " " {
		if c == ' ' {
			if w != "" {
				words = append(words, w)
			}
			w = ""
		} else {
			w += string(c)
		}
	}
	for _, item := range words {
		colon := strings.Index(item, ":")
		if colon < 1 || colon == len(item)-1 {
			return 0, false, false
		}
		rest := item[colon+1:]
		if rest == "fatal" {
			n++
			continue
		}
		if len([]rune(rest)) > 3 {
			return 0, false, false
		}
		for _, c := range rest {
			if c < '0' || c > '9' {
				return 0, false, false
			}
		}
		n++
	}
	if n > 8 {
		return n, false, true
	}
	return n, true, false
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"alpha:0 bravo:2 charlie:9 delta:fatal", "a", ":3", "a:x", "a:1 b:1 c:1 d:1 e:1 f:1 g:1 h:1 i:1", "ü:1", "a:\xff", "\xff:fatal", "a::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		jobs, err := Parse(line)
		n, ok, tooMany := referenceParse(line)
		switch {
		case ok && (err != nil || len(jobs) != n):
			t.Fatalf("Parse(%q): got %d jobs, %v; the reference takes %d", line, len(jobs), err, n)
		case tooMany && !errors.Is(err, ErrTooManyJobs):
			t.Fatalf("Parse(%q): got %v, want ErrTooManyJobs", line, err)
		case !ok && !tooMany:
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Parse(%q): got %v, %v; want a *FormatError", line, jobs, err)
			}
		}
		if err != nil {
			return
		}
		// What parsed writes back and parses the same, and runs balanced.
		var words []string
		for _, j := range jobs {
			words = append(words, j.String())
		}
		again, err := Parse(strings.Join(words, " "))
		if err != nil || !slices.Equal(again, jobs) {
			t.Fatalf("Parse(%q) written back as %q: got %v, %v", line, words, again, err)
		}
		if r := RunAll(jobs, backoff.Defaults()); !r.Ledger.Balanced() || r.Done+r.GaveUp+r.Refused != len(jobs) {
			t.Fatalf("RunAll(%v): unbalanced %+v", jobs, r)
		}
	})
}

func ExampleRunAll() {
	jobs, _ := Parse("alpha:0 bravo:2 charlie:9 delta:fatal")
	r := RunAll(jobs, backoff.Defaults())
	for _, res := range r.Results {
		fmt.Println(res)
	}
	fmt.Println(r.Ledger.Attempts, r.Ledger.FinallyRuns, r.Ledger.Waited, r.Ledger.Balanced())
	// Output:
	// alpha: done on attempt 1
	// bravo: done on attempt 3
	// charlie: gave up after 6 attempts
	// delta: cannot be retried
	// 11 11 34000 true
}

func TestCheckNames(t *testing.T) {
	tests := []struct {
		line string
		char rune // 0: taken
	}{
		{"alpha:0 bravo:2", 0},
		{"héllo:1 日本:fatal", 0},
		{"a\u202eb:1", 0x202E},
		{"ok:0 \u200bx:fatal", 0x200B},
		{"\ufeffbom:2", 0xFEFF},
		{"soft\u00adhyphen:3", 0xAD},
		{"a\u2066b\u2069:0", 0x2066},
		// Outside category Cf, and as unseen: default-ignorable fillers and
		// joiners, a blank pattern, a line separator, a no-break space.
		{"a\u3164:1", 0x3164},
		{"\u115fb:1", 0x115F},
		{"e\u034f:2", 0x034F},
		{"x\u2800:fatal", 0x2800},
		{"l\u2028m:0", 0x2028},
		{"n\u00a0o:0", 0x00A0},
		{"v\ufe0f:0", 0xFE0F},
		{"ideo\u3000:0", 0x3000},
		{"ok:0 é:1 a\u0301:1 😀:2", 0}, // accents and symbols show
	}
	for _, tt := range tests {
		jobs, err := Parse(tt.line)
		if err != nil {
			t.Fatalf("Parse(%q): %v; the reference takes any name", tt.line, err)
		}
		err = CheckNames(jobs)
		var ne *NameError
		switch {
		case tt.char == 0 && err != nil:
			t.Errorf("%q: got %v, want nil", tt.line, err)
		case tt.char != 0 && (!errors.As(err, &ne) || ne.Char != tt.char):
			t.Errorf("%q: got %v, want a *NameError for %U", tt.line, err, tt.char)
		case tt.char != 0 && strings.ContainsRune(err.Error(), tt.char):
			t.Errorf("%q: the message %q holds the character itself", tt.line, err)
		}
	}
}

// Under another policy the jobs wait its waits, job i as the crowd's client
// i: with full jitter each job's wait after attempt 1 is that client's first
// draw; with three attempts a job stops after its third.
func TestJobsUnderAPolicy(t *testing.T) {
	s := backoff.Defaults()
	full := s.Policy(backoff.FullJitter)
	full.Attempts = 3
	jobs := []Job{{Name: "a", Failures: 9}, {Name: "b", Failures: 1}}
	r := RunAllUnder(jobs, full, s)
	a1 := backoff.ScheduleOf(full, s, 1).Retries
	b1 := backoff.ScheduleOf(full, s, 2).Retries
	want := []Entry{
		{Job: "a", Attempt: 1, Outcome: Retry, Wait: a1[0].Wait},
		{Job: "a", Attempt: 2, Outcome: Retry, Wait: a1[1].Wait},
		{Job: "a", Attempt: 3, Outcome: LastFail},
		{Job: "b", Attempt: 1, Outcome: Retry, Wait: b1[0].Wait},
		{Job: "b", Attempt: 2, Outcome: Done},
	}
	if len(r.Ledger.Entries) != len(want) {
		t.Fatalf("entries: got %+v, want %+v", r.Ledger.Entries, want)
	}
	for i, e := range r.Ledger.Entries {
		if e != want[i] {
			t.Errorf("entry %d: got %+v, want %+v", i, e, want[i])
		}
	}
	if r.Done != 1 || r.GaveUp != 1 || !r.Ledger.Balanced() || r.Ledger.Waited != a1[0].Wait+a1[1].Wait+b1[0].Wait {
		t.Errorf("got %+v", r)
	}
	if a1[0].Wait == b1[0].Wait {
		t.Errorf("jobs a and b waited alike (%d ms): want each its own client's draws", a1[0].Wait)
	}
	// The reference's jobs wait its exponential waits.
	if got, want := RunAll(jobs, s).Ledger.Waited, RunAllUnder(jobs, s.Policy(backoff.Exponential), s).Ledger.Waited; got != want || got != 1000+2000+4000+8000+16000+1000 {
		t.Errorf("exponential: waited %d and %d, want 32000", got, want)
	}
}

// A policy's limit on total time stops a job whose next attempt would come
// past it: the job is out of time, not given up, and its ledger balances.
func TestJobsOutOfTime(t *testing.T) {
	s := backoff.Defaults()
	p := s.Policy(backoff.Exponential) // waits 1000, 2000, 4000, 8000, 16000: attempts at 0, 1000, 3000, 7000, 15000, 31000 ms
	p.MaxElapsed = 10000
	r := RunAllUnder([]Job{{Name: "a", Failures: 9}, {Name: "b", Failures: 2}}, p, s)
	want := []Entry{
		{Job: "a", Attempt: 1, Outcome: Retry, Wait: 1000},
		{Job: "a", Attempt: 2, Outcome: Retry, Wait: 2000},
		{Job: "a", Attempt: 3, Outcome: Retry, Wait: 4000},
		{Job: "a", Attempt: 4, Outcome: OutOfTime}, // attempt 5 would come at 15000 ms
		{Job: "b", Attempt: 1, Outcome: Retry, Wait: 1000},
		{Job: "b", Attempt: 2, Outcome: Retry, Wait: 2000},
		{Job: "b", Attempt: 3, Outcome: Done},
	}
	if !slices.Equal(r.Ledger.Entries, want) {
		t.Fatalf("entries: got %+v, want %+v", r.Ledger.Entries, want)
	}
	var late *OutOfTimeError
	if !errors.As(r.Results[0].Err, &late) || late.Attempts != 4 || late.Limit != 10000 || r.Results[0].Attempt != 4 {
		t.Errorf("a: got %v after attempt %d, want out of time after 4 attempts", r.Results[0].Err, r.Results[0].Attempt)
	}
	if got, want := r.Results[0].String(), "a: out of time after 4 attempts (the next would pass 10000 ms)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := want[3].String(), "a attempt 4: failed, out of time"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if r.Done != 1 || r.OutOfTime != 1 || r.GaveUp != 0 || !r.Ledger.Balanced() || r.Ledger.Waited != 10000 {
		t.Errorf("got %+v, want 1 done, 1 out of time, balanced, 10000 ms waited", r)
	}
}

// A malformed job's rule, in words.
func TestFormatErrorRule(t *testing.T) {
	for _, tt := range []struct{ word, rule string }{
		{"alpha", "a job is name:failures (0 to 999) or name:fatal"},
		{":3", "the name before the colon is empty"},
		{"a:", "nothing after the colon: give the failures, 0 to 999, or fatal"},
		// One rule, the reference's: 1 to 3 digits. 099 is 99; 0099 is 99
		// too but has 4 digits, and 0000 is 0 with 4.
		{"alpha:1000", "failures go from 0 to 999"},
		{"alpha:01000", "failures go from 0 to 999"},
		{"alpha:0000", "failures are written in 1 to 3 digits: 0000 has 4; write 0"},
		{"a:0099", "failures are written in 1 to 3 digits: 0099 has 4; write 99"},
		{"a:000000000999", "failures are written in 1 to 3 digits: 000000000999 has 12; write 999"},
		{"a:x", "after the colon come the failures, a whole number from 0 to 999, or fatal"},
		{"a:-1", "after the colon come the failures, a whole number from 0 to 999, or fatal"},
		{"a:b:1", "after the colon come the failures, a whole number from 0 to 999, or fatal"},
	} {
		_, err := ParseJob(tt.word)
		var ferr *FormatError
		if !errors.As(err, &ferr) {
			t.Fatalf("%q: got %v, want a *FormatError", tt.word, err)
		}
		if got := ferr.Rule(); got != tt.rule {
			t.Errorf("%q: got %q, want %q", tt.word, got, tt.rule)
		}
	}
}

func TestCheckUnique(t *testing.T) {
	jobs, _ := Parse("a:1 b:2 c:fatal b:0 a:3")
	var dup *DuplicateError
	if err := CheckUnique(jobs); !errors.As(err, &dup) || dup.Name != "b" || err.Error() != "b appears twice; give each job its own name" {
		t.Errorf("got %v, want b twice", err)
	}
	jobs, _ = Parse("a:1 A:2 a.:3")
	if err := CheckUnique(jobs); err != nil {
		t.Errorf("distinct names: got %v", err)
	}
}
