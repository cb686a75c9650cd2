package pane

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
)

// smallGuards is a crowd of 2,000 clients in 4 processes against 200 a
// second, the outage hanging 5 s, a breaker 5:30s and pushback of 2 s:
// every process's breaker opens at 5 s, when the first attempts' hangs
// fail, and short-circuits the retries until 35 s.
func smallGuards() backoff.Settings {
	s := backoff.Defaults()
	s.Clients, s.Capacity, s.Processes = 2000, 200, 4
	s.OutageHang, s.Breaker, s.RetryAfter = 5000, backoff.Breaker{Failures: 5, Open: 30000}, 2000
	return s
}

// A hand-made series with a breaker, in 100 ms slots: rows of 200 ms sum
// the short-circuited attempts and the breakers opened, and a row's
// attempts count its short-circuited ones once, its reached ones not.
func TestAggregateRowsWithABreaker(t *testing.T) {
	se := &backoff.Series{Slot: 100, Breaker: true,
		Retries:         []int{0, 3, 2, 0},
		Served:          []int{0, 0, 1, 0},
		Rejected:        []int{0, 0, 1, 0},
		FailedWhileDown: []int{4, 0, 0, 0},
		ShortCircuited:  []int{0, 3, 1, 0},
		Opened:          []int{0, 1, 0, 2},
	}
	rows := AggregateRows(se, 200)
	want := []SlotRow{
		{Down: 4, Retries: 3, Short: 3, Opened: 1},                    // slots 0 and 1
		{Served: 1, Rejected: 1, Retries: 2, Short: 1, Opened: 0 + 2}, // slots 2 and 3
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d rows, want %d", len(rows), len(want))
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d: got %+v, want %+v", i, rows[i], want[i])
		}
	}
	// Row 0: 4 down + 3 short-circuited = 7 attempts, 4 of them reached
	// the service; row 1: 1 + 1 + 1 = 3, 2 reached.
	for i, tt := range []struct{ attempts, reached int }{{7, 4}, {3, 2}} {
		if got := rows[i].Attempts(); got != tt.attempts {
			t.Errorf("row %d: got %d attempts, want %d", i, got, tt.attempts)
		}
		if got := rows[i].Reached(); got != tt.reached {
			t.Errorf("row %d: got %d reached, want %d", i, got, tt.reached)
		}
	}
	// Without a breaker the same series' counts are not read.
	se.Breaker = false
	if r := AggregateRows(se, 200)[0]; r.Short != 0 || r.Opened != 0 {
		t.Errorf("no breaker: got %+v, want none short-circuited or opened", r)
	}
}

// Pane 3 draws short-circuited attempts in a character of their own,
// marks the rows in which a breaker opened in the gutter and, with one
// column, after the row with how many; the legend says both; every line
// fits the width. Without a breaker neither shows.
func TestPane3Breaker(t *testing.T) {
	st := DefaultStyles()
	td := TimelineData{B: timelineRun(six(t, smallGuards(), 0), 1000), Chosen: int(backoff.Exponential), RowMs: 1000}
	head, body := TimelineHead(td, 120, st), TimelineBody(td, 120, st)
	if flat := strings.Join(strings.Fields(ansi.Strip(head)), " "); !strings.Contains(flat, ShortGlyph+" short-circuited") || !strings.Contains(flat, OpenedMark+" breaker opened") {
		t.Errorf("the legend does not say the short-circuited glyph and the opened mark:\n%s", head)
	}
	// The four processes' breakers open at 5 s, when the first attempts'
	// 5 s hangs fail: the row from 5 s has the mark in its gutter and "⊗ 4".
	lines := strings.Split(ansi.Strip(body), "\n")
	if row := lines[5]; !strings.HasPrefix(row, " 5 s "+OpenedMark) || !strings.HasSuffix(row, OpenedMark+" 4") {
		t.Errorf("the row from 5 s is %q, want the opened mark in its gutter and %s 4 after it", row, OpenedMark)
	}
	if !strings.Contains(body, ShortGlyph) {
		t.Errorf("no short-circuited glyph in\n%s", body)
	}
	if !strings.Contains(head, "reaching it") {
		t.Errorf("the busiest row once back does not say it counts those reaching the service:\n%s", head)
	}
	for w := 0; w <= 140; w += 7 {
		for _, v := range []string{TimelineHead(td, w, st), TimelineBody(td, w, st)} {
			for i, l := range strings.Split(v, "\n") {
				if n := ansi.StringWidth(l); n > w {
					t.Fatalf("width %d: line %d is %d wide: %q", w, i, n, l)
				}
			}
		}
	}
	ptd := TimelineData{B: timelineRun(six(t, backoff.Defaults(), 0), 1000), RowMs: 1000}
	if v := TimelineHead(ptd, 120, st) + TimelineBody(ptd, 120, st); strings.Contains(v, ShortGlyph) || strings.Contains(v, OpenedMark) {
		t.Errorf("without a breaker: the glyph or the mark shows:\n%s", v)
	}
}

// Pane 2's service table adds short-circuited and breaker opened where a
// breaker is set, and its sentence and legend say the guards; without one
// neither column shows.
func TestPane2BreakerColumns(t *testing.T) {
	st := DefaultStyles()
	d := six(t, smallGuards(), 0)
	out := CrowdPane(CrowdData{B: d}, 200, st)
	head := serviceTable(t, out)[0]
	for _, h := range []string{"short", "opened"} { // their short heads
		if !strings.Contains(head, h) {
			t.Errorf("the head %q has no %q", head, h)
		}
	}
	flat := strings.Join(strings.Fields(ansi.Strip(out)), " ")
	for _, want := range []string{"each attempt while the service is down hangs 5 s, then fails", "a breaker in each of 4 processes: 5 failures in a row open it for 30 s",
		"a rejection tells its client to come back after 2 s", "short-circuited: attempts a breaker failed at once"} {
		if !strings.Contains(flat, want) {
			t.Errorf("pane 2 does not say %q:\n%s", want, out)
		}
	}
	if head := serviceTable(t, CrowdPane(CrowdData{B: six(t, smallQueue(), 0)}, 200, st))[0]; strings.Contains(head, "short") || strings.Contains(head, "opened") {
		t.Errorf("without a breaker the head %q has the breaker's columns", head)
	}
}
