package advice

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/retryplanner/retry-planner/backoff"
)

// A Verdict is one goal held against a candidate's crowd over the seeds:
// the figure's value at the 95th percentile, and whether that meets the
// goal. Every comparison is in whole numbers:
//
//	not-through<=P%:  not_through * 100000 <= P * clients_touched  (P in thousandths of a percent)
//	recovered<=T:     recovered_after_ms <= T, and not absent (still overloaded)
//	peak<=Fx:         peak_after_back * 1000 <= F * slot_capacity  (F in thousandths)
//	peak<=R/s:        peak_after_back * 1000 <= R * slot_ms
//	p99<=T:           latency_p99_ms <= T, and not absent (none got through)
//	attempts<=Fx:     attempts * 1000 <= F * clients  (F in thousandths)
//
// where each figure is its p95 over the seeds (backoff.Spread) and clients
// is the same in every seed. A share of clients not through is of the
// clients touched (MODEL.md section 5: those that start by the run's last
// failure), which differ from seed to seed: its p95 is that of each seed's
// share, not_through / clients_touched, and the verdict's value and Of are
// that seed's two figures, so that a longer load window, which adds only
// clients that meet nothing but success, cannot dilute it.
type Verdict struct {
	Goal   Goal
	Value  int  // the figure at the 95th percentile; -1 when absent
	Absent bool // no value at the 95th percentile: still overloaded, or no client through
	Met    bool
	// Of is what the value is held against: the clients touched of the
	// seed at the 95th percentile for not-through, the clients for
	// attempts, the slot's capacity for peak<=Fx, the slot in ms for
	// peak<=R/s; 0 for times.
	Of int
	// Most is the largest value of the figure that meets the goal: the
	// limit for times, floor(limit * Of / 100000) for not-through,
	// floor(limit * Of / 1000) for the others. A whole value x meets
	// x * d <= limit * Of exactly when x <= floor(limit * Of / d), so Met
	// is: not Absent, and Value <= Most.
	Most int
}

// Judge holds every goal against a candidate's figures, one for each seed
// in order, under the settings it ran with, in the goals' order.
func (gs Goals) Judge(s backoff.Settings, figs []backoff.Figures) []Verdict {
	if len(figs) == 0 {
		return nil
	}
	sp := backoff.SpreadOf(backoff.Policy{}, figs)
	var out []Verdict
	clients := sp.Spread("clients").P95
	for _, g := range gs.List() {
		v := Verdict{Goal: g, Value: sp.Spread(g.Kind.Figure()).P95}
		switch g.Kind {
		case NotThrough:
			at := shareP95(figs)
			v.Value, v.Of = at.NotThrough, at.ClientsTouched
		case Recovered, P99:
			v.Absent = v.Value < 0
		case PeakTimes:
			v.Of = slotCapacity(s)
		case PeakRate:
			v.Of = s.Slot
		case Attempts:
			v.Of = clients
		}
		v.Most = g.Most(v.Of)
		// A peak against the capacity means nothing without one: never met.
		v.Met = !v.Absent && v.Value >= 0 && v.Value <= v.Most && (g.Kind != PeakTimes || v.Of > 0)
		out = append(out, v)
	}
	return out
}

// Most is the largest whole value of the goal's figure that meets it,
// held against of (the clients touched, the slot's capacity, the slot in
// ms or the clients, as Verdict.Of): the limit for times, floor(limit *
// of / 100000) for not-through, floor(limit * of / 1000) for the others.
// The product is taken in 128 bits: the largest, 100000x a slot capacity
// of an hour at 100,000,000 a second, is 3.6e19, past int64; a most past
// the largest int is the largest int, which no figure reaches.
func (g Goal) Most(of int) int {
	switch g.Kind {
	case Recovered, P99:
		return g.Limit
	case NotThrough:
		return mulDiv(g.Limit, of, 100000)
	}
	return mulDiv(g.Limit, of, 1000)
}

// mulDiv is floor(a*b/d) for a, b >= 0 and d > 0, without overflow: the
// product in 128 bits, a quotient past the largest int the largest int.
// A negative a or b counts as 0.
func mulDiv(a, b, d int) int {
	if a <= 0 || b <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi >= uint64(d) {
		return math.MaxInt
	}
	q, _ := bits.Div64(hi, lo, uint64(d))
	return int(min(q, math.MaxInt))
}

// shareP95 is the seed at the 95th percentile (nearest rank) of the share
// of clients not through, not_through / clients_touched, the lowest share
// first; of seeds with the same share, the fewer clients not through
// first.
func shareP95(figs []backoff.Figures) backoff.Figures {
	sorted := slices.Clone(figs)
	slices.SortStableFunc(sorted, func(a, b backoff.Figures) int {
		return cmp.Or(cmp.Compare(int64(a.NotThrough)*int64(b.ClientsTouched), int64(b.NotThrough)*int64(a.ClientsTouched)),
			cmp.Compare(a.NotThrough, b.NotThrough))
	})
	return sorted[(95*len(sorted)+99)/100-1]
}

// slotCapacity is ceil(C*S/1000), the figure slot_capacity; 0 without a
// capacity.
func slotCapacity(s backoff.Settings) int {
	if s.Capacity <= 0 {
		return 0
	}
	return int((int64(s.Capacity)*int64(s.Slot) + 999) / 1000)
}

// miss is how far the verdict is from its goal, as a share of the limit:
// 0 when it meets it, 100 when the figure is absent, at most 100.
func (v Verdict) miss() float64 {
	switch {
	case v.Met:
		return 0
	case v.Absent:
		return 100
	}
	lim := float64(v.Goal.Limit)
	val := float64(v.Value)
	switch v.Goal.Kind {
	case NotThrough:
		val = val * 100000 / max(float64(v.Of), 1)
	case PeakTimes, Attempts, PeakRate:
		val = val * 1000 / max(float64(v.Of), 1)
	}
	// Never 0 for a goal missed: a value whose share rounds onto the limit
	// still misses it.
	return max(min((val-lim)/max(lim, 1), 100), 1e-9)
}
