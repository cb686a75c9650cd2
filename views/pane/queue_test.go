package pane

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/retryplanner/retry-planner/backoff"
)

// smallQueue is the metastable failure in small: 200 clients of 4
// attempts against 20 a second from a queue of 100, a timeout of 1 s, under
// 19 fresh requests a second; every policy leaves the service overloaded.
func smallQueue() backoff.Settings {
	s := backoff.Defaults()
	s.Attempts, s.Capacity, s.Load, s.Queue, s.Timeout = 4, 20, 19, 100, 1000
	return s
}

// serviceTable is the lines of pane 2's "What the service did" table.
func serviceTable(t *testing.T, out string) []string {
	t.Helper()
	_, after, ok := strings.Cut(out, "What the service did")
	if !ok {
		t.Fatalf("no service table in\n%s", out)
	}
	var lines []string
	for _, l := range strings.Split(after, "\n")[1:] {
		if strings.HasPrefix(l, "*") {
			break
		}
		lines = append(lines, strings.TrimRight(l, " "))
	}
	return lines
}

// Pane 2's service table takes the queue's figures with a queue, and
// marks a policy still overloaded at the load's end with OverloadedMark,
// beside its name and in its "recovered after" column, which says
// "overloaded"; without a queue it has none of them.
func TestPane2QueueColumns(t *testing.T) {
	st := DefaultStyles()
	d := six(t, smallQueue(), 0)
	// A pane of 100 columns takes the heads' short forms.
	table := serviceTable(t, CrowdPane(CrowdData{B: d}, 100, st))
	head := table[0]
	for _, h := range []string{"timed out", "wasted", "queue", "recovered"} {
		if !strings.Contains(head, h) {
			t.Errorf("the head %q has no %q", head, h)
		}
	}
	if strings.Contains(head, "dropped") {
		t.Errorf("the head %q has dropped, though expired requests are wasted", head)
	}
	for i, r := range d.Crowds {
		f := r.Figures
		if !f.StillOverloaded || f.Wasted == 0 || f.QueuePeak != 100 {
			t.Fatalf("%s: overloaded %v, wasted %d, queue peak %d: want a case overloaded, wasting, its queue full", r.Policy.Name, f.StillOverloaded, f.Wasted, f.QueuePeak)
		}
		row := table[2+i] // the head and its rule first
		if !strings.HasPrefix(row, r.Policy.Name+" "+OverloadedMark) || !strings.Contains(row, "overloaded"+OverloadedMark) {
			t.Errorf("%s's row %q: want %s after its name and after overloaded", r.Policy.Name, row, OverloadedMark)
		}
	}
	// Any width, 0 included, keeps every line within it.
	for w := 0; w <= 210; w += 1 + w/40 {
		for i, l := range strings.Split(CrowdPane(CrowdData{B: d}, w, st), "\n") {
			if n := ansi.StringWidth(l); n > w {
				t.Fatalf("width %d: line %d is %d wide: %q", w, i, n, l)
			}
		}
	}
	// Dropping expired requests: a dropped column instead of wasted.
	s := smallQueue()
	s.DropExpired = true
	head = serviceTable(t, CrowdPane(CrowdData{B: six(t, s, 0)}, 100, st))[0]
	if !strings.Contains(head, "dropped") || strings.Contains(head, "wasted") {
		t.Errorf("with drop expired, the head %q: want dropped and no wasted", head)
	}
	// No queue: none of its columns, and no mark where nothing is
	// overloaded.
	s = backoff.Defaults()
	s.Capacity, s.Load = 500, 100
	out := CrowdPane(CrowdData{B: six(t, s, 0)}, 200, st)
	for _, w := range []string{"timed out", "wasted", "queue peak", OverloadedMark} {
		if strings.Contains(out, w) {
			t.Errorf("no queue and nothing overloaded, yet pane 2 says %q", w)
		}
	}
}

// The overloaded mark's style is of its own: in reverse video, which a
// terminal without colour still shows, unlike the worst's.
func TestOverloadedStyle(t *testing.T) {
	defer lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetColorProfile(termenv.ANSI)
	for _, st := range []*Styles{DefaultStyles(), NoColorStyles()} {
		got := st.Overloaded.Render("yes" + OverloadedMark)
		if !strings.Contains(got, "7m") && !strings.Contains(got, ";7") {
			t.Errorf("overloaded %q: want reverse video", got)
		}
		if st.Worst.Render("x") == got {
			t.Errorf("overloaded looks as the worst does")
		}
	}
}

// A hand-made series with a queue, in 100 ms slots: rows of 200 ms sum
// served, wasted and dropped, and take the queue's length at their last
// slot's end; every attempt is counted once, a timed out one where its
// request was wasted or dropped.
func TestAggregateRowsWithAQueue(t *testing.T) {
	se := &backoff.Series{Slot: 100, Queued: true,
		Retries:         []int{0, 2, 1, 0, 0},
		Served:          []int{0, 1, 1, 2, 0},
		Rejected:        []int{0, 0, 3, 0, 0},
		FailedWhileDown: []int{5, 0, 0, 0, 0},
		TimedOut:        []int{0, 2, 1, 0, 0},
		Wasted:          []int{0, 0, 2, 0, 0},
		Dropped:         []int{0, 0, 0, 1, 0},
		Queue:           []int{0, 3, 2, 0, 0},
	}
	rows := AggregateRows(se, 200)
	want := []SlotRow{
		{Served: 1, Rejected: 0, Down: 5, Retries: 2, Wasted: 0, Dropped: 0, Queue: 3}, // slots 0 and 1: the queue at 1's end
		{Served: 3, Rejected: 3, Down: 0, Retries: 1, Wasted: 2, Dropped: 1, Queue: 0}, // slots 2 and 3
		{},
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d rows, want %d", len(rows), len(want))
	}
	total := 0
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d: got %+v, want %+v", i, rows[i], want[i])
		}
		total += rows[i].Attempts()
	}
	// 5 down + 4 served + 3 rejected + 3 timed out (2 wasted, 1 dropped).
	if total != 15 {
		t.Errorf("the rows count %d attempts, want 15", total)
	}
	// Without a queue the same series' wasted and queue are not read.
	se.Queued = false
	if r := AggregateRows(se, 200)[1]; r.Wasted != 0 || r.Dropped != 0 || r.Queue != 0 {
		t.Errorf("no queue: got %+v, want no wasted, dropped or queue", r)
	}
}

// timelineRun is pane 3's run of d in rows of rowMs.
func timelineRun(d RunData, rowMs int) TimelineRun {
	r := TimelineRun{Settings: d.Settings, Policies: d.Policies}
	for _, c := range d.Crowds {
		r.Rows = append(r.Rows, AggregateRows(c.Series, rowMs))
	}
	return r
}

// Pane 3 stacks wasted work in a character of its own, says so in its
// legend, and gives the queue's length after the row against its limit;
// every line fits the width.
func TestPane3Queue(t *testing.T) {
	st := DefaultStyles()
	r := timelineRun(six(t, smallQueue(), 0), 5000)
	td := TimelineData{B: r, Chosen: int(backoff.Exponential), RowMs: 5000}
	head, body := TimelineHead(td, 100, st), TimelineBody(td, 100, st)
	if !strings.Contains(head, WastedGlyph+" wasted") || !strings.Contains(head, "of 100") {
		t.Errorf("the legend does not say the wasted glyph and the queue's limit:\n%s", head)
	}
	waiting := r.Rows[backoff.Exponential][3].Queue // the row from 15 s
	if waiting <= 0 || !strings.Contains(body, WastedGlyph) || !strings.Contains(body, fmt.Sprintf("  %s %d\n", QueueMark, waiting)) {
		t.Errorf("no wasted glyph or queue's length (%d at 15 s) in\n%s", waiting, body)
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
	// All policies on one scale: no queue column, which is one policy's.
	td.All = true
	if body := TimelineBody(td, 140, st); strings.Contains(body, fmt.Sprintf("%s %d", QueueMark, waiting)) {
		t.Errorf("all policies: the queue's length shown:\n%s", body)
	}
}

// The settings pane lists the queue's four settings, in words.
func TestSettingsSummaryQueue(t *testing.T) {
	s := smallQueue()
	s.QueueOrder, s.DropExpired = backoff.LIFO, true
	out := SettingsSummary(s, 0, backoff.Independent, 120, DefaultStyles())
	for _, w := range []string{"queue", "100", "timeout", "1 s", "lifo, the newest first", "drop expired", "yes"} {
		if !strings.Contains(out, w) {
			t.Errorf("the summary does not say %q:\n%s", w, out)
		}
	}
	if got := SettingsValue(backoff.Defaults(), backoff.Queue); got != "none" {
		t.Errorf("no queue: got %q, want none", got)
	}
	if got := SettingsValue(backoff.Defaults(), backoff.Timeout); got != "none: waits for ever" {
		t.Errorf("no timeout: got %q", got)
	}
	if got := PlanChanges(backoff.Defaults(), smallQueue()); !strings.Contains(got, "queue none → 100") || !strings.Contains(got, "timeout none → 1 s") {
		t.Errorf("the changes to a queue: got %q", got)
	}
}

// Plans A and B side by side hold the queue's figures against each other
// when either queues: A without a queue, B with one.
func TestCompareQueue(t *testing.T) {
	s := smallQueue()
	a := s
	a.Queue, a.Timeout = 0, 0
	names := func(a, b backoff.Settings) []string {
		var out []string
		for _, f := range compareFields(RunData{Settings: a}, RunData{Settings: b}) {
			out = append(out, f.Name)
		}
		return out
	}
	got := strings.Join(names(a, s), " ")
	if !strings.HasSuffix(got, "timed_out wasted dropped queue_peak") {
		t.Errorf("A without a queue, B with one: figures %s, want the queue's last", got)
	}
	if got := strings.Join(names(a, a), " "); strings.Contains(got, "wasted") {
		t.Errorf("neither queues: figures %s, want none of the queue's", got)
	}
	ra := six(t, a, 0)
	if out := CrowdPane(CrowdData{B: six(t, s, 0), A: &ra}, 120, DefaultStyles()); !strings.Contains(out, "wasted") || !strings.Contains(out, "queue peak") {
		t.Errorf("A and B: no wasted or queue peak in\n%s", out)
	}
}
