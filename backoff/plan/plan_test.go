package plan

import (
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	_ "github.com/charmbracelet/x/exp/golden" // registers -update

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
)

// updatingGoldens reports whether the golden package's -update flag is set,
// for the goldens kept under names of their own (testdata/plans,
// testdata/pictures): go test ./backoff/plan -run 'Golden' -update.
func updatingGoldens() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// richPlan sets every key away from its default.
func richPlan() Plan {
	s := backoff.Defaults()
	s.FirstWait, s.LongestWait, s.Attempts, s.Clients, s.Outage, s.Seed, s.Slot = 250, 120000, 8, 20000, 30000, 42, 1000
	s.Multiplier, s.Jitter, s.MaxElapsed, s.Draws = 1600, backoff.Jitter{Kind: backoff.JitterSpread, Factor: 200}, 300000, backoff.Independent
	s.Capacity, s.Load, s.LoadUntil = 2000, 500, 120000
	s.Budget, s.Processes = backoff.Budget{Kind: backoff.BudgetGRPC, A: 10, B: 100}, 20
	s.Queue, s.Timeout, s.DropExpired, s.QueueOrder = 4000, 2500, true, backoff.LIFO
	s.CustomFirstWait, s.CustomLongestWait, s.CustomAttempts, s.CustomMaxElapsed = 250, 120000, 5, 0
	s.Growth = backoff.GrowthLinear
	s.OutageHang, s.Breaker, s.RetryAfter = 3000, backoff.Breaker{Failures: 5, Open: 30000}, 1500
	return Plan{Settings: s, Policies: []string{"full jitter", "fixed", "custom", "grpc"}, Seeds: 200, SeedDraws: backoff.Reference,
		Note: "Checkout after a 30 s outage: 20,000 clients, 2,000 a second.\nThe \"custom\" one is grpc's waits from 250 ms."}
}

// pick draws from [low, high], at an end of the range or next to one half
// the time.
func pick(r *rand.Rand, low, high int) int {
	if high <= low {
		return low
	}
	switch r.IntN(8) {
	case 0:
		return low
	case 1:
		return low + 1
	case 2:
		return high - 1
	case 3:
		return high
	}
	return low + r.IntN(high-low+1)
}

// spelled writes a policy's name as a person might: in another case, with -
// or _ for its spaces and hyphens, with spaces around it.
func spelled(r *rand.Rand, name string) string {
	var b strings.Builder
	for _, c := range name {
		switch {
		case (c == ' ' || c == '-') && r.IntN(2) == 0:
			b.WriteByte("-_ "[r.IntN(3)])
		case r.IntN(4) == 0:
			b.WriteString(strings.ToUpper(string(c)))
		default:
			b.WriteRune(c)
		}
	}
	if r.IntN(8) == 0 {
		return " " + b.String() + "\t"
	}
	return b.String()
}

// noteRunes are the runes a random note is made of: plain text, the marks
// TOML must escape, controls, format characters and runes beyond the BMP.
var noteRunes = []rune("abc XYZ 0123,.:;#=[]{}'\"\\\n\t\r\x00\x01\x1f\x7f\u0085\u00a0é漢\u200b\u202e\ufeff😀")

func randomPlan(r *rand.Rand) Plan {
	s := backoff.Defaults()
	s.FirstWait = pick(r, 1, backoff.MaxWait)
	s.LongestWait = pick(r, s.FirstWait, backoff.MaxWait)
	s.Attempts = pick(r, 2, backoff.MaxAttempts)
	s.Clients = pick(r, 1, backoff.MaxClients)
	s.Outage = pick(r, 0, backoff.MaxTime)
	s.Seed = pick(r, 0, 999999)
	s.Slot = pick(r, 1, backoff.MaxWait)
	s.Multiplier = pick(r, 1000, 10000)
	s.MaxElapsed = pick(r, 0, backoff.MaxTime)
	// Custom's own waits, each its own or following the five's.
	if r.IntN(2) == 0 {
		s.CustomFirstWait = pick(r, 1, backoff.MaxWait)
	}
	if r.IntN(2) == 0 {
		s.CustomLongestWait = pick(r, s.Value(backoff.CustomFirstWait), backoff.MaxWait)
	} else if s.Value(backoff.CustomFirstWait) > s.LongestWait {
		s.CustomLongestWait = s.Value(backoff.CustomFirstWait)
	}
	if r.IntN(2) == 0 {
		s.CustomAttempts = pick(r, 2, backoff.MaxAttempts)
	}
	if r.IntN(2) == 0 {
		s.CustomMaxElapsed = pick(r, 0, backoff.MaxTime)
	}
	s.Growth = backoff.Growth(r.IntN(2))
	s.Jitter = backoff.Jitter{Kind: backoff.JitterKind(r.IntN(6))}
	if s.Jitter.Kind == backoff.JitterSpread || s.Jitter.Kind == backoff.JitterUp {
		s.Jitter.Factor = pick(r, 1, 1000)
	}
	s.Draws = backoff.Draws(r.IntN(2))
	s.Capacity = pick(r, 0, backoff.MaxCapacity)
	s.Load = pick(r, 0, backoff.MaxLoad)
	if r.IntN(3) > 0 {
		s.LoadUntil = pick(r, 0, backoff.MaxTime)
	}
	for s.FreshRequests() > backoff.MaxFreshRequests {
		s.Load /= 2
	}
	switch r.IntN(3) {
	case 1:
		s.Budget = backoff.Budget{Kind: backoff.BudgetGRPC, A: pick(r, 1, backoff.MaxGRPCTokens), B: pick(r, 1, 1000)}
	case 2:
		s.Budget = backoff.Budget{Kind: backoff.BudgetAWS, A: pick(r, 1, backoff.MaxAWSTokens), B: pick(r, 1, backoff.MaxAWSTokens)}
	}
	s.Processes = pick(r, 1, backoff.MaxProcesses)
	if r.IntN(5) == 0 {
		s.Processes = backoff.PerClient
	}
	// A queue needs a capacity; a timeout, drop-expired and lifo a queue.
	if s.Capacity > 0 && r.IntN(2) == 0 {
		s.Queue = pick(r, 1, backoff.MaxQueue)
		s.Timeout = pick(r, 0, backoff.MaxTimeout)
		s.DropExpired = r.IntN(2) == 0
		s.QueueOrder = backoff.QueueOrder(r.IntN(2))
	}
	// The guards, each off a third of the time.
	if r.IntN(3) > 0 {
		s.OutageHang = pick(r, 1, backoff.MaxWait)
	}
	if r.IntN(3) > 0 {
		s.Breaker = backoff.Breaker{Failures: pick(r, 1, backoff.MaxBreakerFailures), Open: pick(r, 1, backoff.MaxWait)}
	}
	if r.IntN(3) > 0 {
		s.RetryAfter = pick(r, 1, backoff.MaxWait)
	}
	p := Plan{Settings: s, Seeds: pick(r, 0, backoff.MaxSeeds), SeedDraws: backoff.Draws(r.IntN(2))}
	if r.IntN(4) > 0 {
		names := backoff.Names()
		r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		for _, n := range names[:1+r.IntN(len(names))] {
			p.Policies = append(p.Policies, spelled(r, n))
		}
	}
	if r.IntN(3) > 0 {
		var b strings.Builder
		for range r.IntN(60) {
			b.WriteRune(noteRunes[r.IntN(len(noteRunes))])
		}
		p.Note = b.String()
	}
	if r.IntN(3) == 0 {
		p.Goals = randomGoals(r)
	}
	return p
}

func TestPlanRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 1))
	for i := range 3000 {
		p := randomPlan(r)
		if err := p.Validate(); err != nil {
			t.Fatalf("plan %d: Validate: %v, want nil for %+v", i, err, p)
		}
		text := Encode(p)
		got, err := Decode("random.toml", []byte(text))
		if err != nil {
			t.Fatalf("plan %d: got %v, want it read back; the file:\n%s", i, err, text)
		}
		if !got.Equal(p) {
			t.Fatalf("plan %d: got %+v, want %+v; the file:\n%s", i, got, p, text)
		}
		if again := Encode(got); again != text {
			t.Fatalf("plan %d: written again it differs:\n%s\nwant:\n%s", i, again, text)
		}
	}
}

// TestPlanTOMLIsTOML reads an encoded plan with the TOML package alone, to
// check that the file is TOML for any tool and holds the values it shows.
func TestPlanTOMLIsTOML(t *testing.T) {
	var doc struct {
		Policies []string
		Policy   struct {
			FirstWaitMs int `toml:"first_wait_ms"`
		}
		Custom struct {
			Growth     string
			Multiplier float64
			Jitter     string
		}
		Service struct {
			Budget      string
			LoadUntilMs *int `toml:"load_until_ms"`
		}
	}
	if _, err := toml.Decode(Encode(richPlan()), &doc); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(doc.Policies, richPlan().Policies) || doc.Policy.FirstWaitMs != 250 || doc.Custom.Growth != "linear" || doc.Custom.Multiplier != 1.6 ||
		doc.Custom.Jitter != "spread:0.2" || doc.Service.Budget != "grpc:10:0.1" || doc.Service.LoadUntilMs == nil || *doc.Service.LoadUntilMs != 120000 {
		t.Errorf("got %+v, want the rich plan's values", doc)
	}
	doc.Service.LoadUntilMs = nil
	if _, err := toml.Decode(Encode(Default()), &doc); err != nil || doc.Service.LoadUntilMs != nil {
		t.Errorf("the defaults: got %v and load_until_ms %v, want no error and the key left out", err, doc.Service.LoadUntilMs)
	}
}

func TestPlanGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		plan Plan
	}{
		{"defaults", Default()},
		{"rich", richPlan()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join("testdata", "plans", tt.name+".toml")
			got := Encode(tt.plan)
			if updatingGoldens() {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("Encode differs from %s (go test ./views -run Golden -update rewrites it); got:\n%s", path, got)
			}
			read, err := Decode(path, want)
			if err != nil || !read.Equal(tt.plan) {
				t.Errorf("reading %s: got %+v, %v; want %+v", path, read, err, tt.plan)
			}
		})
	}
}

// An empty file, and one with only comments, are the defaults.
func TestDecodePlanEmpty(t *testing.T) {
	for _, text := range []string{"", "# nothing\n\n", "\xef\xbb\xbf", "[crowd]\n[policy]\n"} {
		got, err := Decode("empty.toml", []byte(text))
		if err != nil || !got.Equal(Default()) {
			t.Errorf("%q: got %+v, %v; want the default plan", text, got, err)
		}
	}
}

// Keys may be written as TOML allows: dotted, in inline tables, with
// durations for times and integers for the multiplier.
func TestDecodePlanForms(t *testing.T) {
	text := "policies = [\n  \"full-jitter\",\n  \"GRPC\",\n]\n" +
		"policy.first_wait_ms = \"1.5s\"\n" +
		"crowd = {clients = 1_000_000, outage_ms = \"2m\"}\n" +
		"[custom]\nmultiplier = 3\njitter = \"Spread:0.25\"\n" +
		"[service]\nbudget = \"AWS:500:5\"\nload_until_ms = 0\n" +
		"capacity_per_second = 100\nqueue = 1_000\ntimeout_ms = \"1.5s\"\nqueue_order = \"Lifo\"\ndrop_expired = false\n" +
		"[guards]\noutage_hang_ms = \"5s\"\nbreaker = \"GoBreaker\"\nretry_after_ms = 2_000\n"
	got, err := Decode("forms.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Policies = []string{"full-jitter", "GRPC"}
	want.Settings.FirstWait, want.Settings.Clients, want.Settings.Outage = 1500, 1000000, 120000
	want.Settings.Multiplier, want.Settings.Jitter = 3000, backoff.Jitter{Kind: backoff.JitterSpread, Factor: 250}
	want.Settings.Budget, want.Settings.LoadUntil = backoff.Budget{Kind: backoff.BudgetAWS, A: 500, B: 5}, 0
	want.Settings.Capacity, want.Settings.Queue, want.Settings.Timeout, want.Settings.QueueOrder = 100, 1000, 1500, backoff.LIFO
	want.Settings.OutageHang, want.Settings.Breaker, want.Settings.RetryAfter = 5000, backoff.Breaker{Failures: 6, Open: 60000}, 2000
	if !got.Equal(want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// The custom policy's own waits (issue 19, item 2): a plan without them,
// as every plan written before they were, loads as it did, custom taking
// [policy]'s; with them custom has its own and the five keep [policy]'s;
// a preset's plan holds the preset in [custom] alone.
func TestDecodePlanCustomOwnWaits(t *testing.T) {
	old := "[policy]\nfirst_wait_ms = 2000\nlongest_wait_ms = 30000\nattempts = 4\nmax_elapsed_ms = 60000\n[custom]\nmultiplier = 3\n"
	got, err := Decode("old.toml", []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	s := got.Settings
	if s.CustomFirstWait != backoff.Follow || s.CustomLongestWait != backoff.Follow || s.CustomAttempts != backoff.Follow || s.CustomMaxElapsed != backoff.Follow {
		t.Errorf("an old plan: custom's own waits %d, %d, %d, %d; want all Follow", s.CustomFirstWait, s.CustomLongestWait, s.CustomAttempts, s.CustomMaxElapsed)
	}
	if c := s.Custom(); c.FirstWait != 2000 || c.LongestWait != 30000 || c.Attempts != 4 || c.MaxElapsed != 60000 || c.Multiplier != 3000 ||
		c.Growth != backoff.GrowthExponential {
		t.Errorf("an old plan's custom: got %s, want [policy]'s waits at x3", c.Describe())
	}

	own := old + "first_wait_ms = \"500ms\"\nlongest_wait_ms = 120000\nattempts = 3\nmax_elapsed_ms = 0\n"
	got, err = Decode("own.toml", []byte(own))
	if err != nil {
		t.Fatal(err)
	}
	s = got.Settings
	if c := s.Custom(); c.FirstWait != 500 || c.LongestWait != 120000 || c.Attempts != 3 || c.MaxElapsed != 0 {
		t.Errorf("custom's own: got %s, want first 500 ms, longest 120000 ms, 3 attempts, no limit", c.Describe())
	}
	for _, p := range s.Five() {
		if p.FirstWait != 2000 || p.LongestWait != 30000 || p.Attempts != 4 || p.MaxElapsed != 60000 {
			t.Errorf("%s: got %s, want [policy]'s waits", p.Name, p.Describe())
		}
	}

	grpc, _ := backoff.FindPreset("grpc")
	p := Default()
	p.Settings = p.Settings.WithPreset(grpc)
	p.Policies = []string{"exponential", "custom"}
	text := Encode(p)
	at := func(table string) int { return strings.Index(text, "\n["+table+"]\n") }
	policy, custom := text[at("policy"):at("custom")], text[at("custom"):at("crowd")]
	for _, line := range []string{"\nfirst_wait_ms = 1000\n", "\nlongest_wait_ms = 16000\n", "\nattempts = 6\n", "\nmax_elapsed_ms = 0\n"} {
		if !strings.Contains(policy, line) {
			t.Errorf("the grpc plan's [policy] has no %q:\n%s", line, policy)
		}
	}
	for _, line := range []string{"\nfirst_wait_ms = 1000\n", "\nlongest_wait_ms = 120000\n", "\nattempts = 5\n", "\nmax_elapsed_ms = 0\n", "\nmultiplier = 1.6\n"} {
		if !strings.Contains(custom, line) {
			t.Errorf("the grpc plan's [custom] has no %q:\n%s", line, custom)
		}
	}
	got, err = Decode("grpc.toml", []byte(text))
	if err != nil || !got.Equal(p) {
		t.Fatalf("the grpc plan: got %+v, %v; want %+v", got, err, p)
	}
	list, err := got.PolicyList()
	if err != nil || len(list) != 2 {
		t.Fatalf("the grpc plan's policies: got %v, %v", list, err)
	}
	if e := list[0]; e.LongestWait != 16000 || e.Attempts != 6 {
		t.Errorf("exponential in the grpc plan: got %s, want the five's 16000 ms and 6 attempts", e.Describe())
	}
	if c := list[1]; c.Name != "grpc" || !c.Same(grpc.Policy) {
		t.Errorf("custom in the grpc plan: got %s %s, want grpc's", c.Name, c.Describe())
	}
	if got := CommandLine(p); got != "retry-planner crowd --custom-first-wait 1s --custom-longest 2m --custom-attempts 5 "+
		"--multiplier 1.6 --jitter spread:0.2 --custom-max-elapsed 0 --policies exponential,custom" {
		t.Errorf("the grpc plan's command line: got %s", got)
	}
}

func TestDecodePlanErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		// Text that is not TOML, with the parser's line.
		{"bad TOML", "[crowd\nclients = 1\n", "plan.toml:1: not TOML: expected '.' or ']' to end table name, but got '\\n' instead"},
		{"bad TOML later", "[crowd]\nclients = 1\nseed = = 2\n", "plan.toml:3: not TOML: expected value but found '=' instead"},
		{"a key twice", "[crowd]\nclients = 1\nclients = 2\n", "plan.toml:3: not TOML: Key 'crowd.clients' has already been defined."},
		{"not UTF-8", "note = \"\xff\"\n", "plan.toml:1: not TOML: invalid UTF-8 byte: 0xff"},
		{"too long", "#" + strings.Repeat("x", MaxBytes) + "\n", "plan.toml:1: a plan of 1048578 bytes: want at most 1048576 (a plan is a page of settings)"},

		// Keys a plan does not have.
		{"unknown at the top", "policies = []\ncolour = \"red\"\n", "plan.toml:2: colour: not a key of a plan, which takes note, policies, [policy], [custom], [crowd], [service], [guards], [spread] and [goals]"},
		{"unknown table", "# a plan\n[colour]\nx = 1\n", "plan.toml:2: colour: not a key of a plan, which takes note, policies, [policy], [custom], [crowd], [service], [guards], [spread] and [goals]"},
		{"unknown dotted table", "\ncolour.x = 1\n", "plan.toml:2: colour: not a key of a plan, which takes note, policies, [policy], [custom], [crowd], [service], [guards], [spread] and [goals]"},
		{"unknown in a table", "[crowd]\nclients = 5\nclient = 3\n", "plan.toml:3: crowd.client: not a key of [crowd], which takes clients, outage_ms, seed, slot_ms and draws"},
		{"unknown dotted", "\n\ncrowd.client = 3\n", "plan.toml:3: crowd.client: not a key of [crowd], which takes clients, outage_ms, seed, slot_ms and draws"},
		{"keys are case-sensitive", "[crowd]\nClients = 5\n", "plan.toml:2: crowd.Clients: not a key of [crowd], which takes clients, outage_ms, seed, slot_ms and draws"},
		{"unknown in the same key's case", "[crowd]\nclients = 5\nCLIENTS = 6\n", "plan.toml:3: crowd.CLIENTS: not a key of [crowd], which takes clients, outage_ms, seed, slot_ms and draws"},
		{"unknown sub-table", "[crowd]\n[crowd.extra]\nx = 1\n", "plan.toml:2: crowd.extra: not a key of [crowd], which takes clients, outage_ms, seed, slot_ms and draws"},
		{"unknown in spread", "[spread]\nseed = 3\n", "plan.toml:2: spread.seed: not a key of [spread], which takes seeds and draws"},
		{"a top-level key in a table", "[policy]\npolicies = [\"fixed\"]\n", "plan.toml:2: policy.policies: not a key of [policy], which takes first_wait_ms, longest_wait_ms, attempts and max_elapsed_ms"},
		{"the first problem in the file's order", "[crowd]\nclients = 0\nfoo = 1\n", "plan.toml:3: crowd.foo: not a key of [crowd], which takes clients, outage_ms, seed, slot_ms and draws"},

		// Values of the wrong type.
		{"a string for a count", "[policy]\nattempts = \"6\"\n", `plan.toml:2: policy.attempts = "6": want a whole number from 2 to 100, not a string`},
		{"a decimal for a count", "[policy]\nattempts = 6.0\n", "plan.toml:2: policy.attempts = 6: want a whole number from 2 to 100, not a decimal"},
		{"a boolean for a count", "[crowd]\nclients = true\n", "plan.toml:2: crowd.clients = true: want a whole number from 1 to 10000000, not true or false"},
		{"a list for a count", "[crowd]\nseed = [7]\n", "plan.toml:2: crowd.seed = [7]: want a whole number from 0 to 999999, not a list"},
		{"a table for a count", "[crowd.clients]\nx = 1\n", "plan.toml:1: crowd.clients = {...}: want a whole number from 1 to 10000000, not a table"},
		{"a decimal for a time", "[crowd]\noutage_ms = 1.5\n", `plan.toml:2: crowd.outage_ms = 1.5: want a time from 0 to 86400000 ms: whole milliseconds, or a duration string such as "1.5s", not a decimal`},
		{"a date for a time", "[crowd]\noutage_ms = 1979-05-27\n", `plan.toml:2: crowd.outage_ms = 1979-05-27: want a time from 0 to 86400000 ms: whole milliseconds, or a duration string such as "1.5s", not a date or time`},
		{"a string that is no time", "[crowd]\noutage_ms = \"10 s\"\n", `plan.toml:2: crowd.outage_ms = "10 s": want a time from 0 to 86400000 ms: whole milliseconds, or a duration string such as "1.5s"`},
		{"a signed duration", "[policy]\nfirst_wait_ms = \"-1s\"\n", `plan.toml:2: policy.first_wait_ms = "-1s": want a time from 1 to 3600000 ms: whole milliseconds, or a duration string such as "1.5s"`},
		{"a duration finer than ms", "[policy]\nfirst_wait_ms = \"1.5ms\"\n", `plan.toml:2: policy.first_wait_ms = "1.5ms": want a time from 1 to 3600000 ms: whole milliseconds, or a duration string such as "1.5s"`},
		{"a string for the multiplier", "[custom]\nmultiplier = \"1.6\"\n", `plan.toml:2: custom.multiplier = "1.6": want a decimal from 1.0 to 10.0 with at most three decimals, not a string`},
		{"a number for the jitter", "[custom]\njitter = 0.2\n", "plan.toml:2: custom.jitter = 0.2: want none, full, equal, decorrelated, spread:F or up:F (F from 0.001 to 1), not a decimal"},
		{"a number for the budget", "[service]\nbudget = 10\n", "plan.toml:2: service.budget = 10: want none, grpc:MAX:RATIO (MAX 1 to 1000 tokens, RATIO 0.001 to 1) or aws:QUOTA:COST (1 to 1000000 tokens each; standard mode is aws:500:5), not a whole number"},
		{"a boolean for the draws", "[crowd]\ndraws = true\n", `plan.toml:2: crowd.draws = true: want "reference" or "independent", not true or false`},
		{"a string for the policies", "policies = \"fixed\"\n", `plan.toml:1: policies = "fixed": want a list of policy names, such as ["fixed", "full jitter"], not a string`},
		{"a number among the policies", "policies = [\"fixed\", 3]\n", `plan.toml:1: policies = ["fixed", 3]: 3 is not a name: want the policies' names as strings, such as ["fixed", "full jitter"]`},
		{"a number for the note", "note = 5\n", "plan.toml:1: note = 5: want a string of text, not a whole number"},
		{"a decimal for the seeds", "[spread]\nseeds = 1e3\n", "plan.toml:2: spread.seeds = 1000: want a whole number from 0 (none) to 10000, not a decimal"},
		{"a value for a table", "crowd = 5\n", "plan.toml:1: crowd = 5: want the table [crowd], not a whole number"},
		// An array of tables is where it is first named.
		{"an array of tables", "[[crowd]]\nclients = 5\n[[crowd]]\n", "plan.toml:1: crowd = [{...}]: want the table [crowd], not an array of tables"},

		// Values out of range, each field.
		{"first wait", "[policy]\nfirst_wait_ms = 0\n", "plan.toml:2: policy.first_wait_ms = 0: want a time from 1 to 3600000 ms"},
		{"longest wait below the first", "[policy]\nfirst_wait_ms = 2000\nlongest_wait_ms = 1999\n", "plan.toml:3: policy.longest_wait_ms = 1999: want a time from 2000 ms (the first wait) to 3600000 ms"},
		{"longest wait above an hour", "[policy]\nlongest_wait_ms = \"2h\"\n", "plan.toml:2: policy.longest_wait_ms = \"2h\" (7200000 ms): want a time from 1000 ms (the first wait) to 3600000 ms"},
		{"first wait past the default longest", "[policy]\nfirst_wait_ms = 20000\n", "plan.toml:2: policy.first_wait_ms = 20000: more than the longest wait, 16000 ms by default: set policy.longest_wait_ms too"},
		{"attempts too few", "[policy]\nattempts = 1\n", "plan.toml:2: policy.attempts = 1: want a whole number from 2 to 100"},
		{"attempts too many", "[policy]\nattempts = 500\n", "plan.toml:2: policy.attempts = 500: want a whole number from 2 to 100"},
		{"limit on total time", "[policy]\nmax_elapsed_ms = 86400001\n", "plan.toml:2: policy.max_elapsed_ms = 86400001: want a time from 0 to 86400000 ms"},
		{"custom's first wait", "[custom]\nfirst_wait_ms = 0\n", "plan.toml:2: custom.first_wait_ms = 0: want a time from 1 to 3600000 ms"},
		{"custom's first wait at -1", "[custom]\nfirst_wait_ms = -1\n", "plan.toml:2: custom.first_wait_ms = -1: want a time from 1 to 3600000 ms"},
		{"custom's longest below its first", "[custom]\nfirst_wait_ms = 2000\nlongest_wait_ms = 1999\n", "plan.toml:3: custom.longest_wait_ms = 1999: want a time from 2000 ms (its first wait) to 3600000 ms"},
		{"custom's longest below the five's first", "[policy]\nfirst_wait_ms = 2000\nlongest_wait_ms = 3000\n[custom]\nlongest_wait_ms = 1999\n", "plan.toml:5: custom.longest_wait_ms = 1999: want a time from 2000 ms (its first wait) to 3600000 ms"},
		{"custom's first wait past the longest it follows", "[custom]\nfirst_wait_ms = \"20s\"\n", `plan.toml:2: custom.first_wait_ms = "20s": more than the longest wait it follows, policy.longest_wait_ms = 16000: set custom.longest_wait_ms too`},
		{"custom's attempts", "[custom]\nattempts = 101\n", "plan.toml:2: custom.attempts = 101: want a whole number from 2 to 100"},
		{"custom's attempts at -1", "[custom]\nattempts = -1\n", "plan.toml:2: custom.attempts = -1: want a whole number from 2 to 100"},
		{"custom's limit at -1", "[custom]\nmax_elapsed_ms = -1\n", "plan.toml:2: custom.max_elapsed_ms = -1: want a time from 0 to 86400000 ms"},
		{"custom's limit past a day", "[custom]\nmax_elapsed_ms = \"25h\"\n", `plan.toml:2: custom.max_elapsed_ms = "25h" (90000000 ms): want a time from 0 to 86400000 ms`},
		{"multiplier below 1", "[custom]\nmultiplier = 0.999\n", "plan.toml:2: custom.multiplier = 0.999: want a decimal from 1.0 to 10.0 with at most three decimals"},
		{"multiplier above 10", "[custom]\nmultiplier = 11\n", "plan.toml:2: custom.multiplier = 11: want a decimal from 1.0 to 10.0 with at most three decimals"},
		{"multiplier with four decimals", "[custom]\nmultiplier = 1.0005\n", "plan.toml:2: custom.multiplier = 1.0005: want a decimal from 1.0 to 10.0 with at most three decimals"},
		{"multiplier below 0", "[custom]\nmultiplier = -2.0\n", "plan.toml:2: custom.multiplier = -2: want a decimal from 1.0 to 10.0 with at most three decimals"},
		{"multiplier not a number", "[custom]\nmultiplier = nan\n", "plan.toml:2: custom.multiplier = nan: want a decimal from 1.0 to 10.0 with at most three decimals"},
		{"jitter's factor missing", "[custom]\njitter = \"spread\"\n", `plan.toml:2: custom.jitter = "spread": want none, full, equal, decorrelated, spread:F or up:F (F from 0.001 to 1)`},
		{"jitter's factor 0", "[custom]\njitter = \"up:0\"\n", `plan.toml:2: custom.jitter = "up:0": want none, full, equal, decorrelated, spread:F or up:F (F from 0.001 to 1)`},
		{"jitter's factor above 1", "[custom]\njitter = \"spread:1.5\"\n", `plan.toml:2: custom.jitter = "spread:1.5": want none, full, equal, decorrelated, spread:F or up:F (F from 0.001 to 1)`},
		{"no such jitter", "[custom]\njitter = \"wobbly\"\n", `plan.toml:2: custom.jitter = "wobbly": want none, full, equal, decorrelated, spread:F or up:F (F from 0.001 to 1)`},
		{"no such growth", "[custom]\nmultiplier = 1.5\ngrowth = \"lineal\"\n", `plan.toml:3: custom.growth = "lineal": want "exponential" or "linear"`},
		{"a number for the growth", "[custom]\ngrowth = 2\n", `plan.toml:2: custom.growth = 2: want "exponential" or "linear", not a whole number`},
		{"the growth in [policy]", "[policy]\ngrowth = \"linear\"\n", "plan.toml:2: policy.growth: not a key of [policy], which takes first_wait_ms, longest_wait_ms, attempts and max_elapsed_ms"},
		{"clients", "[crowd]\nclients = 10_000_001\n", "plan.toml:2: crowd.clients = 10000001: want a whole number from 1 to 10000000"},
		{"no clients", "[crowd]\nclients = 0\n", "plan.toml:2: crowd.clients = 0: want a whole number from 1 to 10000000"},
		{"outage below 0", "[crowd]\noutage_ms = -1\n", "plan.toml:2: crowd.outage_ms = -1: want a time from 0 to 86400000 ms"},
		{"outage past a day", "[crowd]\noutage_ms = \"25h\"\n", `plan.toml:2: crowd.outage_ms = "25h" (90000000 ms): want a time from 0 to 86400000 ms`},
		{"seed", "[crowd]\nseed = 1000000\n", "plan.toml:2: crowd.seed = 1000000: want a whole number from 0 to 999999"},
		{"slot", "[crowd]\nslot_ms = 0\n", "plan.toml:2: crowd.slot_ms = 0: want a time from 1 to 3600000 ms"},
		{"an integer past int64", "[crowd]\nseed = 9223372036854775808\n", "plan.toml:2: not TOML: 9223372036854775808 is out of range for int64"},
		{"no such draws", "[crowd]\ndraws = \"lcg\"\n", `plan.toml:2: crowd.draws = "lcg": want "reference" or "independent"`},
		{"capacity", "[service]\ncapacity_per_second = 100000001\n", "plan.toml:2: service.capacity_per_second = 100000001: want a whole number from 0 to 100000000"},
		{"load", "[service]\nload_per_second = 1000001\n", "plan.toml:2: service.load_per_second = 1000001: want a whole number from 0 to 1000000"},
		{"too many fresh requests", "[service]\nload_per_second = 1000000\nload_until_ms = 600001\n", "plan.toml:2: service.load_per_second = 1000000: a load of 1000000 a second until 600001 ms is 600001000 fresh requests, more than 600000000"},
		{"the load's end", "[service]\nload_until_ms = -1\n", "plan.toml:2: service.load_until_ms = -1: want a time from 0 to 86400000 ms"},
		{"no such budget", "[service]\nbudget = \"grpc:10\"\n", `plan.toml:2: service.budget = "grpc:10": want none, grpc:MAX:RATIO (MAX 1 to 1000 tokens, RATIO 0.001 to 1) or aws:QUOTA:COST (1 to 1000000 tokens each; standard mode is aws:500:5)`},
		{"budget out of range", "[service]\nbudget = \"grpc:0:0.1\"\n", `plan.toml:2: service.budget = "grpc:0:0.1": want none, grpc:MAX:RATIO (MAX 1 to 1000 tokens, RATIO 0.001 to 1) or aws:QUOTA:COST (1 to 1000000 tokens each; standard mode is aws:500:5)`},
		{"no processes", "[service]\nprocesses = 0\n", `plan.toml:2: service.processes = 0: want a whole number from 1 to 100000, or "clients"`},
		{"too many processes", "[service]\nprocesses = 100001\n", `plan.toml:2: service.processes = 100001: want a whole number from 1 to 100000, or "clients"`},
		// A process per client is "clients", in any case (issue 24, item 7);
		// no number writes it.
		{"processes -1", "[service]\nprocesses = -1\n", `plan.toml:2: service.processes = -1: want a whole number from 1 to 100000, or "clients"`},
		{"processes client", "[service]\nprocesses = \"client\"\n", `plan.toml:2: service.processes = "client": want a whole number from 1 to 100000, or "clients"`},
		{"the load's end past a day", "[service]\nload_until_ms = 86400001\n", "plan.toml:2: service.load_until_ms = 86400001: want a time from 0 to 86400000 ms"},
		{"capacity below 0", "[service]\ncapacity_per_second = -5\n", "plan.toml:2: service.capacity_per_second = -5: want a whole number from 0 to 100000000"},
		{"multiplier infinite", "[custom]\nmultiplier = inf\n", "plan.toml:2: custom.multiplier = inf: want a decimal from 1.0 to 10.0 with at most three decimals"},
		// The queue: its ranges, and what each of its settings needs.
		{"a queue too long", "[service]\ncapacity_per_second = 10\nqueue = 10_000_001\n", "plan.toml:3: service.queue = 10000001: want a whole number from 0 to 10000000"},
		{"a queue below 0", "[service]\nqueue = -1\n", "plan.toml:2: service.queue = -1: want a whole number from 0 to 10000000"},
		{"a queue without a capacity", "[service]\nqueue = 1\n", "plan.toml:2: service.queue = 1: a queue needs a capacity to serve it: set capacity_per_second, or queue = 0"},
		{"a timeout past a day", "[service]\ncapacity_per_second = 10\nqueue = 5\ntimeout_ms = \"25h\"\n", `plan.toml:4: service.timeout_ms = "25h" (90000000 ms): want a time from 0 to 86400000 ms`},
		{"a timeout without a queue", "[service]\ntimeout_ms = \"1s\"\n", `plan.toml:2: service.timeout_ms = "1s" (1000 ms): a timeout needs a queue to wait in: set queue, or timeout_ms = 0`},
		// The guards: their ranges, and the breaker's forms.
		{"a hang past an hour", "[guards]\noutage_hang_ms = \"1h1ms\"\n", `plan.toml:2: guards.outage_hang_ms = "1h1ms" (3600001 ms): want a time from 0 to 3600000 ms`},
		{"pushback below 0", "[guards]\nretry_after_ms = -1\n", "plan.toml:2: guards.retry_after_ms = -1: want a time from 0 to 3600000 ms"},
		{"a breaker without its time", "[guards]\nbreaker = \"5\"\n", `plan.toml:2: guards.breaker = "5": want none, F:D (F consecutive failures from 1 to 1000, D how long it stays open, from 1 ms to 1 h: 5:30s) or a library's: gobreaker or failsafe-go`},
		{"a breaker of 0 failures", "[guards]\nbreaker = \"0:30s\"\n", `plan.toml:2: guards.breaker = "0:30s": want none, F:D (F consecutive failures from 1 to 1000, D how long it stays open, from 1 ms to 1 h: 5:30s) or a library's: gobreaker or failsafe-go`},
		{"a number for the breaker", "[guards]\nbreaker = 5\n", `plan.toml:2: guards.breaker = 5: want none, F:D (F consecutive failures from 1 to 1000, D how long it stays open, from 1 ms to 1 h: 5:30s) or a library's: gobreaker or failsafe-go, not a whole number`},
		{"drop expired without a queue", "[service]\ndrop_expired = true\n", "plan.toml:2: service.drop_expired = true: only a queue holds expired requests: set queue, or drop_expired = false"},
		{"lifo without a queue", "[service]\nqueue_order = \"LIFO\"\n", `plan.toml:2: service.queue_order = "LIFO": lifo takes the newest request from a queue: set queue, or queue_order = "fifo"`},
		{"a string for drop expired", "[service]\ndrop_expired = \"yes\"\n", `plan.toml:2: service.drop_expired = "yes": want true or false, not a string`},
		{"no such queue order", "[service]\nqueue_order = \"stack\"\n", `plan.toml:2: service.queue_order = "stack": want "fifo" or "lifo"`},
		{"a number for the queue order", "[service]\nqueue_order = 1\n", `plan.toml:2: service.queue_order = 1: want "fifo" or "lifo", not a whole number`},
		{"seeds too many", "[spread]\nseeds = 10001\n", "plan.toml:2: spread.seeds = 10001: want a whole number from 0 (none) to 10000"},
		{"seeds below 0", "[spread]\nseeds = -1\n", "plan.toml:2: spread.seeds = -1: want a whole number from 0 (none) to 10000"},
		{"spread's draws", "[spread]\ndraws = \"\"\n", `plan.toml:2: spread.draws = "": want "reference" or "independent"`},

		// Policies.
		{"not a policy", "policies = [\"fixed\", \"fastest\"]\n", `plan.toml:1: policies = ["fixed", "fastest"]: "fastest" is not a policy: want fixed, exponential, full jitter, equal jitter or decorrelated; custom; or a preset: grpc, aws, cenkalti, retryablehttp, client-go, envoy or polly`},
		{"an empty name", "policies = [\"\"]\n", `plan.toml:1: policies = [""]: "" is not a policy: want fixed, exponential, full jitter, equal jitter or decorrelated; custom; or a preset: grpc, aws, cenkalti, retryablehttp, client-go, envoy or polly`},
		{"a policy twice", "policies = [\"full jitter\", \"fixed\", \"Full_Jitter\"]\n", `plan.toml:1: policies = ["full jitter", "fixed", "Full_Jitter"]: "full jitter" and "Full_Jitter" name the same policy: name each once`},

		// Lines as the parser records them: a value's first line.
		{"after a long note", "note = \"\"\"\nline one\nline two\n\"\"\"\n[policy]\nattempts = 1\n", "plan.toml:6: policy.attempts = 1: want a whole number from 2 to 100"},
		{"a multi-line string's first line", "[custom]\njitter = \"\"\"\nfull\n\"\"\"\n", "plan.toml:2: custom.jitter = \"full\\n\": want none, full, equal, decorrelated, spread:F or up:F (F from 0.001 to 1)"},
		{"a list over lines", "\npolicies = [\n  \"fixed\",\n  \"fastest\",\n]\n", `plan.toml:2: policies = ["fixed", "fastest"]: "fastest" is not a policy: want fixed, exponential, full jitter, equal jitter or decorrelated; custom; or a preset: grpc, aws, cenkalti, retryablehttp, client-go, envoy or polly`},
		{"an inline table", "\ncrowd = {clients = 5, seed = -3}\n", "plan.toml:2: crowd.seed = -3: want a whole number from 0 to 999999"},
		{"Windows line ends", "[crowd]\r\n\r\nclients = 0\r\n", "plan.toml:3: crowd.clients = 0: want a whole number from 1 to 10000000"},
		{"a byte-order mark", "\xef\xbb\xbf[crowd]\nclients = 0\n", "plan.toml:2: crowd.clients = 0: want a whole number from 1 to 10000000"},
		{"a quoted key", "[crowd]\n\"clients\" = 0\n", "plan.toml:2: crowd.clients = 0: want a whole number from 1 to 10000000"},
		{"a key with a comma", "[crowd]\n\"a,b\" = 0\n", `plan.toml:2: crowd."a,b": not a key of [crowd], which takes clients, outage_ms, seed, slot_ms and draws`},
		{"a long string", "note = 1\n[crowd]\ndraws = \"" + strings.Repeat("x", 100) + "\"\n", "plan.toml:1: note = 1: want a string of text, not a whole number"},
		{"a long string shown short", "[crowd]\ndraws = \"" + strings.Repeat("x", 100) + "\"\n", `plan.toml:2: crowd.draws = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...": want "reference" or "independent"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode("plan.toml", []byte(tt.text))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("got %+v, %v; want a *Error", got, err)
			}
			if err.Error() != tt.want {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
			if pe.File != "plan.toml" || strings.Contains(pe.Msg, "\n") {
				t.Errorf("got file %q, message %q; want plan.toml and one line", pe.File, pe.Msg)
			}
			if !got.Equal(Plan{}) {
				t.Errorf("got plan %+v with the error, want none", got)
			}
		})
	}
}

// Every key's line is where it is first named: a table made by dotted keys
// or by a header below it takes that line; a key with a comma or a dot in
// its quoted name has its own.
func TestPlanKeyLine(t *testing.T) {
	text := "a = 1\n\"b c\" = 2\nd.e = 3\n[f]\n\"g.h\" = [\n1]\n[i.j]\nk = 4\n[f.\"x,y\"]\n\"\\u0041\" = {m = 5,\n n = 6}\n"
	var raw map[string]any
	md, err := toml.Decode(text, &raw)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"a": 1, `"b c"`: 2, "d.e": 3, "d": 3, "f": 4, `f."g.h"`: 5, "i": 7, "i.j": 7, "i.j.k": 8,
		`f."x,y"`: 9, `f."x,y".A`: 10, `f."x,y".A.m`: 10, `f."x,y".A.n`: 11}
	keys := append(md.Keys(), toml.Key{"d"}, toml.Key{"i"})
	lines, _, bound, read := scanPlan(text)
	if bound != "" || !read {
		t.Fatalf("got bound %q, read %v; want none passed and the text read", bound, read)
	}
	for _, k := range keys {
		if got := lines.of(k); got != want[k.String()] {
			t.Errorf("%s: got line %d, want %d", k, got, want[k.String()])
		}
	}
	if len(keys) != len(want) {
		t.Errorf("got %d keys, want %d: %v", len(keys), len(want), keys)
	}
}

// applyFlags applies flags as the command line would, from the defaults, to
// check that Flags says everything a plan holds but its note.
func applyFlags(t *testing.T, flags []string) Plan {
	t.Helper()
	p := Default()
	fields := map[string]backoff.Field{"first-wait": backoff.FirstWait, "longest": backoff.LongestWait, "attempts": backoff.Attempts,
		"clients": backoff.Clients, "outage": backoff.Outage, "seed": backoff.Seed, "slot": backoff.Slot, "max-elapsed": backoff.MaxElapsed,
		"capacity": backoff.Capacity, "load": backoff.Load, "load-until": backoff.LoadUntil, "processes": backoff.Processes,
		"queue": backoff.Queue, "timeout": backoff.Timeout, "custom-first-wait": backoff.CustomFirstWait, "custom-longest": backoff.CustomLongestWait,
		"custom-attempts": backoff.CustomAttempts, "custom-max-elapsed": backoff.CustomMaxElapsed,
		"outage-hang": backoff.OutageHang, "retry-after": backoff.RetryAfter}
	for i := 0; i < len(flags); i += 2 {
		name := strings.TrimPrefix(flags[i], "--")
		if name == "drop-expired" { // a switch: no value follows
			p.Settings.DropExpired = true
			i--
			continue
		}
		if i+1 >= len(flags) {
			t.Fatalf("flags %q: --%s has no value", flags, name)
		}
		value := flags[i+1]
		var err error
		switch name {
		case "queue-order":
			p.Settings.QueueOrder, err = backoff.ParseQueueOrder(value)
		case "growth":
			p.Settings.Growth, err = backoff.ParseGrowth(value)
		case "multiplier":
			m, ok := backoff.ParseThousandths(value)
			if !ok {
				err = errors.New("not a decimal")
			}
			p.Settings.Multiplier = m
		case "jitter":
			p.Settings.Jitter, err = backoff.ParseJitter(value)
		case "draws":
			p.Settings.Draws, err = backoff.ParseDraws(value)
		case "budget":
			p.Settings.Budget, err = backoff.ParseBudget(value)
		case "breaker":
			p.Settings.Breaker, err = backoff.ParseBreaker(value)
		case "processes":
			n, ok := backoff.ParseProcesses(value)
			if !ok {
				err = errors.New("not a number nor clients")
			}
			p.Settings.Processes = n
		case "policies":
			p.Policies = strings.Split(value, ",")
		case "seeds":
			p.Seeds, err = strconv.Atoi(value)
		case "seed-draws":
			p.SeedDraws, err = backoff.ParseDraws(value)
		case "goal":
			var g advice.Goal
			g, err = advice.ParseGoal(value)
			p.Goals = p.Goals.With(g)
		default:
			f, ok := fields[name]
			if !ok {
				t.Fatalf("--%s: not a flag", name)
			}
			// As the command line reads them: a time with its unit.
			n, ok := backoff.ParseCount(value)
			if f.IsTime() {
				n, ok = backoff.ParseTimeUnit(value)
			}
			if !ok {
				err = errors.New("not a number, or a time without its unit")
			}
			p.Settings.Set(f, n)
		}
		if err != nil {
			t.Fatalf("--%s %q: %v", name, value, err)
		}
	}
	return p
}

func TestPlanFlags(t *testing.T) {
	if got := Flags(Default()); len(got) != 0 {
		t.Errorf("the defaults: got %q, want no flags", got)
	}
	// Times carry their unit (issue 24, item 5), in the shortest form.
	want := "retry-planner crowd --first-wait 250ms --longest 2m --attempts 8 --clients 20000 --outage 30s --seed 42 --slot 1s " +
		"--custom-first-wait 250ms --custom-longest 2m --custom-attempts 5 " +
		"--growth linear --multiplier 1.6 --jitter spread:0.2 --max-elapsed 5m --custom-max-elapsed 0 --capacity 2000 --load 500 --load-until 2m " +
		"--budget grpc:10:0.1 --processes 20 --queue 4000 --timeout 2.5s --drop-expired --queue-order lifo " +
		"--outage-hang 3s --breaker 5:30s --retry-after 1.5s " +
		"--policies full-jitter,fixed,custom,grpc --seeds 200 --seed-draws reference"
	if got := CommandLine(richPlan()); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Independent draws are the default (issue 19 item 7): the
	// reference's are the flag.
	ref := Default()
	ref.Settings.Draws = backoff.Reference
	if got, want := CommandLine(ref), "retry-planner crowd --draws reference"; got != want {
		t.Errorf("reference draws: got %q, want %q", got, want)
	}
	r := rand.New(rand.NewPCG(10, 2))
	for i := range 2000 {
		p := randomPlan(r)
		got := applyFlags(t, Flags(p))
		want := p
		want.Note = ""
		for j, n := range want.Policies {
			want.Policies[j] = policyFlagName(n)
		}
		if !got.Equal(want) {
			t.Fatalf("plan %d: the flags %q give %+v, want %+v", i, Flags(p), got, want)
		}
		flags := Flags(p)
		for j, f := range flags {
			goal := j > 0 && flags[j-1] == "--goal" // not-through<=1%: CommandLine quotes it
			if f == "" || !goal && strings.ContainsAny(f, " \t\n'\"\\$`;&|<>()*?[]#~") {
				t.Fatalf("plan %d: flag %q would need quoting in a shell", i, f)
			}
			if goal && !strings.Contains(CommandLine(p), " --goal '"+f+"'") {
				t.Fatalf("plan %d: %s does not quote the goal %q", i, CommandLine(p), f)
			}
		}
	}
}

func TestPlanValidate(t *testing.T) {
	bad := func(change func(p *Plan)) Plan {
		p := Default()
		change(&p)
		return p
	}
	tests := []struct {
		plan Plan
		want string
	}{
		{bad(func(p *Plan) { p.Settings.Attempts = 500 }), "policy.attempts = 500: want a whole number from 2 to 100"},
		{bad(func(p *Plan) { p.Settings.FirstWait = 20000 }), "policy.longest_wait_ms = 16000: want a time from 20000 ms (the first wait) to 3600000 ms"},
		{bad(func(p *Plan) { p.Seeds = -1 }), "spread.seeds = -1: want a whole number from 0 (none) to 10000"},
		{bad(func(p *Plan) { p.Policies = []string{"fixed", "FIXED"} }), `policies: "fixed" and "FIXED" name the same policy: name each once`},
		{bad(func(p *Plan) { p.SeedDraws = 7 }), `spread.draws: Draws(7): want "reference" or "independent"`},
		{bad(func(p *Plan) { p.Note = "\xff" }), "note: not UTF-8 text"},
		{bad(func(p *Plan) { p.Settings.Jitter.Factor = 3 }), "custom.jitter: kind none with factor 3: want none, full, equal, decorrelated, spread:F or up:F (F from 0.001 to 1)"},
		{bad(func(p *Plan) { p.Settings.Queue = -1 }), "service.queue = -1: want a whole number from 0 to 10000000"},
		{bad(func(p *Plan) { p.Settings.Queue = 1 }), "service.queue = 1: a queue needs a capacity to serve it: set capacity_per_second, or queue = 0"},
		{bad(func(p *Plan) { p.Settings.Timeout = 1 }), "service.timeout_ms = 1: a timeout needs a queue to wait in: set queue, or timeout_ms = 0"},
		{bad(func(p *Plan) { p.Settings.OutageHang = -1 }), "guards.outage_hang_ms = -1: want a time from 0 to 3600000 ms"},
		{bad(func(p *Plan) { p.Settings.RetryAfter = backoff.MaxWait + 1 }), "guards.retry_after_ms = 3600001: want a time from 0 to 3600000 ms"},
		{bad(func(p *Plan) { p.Settings.Breaker = backoff.Breaker{Failures: 1001, Open: 1} }), "breaker: 1001 consecutive failures is not from 1 to 1000: write F:D, such as 5:30s, or none"},
		{bad(func(p *Plan) { p.Settings.DropExpired = true }), "service.drop_expired = true: only a queue holds expired requests: set queue, or drop_expired = false"},
		{bad(func(p *Plan) { p.Settings.QueueOrder = backoff.LIFO }), `service.queue_order = "lifo": lifo takes the newest request from a queue: set queue, or queue_order = "fifo"`},
	}
	for _, tt := range tests {
		if err := tt.plan.Validate(); err == nil || err.Error() != tt.want {
			t.Errorf("got %v, want %s", err, tt.want)
		}
	}
	if err := richPlan().Validate(); err != nil {
		t.Errorf("the rich plan: got %v, want nil", err)
	}
}

func TestPlanPolicyList(t *testing.T) {
	five, err := Default().PolicyList()
	if err != nil || len(five) != backoff.NumShapes || five[2].Name != "full jitter" {
		t.Errorf("the defaults: got %v, %v; want the five", five, err)
	}
	list, err := richPlan().PolicyList()
	var names []string
	for _, p := range list {
		names = append(names, p.Name)
	}
	if err != nil || !slices.Equal(names, []string{"full jitter", "fixed", "custom", "grpc"}) || list[2].Multiplier != 1600 {
		t.Errorf("the rich plan: got %q, %v; want full jitter, fixed, custom (x1.6) and grpc", names, err)
	}
}

// A plan without a growth (every plan written before it) is exponential;
// growth = "linear" makes custom linear and leaves the five and the
// multiplier alone; Encode writes it back and Flags says --growth linear.
func TestDecodePlanGrowth(t *testing.T) {
	old := "[custom]\nfirst_wait_ms = 1000\nlongest_wait_ms = 5000\nmultiplier = 3\n"
	got, err := Decode("old.toml", []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if got.Settings.Growth != backoff.GrowthExponential {
		t.Errorf("a plan without growth: got %v, want exponential", got.Settings.Growth)
	}
	if c := got.Settings.Custom(); c.Base(2) != 3000 {
		t.Errorf("a plan without growth: custom's d(2) = %d, want 3000 (x3)", c.Base(2))
	}
	for _, spelled := range []string{"linear", "Linear", "LINEAR"} {
		got, err = Decode("linear.toml", []byte(old+"growth = \""+spelled+"\"\n"))
		if err != nil {
			t.Fatalf("growth = %q: %v", spelled, err)
		}
		s := got.Settings
		c := s.Custom()
		var waits []int
		for k := 1; k < 6; k++ {
			waits = append(waits, c.Base(k))
		}
		if s.Growth != backoff.GrowthLinear || s.Multiplier != 3000 || !slices.Equal(waits, []int{1000, 2000, 3000, 4000, 5000}) {
			t.Errorf("growth = %q: got growth %v, multiplier %d, custom's d(1..5) %v; want linear, 3000, 1000 to 5000 by 1000", spelled, s.Growth, s.Multiplier, waits)
		}
		for _, p := range s.Five() {
			if p.Growth != backoff.GrowthExponential {
				t.Errorf("growth = %q: %s got growth %v, want the five exponential", spelled, p.Name, p.Growth)
			}
		}
		text := Encode(got)
		if !strings.Contains(text, "\ngrowth = \"linear\"\n") {
			t.Errorf("growth = %q: Encode has no growth = \"linear\":\n%s", spelled, text)
		}
		if again, err := Decode("again.toml", []byte(text)); err != nil || !again.Equal(got) {
			t.Errorf("growth = %q written and read again: got %+v, %v; want %+v", spelled, again, err, got)
		}
		if flags := strings.Join(Flags(got), " "); !strings.Contains(flags, "--growth linear") {
			t.Errorf("growth = %q: Flags %q, want --growth linear", spelled, flags)
		}
	}
	if flags := strings.Join(Flags(Default()), " "); strings.Contains(flags, "growth") {
		t.Errorf("the defaults' flags: got %q, want no --growth", flags)
	}
}
