package pane

import (
	"strconv"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
	"github.com/retryplanner/retry-planner/views/plain"
	"github.com/retryplanner/retry-planner/views/words"
)

// Pane 4 says what the jobs report and --plain say, in the reference's
// words (issue 19, item 10): the finally block, given up, refused, retry
// after; only the waits are in the units people read.
func TestJobsPaneSpeaksAsTheReport(t *testing.T) {
	jobs, err := ledger.Parse("alpha:0 bravo:2 charlie:9 delta:fatal echo:3")
	if err != nil {
		t.Fatal(err)
	}
	s := backoff.Defaults()
	p := s.Policy(backoff.Exponential)
	limited := p
	limited.MaxElapsed = 2500 // bravo, charlie and echo run out of time on their third attempt
	for _, pol := range []backoff.Policy{p, limited} {
		r := ledger.RunAllUnder(jobs, pol, s)
		outcomes := map[ledger.Outcome]bool{}
		for _, e := range r.Ledger.Entries {
			outcomes[e.Outcome] = true
			want := strings.TrimPrefix(e.String(), e.Job+" attempt "+strconv.Itoa(e.Attempt)+": ")
			if e.Outcome == ledger.Retry {
				want = strings.Replace(want, strconv.Itoa(e.Wait)+" ms", words.Human(e.Wait), 1)
			}
			if got := entryOutcome(e); got != want {
				t.Errorf("%s: got %q, want %q", e, got, want)
			}
		}
		for _, res := range r.Results {
			if got := jobLine(res); got != res.String() {
				t.Errorf("job %s: got %q, want %q", res.Job.Name, got, res.String())
			}
		}
		want := strings.Replace(plain.LedgerCounts(r), strconv.Itoa(r.Ledger.Waited)+" ms", words.Human(r.Ledger.Waited), 1)
		if got := JobsCounts(r); !strings.HasPrefix(got, want) {
			t.Errorf("counts: got %q, want it to start %q", got, want)
		}
		if pol.MaxElapsed > 0 && (!outcomes[ledger.OutOfTime] || r.OutOfTime != 3 || !strings.HasSuffix(JobsCounts(r), "\nJobs out of time: 3.")) {
			t.Errorf("limit 2.5 s: outcomes %v, counts %q; want three jobs out of time, said so", outcomes, JobsCounts(r))
		}
	}
	if JobsCheck != plain.LedgerCheck {
		t.Errorf("the self-check: got %q, want %q", JobsCheck, plain.LedgerCheck)
	}
}
