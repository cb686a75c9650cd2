package backoff

import (
	"fmt"
	"strings"
)

// Settings are the inputs of every figure. All times are whole
// milliseconds. The zero value is not valid; start from Defaults.
type Settings struct {
	// The five policies' waits (see Policy), which the policy of one's own
	// follows unless it has its own.
	FirstWait   int // the wait before the first retry
	LongestWait int // no base wait is longer
	Attempts    int // tries per client, the first included
	MaxElapsed  int // ms a client may spend in all; 0 for no limit

	Clients int // how many clients fail together at 0 ms
	Outage  int // the service is down before this many ms
	Seed    int // seeds every client's generator
	Slot    int // the crowd counts attempts per slot this wide, in ms

	// The policy of one's own ("custom"), which a preset fills: its own
	// first wait, longest wait, attempts and limit on total time, each
	// Follow (the default) to take the five's above, and its multiplier,
	// growth and jitter, which the five have of their own.
	CustomFirstWait   int    // ms, or Follow
	CustomLongestWait int    // ms, or Follow
	CustomAttempts    int    // the first included, or Follow
	CustomMaxElapsed  int    // ms, 0 for no limit, or Follow
	Multiplier        int    // thousandths: 2000 doubles
	Growth            Growth // by the multiplier (the default) or linearly, by the first wait
	Jitter            Jitter // how each wait is drawn

	Draws Draws // where the random numbers come from

	// The service once it is back, and the fresh load on it.
	Capacity  int    // requests a second it serves; 0 for no limit
	Load      int    // fresh requests a second; 0 for none
	LoadUntil int    // ms the fresh load stops at; DefaultLoadUntil for the outage + 60 s
	Budget    Budget // what limits retries; none by default
	Processes int    // how many processes the clients are spread over, each with its own budget; PerClient for one a client

	// A service that queues (MODEL.md section 6). Queue 0 is the service
	// above exactly, which answers or rejects each attempt as it arrives;
	// a queue needs a capacity, and a timeout, DropExpired or LIFO need a
	// queue.
	Queue       int        // the most requests waiting; 0 for no queue
	Timeout     int        // ms a client waits for its answer; 0 waits for ever
	DropExpired bool       // the service discards a request whose client has left, using no capacity
	QueueOrder  QueueOrder // which waiting request the service takes next

	// The client's guards, and outages that hang (MODEL.md section 7); each
	// off at 0 (the zero Breaker), which changes no figure.
	OutageHang int     // ms an attempt to the service while it is down hangs before it fails; 0: it fails at once
	Breaker    Breaker // a circuit breaker per process
	RetryAfter int     // ms a rejection tells its client to wait instead of its own wait; 0: no pushback
}

// QueueOrder is which waiting request a queueing service takes next. The
// zero value is FIFO.
type QueueOrder int

const (
	FIFO QueueOrder = iota // the oldest first
	LIFO                   // the newest first: adaptive LIFO against queueing collapse
)

var queueOrderNames = [...]string{"fifo", "lifo"}

func (o QueueOrder) String() string {
	if o < 0 || int(o) >= len(queueOrderNames) {
		return fmt.Sprintf("QueueOrder(%d)", int(o))
	}
	return queueOrderNames[o]
}

// ParseQueueOrder reads "fifo" or "lifo", in any case.
func ParseQueueOrder(s string) (QueueOrder, error) {
	for i, n := range queueOrderNames {
		if strings.EqualFold(s, n) {
			return QueueOrder(i), nil
		}
	}
	return 0, fmt.Errorf("queue order %q: want fifo or lifo", s)
}

// HasQueue reports whether the service queues (MODEL.md section 6).
func (s Settings) HasQueue() bool { return s.Queue > 0 }

// DefaultLoadUntil is LoadUntil's value for "a minute after the outage".
const DefaultLoadUntil = -1

// PerClient is Processes's value for a process per client: P is the
// clients that exist, the crowd's and the fresh requests', so that client n,
// in process (n-1) mod P, is alone in its process and has a budget of its
// own (ProcessCount).
const PerClient = -1

// ProcessCount is P, how many processes the clients are spread over:
// Processes, or with PerClient the clients that exist (at least 1).
func (s Settings) ProcessCount() int {
	if s.Processes == PerClient {
		return max(s.Clients+s.FreshRequests(), 1)
	}
	return max(s.Processes, 1)
}

// ParseProcesses reads the processes as a person types them: a whole
// number as ParseCount reads one, or "clients" in any case, a process per
// client (PerClient). The caller checks the range.
func ParseProcesses(s string) (int, bool) {
	if strings.EqualFold(s, "clients") {
		return PerClient, true
	}
	return ParseCount(s)
}

// FormatProcesses writes the processes as ParseProcesses reads them:
// "clients" for PerClient, else the number.
func FormatProcesses(n int) string {
	if n == PerClient {
		return "clients"
	}
	return fmt.Sprint(n)
}

// Follow is the value of one of the custom policy's own first wait,
// longest wait, attempts and limit on total time that takes the five's
// instead: custom follows the five wherever it has no value of its own.
const Follow = -1

// Defaults returns the reference's settings: first wait 1000 ms, longest
// 16000 ms, 6 attempts, 200 clients, outage 10000 ms, seed 7, 100 ms slots,
// reference draws; custom is exponential (x2, no jitter) and follows the
// five's waits; no capacity limit, no load, no budget, one process.
func Defaults() Settings {
	return Settings{FirstWait: 1000, LongestWait: 16000, Attempts: 6, Clients: 200, Outage: 10000, Seed: 7, Slot: 100,
		CustomFirstWait: Follow, CustomLongestWait: Follow, CustomAttempts: Follow, CustomMaxElapsed: Follow,
		Multiplier: 2000, LoadUntil: DefaultLoadUntil, Processes: 1}
}

// LoadEnd is when the fresh load stops, in ms: LoadUntil, or the outage +
// 60 s by default.
func (s Settings) LoadEnd() int {
	if s.LoadUntil == DefaultLoadUntil {
		return s.Outage + 60000
	}
	return s.LoadUntil
}

// FreshRequests is how many fresh requests arrive: request j arrives at
// floor(j*1000/Load) ms while that is before LoadEnd, so there are
// ceil(LoadEnd*Load/1000) of them.
func (s Settings) FreshRequests() int {
	if s.Load <= 0 || s.LoadEnd() <= 0 {
		return 0
	}
	return int((int64(s.LoadEnd())*int64(s.Load) + 999) / 1000)
}

// HasService reports whether the service does anything the reference's
// crowd does not: a capacity, a fresh load, a budget, a queue, or one of
// the client's guards (HasGuards).
func (s Settings) HasService() bool {
	return s.Capacity > 0 || s.Load > 0 || s.Budget.Kind != BudgetNone || s.Queue > 0 || s.HasGuards()
}

// HasGuards reports whether any of MODEL.md section 7 is on: an outage
// that hangs, a breaker or pushback.
func (s Settings) HasGuards() bool {
	return s.OutageHang > 0 || s.Breaker.On() || s.RetryAfter > 0
}

// needsClock reports whether the crowd's clients depend on one another, so
// that only the engine can run them: a capacity, a fresh load, a budget, a
// queue or a breaker. Without them every client's fate is its own, and the
// fast path runs them one after another; an outage that hangs only shifts
// each client's retries, and pushback needs a rejection, which needs a
// capacity.
func (s Settings) needsClock() bool {
	return s.Capacity > 0 || s.Load > 0 || s.Budget.Kind != BudgetNone || s.Queue > 0 || s.Breaker.On()
}

// Field names one of the settings that is a whole number.
type Field int

// The settings a person can change, in the order the reference's settings
// form asks for them, then the slot width, the custom policy's multiplier,
// the limit on total time, the custom policy's own waits, and the
// service's, its queue last. DropExpired and QueueOrder are no numbers: like the
// jitter, the draws and the budget, they have no Field.
const (
	FirstWait Field = iota
	LongestWait
	Attempts
	Clients
	Outage
	Seed
	Slot
	Multiplier
	MaxElapsed
	// The custom policy's own, each Follow to take the five's (Follows).
	CustomFirstWait
	CustomLongestWait
	CustomAttempts
	CustomMaxElapsed
	Capacity
	Load
	LoadUntil
	Processes
	Queue   // the queue's limit in requests; 0 for no queue
	Timeout // the client's timeout in ms; 0 waits for ever
	// The client's guards' times (MODEL.md section 7); the breaker is no
	// number and has no Field.
	OutageHang // ms an attempt while the service is down hangs; 0 fails at once
	RetryAfter // ms a rejection tells its client to wait; 0 for no pushback
	numFields
)

// Follows is the field of the five's that custom's own field f takes when
// it is Follow (CustomFirstWait: FirstWait), and whether f is one of
// custom's own.
func (f Field) Follows() (Field, bool) {
	switch f {
	case CustomFirstWait:
		return FirstWait, true
	case CustomLongestWait:
		return LongestWait, true
	case CustomAttempts:
		return Attempts, true
	case CustomMaxElapsed:
		return MaxElapsed, true
	}
	return f, false
}

// Fields returns every whole-number setting, in order.
func Fields() []Field {
	out := make([]Field, numFields)
	for i := range out {
		out[i] = Field(i)
	}
	return out
}

// FormFields are the six settings the reference's settings form asks for,
// in its order.
func FormFields() []Field {
	return []Field{FirstWait, LongestWait, Attempts, Clients, Outage, Seed}
}

var fieldLabels = [numFields]string{"first wait in ms", "longest wait in ms", "attempts per client", "clients", "outage in ms", "seed",
	"slot in ms", "multiplier in thousandths", "limit on total time in ms",
	"your own first wait in ms", "your own longest wait in ms", "your own attempts per client", "your own limit on total time in ms",
	"capacity a second", "load a second", "load until in ms", "processes", "queue in requests", "timeout in ms",
	"outage hang in ms", "retry after in ms"}

// String is the field as the reference's prompts name it, such as "first
// wait in ms".
func (f Field) String() string {
	if f < 0 || f >= numFields {
		return fmt.Sprintf("Field(%d)", int(f))
	}
	return fieldLabels[f]
}

// IsTime reports whether the field is a time in milliseconds.
func (f Field) IsTime() bool {
	switch f {
	case FirstWait, LongestWait, Outage, Slot, MaxElapsed, LoadUntil, Timeout, OutageHang, RetryAfter, CustomFirstWait, CustomLongestWait, CustomMaxElapsed:
		return true
	}
	return false
}

// Limits are the ranges the settings may take: the reference's, in --plain,
// or the wider ones of every other face.
type Limits int

const (
	// PlainLimits are the reference's ranges, which --plain keeps.
	PlainLimits Limits = iota
	// WideLimits are the ranges of the reports and the full-screen program.
	WideLimits
)

// The wide ranges' tops.
const (
	MaxAttempts      = 100
	MaxWait          = 3600000  // an hour
	MaxClients       = 10000000 // ten million: a fleet of devices; client numbers, with the fresh requests', stay below 2^32
	MaxTime          = 86400000 // a day: the outage, the limit on total time, the load's end
	MaxCapacity      = 100000000
	MaxLoad          = 1000000
	MaxFreshRequests = 600000000 // a million a second for ten minutes
	MaxProcesses     = 100000
	// MaxQueue is the longest queue. A queue's memory is no more than the
	// clients': a request waiting is its client's pending attempt, moved
	// there, and the expired ones are only counted.
	MaxQueue   = 10000000
	MaxTimeout = MaxTime // a day
)

// RangeIn returns the lowest and highest value field f may take under
// limits l. Only the longest waits' ranges depend on another setting: each
// starts at its first wait (custom's at its own, or the five's it
// follows). Custom's own fields may also be Follow (see CheckIn). Under
// PlainLimits the settings beyond the reference's take only their defaults.
func (s Settings) RangeIn(l Limits, f Field) (low, high int) {
	if _, own := f.Follows(); own && l == PlainLimits {
		return Follow, Follow
	}
	if l == PlainLimits {
		switch f {
		case FirstWait:
			return 1, 10000
		case LongestWait:
			return s.FirstWait, 600000
		case Attempts:
			return 2, 12
		case Clients:
			return 1, 1000
		case Outage:
			return 0, 600000
		case Seed:
			return 0, 999999
		case Slot:
			return 1, 600000
		case Multiplier:
			return 2000, 2000
		case MaxElapsed, Capacity, Load, Queue, Timeout, OutageHang, RetryAfter:
			return 0, 0
		case LoadUntil:
			return DefaultLoadUntil, DefaultLoadUntil
		case Processes:
			return 1, 1
		}
		return 0, -1
	}
	switch f {
	case FirstWait:
		return 1, MaxWait
	case LongestWait:
		return s.FirstWait, MaxWait
	case Attempts:
		return 2, MaxAttempts
	case Clients:
		return 1, MaxClients
	case Outage:
		return 0, MaxTime
	case Seed:
		return 0, 999999
	case Slot:
		return 1, MaxWait
	case Multiplier:
		return 1000, 10000
	case MaxElapsed:
		return 0, MaxTime
	case Capacity:
		return 0, MaxCapacity
	case Load:
		return 0, MaxLoad
	case LoadUntil:
		return 0, MaxTime
	case Processes:
		return 1, MaxProcesses
	case Queue:
		return 0, MaxQueue
	case Timeout:
		return 0, MaxTimeout
	case OutageHang, RetryAfter:
		return 0, MaxWait
	case CustomFirstWait:
		return 1, MaxWait
	case CustomLongestWait:
		return s.Value(CustomFirstWait), MaxWait
	case CustomAttempts:
		return 2, MaxAttempts
	case CustomMaxElapsed:
		return 0, MaxTime
	}
	return 0, -1
}

// Range is RangeIn(PlainLimits, f): the reference's ranges.
func (s Settings) Range(f Field) (low, high int) { return s.RangeIn(PlainLimits, f) }

// Get returns the value of field f.
func (s Settings) Get(f Field) int {
	if p := s.field(f); p != nil {
		return *p
	}
	return 0
}

// Value is the value field f stands for: custom's own field, when it is
// Follow, is the five's it follows; any other field is Get.
func (s Settings) Value(f Field) int {
	v := s.Get(f)
	if shared, own := f.Follows(); own && v == Follow {
		return s.Get(shared)
	}
	return v
}

// Set sets field f to v, unchecked; Validate checks.
func (s *Settings) Set(f Field, v int) {
	if p := s.field(f); p != nil {
		*p = v
	}
}

func (s *Settings) field(f Field) *int {
	switch f {
	case FirstWait:
		return &s.FirstWait
	case LongestWait:
		return &s.LongestWait
	case Attempts:
		return &s.Attempts
	case Clients:
		return &s.Clients
	case Outage:
		return &s.Outage
	case Seed:
		return &s.Seed
	case Slot:
		return &s.Slot
	case Multiplier:
		return &s.Multiplier
	case MaxElapsed:
		return &s.MaxElapsed
	case Capacity:
		return &s.Capacity
	case Load:
		return &s.Load
	case LoadUntil:
		return &s.LoadUntil
	case Processes:
		return &s.Processes
	case Queue:
		return &s.Queue
	case Timeout:
		return &s.Timeout
	case OutageHang:
		return &s.OutageHang
	case RetryAfter:
		return &s.RetryAfter
	case CustomFirstWait:
		return &s.CustomFirstWait
	case CustomLongestWait:
		return &s.CustomLongestWait
	case CustomAttempts:
		return &s.CustomAttempts
	case CustomMaxElapsed:
		return &s.CustomMaxElapsed
	}
	return nil
}

// RangeError says that a setting is outside its range.
type RangeError struct {
	Field     Field
	Value     int
	Low, High int
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("%s: %d is not from %d to %d", e.Field, e.Value, e.Low, e.High)
}

// CheckIn returns a *RangeError if v is outside field f's range under s and
// limits l. The load's end may also be DefaultLoadUntil, the processes
// PerClient (but under PlainLimits), and custom's own fields Follow: then
// what they follow is checked where its range differs, custom's longest
// wait against its own first wait.
func (s Settings) CheckIn(l Limits, f Field, v int) error {
	if f == LoadUntil && v == DefaultLoadUntil || f == Processes && v == PerClient && l == WideLimits {
		return nil
	}
	if shared, own := f.Follows(); own && v == Follow && l == WideLimits {
		if f != CustomLongestWait {
			return nil
		}
		v = s.Get(shared)
	}
	low, high := s.RangeIn(l, f)
	if v < low || v > high {
		return &RangeError{Field: f, Value: v, Low: low, High: high}
	}
	return nil
}

// Check is CheckIn(PlainLimits, f, v).
func (s Settings) Check(f Field, v int) error { return s.CheckIn(PlainLimits, f, v) }

// TooMuchLoadError says that the fresh load would send more than
// MaxFreshRequests requests.
type TooMuchLoadError struct {
	Load, Until, Requests int
}

func (e *TooMuchLoadError) Error() string {
	return fmt.Sprintf("a load of %d a second until %d ms is %d fresh requests, more than %d", e.Load, e.Until, e.Requests, MaxFreshRequests)
}

// ValidateIn returns the first setting outside its range under limits l,
// in the fields' order, then any other setting that is not valid (the
// jitter, the growth, the draws, the budget, the fresh requests in all),
// or nil.
func (s Settings) ValidateIn(l Limits) error {
	// The guards first: their messages say what 0 means, and that --plain
	// has none, where their fields' ranges would not.
	if l == PlainLimits && s.HasGuards() {
		return fmt.Errorf("--plain keeps the reference's settings: no outage hang, breaker or retry-after")
	}
	if err := s.validateGuards(); err != nil {
		return err
	}
	for f := range numFields {
		if err := s.CheckIn(l, f, s.Get(f)); err != nil {
			return err
		}
	}
	if err := s.Jitter.validate(); err != nil {
		return err
	}
	if err := s.Growth.validate(); err != nil {
		return err
	}
	if s.Draws != Reference && s.Draws != Independent {
		return fmt.Errorf("draws: %v is not reference or independent", s.Draws)
	}
	if l == PlainLimits && (s.Jitter != Jitter{} || s.Growth != GrowthExponential || s.Draws != Reference || s.Budget.Kind != BudgetNone ||
		s.Queue != 0 || s.Timeout != 0 || s.DropExpired || s.QueueOrder != FIFO) {
		return fmt.Errorf("--plain keeps the reference's settings: no custom jitter or growth, reference draws, no budget, no queue")
	}
	if err := s.Budget.validate(); err != nil {
		return err
	}
	if err := s.validateQueue(); err != nil {
		return err
	}
	if n := s.FreshRequests(); n > MaxFreshRequests {
		return &TooMuchLoadError{Load: s.Load, Until: s.LoadEnd(), Requests: n}
	}
	return nil
}

// validateQueue checks the queue's settings: their ranges, a capacity
// for a queue, and a queue for a timeout, DropExpired or LIFO, which mean
// nothing without one.
func (s Settings) validateQueue() error {
	switch {
	case s.Queue < 0 || s.Queue > MaxQueue:
		return fmt.Errorf("queue: %d is not from 0 to %d requests", s.Queue, MaxQueue)
	case s.Timeout < 0 || s.Timeout > MaxTimeout:
		return fmt.Errorf("timeout: %d is not from 0 to %d ms", s.Timeout, MaxTimeout)
	case s.QueueOrder != FIFO && s.QueueOrder != LIFO:
		return fmt.Errorf("queue order: %v is not fifo or lifo", s.QueueOrder)
	case s.Queue > 0 && s.Capacity <= 0:
		return fmt.Errorf("queue: a queue of %d needs a capacity to serve it: set a capacity a second, or a queue of 0 for none", s.Queue)
	case s.Queue > 0:
		return nil
	case s.Timeout > 0:
		return fmt.Errorf("timeout: a timeout of %d ms needs a queue to wait in: set a queue, or a timeout of 0", s.Timeout)
	case s.DropExpired:
		return fmt.Errorf("drop expired: only a queue holds expired requests: set a queue, or leave expired requests alone")
	case s.QueueOrder == LIFO:
		return fmt.Errorf("queue order: lifo needs a queue to take the newest from: set a queue, or the order fifo")
	}
	return nil
}

// validateGuards checks the ranges of MODEL.md section 7: an outage's hang
// and pushback from 1 ms to an hour, or 0 for none, and the breaker's.
func (s Settings) validateGuards() error {
	switch {
	case s.OutageHang < 0 || s.OutageHang > MaxWait:
		return fmt.Errorf("outage hang: %d is not from 1 to %d ms (an hour), or 0 for an outage that refuses at once", s.OutageHang, MaxWait)
	case s.RetryAfter < 0 || s.RetryAfter > MaxWait:
		return fmt.Errorf("retry after: %d is not from 1 to %d ms (an hour), or 0 for no pushback", s.RetryAfter, MaxWait)
	}
	return s.Breaker.validate()
}

// Validate is ValidateIn(PlainLimits): the reference's ranges.
func (s Settings) Validate() error { return s.ValidateIn(PlainLimits) }

func (j Jitter) validate() error {
	switch j.Kind {
	case JitterNone, JitterFull, JitterEqual, JitterDecorrelated:
		if j.Factor == 0 {
			return nil
		}
	case JitterSpread, JitterUp:
		if j.Factor >= 1 && j.Factor <= 1000 {
			return nil
		}
	}
	return fmt.Errorf("jitter: %+v is not %s", j, JitterList)
}
