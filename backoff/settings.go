package backoff

import "fmt"

// Settings are the inputs of every figure. All times are whole milliseconds.
// The zero value is not valid; start from Defaults.
type Settings struct {
	FirstWait   int // the wait before the first retry: 1 to 10,000 ms
	LongestWait int // no wait is longer: FirstWait to 600,000 ms
	Attempts    int // tries per client, the first included: 2 to 12
	Clients     int // how many clients fail together: 1 to 1,000
	Outage      int // a retry at or after this many ms gets through: 0 to 600,000
	Seed        int // seeds every client's generator: 0 to 999,999
	Slot        int // the crowd counts retries per slot this wide: 1 to 600,000 ms
}

// Defaults returns the reference's settings: first wait 1000 ms, longest
// 16000 ms, 6 attempts, 200 clients, outage 10000 ms, seed 7, 100 ms slots.
func Defaults() Settings {
	return Settings{FirstWait: 1000, LongestWait: 16000, Attempts: 6, Clients: 200, Outage: 10000, Seed: 7, Slot: 100}
}

// Field names one of the settings.
type Field int

// The settings a person can change, in the order the settings form asks for
// them, then the slot width.
const (
	FirstWait Field = iota
	LongestWait
	Attempts
	Clients
	Outage
	Seed
	Slot
)

// FormFields are the six settings the reference's settings form asks for,
// in its order.
func FormFields() []Field {
	return []Field{FirstWait, LongestWait, Attempts, Clients, Outage, Seed}
}

var fieldLabels = [...]string{"first wait in ms", "longest wait in ms", "attempts per client", "clients", "outage in ms", "seed", "slot in ms"}

// String is the field as the reference's prompts name it, such as "first
// wait in ms".
func (f Field) String() string {
	if f < 0 || int(f) >= len(fieldLabels) {
		return fmt.Sprintf("Field(%d)", int(f))
	}
	return fieldLabels[f]
}

// IsTime reports whether the field is a time in milliseconds.
func (f Field) IsTime() bool {
	return f == FirstWait || f == LongestWait || f == Outage || f == Slot
}

// Range returns the lowest and highest value the field may take. Only the
// longest wait's range depends on another setting: it starts at the first
// wait.
func (s Settings) Range(f Field) (low, high int) {
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
	}
	return 0, -1
}

// Get returns the value of field f.
func (s Settings) Get(f Field) int {
	if p := s.field(f); p != nil {
		return *p
	}
	return 0
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

// Check returns a *RangeError if v is outside field f's range under s.
func (s Settings) Check(f Field, v int) error {
	low, high := s.Range(f)
	if v < low || v > high {
		return &RangeError{Field: f, Value: v, Low: low, High: high}
	}
	return nil
}

// Validate returns a *RangeError for the first setting outside its range, in
// the form's order, or nil.
func (s Settings) Validate() error {
	for f := FirstWait; f <= Slot; f++ {
		if err := s.Check(f, s.Get(f)); err != nil {
			return err
		}
	}
	return nil
}
