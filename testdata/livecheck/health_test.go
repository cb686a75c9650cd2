package livecheck

import (
	"strings"
	"testing"
	"time"
)

func quiet() Health {
	q := func(p50, p90, p99, most float64) Quantiles {
		d := func(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
		return Quantiles{N: 100, P50: d(p50), P90: d(p90), P99: d(p99), Max: d(most)}
	}
	return Health{Timer: q(0.2, 1, 1.5, 9), Wait: q(0.5, 2, 3, 20), Delivery: q(0.1, 2, 18, 30), Start: q(0.5, 1.5, 2.5, 6), Worker: q(0.5, 1, 2, 10)}
}

// A quiet machine's run is kept; each limit, passed, discards it and says
// which; a queue's clients' timeout tightens the delivery's limit.
func TestKeep(t *testing.T) {
	sc := Scenario{Slot: 100}
	if ok, why := quiet().Keep(LimitsFor(sc)); !ok {
		t.Fatalf("a quiet run: got discarded (%s), want kept", why)
	}
	for _, tc := range []struct {
		what   string
		change func(*Health)
	}{
		{"timer lateness p99", func(h *Health) { h.Timer.P99 = 11 * time.Millisecond }},
		{"timer lateness max", func(h *Health) { h.Timer.Max = 101 * time.Millisecond }},
		{"wait lateness p90", func(h *Health) { h.Wait.P90 = 6 * time.Millisecond }},
		{"wait lateness p99", func(h *Health) { h.Wait.P99 = 26 * time.Millisecond }},
		{"wait lateness max", func(h *Health) { h.Wait.Max = 101 * time.Millisecond }},
		{"delivery p99", func(h *Health) { h.Delivery.P99 = 51 * time.Millisecond }},
		{"fresh start lateness p90", func(h *Health) { h.Start.P90 = 6 * time.Millisecond }},
		{"fresh start lateness p99", func(h *Health) { h.Start.P99 = 26 * time.Millisecond }},
		{"queue worker lateness p99", func(h *Health) { h.Worker.P99 = 11 * time.Millisecond }},
		{"queue worker lateness max", func(h *Health) { h.Worker.Max = 51 * time.Millisecond }},
		{"no timer samples", func(h *Health) { h.Timer = Quantiles{} }},
	} {
		h := quiet()
		tc.change(&h)
		if ok, why := h.Keep(LimitsFor(sc)); ok || !strings.Contains(why, tc.what) || !strings.Contains(why, "did not keep time") {
			t.Errorf("%s past its limit: got kept %v, %q; want discarded, saying so", tc.what, ok, why)
		}
	}
	herd := Scenario{Slot: 100, Kind: RetryableDefault}
	h := quiet()
	h.Wait.P90, h.Wait.P99 = 20*time.Millisecond, 45*time.Millisecond
	if ok, why := h.Keep(LimitsFor(herd)); !ok {
		t.Errorf("a lockstep herd's waits late by 20 ms at p90, 45 at p99: got discarded (%s), want kept", why)
	}
	if ok, _ := h.Keep(LimitsFor(sc)); ok {
		t.Errorf("a jittered crowd's waits late by 20 ms at p90: got kept, want discarded")
	}
	queued := Scenario{Slot: 100, Queue: Queue{Size: 10, Timeout: 150}}
	if l := LimitsFor(queued); l.DeliveryP99 != 15*time.Millisecond {
		t.Errorf("delivery limit with a 150 ms timeout: got %v, want 15ms", l.DeliveryP99)
	}
	if ok, _ := quiet().Keep(LimitsFor(queued)); ok {
		t.Errorf("a delivery p99 of 18 ms with a 150 ms timeout: got kept, want discarded")
	}
}
