package words

import (
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// The breaker's clause, from figures made by hand, on each of its edges:
// never opened; opened without short-circuiting; short-circuited with and
// without clients that gave up; one and two openings, one client.
func TestBreakerClause(t *testing.T) {
	s := backoff.Defaults()
	s.Capacity, s.Breaker = 100, backoff.Breaker{Failures: 5, Open: 30000}
	tests := []struct {
		name string
		f    backoff.Figures
		want string
	}{
		{"never opened", backoff.Figures{Attempts: 600}, "the breaker never opened"},
		{"opened, nothing short-circuited", backoff.Figures{Attempts: 600, BreakerOpened: 1},
			"the breakers opened once but short-circuited no attempt"},
		// 10,000 of 12,000 is 83.33%, 83.3%; 4 openings.
		{"spent the attempts of those that gave up", backoff.Figures{Attempts: 12000, ShortCircuited: 10000, BreakerOpened: 4, GaveUp: 2000},
			"the breakers short-circuited 10,000 of the 12,000 attempts (83.3%), which never reached the service, and opened 4 times; " +
				"each spent one of its client's attempts, and the 2,000 clients that gave up had none left"},
		// 1 of 6 is 16.67%, 16.7%; nobody gave up: nothing more to say.
		{"every client through", backoff.Figures{Attempts: 6, ShortCircuited: 1, BreakerOpened: 2},
			"the breakers short-circuited 1 of the 6 attempts (16.7%), which never reached the service, and opened twice"},
		{"one client gave up", backoff.Figures{Attempts: 6, ShortCircuited: 5, BreakerOpened: 1, GaveUp: 1},
			"the breakers short-circuited 5 of the 6 attempts (83.3%), which never reached the service, and opened once; " +
				"each spent one of its client's attempts, and the 1 client that gave up had none left"},
	}
	for _, tt := range tests {
		if got := BreakerClause(s, tt.f); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The verdict says the breaker only where one is set, last; and a client
// that gave up with attempts short-circuited, or whose last failure came
// of a hang, is not said to have given up before the service was back.
func TestVerdictWithTheGuards(t *testing.T) {
	s := backoff.Defaults()
	s.Capacity = 100
	f := backoff.Figures{Clients: 200, ClientsTouched: 200, Attempts: 1200, FailedWhileDown: 1200, NotThrough: 200, GaveUp: 200, RecoveredAfter: 0, StableFrom: 10000, SlotCapacity: 10}
	if got := Verdict(s, f); !strings.Contains(got, "all 200 gave up before the service was back") || strings.Contains(got, "breaker") {
		t.Errorf("no guards: got %q, want them given up before it was back, no breaker", got)
	}
	hung := s
	hung.OutageHang = 5000
	if got := Verdict(hung, f); !strings.Contains(got, "all 200 gave up;") {
		t.Errorf("an outage that hangs: got %q, want 'all 200 gave up;' (their last failure may come after it is back)", got)
	}
	broken := s
	broken.Breaker = backoff.Breaker{Failures: 1, Open: 60000}
	f.FailedWhileDown, f.ShortCircuited, f.BreakerOpened = 200, 1000, 1
	got := Verdict(broken, f)
	if !strings.Contains(got, "all 200 gave up;") || !strings.HasSuffix(got, "; the breakers short-circuited 1,000 of the 1,200 attempts (83.3%), which never reached the service, "+
		"and opened once; each spent one of its client's attempts, and the 200 clients that gave up had none left.") {
		t.Errorf("a breaker: got %q", got)
	}
}

// Guards says the guards set, each in its words, and nothing when none
// is; BreakerRule one failure and many.
func TestGuardsWords(t *testing.T) {
	s := backoff.Defaults()
	if got := Guards(s); got != "" {
		t.Errorf("no guards: got %q, want nothing", got)
	}
	s.OutageHang, s.RetryAfter = 3000, 1500
	s.Breaker, s.Processes = backoff.Breaker{Failures: 1, Open: 60000}, backoff.PerClient
	want := "each attempt while the service is down hangs 3 s, then fails; a breaker in each client's process: a failure opens it for 1 min; " +
		"a rejection tells its client to come back after 1.5 s"
	if got := Guards(s); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	s.Processes = 1
	s.OutageHang, s.RetryAfter, s.Breaker = 0, 0, backoff.Breaker{Failures: 20, Open: 5000}
	if got, want := Guards(s), "a breaker shared by every client: 20 failures in a row open it for 5 s"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Over many seeds the breaker's clause is BreakerClause's at each
// figure's median; at worst as well only where that differs in kind.
// Three seeds: the median is the second of each figure sorted, the worst
// the largest (nearest rank: ceil(50% of 3) = 2).
func TestSeedsBreakerClause(t *testing.T) {
	s := backoff.Defaults()
	s.Capacity, s.Breaker = 100, backoff.Breaker{Failures: 5, Open: 30000}
	seeds := func(attempts, short, opened, gaveUp [3]int) backoff.PolicySpread {
		var fs []backoff.Figures
		for i := range 3 {
			fs = append(fs, backoff.Figures{Clients: 2000, Attempts: attempts[i], ShortCircuited: short[i], BreakerOpened: opened[i], GaveUp: gaveUp[i]})
		}
		return backoff.SpreadOf(s.Policy(backoff.Exponential), fs)
	}
	for _, tt := range []struct {
		name string
		ps   backoff.PolicySpread
		want string
	}{
		// Medians 12,000 attempts, 9,780 short-circuited (81.5%), 4
		// openings, 1,800 gave up; the worst (13,000, 10,000, 8, 2,000) of
		// the same kind: said once.
		{"the same kind", seeds([3]int{13000, 12000, 11000}, [3]int{9000, 10000, 9780}, [3]int{8, 4, 4}, [3]int{1800, 1500, 2000}),
			"at the median, the breakers short-circuited 9,780 of the 12,000 attempts (81.5%), which never reached the service, and opened 4 times; " +
				"each spent one of its client's attempts, and the 1,800 clients that gave up had none left"},
		// Opened in one seed of three, short-circuiting nothing: the
		// median never opened, the worst opened once.
		{"never opened at the median", seeds([3]int{600, 600, 600}, [3]int{}, [3]int{0, 1, 0}, [3]int{}),
			"at the median, the breaker never opened; at worst, the breakers opened once but short-circuited no attempt"},
		// Short-circuited at the median with nobody given up; one seed's
		// clients gave up: the worst differs in kind.
		{"gave up only at worst", seeds([3]int{6, 6, 7}, [3]int{1, 1, 2}, [3]int{2, 2, 2}, [3]int{0, 0, 1}),
			"at the median, the breakers short-circuited 1 of the 6 attempts (16.7%), which never reached the service, and opened twice; " +
				"at worst, the breakers short-circuited 2 of the 7 attempts (28.6%), which never reached the service, and opened twice; " +
				"each spent one of its client's attempts, and the 1 client that gave up had none left"},
		// Short-circuited in every seed, nobody given up: more at worst,
		// but of the same kind.
		{"more at worst", seeds([3]int{6, 6, 9}, [3]int{1, 1, 5}, [3]int{1, 1, 3}, [3]int{}),
			"at the median, the breakers short-circuited 1 of the 6 attempts (16.7%), which never reached the service, and opened once"},
	} {
		if got := seedsBreakerClause(s, tt.ps); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	// The verdict over the seeds ends with it where a breaker is set, and
	// never speaks of one where none is.
	ps := seeds([3]int{600, 600, 600}, [3]int{}, [3]int{}, [3]int{})
	if got := SeedsVerdict(s, ps, 3); !strings.HasSuffix(got, "; at the median, the breaker never opened.") {
		t.Errorf("a breaker: got %q, want it to end with what the breaker did", got)
	}
	s.Breaker = backoff.Breaker{}
	if got := SeedsVerdict(s, ps, 3); strings.Contains(got, "breaker") {
		t.Errorf("no breaker: got %q, want no breaker", got)
	}
}
