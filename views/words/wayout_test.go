package words

import (
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// A policy is no good for the service when the service is still
// overloaded, when none of the crowd gets through, when more than half
// of the crowd certainly does not, or more than half of the clients the
// outage touched: the boundary, worked by hand, is 100 of a crowd of 200
// (good) against 101 (no good); with a fresh load, 1,100 lost of the
// 1,200 touched leave at least 1,100 - 1,000 = 100 of the crowd, but are
// most of those touched, and 1,101 at least 101 of the crowd (said
// first); 600 of the 1,200 touched are half (good), 601 more (no good),
// none of the crowd certainly among them.
func TestFailure(t *testing.T) {
	s := backoff.Defaults() // a crowd of 200
	tests := []struct {
		name string
		f    backoff.Figures
		want string
	}{
		{"half the crowd", backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 100, CrowdAllThroughBy: 25000}, ""},
		{"one more", backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 101, CrowdAllThroughBy: 25000},
			"at least 101 of the crowd of 200 never get through"},
		{"with a load, at least 100", backoff.Figures{Clients: 7200, ClientsTouched: 1200, NotThrough: 1100, CrowdAllThroughBy: 25000},
			"1,100 of the 1,200 clients the outage touched (91.7%) never get through"},
		{"half those touched", backoff.Figures{Clients: 7200, ClientsTouched: 1200, NotThrough: 600, CrowdAllThroughBy: 25000}, ""},
		{"one more than half those touched", backoff.Figures{Clients: 7200, ClientsTouched: 1200, NotThrough: 601, CrowdAllThroughBy: 25000},
			"601 of the 1,200 clients the outage touched (50.1%) never get through"},
		{"with a load, at least 101", backoff.Figures{Clients: 7200, ClientsTouched: 1200, NotThrough: 1101, CrowdAllThroughBy: 25000},
			"at least 101 of the crowd of 200 never get through"},
		{"none of the crowd", backoff.Figures{Clients: 7200, ClientsTouched: 1200, NotThrough: 200, CrowdAllThroughBy: -1},
			"none of the crowd of 200 gets through"},
		{"overloaded", backoff.Figures{Clients: 7200, ClientsTouched: 7200, StillOverloaded: true, RecoveredAfter: -1, CrowdAllThroughBy: 25000},
			"the service is still overloaded when the fresh load stops"},
		{"every one through", backoff.Figures{Clients: 200, ClientsTouched: 200, CrowdAllThroughBy: 15000}, ""},
	}
	for _, tt := range tests {
		if got := Failure(s, tt.f); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Far above capacity is more than twice what a slot serves: 4,000 a
// second in 100 ms slots serve 400, so 800 is not, 801 is; 15 a second
// serve ceil(1.5) = 2, so 4 is not, 5 is; without a capacity, nothing is.
func TestFarAboveCapacity(t *testing.T) {
	s := backoff.Defaults()
	for _, tt := range []struct {
		capacity, n int
		want        bool
	}{{4000, 800, false}, {4000, 801, true}, {4000, 18690, true}, {15, 4, false}, {15, 5, true}, {0, 1 << 30, false}} {
		s.Capacity = tt.capacity
		if got := FarAboveCapacity(s, tt.n); got != tt.want {
			t.Errorf("capacity %d, %d in a slot: got %v, want %v", tt.capacity, tt.n, got, tt.want)
		}
	}
}

// The issue's scenarios (24, item 3), their figures as the engine gave
// them: the gRPC preset, 120,000 clients, capacity 4,000, a load of 3,000
// a second, a 45 s outage, a queue of 10,000 and 3 s timeouts.
func issueSettings() backoff.Settings {
	s := backoff.Defaults()
	s.Clients, s.Capacity, s.Load, s.Outage, s.Queue, s.Timeout = 120000, 4000, 3000, 45000, 10000, 3000
	s.Draws = backoff.Independent
	return s
}

func result(name string, j backoff.JitterKind, f backoff.Figures) backoff.Result {
	return backoff.Result{Policy: backoff.Policy{Name: name, Jitter: backoff.Jitter{Kind: j}}, Figures: f}
}

// No choice where none is good: "Choose full jitter" where both lose the
// whole crowd and full jitter doubles the recovery time; "Choose
// decorrelated: 30,339 against 30,357" where all five stay overloaded.
// Each says so, with the way out: the remedies (to try, or as they ran)
// and advise for the scenario.
func TestNoChoiceAmongDisasters(t *testing.T) {
	s := issueSettings()
	grpc := result("grpc", backoff.JitterSpread, backoff.Figures{Clients: 435000, ClientsTouched: 304167, NotThrough: 228135, GaveUp: 228135,
		RecoveredAfter: 16400, StableFrom: 61400, CrowdAllThroughBy: -1, PeakAfterBack: 1518})
	full := result("full jitter", backoff.JitterFull, backoff.Figures{Clients: 435000, ClientsTouched: 356682, NotThrough: 210650, GaveUp: 210650,
		RecoveredAfter: 33900, StableFrom: 78900, CrowdAllThroughBy: -1, PeakAfterBack: 1816})
	rs := []backoff.Result{grpc, full}
	got := Choice(s, rs, Rank(rs), Evidence{Remedies: []Remedy{{Flags: "--drop-expired", Words: "dropping expired requests"}}})
	want := "No policy here is good for your service: each leaves it overloaded or loses most of its clients, and with full jitter, which ranks first, " +
		"none of the crowd of 120,000 gets through; try the service's own remedies: dropping expired requests (--drop-expired); " +
		"ask advise for the settings that meet your goals, yours in place of these: " + AdviseCommand(s)
	if got != want {
		t.Errorf("both lose the whole crowd:\ngot  %q\nwant %q", got, want)
	}
	if _, ok := Chosen(s, rs, Rank(rs), Evidence{}); ok {
		t.Error("both lose the whole crowd: got a policy chosen, want none")
	}
	// The remedies as they ran: one works, one recovers but loses the crowd.
	ran := []Remedy{
		{Flags: "--drop-expired", Words: "dropping expired requests", Ran: true,
			Figures: backoff.Figures{Clients: 435000, ClientsTouched: 150000, NotThrough: 1500, RecoveredAfter: 3000, CrowdAllThroughBy: 50000}},
		{Flags: "--queue-order lifo", Words: "serving the newest first", Ran: true,
			Figures: backoff.Figures{Clients: 435000, ClientsTouched: 300000, NotThrough: 150000, RecoveredAfter: 50900, CrowdAllThroughBy: -1}},
		{Flags: "--queue 5000", Words: "a queue of 5,000", Ran: true,
			Figures: backoff.Figures{Clients: 435000, ClientsTouched: 435000, NotThrough: 150000, StillOverloaded: true, RecoveredAfter: -1, CrowdAllThroughBy: -1}},
	}
	got = Choice(s, rs, Rank(rs), Evidence{Remedies: ran})
	for _, w := range []string{
		"with full jitter, the service's own remedies work: dropping expired requests (--drop-expired) recovers the service 3 s after it is back " +
			"and leaves 1,500 of the 150,000 clients the outage touched (1%) not through; serving the newest first (--queue-order lifo) recovers the service 50.9 s after it is back, " +
			"but none of the crowd of 120,000 gets through; a queue of 5,000 (--queue 5000) still leaves it overloaded; ask advise",
		"retry-planner advise --clients 120000 --outage 45s --capacity 4000 --load 3000 --queue 10000 --timeout 3s --goal 'not-through<=1%' --goal 'recovered<=60s' --also-service",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("the remedies as they ran:\ngot  %q\nwant it to say %q", got, w)
		}
	}
	// All five overloaded, decorrelated ahead by 18 clients of 30,500.
	m := backoff.Defaults()
	m.Clients, m.Outage, m.Attempts, m.Capacity, m.Load, m.LoadUntil, m.Queue, m.Timeout = 2000, 30000, 4, 100, 95, 300000, 1000, 1000
	over := func(name string, j backoff.JitterKind, lost int) backoff.Result {
		return result(name, j, backoff.Figures{Clients: 30500, ClientsTouched: 30500, NotThrough: lost, GaveUp: lost, StillOverloaded: true, RecoveredAfter: -1, CrowdAllThroughBy: -1})
	}
	five := []backoff.Result{over("fixed", backoff.JitterNone, 30366), over("exponential", backoff.JitterNone, 30366), over("full jitter", backoff.JitterFull, 30357),
		over("equal jitter", backoff.JitterEqual, 30367), over("decorrelated", backoff.JitterDecorrelated, 30339)}
	got = Choice(m, five, Rank(five), Evidence{Trying: true, Remedies: []Remedy{{Flags: "--drop-expired", Words: "dropping expired requests"}}})
	want = "No policy here is good for your service: with every one the service is still overloaded when the fresh load stops; " +
		"trying the service's own remedies with decorrelated: dropping expired requests (--drop-expired)…; ask advise"
	if !strings.HasPrefix(got, want) {
		t.Errorf("all five overloaded:\ngot  %q\nwant %q…", got, want)
	}
	// One policy alone, no good: the way out too.
	if got := Choice(m, five[:1], Rank(five[:1]), Evidence{}); !strings.HasPrefix(got, "Only fixed ran, and it is no good for your service: the service is still overloaded") ||
		!strings.Contains(got, "retry-planner advise") {
		t.Errorf("one policy, overloaded: got %q", got)
	}
}

// The first ranked may be no good while another is: then the other is
// chosen, and the first's reason said. x loses the whole crowd of 200 but
// only 200 clients, y 250 of the 1,200 touched and none of the crowd for
// certain (250 - 1,000 < 0).
func TestChoiceSkipsADisasterRankedFirst(t *testing.T) {
	s := backoff.Defaults()
	s.Capacity, s.Load = 500, 100
	x := result("x", backoff.JitterNone, backoff.Figures{Clients: 7200, ClientsTouched: 1200, NotThrough: 200, CrowdAllThroughBy: -1, RecoveredAfter: 1000})
	y := result("y", backoff.JitterNone, backoff.Figures{Clients: 7200, ClientsTouched: 1200, NotThrough: 250, CrowdAllThroughBy: 30000, RecoveredAfter: 2000})
	rs := []backoff.Result{x, y}
	got := Choice(s, rs, Rank(rs), Evidence{})
	if want := "Choose y; x ranks above it, but with it none of the crowd of 200 gets through"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if i, ok := Chosen(s, rs, Rank(rs), Evidence{}); !ok || i != 1 {
		t.Errorf("Chosen: got %d, %v; want 1, true", i, ok)
	}
}

// Never choose between figures that differ by less than the seeds may
// make them differ. On one seed, between policies that draw their waits,
// counts closer than three times the root of their sum: 36 against 65 not
// through is chance (29^2 = 841 < 9 x 101 = 909), 35 against 65 is not
// (30^2 = 900 = 9 x 100); times closer than a tenth: a recovery of 91 s
// against 100 s is chance (9 x 10 < 100), 90 s is not (10 x 10 = 100).
// Policies that draw nothing give every seed the same figures. Over
// seeds: medians closer than the 95th percentile is to its median (here 5
// apart against a spread of 5: chance; 6 apart: not).
func TestNoChoiceWithinTheNoise(t *testing.T) {
	s := backoff.Defaults()
	lost := func(name string, j backoff.JitterKind, n int) backoff.Result {
		return result(name, j, backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: n, CrowdAllThroughBy: 25000})
	}
	recovers := func(name string, j backoff.JitterKind, ms int) backoff.Result {
		return result(name, j, backoff.Figures{Clients: 200, ClientsTouched: 200, RecoveredAfter: ms, CrowdAllThroughBy: 25000})
	}
	for _, tt := range []struct {
		a, b  backoff.Result
		noise string
	}{
		{lost("x", backoff.JitterFull, 36), lost("y", backoff.JitterEqual, 65), "36 clients not through against 65"},
		{lost("x", backoff.JitterFull, 35), lost("y", backoff.JitterEqual, 65), ""},
		{lost("x", backoff.JitterNone, 36), lost("y", backoff.JitterEqual, 65), "36 clients not through against 65"},
		{lost("x", backoff.JitterNone, 99), lost("y", backoff.JitterNone, 100), ""},
		{recovers("x", backoff.JitterFull, 91000), recovers("y", backoff.JitterFull, 100000), "a recovery 1 min 31 s after the service is back against 1 min 40 s"},
		{recovers("x", backoff.JitterFull, 90000), recovers("y", backoff.JitterFull, 100000), ""},
	} {
		rs := []backoff.Result{tt.a, tt.b}
		got := Choice(s, rs, Rank(rs), Evidence{})
		_, ok := Chosen(s, rs, Rank(rs), Evidence{})
		want := "Choose x or y: on seed 7 alone, " + tt.noise + " may be chance, which another seed's draws can turn round: --seeds 20 shows whether it holds"
		if tt.noise != "" && (got != want || ok) || tt.noise == "" && (strings.HasPrefix(got, "Choose x or y") || !ok) {
			t.Errorf("%v against %v: got %q (chosen %v), want chance %q", tt.a.Figures, tt.b.Figures, got, ok, tt.noise)
		}
	}
	// A choice on one seed between policies that draw says it is one
	// seed's; between policies that draw nothing it need not.
	for _, tt := range []struct {
		j    backoff.JitterKind
		want bool
	}{{backoff.JitterFull, true}, {backoff.JitterNone, false}} {
		rs := []backoff.Result{lost("x", tt.j, 35), lost("y", tt.j, 65)}
		got := Choice(s, rs, Rank(rs), Evidence{})
		if strings.HasSuffix(got, " (seed 7 alone: --seeds 20 shows if it holds)") != tt.want || !strings.HasPrefix(got, "Choose x:") {
			t.Errorf("35 against 65, jitter %v: got %q", tt.j, got)
		}
	}
	// Against a policy no good for the service, chance does not matter:
	// only x can be chosen.
	rs := []backoff.Result{lost("x", backoff.JitterFull, 36),
		result("y", backoff.JitterFull, backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 65, CrowdAllThroughBy: 25000, StillOverloaded: true, RecoveredAfter: -1})}
	if _, ok := Chosen(s, rs, Rank(rs), Evidence{}); !ok {
		t.Errorf("x against an overloaded y: got %q, want x chosen", Choice(s, rs, Rank(rs), Evidence{}))
	}
	spread := func(medA, p95A, medB, p95B int) *backoff.SeedsCrowd {
		ps := func(name string, med, p95 int) backoff.PolicySpread {
			sp := backoff.PolicySpread{Policy: backoff.Policy{Name: name}}
			for _, f := range backoff.FigureFields() {
				v := backoff.Spread{}
				switch f.Name {
				case "not_through":
					v = backoff.Spread{Median: med, P95: p95, Worst: p95}
				case "clients", "clients_touched":
					v = backoff.Spread{Median: 200, P95: 200, Worst: 200}
				case "crowd_all_through_by_ms":
					v = backoff.Spread{Median: 25000, P95: 25000, Worst: 25000}
				}
				sp.Spreads = append(sp.Spreads, v)
			}
			return sp
		}
		return &backoff.SeedsCrowd{First: 7, Count: 100, Policies: []backoff.PolicySpread{ps("x", medA, p95A), ps("y", medB, p95B)}}
	}
	rs = []backoff.Result{lost("x", backoff.JitterFull, 50), lost("y", backoff.JitterFull, 100)}
	if got := Choice(s, rs, Rank(rs), Evidence{Spread: spread(50, 55, 55, 58)}); !strings.HasPrefix(got,
		"Choose x or y: over the 100 seeds, at the median 50 clients not through against 55 lie closer than the seeds spread them (at the 95th percentile 55 clients not through against 58)") {
		t.Errorf("medians 5 apart, a spread of 5: got %q", got)
	}
	if got := Choice(s, rs, Rank(rs), Evidence{Spread: spread(50, 55, 56, 58)}); !strings.HasPrefix(got, "Choose x: it leaves fewer") {
		t.Errorf("medians 6 apart, a spread of 5: got %q", got)
	}
}

// One seed may be kinder than most: a policy whose seed lets some of the
// crowd through is no good where, over the spread's seeds, none of it gets
// through at the median, or the service stays overloaded in most seeds
// (51 of 100 is most, 50 is not), or most of the clients touched are not
// through at the medians (601 of 1,200, where the crowd of 200 is
// certainly lost by none; 600 is half, not most).
func TestFailureOverTheSeeds(t *testing.T) {
	s := backoff.Defaults()
	rs := []backoff.Result{result("x", backoff.JitterFull, backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 20, CrowdAllThroughBy: 30500})}
	spreadOf := func(crowdMedian, overloaded, notThrough, touched int) *backoff.SeedsCrowd {
		ps := backoff.PolicySpread{Policy: rs[0].Policy, Overloaded: overloaded}
		for _, f := range backoff.FigureFields() {
			v := backoff.Spread{}
			switch f.Name {
			case "not_through":
				v = backoff.Spread{Median: notThrough, P95: notThrough + 10, Worst: notThrough + 20}
			case "clients", "clients_touched":
				v = backoff.Spread{Median: touched, P95: touched, Worst: touched}
			case "crowd_all_through_by_ms":
				v = backoff.Spread{Median: crowdMedian, P95: -1, Worst: -1}
			}
			ps.Spreads = append(ps.Spreads, v)
		}
		return &backoff.SeedsCrowd{First: 7, Count: 100, Policies: []backoff.PolicySpread{ps}}
	}
	spread := func(crowdMedian, overloaded int) *backoff.SeedsCrowd {
		return spreadOf(crowdMedian, overloaded, 20, 200)
	}
	for _, tt := range []struct {
		sp   *backoff.SeedsCrowd
		want string
	}{
		{nil, ""},
		{spread(30500, 50), ""},
		{spread(-1, 0), "none of the crowd of 200 gets through at the median over the 100 seeds"},
		{spread(30500, 51), "the service is still overloaded when the fresh load stops in 51 of the 100 seeds"},
		{spreadOf(30500, 0, 600, 1200), ""},
		{spreadOf(30500, 0, 601, 1200), "at the median over the 100 seeds 601 of the 1,200 clients the outage touched never get through"},
	} {
		if got := FailureOver(s, rs, 0, tt.sp); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}
