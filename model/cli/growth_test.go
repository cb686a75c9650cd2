package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// scheduleWaits are the waits of one client's retries in schedule's JSON.
func scheduleWaits(t *testing.T, args ...string) []int {
	t.Helper()
	var doc struct {
		Retries []struct {
			WaitMs int `json:"wait_ms"`
		} `json:"retries"`
		PolicySettings struct {
			Growth string `json:"growth"`
		} `json:"policy_settings"`
	}
	out := reportOf(t, append(append([]string{"schedule"}, args...), "--format", "json")...)
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	var waits []int
	for _, r := range doc.Retries {
		waits = append(waits, r.WaitMs)
	}
	return waits
}

// Issue 19, item 11: --growth linear makes your own policy grow by its
// first wait, d(n) = min(longest, n x first). 1 s up to 5 s waits 1, 2, 3,
// 4 and 5 s; exponential waits 1, 2, 4, 5, 5 s. Before, --growth was no
// flag.
func TestGrowthLinearOnTheCommandLine(t *testing.T) {
	flags := []string{"--growth", "linear", "--first-wait", "1s", "--longest", "5s"}
	if got, want := scheduleWaits(t, append([]string{"--policy", "custom"}, flags...)...), []int{1000, 2000, 3000, 4000, 5000}; !slices.Equal(got, want) {
		t.Errorf("schedule --policy custom %q: waits %v, want %v", flags, got, want)
	}
	if got, want := scheduleWaits(t, "--policy", "custom", "--first-wait", "1s", "--longest", "5s"), []int{1000, 2000, 4000, 5000, 5000}; !slices.Equal(got, want) {
		t.Errorf("schedule --policy custom, exponential: waits %v, want %v", got, want)
	}
	// The multiplier, which linear growth ignores, changes nothing.
	if got := scheduleWaits(t, append([]string{"--policy", "custom", "--multiplier", "7.5"}, flags...)...); !slices.Equal(got, []int{1000, 2000, 3000, 4000, 5000}) {
		t.Errorf("schedule with --multiplier 7.5: waits %v, want 1000 to 5000 by 1000", got)
	}

	// The crowd: no jitter, so every client retries at 1, 3, 6 and 10 s and
	// all are through when the service is back at 10 s (exponential: at 1,
	// 3, 7 and 12 s, through at 12 s).
	doc := crowdMap(t, append([]string{"crowd", "--policies", "custom,exponential"}, flags...)...)
	settings, _ := doc["settings"].(map[string]any)
	if settings["growth"] != "linear" {
		t.Errorf("settings.growth: got %v, want linear", settings["growth"])
	}
	ps := policiesOfDoc(t, doc)
	if len(ps) != 2 {
		t.Fatalf("got %d policies, want custom and exponential", len(ps))
	}
	for _, tt := range []struct {
		policy, growth string
		through        float64
	}{{"custom", "linear", 10000}, {"exponential", "exponential", 12000}} {
		p := ps[slices.IndexFunc(ps, func(p map[string]any) bool { return p["policy"] == tt.policy })]
		own, _ := p["policy_settings"].(map[string]any)
		if own["growth"] != tt.growth || p["all_through_by_ms"] != tt.through || p["retries"] != 800.0 {
			t.Errorf("%s: growth %v, all through by %v, retries %v; want %s, %v, 800", tt.policy, own["growth"], p["all_through_by_ms"], p["retries"], tt.growth, tt.through)
		}
	}

	// The CSV carries it beside the policy's other settings.
	csv := reportOf(t, append([]string{"crowd", "--policies", "custom", "--format", "csv"}, flags...)...)
	head, row, _ := strings.Cut(csv, "\n")
	cols := strings.Split(head, ",")
	at := slices.Index(cols, "policy_growth")
	if at < 0 || cols[at-1] != "policy_longest_wait_ms" || cols[at+1] != "policy_multiplier" {
		t.Fatalf("the CSV's head %q: want policy_growth between policy_longest_wait_ms and policy_multiplier", head)
	}
	if cells := strings.Split(strings.TrimSpace(row), ","); cells[len(cells)-len(cols)+at] != "linear" {
		t.Errorf("the CSV's row %q: policy_growth is not linear", row)
	}

	// The text says linear where the multiplier would be, and the formula.
	text := reportOf(t, append([]string{"schedule", "--policy", "custom"}, flags...)...)
	if want := "custom: first 1000 ms, linear, longest 5000 ms, jitter none, 6 attempts; wait = min(longest, n x first)."; !strings.Contains(text, want) {
		t.Errorf("schedule's text has no %q:\n%s", want, text)
	}
}

// d(n) = min(c, n*b) at the cap's boundary, worked by hand: with b = 1 s
// and c = 3 s the third wait reaches the cap exactly (3*1000 == 3000) and
// stays there; with c = 2999 ms the third, 3000, is 1 ms past it and cut to
// 2999; with c = 3001 ms the third is 3000 and the fourth, 4000, is cut.
func TestGrowthLinearAtTheLongestWait(t *testing.T) {
	for _, tt := range []struct {
		longest string
		want    []int
	}{
		{"3000ms", []int{1000, 2000, 3000, 3000, 3000}},
		{"2999ms", []int{1000, 2000, 2999, 2999, 2999}},
		{"3001ms", []int{1000, 2000, 3000, 3001, 3001}},
	} {
		got := scheduleWaits(t, "--policy", "custom", "--growth", "linear", "--custom-first-wait", "1s", "--custom-longest", tt.longest)
		if !slices.Equal(got, tt.want) {
			t.Errorf("longest %s: waits %v, want %v", tt.longest, got, tt.want)
		}
	}
}

// The growth is your own policy's: the five keep growing by their
// multipliers, a preset sets it back to exponential (every preset
// multiplies), a --growth after the preset makes it linear again, and
// --growth alone adds custom to the crowd as --multiplier does.
func TestGrowthIsYourOwn(t *testing.T) {
	ps := policiesOfDoc(t, crowdMap(t, "crowd", "--growth", "linear"))
	if len(ps) != 6 || ps[5]["policy"] != "custom" {
		t.Fatalf("crowd --growth linear: got %d policies, the last %v; want the five and custom", len(ps), ps[len(ps)-1]["policy"])
	}
	for _, p := range ps {
		own, _ := p["policy_settings"].(map[string]any)
		want := "exponential"
		if p["policy"] == "custom" {
			want = "linear"
		}
		if own["growth"] != want {
			t.Errorf("%v: growth %v, want %s", p["policy"], own["growth"], want)
		}
	}
	// grpc: 1 s, x1.6, jitter spread:0.2; linear, its bands' middles are 1, 2, 3, 4 s.
	for _, tt := range []struct {
		args   []string
		growth string
	}{
		{[]string{"--growth", "linear", "--preset", "grpc"}, "exponential"},
		{[]string{"--preset", "grpc", "--growth", "linear"}, "linear"},
	} {
		var doc struct {
			Policy         string `json:"policy"`
			PolicySettings struct {
				Growth string `json:"growth"`
			} `json:"policy_settings"`
			Retries []struct {
				Low  int `json:"low_ms"`
				High int `json:"high_ms"`
			} `json:"retries"`
		}
		out := reportOf(t, append(append([]string{"schedule", "--policy", "custom"}, tt.args...), "--format", "json")...)
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.PolicySettings.Growth != tt.growth {
			t.Errorf("%q: growth %s, want %s", tt.args, doc.PolicySettings.Growth, tt.growth)
		}
		if tt.growth == "linear" {
			if doc.Policy != "custom" {
				t.Errorf("%q: named %q, want custom (grpc multiplies)", tt.args, doc.Policy)
			}
			for k, r := range doc.Retries {
				d := (k + 1) * 1000
				if r.Low != d-d/5 || r.High != d+d/5 {
					t.Errorf("%q: retry %d's band %d to %d ms, want %d to %d", tt.args, k+1, r.Low, r.High, d-d/5, d+d/5)
				}
			}
		} else if doc.Policy != "grpc" {
			t.Errorf("%q: named %q, want grpc", tt.args, doc.Policy)
		}
	}
}

// A bad growth is one line naming both, exit 2; --plain refuses the flag as
// it refuses --multiplier; the shells complete its two values.
func TestGrowthFlagRefusalsAndCompletion(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"crowd", "--growth", "lineal"}, "retry-planner: --growth lineal: want exponential or linear\n"},
		{[]string{"crowd", "--growth", ""}, "retry-planner: --growth \"\": want exponential or linear\n"},
		{[]string{"schedule", "--policy", "custom", "--growth=x2"}, "retry-planner: --growth x2: want exponential or linear\n"},
		{[]string{"crowd", "--growth"}, "retry-planner: --growth needs a value: exponential or linear\n"},
		{[]string{"crowd", "--grwoth", "linear"}, "retry-planner: unknown flag \"--grwoth\" (did you mean --growth?)"},
		{[]string{"--plain", "--growth", "linear"}, "retry-planner: --plain keeps the reference's settings and takes no --growth: drop it, or use a report or the full-screen program, which take it\n"},
		{[]string{"--plain", "--growth", "exponential"}, "retry-planner: --plain keeps the reference's settings and takes no --growth"},
		{[]string{"--plain", "--multiplier", "2"}, "retry-planner: --plain keeps the reference's settings and takes no --multiplier"},
	} {
		out, errs, code := runArgs(t, "", tt.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, tt.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing and one line starting %q", tt.args, code, out, errs, tt.want)
		}
	}
	for _, args := range [][]string{{"crowd", "--growth", ""}, {"--growth", ""}, {"schedule", "--policy", "custom", "--growth", ""}} {
		out, _, code := runArgs(t, "", append([]string{"__complete"}, args...)...)
		if code != 0 || !strings.HasPrefix(out, "exponential\nlinear\n:4\n") {
			t.Errorf("__complete %q: exit %d, %q; want exponential and linear, no files", args, code, out)
		}
	}
	if out, _, _ := runArgs(t, "", "__complete", "crowd", "--gro"); !strings.Contains(out, "--growth") {
		t.Errorf("__complete crowd --gro: got %q, want --growth", out)
	}
}

// The full-screen program starts with the growth given, before or after a
// plan's, as every settings flag.
func TestGrowthInTheFullScreenProgram(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want backoff.Growth
	}{
		{[]string{"--growth", "linear"}, backoff.GrowthLinear},
		{[]string{"--growth", "LINEAR", "--growth", "exponential"}, backoff.GrowthExponential},
		{[]string{"--growth=linear", "--policies", "grpc,custom"}, backoff.GrowthLinear},
	} {
		opts, err := parseArgs(tt.args)
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if opts.plain || opts.rest != nil || opts.settings.Growth != tt.want {
			t.Errorf("%q: plain %v, rest %q, growth %v; want the full-screen program, %v", tt.args, opts.plain, opts.rest, opts.settings.Growth, tt.want)
		}
	}
}
