package livecheck

import (
	"cmp"
	"slices"

	"github.com/retryplanner/retry-planner/backoff"
)

// Figures are one run's figures, live or simulated: the planner's, with
// MODEL.md's meanings (the queue's among them, zero without a queue), and
// one more.
type Figures struct {
	backoff.Figures
	// BusiestInOutage is the most retries in one slot that starts before
	// the outage's end: the storm while the service is down.
	BusiestInOutage int
}

// Measure works out the figures of a live run from the server's log
// alone, as MODEL.md defines them: times are the log's, in whole ms rounded
// down; a client's start is 0 for the crowd and its arrival time,
// floor(j*1000/L), for fresh request j; a client that got no attempt served
// gave up if it made every attempt, else it ran out of time (the policy's
// limit on total time). missing counts the clients that can be neither:
// none of their attempts reached the log, or fewer than all without a
// limit on total time (a client that broke off: the run is not valid).
// queuePeak is the queue's own count, and opened the clients' breakers'
// count of their openings, neither of which the log holds. A failure
// while down is known at its Done: At where the service refuses at once,
// as the live one does, and At + H where the attempt hung (MODEL.md
// section 7's outage_hang). The log holds, beside the server's entries,
// the attempts the clients' breakers short-circuited (MODEL.md section 7,
// logged by the clients at the moment they failed them): each is an
// attempt and, after a client's first, a retry in its slot, a failure
// known at once, but not one that reached the service (peak after back
// leaves it out).
func Measure(sc Scenario, log []Entry, queuePeak, opened int) (f Figures, missing int) {
	p := sc.Policy()
	n := sc.AllClients()
	slot, outage := int64(sc.Slot), int64(sc.Outage)
	f.Figures = backoff.Figures{Clients: n, BusiestSlotFrom: -1, PeakAfterBackFrom: -1, SlotCapacity: -1,
		AllThroughBy: -1, StableFrom: sc.Outage, LatencyP50: -1, LatencyP99: -1, LatencyMax: -1, CrowdAllThroughBy: -1}
	if sc.Capacity > 0 {
		f.SlotCapacity = int((int64(sc.Capacity)*slot + 999) / 1000)
	}
	log = slices.Clone(log)
	slices.SortStableFunc(log, func(a, b Entry) int { return cmp.Compare(a.At, b.At) })

	made := make([]int, n+1)
	servedAt := make([]int64, n+1)
	for i := range servedAt {
		servedAt[i] = -1
	}
	retries := map[int64]int{} // per slot
	after := map[int64]int{}   // attempts at or after the outage's end, per slot
	inOutage := map[int64]int{}
	lastBad := int64(-1)  // the last rejection, timeout, wasted or dropped request at or after the outage's end
	lastFail := int64(-1) // the last moment an attempt's failure became known: down (a hang at its end), rejected, timed out, short-circuited
	loadEnd := int64(sc.LoadUntil)
	for _, e := range log {
		c := int(e.Client)
		if c < 1 || c > n {
			missing++
			continue
		}
		t, done := ms(e.At), ms(e.Done)
		i := t / slot
		f.Attempts++
		if made[c] > 0 {
			f.Retries++
			retries[i]++
			if i*slot < outage {
				inOutage[i]++
			}
		}
		made[c]++
		if t >= outage && e.Outcome != ShortCircuited {
			after[i]++
		}
		switch e.Outcome {
		case ShortCircuited:
			f.ShortCircuited++
			lastFail = max(lastFail, t)
		case Down:
			f.FailedWhileDown++
			lastFail = max(lastFail, done) // At, or At + H where it hung
		case Rejected:
			f.Rejected++
			lastBad = max(lastBad, t)
			lastFail = max(lastFail, t)
			if sc.Load > 0 && t >= loadEnd-1000 && t < loadEnd {
				f.StillOverloaded = true
			}
		case Served:
			f.Served++
			if servedAt[c] < 0 {
				servedAt[c] = done
			}
			f.AllThroughBy = max(f.AllThroughBy, int(done))
		case Wasted, Dropped:
			f.TimedOut++
			if e.Outcome == Wasted {
				f.Wasted++
			} else {
				f.Dropped++
			}
			// The client timed out at At+T: that is when the model counts a
			// timeout; the service took the request at Done.
			lastFail = max(lastFail, t+int64(sc.Queue.Timeout))
			for _, bad := range []int64{t + int64(sc.Queue.Timeout), done} {
				if bad >= outage {
					lastBad = max(lastBad, bad)
				}
				if sc.Load > 0 && bad >= loadEnd-1000 && bad < loadEnd {
					f.StillOverloaded = true
				}
			}
		}
	}
	f.MostInASlot, f.BusiestSlotFrom = busiest(retries, slot)
	f.PeakAfterBack, f.PeakAfterBackFrom = busiest(after, slot)
	f.BusiestInOutage, _ = busiest(inOutage, slot)
	if lastBad >= 0 {
		f.StableFrom = int((lastBad/slot + 1) * slot)
	}

	var lat []int
	for c := 1; c <= n; c++ {
		if c <= sc.Clients || int64(sc.Start(c)) <= lastFail { // MODEL.md section 5's clients touched
			f.ClientsTouched++
		}
		switch {
		case servedAt[c] >= 0:
			f.Through++
			lat = append(lat, int(servedAt[c])-sc.Start(c))
			if c <= sc.Clients {
				f.CrowdAllThroughBy = max(f.CrowdAllThroughBy, int(servedAt[c]))
			}
		case made[c] >= p.Attempts:
			f.GaveUp++
		case made[c] > 0 && p.MaxElapsed > 0:
			f.OutOfTime++
		default:
			missing++
		}
	}
	if len(lat) > 0 {
		slices.Sort(lat)
		f.LatencyP50 = backoff.NearestRank(lat, 50)
		f.LatencyP99 = backoff.NearestRank(lat, 99)
		f.LatencyMax = lat[len(lat)-1]
	}
	// MODEL.md section 5's three: the clients not through whatever the
	// reason, and how long after the outage's end the service is stable
	// (none while still overloaded).
	f.NotThrough = f.GaveUp + f.Throttled + f.OutOfTime
	f.RecoveredAfter = -1
	if !f.StillOverloaded {
		f.RecoveredAfter = f.StableFrom - sc.Outage
	}
	f.QueuePeak, f.BreakerOpened = queuePeak, opened
	return f, missing
}

// busiest returns the most counted in one slot and the first such slot's
// start, or 0 and -1 for none.
func busiest(per map[int64]int, slot int64) (most, from int) {
	from = -1
	for i, v := range per {
		if v > most || (v == most && v > 0 && int(i*slot) < from) {
			most, from = v, int(i*slot)
		}
	}
	return most, from
}
