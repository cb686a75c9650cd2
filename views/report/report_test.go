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
