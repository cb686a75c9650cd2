package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/retryplanner/retry-planner/views/plain"
)

// plainBlock runs --plain with flags on the answers (then 6 to quit) and
// returns what the session wrote after marker up to the blank line before
// the next menu: one screen's figures.
func plainBlock(t *testing.T, flags []string, answers, marker string) string {
	t.Helper()
	screen, errs, code := runArgs(t, answers+"6\n", append([]string{"--plain"}, flags...)...)
	if code != 0 || errs != "" {
		t.Fatalf("--plain %q: exit %d, stderr %q", flags, code, errs)
	}
	start := strings.Index(screen, marker)
	if start < 0 {
		t.Fatalf("--plain %q: no %q in\n%s", flags, marker, screen)
	}
	start += len(marker)
	end := strings.Index(screen[start:], "\n"+plain.Menu)
	if end < 0 {
		t.Fatalf("--plain %q: no menu after %q in\n%s", flags, marker, screen)
	}
	return screen[start : start+end]
}

// The text of each report starts with what --plain writes for the same
// figures, at the defaults and at other settings given to both as flags:
// the same lines, byte for byte, and the report's own after them. The
// schedule's lines go on past the reference's (each retry's band and
// outcome), and its last line, which counted attempts never made, gives way
// to how the client ends.
func TestReportTextIsPlainText(t *testing.T) {
	for _, setting := range []struct {
		name    string
		flags   []string
		clients string
	}{
		{"defaults", nil, "200"},
		{"other", otherSettings(), "50"},
		{"other slot", append(otherSettings(), "--slot", "250ms"), "50"},
		{"largest", largestSettings(), "1000"},
		{"outage 0", []string{"--outage", "0", "--attempts", "12"}, "200"},
	} {
		flags := setting.flags
		tests := []struct {
			name    string
			report  []string
			answers string
			marker  string
		}{
			{"schedule", []string{"schedule", "--policy", "full-jitter", "--client", "7"},
				"1\nfull jitter\n7\n", "client number (1 to " + setting.clients + ")> 7\n"},
			{"schedule decorrelated", []string{"schedule", "--policy", "decorrelated", "--client", "50"},
				"1\ndecorrelated\n50\n", "client number (1 to " + setting.clients + ")> 50\n"},
			{"schedule exponential", []string{"schedule", "--policy", "exponential", "--client", "3"},
				"1\nexponential\n3\n", "client number (1 to " + setting.clients + ")> 3\n"},
			{"crowd", []string{"crowd"}, "2\n", plain.ChoicePrompt + "2\n"},
			{"timeline", []string{"timeline", "--policy", "equal jitter"}, "3\nequal jitter\n", plain.PolicyPrompt + "equal jitter\n"},
			{"timeline per second", []string{"timeline", "--policy", "full jitter", "--slot", "1s"}, "3\nfull jitter\n", plain.PolicyPrompt + "full jitter\n"},
			{"jobs", []string{"jobs", "alpha:0", "bravo:2", "charlie:9", "delta:fatal", "echo:4"},
				"4\nalpha:0 bravo:2 charlie:9 delta:fatal echo:4\n", plain.JobsPrompt + "alpha:0 bravo:2 charlie:9 delta:fatal echo:4\n"},
		}
		for _, tt := range tests {
			t.Run(setting.name+"/"+tt.name, func(t *testing.T) {
				if slices.Contains(flags, "--slot") && tt.name != "crowd" {
					t.Skip("in --plain, --slot is the crowd's alone: its retries over time are per second")
				}
				want := plainBlock(t, flags, tt.answers, tt.marker)
				got := reportOf(t, append(append(slices.Clone(tt.report), "--draws", "reference"), flags...)...)
				if strings.HasPrefix(tt.name, "schedule") {
					checkScheduleLines(t, got, want)
					return
				}
				if !strings.HasPrefix(got, want) {
					t.Errorf("got\n%s\nwant it to start with (--plain)\n%s", got, want)
				}
				if rest := strings.TrimPrefix(got, want); !strings.Contains(rest, "Draws: reference") {
					t.Errorf("after the reference's lines got\n%s\nwant the draws said", rest)
				}
			})
		}
	}
}

// checkScheduleLines checks that the schedule report's lines start with the
// reference's (--plain's), each attempt's line then giving the band and the
// outcome, and that the reference's last line gives way to the client's end.
func checkScheduleLines(t *testing.T, got, plain string) {
	t.Helper()
	gotLines, plainLines := strings.Split(got, "\n"), strings.Split(strings.TrimSuffix(plain, "\n"), "\n")
	last := len(plainLines) - 1
	if !strings.HasPrefix(plainLines[last], "In all ") {
		t.Fatalf("--plain's schedule ends %q, want In all ...", plainLines[last])
	}
	for i := 0; i < last; i++ {
		if i >= len(gotLines) || !strings.HasPrefix(gotLines[i], plainLines[i]) {
			t.Fatalf("line %d: got %q, want it to start with --plain's %q", i+1, gotLines[i], plainLines[i])
		}
		if rest := strings.TrimPrefix(gotLines[i], plainLines[i]); i > 0 && !regexp.MustCompile(`^(   band +\d+ to +\d+ ms[ *])?  (down|through|not needed|past the limit)$`).MatchString(rest) {
			t.Errorf("line %d: after --plain's %q got %q, want the band and the outcome", i+1, plainLines[i], rest)
		}
	}
	if end := gotLines[last]; !regexp.MustCompile(`^(Gets through at attempt|Gives up after|Out of time after) `).MatchString(end) {
		t.Errorf("after the attempts got %q, want how the client ends", end)
	}
	if !regexp.MustCompile(`(?m)^In all \d+ ms before the last attempt it made\.$`).MatchString(got) {
		t.Errorf("got\n%s\nwant In all ... before the last attempt it made.", got)
	}
}

// referenceSessions is the reference's sessions beside the repository
// (shared/ is laid beside every clone); the test skips without them.
func referenceSessions(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "reference", "sessions")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no reference sessions: %v", err)
	}
	return dir
}

// Without flags --plain still writes the reference's screens byte for byte.
func TestPlainWithoutFlagsIsTheReference(t *testing.T) {
	dir := referenceSessions(t)
	for _, name := range []string{"basic", "bad-input"} {
		in, err := os.ReadFile(filepath.Join(dir, name+".in"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(dir, name+".screen"))
		if err != nil {
			t.Fatal(err)
		}
		got, _, code := runArgs(t, string(in), "--plain")
		if code != 0 || got != string(want) {
			t.Errorf("%s: exit %d, got\n%s\nwant\n%s", name, code, got, want)
		}
	}
}

// The reference's session sets a first wait of 100 ms through its menu and
// shows the crowd: --first-wait 100 gives the same crowd from the start,
// in --plain and in the crowd report.
func TestFirstWaitFlagIsTheReferenceSettingsForm(t *testing.T) {
	screen, err := os.ReadFile(filepath.Join(referenceSessions(t), "basic.screen"))
	if err != nil {
		t.Fatal(err)
	}
	marker := "seed 7.\n\n" + plain.Menu + "\n" + plain.ChoicePrompt + "2\n"
	start := strings.Index(string(screen), marker)
	if start < 0 {
		t.Fatalf("no crowd after the settings in basic.screen")
	}
	rest := string(screen)[start+len(marker):]
	want := rest[:strings.Index(rest, "\n"+plain.Menu)]
	if got := plainBlock(t, []string{"--first-wait", "100ms"}, "2\n", plain.ChoicePrompt+"2\n"); got != want {
		t.Errorf("--plain --first-wait 100: got\n%s\nwant (the reference)\n%s", got, want)
	}
	// The report adds its own lines after the reference's.
	if got := reportOf(t, "crowd", "--first-wait", "100ms", "--draws", "reference"); !strings.HasPrefix(got, want) {
		t.Errorf("crowd --first-wait 100ms: got\n%s\nwant the reference's block first\n%s", got, want)
	}
}

// errorCase is a command line the program cannot run and what its message
// must say.
type errorCase struct {
	args []string
	want []string // each in the message
}

func errorCases() []errorCase {
	return []errorCase{
		// commands and words
		{[]string{"bogus"}, []string{`unknown command "bogus"`, "schedule, crowd, timeline, jobs or advise"}},
		{[]string{"crowd", "extra"}, []string{`"extra"`, "--seeds", "--format"}},
		{[]string{"schedule", "--policy", "fixed", "2"}, []string{`"2"`, "--client"}},
		{[]string{"--plain", "crowd"}, []string{"--plain", `"crowd"`}},
		{[]string{"help", "bogus"}, []string{`"bogus"`, "a command (", "crowd", "schedule", "a topic (", "presets", "model"}},
		{[]string{"help", "crowd", "jobs"}, []string{"one command or topic"}},
		// flags
		{[]string{"--bogus"}, []string{`"--bogus"`, "--plain", "--help", "--version", "settings flags"}},
		{[]string{"crowd", "--bogus=1"}, []string{`"--bogus"`, "--seeds", "--policies", "--format"}},
		{[]string{"crowd", "--polices", "fixed"}, []string{`"--polices"`, "did you mean --policies?"}},
		{[]string{"crowd", "--jiter", "full"}, []string{`"--jiter"`, "did you mean --jitter?"}},
		{[]string{"crowd", "--plain"}, []string{"--plain runs the original program's line menu and takes no command"}},
		{[]string{"crowd", "--version"}, []string{`"--version"`}},
		{[]string{"--seeds", "5"}, []string{`"--seeds"`, "goes after a command, crowd"}},
		{[]string{"--format", "csv"}, []string{`"--format"`, "goes after a command"}},
		{[]string{"-clients", "5"}, []string{`unknown flag "-clients"`, "two dashes, --clients"}},
		{[]string{"crowd", "-xyz"}, []string{`unknown flag "-xyz"`, "crowd takes --policies, --seeds"}},
		{[]string{"schedule", "--policy", "fixed", "--seeds", "5"}, []string{`"--seeds"`, "is for crowd or advise, not schedule", "--policy", "--client"}},
		{[]string{"crowd", "--policy", "fixed"}, []string{`"--policy"`, "not crowd", "--policies"}},
		{[]string{"schedule", "--policies", "fixed"}, []string{`"--policies"`, "not schedule"}},
		{[]string{"schedule", "--policy", "fixed", "--slot", "5ms"}, []string{"--slot", "schedule has no slots"}},
		{[]string{"jobs", "a:1", "--slot", "5ms"}, []string{"--slot", "jobs has no slots"}},
		{[]string{"--slot", "5ms", "jobs", "a:1"}, []string{"--slot", "jobs has no slots"}},
		{[]string{"--slot", "5ms", "schedule", "--policy", "fixed"}, []string{"--slot", "schedule has no slots"}},
		{[]string{"--plain=yes"}, []string{"--plain takes no value"}},
		{[]string{"--version=2"}, []string{"--version takes no value"}},
		{[]string{"schedule", "--format"}, []string{"--format needs a value", "text, csv or json"}},
		{[]string{"crowd", "--format"}, []string{"--format needs a value", "text, csv, json, svg or png"}},
		{[]string{"--seed"}, []string{"--seed needs a value", "0 to 999999"}},
		{[]string{"crowd", "--outage"}, []string{"--outage needs a value", "0 to 86400000 ms", "1s"}},
		{[]string{"--plain", "--outage"}, []string{"--outage needs a value", "0 to 600000 ms"}},
		{[]string{"crowd", "--jitter"}, []string{"--jitter needs a value", "spread:F"}},
		{[]string{"crowd", "--budget"}, []string{"--budget needs a value", "grpc:MAX:RATIO"}},
		{[]string{"crowd", "--preset"}, []string{"--preset needs a value", "grpc", "polly"}},
		{[]string{"crowd", "--policies"}, []string{"--policies needs a value", "commas"}},
		// formats and policies
		{[]string{"jobs", "--format", "xml"}, []string{`--format "xml"`, "text, csv or json"}},
		{[]string{"crowd", "--format", "xml"}, []string{`--format "xml"`, "text, csv, json, svg or png"}},
		{[]string{"schedule"}, []string{"schedule needs --policy", "full jitter", "full-jitter", "grpc"}},
		{[]string{"timeline"}, []string{"timeline needs --policy", "decorrelated", "--policy all"}},
		{[]string{"schedule", "--policy", "fast"}, []string{`--policy "fast"`, "fixed, exponential, full jitter, equal jitter or decorrelated", "custom", "grpc"}},
		{[]string{"schedule", "--policy", "all"}, []string{`--policy "all"`, "custom"}},
		{[]string{"timeline", "--policy", "fulljitter"}, []string{`--policy "fulljitter"`, "full-jitter", "or all"}},
		{[]string{"jobs", "--policy", "nope", "a:1"}, []string{`--policy "nope"`, "grpc"}},
		{[]string{"crowd", "--policies", ""}, []string{`--policies ""`, "a name is empty"}},
		{[]string{"crowd", "--policies", "fixed,,grpc"}, []string{`--policies "fixed,,grpc"`, "a name is empty"}},
		{[]string{"crowd", "--policies", "fixed,"}, []string{`--policies "fixed,"`, "a name is empty"}},
		{[]string{"crowd", "--policies", "fixed,bogus"}, []string{`--policies "fixed,bogus"`, `"bogus" is no policy`}},
		{[]string{"crowd", "--policies", "fixed,Fixed"}, []string{`--policies "fixed,Fixed"`, "fixed is listed twice"}},
		{[]string{"crowd", "--policies", "full-jitter,full jitter"}, []string{"full jitter is listed twice"}},
		{[]string{"crowd", "--preset", "grpc", "--policies", "grpc,custom"}, []string{"custom has grpc's settings", "grpc is listed twice"}},
		{[]string{"timeline", "--policies", "all"}, []string{`"all" is no policy`}},
		// numbers of the commands
		{[]string{"schedule", "--policy", "fixed", "--client", "0"}, []string{"--client 0", "1 to 200 (the clients)"}},
		{[]string{"schedule", "--policy", "fixed", "--client", "201"}, []string{"--client 201", "1 to 200"}},
		{[]string{"schedule", "--policy", "fixed", "--client", "60", "--clients", "50"}, []string{"--client 60", "1 to 50 (the clients)"}},
		{[]string{"schedule", "--policy", "fixed", "--client", "two"}, []string{"--client two", "whole number"}},
		{[]string{"crowd", "--seeds", "0"}, []string{"--seeds 0", "1 to 10000"}},
		{[]string{"crowd", "--seeds", "10001"}, []string{"--seeds 10001", "1 to 10000"}},
		{[]string{"crowd", "--seeds", "many"}, []string{"--seeds many", "1 to 10000"}},
		{[]string{"crowd", "--slot", "0"}, []string{"--slot 0", "1 to 3600000 ms"}},
		{[]string{"timeline", "--policy", "fixed", "--slot", "1h1ms"}, []string{"--slot 1h1ms (3600001 ms)", "1 to 3600000 ms"}},
		{[]string{"timeline", "--policy", "fixed", "--slot", "1us"}, []string{"--slot 1us", "whole ms", "1 to 3600000 ms"}},
		// settings, out of range and not numbers, in the wide ranges
		{[]string{"--first-wait", "0"}, []string{"--first-wait 0", "1 to 3600000 ms"}},
		{[]string{"crowd", "--first-wait", "61m"}, []string{"--first-wait 61m (3660000 ms)", "1 to 3600000 ms"}},
		{[]string{"--first-wait", "1.5ms", "crowd"}, []string{"--first-wait 1.5ms", "whole ms, with its unit", "250ms"}},
		{[]string{"--first-wait", "soon"}, []string{"--first-wait soon", "1 to 3600000 ms"}},
		{[]string{"--first-wait", ""}, []string{`--first-wait ""`, "1 to 3600000 ms"}},
		{[]string{"--longest", "500ms", "crowd"}, []string{"--longest 500", "1000 ms (the first wait) to 3600000 ms"}},
		{[]string{"crowd", "--first-wait", "2s", "--longest", "1s"}, []string{"--longest 1s (1000 ms)", "2000 ms (the first wait)"}},
		{[]string{"crowd", "--first-wait", "20s"}, []string{"--first-wait 20s (20000 ms) is longer than the longest wait, 16000 ms by default", "give --longest too", "20000 to 3600000 ms"}},
		{[]string{"crowd", "--longest", "2h"}, []string{"--longest 2h (7200000 ms)", "3600000 ms"}},
		{[]string{"--attempts", "1", "crowd"}, []string{"--attempts 1", "2 to 100"}},
		{[]string{"jobs", "a:1", "--attempts", "101"}, []string{"--attempts 101", "2 to 100"}},
		{[]string{"--attempts", "6.0"}, []string{"--attempts 6.0", "whole number from 2 to 100"}},
		{[]string{"--clients", "0", "crowd"}, []string{"--clients 0", "1 to 10000000"}},
		{[]string{"crowd", "--clients", "10000001"}, []string{"--clients 10000001", "1 to 10000000"}},
		{[]string{"--outage", "-1"}, []string{"--outage -1", "0 to 86400000 ms"}},
		{[]string{"--outage", "-1s", "crowd"}, []string{"--outage -1s", "0 to 86400000 ms"}},
		{[]string{"crowd", "--outage", "25h"}, []string{"--outage 25h (90000000 ms)", "0 to 86400000 ms"}},
		{[]string{"--seed", "1000000"}, []string{"--seed 1000000", "0 to 999999"}},
		{[]string{"timeline", "--policy", "fixed", "--seed", "-1"}, []string{"--seed -1", "0 to 999999"}},
		{[]string{"crowd", "--seed", "12345678901"}, []string{"--seed 12345678901", "0 to 999999"}},
		// the policy of one's own
		{[]string{"crowd", "--multiplier", "0.5"}, []string{"--multiplier 0.5", "a decimal from 1 to 10", "three decimals"}},
		{[]string{"crowd", "--multiplier", "10.001"}, []string{"--multiplier 10.001", "1 to 10"}},
		{[]string{"crowd", "--multiplier", "1.6667"}, []string{"--multiplier 1.6667", "three decimals"}},
		{[]string{"crowd", "--multiplier", "-2"}, []string{"--multiplier -2", "a decimal"}},
		{[]string{"crowd", "--multiplier", "1,5"}, []string{`--multiplier "1,5"`, "a decimal"}},
		{[]string{"crowd", "--multiplier", "2x"}, []string{"--multiplier 2x", "a decimal"}},
		{[]string{"crowd", "--jitter", "some"}, []string{"--jitter some", "none, full, equal, decorrelated, spread:F or up:F"}},
		{[]string{"crowd", "--jitter", "spread"}, []string{"--jitter spread", "spread:F"}},
		{[]string{"crowd", "--jitter", "spread:0"}, []string{"--jitter spread:0", "0.001 to 1"}},
		{[]string{"crowd", "--jitter", "up:1.5"}, []string{"--jitter up:1.5", "0.001 to 1"}},
		{[]string{"crowd", "--jitter", "full:0.2"}, []string{"--jitter full:0.2", "spread:F"}},
		{[]string{"crowd", "--max-elapsed", "2d"}, []string{"--max-elapsed 2d", "whole ms"}},
		{[]string{"crowd", "--max-elapsed", "25h"}, []string{"--max-elapsed 25h (90000000 ms)", "0 (no limit) to 86400000 ms"}},
		{[]string{"crowd", "--preset", "netflix"}, []string{"--preset netflix", "grpc, aws, cenkalti, retryablehttp, client-go, envoy or polly"}},
		{[]string{"crowd", "--preset", "grpc", "--first-wait", "200s"}, []string{"--first-wait 200s (200000 ms) is longer than the longest wait, 16000 ms by default", "give --longest too"}},
		{[]string{"crowd", "--preset", "grpc", "--custom-first-wait", "200s"}, []string{"--custom-longest 2m (from --preset grpc)", "200000 ms (custom's first wait)"}},
		{[]string{"crowd", "--custom-first-wait", "20s"}, []string{"--custom-first-wait 20s (20000 ms) is longer than custom's longest wait, the five's 16000 ms (--longest)", "give --custom-longest too, from 20000 to 3600000 ms"}},
		{[]string{"crowd", "--custom-first-wait", "20s", "--custom-longest", "19999ms"}, []string{"--custom-longest 19999", "20000 ms (custom's first wait) to 3600000 ms"}},
		{[]string{"crowd", "--custom-first-wait", "0"}, []string{"--custom-first-wait 0", "1 to 3600000 ms"}},
		{[]string{"crowd", "--custom-attempts", "101"}, []string{"--custom-attempts 101", "2 to 100"}},
		{[]string{"crowd", "--custom-attempts", "1"}, []string{"--custom-attempts 1", "2 to 100"}},
		{[]string{"crowd", "--custom-attempts", "-1"}, []string{"--custom-attempts -1", "a whole number from 2 to 100"}},
		{[]string{"crowd", "--custom-max-elapsed", "25h"}, []string{"--custom-max-elapsed 25h (90000000 ms)", "0 (no limit) to 86400000 ms"}},
		{[]string{"crowd", "--preset", "grpc", "--custom-attempts", "101"}, []string{"--custom-attempts 101", "2 to 100"}},
		{[]string{"crowd", "--preset", "grpc", "--attempts", "101"}, []string{"--attempts 101", "2 to 100"}},
		{[]string{"crowd", "--draws", "random"}, []string{"--draws random", "reference or independent"}},
		// the service
		{[]string{"crowd", "--capacity", "100000001"}, []string{"--capacity 100000001", "0 (no limit) to 100000000 a second"}},
		{[]string{"crowd", "--capacity", "1e6"}, []string{"--capacity 1e6", "a whole number"}},
		{[]string{"crowd", "--load", "1000001"}, []string{"--load 1000001", "0 (none) to 1000000 a second"}},
		{[]string{"crowd", "--load", "1000000", "--load-until", "601s"}, []string{"--load 1000000 until 601000 ms is 601000000 fresh requests, more than 600000000", "lower --load or --load-until"}},
		{[]string{"crowd", "--load", "200000", "--outage", "2941s"}, []string{"--load 200000 until 3001000 ms", "more than 600000000"}},
		{[]string{"crowd", "--load-until", "-5"}, []string{"--load-until -5", "0 to 86400000 ms"}},
		{[]string{"crowd", "--load-until", "25h1ms"}, []string{"--load-until 25h1ms (90000001 ms)", "0 to 86400000 ms"}},
		{[]string{"crowd", "--budget", "grpc:0:0.1"}, []string{"--budget grpc:0:0.1", "MAX 1 to 1000"}},
		{[]string{"crowd", "--budget", "grpc:10:2"}, []string{"--budget grpc:10:2", "RATIO 0.001 to 1"}},
		{[]string{"crowd", "--budget", "aws:500"}, []string{"--budget aws:500", "aws:QUOTA:COST"}},
		{[]string{"crowd", "--budget", "token"}, []string{"--budget token", "none, grpc:MAX:RATIO"}},
		{[]string{"crowd", "--processes", "0"}, []string{"--processes 0", "1 to 100000"}},
		{[]string{"crowd", "--processes", "100001"}, []string{"--processes 100001", "1 to 100000"}},
		// --plain: the reference's ranges, and none of the new flags
		{[]string{"--plain", "--clients", "many"}, []string{"--clients many", "a whole number from 1 to 1000\n"}},
		{[]string{"--clients", "many", "--plain"}, []string{"--clients many", "a whole number from 1 to 1000\n"}},
		{[]string{"--plain", "--first-wait", "soon"}, []string{"--first-wait soon", "1 to 10000 ms"}},
		{[]string{"--plain", "--clients", "1001"}, []string{"--clients 1001", "1 to 1000"}},
		{[]string{"--plain", "--first-wait", "11s"}, []string{"--first-wait 11s (11000 ms)", "1 to 10000 ms"}},
		{[]string{"--attempts", "13", "--plain"}, []string{"--attempts 13", "2 to 12"}},
		{[]string{"--plain", "--longest", "601s"}, []string{"--longest 601s (601000 ms)", "600000 ms"}},
		{[]string{"--plain", "--outage", "11m"}, []string{"--outage 11m (660000 ms)", "0 to 600000 ms"}},
		{[]string{"--plain", "--slot", "11m"}, []string{"--slot 11m (660000 ms)", "1 to 600000 ms"}},
		// jobs
		{[]string{"jobs"}, []string{"at least one job", "name:failures", "alpha:0"}},
		{[]string{"jobs", "--format", "csv"}, []string{"at least one job"}},
		{[]string{"jobs", "alpha"}, []string{"jobs: alpha: a job is name:failures (0 to 999) or name:fatal"}},
		{[]string{"jobs", "alpha:0", "bravo:x"}, []string{"jobs: bravo:x: after the colon come the failures, a whole number from 0 to 999, or fatal"}},
		{[]string{"jobs", ":3"}, []string{"jobs: :3: the name before the colon is empty"}},
		{[]string{"jobs", "a:"}, []string{"jobs: a:: nothing after the colon"}},
		{[]string{"jobs", "alpha:1000"}, []string{"jobs: alpha:1000: failures go from 0 to 999"}},
		{[]string{"jobs", "a:0099"}, []string{"jobs: a:0099: failures are written in 1 to 3 digits: 0099 has 4; write 99"}},
		{[]string{"jobs", "a:0000"}, []string{"jobs: a:0000: failures are written in 1 to 3 digits: 0000 has 4; write 0"}},
		{[]string{"jobs", "a:-1"}, []string{"jobs: a:-1: after the colon come the failures"}},
		{[]string{"jobs", "a:Fatal"}, []string{"jobs: a:Fatal:", "or fatal"}},
		{[]string{"jobs", "alpha:0", "bravo:2", "bravo:1"}, []string{"jobs: bravo appears twice; give each job its own name"}},
		{[]string{"jobs", "a:1 a:fatal"}, []string{"jobs: a appears twice"}},
		{[]string{"jobs", "a:1", "b:1", "c:1", "d:1", "e:1", "f:1", "g:1", "h:1", "i:1"}, []string{"9 jobs", "at most 8"}},
		{[]string{"jobs", "a:1 b:1 c:1 d:1 e:1", "f:1 g:1 h:1 i:1 j:1"}, []string{"10 jobs", "at most 8"}},
		{[]string{"jobs", "x\ty:1", "b:1", "c:1", "d:1", "e:1", "f:1", "g:1", "h:1", "i:1"}, []string{`"x\ty:1"`, "printable"}},
		{[]string{"jobs", "a\nb:1"}, []string{`"a\nb:1"`, "printable"}},
		{[]string{"jobs", "a\xff:1"}, []string{`"a\xff:1"`, "printable"}},
		// format characters (Cf) in a name: a report would not show what it says
		{[]string{"jobs", "a\u202eb:1"}, []string{`job "a\u202eb:1"`, "direction-changing", "U+202E"}},
		{[]string{"jobs", "ok:0", "x\u200b:fatal"}, []string{`job "x\u200b:fatal"`, "invisible", "U+200B"}},
		{[]string{"jobs", "\ufeffbom:2"}, []string{`job "\ufeffbom:2"`, "invisible", "U+FEFF"}},
		// not format characters, yet they show as nothing or as a blank
		{[]string{"jobs", "a:1", "a\u3164:1"}, []string{`job "a\u3164:1"`, "does not show as itself", "U+3164"}},
		{[]string{"jobs", "\u115fb:1"}, []string{`job "\u115fb:1"`, "U+115F"}},
		{[]string{"jobs", "e\u034f:2"}, []string{`job "e\u034f:2"`, "U+034F"}},
		{[]string{"jobs", "x\u2800:fatal"}, []string{`job "x\u2800:fatal"`, "blank", "U+2800"}},
		{[]string{"jobs", "l\u2028m:0"}, []string{`job "l\u2028m:0"`, "U+2028"}},
		{[]string{"jobs", "soft\u00adhyphen:2"}, []string{`job "soft\u00adhyphen:2"`, "U+00AD"}},
		// an empty value, refused for --client as for every other flag
		{[]string{"schedule", "--policy", "fixed", "--client", ""}, []string{`--client ""`, "1 to 200 (the clients)"}},
		{[]string{"schedule", "--policy", "fixed", "--client="}, []string{`--client ""`, "1 to 200 (the clients)"}},
		{[]string{"crowd", "--seeds="}, []string{`--seeds ""`, "1 to 10000"}},
		{[]string{"--clients="}, []string{`--clients ""`, "1 to 10000000"}},
		{[]string{"crowd", "--jitter="}, []string{`--jitter ""`, "none, full"}},
		{[]string{"crowd", "--preset="}, []string{`--preset ""`, "grpc"}},
	}
}

// checkUsageError runs args and checks that they fail as a command line
// must: exit 2, nothing on standard output, one line on standard error
// saying each of want.
func checkUsageError(t *testing.T, args []string, want ...string) {
	t.Helper()
	out, errs, code := runArgs(t, "", args...)
	if code != 2 {
		t.Errorf("%q: exit %d, want 2", args, code)
	}
	if out != "" {
		t.Errorf("%q: stdout %q, want nothing", args, out)
	}
	if !strings.HasPrefix(errs, "retry-planner: ") || !strings.HasSuffix(errs, "\n") || strings.Count(errs, "\n") != 1 {
		t.Errorf("%q: stderr %q, want one line starting retry-planner: ", args, errs)
	}
	for _, w := range want {
		if !strings.Contains(errs, w) {
			t.Errorf("%q: stderr %q does not say %q", args, errs, w)
		}
	}
}

// Every command line the program cannot run: exit 2, nothing on standard
// output, one line on standard error naming what was wrong and what is
// allowed.
func TestReportErrors(t *testing.T) {
	for _, tt := range errorCases() {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			checkUsageError(t, tt.args, tt.want...)
		})
	}
	// Every settings flag is refused out of its range, before or after a command.
	for _, f := range []string{"--first-wait", "--longest", "--attempts", "--clients", "--outage", "--seed", "--slot",
		"--max-elapsed", "--capacity", "--load", "--load-until", "--processes",
		"--custom-first-wait", "--custom-longest", "--custom-attempts", "--custom-max-elapsed"} {
		for _, args := range [][]string{{f, "9999999999"}, {f, "9999999999", "crowd"}, {"crowd", f, "9999999999"}} {
			checkUsageError(t, args, f+" 9999999999")
		}
	}
}

// --plain keeps the reference's settings: each flag beyond them is refused,
// before or after --plain, with one line that names it.
func TestPlainRefusesNewFlags(t *testing.T) {
	for _, fv := range [][2]string{{"--draws", "independent"}, {"--draws", "reference"}, {"--multiplier", "2"}, {"--jitter", "none"},
		{"--max-elapsed", "0"}, {"--preset", "grpc"}, {"--capacity", "100"}, {"--load", "10"}, {"--load-until", "1s"},
		{"--budget", "none"}, {"--processes", "1"},
		{"--custom-first-wait", "1s"}, {"--custom-longest", "16s"}, {"--custom-attempts", "6"}, {"--custom-max-elapsed", "0"}} {
		for _, args := range [][]string{{"--plain", fv[0], fv[1]}, {fv[0], fv[1], "--plain"}, {fv[0] + "=" + fv[1], "--plain"}} {
			checkUsageError(t, args, "--plain keeps the reference's settings and takes no "+fv[0]+":")
		}
	}
}

// A reader that goes away (| head) is no failure: exit 0, nothing said.
func TestReaderGoneIsQuiet(t *testing.T) {
	for _, args := range [][]string{{"crowd"}, {"--help"}, {"--plain"}} {
		var errb bytes.Buffer
		if code := Run(args, strings.NewReader("2\n"), closedPipe{}, &errb); code != 0 || errb.Len() > 0 {
			t.Errorf("%q to a closed pipe: exit %d, stderr %q; want 0 and nothing", args, code, errb.String())
		}
	}
	// Any other failure to write is an error, --plain's included.
	var errb bytes.Buffer
	if code := Run([]string{"--plain"}, strings.NewReader("2\n"), brokenWriter{}, &errb); code != 1 || !strings.Contains(errb.String(), "disk full") {
		t.Errorf("--plain to a full disk: exit %d, stderr %q; want 1 and the error", code, errb.String())
	}
}

type closedPipe struct{}

func (closedPipe) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
}

type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// A report that cannot be written says so and exits 1.
func TestReportWriteFails(t *testing.T) {
	var errb bytes.Buffer
	if code := Run([]string{"crowd"}, strings.NewReader(""), brokenWriter{}, &errb); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if want := "retry-planner: writing the crowd report: disk full\n"; errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
}

// One rule for a number on the command line, backoff's: 1 to 10 ASCII
// digits, plain or in groups of three split by one comma or underscore
// throughout, as the program writes numbers; no sign, no spaces. A time is
// a Go duration of whole ms with its unit, in any case, also without a
// sign; a number alone is refused (issue 24, item 5). --plain takes digits
// alone.
func TestNumbersOneRule(t *testing.T) {
	tests := []struct {
		flags  [][]string // each takes the value last
		values []string
		taken  bool
	}{
		{numberFlags(), []string{"5", "05", "0000005", "0000000005", "0,005", "0_005", "0,000,005"}, true},
		{numberFlags(), []string{"+5", "-0", "-5", "+0", " 5", "5 ", "5\t", "\u0665", "\uff15", "5_0", "0x5", "5e0", "5.0", "00000000005", "",
			",5", "5,", "0,05", "00,0005", "0,000_005", "0, 005"}, false},
		{timeFlags(), []string{"2s", "2.0s", "2000ms", "0m2s", "1s1000ms", "2S", "2000MS", "2000Ms", "0M2S"}, true},
		{timeFlags(), []string{"2000", "02000", "0002000", "0000002000", "2,000", "2_000", "+2000", "-0", "+2s", "-0s", "-2s", " 2s", "2s ",
			"00000002000", "2000 ms", "", "2,00", "2,000ms", "2.0", "2sec"}, false},
		{plainFlags(), []string{"5", "05"}, true},
		{plainFlags(), []string{"0,005", "0_005"}, false},
		{plainTimeFlags(), []string{"5ms", "05ms", "5MS"}, true},
		{plainTimeFlags(), []string{"5", "05", "0,005", "0_005"}, false},
	}
	for _, tt := range tests {
		for _, flag := range tt.flags {
			for _, v := range tt.values {
				args := append(slices.Clone(flag), v)
				_, err := parseArgs(args)
				if got := err == nil; got != tt.taken {
					t.Errorf("%q: got %v, want taken %v", args, err, tt.taken)
				}
				var uerr *usageError
				if err != nil && (!errors.As(err, &uerr) || !strings.Contains(uerr.msg, flag[len(flag)-1]+" ")) {
					t.Errorf("%q: got %v, want a usage error naming %s", args, err, flag[len(flag)-1])
				}
			}
		}
	}
}

// numberFlags are the flags that take a number, each as it is given, with
// room for 5 and for 2000.
func numberFlags() [][]string {
	return [][]string{{"--attempts"}, {"--clients"}, {"--seed"}, {"crowd", "--seeds"}, {"schedule", "--policy", "fixed", "--client"},
		{"crowd", "--capacity"}, {"crowd", "--load"}, {"crowd", "--processes"}, {"crowd", "--custom-attempts"}}
}

// plainFlags are --plain's flags that take a number, with room for 5.
func plainFlags() [][]string {
	return [][]string{{"--plain", "--attempts"}, {"--plain", "--clients"}}
}

// plainTimeFlags are --plain's flags that take a time, with room for 5 ms.
func plainTimeFlags() [][]string {
	return [][]string{{"--plain", "--first-wait"}, {"--plain", "--slot"}}
}

// timeFlags are the flags that take a time.
func timeFlags() [][]string {
	return [][]string{{"--first-wait"}, {"--longest", "1m", "--longest"}, {"--outage"}, {"crowd", "--slot"}, {"crowd", "--max-elapsed"}, {"crowd", "--load-until"},
		{"crowd", "--custom-first-wait"}, {"crowd", "--custom-longest", "1m", "--custom-longest"}, {"crowd", "--custom-max-elapsed"}}
}

// Issue 19, item 3: crowd --policies grpc,aws says each one's attempts, in
// text and in the seeds' text; the five keep the reference's sentence.
func TestCrowdSaysEachPolicysAttempts(t *testing.T) {
	for _, args := range [][]string{{"crowd", "--policies", "grpc,aws"}, {"crowd", "--policies", "grpc,aws", "--seeds", "3"}} {
		if out := reportOf(t, args...); !strings.Contains(out, "the service is back at 10000 ms; grpc tries 5 times at most, aws 3. Retries counted per 100 ms") {
			t.Errorf("%q: the first sentence does not say grpc's and aws's attempts:\n%s", args, out)
		}
	}
	if out := reportOf(t, "crowd"); !strings.HasPrefix(out, "200 clients fail at 0 ms; the service is back at 10000 ms; each tries 6 times at most. Retries counted per 100 ms:\n") {
		t.Errorf("crowd: the first sentence is not the reference's:\n%s", out)
	}
}
