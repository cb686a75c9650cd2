package words

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// vals are values that all exist.
func vals(vs ...int) []Value {
	out := make([]Value, len(vs))
	for i, v := range vs {
		out[i] = Value{V: v, OK: true}
	}
	return out
}

// none is a value that does not exist.
var none = Value{}

// The rule's boundaries, worked by hand: _ unmarked, B best, W worst.
func TestMarksBoundaries(t *testing.T) {
	const (
		U = Unmarked
		B = Best
		W = Worst
	)
	tests := []struct {
		name       string
		values     []Value
		notThrough []int
		better     backoff.Better
		want       []Mark
	}{
		{"the lowest wins when all lose as few", vals(5, 3, 9), []int{0, 0, 0}, backoff.Lower, []Mark{U, B, W}},
		{"higher is better", vals(5, 3, 9), []int{0, 0, 0}, backoff.Higher, []Mark{U, W, B}},
		// fixed's 0 peak after back: every client gave up before the
		// service was back; it is the worst of not through, so no best here.
		{"a low value got by losing clients is not the best", vals(0, 200, 9), []int{200, 0, 0}, backoff.Lower, []Mark{U, W, B}},
		{"ties in not through share the best", vals(7, 7, 9), []int{1, 1, 5}, backoff.Lower, []Mark{B, B, W}},
		// Issue 25, item 1: two policies tie on the best value, 7, but the
		// second leaves 5 clients not through against the first's 1: it
		// is no best, and 9 is the worst.
		{"a tie on the best value with more lost is no best", vals(7, 7, 9), []int{1, 5, 5}, backoff.Lower, []Mark{B, U, W}},
		{"the same, higher is better", vals(9, 9, 7), []int{5, 1, 5}, backoff.Higher, []Mark{U, B, W}},
		{"ties in not through on the column's worst: worst, no best", vals(7, 7, 2), []int{1, 1, 5}, backoff.Lower, []Mark{W, W, U}},
		{"ties in not through, and the best among them differs", vals(7, 6, 2), []int{1, 1, 5}, backoff.Lower, []Mark{W, B, U}},
		{"every value alike: no marks", vals(4, 4, 4), []int{0, 3, 9}, backoff.Lower, []Mark{U, U, U}},
		{"all alike but with different losses: still no marks", vals(0, 0), []int{0, 200}, backoff.Lower, []Mark{U, U}},
		{"the fewest lost have only the worst value: no best", vals(10, 3, 3), []int{0, 5, 5}, backoff.Lower, []Mark{W, U, U}},
		{"an absent value is the worst", []Value{{V: 15000, OK: true}, none, {V: 25000, OK: true}}, []int{0, 200, 0}, backoff.Lower, []Mark{B, W, U}},
		{"the fewest lost have no value: no best", []Value{none, {V: 1, OK: true}, {V: 2, OK: true}}, []int{0, 9, 9}, backoff.Lower, []Mark{W, U, U}},
		{"every value absent: no marks", []Value{none, none}, []int{0, 1}, backoff.Lower, []Mark{U, U}},
		{"present values alike, one absent", []Value{{V: 5, OK: true}, {V: 5, OK: true}, none}, []int{0, 0, 3}, backoff.Lower, []Mark{B, B, W}},
		{"a figure with no direction has no marks", vals(1, 2, 3), []int{0, 0, 0}, backoff.Neither, []Mark{U, U, U}},
		// Issue 24, item 3: a disaster's value is no best, even the lowest
		// of the fewest lost; the next best is not promoted in its place.
		{"a disaster's best value is not marked", []Value{{V: 3, OK: true, Disaster: true}, {V: 5, OK: true}, {V: 9, OK: true}}, []int{0, 0, 0}, backoff.Lower, []Mark{U, U, W}},
		{"a disaster's worst value is still the worst", []Value{{V: 3, OK: true}, {V: 9, OK: true, Disaster: true}}, []int{0, 0}, backoff.Lower, []Mark{B, W}},
		{"one policy: no marks", vals(3), []int{0}, backoff.Lower, []Mark{U}},
		{"no policies", nil, nil, backoff.Lower, []Mark{}},
	}
	for _, tt := range tests {
		if got := Marks(tt.values, tt.notThrough, tt.better); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// The rule the README promises, over random tables: a best mark never
// lands on a policy that leaves more clients not through than another
// policy shown, nor on the column's worst value; an absent value, or a
// disaster's, is never the best.
func TestMarksNeverPraiseALoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	for trial := range 20000 {
		n := 1 + rng.IntN(6)
		values := make([]Value, n)
		notThrough := make([]int, n)
		for i := range values {
			// Few distinct values, so that ties are common.
			values[i] = Value{V: rng.IntN(4), OK: rng.IntN(5) > 0, Disaster: rng.IntN(4) == 0}
			notThrough[i] = rng.IntN(3)
		}
		better := []backoff.Better{backoff.Lower, backoff.Higher, backoff.Neither}[rng.IntN(3)]
		got := Marks(values, notThrough, better)
		for i, m := range got {
			if m != Best {
				continue
			}
			for j := range values {
				if notThrough[j] < notThrough[i] {
					t.Fatalf("trial %d: values %v, not through %v, %v: got a best mark on %d (%d not through), want none: %d leaves %d",
						trial, values, notThrough, better, i, notThrough[i], j, notThrough[j])
				}
			}
			if !values[i].OK || values[i].Disaster || better == backoff.Neither {
				t.Fatalf("trial %d: values %v, %v: got a best mark on %d, want none", trial, values, better, i)
			}
		}
	}
}

// B against A: better and worse by the figure's direction, unless the side
// that does better leaves a larger share of its clients not through.
func TestJudge(t *testing.T) {
	field := func(name string) backoff.FigureField {
		f, ok := backoff.FindField(name)
		if !ok {
			t.Fatalf("no figure %s", name)
		}
		return f
	}
	even := Lost{NotThrough: 10, Clients: 100, Touched: 100}
	tests := []struct {
		figure       string
		a, b         int
		lostA, lostB Lost
		want         Judgement
	}{
		{"retries", 900, 800, even, even, Better},
		{"retries", 800, 900, even, even, Worse},
		{"retries", 800, 800, even, Lost{50, 100, 100}, Same},
		// The budget: gave up fell because B's clients were
		// throttled instead, and B leaves more not through.
		{"gave_up", 91880, 0, Lost{87897, 185000, 185000}, Lost{95000, 185000, 185000}, ByLosing},
		{"peak_after_back", 771, 150, Lost{87897, 185000, 185000}, Lost{95000, 185000, 185000}, ByLosing},
		// B keeps its clients: its retries are higher, but A won them by
		// losing clients.
		{"retries", 1500, 2470, Lost{500, 500, 500}, Lost{440, 500, 500}, ByLosing},
		// Worse where B also loses more: worse stands.
		{"served", 97103, 90000, Lost{87897, 185000, 185000}, Lost{95000, 185000, 185000}, Worse},
		// Better where B also loses fewer: better stands.
		{"stable_from_ms", 30000, 10000, Lost{9, 100, 100}, Lost{3, 100, 100}, Better},
		// The figures the rule weighs are always judged.
		{"not_through", 87897, 95000, Lost{87897, 185000, 185000}, Lost{95000, 185000, 185000}, Worse},
		{"through", 97103, 90000, Lost{87897, 185000, 185000}, Lost{95000, 185000, 185000}, Worse},
		// Shares, not counts: 20 of 200 is no more than 10 of 100.
		{"retries", 900, 800, Lost{10, 100, 100}, Lost{20, 200, 200}, Better},
		{"retries", 900, 800, Lost{10, 100, 100}, Lost{21, 200, 200}, ByLosing},
		// Issue 25, item 2: through with different totals, A 90 of 100
		// through (10 lost, 10%), B 150 of 200 (50 lost, 25%): B has more
		// through but leaves a larger share not through, so it is worse,
		// on both figures.
		{"through", 90, 150, Lost{10, 100, 100}, Lost{50, 200, 200}, Worse},
		{"not_through", 10, 50, Lost{10, 100, 100}, Lost{50, 200, 200}, Worse},
		{"through", 150, 90, Lost{50, 200, 200}, Lost{10, 100, 100}, Better},
		// The share is of the clients touched: B's longer load window adds
		// 800 clients that all get through, and no more lost: neither
		// better nor worse.
		{"through", 90, 890, Lost{10, 100, 100}, Lost{10, 900, 100}, Neither},
		{"not_through", 10, 20, Lost{10, 100, 100}, Lost{20, 900, 200}, Neither},
		// B leaves 20 of its 200 touched (10%) against A's 10 of 50
		// (20%): better, though more by count, its clients being more.
		{"not_through", 10, 20, Lost{10, 100, 50}, Lost{20, 900, 200}, Better},
		// As many clients: the same clients, so the count decides, whatever
		// the clients touched (B's longer trouble touches more, and loses
		// more: 120 against 100).
		{"not_through", 100, 120, Lost{100, 1000, 200}, Lost{120, 1000, 600}, Worse},
		{"retries", 900, 800, Lost{100, 1000, 200}, Lost{120, 1000, 600}, ByLosing},
		{"clients", 200, 300, even, even, Neither},
		{"all_through_by_ms", 15000, -1, even, even, Worse},
		{"all_through_by_ms", -1, 15000, even, even, Better},
		{"all_through_by_ms", -1, -1, even, even, Same},
		{"all_through_by_ms", -1, 15000, Lost{100, 100, 100}, Lost{0, 100, 100}, Better},
	}
	for _, tt := range tests {
		if got := Judge(field(tt.figure), tt.a, tt.b, tt.lostA, tt.lostB); got != tt.want {
			t.Errorf("%s %d → %d, lost %v → %v: got %d, want %d", tt.figure, tt.a, tt.b, tt.lostA, tt.lostB, got, tt.want)
		}
	}
}
