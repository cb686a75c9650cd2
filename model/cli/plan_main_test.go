package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/plan"
)

// Plans on the command line: --plan sets every setting in its place among
// the flags, --save-plan writes the plan a report ran, and a plan saved and
// loaded gives the same report, byte for byte.

// testPlan sets every key away from its default; its crowd is small, so
// that its reports are quick.
const testPlan = `note = "a plan of the tests"
policies = ["full jitter", "custom", "grpc"]

[policy]
first_wait_ms = 250
longest_wait_ms = "20s"
attempts = 7
max_elapsed_ms = 60000

[custom]
multiplier = 1.5
jitter = "equal"

[crowd]
clients = 300
outage_ms = 5000
seed = 11
slot_ms = 250
draws = "independent"

[service]
capacity_per_second = 400
load_per_second = 50
load_until_ms = 30000
budget = "aws:500:5"
processes = 2
queue = 120
timeout_ms = "900ms"
drop_expired = true
queue_order = "lifo"

[spread]
seeds = 4
draws = "reference"
`

// writeFile writes text to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// decodedTestPlan is testPlan as views reads it.
func decodedTestPlan(t *testing.T) plan.Plan {
	t.Helper()
	p, err := plan.Decode("plan.toml", []byte(testPlan))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// planFlagsFor are the flags that say what the plan says, for a command:
// crowd takes them all; timeline its settings and the seeds' draws;
// schedule and jobs the same without --slot.
func planFlagsFor(p plan.Plan, command string) []string {
	all := plan.Flags(p)
	var out []string
	for i := 0; i < len(all); i++ {
		if all[i] == "--drop-expired" { // a switch: no value
			out = append(out, all[i])
			continue
		}
		switch name := all[i]; {
		case i+1 >= len(all):
		case command != "crowd" && (name == "--policies" || name == "--seeds"):
		case (command == "schedule" || command == "jobs") && name == "--slot":
		default:
			out = append(out, all[i], all[i+1])
		}
		i++
	}
	return out
}

// --plan sets every setting, and the flags override it wherever they
// stand, before it or after it. Each case runs the same report as its
// flags written out.
func TestPlanAmongFlags(t *testing.T) {
	dir := t.TempDir()
	plan := writeFile(t, dir, "plan.toml", testPlan)
	p := decodedTestPlan(t)
	crowd, timeline, schedule := planFlagsFor(p, "crowd"), planFlagsFor(p, "timeline"), planFlagsFor(p, "schedule")
	cat := func(parts ...[]string) []string { return slices.Concat(parts...) }
	tests := []struct {
		name      string
		args, two []string
	}{
		{"the plan alone", []string{"crowd", "--plan", plan}, cat([]string{"crowd"}, crowd)},
		{"the plan before the command", []string{"--plan", plan, "crowd", "--format", "json"}, cat([]string{"crowd", "--format", "json"}, crowd)},
		{"a flag after it", []string{"--plan", plan, "crowd", "--attempts", "3"}, cat([]string{"crowd"}, crowd, []string{"--attempts", "3"})},
		{"a flag before it", []string{"crowd", "--attempts", "3", "--plan", plan}, cat([]string{"crowd"}, crowd, []string{"--attempts", "3"})},
		{"a preset before it", []string{"--preset", "aws", "crowd", "--plan", plan, "--format", "csv"}, cat([]string{"crowd", "--format", "csv"}, crowd, []string{"--preset", "aws"})},
		{"a jitter after it adds nothing to its policies", []string{"crowd", "--plan", plan, "--jitter", "full"}, cat([]string{"crowd"}, crowd, []string{"--jitter", "full"})},
		{"--policies after it", []string{"crowd", "--plan", plan, "--policies", "fixed,aws"}, cat([]string{"crowd"}, crowd, []string{"--policies", "fixed,aws"})},
		{"--policies before it", []string{"crowd", "--policies", "fixed,aws", "--plan", plan}, cat([]string{"crowd"}, crowd, []string{"--policies", "fixed,aws"})},
		{"--seeds after it", []string{"crowd", "--plan", plan, "--seeds", "2"}, cat([]string{"crowd"}, crowd, []string{"--seeds", "2"})},
		{"--seeds before it", []string{"crowd", "--seeds", "9", "--plan", plan}, cat([]string{"crowd"}, crowd, []string{"--seeds", "9"})},
		{"--draws after it draws the spread too", []string{"crowd", "--plan", plan, "--draws", "independent"},
			cat([]string{"crowd"}, crowd, []string{"--draws", "independent", "--seed-draws", "independent"})},
		{"--seed-draws after it", []string{"crowd", "--plan", plan, "--seed-draws", "independent", "--draws", "reference"},
			cat([]string{"crowd"}, crowd, []string{"--draws", "reference", "--seed-draws", "independent"})},
		{"--seed-draws before it", []string{"--seed-draws", "independent", "crowd", "--plan", plan}, cat([]string{"crowd"}, crowd, []string{"--seed-draws", "independent"})},
		{"a second plan", []string{"--plan", writeFile(t, dir, "other.toml", "[crowd]\nclients = 5\n"), "crowd", "--plan", plan}, cat([]string{"crowd"}, crowd)},
		{"timeline: --policy all runs its policies at its slot", []string{"timeline", "--plan", plan, "--policy", "all"},
			cat([]string{"timeline"}, timeline, []string{"--policies", "full-jitter,custom,grpc"})},
		{"timeline: --slot before it", []string{"timeline", "--slot", "2s", "--plan", plan, "--policy", "fixed", "--format", "csv"},
			cat([]string{"timeline", "--policy", "fixed", "--format", "csv"}, timeline, []string{"--slot", "2s"})},
		{"timeline: --slot after it", []string{"timeline", "--plan", plan, "--slot", "2s", "--policy", "fixed"},
			cat([]string{"timeline", "--policy", "fixed"}, timeline, []string{"--slot", "2s"})},
		{"schedule: its slot is no --slot", []string{"schedule", "--plan", plan, "--policy", "custom", "--client", "9"},
			cat([]string{"schedule", "--policy", "custom", "--client", "9"}, schedule)},
		{"jobs", []string{"jobs", "--plan", plan, "--policy", "grpc", "a:2", "b:9", "--format", "json"},
			cat([]string{"jobs", "--policy", "grpc", "a:2", "b:9", "--format", "json"}, schedule)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := reportOf(t, tt.args...), reportOf(t, tt.two...); got != want {
				t.Errorf("%q: got\n%s\nwant what %q prints\n%s", tt.args, got, tt.two, want)
			}
		})
	}
	// The full-screen program and every other mode but --plain take it.
	opts, err := parseArgs([]string{"--plan", plan, "--clients", "9"})
	if err != nil {
		t.Fatal(err)
	}
	want := p.Settings
	want.Clients = 9
	if opts.settings != want {
		t.Errorf("--plan FILE --clients 9: settings %+v, want %+v", opts.settings, want)
	}
}

// A report saved with --save-plan and loaded with --plan gives the same
// report byte for byte, and --save-plan does not change the report; the
// plan saved from the loaded plan is the same file.
func TestSavePlanRoundTrip(t *testing.T) {
	service := serviceSettings()
	tests := []struct {
		name       string
		save, load []string // load is the command and its own flags; the plan brings the rest
	}{
		{"crowd", []string{"crowd"}, []string{"crowd"}},
		{"crowd with settings", append([]string{"crowd", "--slot", "250ms", "--preset", "grpc", "--attempts", "8"}, otherSettings()...), []string{"crowd"}},
		{"crowd policies", []string{"crowd", "--policies", "decorrelated,aws,custom", "--jitter", "up:0.3", "--max-elapsed", "20s"}, []string{"crowd"}},
		{"crowd service", append([]string{"crowd", "--budget", "grpc:10:0.1", "--processes", "4"}, service...), []string{"crowd", "--format", "csv"}},
		{"crowd seeds", []string{"crowd", "--seeds", "20", "--clients", "100"}, []string{"crowd", "--format", "json"}},
		{"crowd seeds, reference draws", []string{"crowd", "--seeds", "20", "--draws", "reference"}, []string{"crowd"}},
		{"crowd seeds, two draws", []string{"crowd", "--seeds", "20", "--draws", "independent", "--seed-draws", "reference"}, []string{"crowd"}},
		{"crowd seeds service", append([]string{"crowd", "--seeds", "5", "--policies", "exponential,full-jitter"}, service...), []string{"crowd"}},
		{"timeline", []string{"timeline", "--policy", "equal jitter"}, []string{"timeline", "--policy", "equal-jitter"}},
		{"timeline slot", []string{"timeline", "--policy", "full-jitter", "--slot", "100ms", "--draws", "independent"}, []string{"timeline", "--policy", "full-jitter", "--format", "csv"}},
		{"timeline all", []string{"timeline", "--policy", "all", "--jitter", "full"}, []string{"timeline", "--policy", "all", "--format", "json"}},
		{"timeline policies", append([]string{"timeline", "--policies", "fixed,full-jitter", "--slot", "5s"}, service...), []string{"timeline", "--policy", "all"}},
		{"schedule", []string{"schedule", "--policy", "full jitter", "--client", "2"}, []string{"schedule", "--policy", "full jitter", "--client", "2"}},
		{"schedule service", append([]string{"schedule", "--policy", "exponential", "--client", "7"}, service...), []string{"schedule", "--policy", "exponential", "--client", "7", "--format", "json"}},
		{"schedule custom", []string{"schedule", "--preset", "cenkalti", "--multiplier", "2", "--policy", "custom"}, []string{"schedule", "--policy", "custom"}},
		{"schedule custom linear", []string{"schedule", "--growth", "linear", "--custom-longest", "5s", "--policy", "custom"}, []string{"schedule", "--policy", "custom", "--format", "json"}},
		{"crowd linear preset", []string{"crowd", "--preset", "aws", "--growth", "linear"}, []string{"crowd"}},
		{"crowd custom's own", []string{"crowd", "--preset", "grpc", "--custom-attempts", "3", "--custom-max-elapsed", "1m", "--attempts", "4"}, []string{"crowd", "--format", "json"}},
		{"crowd custom's own, following", []string{"crowd", "--custom-longest", "1m", "--first-wait", "2s", "--longest", "30s"}, []string{"crowd"}},
		{"jobs", []string{"jobs", "--policy", "grpc", "alpha:0", "bravo:2"}, []string{"jobs", "--policy", "grpc", "alpha:0", "bravo:2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			saved := filepath.Join(dir, "saved.toml")
			direct := reportOf(t, tt.save...)
			if got := reportOf(t, append(slices.Clone(tt.save), "--save-plan", saved)...); got != direct {
				t.Errorf("%q with --save-plan: got\n%s\nwant what it prints without\n%s", tt.save, got, direct)
			}
			want := reportOf(t, slices.Concat(tt.save, formatOf(tt.load))...)
			got := reportOf(t, append(slices.Clone(tt.load), "--plan", saved)...)
			if got != want {
				t.Errorf("%q --plan saved: got\n%s\nwant what %q prints\n%s", tt.load, got, tt.save, want)
			}
			again := filepath.Join(dir, "again.toml")
			reportOf(t, append(slices.Clone(tt.load), "--plan", saved, "--save-plan", again)...)
			first, _ := os.ReadFile(saved)
			second, _ := os.ReadFile(again)
			if string(first) != string(second) {
				t.Errorf("the plan saved from the loaded plan differs:\n%s\nwant\n%s", second, first)
			}
		})
	}
}

// formatOf is a command line's --format flag, if any.
func formatOf(args []string) []string {
	if i := slices.Index(args, "--format"); i >= 0 && i+1 < len(args) {
		return args[i : i+2]
	}
	return nil
}

// The plan --save-plan writes is the plan the report ran, its policies and
// seeds included, with the comments of plan.Encode.
func TestSavePlanHolds(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "p.toml")
	reportOf(t, "crowd", "--seeds", "12", "--policies", "fixed,grpc", "--clients", "90", "--seed-draws", "reference", "--save-plan", saved)
	text, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Decode(saved, text)
	if err != nil {
		t.Fatal(err)
	}
	want := plan.Default()
	want.Settings.Clients, want.Policies, want.Seeds, want.SeedDraws = 90, []string{"fixed", "grpc"}, 12, backoff.Reference
	if !p.Equal(want) {
		t.Errorf("saved %+v, want %+v", p, want)
	}
	if string(text) != plan.Encode(want) {
		t.Errorf("saved\n%s\nwant plan.Encode's\n%s", text, plan.Encode(want))
	}
	// The defaults' plan is the one in views' goldens, the five named.
	reportOf(t, "schedule", "--policy", "fixed", "--save-plan", filepath.Join(dir, "d.toml"))
	got, _ := os.ReadFile(filepath.Join(dir, "d.toml"))
	golden, _ := os.ReadFile(filepath.Join("..", "..", "backoff", "plan", "testdata", "plans", "defaults.toml"))
	if want := strings.Replace(string(golden), `# policies = ["fixed", "exponential", "full jitter", "equal jitter", "decorrelated"]`, `policies = ["fixed"]`, 1); string(got) != want {
		t.Errorf("schedule --policy fixed saved\n%s\nwant\n%s", got, want)
	}
}

// listDir is the names in dir.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// A plan that cannot be used: exit 2, nothing on standard output, one line
// on standard error naming the file, the line and the rule, and nothing
// written or changed, --out's and --save-plan's files included.
func TestPlanErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       string // the whole message after "retry-planner: "
	}{
		{"unknown key", "[crowd]\nclients = 5\n\n[policy]\nattempts = 3\nfirst_wait = 100\n",
			"plan.toml:6: policy.first_wait: not a key of [policy], which takes first_wait_ms, longest_wait_ms, attempts and max_elapsed_ms"},
		{"unknown table", "# a comment\n[crowds]\nclients = 5\n",
			"plan.toml:2: crowds: not a key of a plan, which takes note, policies, [policy], [custom], [crowd], [service], [guards], [spread] and [goals]"},
		{"key in the wrong case", "[crowd]\nClients = 5\n", "plan.toml:2: crowd.Clients: not a key of [crowd], which takes clients, outage_ms, seed, slot_ms and draws"},
		{"wrong type", "note = \"x\"\n\n[crowd]\nclients = \"many\"\n",
			`plan.toml:4: crowd.clients = "many": want a whole number from 1 to 10000000, not a string`},
		{"a decimal for a count", "[policy]\nattempts = 4.5\n", "plan.toml:2: policy.attempts = 4.5: want a whole number from 2 to 100, not a decimal"},
		{"out of range", "[policy]\n\n\n\n\nfirst_wait_ms = 10\nattempts = 500\n", "plan.toml:7: policy.attempts = 500: want a whole number from 2 to 100"},
		{"out of the range another key sets", "[policy]\nfirst_wait_ms = 5000\nlongest_wait_ms = 4000\n",
			"plan.toml:3: policy.longest_wait_ms = 4000: want a time from 5000 ms (the first wait) to 3600000 ms"},
		{"no such policy", "policies = [\"fixed\", \"fast\"]\n", `plan.toml:1: policies = ["fixed", "fast"]: "fast" is not a policy: want fixed, exponential, full jitter, equal jitter or decorrelated; custom; or a preset: grpc, aws, cenkalti, retryablehttp, client-go, envoy or polly`},
		{"bad jitter", "[custom]\njitter = \"some\"\n", `plan.toml:2: custom.jitter = "some": want none, full, equal, decorrelated, spread:F or up:F (F from 0.001 to 1)`},
		{"not TOML", "[crowd]\nclients = 5\nseed = = 3\n", "plan.toml:3: not TOML: expected value but found '=' instead"},
		{"not TOML either", "[crowd\n", "plan.toml:1: not TOML: expected '.' or ']' to end table name, but got '\\n' instead"},
		{"too big", strings.Repeat("# a line of a plan\n", plan.MaxBytes/19+1),
			"plan.toml:1: a plan of more than 1048576 bytes: want at most 1048576 (a plan is a page of settings)"},
	}
	for _, tt := range tests {
		for _, how := range [][]string{
			{"crowd", "--plan", "plan.toml"},
			{"--plan", "plan.toml", "timeline", "--policy", "all"},
			{"schedule", "--policy", "fixed", "--plan", "plan.toml"},
			{"--plan", "plan.toml"}, // the full-screen program
			{"crowd", "--compare", "plan.toml"},
		} {
			t.Run(tt.name+" "+strings.Join(how, " "), func(t *testing.T) {
				dir := t.TempDir()
				t.Chdir(dir)
				writeFile(t, dir, "plan.toml", tt.text)
				writeFile(t, dir, "old.txt", "the report before\n")
				args := append(slices.Clone(how), "--attempts", "5")
				if len(how) > 2 {
					args = append(args, "--out", "old.txt", "--save-plan", "new.toml", "--force")
				}
				out, errs, code := runArgs(t, "", args...)
				if code != 2 || out != "" || errs != "retry-planner: "+tt.want+"\n" {
					t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing and %q", args, code, out, errs, "retry-planner: "+tt.want+"\n")
				}
				if names := listDir(t, dir); !slices.Equal(names, []string{"old.txt", "plan.toml"}) {
					t.Errorf("%q: the directory holds %q, want the plan and old.txt alone", args, names)
				}
				if old, _ := os.ReadFile(filepath.Join(dir, "old.txt")); string(old) != "the report before\n" {
					t.Errorf("%q: old.txt holds %q, want it as it was", args, old)
				}
			})
		}
	}
}

// A plan's file that cannot be read, and --plan where it does not go.
func TestPlanFileErrors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, dir, "plan.toml", testPlan)
	if err := os.Mkdir("folder", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []errorCase{
		{[]string{"crowd", "--plan", "missing.toml"}, []string{"--plan missing.toml: no such file"}},
		{[]string{"crowd", "--compare", "missing.toml"}, []string{"--compare missing.toml: no such file"}},
		{[]string{"crowd", "--plan", "folder"}, []string{"--plan folder: is a directory"}},
		{[]string{"crowd", "--plan", ""}, []string{`--plan "": want a plan's file name`}},
		{[]string{"crowd", "--plan", "my plan.toml"}, []string{`--plan "my plan.toml": no such file`}},
		{[]string{"crowd", "--plan"}, []string{"--plan needs a value", "a plan's file"}},
		{[]string{"--plain", "--plan", "plan.toml"}, []string{"--plain keeps the reference's settings and takes no --plan:"}},
		{[]string{"--plan", "plan.toml", "--plain"}, []string{"--plain keeps the reference's settings and takes no --plan:"}},
		{[]string{"--plain", "--plan", "missing.toml"}, []string{"takes no --plan"}},
		{[]string{"--plain", "--seed-draws", "reference"}, []string{"--plain keeps the reference's settings and takes no --seed-draws:"}},
		{[]string{"crowd", "--seed-draws", "lattice"}, []string{`--seed-draws lattice: want reference or independent`}},
		{[]string{"timeline", "--plan", "plan.toml"}, []string{"timeline needs --policy", "--policy all runs the plan's"}},
		// A plan's values are checked again with the flags after it.
		{[]string{"crowd", "--plan", "plan.toml", "--first-wait", "30s"}, []string{"--longest 20s (from --plan plan.toml): want 30000 ms (the first wait)"}},
		{[]string{"crowd", "--plan", "plan.toml", "--load", "1000000", "--load-until", "601s"}, []string{"--load 1000000 until 601000 ms"}},
	} {
		checkUsageError(t, tt.args, tt.want...)
	}
}

// The README shows the first lines of the defaults' plan, as plan's
// golden of Encode(Default()) holds it.
func TestReadmePlanHead(t *testing.T) {
	readme := readFile(t, filepath.Join("..", "..", "README.md"))
	const marker = "<!-- head of backoff/plan/testdata/plans/defaults.toml -->\n```toml\n"
	_, after, ok := strings.Cut(readme, marker)
	if !ok {
		t.Fatal("the README shows no plan")
	}
	block, _, _ := strings.Cut(after, "```\n")
	head := strings.TrimSuffix(block, "...\n")
	file := filepath.Join("..", "..", "backoff", "plan", "testdata", "plans", "defaults.toml")
	if text := readFile(t, file); len(head) < 500 || !strings.HasPrefix(text, head) {
		t.Errorf("the README's plan is not the start of %s:\n%s", file, head)
	}
}

// The README is a door, not the house (issue 18): at most 300 lines, the
// two set-up commands in its first 40, no link out of the repository, and
// every file it names in a link is in it.
func TestReadmeIsADoor(t *testing.T) {
	readme := readFile(t, filepath.Join("..", "..", "README.md"))
	lines := strings.Split(strings.TrimSuffix(readme, "\n"), "\n")
	if len(lines) > 300 {
		t.Errorf("the README has %d lines, want at most 300", len(lines))
	}
	first := strings.Join(lines[:min(40, len(lines))], "\n")
	for _, cmd := range []string{"go run .", "go test ./..."} {
		if !strings.Contains(first, "\n"+cmd+" ") {
			t.Errorf("the README's first 40 lines do not give %q", cmd)
		}
	}
	if strings.Contains(readme, "../") {
		t.Errorf("the README links outside the repository (../)")
	}
	for _, m := range regexp.MustCompile(`\]\(([^)#]+)\)`).FindAllStringSubmatch(readme, -1) {
		if strings.Contains(m[1], "://") {
			continue
		}
		if _, err := os.Stat(filepath.Join("..", "..", m[1])); err != nil {
			t.Errorf("the README links %s: %v", m[1], err)
		}
	}
}
