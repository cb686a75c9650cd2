package report

import (
	"bytes"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// Size is the bytes the rows of CSV and JSON take exactly (the whole
// report less its head and notes, written with no rows), and bounds the
// text's, at every shape of timeline: one policy or several, with a
// service or a queue, rows of a slot or of several, from 0 or from back.
func TestTimelineSize(t *testing.T) {
	base := backoff.Defaults()
	service := base
	service.Clients, service.Capacity, service.Load = 2000, 300, 100
	queued := service
	queued.Queue, queued.Timeout = 500, 2000
	guarded := queued
	guarded.Processes, guarded.OutageHang, guarded.Breaker, guarded.RetryAfter = 3, 3000, backoff.Breaker{Failures: 5, Open: 5000}, 1000
	for _, tt := range []struct {
		name string
		s    backoff.Settings
		tl   Timeline
	}{
		{"one", base, Timeline{}},
		{"side by side", base, Timeline{SideBy: true}},
		{"service, rows of 500 ms", service, Timeline{RowMs: 500}},
		{"queue side by side, from back", queued, Timeline{SideBy: true, FromBack: true, RowMs: 200}},
		{"guards, one", guarded, Timeline{RowMs: 500}},
		{"guards side by side", guarded, Timeline{SideBy: true}},
	} {
		tl := tt.tl
		tl.Settings = tt.s
		ps := tt.s.Five()
		if !tl.SideBy {
			ps = ps[2:3]
		}
		runs, err := backoff.RunAll(ps, tt.s, backoff.Options{Series: true}, 1)
		if err != nil {
			t.Fatal(err)
		}
		tl.Runs = runs
		empty := tl
		empty.Runs = nil
		for _, r := range runs {
			sr := *r.Series
			sr.Retries, sr.Served, sr.Rejected, sr.FailedWhileDown = nil, nil, nil, nil
			sr.TimedOut, sr.Wasted, sr.Dropped, sr.Queue = nil, nil, nil, nil
			sr.ShortCircuited, sr.Opened = nil, nil
			r.Series = &sr
			empty.Runs = append(empty.Runs, r)
		}
		for _, f := range []struct {
			name  string
			write func(Timeline, *bytes.Buffer) error
		}{
			{"csv", func(tl Timeline, b *bytes.Buffer) error { return tl.WriteCSV(b) }},
			{"json", func(tl Timeline, b *bytes.Buffer) error { return tl.WriteJSON(b) }},
			{"text", func(tl Timeline, b *bytes.Buffer) error { return tl.WriteText(b) }},
		} {
			var all, head bytes.Buffer
			if err := f.write(tl, &all); err != nil {
				t.Fatal(err)
			}
			if err := f.write(empty, &head); err != nil {
				t.Fatal(err)
			}
			rows, got := int64(all.Len()-head.Len()), tl.Size(f.name)
			if f.name == "json" {
				// Each run's "[]\n" becomes "[\n", its rows, then "]\n" at the
				// rows' depth: 1 + 2*depth bytes more.
				depth := int64(1)
				if tl.SideBy {
					depth = 3
				}
				rows -= (1 + 2*depth) * int64(len(runs))
			}
			switch {
			case f.name != "text" && got != rows:
				t.Errorf("%s, %s: Size %d, the rows took %d bytes", tt.name, f.name, got, rows)
			case f.name == "text" && (got < int64(all.Len()-head.Len()) || got > 20*int64(all.Len())):
				t.Errorf("%s, text: Size %d, the tables took %d bytes: want a bound, within 20 times", tt.name, got, all.Len()-head.Len())
			}
		}
	}
}

// Issue 24, item 14: a row the service is down through has no capacity
// ("-" in the text, empty in CSV, null in JSON); the slot it comes back in
// counts whole. 10 a slot of 100 ms (capacity 100 a second), rows of 2 s:
// back at 10,000 ms, the row [8,000, 10,000) is down through (its last
// slot, [9,900, 10,000), ends at the outage: (99+1)*100 > 10,000 is
// false), and [10,000, 12,000) holds 20 slots of 10, 200; back at 9,950,
// that last slot serves from 9,950 on, so the row has its 10.
func TestTimelineCapacityOnlyOnceBack(t *testing.T) {
	for _, tt := range []struct {
		outage int
		want   []int // rows from 0, 2 s each
	}{
		{10000, []int{-1, -1, -1, -1, -1, 200, 200}},
		{9950, []int{-1, -1, -1, -1, 10, 200, 200}},
	} {
		s := backoff.Defaults()
		s.Capacity, s.Outage = 100, tt.outage
		tl := Timeline{Settings: s, RowMs: 2000}
		for j, want := range tt.want {
			if got := tl.capacityAt(j); got != want {
				t.Errorf("back at %d ms, row from %d ms: got capacity %d, want %d", tt.outage, j*2000, got, want)
			}
		}
	}
}
