package backoff

// Better says which way a figure improves.
type Better int

const (
	Lower   Better = iota // fewer retries, an earlier time
	Higher                // more clients through
	Neither               // where a slot lies, the slot's capacity, the clients
)

// FigureField is one of the figures, as every face names it.
type FigureField struct {
	Name   string // the JSON and CSV name: "most_in_a_slot", "all_through_by_ms"
	Label  string // the words of a table's head: "most in a slot"
	Better Better
	Time   bool // a time in ms
	// Optional figures may not exist (-1): no client got through, no
	// retries, no capacity. An absent value ranks after every value, as the
	// worst.
	Optional bool
	Get      func(Figures) int
}

// FigureFields returns every whole-number figure in MODEL.md's order;
// StillOverloaded, a yes or no, is the one left out.
func FigureFields() []FigureField {
	return []FigureField{
		{Name: "clients", Label: "clients", Better: Neither, Get: func(f Figures) int { return f.Clients }},
		{Name: "attempts", Label: "attempts", Get: func(f Figures) int { return f.Attempts }},
		{Name: "retries", Label: "retries", Get: func(f Figures) int { return f.Retries }},
		{Name: "served", Label: "served", Better: Higher, Get: func(f Figures) int { return f.Served }},
		{Name: "rejected", Label: "rejected", Get: func(f Figures) int { return f.Rejected }},
		{Name: "failed_while_down", Label: "failed while down", Get: func(f Figures) int { return f.FailedWhileDown }},
		{Name: "through", Label: "through", Better: Higher, Get: func(f Figures) int { return f.Through }},
		{Name: "gave_up", Label: "gave up", Get: func(f Figures) int { return f.GaveUp }},
		{Name: "throttled", Label: "throttled", Get: func(f Figures) int { return f.Throttled }},
		{Name: "out_of_time", Label: "out of time", Get: func(f Figures) int { return f.OutOfTime }},
		{Name: "most_in_a_slot", Label: "most in a slot", Get: func(f Figures) int { return f.MostInASlot }},
		{Name: "busiest_slot_from_ms", Label: "busiest slot starts", Better: Neither, Time: true, Optional: true, Get: func(f Figures) int { return f.BusiestSlotFrom }},
		{Name: "peak_after_back", Label: "peak after back", Get: func(f Figures) int { return f.PeakAfterBack }},
		{Name: "peak_after_back_from_ms", Label: "peak after back starts", Better: Neither, Time: true, Optional: true, Get: func(f Figures) int { return f.PeakAfterBackFrom }},
		{Name: "slot_capacity", Label: "slot capacity", Better: Neither, Optional: true, Get: func(f Figures) int { return f.SlotCapacity }},
		{Name: "all_through_by_ms", Label: "all through by", Time: true, Optional: true, Get: func(f Figures) int { return f.AllThroughBy }},
		{Name: "stable_from_ms", Label: "stable from", Time: true, Get: func(f Figures) int { return f.StableFrom }},
		{Name: "latency_p50_ms", Label: "latency p50", Time: true, Optional: true, Get: func(f Figures) int { return f.LatencyP50 }},
		{Name: "latency_p99_ms", Label: "latency p99", Time: true, Optional: true, Get: func(f Figures) int { return f.LatencyP99 }},
		{Name: "latency_max_ms", Label: "latency max", Time: true, Optional: true, Get: func(f Figures) int { return f.LatencyMax }},
		{Name: "not_through", Label: "not through", Get: func(f Figures) int { return f.NotThrough }},
		{Name: "crowd_all_through_by_ms", Label: "crowd all through by", Time: true, Optional: true, Get: func(f Figures) int { return f.CrowdAllThroughBy }},
		// Absent while still overloaded: the worst, as a service that never recovered is.
		{Name: "recovered_after_ms", Label: "recovered after", Time: true, Optional: true, Get: func(f Figures) int { return f.RecoveredAfter }},
		{Name: "clients_touched", Label: "clients touched", Better: Neither, Get: func(f Figures) int { return f.ClientsTouched }},
		{Name: "timed_out", Label: "timed out", Get: func(f Figures) int { return f.TimedOut }},
		{Name: "wasted", Label: "wasted", Get: func(f Figures) int { return f.Wasted }},
		{Name: "dropped", Label: "dropped", Get: func(f Figures) int { return f.Dropped }},
		{Name: "queue_peak", Label: "queue peak", Get: func(f Figures) int { return f.QueuePeak }},
		{Name: "short_circuited", Label: "short-circuited", Get: func(f Figures) int { return f.ShortCircuited }},
		{Name: "breaker_opened", Label: "breaker opened", Get: func(f Figures) int { return f.BreakerOpened }},
	}
}

// FindField returns the figure of that JSON name.
func FindField(name string) (FigureField, bool) {
	for _, f := range FigureFields() {
		if f.Name == name {
			return f, true
		}
	}
	return FigureField{}, false
}
