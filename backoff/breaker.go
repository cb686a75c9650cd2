package backoff

import (
	"fmt"
	"strconv"
	"strings"
)

// Breaker is a circuit breaker that every process's clients share, one a
// process (MODEL.md section 7): closed at 0 ms, it opens when Failures
// outcomes in a row were failures, fails every attempt of the process at
// once for Open ms (short-circuited), then lets one attempt through, the
// probe, whose success closes it and whose failure opens it again. The
// zero value is no breaker.
type Breaker struct {
	Failures int // F: the consecutive failures that open it, 1 to MaxBreakerFailures
	Open     int // D: how long it stays open, in ms, 1 to MaxWait
}

// MaxBreakerFailures is the most consecutive failures a breaker may wait
// for.
const MaxBreakerFailures = 1000

// BreakerList is the forms ParseBreaker takes, for messages.
const BreakerList = "none, F:D (F consecutive failures from 1 to 1000, D how long it stays open, from 1 ms to 1 h: 5:30s) or a library's: "

// On reports whether there is a breaker.
func (b Breaker) On() bool { return b != Breaker{} }

// String writes the breaker as ParseBreaker reads it: "none", "5:30s",
// "20:1500ms".
func (b Breaker) String() string {
	if !b.On() {
		return "none"
	}
	d := strconv.Itoa(b.Open) + "ms"
	if b.Open%1000 == 0 {
		d = strconv.Itoa(b.Open/1000) + "s"
	}
	return strconv.Itoa(b.Failures) + ":" + d
}

// ParseBreaker reads "none", "F:D" (D a time as ParseTime reads one: "30s",
// "1500", "1m") or the name of a breaker preset ("gobreaker"), in any case.
func ParseBreaker(s string) (Breaker, error) {
	fail := fmt.Errorf("breaker %q: want %s%s", s, BreakerList, BreakerPresetNames())
	if strings.EqualFold(s, "none") {
		return Breaker{}, nil
	}
	if pr, ok := FindBreakerPreset(s); ok {
		return pr.Breaker, nil
	}
	f, d, ok := strings.Cut(s, ":")
	if !ok {
		return Breaker{}, fail
	}
	var b Breaker
	var okF, okD bool
	b.Failures, okF = ParseCount(f)
	b.Open, okD = ParseTime(strings.ToLower(d))
	if !okF || !okD || !b.On() || b.validate() != nil {
		return Breaker{}, fail
	}
	return b, nil
}

func (b Breaker) validate() error {
	switch {
	case !b.On():
		return nil
	case b.Failures < 1 || b.Failures > MaxBreakerFailures:
		return fmt.Errorf("breaker: %d consecutive failures is not from 1 to %d: write F:D, such as 5:30s, or none", b.Failures, MaxBreakerFailures)
	case b.Open < 1 || b.Open > MaxWait:
		return fmt.Errorf("breaker: open for %d ms is not from 1 to %d ms (an hour): write F:D, such as 5:30s, or none", b.Open, MaxWait)
	}
	return nil
}

// breakerState is one process's breaker in a run. Closed, it counts the
// failures in a row; open, it short-circuits every attempt before until,
// and from until on lets the first attempt through as the probe, then
// short-circuits every other until the probe's outcome is known.
type breakerState struct {
	fails int  // consecutive failures while closed
	open  bool // open or half-open
	until int64
	probe uint32 // the client whose attempt is the probe; 0 for none
}

// breakers is every process's breaker.
type breakers struct {
	failures int   // F
	open     int64 // D
	procs    uint32
	state    []breakerState
}

func newBreakers(b Breaker, processes int) breakers {
	if !b.On() {
		return breakers{}
	}
	return breakers{failures: b.Failures, open: int64(b.Open), procs: uint32(max(processes, 1)), state: make([]breakerState, max(processes, 1))}
}

// of is client's process's breaker.
func (bs *breakers) of(client uint32) *breakerState {
	if bs.procs == 1 {
		return &bs.state[0]
	}
	return &bs.state[(client-1)%bs.procs]
}

// shorted reports whether client's attempt at t is short-circuited: its
// process's breaker is open and it is not the probe; the first attempt at
// or after the end of the open time becomes the probe. It returns the end
// of the open time as well.
func (bs *breakers) shorted(client uint32, t int64) (until int64, short bool) {
	st := bs.of(client)
	if !st.open {
		return 0, false
	}
	if st.probe != 0 || t < st.until {
		return st.until, true
	}
	st.probe = client
	return st.until, false
}

// outcome is the outcome of n attempts of one process, known at t, from
// client on (n is 1 but for a cohort's): served or failed. It reports
// whether the breaker opened. Closed, each failure adds one to the
// failures in a row and the F-th opens it, a success sets them to 0; open,
// only the probe's outcome counts (a probe goes alone): a success closes
// it, a failure opens it again for D from t.
func (bs *breakers) outcome(client uint32, n int64, t int64, served bool) (opened bool) {
	st := bs.of(client)
	if st.open {
		if st.probe != client {
			return false
		}
		st.probe = 0
		if served {
			st.open, st.fails = false, 0
			return false
		}
		st.until = t + bs.open
		return true
	}
	if served {
		st.fails = 0
		return false
	}
	if st.fails += int(min(n, int64(bs.failures))); st.fails < bs.failures {
		return false
	}
	st.open, st.until = true, t+bs.open
	return true
}

// orderFree reports whether the arrivals at t come out the same in any
// order as far as the breakers go (a budget, and the service's capacity,
// are the caller's to see to): for every process, its breaker
// short-circuits them all (open, and before its open time's end or waiting
// for its probe's outcome); or the service is down and the outage refuses,
// so that each fails at once, failed while down or short-circuited, and its
// client waits w(k) either way; or the service is down, the outage hangs
// and the breaker is closed, so that every arrival hangs and no outcome is
// known at t. It looks at no more than most breakers, and says false where
// there are more.
func (bs *breakers) orderFree(t int64, down, hangs bool, most int) bool {
	if len(bs.state) > most {
		return false
	}
	for i := range bs.state {
		st := &bs.state[i]
		switch {
		case st.open && (t < st.until || st.probe != 0):
		case down && !hangs:
		case down && !st.open:
		default:
			return false
		}
	}
	return true
}
