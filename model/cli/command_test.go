package cli

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
	"github.com/spf13/cobra"
)

// helpPages is every help the program gives: the root's, each command's
// (the completion's shells included) and each topic's, as a person asks for
// them (COMMAND --help, help TOPIC).
func helpPages(t *testing.T) map[string]string {
	t.Helper()
	pages := map[string]string{}
	var walk func(cmd *cobra.Command, path []string)
	walk = func(cmd *cobra.Command, path []string) {
		args := append(slices.Clone(path), "--help")
		if cmd.IsAdditionalHelpTopicCommand() {
			args = []string{"help", cmd.Name()}
		}
		out, errs, code := runArgs(t, "", args...)
		if code != 0 || errs != "" {
			t.Fatalf("%q: exit %d, stderr %q", args, code, errs)
		}
		pages[strings.Join(args, " ")] = out
		for _, sub := range cmd.Commands() {
			if sub.Name() != "help" {
				walk(sub, append(slices.Clone(path), sub.Name()))
			}
		}
	}
	walk(newRoot(&parse{files: osFiles{}}, io.Discard), nil)
	return pages
}

// Every line of every help fits a terminal of 80 columns.
func TestHelpFits80Columns(t *testing.T) {
	pages := helpPages(t)
	for _, want := range []string{"--help", "crowd --help", "schedule --help", "timeline --help", "jobs --help", "completion --help",
		"completion bash --help", "man --help", "version --help", "help model", "help settings", "advise --help", "help goals"} {
		if _, ok := pages[want]; !ok {
			t.Errorf("no help for %q among %d pages", want, len(pages))
		}
	}
	for path, page := range pages {
		for i, line := range strings.Split(page, "\n") {
			if n := len([]rune(line)); n > helpWidth {
				t.Errorf("%q --help line %d is %d columns, want at most %d: %q", path, i+1, n, helpWidth, line)
			}
		}
	}
}

// Issue 24, item 10: no help page breaks a line between a number and its
// unit ("1⏎min") or inside a hyphenated word.
func TestHelpKeepsNumbersWithTheirUnits(t *testing.T) {
	for path, page := range helpPages(t) {
		lines := strings.Split(page, "\n")
		for i := 0; i+1 < len(lines); i++ {
			end, next := strings.Fields(lines[i]), strings.Fields(lines[i+1])
			if len(end) == 0 || len(next) == 0 {
				continue
			}
			last := end[len(end)-1]
			// A mark keeps any word, "a" among them: the help's marks are
			// its tables', not a legend's.
			if words.Keeps(last, next[0]) && !words.Keeps(last, "a") {
				t.Errorf("%q line %d ends %q, line %d starts %q", path, i+1, last, i+2, next[0])
			}
		}
	}
}

// The shells' completion scripts, and the values they complete.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		out, errs, code := runArgs(t, "", "completion", shell)
		if code != 0 || errs != "" || !strings.Contains(out, "retry-planner") || len(out) < 1000 {
			t.Errorf("completion %s: exit %d, stderr %q, %d bytes; want a script", shell, code, errs, len(out))
		}
	}
	complete := func(args ...string) []string {
		t.Helper()
		out, _, code := runArgs(t, "", append([]string{"__complete"}, args...)...)
		if code != 0 {
			t.Fatalf("__complete %q: exit %d", args, code)
		}
		var values []string
		for _, line := range strings.Split(out, "\n") {
			if line != "" && !strings.HasPrefix(line, ":") && !strings.HasPrefix(line, "Completion ended") {
				values = append(values, strings.Split(line, "\t")[0])
			}
		}
		return values
	}
	policies := complete("crowd", "--policies", "")
	for _, want := range []string{"fixed", "exponential", "full-jitter", "equal-jitter", "decorrelated", "custom", "grpc", "aws", "cenkalti", "retryablehttp", "client-go", "envoy", "polly"} {
		if !slices.Contains(policies, want) {
			t.Errorf("crowd --policies: got %q, want %s among them", policies, want)
		}
	}
	// After a comma it completes the next name, leaving out those given.
	if got := complete("crowd", "--policies", "grpc,"); slices.Contains(got, "grpc,grpc") || !slices.Contains(got, "grpc,aws") {
		t.Errorf("crowd --policies grpc,: got %q, want grpc,aws and no grpc,grpc", got)
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"timeline", "--policy", ""}, []string{"all", "fixed", "grpc"}},
		{[]string{"schedule", "--policy", ""}, []string{"full-jitter", "polly"}},
		{[]string{"crowd", "--format", ""}, []string{"text", "csv", "json", "svg", "png"}},
		{[]string{"jobs", "--format", ""}, []string{"text", "csv", "json"}},
		{[]string{"crowd", "--preset", ""}, []string{"grpc", "aws", "envoy"}},
		{[]string{"--jitter", ""}, []string{"full", "equal", "decorrelated"}},
		{[]string{"crowd", "--draws", ""}, []string{"reference", "independent"}},
		{[]string{"advise", "--goal", ""}, []string{"not-through<=1%", "recovered<=60s", "peak<=2x", "peak<=5000/s", "p99<=30s", "attempts<=3x"}},
		{[]string{"--goal", ""}, []string{"recovered<=60s"}},
		{[]string{"advise", "--format", ""}, []string{"text", "csv", "json"}},
		{[]string{""}, []string{"crowd", "schedule", "timeline", "jobs", "advise", "version", "man", "completion"}},
	} {
		got := complete(tt.args...)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: got %q, want %s among them", tt.args, got, w)
			}
		}
	}
	// A number or a time completes nothing, not a file: custom's own waits
	// as the five's.
	for _, args := range [][]string{{"crowd", "--custom-attempts", ""}, {"--custom-first-wait", ""}, {"crowd", "--custom-longest", ""},
		{"crowd", "--custom-max-elapsed", ""}, {"crowd", "--attempts", ""}} {
		out, _, _ := runArgs(t, "", append([]string{"__complete"}, args...)...)
		if got := complete(args...); len(got) != 0 || !strings.HasPrefix(out, ":4\n") {
			t.Errorf("%q: got %q and %q, want nothing and no files (:4)", args, got, out)
		}
	}
	if got := complete("crowd", "--custom-"); !slices.Contains(got, "--custom-first-wait") || !slices.Contains(got, "--custom-max-elapsed") {
		t.Errorf("crowd --custom-: got %q, want custom's own flags", got)
	}
	if got := complete("jobs", "--format", ""); slices.Contains(got, "png") {
		t.Errorf("jobs --format: got %q, want no pictures", got)
	}
}

// Issue 25, item 14: a word that is no shell, or none, is a bad command
// line: exit 2, one line naming the four shells, nothing on standard
// output (which a person would install as a script).
func TestCompletionRefusesNoShell(t *testing.T) {
	for _, tt := range []struct {
		args []string
		near string // the shell it suggests, if any
	}{
		{[]string{"completion", "pwsh"}, "powershell"},
		{[]string{"completion", "PWSH"}, "powershell"},
		{[]string{"completion", ""}, ""},
		{[]string{"completion", "/usr/share/bash-completion/completions/retry-planner"}, ""},
		{[]string{"completion"}, ""},
		{[]string{"completion", "bsah"}, "bash"},
	} {
		out, errs, code := runArgs(t, "", tt.args...)
		if code != 2 || out != "" {
			t.Errorf("%q: exit %d, %d bytes on standard output; want 2 and none", tt.args, code, len(out))
		}
		if strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "bash, zsh, fish or powershell\n") {
			t.Errorf("%q: stderr %q, want one line ending in the four shells", tt.args, errs)
		}
		if got := strings.Contains(errs, "did you mean"); got != (tt.near != "") || tt.near != "" && !strings.Contains(errs, "did you mean "+tt.near+"?") {
			t.Errorf("%q: stderr %q, want a suggestion of %q", tt.args, errs, tt.near)
		}
	}
	// Its help is still help.
	if out, _, code := runArgs(t, "", "completion", "--help"); code != 0 || !strings.Contains(out, "completion SHELL") || !strings.Contains(out, "powershell  the completion script for powershell") {
		t.Errorf("completion --help: exit %d, %q; want its help", code, out)
	}
}

// version, --version and -v print the version in one line; man writes a
// roff page with every command and settings flag.
func TestVersionAndMan(t *testing.T) {
	want, _, _ := runArgs(t, "", "--version")
	for _, args := range [][]string{{"version"}, {"-v"}, {"--version"}} {
		out, errs, code := runArgs(t, "", args...)
		if code != 0 || errs != "" || out != want || !strings.HasPrefix(out, "retry-planner ") || strings.Count(out, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", args, code, out, errs, want)
		}
	}
	page, errs, code := runArgs(t, "", "man")
	if code != 0 || errs != "" || !strings.HasPrefix(page, ".TH RETRY-PLANNER 1 ") {
		t.Fatalf("man: exit %d, stderr %q, page starts %q; want a roff page with .TH", code, errs, page[:min(len(page), 200)])
	}
	for _, f := range backoff.Fields() {
		if !strings.Contains(page, `\fB\-\-`+strings.ReplaceAll(f.Flag(), "-", `\-`)+`\fR`) {
			t.Errorf("man: no --%s", f.Flag())
		}
	}
	for _, w := range []string{".SS crowd", ".SS schedule", ".SS timeline", ".SS jobs", ".SS completion", `\-\-plain`, `\-\-policies`,
		`\-\-seeds`, `\-\-budget`, ".SH HELP MODEL", ".SH HELP PRESETS"} {
		if !strings.Contains(page, w) {
			t.Errorf("man: no %s", w)
		}
	}
}
