package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// guardedTimeline is a hand-made run of 4 clients with a breaker, in
// 100 ms slots: the 4 first attempts fail while down at 0 ms, a breaker
// opens at 300 ms (slot 3, where nothing is sent), 3 retries are
// short-circuited at 500 ms and one served at 1,200 ms.
func guardedTimeline(rowMs int) Timeline {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Breaker = 4, 1000, 100, backoff.Breaker{Failures: 2, Open: 500}
	n := 13
	se := &backoff.Series{Slot: 100, Breaker: true, Retries: make([]int, n), Served: make([]int, n), Rejected: make([]int, n),
		FailedWhileDown: make([]int, n), ShortCircuited: make([]int, n), Opened: make([]int, n)}
	se.FailedWhileDown[0] = 4
	se.Opened[3] = 1
	se.Retries[5], se.ShortCircuited[5] = 3, 3
	se.Retries[12], se.Served[12] = 1, 1
	p := s.Five()[backoff.Exponential]
	return Timeline{Settings: s, RowMs: rowMs, Runs: []backoff.Result{{Policy: p, Series: se}}}
}

// With a breaker the timeline's CSV adds short_circuited and
// breaker_opened to every row, and a row in which a breaker opened is a
// busy row of the text even without an attempt; without one neither
// column is there.
func TestTimelineBreakerColumns(t *testing.T) {
	var b bytes.Buffer
	if err := guardedTimeline(100).WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if want := "from_ms,retries,attempts,served,rejected,failed_while_down,capacity,short_circuited,breaker_opened,slot_ms,row_ms"; lines[0] != want {
		t.Errorf("head %q, want %q", lines[0], want)
	}
	// Rows 0 to 12 (the last with an attempt), 13 of them; row 3 holds the
	// breaker opened, row 5 the 3 short-circuited, which are its
	// attempts; row 12 is back (1,200 ms >= 1,000), with 10 of capacity.
	for i, want := range map[int]string{1: "0,0,4,0,0,4,,0,0,100,100", 4: "300,0,0,0,0,0,,0,1,100,100",
		6: "500,3,3,0,0,0,,3,0,100,100", 13: "1200,1,1,1,0,0,10,0,0,100,100"} {
		if lines[i] != want {
			t.Errorf("line %d: got %q, want %q", i, lines[i], want)
		}
	}
	if len(lines) != 14 {
		t.Errorf("got %d lines, want the head and 13 rows", len(lines))
	}
	var text bytes.Buffer
	if err := guardedTimeline(100).WriteText(&text); err != nil {
		t.Fatal(err)
	}
	// The table by outcome lists 0, 300 (a breaker opened), 500 and
	// 1,200 ms, and not the empty rows between.
	for _, want := range []string{"short-circuited   breaker opened", "\n   300 ms          0 ", "Short-circuited: attempts a breaker failed at once"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text has no %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), "\n   400 ms") {
		t.Errorf("the text lists the empty row from 400 ms:\n%s", text.String())
	}
	off := guardedTimeline(100)
	off.Settings.Breaker = backoff.Breaker{}
	off.Runs[0].Series.Breaker = false
	b.Reset()
	if err := off.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if head, _, _ := strings.Cut(b.String(), "\n"); strings.Contains(head, "short") || strings.Contains(head, "breaker") {
		t.Errorf("without a breaker the head is %q", head)
	}
}

// The crowd report's service table counts short-circuited attempts
// among the outcomes, which then add up to the attempts, and the
// breakers opened, only where a breaker is set.
func TestServiceTableBreaker(t *testing.T) {
	s := backoff.Defaults()
	s.Capacity, s.Breaker = 100, backoff.Breaker{Failures: 5, Open: 30000}
	p := s.Five()[backoff.Exponential]
	// 10 attempts: 2 served, 1 rejected, 4 failed while down, 3
	// short-circuited; 2 breakers opened.
	f := backoff.Figures{Clients: 4, Attempts: 10, Served: 2, Rejected: 1, FailedWhileDown: 4, ShortCircuited: 3, BreakerOpened: 2, Through: 2, GaveUp: 2, SlotCapacity: 10}
	out := ServiceTable(s, []backoff.Result{{Policy: p, Figures: f}})
	for _, want := range []string{"failed while down   short-circuited   through", "exponential            4         10        2          1                   4                 3         2",
		"latency max   breaker opened", "a breaker shared by every client: 5 failures in a row open it for 30 s"} {
		if !strings.Contains(out, want) {
			t.Errorf("the service table has no %q:\n%s", want, out)
		}
	}
	s.Breaker = backoff.Breaker{}
	if out := ServiceTable(s, []backoff.Result{{Policy: p, Figures: f}}); strings.Contains(out, "short-circuited") || strings.Contains(out, "breaker") {
		t.Errorf("without a breaker:\n%s", out)
	}
}
