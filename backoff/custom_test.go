package backoff

import (
	"errors"
	"testing"
)

// The policy of one's own carries its own first wait, longest wait,
// attempts and limit on total time (issue 19, item 2): each follows the
// five's until it is given, and a preset fills them and nothing else.
func TestCustomFollowsTheFiveUntilGiven(t *testing.T) {
	s := Defaults()
	s.FirstWait, s.LongestWait, s.Attempts, s.MaxElapsed = 2000, 30000, 4, 60000
	if c := s.Custom(); c.FirstWait != 2000 || c.LongestWait != 30000 || c.Attempts != 4 || c.MaxElapsed != 60000 {
		t.Errorf("following: got %s, want the five's waits", c.Describe())
	}
	s.CustomFirstWait, s.CustomAttempts = 500, 9
	c := s.Custom()
	if c.FirstWait != 500 || c.LongestWait != 30000 || c.Attempts != 9 || c.MaxElapsed != 60000 {
		t.Errorf("its own first wait and attempts: got %s, want 500 ms, the five's longest, 9 attempts, the five's limit", c.Describe())
	}
	s.CustomMaxElapsed = 0 // its own "no limit", not the five's 60 s
	if c := s.Custom(); c.MaxElapsed != 0 {
		t.Errorf("its own limit 0: got %d, want no limit", c.MaxElapsed)
	}
	for _, p := range s.Five() {
		if p.FirstWait != 2000 || p.LongestWait != 30000 || p.Attempts != 4 || p.MaxElapsed != 60000 {
			t.Errorf("%s: got %s, want the five's waits", p.Name, p.Describe())
		}
	}
	for _, tt := range []struct{ f, follows Field }{
		{CustomFirstWait, FirstWait}, {CustomLongestWait, LongestWait}, {CustomAttempts, Attempts}, {CustomMaxElapsed, MaxElapsed},
	} {
		if got, own := tt.f.Follows(); got != tt.follows || !own {
			t.Errorf("%v.Follows() = %v, %v; want %v, true", tt.f, got, own, tt.follows)
		}
		s := Defaults()
		if got, want := s.Value(tt.f), s.Get(tt.follows); got != want {
			t.Errorf("Value(%v) following: got %d, want %d", tt.f, got, want)
		}
	}
	if _, own := Multiplier.Follows(); own {
		t.Errorf("the multiplier follows nothing: it is custom's alone")
	}
}

func TestWithPresetLeavesTheFive(t *testing.T) {
	for _, pr := range Presets() {
		s := Defaults()
		five := s.Five()
		got := s.WithPreset(pr)
		if c := got.Custom(); !c.Same(pr.Policy) || c.Name != pr.Name {
			t.Errorf("%s: custom is %s %s, want the preset's %s", pr.Name, c.Name, c.Describe(), pr.Policy.Describe())
		}
		for i, p := range got.Five() {
			if p != five[i] {
				t.Errorf("%s: %s became %s, want %s", pr.Name, p.Name, p.Describe(), five[i].Describe())
			}
		}
		if got.FirstWait != s.FirstWait || got.LongestWait != s.LongestWait || got.Attempts != s.Attempts || got.MaxElapsed != s.MaxElapsed {
			t.Errorf("%s: the five's settings changed: %+v", pr.Name, got)
		}
		if err := got.ValidateIn(WideLimits); err != nil {
			t.Errorf("%s: %v", pr.Name, err)
		}
	}
}

// Custom's own ranges, worked by hand at their ends; Follow is in range
// wide, but custom's longest that follows is checked against custom's own
// first wait; --plain takes only Follow.
func TestCustomOwnRanges(t *testing.T) {
	s := Defaults()
	s.CustomFirstWait = 20000
	cases := []struct {
		f         Field
		v         int
		ok        bool
		low, high int
	}{
		{CustomFirstWait, 0, false, 1, MaxWait},
		{CustomFirstWait, 1, true, 1, MaxWait},
		{CustomFirstWait, MaxWait, true, 1, MaxWait},
		{CustomFirstWait, MaxWait + 1, false, 1, MaxWait},
		{CustomFirstWait, Follow, true, 1, MaxWait},
		{CustomFirstWait, -2, false, 1, MaxWait},
		{CustomLongestWait, 19999, false, 20000, MaxWait},
		{CustomLongestWait, 20000, true, 20000, MaxWait},
		{CustomLongestWait, MaxWait + 1, false, 20000, MaxWait},
		{CustomLongestWait, Follow, false, 20000, MaxWait}, // the five's 16 s, below its own 20 s
		{CustomAttempts, 1, false, 2, MaxAttempts},
		{CustomAttempts, 2, true, 2, MaxAttempts},
		{CustomAttempts, MaxAttempts, true, 2, MaxAttempts},
		{CustomAttempts, MaxAttempts + 1, false, 2, MaxAttempts},
		{CustomAttempts, Follow, true, 2, MaxAttempts},
		{CustomMaxElapsed, 0, true, 0, MaxTime},
		{CustomMaxElapsed, MaxTime, true, 0, MaxTime},
		{CustomMaxElapsed, MaxTime + 1, false, 0, MaxTime},
		{CustomMaxElapsed, Follow, true, 0, MaxTime},
		{CustomMaxElapsed, -2, false, 0, MaxTime},
	}
	for _, tt := range cases {
		if low, high := s.RangeIn(WideLimits, tt.f); low != tt.low || high != tt.high {
			t.Errorf("%v: range %d to %d, want %d to %d", tt.f, low, high, tt.low, tt.high)
		}
		err := s.CheckIn(WideLimits, tt.f, tt.v)
		var re *RangeError
		if (err == nil) != tt.ok || err != nil && (!errors.As(err, &re) || re.Field != tt.f) {
			t.Errorf("%v = %d: CheckIn got %v, want in range %v", tt.f, tt.v, err, tt.ok)
		}
		if low, high := s.RangeIn(PlainLimits, tt.f); low != Follow || high != Follow {
			t.Errorf("%v under PlainLimits: range %d to %d, want only Follow", tt.f, low, high)
		}
	}
	s.CustomLongestWait = 30000
	if err := s.ValidateIn(WideLimits); err != nil {
		t.Errorf("custom first 20 s, longest 30 s over the five's 1 s and 16 s: got %v, want valid", err)
	}
	if err := Defaults().ValidateIn(PlainLimits); err != nil {
		t.Errorf("the defaults under PlainLimits: %v", err)
	}
	p := Defaults()
	p.CustomAttempts = 5
	if err := p.ValidateIn(PlainLimits); err == nil {
		t.Errorf("custom's own attempts under PlainLimits: got no error, want one")
	}
}
