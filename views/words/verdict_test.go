package words

import (
	"slices"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

func TestPercent(t *testing.T) {
	tests := []struct {
		n, all int
		want   string
	}{
		{170, 200, "85%"},
		{200, 200, "100%"},
		{0, 200, "0%"},
		{4772, 30500, "15.6%"},
		{95000, 185000, "51.4%"},
		{19, 200, "9.5%"},
		{1, 30500, "<0.1%"},      // 0.003% is not none
		{30499, 30500, ">99.9%"}, // nor 99.997% all
		{1, 2000, "0.1%"},        // 0.05% rounds half up
		{1, 0, "-"},
	}
	for _, tt := range tests {
		if got := Percent(tt.n, tt.all); got != tt.want {
			t.Errorf("%d of %d: got %q, want %q", tt.n, tt.all, got, tt.want)
		}
	}
	if got, want := Share(4772, 30500), "4,772 of 30,500, 15.6%"; got != want {
		t.Errorf("Share: got %q, want %q", got, want)
	}
	for _, tt := range []struct {
		n, of int
		want  string
	}{{771, 200, "3.9x"}, {200, 15, "13.3x"}, {150, 200, "0.8x"}, {180, 15, "12x"}, {0, 15, "0x"}, {3, 0, "-"}} {
		if got := Times(tt.n, tt.of); got != tt.want {
			t.Errorf("Times(%d, %d): got %q, want %q", tt.n, tt.of, got, tt.want)
		}
	}
}

// settingsWith is the defaults with a capacity, a load and a budget.
func settingsWith(capacity, load int, budget backoff.Budget, processes int) backoff.Settings {
	s := backoff.Defaults()
	s.Capacity, s.Load, s.Budget, s.Processes = capacity, load, budget, processes
	return s
}

// Each part of the sentence, from figures made by hand.
func TestVerdict(t *testing.T) {
	grpc := backoff.Budget{Kind: backoff.BudgetGRPC, A: 10, B: 100}
	tests := []struct {
		name string
		s    backoff.Settings
		f    backoff.Figures
		want string
	}{
		{"recovers, some gave up, above capacity", settingsWith(150, 0, backoff.Budget{}, 1),
			backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 170, GaveUp: 170, Rejected: 355, StableFrom: 31100, RecoveredAfter: 21100, PeakAfterBack: 200, SlotCapacity: 15, CrowdAllThroughBy: 31000},
			"The service recovers 21.1 s after it is back, at 31.1 s; 170 of 200 clients (85%) never get through: all 170 gave up; " +
				"its peak after back is 13.3x capacity (200 attempts in a 100 ms slot that serves 15)."},
		{"nothing rejected: they gave up while it was down", settingsWith(150, 0, backoff.Budget{}, 1),
			backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 200, GaveUp: 200, StableFrom: 10000, SlotCapacity: 15, CrowdAllThroughBy: -1},
			"The service is stable from the moment it is back, at 10 s; none of the 200 clients gets through (100%): all 200 gave up before the service was back; " +
				"no attempt arrives once it is back."},
		{"still overloaded; three reasons; a shared bucket", settingsWith(100, 150, grpc, 4),
			backoff.Figures{Clients: 9200, ClientsTouched: 9200, NotThrough: 4772, GaveUp: 4000, Throttled: 771, OutOfTime: 1, Rejected: 5, StillOverloaded: true, StableFrom: 70000, RecoveredAfter: -1,
				PeakAfterBack: 39, SlotCapacity: 10, CrowdAllThroughBy: 52000},
			"The service is still overloaded when the fresh load stops at 1 min 10 s; 4,772 of 9,200 clients (51.9%) never get through: " +
				"4,000 gave up, 771 were throttled by the budget (2,300 clients and fresh requests share each of 4 buckets) and 1 ran out of time; " +
				"its peak after back is 3.9x capacity (39 attempts in a 100 ms slot that serves 10)."},
		{"all through, with a load: the crowd's last", settingsWith(2000, 100, backoff.Budget{}, 1),
			backoff.Figures{Clients: 7200, ClientsTouched: 7200, StableFrom: 10000, PeakAfterBack: 19, SlotCapacity: 200, AllThroughBy: 69990, CrowdAllThroughBy: 25700},
			"The service is stable from the moment it is back, at 10 s; every one of the 7,200 clients gets through, the crowd's last at 25.7 s; " +
				"its peak after back is 0.1x capacity (19 attempts in a 100 ms slot that serves 200)."},
		{"the issue's budget: the whole crowd throttled", func() backoff.Settings {
			s := settingsWith(2000, 1500, grpc, 1)
			s.Clients, s.Outage = 50000, 30000
			return s
		}(),
			backoff.Figures{Clients: 185000, ClientsTouched: 185000, NotThrough: 95000, Throttled: 95000, StableFrom: 30000, PeakAfterBack: 150, SlotCapacity: 200, AllThroughBy: 89999, CrowdAllThroughBy: -1},
			"The service is stable from the moment it is back, at 30 s; 95,000 of 185,000 clients (51.4%) never get through: " +
				"all 95,000 were throttled by the budget (50,000 clients and 135,000 fresh requests share one bucket), the whole crowd of 50,000 among them; " +
				"its peak after back is 0.8x capacity (150 attempts in a 100 ms slot that serves 200)."},
		{"no capacity: the peak as a rate", backoff.Defaults(),
			backoff.Figures{Clients: 200, ClientsTouched: 200, StableFrom: 10000, PeakAfterBack: 200, SlotCapacity: -1, CrowdAllThroughBy: 15000},
			"With no limit on capacity, the service serves every attempt from the moment it is back, at 10 s; every one of the 200 clients gets through, the last at 15 s; " +
				"its peak after back is 200 attempts in a 100 ms slot (2,000/s)."},
		{"one client throttled, up to 2 a bucket", settingsWith(10, 0, grpc, 2),
			backoff.Figures{Clients: 3, ClientsTouched: 3, NotThrough: 1, Throttled: 1, Rejected: 1, StableFrom: 10100, RecoveredAfter: 100, PeakAfterBack: 3, SlotCapacity: 1, CrowdAllThroughBy: 11000},
			"The service recovers 100 ms after it is back, at 10.1 s; 1 of 3 clients (33.3%) never get through: 1 was throttled by the budget (up to 2 clients share each of 2 buckets); " +
				"its peak after back is 3x capacity (3 attempts in a 100 ms slot that serves 1)."},
	}
	for _, tt := range tests {
		if got := Verdict(tt.s, tt.f); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// Issue 24, item 7: who shares a bucket, the crowd's clients and the fresh
// requests told apart; a process per client gives each its own. Each
// boundary of the processes against the clients by hand.
func TestSharedBucket(t *testing.T) {
	crowd := func(clients, load, processes int) backoff.Settings {
		s := backoff.Defaults() // the load until 70 s: 70 fresh requests a second of load
		s.Clients, s.Load, s.Processes = clients, load, processes
		return s
	}
	for _, tt := range []struct {
		name    string
		s       backoff.Settings
		clients int // the crowd's and the fresh requests
		want    string
	}{
		{"one client", crowd(1, 0, 1), 1, "1 client has the bucket"},
		{"the crowd alone", crowd(200, 0, 1), 200, "200 clients share one bucket"},
		// The issue's: 120,000 clients and 1,800,000 requests were
		// "1,920,000 clients".
		{"the issue's", crowd(120000, 0, 1), 1920000, "120,000 clients and 1,800,000 fresh requests share one bucket"},
		{"one fresh request", crowd(200, 0, 1), 201, "200 clients and 1 fresh request share one bucket"},
		// 200 over 3 processes: 67, 67, 66.
		{"up to", crowd(200, 0, 3), 200, "up to 67 clients share each of 3 buckets"},
		// 200 over 4: exactly 50 each.
		{"exactly", crowd(200, 0, 4), 200, "50 clients share each of 4 buckets"},
		{"with fresh requests", crowd(200, 1, 4), 270, "up to 68 clients and fresh requests share each of 4 buckets"},
		// 199 processes over 200: one holds two.
		{"one process fewer than the clients", crowd(200, 0, 199), 200, "up to 2 clients share each of 199 buckets"},
		// As many processes as clients, and more: each alone, the
		// processes without a client hold no bucket.
		{"as many processes as clients", crowd(200, 0, 200), 200, "each client has its own budget"},
		{"more processes than clients", crowd(200, 0, 100000), 200, "each client has its own budget"},
		{"a process per client", crowd(120000, 0, backoff.PerClient), 120000, "each client has its own budget"},
		{"a process per client and per fresh request", crowd(120000, 3000, backoff.PerClient), 120000 + 210000,
			"each client has its own budget, and so does each fresh request"},
	} {
		if got := SharedBucket(tt.s, tt.clients); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The ranking weighs a service that recovers first, then the clients not
// through, so the policy whose clients all gave up never ranks first for
// its low peak.
func TestRank(t *testing.T) {
	r := func(name string, f backoff.Figures) backoff.Result {
		return backoff.Result{Policy: backoff.Policy{Name: name}, Figures: f}
	}
	s := settingsWith(150, 0, backoff.Budget{}, 1)
	rs := []backoff.Result{
		r("fixed", backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 200, RecoveredAfter: 0, CrowdAllThroughBy: -1, Retries: 1000}),
		r("a", backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 0, RecoveredAfter: 2000, PeakAfterBack: 9, CrowdAllThroughBy: 25000, Retries: 800}),
		r("b", backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 0, RecoveredAfter: 0, PeakAfterBack: 30, CrowdAllThroughBy: 25000, Retries: 800}),
		r("c", backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 0, RecoveredAfter: 0, PeakAfterBack: 30, CrowdAllThroughBy: 25000, Retries: 800}),
		r("d", backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 0, StillOverloaded: true, RecoveredAfter: -1, CrowdAllThroughBy: 25000}),
	}
	got := Rank(rs)
	// d leaves the service overloaded: it ranks after fixed, which loses
	// every client but lets the service recover.
	order := []Ranked{{Index: 2, Rank: 1}, {Index: 3, Rank: 1}, {Index: 1, Rank: 3}, {Index: 0, Rank: 4}, {Index: 4, Rank: 5}}
	if !slices.Equal(got, order) {
		t.Errorf("got %v, want %v", got, order)
	}
	line := RankingLine(s, rs, Evidence{})
	wantLine := "Ranking for this run (" + RankingWeighs + "): 1 b, c (tied); 3 a; 4 fixed; 5 d. " +
		"Choose b (or c, which does as well): as few clients not through as a (none of 200), and the service recovers sooner, 0 ms after it is back against 2 s."
	if line != wantLine {
		t.Errorf("ranking:\ngot  %q\nwant %q", line, wantLine)
	}
	// Each first difference gives its reason.
	for _, tt := range []struct {
		a, b backoff.Figures
		want string
	}{
		{backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 3}, backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 19},
			"Choose x: it leaves fewer clients not through than y, 3 of 200 (1.5%) against 19 of 200 (9.5%)"},
		{backoff.Figures{Clients: 200, ClientsTouched: 200}, backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 19},
			"Choose x: every client gets through, where y leaves 19 of 200 (9.5%) not through"},
		{backoff.Figures{Clients: 200, ClientsTouched: 200, RecoveredAfter: 4400}, backoff.Figures{Clients: 200, ClientsTouched: 200, StillOverloaded: true, RecoveredAfter: -1},
			"Choose x: with it the service recovers, 4.4 s after it is back, where with y it is still overloaded when the load stops"},
		{backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 9, RecoveredAfter: 4400}, backoff.Figures{Clients: 200, ClientsTouched: 200, StillOverloaded: true, RecoveredAfter: -1},
			"Choose x: with it the service recovers, 4.4 s after it is back, where with y it is still overloaded when the load stops; " +
				"y leaves fewer not through, 0 of 200 (0%), but with it the service is still overloaded when the load stops"},
		{backoff.Figures{Clients: 200, ClientsTouched: 200, PeakAfterBack: 9}, backoff.Figures{Clients: 200, ClientsTouched: 200, PeakAfterBack: 200},
			"Choose x: as few clients not through as y (none of 200), and a lower peak after back, 9 against 200 in a 100 ms slot"},
		{backoff.Figures{Clients: 200, ClientsTouched: 200, CrowdAllThroughBy: 15000}, backoff.Figures{Clients: 200, ClientsTouched: 200, CrowdAllThroughBy: -1},
			"Choose x: as few clients not through as y (none of 200), and the crowd all through by 15 s, where with y none of the crowd gets through"},
		{backoff.Figures{Clients: 200, ClientsTouched: 200, CrowdAllThroughBy: 15000}, backoff.Figures{Clients: 200, ClientsTouched: 200, CrowdAllThroughBy: 25700},
			"Choose x: as few clients not through as y (none of 200), and the crowd all through sooner, by 15 s against 25.7 s"},
		// Issue 24, item 13: both lose 3 clients, so the crowd is not all
		// through: its last success.
		{backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 3, CrowdAllThroughBy: 15000}, backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 3, CrowdAllThroughBy: 25700},
			"Choose x: as few clients not through as y (3 of 200, 1.5%), and the crowd's last success sooner, at 15 s against 25.7 s"},
		{backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 3, CrowdAllThroughBy: 15000}, backoff.Figures{Clients: 200, ClientsTouched: 200, NotThrough: 3, CrowdAllThroughBy: -1},
			"Choose x: as few clients not through as y (3 of 200, 1.5%), and the crowd's last success at 15 s, where with y none of the crowd gets through"},
		{backoff.Figures{Clients: 200, ClientsTouched: 200, Retries: 770}, backoff.Figures{Clients: 200, ClientsTouched: 200, Retries: 800},
			"Choose x: as few clients not through as y (none of 200), and fewer retries, 770 against 800"},
		{backoff.Figures{Clients: 200, ClientsTouched: 200}, backoff.Figures{Clients: 200, ClientsTouched: 200},
			"No policy does better than another here: they tie on every figure the ranking weighs"},
		{backoff.Figures{Clients: 185000, ClientsTouched: 185000, NotThrough: 90000, Throttled: 90000}, backoff.Figures{Clients: 185000, ClientsTouched: 185000, NotThrough: 90000, Throttled: 90000},
			"No policy does better than another here: they tie on every figure the ranking weighs; whatever the policy, the budget throttles 90,000 of 185,000 (48.6%)"},
	} {
		// Either way round, the better one is chosen.
		for _, pair := range [][2]backoff.Result{{r("x", tt.a), r("y", tt.b)}, {r("y", tt.b), r("x", tt.a)}} {
			rs := pair[:]
			if tt.a == tt.b {
				rs = []backoff.Result{r("x", tt.a), r("y", tt.b)}
			}
			if got := Choice(s, rs, Rank(rs), Evidence{}); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		}
	}
	// The README's metastable failure: exponential leaves the fewest not
	// through, but the service is still overloaded with it.
	ms := []backoff.Result{
		r("fixed", backoff.Figures{Clients: 59000, ClientsTouched: 59000, NotThrough: 4635, StillOverloaded: true, RecoveredAfter: -1}),
		r("exponential", backoff.Figures{Clients: 59000, ClientsTouched: 59000, NotThrough: 2970, StillOverloaded: true, RecoveredAfter: -1}),
		r("full jitter", backoff.Figures{Clients: 59000, ClientsTouched: 59000, NotThrough: 3399, RecoveredAfter: 293700}),
		r("decorrelated", backoff.Figures{Clients: 59000, ClientsTouched: 59000, NotThrough: 3040, RecoveredAfter: 382500}),
	}
	want := "Choose decorrelated: it leaves fewer clients not through than full jitter, 3,040 of 59,000 (5.2%) against 3,399 of 59,000 (5.8%); " +
		"exponential leaves fewer not through, 2,970 of 59,000 (5%), but with it the service is still overloaded when the load stops"
	if got := Choice(s, ms, Rank(ms), Evidence{}); got != want {
		t.Errorf("the metastable failure:\ngot  %q\nwant %q", got, want)
	}
}

// One client is one client: no "every one of the 1 client".
func TestVerdictOfOneClient(t *testing.T) {
	s := backoff.Defaults()
	s.Clients = 1
	through := Verdict(s, backoff.Figures{Clients: 1, ClientsTouched: 1, StableFrom: 10000, PeakAfterBack: 1, SlotCapacity: -1, CrowdAllThroughBy: 15000})
	lost := Verdict(s, backoff.Figures{Clients: 1, ClientsTouched: 1, NotThrough: 1, GaveUp: 1, StableFrom: 10000, SlotCapacity: -1, CrowdAllThroughBy: -1})
	for _, tt := range []struct{ got, want string }{
		{through, "With no limit on capacity, the service serves every attempt from the moment it is back, at 10 s; the 1 client gets through, at 15 s; " +
			"its peak after back is 1 attempt in a 100 ms slot (10/s)."},
		{lost, "With no limit on capacity, the service serves every attempt from the moment it is back, at 10 s; the 1 client never gets through (100%): 1 gave up before the service was back; " +
			"no attempt arrives once it is back."},
	} {
		if tt.got != tt.want {
			t.Errorf("got  %q\nwant %q", tt.got, tt.want)
		}
	}
}

// Issue 25, item 6: the verdict's words at their edges. One timed-out
// attempt is one; clients that gave up while attempts timed out, with
// nothing rejected, gave up after the service was back (a queue's timeouts
// come only once it is), so the sentence must not say before; and a
// recovery time below zero, which no run gives, is never printed.
func TestVerdictWordsAtTheEdges(t *testing.T) {
	s := settingsWith(100, 50, backoff.Budget{}, 1)
	s.Queue, s.Timeout = 100, 1000
	base := backoff.Figures{Clients: 3700, ClientsTouched: 3700, NotThrough: 3, GaveUp: 3, StableFrom: 12000, RecoveredAfter: 2000,
		PeakAfterBack: 10, SlotCapacity: 10, CrowdAllThroughBy: 15000}
	tests := []struct {
		name      string
		change    func(f *backoff.Figures)
		want      []string
		wantNever []string
	}{
		{"one timed-out attempt", func(f *backoff.Figures) { f.TimedOut = 1 },
			[]string{"all 3 gave up (1 attempt timed out waiting in the queue)"}, []string{"1 attempts"}},
		{"two timed-out attempts", func(f *backoff.Figures) { f.TimedOut = 2 },
			[]string{"all 3 gave up (2 attempts timed out waiting in the queue)"}, nil},
		{"timeouts and no rejection: not before the service was back", func(f *backoff.Figures) { f.TimedOut = 40 },
			[]string{"all 3 gave up (40 attempts timed out"}, []string{"before the service was back"}},
		{"neither rejected nor timed out: before the service was back", func(f *backoff.Figures) {},
			[]string{"all 3 gave up before the service was back"}, nil},
		{"rejected and no timeout: not before", func(f *backoff.Figures) { f.Rejected = 1 },
			[]string{"all 3 gave up;"}, []string{"before the service was back"}},
		{"a recovery below zero is not printed", func(f *backoff.Figures) { f.RecoveredAfter = -1 },
			[]string{"still overloaded"}, []string{"recovers -", " -1", "-1 ms"}},
		{"nor further below", func(f *backoff.Figures) { f.RecoveredAfter = -2500 },
			[]string{"still overloaded"}, []string{"recovers -", "-2"}},
	}
	for _, tt := range tests {
		f := base
		tt.change(&f)
		got := Verdict(s, f)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: got %q, want it to say %q", tt.name, got, w)
			}
		}
		for _, w := range tt.wantNever {
			if strings.Contains(got, w) {
				t.Errorf("%s: got %q, want no %q", tt.name, got, w)
			}
		}
	}
}
