// Package livecheck proves the planner's model against a live storm: real
// clients, with the real retry libraries, against a real HTTP server on
// 127.0.0.1, their figures set against the simulator's spread for the same
// settings. It is a module of its own, like testdata/crosscheck, so that
// none of the libraries becomes a dependency of the planner.
//
// The server (server.go) is MODEL.md's service: every attempt before the
// outage's end fails (503), and so does each crowd client's first; from
// then on slot i of S ms serves at most cap(i) = floor(C(i+1)S/1000) -
// floor(CiS/1000) attempts and answers the rest 503 (service.go's slots,
// driven in virtual time to give backoff.Run's figures exactly, in
// TestDrivenServerIsTheModel). With a queue (MODEL.md section 6) it keeps a
// FIFO or LIFO queue served each millisecond at the capacity, and works on
// expired requests for nothing, or drops them. Its log holds each attempt's
// arrival on its own monotonic clock, the client and the outcome, and the
// figures are measured from that log alone (measure.go).
//
// The clients (clients.go), each on its own kept-alive connection, opened
// before the start: cenkalti/backoff v4 and v5 (ExponentialBackOff),
// hashicorp/go-retryablehttp (DefaultBackoff: lockstep; LinearJitterBackoff)
// and a full-jitter loop that waits the planner's own independent draws.
// Time is compressed: first waits of about 100 ms, an outage of 2.5 s, a
// crowd of 500, and a fresh load of 200 a second in half the scenarios.
// The simulator (sim.go) runs the same settings with independent draws
// over seeds 1 to 50 and takes p5, median and p95 of each figure; the live
// full-jitter loop draws with seeds from 1001, never one of those.
//
// With a circuit breaker (MODEL.md section 7's F:D, one a process of
// clients), each client's RoundTripper asks its process's breaker before
// it sends: an open breaker fails the attempt at once, without sending
// it, and the client logs it (short-circuited) and retries as after any
// failure; each answer's outcome is told to the breaker when it comes
// back. The driven clients (drive_test.go) play the same breakers in
// virtual time with the model's order within a millisecond, together with
// outages that hang and pushback, which the live server does not play:
// Measure of their log is backoff.Run's figures exactly
// (TestDrivenGuardsAreTheModel, TestDrivenBreakerByHand).
//
// A run is kept only if the machine kept time (health.go): a goroutine's
// 1 ms sleeps, the libraries' own waits against the time between an answer
// and the next attempt, the delivery from a client's send to the server's
// arrival, and the fresh requests' starts, each within limits set by the
// slot. A run past them is discarded and says why: a busy machine gives
// "not measured", never a false failure.
//
// Jittered clients must agree with the simulator's median: clients through
// and gave up within 3%, peak after back within 15%, latency p50 and p99
// within 10% (or inside the simulator's own p5-p95 band where its seeds
// spread wider than that, which the short version never relies on). The
// lockstep herd is shown, not held: the table says which way it differs.
//
// The short version runs under go test (TestLiveShort, TestLiveQueue): a
// few scenarios, one with breakers, one live run each, about a minute and
// a half. The full table:
//
//	cd testdata/livecheck && go run ./cmd/livetable [-runs 3] [-queue] [-breaker]
//
// RESULTS.md holds its last output and what it says. The queue's
// simulator side waits for the planner's queue: see queue_noplanner.go.
package livecheck
