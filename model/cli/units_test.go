package cli

import (
	"math/rand/v2"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/plan"
)

// timeFlagArgs are every flag that takes a time, each as it is given: the
// settings' (found in settingFlags, so that a new one is not missed), the
// timeline's row and the ceiling on time.
func timeFlagArgs() [][]string {
	var out [][]string
	for _, sf := range settingFlags() {
		if sf.kind == timeValue {
			out = append(out, []string{"crowd", "--" + sf.name})
		}
	}
	return append(out, []string{"timeline", "--policy", "fixed", "--every"}, []string{"crowd", "--max-time"})
}

// Issue 24, item 5: a bare number is no time. Each time flag refuses one,
// in one line naming both readings, with exit 2; it takes a unit in any
// case, and 0 alone.
func TestTimeFlagsNeedAUnit(t *testing.T) {
	flags := timeFlagArgs()
	if len(flags) != 14 {
		t.Errorf("got %d time flags, want 14 (twelve settings, --every and --max-time): %q", len(flags), flags)
	}
	for _, flag := range flags {
		name := flag[len(flag)-1]
		for value, want := range map[string]string{
			"45":    name + " 45: a time needs a unit: 45ms or 45s?",
			"1,500": name + ` "1,500": a time needs a unit: 1500ms or 1500s?`,
			"1.5":   name + " 1.5: a time needs a unit: 1.5s?",
		} {
			out, errs, code := runArgs(t, "", append(flag, value)...)
			if code != 2 || out != "" || errs != "retry-planner: "+want+"\n" {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing and %q", append(flag, value), code, out, errs, want)
			}
		}
	}
	// The line: a 45 ms outage and a 3 ms timeout, run in silence.
	if _, errs, code := runArgs(t, "", "crowd", "--outage", "45", "--timeout", "3", "--queue", "10", "--capacity", "10"); code != 2 ||
		errs != "retry-planner: --outage 45: a time needs a unit: 45ms or 45s?\n" {
		t.Errorf("--outage 45 --timeout 3: exit %d, %q; want 2 and the outage named", code, errs)
	}
	// In any case, and 0 alone; the same settings however written.
	for _, tt := range []struct {
		args []string
		want func(s backoff.Settings) bool
	}{
		{[]string{"--outage", "45S"}, func(s backoff.Settings) bool { return s.Outage == 45000 }},
		{[]string{"--outage", "45s"}, func(s backoff.Settings) bool { return s.Outage == 45000 }},
		{[]string{"--outage", "3000MS"}, func(s backoff.Settings) bool { return s.Outage == 3000 }},
		{[]string{"--outage", "1M30S"}, func(s backoff.Settings) bool { return s.Outage == 90000 }},
		{[]string{"--outage", "2H"}, func(s backoff.Settings) bool { return s.Outage == 7200000 }},
		{[]string{"--outage", "0"}, func(s backoff.Settings) bool { return s.Outage == 0 }},
		{[]string{"--max-elapsed", "0"}, func(s backoff.Settings) bool { return s.MaxElapsed == 0 }},
		{[]string{"--load-until", "0", "--load", "5"}, func(s backoff.Settings) bool { return s.LoadUntil == 0 }},
		{[]string{"--first-wait=1.5s"}, func(s backoff.Settings) bool { return s.FirstWait == 1500 }},
	} {
		opts, err := parseArgs(append([]string{"crowd"}, tt.args...))
		if err != nil || !tt.want(opts.report.settings) {
			t.Errorf("%q: got %+v, %v", tt.args, opts.report.settings, err)
		}
	}
	// --plain's flags are flags: a unit there too; its menu's answers stay
	// the reference's, bare milliseconds (its sessions hold them).
	if _, errs, code := runArgs(t, "2\n6\n", "--plain", "--outage", "45"); code != 2 || !strings.Contains(errs, "--outage 45: a time needs a unit: 45ms or 45s?") {
		t.Errorf("--plain --outage 45: exit %d, %q; want 2 and the readings", code, errs)
	}
}

// The help says the unit: every time flag's line, and the rule.
func TestHelpSaysTimesUnits(t *testing.T) {
	page := strings.Join(strings.Fields(reportOf(t, "help", "settings")), " ") // its lines joined
	for _, want := range []string{"a time needs a unit", "45ms or 45s", "in any case"} {
		if !strings.Contains(page, want) {
			t.Errorf("help settings does not say %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "whole milliseconds (1000") {
		t.Errorf("help settings still offers bare milliseconds:\n%s", page)
	}
}

// The shells complete a time's number with its units, and nothing else.
func TestCompletionOffersUnits(t *testing.T) {
	for _, flag := range timeFlagArgs() {
		args := append(append([]string{"__complete"}, flag...), "45")
		out, _, code := runArgs(t, "", args...)
		if code != 0 || !strings.HasPrefix(out, "45ms\n45s\n45m\n45h\n:4\n") {
			t.Errorf("%q: exit %d, %q; want 45ms, 45s, 45m and 45h, no files", args, code, out)
		}
		args[len(args)-1] = "45s"
		if out, _, _ := runArgs(t, "", args...); !strings.HasPrefix(out, ":4\n") {
			t.Errorf("%q: got %q, want nothing more and no files", args, out)
		}
	}
}

// Every command the program writes for a plan (plan.Flags, and so the save
// box's, CommandLine and advise's) reads back as the same settings: times
// carry their unit in the shortest form, which the same parser takes.
func TestWrittenCommandsReadBack(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 5))
	ms := func(low, high int) int {
		switch r.IntN(4) {
		case 0:
			return low
		case 1:
			return high
		case 2: // a round number of seconds, minutes or hours
			unit := []int{1000, 60000, 3600000}[r.IntN(3)]
			if v := (low + r.IntN(high-low+1)) / unit * unit; v >= low {
				return v
			}
		}
		return low + r.IntN(high-low+1)
	}
	for i := range 3000 {
		s := plan.DefaultSettings()
		s.FirstWait = ms(1, backoff.MaxWait)
		s.LongestWait = ms(s.FirstWait, backoff.MaxWait)
		s.Outage = ms(0, backoff.MaxTime)
		s.Slot = ms(1, backoff.MaxWait)
		s.MaxElapsed = ms(0, backoff.MaxTime)
		s.CustomFirstWait = ms(1, backoff.MaxWait)
		s.CustomLongestWait = ms(s.CustomFirstWait, backoff.MaxWait)
		s.CustomMaxElapsed = ms(0, backoff.MaxTime)
		s.LoadUntil = ms(0, backoff.MaxTime)
		s.Capacity, s.Queue = 1+r.IntN(100000), r.IntN(1000)
		s.Budget, s.Processes = backoff.Budget{Kind: backoff.BudgetGRPC, A: 10, B: 100}, []int{1, 2, backoff.MaxProcesses, backoff.PerClient}[r.IntN(4)]
		if s.Queue > 0 {
			s.Timeout = ms(0, backoff.MaxTimeout)
		}
		p := plan.Plan{Settings: s, Policies: []string{"fixed"}}
		words := strings.Fields(plan.CommandLine(p))
		opts, err := parseArgs(words[1:])
		if err != nil {
			t.Fatalf("case %d: %s: %v", i, plan.CommandLine(p), err)
		}
		if got := opts.report.settings; got != s {
			t.Fatalf("case %d: %s reads as %+v, want %+v", i, plan.CommandLine(p), got, s)
		}
		for j, w := range words {
			if sf, ok := findSetting(strings.TrimPrefix(w, "--")); ok && sf.kind == timeValue && len(backoff.TimeReadings(words[j+1])) > 0 {
				t.Fatalf("case %d: %s %s: a time without its unit", i, w, words[j+1])
			}
		}
	}
}

// The README's commands still run: each line that starts with
// retry-planner in its sh blocks, and the commands its examples show
// (advise's), read as the program reads them (its plans from the
// repository, no file there to overwrite).
func TestReadmeCommandsParse(t *testing.T) {
	readme := readFile(t, filepath.Join("..", "..", "README.md"))
	fsys := fuzzFiles{}
	for _, name := range []string{"compare-a.toml"} {
		fsys[path.Join("testdata", "plans", name)] = readFile(t, filepath.Join(repoTestdata, "plans", name))
	}
	var commands []string
	inSh := false
	lines := strings.Split(strings.ReplaceAll(readme, "\\\n", ""), "\n") // continuations joined
	for _, line := range lines {
		switch trimmed := strings.TrimSpace(line); {
		case strings.HasPrefix(line, "```"):
			inSh = line == "```sh"
		case inSh && strings.HasPrefix(trimmed, "retry-planner "), strings.HasPrefix(trimmed, "retry-planner crowd --policies"):
			commands = append(commands, trimmed)
		}
	}
	if len(commands) < 7 {
		t.Fatalf("found %d commands in the README, want its 6 examples and advise's", len(commands))
	}
	for _, c := range commands {
		var args []string
		for _, w := range strings.Fields(c)[1:] {
			args = append(args, strings.Trim(w, "'")) // 'recovered<=120s'
		}
		if _, err := parseArgsIn(fsys, args); err != nil {
			t.Errorf("the README's %s: %v", c, err)
		}
	}
}

// Issue 24, item 7: a process per client, crowd and fresh requests alike,
// on the command line, in plans and in the commands written; its verdict
// says each client has its own budget.
func TestProcessesPerClient(t *testing.T) {
	for _, v := range []string{"clients", "CLIENTS", "Clients"} {
		opts, err := parseArgs([]string{"crowd", "--processes", v, "--budget", "grpc:10:0.1"})
		if err != nil || opts.report.settings.Processes != backoff.PerClient {
			t.Errorf("--processes %s: got %d, %v; want a process per client", v, opts.report.settings.Processes, err)
		}
	}
	for _, v := range []string{"client", "-1", "0", "100001", ""} {
		_, errs, code := runArgs(t, "", "crowd", "--processes", v)
		if code != 2 || !strings.HasSuffix(errs, "want a whole number from 1 to 100000, or clients (a process for each client, the fresh requests included)\n") {
			t.Errorf("--processes %q: exit %d, %q; want 2 and the range with clients", v, code, errs)
		}
	}
	// Saved, loaded and written as a command: "clients" throughout.
	dir := t.TempDir()
	saved := filepath.Join(dir, "p.toml")
	args := []string{"crowd", "--clients", "30", "--load", "2", "--outage", "5s", "--load-until", "5s", "--budget", "grpc:3:0.5", "--processes", "clients",
		"--policies", "fixed"}
	direct := reportOf(t, append(args, "--save-plan", saved)...)
	if text := readFile(t, saved); !strings.Contains(text, "\nprocesses = \"clients\"\n") {
		t.Errorf("the plan saved does not say processes = \"clients\":\n%s", text)
	}
	if again := reportOf(t, "--plan", saved, "crowd"); again != direct {
		t.Errorf("the plan saved runs\n%s\nwant\n%s", again, direct)
	}
	p := plan.Default()
	p.Settings.Budget, p.Settings.Processes = backoff.Budget{Kind: backoff.BudgetGRPC, A: 3, B: 500}, backoff.PerClient
	if got := plan.CommandLine(p); !strings.HasSuffix(got, " --processes clients") {
		t.Errorf("CommandLine: got %s, want --processes clients", got)
	}
	// 30 clients and 10 fresh requests (2 a second for 5 s, while the
	// service is down), each with 3 tokens: each retries once, a second
	// later, and is throttled at a second failure while down.
	if !strings.Contains(direct, "were throttled by the budget (each client has its own budget, and so does each fresh request)") {
		t.Errorf("the verdict does not say each has its own budget:\n%s", direct)
	}
	if !strings.Contains(direct, "budget grpc:3:0.5 in each of 40 processes, one a client") {
		t.Errorf("the report does not say 40 processes, one a client:\n%s", direct)
	}
	doc := reportOf(t, append(args, "--format", "json")...)
	if !strings.Contains(doc, `"processes": 40,`) {
		t.Errorf("JSON: want the 40 processes that ran:\n%s", doc)
	}
}
