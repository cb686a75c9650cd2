package picture

import (
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/retryplanner/retry-planner/backoff"
)

// stormSettings are issue 19's storm: 50,000 clients, a 30 s outage, a
// capacity of 2,000 a second and a fresh load of 1,500 a second.
func stormSettings() backoff.Settings {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Load = 50000, 30000, 2000, 1500
	return s
}

// Issue 19, item 8: from the service's return on, the timeline picture
// starts at the outage's end and is scaled to what happens there, so that
// the capacity is no hairline: against the whole run's scale, where the
// failures while down (80,000 a second) set the top, it stands at a
// fortieth of it.
func TestTimelinePictureFromBack(t *testing.T) {
	s := stormSettings()
	rs := runSeries(t, s, policiesNamed(t, s, "full jitter", "grpc"))
	slots := 0
	for _, r := range rs {
		slots = max(slots, r.Series.Len())
	}
	whole := newTimelineLayout(s, rs, slots, TimelineView{RowMs: 1000})
	back := newTimelineLayout(s, rs, slots, TimelineView{RowMs: 1000, FromBack: true})
	if back.start != 30 || whole.start != 0 || back.end != whole.end {
		t.Errorf("the axis: from back %g to %g s, whole %g to %g s; want 30 and 0 to the same end", back.start, back.end, whole.start, whole.end)
	}
	capacity := 2000.0
	if r := capacity / whole.top; r > 0.05 {
		t.Errorf("the whole run: the capacity is %.3f of the scale; the case tests nothing", r)
	}
	if r := capacity / back.top; r < 0.2 {
		t.Errorf("from back: the capacity is %.3f of the scale (top %g a second), want at least a fifth", r, back.top)
	}
	if len(back.capacity) == 0 || back.capacity[0].from != 30 || back.capacity[0].rate != capacity {
		t.Errorf("from back: the capacity line starts %+v, want at 30 s, 2,000 a second", back.capacity[:min(len(back.capacity), 1)])
	}
	for _, r := range rs {
		for _, b := range back.bars(r.Series) {
			if b.from < 30 {
				t.Fatalf("from back: a bar from %g s", b.from)
			}
		}
	}
	svg, err := TimelinePictureOf(s, rs, TimelineView{RowMs: 1000, FromBack: true}, FormatSVG, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, texts := parseSVG(t, svg); !strings.Contains(strings.Join(texts, " "), "from the service's return on") {
		t.Errorf("the picture does not say it starts at the service's return: %q", texts)
	}
}

// The crowd picture draws the capacity across its peak after back, and
// every whisker at least minWhisker tall over a white halo.
func TestCrowdPictureCapacityAndWhiskers(t *testing.T) {
	s := stormSettings()
	s.Clients = 5000
	ps := policiesNamed(t, s, "full jitter", "fixed")
	rs := runSeries(t, s, ps)
	seeds := s
	seeds.Draws = backoff.Independent
	sp, err := backoff.RunSeeds(ps, seeds, 5, backoff.SeedOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := CrowdPicture(s, rs, &sp, FormatSVG, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, texts := parseSVG(t, svg); !strings.Contains(strings.Join(texts, " "), "capacity 2,000/s") {
		t.Errorf("the crowd picture does not draw the capacity on the peak after back: %q", texts)
	}
	for _, tc := range []struct{ lo, hi, wantLo, wantHi vg.Length }{
		{10, 10, 8, 12}, {10, 11, 8.5, 12.5}, {20, 10, 10, 20}, {0, 4, 0, 4}, {3, 0, 0, 3.5},
	} {
		if tc.lo == 3 {
			tc.wantLo, tc.wantHi = -0.5, 3.5
		}
		lo, hi := whiskerEnds(tc.lo, tc.hi)
		if lo != tc.wantLo || hi != tc.wantHi || hi-lo < minWhisker {
			t.Errorf("whiskerEnds(%g, %g): got %g, %g; want %g, %g", tc.lo, tc.hi, lo, hi, tc.wantLo, tc.wantHi)
		}
	}
}

// The moments a breaker opened, marked at the middle of each bar in whose
// stretch one did, whether or not the bar holds an attempt. Six slots of 1
// s, breakers opening twice in slot 1 and once in each of slots 4 and 5,
// no attempt in slot 4: a bar a slot marks 1.5, 4.5 and 5.5 s; bars of two
// slots (0-1, 2-3, 4-5) mark 1 s (slot 1, the last of its bar, counts in
// it) and 5 s (3 openings, one mark); from the service's return at 3 s
// only 4.5 and 5.5 s. Without a breaker's counts, none.
func TestTimelineOpenings(t *testing.T) {
	s := guardsSettings()
	s.Outage = 3000
	zero := func() []int { return make([]int, 6) }
	se := &backoff.Series{Slot: 1000, Retries: zero(), Served: zero(), Rejected: zero(), FailedWhileDown: []int{5, 5, 5, 0, 0, 5},
		Breaker: true, ShortCircuited: []int{0, 3, 0, 0, 0, 1}, Opened: []int{0, 2, 0, 0, 1, 1}}
	rs := []backoff.Result{{Series: se}}
	for _, tt := range []struct {
		name string
		v    TimelineView
		want []float64
	}{
		{"a bar a slot", TimelineView{}, []float64{1.5, 4.5, 5.5}},
		{"bars of two slots", TimelineView{RowMs: 2000}, []float64{1, 5}},
		{"from back", TimelineView{FromBack: true}, []float64{4.5, 5.5}},
	} {
		tl := newTimelineLayout(s, rs, se.Len(), tt.v)
		if got := tl.openings(se); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: got marks at %v s, want %v", tt.name, got, tt.want)
		}
	}
	off := *se
	off.Breaker = false
	if got := newTimelineLayout(s, rs, se.Len(), TimelineView{}).openings(&off); got != nil {
		t.Errorf("no breaker: got marks at %v, want none", got)
	}
}
