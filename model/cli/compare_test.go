package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// crowd --compare: plan A, from a file, beside the command line's B.

// comparePlan is the goldens' plan A, under the repository's root (atRoot): four attempts, three policies, a
// service with room for 300 a second.
var comparePlan = filepath.Join("testdata", "plans", "compare-a.toml")

func compareCases() []reportCase {
	return []reportCase{
		// B has six attempts; decorrelated only in B, grpc only in A.
		{"compare/crowd", []string{"crowd", "--compare", comparePlan, "--policies", "exponential,full-jitter,decorrelated", "--clients", "500", "--capacity", "300"}},
		// Over seeds: medians, B's ten seeds for A too.
		// The README's: plan A with six attempts, for full jitter alone.
		{"readme/compare", []string{"crowd", "--compare", comparePlan, "--plan", comparePlan, "--attempts", "6", "--policies", "full-jitter"}},
		{"compare/seeds", []string{"crowd", "--compare", comparePlan, "--seeds", "10", "--policies", "exponential,full-jitter", "--clients", "500", "--capacity", "300", "--attempts", "6", "--jitter", "full"}},
	}
}

func TestCompareGoldens(t *testing.T) {
	atRoot(t)
	for _, rc := range compareCases() {
		for _, fe := range formatsAndExtensions() {
			t.Run(rc.name+fe[1], func(t *testing.T) {
				args := append(slices.Clone(rc.args), "--format", fe[0])
				checkGolden(t, filepath.Join("testdata", "reports", rc.name+fe[1]), reportOf(t, args...))
			})
		}
	}
}

// verdicts runs crowd --compare in JSON and returns each policy's figures:
// name to {a, b, change, verdict} as CSV cells.
func verdicts(t *testing.T, args ...string) map[string]map[string][4]string {
	t.Helper()
	doc := decodeOrdered(t, reportOf(t, append(args, "--format", "json")...))
	out := map[string]map[string][4]string{}
	for _, p := range get(t, doc, "policies").([]node) {
		figures := map[string][4]string{}
		for _, f := range get(t, p, "figures").([]node) {
			figures[cell(t, get(t, f, "name"))] = [4]string{cell(t, get(t, f, "a")), cell(t, get(t, f, "b")), cell(t, get(t, f, "change")), cell(t, get(t, f, "verdict"))}
		}
		out[cell(t, get(t, p, "policy"))+" in "+cell(t, get(t, p, "in"))] = figures
	}
	return out
}

// Each figure's verdict follows its direction: fewer retries are better,
// fewer through worse; an absent figure has none; a figure the side doing
// better does better on by losing more clients is not judged; CSV and text
// say the same as JSON. The reference's draws, whose figures the
// original program printed (962 retries for full jitter at the defaults).
func TestCompareVerdicts(t *testing.T) {
	dir := t.TempDir()
	six := filepath.Join(dir, "six.toml")
	reportOf(t, "crowd", "--draws", "reference", "--policies", "full-jitter,fixed", "--save-plan", six)
	fewer := verdicts(t, "crowd", "--draws", "reference", "--compare", six, "--policies", "full-jitter,aws", "--attempts", "5")
	jitter := fewer["full jitter in both"]
	for _, tt := range []struct {
		figure string
		want   [4]string
	}{
		// Fewer retries with 5 attempts: 126 more clients gave up.
		{"retries", [4]string{"962", "800", "-162", "not judged"}},
		{"attempts", [4]string{"1162", "1000", "-162", "not judged"}},
		{"not_through", [4]string{"36", "162", "126", "worse"}},
		{"through", [4]string{"164", "38", "-126", "worse"}},
		{"served", [4]string{"164", "38", "-126", "worse"}},
		{"gave_up", [4]string{"36", "162", "126", "worse"}},
		{"clients", [4]string{"200", "200", "0", "same"}},
		{"slot_capacity", [4]string{"", "", "", "n/a"}},
	} {
		if got := jitter[tt.figure]; got != tt.want {
			t.Errorf("5 attempts against 6, full jitter's %s: got %q, want %q", tt.figure, got, tt.want)
		}
	}
	if len(fewer) != 3 || fewer["fixed in a"]["retries"][3] != "only in a" || fewer["aws in b"]["retries"][3] != "only in b" || fewer["aws in b"]["retries"][0] != "" {
		t.Errorf("policies in one side: got %v, want fixed only in a and aws only in b", fewer)
	}
	// The other way round, every verdict turns; not judged stays so.
	three := filepath.Join(dir, "five.toml")
	reportOf(t, "crowd", "--draws", "reference", "--policies", "full-jitter", "--attempts", "5", "--save-plan", three)
	more := verdicts(t, "crowd", "--draws", "reference", "--compare", three, "--policies", "full-jitter")["full jitter in both"]
	for name, v := range jitter {
		flip := map[string]string{"better": "worse", "worse": "better", "same": "same", "n/a": "n/a", "not judged": "not judged"}[v[3]]
		if w := more[name]; w[3] != flip || w[0] != v[1] || w[1] != v[0] {
			t.Errorf("%s: 6 against 5 %q, 5 against 6 %q; want the sides swapped and the verdict turned", name, w, v)
		}
	}
	// No client through in B: its times are absent, their verdict n/a.
	down := verdicts(t, "crowd", "--draws", "reference", "--compare", six, "--policies", "full-jitter", "--outage", "1h")["full jitter in both"]
	if got := down["all_through_by_ms"]; got != [4]string{"24563", "", "", "n/a"} {
		t.Errorf("an outage of an hour, all through by: got %q, want A's and no B, no change, n/a", got)
	}
	if got := down["through"]; got[1] != "0" || got[3] != "worse" {
		t.Errorf("an outage of an hour, through: got %q, want 0 and worse", got)
	}
	// The CSV is the JSON's figures, row by row; the text marks them.
	args := []string{"crowd", "--draws", "reference", "--compare", six, "--policies", "full-jitter,aws", "--attempts", "5"}
	records := csvRecords(t, reportOf(t, append(slices.Clone(args), "--format", "csv")...))
	if want := []string{"policy", "figure", "a", "b", "change", "verdict"}; !slices.Equal(records[0], want) {
		t.Errorf("CSV header %q, want %q", records[0], want)
	}
	fields := len(backoff.FigureFields())
	if len(records) != 1+3*fields {
		t.Errorf("CSV has %d rows, want a header and %d for each of 3 policies", len(records), fields)
	}
	for _, r := range records[1:] {
		in := map[string]string{"full jitter": "both", "fixed": "a", "aws": "b"}[r[0]]
		v := fewer[r[0]+" in "+in][r[1]]
		if want := []string{v[0], v[1], v[2], v[3]}; !slices.Equal(r[2:], want) {
			t.Errorf("CSV row %q, want the JSON's %q", r, want)
		}
	}
	text := reportOf(t, args...)
	for _, want := range []string{
		"A, the plan in " + six + ", against B, the command line's.",
		"The settings that differ, A to B: --attempts 6 to 5.",
		"  full jitter     retries                        962         800        -162   ▼ not judged\n",
		"                  through                        164          38        -126   ▼ worse\n",
		"                  gave up                         36         162        +126   ▲ worse\n",
		"                  clients                        200         200           0   =\n",
		"                  slot capacity                    -           -\n",
		"Only in A: fixed.\nOnly in B: aws.\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text does not say %q:\n%s", want, text)
		}
	}
}

// --compare's plan A runs as its file says, whatever B's flags: the same
// file beside itself is the same in every figure.
func TestCompareWithItself(t *testing.T) {
	atRoot(t)
	for _, extra := range [][]string{nil, {"--seeds", "3"}} {
		args := append([]string{"crowd", "--compare", comparePlan, "--plan", comparePlan}, extra...)
		for policy, figures := range verdicts(t, args...) {
			for name, v := range figures {
				if v[3] != "same" && !(v[3] == "n/a" && v[0] == "" && v[1] == "") {
					t.Errorf("%q: %s's %s: got %q, want the same on both sides", args, policy, name, v)
				}
			}
		}
		if out := reportOf(t, args...); !strings.Contains(out, "The settings are the same.\n") {
			t.Errorf("%q: the text does not say the settings are the same:\n%s", args, out)
		}
	}
}

// Issue 24, item 6: a setting that differs from A to B but that nothing
// either side runs reads is said, in one line with the flag that would run
// what reads it; a setting that changes a policy run is not.
func TestCompareSaysWhatChangesNothing(t *testing.T) {
	dir := t.TempDir()
	grpc := filepath.Join(dir, "grpc.toml")
	// The plan: saved with --preset grpc, it names the policy grpc,
	// the preset, whose waits are its own.
	reportOf(t, "crowd", "--preset", "grpc", "--policies", "grpc", "--save-plan", grpc)
	if text := readFile(t, grpc); !strings.Contains(text, `policies = ["grpc"]`) {
		t.Fatalf("the plan saved names %q, want grpc:\n%s", text, text)
	}
	idle := func(args ...string) []string {
		t.Helper()
		var out []string
		for _, line := range strings.Split(reportOf(t, append([]string{"crowd", "--compare", grpc, "--plan", grpc}, args...)...), "\n") {
			if strings.Contains(line, " no figure: ") {
				out = append(out, line)
			}
		}
		return out
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"--custom-first-wait", "10s"}, []string{"--custom-first-wait changes no figure: read only by custom, which is not run here; " +
			"run custom in B with --policies grpc,custom."}},
		{[]string{"--custom-first-wait", "10s", "--jitter", "full"}, []string{"--custom-first-wait and --jitter change no figure: read only by custom, " +
			"which is not run here; run custom in B with --policies grpc,custom."}},
		{[]string{"--attempts", "3"}, []string{"--attempts changes no figure: read only by the five (and custom where it follows them), " +
			"none of which runs here; run one of the five in B with --policies grpc,exponential."}},
		{[]string{"--processes", "4"}, []string{"--processes changes no figure: processes only share out budgets and breakers, and neither side has one; " +
			"give B one with --budget grpc:10:0.1."}},
		// Pushback follows a rejection: without a capacity there is none
		// (200 clients: a capacity of 200/10 = 20 a second to try).
		{[]string{"--retry-after", "2s"}, []string{"--retry-after changes no figure: only a rejection carries it, and neither side has a capacity to reject; " +
			"give B one with --capacity 20."}},
		{[]string{"--retry-after", "2s", "--capacity", "100"}, nil},
		{[]string{"--processes", "4", "--breaker", "5:30s"}, nil}, // a breaker a process
		{[]string{"--outage-hang", "3s"}, nil},
		// What runs it: each changes a figure, or may.
		{[]string{"--custom-first-wait", "10s", "--policies", "grpc,custom"}, nil},
		{[]string{"--attempts", "3", "--policies", "grpc,exponential"}, nil},
		{[]string{"--processes", "4", "--budget", "grpc:10:0.1"}, nil},
		{[]string{"--clients", "300"}, nil}, // every policy meets the clients
		// Custom runs in B, but with aws's own attempts: --attempts
		// reaches nothing.
		{[]string{"--attempts", "3", "--policies", "custom", "--preset", "aws"}, []string{"--attempts changes no figure: read only by the five " +
			"(and custom where it follows them), none of which runs here; run one of the five in B with --policies custom,exponential."}},
	} {
		if got := idle(tt.args...); !slices.Equal(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.args, got, tt.want)
		}
	}
	// JSON carries them, and only when there are any.
	doc := reportOf(t, "crowd", "--compare", grpc, "--plan", grpc, "--custom-first-wait", "10s", "--format", "json")
	if !strings.Contains(doc, `"idle_settings": [`) || !strings.Contains(doc, `"run": "--policies grpc,custom"`) {
		t.Errorf("JSON: no idle_settings with the flag to run:\n%s", doc)
	}
	if doc := reportOf(t, "crowd", "--compare", grpc, "--plan", grpc, "--format", "json"); strings.Contains(doc, "idle_settings") {
		t.Errorf("JSON: idle_settings with nothing idle:\n%s", doc)
	}
}
