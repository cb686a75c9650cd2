package cli

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/backoff/plan"
)

// adviceDoc is what the test reads of advise's JSON.
type adviceDoc struct {
	CandidatesTried int `json:"candidates_tried"`
	Seeds           struct {
		First, Last, Count int
		Draws              string
	}
	Goals []struct {
		Goal, Figure string
	}
	Meets   []adviceCandidate
	Closest []adviceCandidate
}

type adviceCandidate struct {
	Rank    int
	Policy  string
	Meets   bool
	Clients int
	Seeds   int
	Command string
	Figures map[string]struct{ Median, P95 *int }
	Goals   []struct {
		Goal, Figure   string
		P95            *int
		ClientsTouched *int `json:"clients_touched"`
		Most           int
		Met            bool
	}
}

// crowdSeedsDoc is what the test reads of crowd --seeds's JSON: each
// figure's spread, by name, and the settings it ran.
type crowdSeedsDoc struct {
	Settings struct {
		Capacity int
	}
	SlotMs   int `json:"slot_ms"`
	Seeds    struct{ First, Last, Count int }
	Policies []map[string]json.RawMessage
}

// spreadOf is figure name's median and p95 in a crowd --seeds policy.
func spreadOf(t *testing.T, p map[string]json.RawMessage, name string) (median, p95 *int) {
	t.Helper()
	var sp struct{ Median, P95 *int }
	if err := json.Unmarshal(p[name], &sp); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return sp.Median, sp.P95
}

func eq(a, b *int) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func show(v *int) string {
	if v == nil {
		return "null"
	}
	return strconv.Itoa(*v)
}

// adviceOf runs advise, which must succeed, and returns what it printed;
// on standard error it may say that it is a large run, nothing else.
func adviceOf(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := runArgs(t, "", args...)
	if code != 0 || errs != "" && !(strings.HasPrefix(errs, "retry-planner: advise is a large run: ") && strings.Count(errs, "\n") == 1) {
		t.Fatalf("%q: exit %d, stderr %q; want 0 and at most the large run's line", args, code, errs)
	}
	return out
}

// Advice is honest to the last digit: each candidate's command, run with
// crowd --seeds through the command line, gives every figure advise
// printed, median and p95, and every goal's verdict, worked out here from
// the crowd's figures by each goal's rule.
func TestAdviceIsHonest(t *testing.T) {
	metastable := []string{"--clients", "2000", "--outage", "30s", "--capacity", "100", "--load", "95", "--load-until", "5m",
		"--queue", "1000", "--timeout", "1s"}
	for _, tt := range []struct {
		name string
		args []string
		want string // "meets" or "closest"
	}{
		// The README's worked example of advice: none meets both goals.
		{"the metastable scenario", append([]string{"advise", "--goal", "not-through<=20%", "--goal", "recovered<=120s"}, metastable...), "closest"},
		{"a cure", []string{"advise", "--clients", "1000", "--outage", "10s", "--capacity", "100", "--load", "50", "--load-until", "3m",
			"--goal", "not-through<=5%", "--goal", "recovered<=60s"}, "meets"},
		{"no candidate can", append([]string{"advise", "--goal", "not-through<=0%", "--goal", "recovered<=0ms", "--goal", "p99<=1ms",
			"--also-service", "--seeds", "6", "--clients", "500", "--load", "50", "--load-until", "40s"}, metastable[2:]...), "closest"},
		{"your own policy, other seeds and slots", []string{"advise", "--clients", "400", "--outage", "8s", "--capacity", "150", "--load", "80",
			"--load-until", "40s", "--jitter", "full", "--multiplier", "1.5", "--slot", "50ms", "--seed", "3", "--seeds", "7",
			"--goal", "peak<=5000/s", "--goal", "attempts<=1.5x", "--goal", "p99<=20s", "--goal", "not-through<=5%"}, ""},
		// Breakers among the client's remedies (issue 26): a peak at the
		// capacity, which short-circuited attempts never reach; the
		// closest has the same figures with four breakers as without
		// (their breakers never open), said in one line.
		{"breakers", []string{"advise", "--clients", "2000", "--capacity", "100", "--goal", "peak<=1x", "--goal", "not-through<=50%",
			"--also-service", "--seeds", "3"}, "closest"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := adviceOf(t, append(tt.args, "--format", "json")...)
			var doc adviceDoc
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			shown := append(append([]adviceCandidate{}, doc.Meets...), doc.Closest...)
			switch {
			case len(shown) == 0:
				t.Fatalf("nothing shown:\n%s", out)
			case tt.want == "meets" && len(doc.Meets) == 0, tt.want == "closest" && (len(doc.Meets) > 0 || len(doc.Closest) == 0):
				t.Fatalf("%d meet, %d closest; want %s", len(doc.Meets), len(doc.Closest), tt.want)
			}
			text := adviceOf(t, tt.args...)
			if tt.name == "the metastable scenario" {
				checkGolden(t, filepath.Join(repoTestdata, "reports", "readme", "advise.txt"), text)
			}
			if tt.name == "breakers" && (!strings.Contains(text, "the best 8 so far with each of 9 breakers; the best 8 so far with each of 3 of the service's remedies") ||
				!strings.Contains(text, "the same figures with breaker none, 3:5s, 5:5s, 10:5s, 20:5s: 5 candidates, one line")) {
				t.Errorf("no breaker searched and shown with its command:\n%s", text)
			}
			for _, c := range shown {
				if !strings.Contains(text, "\n   "+c.Command+"\n") {
					t.Errorf("the text does not show %s", c.Command)
				}
				args := strings.Fields(c.Command)
				if args[0] != "retry-planner" || args[1] != "crowd" {
					t.Fatalf("command %q: want retry-planner crowd", c.Command)
				}
				var crowd crowdSeedsDoc
				if err := json.Unmarshal([]byte(reportOf(t, append(args[1:], "--format", "json")...)), &crowd); err != nil {
					t.Fatal(err)
				}
				if len(crowd.Policies) != 1 || crowd.Seeds.Count != doc.Seeds.Count || crowd.Seeds.First != doc.Seeds.First || c.Seeds != doc.Seeds.Count {
					t.Fatalf("%s: %d policies over %+v; want one over %+v", c.Command, len(crowd.Policies), crowd.Seeds, doc.Seeds)
				}
				p := crowd.Policies[0]
				for name, f := range c.Figures {
					median, p95 := spreadOf(t, p, name)
					if !eq(median, f.Median) || !eq(p95, f.P95) {
						t.Errorf("%s: %s median %s p95 %s, advise printed %s and %s", c.Command, name, show(median), show(p95), show(f.Median), show(f.P95))
					}
				}
				if len(c.Figures) != 5 {
					t.Errorf("%s: %d figures, want 5", c.Command, len(c.Figures))
				}
				_, clients := spreadOf(t, p, "clients")
				if *clients != c.Clients {
					t.Errorf("%s: %d clients, advise said %d", c.Command, *clients, c.Clients)
				}
				met := true
				for _, v := range c.Goals {
					g, err := advice.ParseGoal(v.Goal)
					if err != nil {
						t.Fatal(err)
					}
					_, p95 := spreadOf(t, p, v.Figure)
					of := int64(*clients)
					if g.Kind == advice.NotThrough { // the p95 of each seed's share, of its clients touched
						nt, touched := shareP95ByHand(t, args[1:], doc.Seeds.First, doc.Seeds.Count)
						p95, of = &nt, int64(touched)
						if v.ClientsTouched == nil || *v.ClientsTouched != touched {
							t.Errorf("%s: %s: the p95 seed has %d clients touched, advise said %s", c.Command, v.Goal, touched, show(v.ClientsTouched))
						}
					}
					want := p95 != nil && *p95 >= 0 && meetsByHand(g, int64(*p95), of, crowd.SlotMs, crowd.Settings.Capacity)
					if !eq(p95, v.P95) || v.Met != want {
						t.Errorf("%s: %s: the crowd's p95 %s meets it: %v; advise said p95 %s, met %v", c.Command, v.Goal, show(p95), want, show(v.P95), v.Met)
					}
					met = met && want
				}
				if c.Meets != met {
					t.Errorf("%s: meets every goal %v, advise said %v", c.Command, met, c.Meets)
				}
			}
		})
	}
}

// shareP95ByHand runs a candidate's crowd command one seed at a time and
// returns the not through and the clients touched of the seed whose share,
// not_through / clients_touched, is at the 95th percentile (nearest rank),
// the lower share first and, of one share, the fewer not through.
func shareP95ByHand(t *testing.T, command []string, first, count int) (notThrough, touched int) {
	t.Helper()
	type seed struct{ nt, touched int }
	var seeds []seed
	for k := first; k < first+count; k++ {
		var crowd crowdSeedsDoc
		args := append(slices.Clone(command), "--seed", strconv.Itoa(k), "--seeds", "1", "--format", "json")
		if err := json.Unmarshal([]byte(reportOf(t, args...)), &crowd); err != nil {
			t.Fatal(err)
		}
		nt, _ := spreadOf(t, crowd.Policies[0], "not_through")
		ct, _ := spreadOf(t, crowd.Policies[0], "clients_touched")
		seeds = append(seeds, seed{*nt, *ct})
	}
	slices.SortStableFunc(seeds, func(a, b seed) int {
		return cmp.Or(cmp.Compare(a.nt*b.touched, b.nt*a.touched), cmp.Compare(a.nt, b.nt))
	})
	at := seeds[(95*count+99)/100-1]
	return at.nt, at.touched
}

// meetsByHand is a goal's rule written out again: the p95 of its figure,
// in whole numbers.
func meetsByHand(g advice.Goal, p95, clients int64, slot, capacity int) bool {
	l := int64(g.Limit)
	switch g.Kind {
	case advice.NotThrough: // p95/touched <= l/100000 (l in thousandths of a percent)
		return p95*100000 <= l*clients
	case advice.Recovered, advice.P99:
		return p95 <= l
	case advice.PeakTimes: // against ceil(capacity*slot/1000)
		return p95*1000 <= l*((int64(capacity)*int64(slot)+999)/1000)
	case advice.PeakRate: // p95 * 1000/slot <= l
		return p95*1000 <= l*int64(slot)
	case advice.Attempts:
		return p95*1000 <= l*clients
	}
	return false
}

// What advise refuses: one line on standard error, exit 2.
func TestAdviseRefuses(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"advise", "--capacity", "100"}, "retry-planner: advise needs at least one --goal: not-through<=P% (of the clients), recovered<=T"},
		{[]string{"advise", "--goal", "latency<=1s"}, `retry-planner: --goal "latency<=1s": no goal is named "latency": want not-through<=P%`},
		{[]string{"advise", "--goal", "recovered<=soon"}, `retry-planner: --goal "recovered<=soon": recovered takes a time`},
		{[]string{"crowd", "--goal", "not-through<=1"}, `retry-planner: --goal "not-through<=1": not-through takes a share of the clients from 0% to 100%`},
		{[]string{"advise", "--goal", "peak<=2x"}, `retry-planner: --goal "peak<=2x": the peak against the capacity needs one: add --capacity N, or give the peak as a rate, such as --goal 'peak<=5000/s'`},
		{[]string{"--plain", "--goal", "p99<=1s"}, "retry-planner: --plain keeps the reference's settings and takes no --goal"},
		{[]string{"advise", "--goal", "p99<=1s", "--clients", "1000000", "--load", "10000", "--load-until", "1000s", "--capacity", "10000", "--seeds", "10000"},
			"more than --max-work allows (2,000,000,000): lower --seeds, --clients or the load, or raise --max-work"},
		{[]string{"advise", "--goal", "p99<=1s", "--max-work", "0"}, "retry-planner: --max-work 0: want a whole number of clients from 1 to 1000000000000"},
		{[]string{"advise", "--goal", "p99<=1s", "--seeds", "0"}, "retry-planner: --seeds 0: want a whole number from 1 to 10000"},
		{[]string{"crowd", "--also-service"}, `retry-planner: flag "--also-service" is for advise, not crowd`},
		{[]string{"advise", "--goal"}, "retry-planner: --goal needs a value: not-through<=P%"},
		{[]string{"advise", "--goal", "p99<=1s", "--format", "svg"}, `retry-planner: --format svg: advise writes text, csv or json, in any case; pictures are for crowd and timeline`},
	} {
		out, errs, code := runArgs(t, "", tt.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, tt.want) && !strings.Contains(errs, tt.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and one line with %q", tt.args, code, out, errs, tt.want)
		}
	}
}

// A small search that no candidate can satisfy says so plainly, shows the
// closest and exits 0; --save-plan writes the best shown, whose crowd is
// its command's; CSV has a row per candidate shown.
func TestAdviseClosestAndPlan(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "best.toml")
	args := []string{"advise", "--clients", "300", "--outage", "5s", "--capacity", "100", "--load", "60", "--load-until", "30s",
		"--seeds", "5", "--goal", "not-through<=0%", "--goal", "recovered<=0ms", "--goal", "peak<=0.7x"}
	text := adviceOf(t, append(args, "--save-plan", file)...)
	for _, want := range []string{"No candidate meets every goal. The closest, with what each misses and by how much:\n\n1. ",
		"   MISSES ", ", goal 0 ms\n", "Every figure and every verdict above is over all 5 seeds, 7 to 11"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	var doc adviceDoc
	if err := json.Unmarshal([]byte(adviceOf(t, append(args, "--format", "json")...)), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Meets == nil || len(doc.Meets) != 0 || len(doc.Closest) == 0 || doc.CandidatesTried < 100 {
		t.Fatalf("meets %v, %d closest, %d tried; want [], some and hundreds", doc.Meets, len(doc.Closest), doc.CandidatesTried)
	}
	saved, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(saved), "\n[goals]\n") {
		t.Fatalf("the plan saved: %v\n%s", err, saved)
	}
	fromPlan := reportOf(t, "--plan", file, "crowd")
	fromCommand := reportOf(t, strings.Fields(doc.Closest[0].Command)[1:]...)
	if fromPlan != fromCommand {
		t.Errorf("the plan's crowd differs from the first candidate's command:\n%s\n%s", fromPlan, fromCommand)
	}
	csv := adviceOf(t, append(args, "--format", "csv")...)
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if len(lines) != 1+len(doc.Closest) || !strings.HasPrefix(lines[0], "rank,result,candidate,policy,source,budget,") ||
		!strings.Contains(lines[1], ",closest,") || !strings.HasSuffix(lines[0], ",candidates_tried,command") {
		t.Errorf("CSV:\n%s", csv)
	}
}

// --goal reaches the full-screen program, over a plan's [goals], and a
// report's saved plan keeps the goals.
func TestGoalsReachEveryMode(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "goals.toml")
	reportOf(t, "crowd", "--goal", "recovered<=60s", "--goal", "peak<=5000/s", "--save-plan", file)
	saved, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(saved), "\nrecovered_after_ms = 60000\n") || !strings.Contains(string(saved), "\npeak_per_second = 5000\n") {
		t.Fatalf("the plan crowd saved: %v\n%s", err, saved)
	}
	opts, err := parseArgsIn(osFiles{}, []string{"--plan", file, "--goal", "recovered<=2m", "--goal", "p99<=30s"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := opts.tui.goals.String(), "recovered<=120s, peak<=5000/s, p99<=30s"; got != want {
		t.Errorf("the full-screen program's goals: %q, want %q", got, want)
	}
}

// The command line of every kind of candidate runs that candidate: one of
// the five, a preset, a policy of one's own (exponential and linear, with
// spread jitter and a limit), with budgets and the service's remedies,
// other slots, seeds and the reference's draws; crowd --seeds of the
// command gives RunSeeds's figures of the candidate's policy under its
// settings, every one.
func TestCandidateCommandsRunTheirCandidate(t *testing.T) {
	s := plan.DefaultSettings()
	s.Clients, s.Outage, s.Capacity, s.Load, s.LoadUntil, s.Queue, s.Timeout, s.Slot, s.Seed = 300, 5000, 100, 60, 30000, 200, 1000, 50, 3
	own := func(p backoff.Policy) advice.Candidate {
		c := advice.Candidate{Source: advice.FromGrid, Policy: p, Settings: s}
		c.Settings.CustomFirstWait, c.Settings.CustomLongestWait, c.Settings.CustomAttempts, c.Settings.CustomMaxElapsed = p.FirstWait, p.LongestWait, p.Attempts, p.MaxElapsed
		c.Settings.Multiplier, c.Settings.Growth, c.Settings.Jitter = p.Multiplier, p.Growth, p.Jitter
		return c
	}
	grpc, _ := backoff.FindPreset("grpc")
	withBudget := func(c advice.Candidate, b backoff.Budget) advice.Candidate {
		c.Settings.Budget = b
		return c
	}
	remedied := func(c advice.Candidate) advice.Candidate {
		c.Settings.Queue, c.Settings.DropExpired, c.Settings.QueueOrder = 50, true, backoff.LIFO
		return c
	}
	guarded := func(c advice.Candidate) advice.Candidate {
		c.Settings.Breaker, c.Settings.RetryAfter = backoff.Breaker{Failures: 5, Open: 5000}, 2000
		return c
	}
	cands := []advice.Candidate{
		{Source: advice.FromFive, Policy: s.Policy(backoff.FullJitter), Settings: s},
		guarded(advice.Candidate{Source: advice.FromFive, Policy: s.Policy(backoff.Exponential), Settings: s}),
		withBudget(advice.Candidate{Source: advice.FromPreset, Policy: grpc.Policy, Settings: s}, backoff.Budget{Kind: backoff.BudgetAWS, A: 100, B: 5}),
		own(backoff.Policy{Name: "custom", FirstWait: 250, LongestWait: 60000, Multiplier: 1500, Jitter: backoff.Jitter{Kind: backoff.JitterSpread, Factor: 500}, Attempts: 8, MaxElapsed: 40000}),
		remedied(withBudget(own(backoff.Policy{Name: "custom", FirstWait: 3000, LongestWait: 10000, Multiplier: 2000, Growth: backoff.GrowthLinear,
			Jitter: backoff.Jitter{Kind: backoff.JitterEqual}, Attempts: 5}), backoff.Budget{Kind: backoff.BudgetGRPC, A: 100, B: 500})),
	}
	for _, draws := range []backoff.Draws{backoff.Independent, backoff.Reference} {
		for _, c := range cands {
			line := plan.AdviceCommand(plan.OfCandidate(c, s.Draws, 4, draws, advice.Goals{}, ""))
			var crowd crowdSeedsDoc
			if err := json.Unmarshal([]byte(reportOf(t, append(strings.Fields(line)[1:], "--format", "json")...)), &crowd); err != nil {
				t.Fatal(err)
			}
			run := c.Settings
			run.Draws = draws
			want, err := backoff.RunSeeds([]backoff.Policy{c.Policy}, run, 4, backoff.SeedOptions{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if len(crowd.Policies) != 1 {
				t.Fatalf("%s: %d policies", line, len(crowd.Policies))
			}
			for _, ff := range backoff.FigureFields() {
				median, p95 := spreadOf(t, crowd.Policies[0], ff.Name)
				sp := want.Policies[0].Spread(ff.Name)
				if median == nil && sp.Median >= 0 || median != nil && *median != sp.Median || p95 == nil && sp.P95 >= 0 || p95 != nil && *p95 != sp.P95 {
					t.Errorf("%s: %s median %s p95 %s, the candidate's %d and %d", line, ff.Name, show(median), show(p95), sp.Median, sp.P95)
				}
			}
		}
	}
}

// help goals names every name a goal goes by, each of which --goal takes
// (issue 24 item 11).
func TestHelpGoalsNamesEveryName(t *testing.T) {
	help := reportOf(t, "help", "goals")
	flat := strings.Join(strings.Fields(help), " ")
	for k, names := range advice.Names {
		for _, name := range names {
			if !strings.Contains(flat, name) && !strings.Contains(flat, strings.ReplaceAll(name, "-", "_")) {
				t.Errorf("help goals does not name %q", name)
			}
			g := name + "<=1%"
			switch advice.Kind(k) {
			case advice.Recovered, advice.P99:
				g = name + "<=1s"
			case advice.PeakTimes, advice.Attempts:
				g = name + "<=2x"
			case advice.PeakRate:
				g = name + "<=10/s"
			}
			if got, err := advice.ParseGoal(g); err != nil || got.Kind != advice.Kind(k) {
				t.Errorf("--goal %s: got %v, %v; want a goal of %s", g, got, err, advice.Kind(k).Name())
			}
		}
	}
}

// A peak goal at the largest numbers says what it allows, never a number
// that overflowed (issue 25 item 11): 100000x a slot of an hour at
// 100,000,000 a second is at most 36,000,000,000,000,000 attempts.
func TestAdvisePeakAtTheLargestNumbers(t *testing.T) {
	text := adviceOf(t, "advise", "--seeds", "1", "--capacity", "100000000", "--slot", "1h", "--goal", "peak<=100000x")
	want := "peak<=100000x (at most 36,000,000,000,000,000 attempts in a 1 h slot that serves 360,000,000,000)"
	if !strings.Contains(text, want) || strings.Contains(text, "at most -") || !strings.Contains(text, "meet every goal") {
		t.Errorf("no %q, or a negative most, or none meets, in\n%s", want, text)
	}
}

// advise runs the seeds crowd --seeds runs, past 999,999 (issue 25 item
// 13): exit 0, and the first candidate's command, which crowd runs, gives
// the figures advise printed.
func TestAdvisePastTheLastSeed(t *testing.T) {
	args := []string{"advise", "--clients", "40", "--capacity", "20", "--load", "5", "--load-until", "20s", "--seed", "999999", "--seeds", "3",
		"--goal", "p99<=30s", "--format", "json"}
	var doc adviceDoc
	if err := json.Unmarshal([]byte(adviceOf(t, args...)), &doc); err != nil {
		t.Fatal(err)
	}
	shown := append(append([]adviceCandidate{}, doc.Meets...), doc.Closest...)
	if doc.Seeds.First != 999999 || doc.Seeds.Last != 1000001 || len(shown) == 0 {
		t.Fatalf("seeds %+v, %d shown; want 999999 to 1000001 and some", doc.Seeds, len(shown))
	}
	var crowd crowdSeedsDoc
	if err := json.Unmarshal([]byte(reportOf(t, append(strings.Fields(shown[0].Command)[1:], "--format", "json")...)), &crowd); err != nil {
		t.Fatal(err)
	}
	median, p95 := spreadOf(t, crowd.Policies[0], "attempts")
	if f := shown[0].Figures["attempts"]; !eq(median, f.Median) || !eq(p95, f.P95) {
		t.Errorf("%s: attempts %s/%s, advise printed %s/%s", shown[0].Command, show(median), show(p95), show(f.Median), show(f.P95))
	}
}

// A plan's goal that means nothing without a capacity is blamed on the
// plan's file and key, not on a --goal never given (issue 25 item 15); a
// --goal given is blamed as before.
func TestAdviseBlamesThePlansGoal(t *testing.T) {
	file := filepath.Join(t.TempDir(), "peak.toml")
	if err := os.WriteFile(file, []byte("[goals]\npeak_times_capacity = 2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"advise", "--plan", file}, "retry-planner: --plan " + file + ": [goals] peak_times_capacity = 2.0 measures the peak against the capacity, " +
			"and the service has none: add --capacity N, or give the peak as a rate, [goals] peak_per_second = 5000\n"},
		{[]string{"advise", "--plan", file, "--goal", "peak<=3x"}, "retry-planner: --goal \"peak<=3x\": the peak against the capacity needs one: " +
			"add --capacity N, or give the peak as a rate, such as --goal 'peak<=5000/s'\n"},
	} {
		out, errs, code := runArgs(t, "", tt.args...)
		if code != 2 || out != "" || errs != tt.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", tt.args, code, out, errs, tt.want)
		}
	}
}

// Goals no client policy can meet are said first, in one line each with
// its arithmetic and what would make it possible (issue 24 item 2). Where
// the fresh load alone decides a goal, only a breaker (MODEL.md section 7)
// can meet it, failing requests at the client: the line says so, the
// search goes on, and a candidate that meets the goals by losing most of
// the clients is said to (issue 24 item 3). A goal ruled out with a
// not-through goal is not searched for; the others are.
func TestAdviseSaysImpossibleGoalsFirst(t *testing.T) {
	// 16 a second against 15 in slots of 100 ms: still overloaded in the
	// load's last second whatever the clients do; 2 fresh requests a slot
	// against peak<=0.5x of ceil(1.5) = 2, which allows 1; a capacity of 31
	// serves ceil(3.1) = 4 a slot, half of it 2.
	scenario := []string{"advise", "--clients", "100", "--outage", "5s", "--capacity", "15", "--load", "16", "--load-until", "20s"}
	text := adviceOf(t, append(scenario, "--goal", "recovered<=60s", "--goal", "peak<=0.5x")...)
	want := "The scenario: 100 clients fail at 0 ms; the service is back at 5000 ms.\n" +
		"The service: capacity 15 a second (2 a slot of 100 ms at most), fresh load 16 a second until 20000 ms (320 requests), no retry budget.\n" +
		"Goals, each held at the 95th percentile over 20 seeds, 7 to 26, independent draws (a value equal to a goal meets it): recovered<=60s, peak<=0.5x (at most 1 attempts in a 100 ms slot that serves 2).\n" +
		"recovered<=60s cannot be met by any client policy without a circuit breaker: the fresh load alone sends 16 requests in its last second, from 19 s to 20 s, where the service completes at most 15, so it is still overloaded when the load stops, whatever else the clients do; it needs a capacity of at least 16 a second; only a breaker can, failing requests at the client, which count as not through.\n" +
		"peak<=0.5x cannot be met by any client policy without a circuit breaker: the fresh load alone sends 2 requests in the 100 ms slot from 5 s, where peak<=0.5x allows 1; the least the load allows is peak<=1x, or a capacity of 31 a second; only a breaker can, failing requests at the client, which count as not through.\n"
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant it to start\n%s", text, want)
	}
	if !strings.Contains(text, "\nThe goals ask nothing of the clients: the first leaves 420 of the 420 clients the outage touched (100%) not through; add --goal 'not-through<=1%' to ask for them.\n") ||
		!strings.Contains(text, " --breaker ") {
		t.Errorf("no breaker meeting the goals by losing every client in\n%s", text)
	}
	var doc struct {
		Bounds []struct {
			Kind, Goal     string
			Impossible     bool
			OnlyBreaker    bool `json:"only_breaker"`
			CapacityNeeded *int `json:"capacity_needed"`
		}
		Searched []string `json:"searched_goals"`
	}
	if err := json.Unmarshal([]byte(adviceOf(t, append(scenario, "--goal", "recovered<=60s", "--goal", "peak<=0.5x", "--seeds", "2", "--format", "json")...)), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Bounds) != 2 || doc.Bounds[0].Kind != "overloaded" || doc.Bounds[0].Impossible || !doc.Bounds[0].OnlyBreaker || *doc.Bounds[0].CapacityNeeded != 16 ||
		doc.Bounds[1].Kind != "peak" || !doc.Bounds[1].OnlyBreaker || len(doc.Searched) != 2 {
		t.Errorf("got %+v", doc)
	}
	// attempts<=1x with none lost: 420 clients, 180 of whom fail while the
	// service is down, make at least 600 attempts, more than 420: ruled
	// out, and the search runs for not-through alone.
	text = adviceOf(t, append(scenario, "--goal", "not-through<=0%", "--goal", "attempts<=1x", "--seeds", "2")...)
	if !strings.Contains(text, "\nattempts<=1x cannot be met with not-through<=0%: ") || !strings.Contains(text, "\nSearched for the other goals: not-through<=0%.\nTried ") ||
		strings.Contains(text, "meets attempts") || strings.Contains(text, "MISSES attempts") {
		t.Errorf("no search for not-through<=0%% alone in\n%s", text)
	}
}
