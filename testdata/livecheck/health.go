package livecheck

import (
	"fmt"
	"strings"
	"time"
)

// Health is how well the machine kept time during a live run, from four
// clocks' points of view, all the one monotonic clock of this process:
//
//   - Timer: a goroutine that sleeps 1 ms at a time, how much later it woke:
//     the machine's own timer lateness, whatever the clients do.
//   - Wait: each retry's wait as the library drew it, against the time
//     from the answer to the next attempt's send: how late the libraries'
//     own timers fired.
//   - Delivery: from a client's send to the server's arrival time, which
//     the figures count in: a storm of hundreds of requests at once is
//     answered over some ms on two cores; a busy machine stretches it.
//   - Start: a fresh request's first send after its planned start.
//
// and, as information, the server's time in its handler, the round trip a
// client saw, the queue worker's lateness, and how wide the crowd's first
// attempts arrived (the herd's spread at 0 ms).
type Health struct {
	Timer, Wait, Delivery, Start Quantiles
	Handling, RoundTrip, Worker  Quantiles
	FirstSpread                  time.Duration // the last of the crowd's first attempts to arrive
	// Reopened counts the connections clients opened after their warm
	// one without a timeout to close it (an idle connection the runtime
	// or the kernel closed): a dial of a fraction of a millisecond, told,
	// not held against the run.
	Reopened int
}

// Limits are what a kept run's lateness stays within. The figures count
// in slots, and move with the lateness of most attempts: if nine in ten
// of them are late by a twentieth of a slot at most, a wave moves by no
// more than that across a slot's boundary, which the tolerances allow.
// The tail matters less (a percent of the attempts late by a quarter of a
// slot moves a percent of a wave), so long as it stays within a slot; a
// machine busy enough to pass these moves whole waves, and its figures
// say nothing of the model. On a quiet 2-core machine timers are late by
// 0.1-0.2 ms at the median and 1-2 ms at the 99th percentile, the
// libraries' waits by 0.5 and 1-4 ms; a storm of 500 first attempts is
// delivered within 15-35 ms.
type Limits struct {
	TimerP99, TimerMax        time.Duration
	WaitP90, WaitP99, WaitMax time.Duration
	DeliveryP90, DeliveryP99  time.Duration
	StartP90, StartP99        time.Duration
	WorkerP99, WorkerMax      time.Duration
}

// LimitsFor are the limits for a scenario with slots of S ms: timer
// lateness S/10 at the 99th percentile and S at most; the libraries' waits
// S/20 at the 90th, S/4 at the 99th and S at most; delivery S/2 at the
// 99th (a storm of first attempts is delivered over tens of ms on a quiet
// machine); a fresh request's start S/20 and S/4; and for a queue, whose
// capacity is per millisecond, its worker's lateness S/10 and S/2, and the
// delivery a tenth of the clients' timeout at most (a request delivered
// late has less time in the queue than the model gives it).
//
// A lockstep herd's waits end together: hundreds of timers fire at once
// and their sends queue behind each other, late by up to tens of ms on a
// quiet machine. That spread is the herd's own, what its rows show, not
// the machine's: its waits are held to S/4 at the 90th percentile and S/2
// at the 99th.
func LimitsFor(sc Scenario) Limits {
	s := time.Duration(sc.Slot) * time.Millisecond
	l := Limits{TimerP99: s / 10, TimerMax: s, WaitP90: s / 20, WaitP99: s / 4, WaitMax: s,
		DeliveryP99: s / 2, StartP90: s / 20, StartP99: s / 4, WorkerP99: s / 10, WorkerMax: s / 2}
	if !sc.Kind.Jittered() {
		l.WaitP90, l.WaitP99 = s/4, s/2
	}
	if sc.Queue.Timeout > 0 {
		l.DeliveryP99 = min(l.DeliveryP99, msDuration(sc.Queue.Timeout)/10)
	}
	return l
}

// Keep reports whether the run kept time within the limits well enough
// to be compared with the model, and if not, why, in one line.
func (h Health) Keep(l Limits) (bool, string) {
	var why []string
	check := func(what string, got, limit time.Duration) {
		if got > limit {
			why = append(why, fmt.Sprintf("%s %.1f ms (limit %.0f)", what, float64(got)/1e6, float64(limit)/1e6))
		}
	}
	check("timer lateness p99", h.Timer.P99, l.TimerP99)
	check("timer lateness max", h.Timer.Max, l.TimerMax)
	check("wait lateness p90", h.Wait.P90, l.WaitP90)
	check("wait lateness p99", h.Wait.P99, l.WaitP99)
	check("wait lateness max", h.Wait.Max, l.WaitMax)
	check("delivery p99", h.Delivery.P99, l.DeliveryP99)
	check("fresh start lateness p90", h.Start.P90, l.StartP90)
	check("fresh start lateness p99", h.Start.P99, l.StartP99)
	check("queue worker lateness p99", h.Worker.P99, l.WorkerP99)
	check("queue worker lateness max", h.Worker.Max, l.WorkerMax)
	if h.Timer.N == 0 {
		why = append(why, "no timer samples")
	}
	if len(why) > 0 {
		return false, "the machine did not keep time: " + strings.Join(why, ", ")
	}
	return true, ""
}

func (h Health) String() string {
	s := fmt.Sprintf("timer lateness %v; wait lateness %v; delivery %v; fresh start lateness %v; handler %v; round trip %v; crowd's first attempts arrived within %.1f ms",
		h.Timer, h.Wait, h.Delivery, h.Start, h.Handling, h.RoundTrip, float64(h.FirstSpread)/1e6)
	if h.Worker.N > 0 {
		s += fmt.Sprintf("; queue worker lateness %v", h.Worker)
	}
	if h.Reopened > 0 {
		s += fmt.Sprintf("; %d connections reopened", h.Reopened)
	}
	return s
}

func health(sc Scenario, clients []*client, log []Entry, handling, timer, worker []time.Duration) Health {
	h := Health{Timer: quantiles(timer), Handling: quantiles(handling), Worker: quantiles(worker)}
	arrivals := make([][]time.Duration, len(clients)+1)
	for _, e := range log {
		arrivals[e.Client] = append(arrivals[e.Client], e.At)
	}
	var wait, delivery, start, trip []time.Duration
	for _, c := range clients {
		j := 0 // the client's attempts that reached the server: its arrivals
		for k := range c.sent {
			if k+1 < len(c.sent) && k < len(c.waits) {
				wait = append(wait, c.sent[k+1]-c.answered[k]-c.waits[k])
			}
			if c.status[k] == shortStatus {
				continue // short-circuited: no round trip, no arrival
			}
			trip = append(trip, c.answered[k]-c.sent[k])
			if j < len(arrivals[c.id]) {
				delivery = append(delivery, arrivals[c.id][j]-c.sent[k])
			}
			j++
		}
		if c.id > sc.Clients && len(c.sent) > 0 {
			start = append(start, c.sent[0]-c.start)
		}
		if !sc.Queue.On() {
			h.Reopened += c.dials
		}
		if c.id <= sc.Clients && len(arrivals[c.id]) > 0 {
			h.FirstSpread = max(h.FirstSpread, arrivals[c.id][0])
		}
	}
	h.Wait, h.Delivery, h.Start, h.RoundTrip = quantiles(wait), quantiles(delivery), quantiles(start), quantiles(trip)
	return h
}
