// Package backoff computes the waits between retries, and what a crowd of
// clients, with a fresh load behind it, does to a service that comes back
// after an outage. Every figure is a whole number of milliseconds or a
// count; nothing here reads a clock, a terminal or a file, so the same
// settings always give the same figures. MODEL.md in the specification is
// the exact meaning of every figure; the formulas:
//
// Draws. u(lo, hi) is one whole number from lo to hi from the client's own
// generator: Reference, the original program's, x = (seed*1000 + client) mod
// 2^32, each draw x = (1664525x + 1013904223) mod 2^32 giving lo + (x>>16)
// mod (hi-lo+1); or Independent, math/rand/v2's PCG seeded (seed, client)
// with Lemire's multiply-and-reject draw (see source.between).
//
// Policies. With first wait b, longest wait c and multiplier m in
// thousandths, the base wait before retry k is d(k) = floor(us(k)/1000),
// us(1) = b*1000, us(k+1) = min(c*1000, floor(us(k)*m/1000)); with linear
// growth us(k+1) = min(c*1000, us(k) + b*1000) instead, d(k) = min(c, k*b),
// m ignored (see Growth). The wait w(k) is drawn around d(k) by the jitter
// (see Jitter). The reference's five are
// Shapes: fixed (m 1000, no jitter), exponential (m 2000, no jitter), full
// and equal jitter (m 2000), and decorrelated, min(c, u(b, 3*previous)).
//
// The crowd. Clients 1..N start at 0 ms and their first attempt fails;
// fresh request j arrives at floor(j*1000/L) ms while that is before the
// load's end, a client numbered N+1+j. The service fails every attempt
// before the outage's end; from then on slot i of S ms serves at most
// floor(C*(i+1)*S/1000) - floor(C*i*S/1000) attempts (C a second, 0: no
// limit) and rejects the rest. Attempts are taken in increasing (time,
// client). A client whose attempt k fails at t retries at t + w(k), unless
// it used its attempts (gave up), its process's budget refuses (throttled),
// or that is past its limit on total time (out of time).
//
// Budgets. gRPC's retryThrottling and the AWS SDKs' retry quota, per
// process; see BudgetGRPC and BudgetAWS.
//
// A service that queues. With a queue of Q > 0 (and a capacity C > 0),
// millisecond t from the outage's end on completes at most c(t) =
// floor(C(t+1)/1000) - floor(Ct/1000) requests, in three steps: every
// request sent at t - T (the timeout; 0: none) and not completed times out,
// its client going on as after any failure while the request stays in the
// queue, expired; the attempts arriving at t, in client order, join the
// back of the queue while fewer than Q wait, else are rejected; then, while
// capacity is left, the service takes the oldest request (FIFO) or the
// newest (LIFO), dropping an expired one for nothing (DropExpired) or
// wasting a unit on it, completing any other: served, its latency t less
// its client's start. Then served + rejected + failed while down + timed
// out = attempts, wasted + dropped = timed out, and the service is stable
// from the end of the slot of the last rejection, timeout, wasted or
// dropped request.
//
// The client's guards (each off at 0, where it changes nothing). An outage
// that hangs (H): an attempt sent at t before the outage's end, and the
// crowd's first, fails at t + H, counted at t, its client going on from
// t + H. A breaker F:D per process: closed, each failure known adds one
// to the failures in a row and a success sets them to 0; the F-th opens it
// at t0, and every attempt of the process before t0 + D is short-circuited
// (failed at once, no capacity, queue or gRPC token); the first attempt
// from t0 + D on is the probe, every other short-circuited until its
// outcome, which closes it (served) or opens it again. Pushback (R): a
// rejected client's next attempt is at t + R, its w(k) still drawn. Each
// millisecond takes the failures that come due (timeouts, hangs), then the
// arrivals, then the queue's service, each in client order. Then served +
// rejected + failed while down + timed out + short-circuited = attempts.
//
// Figures that follow. not_through = gave_up + throttled + out_of_time;
// crowd_all_through_by_ms is the latest served attempt of clients 1..N;
// recovered_after_ms = stable_from_ms - outage unless still overloaded.
package backoff

// Expo is the reference's exponential wait before retry k (k >= 1): first
// doubled k-1 times, doubling only while below longest, and never above
// longest. It cannot overflow: a doubling that would pass longest stops at
// longest instead of multiplying. The ledger's job runner waits this way.
func Expo(first, longest, k int) int {
	w := first
	for i := 2; i <= k && w > 0 && w < longest; i++ {
		if w > longest-w { // 2w > longest: the cap below would take it anyway
			w = longest
		} else {
			w += w
		}
	}
	return min(w, longest)
}
