package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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
	code = run(args, strings.NewReader(stdin), &out, &errb)
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

func reportCases() []reportCase {
	other := otherSettings()
	with := func(args ...string) []string { return append(append([]string(nil), args...), other...) }
	return []reportCase{
		{"defaults/schedule", []string{"schedule", "--policy", "full jitter", "--client", "2"}},
		{"defaults/crowd", []string{"crowd"}},
		{"defaults/crowd-seeds", []string{"crowd", "--seeds", "1000"}},
		{"defaults/timeline", []string{"timeline", "--policy", "equal jitter"}},
		{"defaults/jobs", []string{"jobs", "alpha:0", "bravo:2", "charlie:9", "delta:fatal"}},
		{"other/schedule", with("schedule", "--policy", "equal-jitter", "--client", "50")},
		{"other/crowd", with("crowd", "--slot", "250ms")},
		{"other/crowd-seeds", with("crowd", "--seeds", "50", "--slot", "250ms")},
		{"other/timeline", with("timeline", "--policy", "decorrelated", "--slot", "500ms")},
		{"other/jobs", with("jobs", "a:0", "b:3 c:9", "d:fatal", "e:7")},
		// One client, three tries: through in some seeds and not in others,
		// so percentiles of "all through by" land on both.
		{"other/crowd-seeds-none-through", []string{"crowd", "--seeds", "200", "--clients", "1", "--attempts", "3", "--outage", "2500"}},
	}
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
				checkGolden(t, filepath.Join("testdata", "reports", rc.name+fe[1]), reportOf(t, args...))
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
		{"help", [][]string{{"--help"}, {"-h"}, {"help"}, {"--plain", "--help"}, {"--seed", "3", "-help"}, {"--seed", "x", "--help"}}},
		{"help-schedule", [][]string{{"schedule", "--help"}, {"help", "schedule"}, {"schedule", "--policy", "fast", "-h"}}},
		{"help-crowd", [][]string{{"crowd", "--help"}, {"help", "crowd"}, {"--attempts", "99", "crowd", "--help"}}},
		{"help-timeline", [][]string{{"timeline", "--help"}, {"help", "timeline"}}},
		{"help-jobs", [][]string{{"jobs", "--help"}, {"help", "jobs"}, {"jobs", "x", "--help"}}},
	}
	for _, c := range cases {
		path := filepath.Join("testdata", "reports", c.golden+".txt")
		for i, args := range c.args {
			out, errs, code := runArgs(t, "", args...)
			if code != 0 || errs != "" {
				t.Errorf("%q: exit %d, stderr %q; want 0 and nothing", args, code, errs)
			}
			if !strings.Contains(out, "Example") {
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
	want := reportOf(t, "crowd", "--first-wait", "250", "--clients", "50", "--outage", "5000")
	for _, args := range [][]string{
		{"--first-wait", "250", "--clients", "50", "--outage", "5000", "crowd"},
		{"--first-wait=250ms", "crowd", "-clients=50", "-outage", "5s"},
		{"--clients", "7", "crowd", "--first-wait", "0.25s", "--clients", "50", "--outage", "5000"},
		{"--outage", "5000", "crowd", "--clients", "50", "--first-wait", "250"},
	} {
		if got := reportOf(t, args...); got != want {
			t.Errorf("%q: got\n%s\nwant\n%s", args, got, want)
		}
	}
	// The longest wait's range starts at the first wait, whichever comes first.
	want = reportOf(t, "crowd", "--first-wait", "100", "--longest", "500")
	if got := reportOf(t, "--longest", "500", "crowd", "--first-wait", "100"); got != want {
		t.Errorf("--longest before --first-wait: got\n%s\nwant\n%s", got, want)
	}
}

func TestParseArgsSettingsInEveryMode(t *testing.T) {
	for _, args := range [][]string{
		{"--first-wait", "2s", "--longest", "1m", "--attempts", "9", "--clients", "10", "--outage", "0", "--seed", "5", "--slot", "1s"},
		{"--plain", "--first-wait", "2s", "--longest", "1m", "--attempts", "9", "--clients", "10", "--outage", "0", "--seed", "5", "--slot", "1s"},
		{"--first-wait", "2000", "--longest", "60000", "--attempts", "9", "--plain", "--clients", "10", "--outage", "0", "--seed", "5", "--slot", "1000"},
		{"--first-wait", "2000", "--longest", "60000", "crowd", "--attempts", "9", "--clients", "10", "--outage", "0", "--seed", "5", "--slot", "1000"},
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

func TestParseMillis(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"1000", 1000, true},
		{"0", 0, true},
		{"-5", 0, false}, // no sign, as --plain reads a number
		{"+5", 0, false},
		{"-1s", 0, false},
		{"+1s", 0, false},
		{"-0s", 0, false},
		{"0000005", 5, true},
		{"00000005", 0, false}, // more digits than --plain reads
		{"1s", 1000, true},
		{"250ms", 250, true},
		{"1.5s", 1500, true},
		{"2m", 120000, true},
		{"1m30s", 90000, true},
		{"1.5ms", 0, false},
		{"100us", 0, false},
		{"1", 1, true},
		{"", 0, false},
		{"ten", 0, false},
		{"10 s", 0, false},
		{"1e3", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseMillis(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseMillis(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestPolicyNames(t *testing.T) {
	for _, name := range []string{"fixed", "exponential", "full jitter", "full-jitter", "equal jitter", "equal-jitter", "decorrelated"} {
		if _, err := parsePolicy(name); err != nil {
			t.Errorf("parsePolicy(%q): %v", name, err)
		}
	}
	for _, name := range []string{"", "Full Jitter", "full_jitter", "fulljitter", "full  jitter", " fixed", "jitter"} {
		if _, err := parsePolicy(name); err == nil {
			t.Errorf("parsePolicy(%q): no error", name)
		}
	}
}

// The crowd over many seeds comes out the same on any number of workers.
func TestSeedsReportSameForAnyWorkers(t *testing.T) {
	opts, err := parseArgs([]string{"crowd", "--seeds", "300", "--clients", "100", "--format", "csv"})
	if err != nil {
		t.Fatal(err)
	}
	want := opts.report.render(opts.settings, 1)
	for _, workers := range []int{2, 5} {
		if got := opts.report.render(opts.settings, workers); got != want {
			t.Errorf("%d workers: got\n%s\nwant (1 worker)\n%s", workers, got, want)
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
// naming a golden file holds that file.
func TestReadmeExamplesAreGoldens(t *testing.T) {
	readme, err := os.ReadFile("README.md")
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
		want, err := os.ReadFile(filepath.Join("testdata", "reports", name))
		if err != nil {
			t.Fatalf("the README shows %s: %v", name, err)
		}
		if block != string(want) {
			t.Errorf("the README's %s: got\n%s\nwant\n%s", name, block, want)
		}
		examples++
	}
	if examples < 2 {
		t.Errorf("the README shows %d golden examples, want the crowd's CSV and JSON at least", examples)
	}
}

// Whatever the command line, parseArgs returns options, a request for help,
// or a usage error of one line.
func FuzzParseArgs(f *testing.F) {
	for _, rc := range reportCases() {
		f.Add(strings.Join(rc.args, "\x00"))
	}
	for _, seed := range []string{"", "--plain", "--help", "help\x00crowd", "--seed\x00", "jobs\x00--\x00-x:1",
		"--first-wait=1.5ms", "crowd\x00--format\x00a\nb", "jobs\x00a:1\tb:2", "--longest\x00500\x00crowd\x00--first-wait\x00100"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		_, err := parseArgs(args)
		var help *helpRequest
		var uerr *usageError
		switch {
		case err == nil, errors.As(err, &help):
		case errors.As(err, &uerr):
			if uerr.msg == "" || strings.ContainsAny(uerr.msg, "\n\r") {
				t.Errorf("%q: message %q, want one line", args, uerr.msg)
			}
		default:
			t.Errorf("%q: %T %v, want a usage error", args, err, err)
		}
	})
}

// Whatever is typed as a time, parseMillis never panics, takes no sign, and
// what it takes it takes exactly: the milliseconds written back as a Go
// duration, and as a number where one has few enough digits, read back the
// same.
func FuzzParseMillis(f *testing.F) {
	for _, s := range []string{"1000", "0", "-5", "1s", "250ms", "1.5s", "1.5ms", "1m30s", "", "1e3", "9223372036854775807", "2562047h47m16.854775807s", "+7", "-0s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := parseMillis(s)
		if ok && (n < 0 || strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-")) {
			t.Fatalf("parseMillis(%q) = %d: took a sign or gave a negative time", s, n)
		}
		if !ok {
			if n != 0 {
				t.Fatalf("parseMillis(%q): refused but gave %d", s, n)
			}
			return
		}
		if back, ok := parseMillis(strconv.Itoa(n)); n < 1e7 && (!ok || back != n) {
			t.Fatalf("parseMillis(%q) = %d, but %d reads back as %d, %v", s, n, n, back, ok)
		}
		if d := time.Duration(n) * time.Millisecond; d/time.Millisecond == time.Duration(n) {
			if back, ok := parseMillis(d.String()); !ok || back != n {
				t.Fatalf("parseMillis(%q) = %d, but %s reads back as %d, %v", s, n, d, back, ok)
			}
		}
	})
}
