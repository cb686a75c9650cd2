package cli

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// crowdMap is a crowd report's JSON document, decoded.
func crowdMap(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(reportOf(t, append(args, "--format", "json")...)), &doc); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return doc
}

func policiesOfDoc(t *testing.T, doc map[string]any) []map[string]any {
	t.Helper()
	list, _ := doc["policies"].([]any)
	out := make([]map[string]any, len(list))
	for i, p := range list {
		out[i], _ = p.(map[string]any)
	}
	return out
}

// Issue 19, item 2: crowd --preset grpc keeps the five at 16 s and 6
// attempts; custom, which is grpc, has 120 s and 5. Before, the preset set
// every policy's waits.
func TestPresetGRPCLeavesTheFiveInTheJSON(t *testing.T) {
	doc := crowdMap(t, "crowd", "--preset", "grpc")
	settings, _ := doc["settings"].(map[string]any)
	if settings["longest_wait_ms"] != 16000.0 || settings["attempts"] != 6.0 || settings["first_wait_ms"] != 1000.0 {
		t.Errorf("settings: got %v, want the five's 1000 ms, 16000 ms and 6 attempts", settings)
	}
	ps := policiesOfDoc(t, doc)
	if len(ps) != backoff.NumShapes+1 {
		t.Fatalf("got %d policies, want the five and grpc", len(ps))
	}
	for i, p := range ps {
		own, _ := p["policy_settings"].(map[string]any)
		want := map[string]any{"longest_wait_ms": 16000.0, "attempts": 6.0, "first_wait_ms": 1000.0, "max_elapsed_ms": 0.0}
		if i == backoff.NumShapes {
			want = map[string]any{"longest_wait_ms": 120000.0, "attempts": 5.0, "first_wait_ms": 1000.0, "max_elapsed_ms": 0.0,
				"multiplier": 1.6, "jitter": "spread:0.2"}
			if p["policy"] != "grpc" {
				t.Errorf("the sixth policy is %v, want grpc", p["policy"])
			}
		}
		for k, v := range want {
			if own[k] != v {
				t.Errorf("%v: policy_settings.%s = %v, want %v", p["policy"], k, own[k], v)
			}
		}
	}
}

// The five's figures, JSON and text rows are the same with and without a
// preset, under the reference's settings and under a service, over one
// seed and over many.
func TestPresetChangesNothingOfTheFive(t *testing.T) {
	for _, base := range [][]string{
		{"crowd"},
		{"crowd", "--clients", "2000", "--capacity", "300", "--load", "50", "--max-elapsed", "40s", "--attempts", "8", "--budget", "aws:500:5"},
		{"crowd", "--seeds", "4", "--clients", "300"},
	} {
		without := policiesOfDoc(t, crowdMap(t, base...))
		if len(without) != backoff.NumShapes {
			t.Fatalf("%q: got %d policies, want the five", base, len(without))
		}
		withoutText := fiveRows(reportOf(t, base...))
		for _, pr := range backoff.Presets() {
			args := append([]string{"--preset", pr.Name}, base...)
			with := policiesOfDoc(t, crowdMap(t, args...))
			if len(with) != backoff.NumShapes+1 {
				t.Fatalf("%q: got %d policies, want the five and custom", args, len(with))
			}
			for i := range without {
				if !reflect.DeepEqual(with[i], without[i]) {
					t.Errorf("%q: %v differs from the run without --preset:\n%v\nwant\n%v", args, without[i]["policy"], with[i], without[i])
				}
			}
			if got := fiveRows(reportOf(t, args...)); !reflect.DeepEqual(got, withoutText) {
				t.Errorf("%q: the five's text rows\n%q\nwant\n%q", args, got, withoutText)
			}
		}
	}
}

// fiveRows are a text report's table rows of the five, in order, their
// cells one space apart (a sixth policy may widen the columns).
func fiveRows(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		for _, sh := range backoff.Shapes() {
			if strings.HasPrefix(line, "  "+sh.String()+" ") {
				out = append(out, strings.Join(strings.Fields(line), " "))
			}
		}
	}
	return out
}

// The custom flags are custom's alone; help says how the five's and
// custom's meet, in 80 columns (TestHelpFits80Columns).
func TestCustomFlagsInTheHelp(t *testing.T) {
	help := reportOf(t, "help", "settings")
	for _, w := range []string{"--custom-first-wait T", "--custom-longest T", "--custom-attempts N", "--custom-max-elapsed T",
		"custom takes them too unless it has its own", "crowd --preset grpc --attempts 3           the five try 3 times, grpc 5"} {
		if !strings.Contains(help, w) {
			t.Errorf("help settings has no %q", w)
		}
	}
}
