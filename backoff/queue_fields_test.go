package backoff

import (
	"errors"
	"testing"
)

// The queue's limit and timeout are Fields, so that the flags, plans,
// the form and comparisons name and range them as every other number:
// their flags, labels, units and ranges, on each side of each end.
func TestQueueFields(t *testing.T) {
	for _, tt := range []struct {
		f          Field
		flag       string
		label      string
		time       bool
		low, high  int
		plainRange [2]int
	}{
		{Queue, "queue", "queue in requests", false, 0, MaxQueue, [2]int{0, 0}},
		{Timeout, "timeout", "timeout in ms", true, 0, MaxTimeout, [2]int{0, 0}},
	} {
		if got := tt.f.Flag(); got != tt.flag {
			t.Errorf("%d.Flag() = %q, want %q", tt.f, got, tt.flag)
		}
		if got := tt.f.String(); got != tt.label {
			t.Errorf("%d.String() = %q, want %q", tt.f, got, tt.label)
		}
		if got := tt.f.IsTime(); got != tt.time {
			t.Errorf("%v.IsTime() = %v, want %v", tt.f, got, tt.time)
		}
		s := Defaults()
		if low, high := s.RangeIn(WideLimits, tt.f); low != tt.low || high != tt.high {
			t.Errorf("%v: wide range %d to %d, want %d to %d", tt.f, low, high, tt.low, tt.high)
		}
		if low, high := s.RangeIn(PlainLimits, tt.f); [2]int{low, high} != tt.plainRange {
			t.Errorf("%v: plain range %d to %d, want %v", tt.f, low, high, tt.plainRange)
		}
		for _, v := range []int{tt.low - 1, tt.low, tt.low + 1, tt.high - 1, tt.high, tt.high + 1} {
			s.Set(tt.f, v)
			if got := s.Get(tt.f); got != v {
				t.Fatalf("Set(%v, %d) then Get: got %d", tt.f, v, got)
			}
			err := s.CheckIn(WideLimits, tt.f, v)
			var re *RangeError
			if in := v >= tt.low && v <= tt.high; (err == nil) != in || err != nil && (!errors.As(err, &re) || re.Field != tt.f || re.Value != v) {
				t.Errorf("%v = %d: CheckIn got %v, want in range %v (a *RangeError naming it otherwise)", tt.f, v, err, in)
			}
		}
	}
	var s Settings
	s.Set(Queue, 7)
	s.Set(Timeout, 1500)
	if s.Queue != 7 || s.Timeout != 1500 {
		t.Errorf("Set wrote Queue %d and Timeout %d, want 7 and 1500", s.Queue, s.Timeout)
	}
	if n := len(Fields()); n != int(RetryAfter)+1 || Fields()[n-3] != Timeout || Fields()[n-2] != OutageHang || Fields()[n-1] != RetryAfter {
		t.Errorf("Fields() = %v, want the queue's timeout, then the guards' two times, last", Fields())
	}
}

// Under --plain's limits a queue, a timeout, drop-expired and lifo are all
// refused, a queue or timeout as out of their range (0 to 0).
func TestQueuePlainRefuses(t *testing.T) {
	for _, change := range []func(*Settings){
		func(s *Settings) { s.Queue, s.Capacity = 1, 100 },
		func(s *Settings) { s.Timeout = 1 },
		func(s *Settings) { s.DropExpired = true },
		func(s *Settings) { s.QueueOrder = LIFO },
	} {
		s := Defaults()
		change(&s)
		if err := s.ValidateIn(PlainLimits); err == nil {
			t.Errorf("%+v under PlainLimits: got no error, want one", s)
		}
	}
}

// CheckQueue says what Run would say of a queue that could outrun 32-bit
// time, before any run; nothing of a run without a queue, or of settings
// Validate refuses (a queue without a capacity), which it must not divide
// by.
func TestCheckQueue(t *testing.T) {
	s := Defaults()
	p := s.Policy(Exponential)
	if err := CheckQueue(p, s); err != nil {
		t.Errorf("no queue: got %v, want nil", err)
	}
	s.Queue = MaxQueue
	if err := CheckQueue(p, s); err != nil {
		t.Errorf("a queue without a capacity: got %v, want nil (Validate's to say)", err)
	}
	// A million clients make 6 million attempts, which the queue holds
	// and works off at 1 a second in 6,000,001,002 ms: past 2^32 - 2.
	s.Capacity, s.Clients = 1, 1_000_000
	err := CheckQueue(p, s)
	_, runErr := run(t, p, s, Options{})
	if err == nil || runErr == nil || err.Error() != runErr.Error() {
		t.Errorf("a queue of %d at 1 a second: got %v, want Run's %v", MaxQueue, err, runErr)
	}
	s.Capacity = 100
	if err := CheckQueue(p, s); err != nil {
		t.Errorf("at 100 a second: got %v, want nil", err)
	}
}
