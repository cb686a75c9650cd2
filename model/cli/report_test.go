package cli

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	vpicture "github.com/retryplanner/retry-planner/views/picture"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/plan"
	"github.com/retryplanner/retry-planner/model"
	"github.com/retryplanner/retry-planner/views/pane"

	_ "github.com/charmbracelet/x/exp/golden" // registers -update
)

// updating reports whether the golden package's -update flag is set:
//
//	go test -run 'Golden' . -update
//
// rewrites testdata/reports from the program's output. The flag is the
// golden package's, registered when it is imported, so every package's
// goldens are rewritten the same way.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// runArgs runs the program on args with stdin and returns what it wrote and
// its exit status.
func runArgs(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// report runs a report command that must succeed and returns its output.
func reportOf(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := runArgs(t, "", args...)
	if code != 0 || errs != "" {
		t.Fatalf("%q: exit %d, stderr %q; want 0 and nothing", args, code, errs)
	}
	return out
}

// otherSettings is the one setting besides the defaults that every report
// is pinned at.
func otherSettings() []string {
	return []string{"--first-wait", "250ms", "--longest", "20s", "--attempts", "8", "--clients", "50", "--outage", "5s", "--seed", "42"}
}

// reportCase is one report, in every format, at one setting.
type reportCase struct {
	name string // the golden's name under testdata/reports, less the extension
	args []string
}

// serviceSettings is a service that the crowd overloads: capacity, a fresh
// load and more clients than the capacity takes at once.
func serviceSettings() []string {
	return []string{"--clients", "2000", "--capacity", "500", "--load", "400", "--load-until", "40s"}
}

// largestSettings are the reference's largest waits, outage and crowd.
func largestSettings() []string {
	return []string{"--first-wait", "10s", "--longest", "10m", "--attempts", "12", "--clients", "1000", "--outage", "10m"}
}

func reportCases() []reportCase {
	other := otherSettings()
	with := func(args []string, more ...string) []string { return append(slices.Clone(more), args...) }
	service, largest := serviceSettings(), largestSettings()
	cases := []reportCase{
		{"defaults/schedule", []string{"schedule", "--policy", "full jitter", "--client", "2"}},
		{"defaults/crowd", []string{"crowd"}},
		{"defaults/crowd-seeds", []string{"crowd", "--seeds", "1000"}},
		{"defaults/timeline", []string{"timeline", "--policy", "equal jitter"}},
		{"defaults/timeline-all", []string{"timeline", "--policy", "all"}},
		{"defaults/jobs", []string{"jobs", "alpha:0", "bravo:2", "charlie:9", "delta:fatal"}},
		{"other/schedule", with(other, "schedule", "--policy", "equal-jitter", "--client", "50")},
		{"other/crowd", with(other, "crowd", "--slot", "250ms")},
		{"other/crowd-seeds", with(other, "crowd", "--seeds", "50", "--slot", "250ms")},
		{"other/timeline", with(other, "timeline", "--policy", "decorrelated", "--slot", "500ms", "--every", "500ms")},
		{"other/jobs", with(other, "jobs", "a:0", "b:3 c:9", "d:fatal", "e:7")},
		// One client, three tries: through in some seeds and not in others,
		// so percentiles of "all through by" land on both.
		{"other/crowd-seeds-none-through", []string{"crowd", "--seeds", "200", "--clients", "1", "--attempts", "3", "--outage", "2.5s"}},
		// The service: a capacity, a fresh load, and budgets.
		{"service/schedule", with(service, "schedule", "--policy", "exponential", "--client", "7")},
		{"service/jobs", with(service, "jobs", "--policy", "equal-jitter", "--budget", "aws:500:5", "alpha:0", "bravo:2", "charlie:9")},
		{"service/crowd", with(service, "crowd")},
		{"service/crowd-budget", with(service, "crowd", "--policies", "exponential,full-jitter", "--budget", "grpc:10:0.1", "--processes", "4")},
		{"service/crowd-aws", with(service, "crowd", "--policies", "exponential,aws", "--budget", "aws:500:5", "--max-elapsed", "30s")},
		{"service/crowd-seeds", append(with(service, "crowd", "--seeds", "10", "--policies", "exponential,decorrelated"), "--clients", "500")},
		{"service/timeline", with(service, "timeline", "--policy", "exponential", "--slot", "2s")},
		{"service/timeline-all", with(service, "timeline", "--policies", "fixed,full-jitter", "--slot", "5s")},
		// Presets and the policy of one's own.
		{"preset/schedule", []string{"schedule", "--policy", "grpc", "--client", "3"}},
		{"preset/schedule-custom", []string{"schedule", "--preset", "cenkalti", "--multiplier", "2", "--custom-max-elapsed", "1m", "--outage", "2m", "--policy", "custom"}},
		{"preset/crowd", []string{"crowd", "--preset", "grpc"}},
		{"preset/crowd-policies", []string{"crowd", "--policies", "exponential,grpc,aws,cenkalti,retryablehttp,client-go,envoy,polly", "--clients", "1000"}},
		{"preset/crowd-seeds", []string{"crowd", "--seeds", "100", "--policies", "full-jitter,grpc,aws"}},
		{"preset/timeline", []string{"timeline", "--policies", "exponential,retryablehttp,custom", "--jitter", "equal", "--multiplier", "1.5"}},
		{"preset/jobs", []string{"jobs", "--policy", "cenkalti", "alpha:0", "bravo:2", "charlie:999", "delta:fatal"}},
		// Independent draws, and reference draws cut short.
		{"independent/schedule", with(largest, "schedule", "--policy", "full-jitter", "--draws", "independent")},
		{"independent/crowd", []string{"crowd", "--draws", "independent"}},
		{"independent/crowd-seeds-reference", []string{"crowd", "--seeds", "200", "--draws", "reference"}},
		{"independent/timeline", []string{"timeline", "--policy", "full-jitter", "--draws", "independent", "--slot", "500ms", "--every", "500ms"}},
		{"independent/jobs", []string{"jobs", "--policy", "decorrelated", "--draws", "independent", "a:3", "b:3", "c:3"}},
		{"cut/schedule", with(largest, "schedule", "--policy", "full-jitter")},
		{"cut/crowd", with(largest, "crowd")},
		// The README's examples.
		{"readme/crowd-two", []string{"crowd", "--policies", "exponential,full-jitter"}},
		// The README's first question: will the service survive the retries?
		{"readme/survive", []string{"crowd", "--clients", "50000", "--outage", "30s", "--capacity", "2000", "--load", "1500", "--policies", "grpc,aws,full-jitter"}},
		{"readme/cut-short", []string{"schedule", "--policy", "full-jitter", "--first-wait", "10s", "--longest", "10m", "--attempts", "12"}},
		{"readme/metastable", with(metastable(), "crowd", "--policies", "fixed,exponential,full-jitter,decorrelated")},
		{"readme/metastable-hour", append(with(metastable(), "crowd", "--policies", "exponential,full-jitter"), "--load-until", "1h")},
		{"readme/metastable-budget", with(metastable(), "crowd", "--policies", "exponential,full-jitter", "--budget", "grpc:10:0.1")},
		// A service that queues: the worked metastable failure (the
		// README's), its three ways out and the service without a queue;
		// timelines of one policy and side by side; the spread over seeds.
		{"queue/metastable", with(queued(), "crowd", "--policies", "exponential")},
		{"queue/drop-expired", with(queued(), "crowd", "--policies", "exponential", "--drop-expired")},
		{"queue/lifo", with(queued(), "crowd", "--policies", "exponential", "--queue-order", "lifo")},
		{"queue/budget", with(queued(), "crowd", "--policies", "exponential", "--budget", "grpc:10:0.1")},
		{"queue/no-queue", with(queued()[:len(queued())-4], "crowd", "--policies", "exponential")},
		{"queue/timeline", with(queued(), "timeline", "--policy", "exponential", "--slot", "10s")},
		{"queue/timeline-all", with(queued(), "timeline", "--policies", "exponential,full-jitter", "--slot", "30s", "--drop-expired")},
		{"queue/crowd-seeds", with(queued(), "crowd", "--seeds", "5", "--policies", "exponential,full-jitter", "--queue-order", "lifo")},
		// The client's guards (issue 26): the README's three, each alone,
		// then all three together, and their timeline.
		{"guards/hang", with(guarded(), "crowd", "--policies", "exponential", "--outage-hang", "5s")},
		{"guards/breaker", with(guarded(), "crowd", "--policies", "exponential", "--breaker", "5:30s", "--processes", "10")},
		{"guards/retry-after", with(guarded(), "crowd", "--policies", "exponential", "--retry-after", "5s")},
		{"guards/all", with(guarded(), "crowd", "--policies", "exponential,full-jitter", "--outage-hang", "5s", "--breaker", "5:30s", "--processes", "10", "--retry-after", "5s")},
		{"guards/crowd-seeds", with(guarded(), "crowd", "--seeds", "10", "--policies", "exponential,full-jitter", "--breaker", "5:30s", "--processes", "10")},
		{"guards/timeline", with(guarded(), "timeline", "--policy", "exponential", "--outage-hang", "5s", "--breaker", "5:30s", "--processes", "10", "--retry-after", "5s", "--slot", "1s")},
	}
	// The reference's draws where a report shows the original program's
	// figures (its one seed, at its settings) or draws cut short; every
	// other report takes the default, independent draws.
	for i, rc := range cases {
		if reference := strings.HasPrefix(rc.name, "defaults/") || strings.HasPrefix(rc.name, "other/") || strings.HasPrefix(rc.name, "cut/") ||
			rc.name == "readme/cut-short"; reference && !slices.Contains(rc.args, "--seeds") {
			cases[i].args = append(slices.Clone(rc.args), "--draws", "reference")
		}
	}
	return cases
}

// queued is the worked metastable failure with a queue: 2,000
// clients, an outage of 30 s, 4 attempts, a capacity of 100 a second, a
// fresh load of 95 a second for 5 minutes, a queue of 1,000 and a timeout
// of 1 s; the queue's two flags last.
func queued() []string {
	return []string{"--clients", "2000", "--outage", "30s", "--attempts", "4", "--capacity", "100", "--load", "95", "--load-until", "5m",
		"--queue", "1000", "--timeout", "1s"}
}

// guarded is the README's scenario of the client's guards: 1,000
// clients, a capacity of 100 a second and a fresh load of 50 a second.
func guarded() []string { return []string{"--clients", "1000", "--capacity", "100", "--load", "50"} }

// metastable is the README's metastable failure: a load of 95% of the
// capacity, which un-jittered retries keep overloaded as long as it lasts.
func metastable() []string {
	return []string{"--clients", "2000", "--outage", "30s", "--attempts", "12", "--capacity", "100", "--load", "95", "--load-until", "10m"}
}

func formatsAndExtensions() [][2]string {
	return [][2]string{{"text", ".txt"}, {"csv", ".csv"}, {"json", ".json"}}
}

// checkGolden compares got with the file, or rewrites it under
// -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s: got\n%s\nwant\n%s", path, got, want)
	}
}

// Every command in every format, at the defaults and at one other setting.
func TestReportGoldens(t *testing.T) {
	for _, rc := range reportCases() {
		for _, fe := range formatsAndExtensions() {
			t.Run(rc.name+fe[1], func(t *testing.T) {
				args := append(append([]string(nil), rc.args...), "--format", fe[0])
				checkGolden(t, filepath.Join(repoTestdata, "reports", rc.name+fe[1]), reportOf(t, args...))
			})
		}
	}
}

// Without --format a report is text.
func TestReportTextIsTheDefault(t *testing.T) {
	for _, rc := range reportCases() {
		got, want := reportOf(t, rc.args...), reportOf(t, append(rc.args, "--format", "text")...)
		if got != want {
			t.Errorf("%s without --format: got\n%s\nwant\n%s", rc.name, got, want)
		}
	}
}

func TestHelpGoldens(t *testing.T) {
	cases := []struct {
		golden string
		args   [][]string // every one of them prints the golden
	}{
		{"help", [][]string{{"--help"}, {"-h"}, {"help"}, {"--plain", "--help"}, {"--seed", "3", "-h"}, {"--seed", "x", "--help"}, {"HELP"}}},
		{"help-schedule", [][]string{{"schedule", "--help"}, {"help", "schedule"}, {"schedule", "--policy", "fast", "-h"}}},
		{"help-crowd", [][]string{{"crowd", "--help"}, {"help", "crowd"}, {"--attempts", "99", "crowd", "--help"}}},
		{"help-timeline", [][]string{{"timeline", "--help"}, {"help", "timeline"}}},
		{"help-jobs", [][]string{{"jobs", "--help"}, {"help", "jobs"}, {"jobs", "x", "--help"}}},
		{"help-presets", [][]string{{"help", "presets"}, {"help", "Presets"}}},
		{"help-settings", [][]string{{"help", "settings"}}},
		{"help-model", [][]string{{"help", "model"}}},
		{"help-plans", [][]string{{"help", "plans"}}},
		{"help-formats", [][]string{{"help", "formats"}}},
		{"help-plain", [][]string{{"help", "plain"}}},
		{"help-advise", [][]string{{"advise", "--help"}, {"help", "advise"}, {"advise", "--goal", "x", "--help"}}},
		{"help-goals", [][]string{{"help", "goals"}}},
	}
	for _, c := range cases {
		path := filepath.Join(repoTestdata, "reports", c.golden+".txt")
		for i, args := range c.args {
			out, errs, code := runArgs(t, "", args...)
			if code != 0 || errs != "" {
				t.Errorf("%q: exit %d, stderr %q; want 0 and nothing", args, code, errs)
			}
			if !strings.Contains(out, "Example") && !strings.HasPrefix(c.golden, "help-") {
				t.Errorf("%q: the help has no example:\n%s", args, out)
			}
			if i == 0 {
				checkGolden(t, path, out)
			} else if first := reportOf(t, c.args[0]...); out != first {
				t.Errorf("%q: got\n%s\nwant what %q prints", args, out, c.args[0])
			}
		}
	}
}

// Settings flags mean the same before and after the command, in either
// spelling, and the last of a repeated flag wins.
func TestSettingsFlagsAnywhere(t *testing.T) {
	want := reportOf(t, "crowd", "--first-wait", "250ms", "--clients", "50", "--outage", "5s")
	for _, args := range [][]string{
		{"--first-wait", "250ms", "--clients", "50", "--outage", "5s", "crowd"},
		{"--first-wait=250ms", "crowd", "--clients=50", "--outage", "5s"},
		{"--format", "text", "--clients", "50", "crowd", "--outage", "5s", "--first-wait", "250ms"},
		{"--clients", "7", "crowd", "--first-wait", "0.25s", "--clients", "50", "--outage", "5s"},
		{"--outage", "5s", "crowd", "--clients", "50", "--first-wait", "250ms"},
	} {
		if got := reportOf(t, args...); got != want {
			t.Errorf("%q: got\n%s\nwant\n%s", args, got, want)
		}
	}
	// The longest wait's range starts at the first wait, whichever comes first.
	want = reportOf(t, "crowd", "--first-wait", "100ms", "--longest", "500ms")
	if got := reportOf(t, "--longest", "500ms", "crowd", "--first-wait", "100ms"); got != want {
		t.Errorf("--longest before --first-wait: got\n%s\nwant\n%s", got, want)
	}
}

func TestParseArgsSettingsInEveryMode(t *testing.T) {
	for _, args := range [][]string{
		{"--first-wait", "2s", "--longest", "1m", "--attempts", "9", "--clients", "10", "--outage", "0", "--seed", "5", "--slot", "1s"},
		{"--plain", "--first-wait", "2s", "--longest", "1m", "--attempts", "9", "--clients", "10", "--outage", "0", "--seed", "5", "--slot", "1s"},
		{"--first-wait", "2s", "--longest", "1m", "--attempts", "9", "--plain", "--clients", "10", "--outage", "0", "--seed", "5", "--slot", "1s"},
		{"--first-wait", "2s", "--longest", "1m", "crowd", "--attempts", "9", "--clients", "10", "--outage", "0", "--seed", "5", "--slot", "1s"},
	} {
		opts, err := parseArgs(args)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		s := opts.settings
		if s.FirstWait != 2000 || s.LongestWait != 60000 || s.Attempts != 9 || s.Clients != 10 || s.Outage != 0 || s.Seed != 5 || s.Slot != 1000 {
			t.Errorf("%q: got %+v", args, s)
		}
	}
}

// Names on the command line take any case, and - or _ for a space.
func TestNamesAnyCase(t *testing.T) {
	tests := []struct{ args, same []string }{
		{[]string{"schedule", "--policy", "Full Jitter", "--client", "2"}, []string{"schedule", "--policy", "full jitter", "--client", "2"}},
		{[]string{"schedule", "--policy", "FULL_JITTER", "--client", "2"}, []string{"schedule", "--policy", "full-jitter", "--client", "2"}},
		{[]string{"crowd", "--format", "CSV"}, []string{"crowd", "--format", "csv"}},
		{[]string{"Crowd", "--format", "Json"}, []string{"crowd", "--format", "json"}},
		{[]string{"crowd", "--policies", "Fixed,GRPC,Client_Go"}, []string{"crowd", "--policies", "fixed,grpc,client-go"}},
		{[]string{"crowd", "--preset", "AWS", "--draws", "Independent"}, []string{"crowd", "--preset", "aws", "--draws", "independent"}},
		{[]string{"crowd", "--jitter", "Spread:0.2", "--budget", "GRPC:10:0.1"}, []string{"crowd", "--jitter", "spread:0.2", "--budget", "grpc:10:0.1"}},
		{[]string{"timeline", "--policy", "ALL"}, []string{"timeline", "--policy", "all"}},
		{[]string{"help", "CROWD"}, []string{"crowd", "--help"}},
	}
	for _, tt := range tests {
		if got, want := reportOf(t, tt.args...), reportOf(t, tt.same...); got != want {
			t.Errorf("%q: got\n%s\nwant what %q prints\n%s", tt.args, got, tt.same, want)
		}
	}
}

// The crowd over many seeds comes out the same on any number of workers.
func TestSeedsReportSameForAnyWorkers(t *testing.T) {
	opts, err := parseArgs([]string{"crowd", "--seeds", "300", "--clients", "100", "--format", "csv"})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if err := opts.report.render(&want, 1); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{2, 5} {
		var got strings.Builder
		if err := opts.report.render(&got, workers); err != nil || got.String() != want.String() {
			t.Errorf("%d workers: got %v\n%s\nwant (1 worker)\n%s", workers, err, got.String(), want.String())
		}
	}
}

// A job whose name starts with a dash comes after --; in CSV its name gets
// a leading ', as every cell that a spreadsheet would take for a formula.
func TestJobsAfterDoubleDash(t *testing.T) {
	out := reportOf(t, "jobs", "--format", "csv", "--", "-x:1")
	if want := "job,attempt,outcome,wait_ms\n'-x,1,retry,1000\n'-x,2,done,0\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

// The example: a job named as a formula is text in the CSV.
func TestJobsCSVFormula(t *testing.T) {
	out := reportOf(t, "jobs", "=cmd()|calc:0", "--format", "csv")
	if want := "job,attempt,outcome,wait_ms\n'=cmd()|calc,1,done,0\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

// The README's examples are the goldens: each fenced block after a comment
// naming a golden file holds that file, or its first lines when the block
// ends in a line "...".
func TestReadmeExamplesAreGoldens(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	examples := 0
	rest := string(readme)
	for {
		_, after, ok := strings.Cut(rest, "<!-- testdata/reports/")
		if !ok {
			break
		}
		name, after, _ := strings.Cut(after, " -->\n```")
		_, block, _ := strings.Cut(after, "\n")
		block, rest, _ = strings.Cut(block, "```\n")
		want, err := os.ReadFile(filepath.Join(repoTestdata, "reports", name))
		if err != nil {
			t.Fatalf("the README shows %s: %v", name, err)
		}
		if head, ok := strings.CutSuffix(block, "...\n"); ok {
			if !strings.HasPrefix(string(want), head) || !strings.HasSuffix(head, "\n") {
				t.Errorf("the README's %s is not the golden's first lines: got\n%s\nwant the start of\n%s", name, head, want)
			}
		} else if block != string(want) {
			t.Errorf("the README's %s: got\n%s\nwant\n%s", name, block, want)
		}
		examples++
	}
	if examples < 2 {
		t.Errorf("the README shows %d golden examples, want the crowd's CSV and JSON at least", examples)
	}
}

// fuzzFiles are the files FuzzParseArgs's command lines find: plans good
// and bad, a folder and a file a report would overwrite; no other file is
// there.
type fuzzFiles map[string]string

func (ff fuzzFiles) readPlan(name string) ([]byte, error) {
	text, ok := ff[name]
	switch {
	case !ok:
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	case strings.HasSuffix(name, "/"):
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	return []byte(text[:min(len(text), plan.MaxBytes+1)]), nil
}

func (fuzzFiles) unfit(string) error { return nil }

func (fuzzFiles) same(a, b string) bool { return filepath.Clean(a) == filepath.Clean(b) }

func (ff fuzzFiles) exists(name string) bool {
	_, ok := ff[name]
	return ok
}

func newFuzzFiles() fuzzFiles {
	return fuzzFiles{
		"plan.toml":    testPlan,
		"a.toml":       "policies = [\"exponential\", \"custom\"]\n[custom]\njitter = \"full\"\n[spread]\nseeds = 3\n",
		"bad.toml":     "[policy]\nattempts = 500\n",
		"notoml.toml":  "[crowd\n",
		"big.toml":     strings.Repeat("#", plan.MaxBytes+1),
		"empty.toml":   "",
		"folder/":      "",
		"out.txt":      "a report\n",
		"my plan.toml": "[crowd]\nclients = 5\n",
		"presets.toml": "note = \"presets\"\npolicies = [\"exponential\", \"Cenkalti\", \"envoy\"]\n[policy]\nattempts = 3\n[spread]\nseeds = 2\n",
	}
}

// Whatever the command line, parseArgs returns options, a request for help
// or the version, or a usage error of one line that shows what it quotes;
// the options it returns hold settings in their ranges and, for a report,
// the policies it runs, a plan that saves and loads as itself, and no file
// to write that is there without --force.
func FuzzParseArgs(f *testing.F) {
	for _, rc := range reportCases() {
		f.Add(strings.Join(rc.args, "\x00"))
	}
	for _, rc := range compareCases() {
		f.Add(strings.Join(rc.args, "\x00"))
	}
	for _, seed := range []string{"--plan\x00plan.toml", "--plan\x00plan.toml\x00crowd\x00--attempts\x003", "crowd\x00--plan\x00bad.toml",
		"crowd\x00--plan\x00notoml.toml", "crowd\x00--plan\x00big.toml", "crowd\x00--plan\x00folder/", "crowd\x00--plan\x00missing.toml",
		"crowd\x00--plan\x00my plan.toml", "--plain\x00--plan\x00plan.toml", "timeline\x00--plan\x00plan.toml\x00--policy\x00all",
		"timeline\x00--slot\x002s\x00--plan\x00empty.toml\x00--policy\x00fixed", "schedule\x00--policy\x00grpc\x00--plan=plan.toml",
		"crowd\x00--compare\x00a.toml\x00--seeds\x002", "crowd\x00--compare\x00plan.toml\x00--format\x00json", "crowd\x00--compare\x00a.toml\x00--format\x00svg",
		"crowd\x00--out\x00out.txt", "crowd\x00--out\x00out.txt\x00--force", "crowd\x00--force", "crowd\x00--save-plan\x00new.toml\x00--out\x00new.toml",
		"jobs\x00a:1\x00--save-plan\x00p.toml\x00--out\x00dir/r.txt", "timeline\x00--policy\x00all\x00--format\x00png\x00--width\x00640\x00--height\x00480",
		"crowd\x00--seeds\x005\x00--format\x00svg\x00--height\x008000", "crowd\x00--width\x00300", "schedule\x00--policy\x00fixed\x00--format\x00svg",
		"crowd\x00--seeds\x003\x00--seed-draws\x00reference\x00--draws\x00independent", "--seed-draws\x00REFERENCE\x00crowd",
		"crowd\x00--out\x00a\nb", "crowd\x00--plan\x00\u200bplan.toml", "crowd\x00--save-plan\x00\xff.toml",
		"--plan\x00presets.toml", "--plan\x00presets.toml\x00--attempts\x0050", "--plan\x00presets.toml\x00--preset\x00polly\x00--seed-draws\x00reference",
		"--preset\x00aws\x00--plan\x00presets.toml\x00--plan\x00a.toml", "crowd\x00--breaker\x005:30", "crowd\x00--breaker\x00GoBreaker\x00--retry-after\x002",
		"--plain\x00--breaker\x00none", "crowd\x00--breaker\x00:1s", "crowd\x00--outage-hang\x001h1ms"} {
		f.Add(seed)
	}
	for _, seed := range []string{"", "--plain", "--help", "--version", "help\x00crowd", "help\x00presets", "--seed\x00", "jobs\x00--\x00-x:1",
		"--first-wait=1.5ms", "crowd\x00--format\x00a\nb", "jobs\x00a:1\tb:2", "--longest\x00500\x00crowd\x00--first-wait\x00100",
		"crowd\x00--jitter\x00spread:0.2", "crowd\x00--jitter\x00up:1", "crowd\x00--jitter\x00SPREAD:.5", "crowd\x00--jitter\x00spread:1.0000",
		"crowd\x00--multiplier\x001.6", "crowd\x00--multiplier\x0010.000", "crowd\x00--multiplier\x00.5", "crowd\x00--multiplier\x001e1",
		"crowd\x00--policies\x00fixed,grpc,custom", "crowd\x00--policies\x00,", "crowd\x00--policies\x00Full_Jitter,full-jitter",
		"crowd\x00--preset\x00client_go\x00--policies\x00custom,client-go", "crowd\x00--preset\x00GRPC\x00--first-wait\x002h",
		"--preset\x00aws\x00--plain", "timeline\x00--policy\x00all\x00--preset\x00envoy", "crowd\x00--budget\x00grpc:1000:0.001",
		"crowd\x00--budget\x00aws:1000000:1000000", "crowd\x00--load\x001000000\x00--load-until\x0010s", "crowd\x00--draws\x00INDEPENDENT\x00--seeds\x002",
		"crowd\x00--capacity\x00100000000\x00--processes\x00100000", "jobs\x00--policy\x00cenkalti\x00a:999", "jobs\x00a:1\x00a:2",
		// A service that queues.
		"crowd\x00--queue\x001000\x00--capacity\x00100\x00--timeout\x001s\x00--drop-expired\x00--queue-order\x00lifo", "crowd\x00--queue\x001",
		"--timeout\x001s", "--drop-expired=false\x00crowd", "crowd\x00--drop-expired=no", "crowd\x00--queue-order\x00LIFO\x00--queue\x000",
		"crowd\x00--queue\x0010000000\x00--capacity\x001", "timeline\x00--policy\x00all\x00--queue\x005\x00--capacity\x001\x00--timeout\x0024h",
		"--plain\x00--queue\x000", "--plain\x00--drop-expired", "crowd\x00--plan\x00plan.toml\x00--queue\x000", "--queue\x00100\x00--capacity\x0010"} {
		f.Add(seed)
	}
	files := newFuzzFiles()
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		opts, err := parseArgsIn(files, args)
		var text *textRequest
		var uerr *usageError
		switch {
		case err == nil:
			limits := backoff.WideLimits
			if opts.plain {
				limits = backoff.PlainLimits
			}
			if verr := opts.settings.ValidateIn(limits); verr != nil {
				t.Errorf("%q: taken, but the settings are not valid: %v", args, verr)
			}
			if len(opts.rest) > 0 && len(opts.report.policies) == 0 {
				t.Errorf("%q: a report with no policy", args)
			}
			for _, p := range opts.report.policies {
				if perr := p.Validate(); perr != nil {
					t.Errorf("%q: policy %s is not valid: %v", args, p, perr)
				}
				if qerr := backoff.CheckQueue(p, opts.settings); qerr != nil {
					t.Errorf("%q: taken, but the run of %s would be refused: %v", args, p, qerr)
				}
			}
			if len(opts.rest) > 0 {
				checkFuzzReport(t, args, opts.report, files)
			} else if !opts.plain {
				checkFuzzTUI(t, args, opts)
			}
		case errors.As(err, &text):
		case errors.As(err, &uerr):
			if uerr.msg == "" || strings.ContainsFunc(uerr.msg, func(r rune) bool { return !unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r) }) ||
				!utf8.ValidString(uerr.msg) {
				t.Errorf("%q: message %q, want one line of text that shows as itself", args, uerr.msg)
			}
		default:
			t.Errorf("%q: %T %v, want a usage error", args, err, err)
		}
	})
}

// checkFuzzTUI checks a full-screen program FuzzParseArgs took: the plan
// its s key would save at once is valid and loads as itself, its spread is
// in range, and its notice is one line that shows as itself.
func checkFuzzTUI(t *testing.T, args []string, opts options) {
	t.Helper()
	// No crowd runs: the first one is left in a command never run.
	m := model.NewApp(opts.settings, pane.DefaultStyles(), append(opts.tui.appOptions(), model.WithInlineWork(-1))...)
	p := m.SavedPlan()
	if err := p.Validate(); err != nil {
		t.Errorf("%q: the plan it would save is not valid: %v", args, err)
	} else if back, err := plan.Decode("p.toml", []byte(plan.Encode(p))); err != nil || !back.Equal(p) {
		t.Errorf("%q: the plan it would save loads as %+v, %v; want %+v", args, back, err, p)
	}
	if p.Seeds != opts.tui.seeds || p.SeedDraws != opts.tui.seedDraws || p.Settings != opts.settings {
		t.Errorf("%q: the program's plan %+v, want the command line's %+v", args, p, opts.tui)
	}
	// The policies it would save are the command line's: --policies, or the
	// plan's, or the five and custom.
	want := strings.Split(opts.tui.policies, ",")
	if opts.tui.policies == "" {
		want = model.DefaultPolicyNames()
	}
	var got, wantKeys []string
	for _, n := range p.Policies {
		k, _ := policyKey(n)
		got = append(got, k)
	}
	for _, n := range want {
		k, _ := policyKey(n)
		wantKeys = append(wantKeys, k)
	}
	if !slices.Equal(got, wantKeys) {
		t.Errorf("%q: the program's policies %q, want the command line's %q", args, p.Policies, want)
	}
}

// checkFuzzReport checks a report FuzzParseArgs took: the plan it would
// save is valid and loads as itself, it overwrites no file without
// --force, and it draws only the pictures there are, at the views' sizes.
func checkFuzzReport(t *testing.T, args []string, r report, files fuzzFiles) {
	t.Helper()
	p := r.savedPlan()
	if err := p.Validate(); err != nil {
		t.Errorf("%q: the plan it would save is not valid: %v", args, err)
	} else if back, err := plan.Decode("p.toml", []byte(plan.Encode(p))); err != nil || !back.Equal(p) {
		t.Errorf("%q: the plan it would save loads as %+v, %v; want %+v", args, back, err, p)
	}
	for _, file := range []string{r.out, r.savePlan} {
		if file != "" && files.exists(file) && !r.force {
			t.Errorf("%q: taken, but it would overwrite %q without --force", args, file)
		}
	}
	if r.picture() && r.command != "crowd" && r.command != "timeline" || r.compare != nil && (r.command != "crowd" || r.picture()) {
		t.Errorf("%q: taken as %s --format %s, compare %v", args, r.command, r.format, r.compare != nil)
	}
	for _, side := range []int{r.width, r.height} {
		if side != 0 && (side < vpicture.MinPictureSide || side > vpicture.MaxPictureSide) {
			t.Errorf("%q: a picture of %d x %d", args, r.width, r.height)
		}
	}
}

// --version says the program's name and version, from the build.
func TestVersion(t *testing.T) {
	out, errs, code := runArgs(t, "", "--version")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "retry-planner ") || strings.Count(out, "\n") != 1 {
		t.Errorf("--version: exit %d, stdout %q, stderr %q; want 0 and one line retry-planner VERSION", code, out, errs)
	}
	tests := []struct {
		info *debug.BuildInfo
		want string
	}{
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "retry-planner v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "39e14fd"}, {Key: "vcs.modified", Value: "true"}}},
			"retry-planner (devel), revision 39e14fd (modified)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "39e14fd"}, {Key: "vcs.modified", Value: "false"}}},
			"retry-planner (devel), revision 39e14fd"},
		{&debug.BuildInfo{}, "retry-planner (devel)"},
	}
	for _, tt := range tests {
		if got := versionLine(tt.info, true); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
	if got := versionLine(nil, false); !strings.HasPrefix(got, "retry-planner (unknown version") {
		t.Errorf("without build information: got %q", got)
	}
}

// Flags are applied in order: --preset sets the custom policy's own
// settings and nothing else, a flag of custom's before it gives way to it,
// and one after it wins; --first-wait, --longest and --attempts are the
// five's wherever they stand (issue 19, item 2).
func TestPresetThenFlags(t *testing.T) {
	grpc, _ := backoff.FindPreset("grpc")
	five := func(first, attempts int) backoff.Settings {
		s := backoff.Defaults()
		s.FirstWait, s.Attempts = first, attempts
		return s
	}
	tests := []struct {
		args []string
		want backoff.Policy
		five backoff.Settings // the five's first wait and attempts
	}{
		{[]string{"crowd", "--preset", "grpc"}, grpc.Policy, five(1000, 6)},
		{[]string{"--first-wait", "5s", "crowd", "--preset", "GRPC"}, grpc.Policy, five(5000, 6)},
		{[]string{"--preset", "grpc", "crowd", "--first-wait", "5s", "--jitter", "full"},
			backoff.Policy{Name: "custom", FirstWait: 1000, LongestWait: 120000, Multiplier: 1600, Jitter: backoff.Jitter{Kind: backoff.JitterFull}, Attempts: 5}, five(5000, 6)},
		{[]string{"crowd", "--multiplier", "1.5", "--preset", "grpc", "--attempts", "8"}, grpc.Policy, five(1000, 8)},
		{[]string{"crowd", "--preset", "grpc", "--custom-first-wait", "5s", "--custom-attempts", "8"},
			backoff.Policy{Name: "custom", FirstWait: 5000, LongestWait: 120000, Multiplier: 1600, Jitter: backoff.Jitter{Kind: backoff.JitterSpread, Factor: 200}, Attempts: 8}, five(1000, 6)},
		{[]string{"crowd", "--custom-attempts", "8", "--preset", "grpc"}, grpc.Policy, five(1000, 6)},
		{[]string{"crowd", "--custom-attempts", "3", "--first-wait", "2s"},
			backoff.Policy{Name: "custom", FirstWait: 2000, LongestWait: 16000, Multiplier: 2000, Attempts: 3}, five(2000, 6)},
		{[]string{"crowd", "--preset", "cenkalti", "--custom-max-elapsed", "0", "--max-elapsed", "1m"},
			backoff.Policy{Name: "custom", FirstWait: 500, LongestWait: 60000, Multiplier: 1500, Jitter: backoff.Jitter{Kind: backoff.JitterSpread, Factor: 500}, Attempts: 100},
			func() backoff.Settings { s := five(1000, 6); s.MaxElapsed = 60000; return s }()},
	}
	for _, tt := range tests {
		opts, err := parseArgs(tt.args)
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		ps := opts.report.policies
		if len(ps) != backoff.NumShapes+1 || ps[len(ps)-1] != tt.want {
			t.Errorf("%q: got %+v, want the five and %+v", tt.args, ps, tt.want)
		}
		for i, p := range tt.five.Five() {
			if ps[i] != p {
				t.Errorf("%q: %s is %s, want %s", tt.args, ps[i].Name, ps[i].Describe(), p.Describe())
			}
		}
	}
	// Without --preset, --multiplier or --jitter the crowd is the five.
	if opts, _ := parseArgs([]string{"crowd", "--max-elapsed", "1m"}); len(opts.report.policies) != backoff.NumShapes {
		t.Errorf("crowd --max-elapsed: got %d policies, want the five", len(opts.report.policies))
	}
}

// Independent draws unless --draws says otherwise (issue 19 item 7), for
// one seed and for the spread over seeds.
func TestSeedsDraws(t *testing.T) {
	draws := func(args ...string) string {
		t.Helper()
		return cell(t, get(t, get(t, decodeOrdered(t, reportOf(t, append(args, "--format", "json")...)), "settings"), "draws"))
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"crowd"}, "independent"},
		{[]string{"crowd", "--draws", "reference"}, "reference"},
		{[]string{"crowd", "--seeds", "3"}, "independent"},
		{[]string{"crowd", "--seeds", "3", "--draws", "reference"}, "reference"},
		{[]string{"--draws", "reference", "crowd", "--seeds", "3"}, "reference"},
		{[]string{"crowd", "--seeds", "3", "--draws", "independent"}, "independent"},
		{[]string{"crowd", "--draws", "independent"}, "independent"},
	} {
		if got := draws(tt.args...); got != tt.want {
			t.Errorf("%q: draws %s, want %s", tt.args, got, tt.want)
		}
	}
	if a, b := reportOf(t, "crowd", "--seeds", "3"), reportOf(t, "crowd", "--seeds", "3", "--draws", "independent"); a != b {
		t.Errorf("--seeds without --draws differs from --draws independent:\n%s\n%s", a, b)
	}
}

// repoTestdata is the repository's testdata, two folders up: the reference
// sessions, the reports' goldens and the plans the tests read.
var repoTestdata = filepath.Join("..", "..", "testdata")

// atRoot moves the test to the repository's root, for the goldens that
// name a file as a person types it there (testdata/plans/compare-a.toml).
func atRoot(t *testing.T) {
	t.Helper()
	t.Chdir(filepath.Join("..", ".."))
}
