package report

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
)

// A cell a spreadsheet would run as a formula gets a leading ', whatever
// its first character; any other cell is written as it is.
func TestCSVNeutralisesFormulas(t *testing.T) {
	tests := []struct {
		name string
		want string
	}{
		{"=cmd()|calc", "'=cmd()|calc"},
		{"+1+1", "'+1+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"alpha", "alpha"},
		{"a=b", "a=b"},
		{"'quoted", "'quoted"},
		{" =x", " =x"},
	}
	for _, tt := range tests {
		r := ledger.RunAll([]ledger.Job{{Name: tt.name}}, backoff.Defaults())
		doc := JobsCSV(r)
		records, err := csv.NewReader(strings.NewReader(doc)).ReadAll()
		if err != nil || len(records) != 2 {
			t.Fatalf("%q: got %d records, %v; want a header and a row:\n%s", tt.name, len(records), err, doc)
		}
		if got := records[1][0]; got != tt.want {
			t.Errorf("%q: cell got %q, want %q", tt.name, got, tt.want)
		}
	}
	// Every CSV goes through it, the header and the numbers too, which
	// never begin so.
	if got := CrowdCSV(five(t, backoff.Defaults(), false)); strings.Contains(got, "'") {
		t.Errorf("the crowd's CSV: got a quote mark in\n%s", got)
	}
}

// five is the five shapes' crowds under s, with their series when asked.
func five(t testing.TB, s backoff.Settings, series bool) []backoff.Result {
	t.Helper()
	results, err := backoff.RunAll(s.Five(), s, backoff.Options{Series: series}, 2)
	if err != nil {
		t.Fatal(err)
	}
	return results
}

// Issue 24, item 1: a share of clients not through is of the clients the
// outage touched, so the same run with a longer load window says the same:
// 2,000 clients, a 10 s outage, capacity 200 a second and a load of 150 a
// second until 70 s or until 5 min. The service is stable long before
// either end, so the later clients all get through: the clients grow from
// 12,500 to 47,000, those touched and those lost stay as they are, and the
// verdicts, the ranking and the table of clients not through read the same.
func TestShareOfClientsTouchedIgnoresTheLoadWindow(t *testing.T) {
	run := func(until int) (backoff.Settings, []backoff.Result) {
		t.Helper()
		s := backoff.Defaults()
		s.Clients, s.Outage, s.Capacity, s.Load, s.LoadUntil = 2000, 10000, 200, 150, until
		ps := []backoff.Policy{s.Five()[backoff.Fixed], s.Five()[backoff.FullJitter]}
		rs, err := backoff.RunAll(ps, s, backoff.Options{}, 2)
		if err != nil {
			t.Fatal(err)
		}
		return s, rs
	}
	short, rsShort := run(70000)
	long, rsLong := run(300000)
	for i := range rsShort {
		a, b := rsShort[i].Figures, rsLong[i].Figures
		if a.Clients == b.Clients || a.NotThrough != b.NotThrough || a.ClientsTouched != b.ClientsTouched {
			t.Fatalf("%s: clients %d and %d, not through %d and %d, touched %d and %d: want more clients, the same lost and touched",
				rsShort[i].Policy.Name, a.Clients, b.Clients, a.NotThrough, b.NotThrough, a.ClientsTouched, b.ClientsTouched)
		}
	}
	got, want := VerdictBlock(long, rsLong, nil), VerdictBlock(short, rsShort, nil)
	if got != want {
		t.Errorf("load until 5 min:\n%s\nwant what load until 70 s says:\n%s", got, want)
	}
	// fixed: 3,100 of the 4,550 clients the outage touched.
	if line := "3,100 of the 4,550 clients the outage touched (68.1%) never get through"; !strings.Contains(got, line) {
		t.Errorf("got\n%s\nwant it to say %q", got, line)
	}
}

// Issue 24, item 13: where clients were lost, the latest served attempt is
// named the last success in the text reports: the verdict block says what
// the first table's all through by is, the spread over seeds and the A/B
// comparison name the row so. Where none is lost, all through by stays.
func TestLastSuccessInTheReports(t *testing.T) {
	s := backoff.Defaults()
	run := func(ps ...backoff.Policy) []backoff.Result {
		t.Helper()
		rs, err := backoff.RunAll(ps, s, backoff.Options{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	fixed, exp := s.Five()[backoff.Fixed], s.Five()[backoff.Exponential]
	lost, none := run(fixed, exp), run(exp) // fixed's 200 all give up
	if got := VerdictBlock(s, lost, nil); !strings.Contains(got, "all through by, in the first table, is the last success") {
		t.Errorf("fixed loses every client: got\n%s\nwant it to say all through by is the last success", got)
	}
	if got := VerdictBlock(s, none, nil); strings.Contains(got, "is the last success") {
		t.Errorf("every client through: got\n%s\nwant no last success", got)
	}
	spread := func(ps ...backoff.Policy) backoff.SeedsCrowd {
		sc, err := backoff.RunSeeds(ps, s, 3, backoff.SeedOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	if got := SeedsText(s, spread(fixed, exp)); !strings.Contains(got, "  last success ") || strings.Contains(got, "all through by") {
		t.Errorf("over seeds, fixed losing: got\n%s\nwant the row named last success", got)
	}
	if got := SeedsText(s, spread(exp)); !strings.Contains(got, "  all through by ") {
		t.Errorf("over seeds, none lost: got\n%s\nwant the row named all through by", got)
	}
	cmp := CompareText(Comparison{A: CompareSide{Settings: s, Results: lost}, B: CompareSide{Settings: s, Results: lost}})
	if !strings.Contains(cmp, "  last success ") {
		t.Errorf("A/B, fixed losing: got\n%s\nwant the row named last success", cmp)
	}
}

// Issue 24, item 12: the text, the CSV and the JSON write the retries a
// client and the rates a second as words rounds them: 5,548 retries over
// 10,000 clients are 0.55 in each (the JSON said 0.554, the text 0.55).
func TestReportsRoundAsWordsDoes(t *testing.T) {
	s := backoff.Defaults()
	r := []backoff.Result{{Policy: s.Five()[backoff.Fixed], Figures: backoff.Figures{Clients: 10000, ClientsTouched: 10000, Retries: 5548, MostInASlot: 28}}}
	s.Slot = 30
	if got := CrowdReportDoc(s, r, nil); !strings.Contains(got, `"retries_per_client": 0.55,`) || !strings.Contains(got, `"most_in_a_slot_per_s": 933,`) {
		t.Errorf("JSON: got\n%s\nwant retries_per_client 0.55 and most_in_a_slot_per_s 933", got)
	}
	if got := CrowdReportCSV(s, r); !strings.Contains(got, ",0.55,933,") {
		t.Errorf("CSV: got\n%s\nwant 0.55 and 933", got)
	}
	if got := ratesTable(s, r); !strings.Contains(got, " 0.55 ") || !strings.Contains(got, "28 (933/s)") {
		t.Errorf("text: got\n%s\nwant 0.55 and 28 (933/s)", got)
	}
}
