package livecheck

import (
	"fmt"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
)

// Kind is which real client retries in a scenario.
type Kind int

// The clients. Each waits as its library waits at time compressed (first
// waits of about 100 ms), and each has the planner's policy that says the
// same waits in whole milliseconds.
const (
	// PlannerFullJitter is a loop of our own that waits the planner's own
	// draws: backoff.Waits with independent draws, full jitter.
	PlannerFullJitter Kind = iota
	// CenkaltiV4 is github.com/cenkalti/backoff/v4's Retry over its
	// ExponentialBackOff, WithMaxRetries.
	CenkaltiV4
	// CenkaltiV5 is github.com/cenkalti/backoff/v5's Retry over its
	// ExponentialBackOff, WithMaxTries and WithMaxElapsedTime.
	CenkaltiV5
	// RetryableDefault is github.com/hashicorp/go-retryablehttp's Client
	// with DefaultBackoff: doubling, no jitter, a lockstep herd.
	RetryableDefault
	// RetryableLinear is go-retryablehttp's Client with LinearJitterBackoff.
	RetryableLinear
	numKinds
)

var kindNames = [numKinds]string{"planner full jitter", "cenkalti v4", "cenkalti v5", "retryablehttp default", "retryablehttp linear"}

func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// Kinds returns every kind of client.
func Kinds() []Kind {
	out := make([]Kind, numKinds)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// Jittered reports whether the kind draws its waits at random: for these
// the live figures must agree with the simulator's; for the others the
// table shows which way they differ.
func (k Kind) Jittered() bool { return k != RetryableDefault }

// Policy is the planner's policy that waits as the kind's library does at
// the compressed time this package runs:
//
//   - planner full jitter: first 100 ms, x2, longest 1600 ms, full jitter,
//     8 attempts; the live loop waits backoff.Waits itself.
//   - cenkalti v4 and v5: the library's defaults at a fifth of the time
//     (InitialInterval 500 ms to 100, MaxInterval 60 s to 12 s,
//     MaxElapsedTime 15 min to 3 min), Multiplier 1.5, RandomizationFactor
//     0.5, and 9 attempts (WithMaxRetries(8) in v4, WithMaxTries(9) in v5)
//     where the library sets none: the planner's cenkalti preset, spread
//     0.5 around a base that grows by 1.5.
//   - retryablehttp default: DefaultBackoff at a tenth of the time
//     (RetryWaitMin 1 s to 100 ms, RetryWaitMax 30 s to 3 s), RetryMax 6:
//     100, 200, 400, 800, 1600, 3000 ms, the same for every client.
//   - retryablehttp linear: LinearJitterBackoff(500 ms, 1500 ms), RetryMax
//     2. Retry k waits k times a uniform draw from [min, max): spread 0.5
//     around k*1000 ms. The planner's policies grow by a multiplier only,
//     and for the first two retries k*b is b, 2b, which is doubling: so
//     the scenario keeps to two retries, where linear and doubling agree.
func (k Kind) Policy() backoff.Policy {
	switch k {
	case PlannerFullJitter:
		return backoff.Policy{Name: k.String(), FirstWait: 100, LongestWait: 1600, Multiplier: 2000,
			Jitter: backoff.Jitter{Kind: backoff.JitterFull}, Attempts: 8}
	case CenkaltiV4, CenkaltiV5:
		return backoff.Policy{Name: k.String(), FirstWait: 100, LongestWait: 12000, Multiplier: 1500,
			Jitter: backoff.Jitter{Kind: backoff.JitterSpread, Factor: 500}, Attempts: 9, MaxElapsed: 180000}
	case RetryableDefault:
		return backoff.Policy{Name: k.String(), FirstWait: 100, LongestWait: 3000, Multiplier: 2000, Attempts: 7}
	case RetryableLinear:
		return backoff.Policy{Name: k.String(), FirstWait: 1000, LongestWait: 2000, Multiplier: 2000,
			Jitter: backoff.Jitter{Kind: backoff.JitterSpread, Factor: 500}, Attempts: 3}
	}
	return backoff.Policy{Name: k.String()}
}

// QueueOrder is which queued request a queueing service takes next.
type QueueOrder int

const (
	FIFO QueueOrder = iota // the oldest
	LIFO                   // the newest: the adaptive LIFO services use against queueing collapse
)

func (o QueueOrder) String() string {
	if o == LIFO {
		return "lifo"
	}
	return "fifo"
}

// Queue is MODEL.md section 6's service: a queue of Size requests served
// at the capacity, clients that give up on an attempt after Timeout, and
// expired requests worked on for nothing (wasted) or dropped. The zero
// value is no queue: section 3's service, which answers every attempt the
// moment it arrives.
type Queue struct {
	Size        int // Q, requests waiting at most; 0: no queue
	Timeout     int // T, ms a client waits for an answer; 0: for ever
	DropExpired bool
	Order       QueueOrder
}

// On reports whether the service queues.
func (q Queue) On() bool { return q.Size > 0 }

// Scenario is one storm: a crowd of real clients of one kind that fail
// together at the start, an outage, the service's capacity and a fresh
// load, all in milliseconds of compressed time.
type Scenario struct {
	Name      string
	Kind      Kind
	Clients   int // N, the crowd
	Outage    int // ms
	Slot      int // ms; the capacity and the figures count per slot
	Capacity  int // a second; 0: no limit
	Load      int // fresh requests a second; 0: none
	LoadUntil int // ms; fresh request j arrives at floor(j*1000/Load) while before this
	Queue     Queue
	// Breaker is the clients' circuit breaker (MODEL.md section 7), one a
	// process of Processes (0 is 1): client n is in process (n-1) mod P.
	// The zero Breaker is none.
	Breaker   backoff.Breaker
	Processes int
	// Custom, when it has attempts, is the clients' policy instead of the
	// kind's: its library set to wait so (see Kind.Fits).
	Custom backoff.Policy
}

// Policy is the planner's policy of the scenario's clients.
func (sc Scenario) Policy() backoff.Policy {
	if sc.Custom.Attempts > 0 {
		return sc.Custom
	}
	return sc.Kind.Policy()
}

// Settings are the planner's settings for the scenario with seed, and
// independent draws: the draws the live full-jitter loop waits, and the
// ones that behave like the libraries' random sources (the reference's
// lattice does not).
func (sc Scenario) Settings(seed int) backoff.Settings {
	p := sc.Policy()
	s := backoff.Defaults()
	s.FirstWait, s.LongestWait, s.Attempts = p.FirstWait, p.LongestWait, p.Attempts
	s.Multiplier, s.Jitter, s.MaxElapsed = p.Multiplier, p.Jitter, p.MaxElapsed
	s.Clients, s.Outage, s.Slot, s.Seed = sc.Clients, sc.Outage, sc.Slot, seed
	s.Draws = backoff.Independent
	s.Capacity, s.Load, s.LoadUntil = sc.Capacity, sc.Load, sc.LoadUntil
	if sc.Load == 0 {
		s.LoadUntil = backoff.DefaultLoadUntil
	}
	s.Breaker, s.Processes = sc.Breaker, max(sc.Processes, 1)
	if sc.Queue.On() {
		s.Queue, s.Timeout, s.DropExpired = sc.Queue.Size, sc.Queue.Timeout, sc.Queue.DropExpired
		s.QueueOrder = backoff.FIFO
		if sc.Queue.Order == LIFO {
			s.QueueOrder = backoff.LIFO
		}
	}
	return s
}

// Fresh is how many fresh requests arrive: request j at
// floor(j*1000/Load) ms while that is before LoadUntil.
func (sc Scenario) Fresh() int {
	if sc.Load <= 0 || sc.LoadUntil <= 0 {
		return 0
	}
	return int((int64(sc.LoadUntil)*int64(sc.Load) + 999) / 1000)
}

// Start is when client c (1..N the crowd, then the fresh requests in
// order) starts, in ms.
func (sc Scenario) Start(c int) int {
	if c <= sc.Clients {
		return 0
	}
	return int(int64(c-sc.Clients-1) * 1000 / int64(sc.Load))
}

// AllClients is the crowd plus the fresh requests.
func (sc Scenario) AllClients() int { return sc.Clients + sc.Fresh() }

// Longest is an upper bound on a live run's length: the last client's
// start, every wait at its longest, and a timeout (or a second) per
// attempt for the answers.
func (sc Scenario) Longest() time.Duration {
	p := sc.Policy()
	most := 0
	prev := p.FirstWait
	for k := 1; k <= p.Retries(); k++ {
		_, hi := p.Band(k, prev)
		prev = hi
		most += hi
	}
	per := time.Second
	if sc.Queue.Timeout > 0 {
		per = time.Duration(sc.Queue.Timeout)*time.Millisecond + time.Second
	}
	last := sc.Start(sc.AllClients())
	return time.Duration(last+most)*time.Millisecond + time.Duration(p.Attempts)*per
}

// Validate checks what the live run needs beyond the planner's ranges.
func (sc Scenario) Validate() error {
	if sc.Clients < 1 || sc.Slot < 1 || sc.Outage < 0 || sc.Capacity < 0 || sc.Load < 0 || sc.Processes < 0 {
		return fmt.Errorf("%s: clients and slot must be positive; outage, capacity, load and processes not negative", sc.Name)
	}
	if err := sc.Settings(1).ValidateIn(backoff.WideLimits); err != nil {
		return fmt.Errorf("%s: %w", sc.Name, err)
	}
	if sc.Load > 0 && sc.LoadUntil <= 0 {
		return fmt.Errorf("%s: a load needs a positive load-until", sc.Name)
	}
	if sc.Queue.On() && sc.Capacity == 0 {
		return fmt.Errorf("%s: a queue needs a capacity", sc.Name)
	}
	if !sc.Queue.On() && (sc.Queue.Timeout > 0 || sc.Queue.DropExpired || sc.Queue.Order != FIFO) {
		return fmt.Errorf("%s: a timeout, drop-expired or lifo needs a queue", sc.Name)
	}
	if err := sc.Policy().Validate(); err != nil {
		return fmt.Errorf("%s: %w", sc.Name, err)
	}
	if err := sc.Kind.Fits(sc.Policy()); err != nil {
		return fmt.Errorf("%s: %w", sc.Name, err)
	}
	return nil
}

// Fits says whether the kind's library can be set to wait as policy p
// does, and if not, why.
func (k Kind) Fits(p backoff.Policy) error {
	j := p.Jitter
	switch k {
	case PlannerFullJitter:
		return nil // the loop waits backoff.Waits, whatever the policy
	case CenkaltiV4, CenkaltiV5:
		if j.Kind == backoff.JitterSpread || j.Kind == backoff.JitterNone {
			return nil
		}
		return fmt.Errorf("%s draws spread jitter (RandomizationFactor) or none, not %s", k, j)
	case RetryableDefault:
		if p.Multiplier == 2000 && j.Kind == backoff.JitterNone && p.MaxElapsed == 0 {
			return nil
		}
		return fmt.Errorf("%s doubles without jitter and has no limit on total time", k)
	case RetryableLinear:
		if p.Multiplier == 2000 && j.Kind == backoff.JitterSpread && p.Attempts <= 3 && p.LongestWait >= 2*p.FirstWait &&
			p.FirstWait*j.Factor%1000 == 0 && p.MaxElapsed == 0 {
			return nil
		}
		return fmt.Errorf("%s is spread jitter around k times the first wait, whole ms at both ends; the planner doubles, which is k times for two retries at most", k)
	}
	return fmt.Errorf("no such kind %d", int(k))
}
