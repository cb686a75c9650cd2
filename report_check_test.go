package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/retryplanner/retry-planner/views"
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
	end := strings.Index(screen[start:], "\n"+views.Menu)
	if end < 0 {
		t.Fatalf("--plain %q: no menu after %q in\n%s", flags, marker, screen)
	}
	return screen[start : start+end]
}

// The text of each report is what --plain writes for the same figures, at
// the defaults and at another setting given to both as flags.
func TestReportTextIsPlainText(t *testing.T) {
	for _, setting := range []struct {
		name    string
		flags   []string
		clients string
	}{
		{"defaults", nil, "200"},
		{"other", otherSettings(), "50"},
		{"other slot", append(otherSettings(), "--slot", "250ms"), "50"},
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
			{"crowd", []string{"crowd"}, "2\n", views.ChoicePrompt + "2\n"},
			{"timeline", []string{"timeline", "--policy", "equal jitter"}, "3\nequal jitter\n", views.PolicyPrompt + "equal jitter\n"},
			{"timeline per second", []string{"timeline", "--policy", "full jitter", "--slot", "1s"}, "3\nfull jitter\n", views.PolicyPrompt + "full jitter\n"},
			{"jobs", []string{"jobs", "alpha:0", "bravo:2", "charlie:9", "delta:fatal", "echo:4"},
				"4\nalpha:0 bravo:2 charlie:9 delta:fatal echo:4\n", views.JobsPrompt + "alpha:0 bravo:2 charlie:9 delta:fatal echo:4\n"},
		}
		for _, tt := range tests {
			t.Run(setting.name+"/"+tt.name, func(t *testing.T) {
				if slices.Contains(flags, "--slot") && tt.name != "crowd" {
					t.Skip("in --plain, --slot is the crowd's alone: its retries over time are per second")
				}
				want := plainBlock(t, flags, tt.answers, tt.marker)
				if got := reportOf(t, append(slices.Clone(tt.report), flags...)...); got != want {
					t.Errorf("got\n%s\nwant (--plain)\n%s", got, want)
				}
			})
		}
	}
}

// referenceSessions is the reference's sessions beside the repository
// (shared/ is laid beside every clone); the test skips without them.
func referenceSessions(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "shared", "reference", "sessions")
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
	marker := "seed 7.\n\n" + views.Menu + "\n" + views.ChoicePrompt + "2\n"
	start := strings.Index(string(screen), marker)
	if start < 0 {
		t.Fatalf("no crowd after the settings in basic.screen")
	}
	rest := string(screen)[start+len(marker):]
	want := rest[:strings.Index(rest, "\n"+views.Menu)]
	if got := plainBlock(t, []string{"--first-wait", "100"}, "2\n", views.ChoicePrompt+"2\n"); got != want {
		t.Errorf("--plain --first-wait 100: got\n%s\nwant (the reference)\n%s", got, want)
	}
	if got := reportOf(t, "crowd", "--first-wait", "100ms"); got != want {
		t.Errorf("crowd --first-wait 100ms: got\n%s\nwant (the reference)\n%s", got, want)
	}
}

// figures are a report's numbers as rows of fields, "" for a time that does
// not exist; text, CSV and JSON must give the same.
type figures [][]string

func atoiRows(t *testing.T, re *regexp.Regexp, text string) figures {
	t.Helper()
	var rows figures
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		rows = append(rows, m[1:])
	}
	if len(rows) == 0 {
		t.Fatalf("no rows matching %s in\n%s", re, text)
	}
	return rows
}

func csvRows(t *testing.T, doc string) figures {
	t.Helper()
	records, err := csv.NewReader(strings.NewReader(doc)).ReadAll()
	if err != nil {
		t.Fatalf("CSV does not parse: %v\n%s", err, doc)
	}
	if len(records) < 2 {
		t.Fatalf("CSV has no rows under its header:\n%s", doc)
	}
	return records[1:]
}

// jsonTree parses a document into maps, slices, json.Numbers, strings, bools
// and nils, refusing anything after the one document.
func jsonTree(t *testing.T, doc string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("JSON does not parse: %v\n%s", err, doc)
	}
	if dec.More() {
		t.Fatalf("more than one JSON document:\n%s", doc)
	}
	return v
}

// field is a JSON value as a figure: a number's digits, a string, "" for null.
func field(t *testing.T, v any) string {
	t.Helper()
	switch x := v.(type) {
	case nil:
		return ""
	case json.Number:
		return x.String()
	case string:
		return x
	}
	t.Fatalf("not a figure: %#v", v)
	return ""
}

// pick reads the fields at the given keys of each object in list; a key
// "a.b" reads b inside a.
func pick(t *testing.T, list any, keys ...string) figures {
	t.Helper()
	var rows figures
	for _, item := range list.([]any) {
		var row []string
		for _, k := range keys {
			v := item
			for part := range strings.SplitSeq(k, ".") {
				v = v.(map[string]any)[part]
			}
			row = append(row, field(t, v))
		}
		rows = append(rows, row)
	}
	return rows
}

func noMs(s string) string {
	if s == "-" {
		return ""
	}
	return strings.TrimSuffix(s, " ms")
}

// textFigures reads the figures back out of a report's text.
func textFigures(t *testing.T, command string, seeds bool, text string) figures {
	t.Helper()
	switch {
	case command == "schedule":
		rows := atoiRows(t, regexp.MustCompile(`(?m)^  attempt +(\d+)  after +(\d+) ms, at +(\d+) ms$`), text)
		total := regexp.MustCompile(`In all (\d+) ms before the last attempt`).FindStringSubmatch(text)
		return append(rows, []string{"total", total[1]})
	case command == "crowd" && !seeds:
		rows := atoiRows(t, regexp.MustCompile(`(?m)^  ([a-z]+(?: [a-z]+)?) +(\d+) +(\d+) +(\d+) ms +(-|\d+ ms) +(\d+)$`), text)
		for _, r := range rows {
			r[4] = noMs(r[4])
		}
		return rows
	case command == "crowd":
		none := map[string]string{}
		if m := regexp.MustCompile(`(?m)^Seeds in which no client got through, of \d+: (.*)\.$`).FindStringSubmatch(text); m != nil {
			for _, part := range strings.Split(m[1], ", ") {
				policy, n, _ := strings.Cut(part, " in ")
				none[policy] = n
			}
		}
		var rows figures
		var policy string
		for _, line := range strings.Split(text, "\n") {
			if len(line) != 68 || !strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "  policy ") {
				continue
			}
			if name := strings.TrimSpace(line[2:16]); name != "" {
				policy = name
				rows = append(rows, []string{policy})
			}
			row := &rows[len(rows)-1]
			for _, cell := range []string{line[32:44], line[44:56], line[56:68]} {
				*row = append(*row, noMs(strings.TrimSpace(cell)))
			}
			if strings.TrimSpace(line[18:32]) == "gave up" {
				*row = append(*row, cmpOr(none[policy], "0"))
			}
		}
		return rows
	case command == "timeline":
		return atoiRows(t, regexp.MustCompile(`(?m)^ +(\d+) ms +(\d+)  #+$`), text)
	}
	// jobs: the ledger, then each job's result, then the counts.
	var ledger figures
	for _, r := range atoiRows(t, regexp.MustCompile(`(?m)^  (\S+) attempt (\d+): (.*)$`), text) {
		outcome, wait := r[2], "0"
		switch {
		case outcome == "done":
		case strings.HasPrefix(outcome, "failed, retry after "):
			outcome, wait = "retry", strings.TrimSuffix(strings.TrimPrefix(outcome, "failed, retry after "), " ms")
		case outcome == "failed, no attempts left":
			outcome = "gave up"
		case outcome == "cannot be retried, stopped":
			outcome = "refused"
		default:
			t.Fatalf("unknown ledger line %q", r)
		}
		ledger = append(ledger, []string{r[0], r[1], outcome, wait})
	}
	for _, m := range regexp.MustCompile(`(?m)^  (\S+): (?:done on attempt (\d+)|gave up after (\d+) attempts|cannot be retried)$`).FindAllStringSubmatch(text, -1) {
		switch {
		case m[2] != "":
			ledger = append(ledger, []string{m[1], "done", m[2]})
		case m[3] != "":
			ledger = append(ledger, []string{m[1], "gave up", m[3]})
		default:
			ledger = append(ledger, []string{m[1], "refused", "1"})
		}
	}
	counts := regexp.MustCompile(`Attempts (\d+): (\d+) done, (\d+) failed\. The finally block ran (\d+) times\. Waited (\d+) ms in all\.\nJobs done, given up, refused: (\d+), (\d+), (\d+)\.`).FindStringSubmatch(text)
	if counts == nil {
		t.Fatalf("no counts in\n%s", text)
	}
	return append(ledger, counts[1:])
}

func cmpOr(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// jsonFigures reads the same figures out of a report's JSON.
func jsonFigures(t *testing.T, command string, seeds bool, doc string) figures {
	t.Helper()
	v := jsonTree(t, doc)
	switch {
	case command == "schedule":
		return append(pick(t, v["retries"], "attempt", "wait_ms", "at_ms"), []string{"total", field(t, v["total_ms"])})
	case command == "crowd" && !seeds:
		return pick(t, v["policies"], "policy", "retries", "most_in_a_slot", "busiest_slot_from_ms", "all_through_by_ms", "gave_up")
	case command == "crowd":
		var keys []string
		for _, f := range []string{"retries", "most_in_a_slot", "all_through_by_ms", "gave_up"} {
			keys = append(keys, f+".median", f+".p95", f+".worst")
		}
		return pick(t, v["policies"], append(append([]string{"policy"}, keys...), "seeds_none_through")...)
	case command == "timeline":
		return pick(t, v["slots"], "from_ms", "retries")
	}
	l := v["ledger"].(map[string]any)
	rows := pick(t, l["entries"], "job", "attempt", "outcome", "wait_ms")
	rows = append(rows, pick(t, v["jobs"], "job", "result", "attempts")...)
	return append(rows, []string{field(t, l["attempts"]), field(t, l["done"]), field(t, l["failed"]), field(t, l["finally_runs"]),
		field(t, l["waited_ms"]), field(t, v["jobs_done"]), field(t, v["jobs_gave_up"]), field(t, v["jobs_refused"])})
}

// csvFigures reads them out of a report's CSV, which holds less: the
// schedule has no total and the jobs only their ledger.
func csvFigures(t *testing.T, command string, doc string, fromText figures) (got, want figures) {
	t.Helper()
	rows := csvRows(t, doc)
	switch command {
	case "schedule":
		return rows, fromText[:len(fromText)-1]
	case "jobs":
		return rows, fromText[:len(rows)]
	}
	return rows, fromText
}

// CSV and JSON parse back to the numbers of the text.
func TestReportFormatsAgree(t *testing.T) {
	for _, rc := range reportCases() {
		t.Run(rc.name, func(t *testing.T) {
			command, seeds := rc.args[0], slices.Contains(rc.args, "--seeds")
			text := reportOf(t, append(slices.Clone(rc.args), "--format", "text")...)
			want := textFigures(t, command, seeds, text)
			got := jsonFigures(t, command, seeds, reportOf(t, append(slices.Clone(rc.args), "--format", "json")...))
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("JSON: got %q, want (text) %q", got, want)
			}
			got, wantCSV := csvFigures(t, command, reportOf(t, append(slices.Clone(rc.args), "--format", "csv")...), want)
			if !slices.EqualFunc(got, wantCSV, slices.Equal) {
				t.Errorf("CSV: got %q, want (text) %q", got, wantCSV)
			}
		})
	}
}

// Every command line the program cannot run: exit 2, nothing on standard
// output, one line on standard error naming what was wrong and what is
// allowed.
func TestReportErrors(t *testing.T) {
	settings := []string{"--first-wait", "--longest", "--attempts", "--clients", "--outage", "--seed"}
	tests := []struct {
		args []string
		want []string // each in the message
	}{
		// commands and words
		{[]string{"bogus"}, []string{`unknown command "bogus"`, "schedule, crowd, timeline or jobs"}},
		{[]string{"Crowd"}, []string{`unknown command "Crowd"`}},
		{[]string{"crowd", "extra"}, []string{`"extra"`, "--seeds", "--format"}},
		{[]string{"schedule", "--policy", "fixed", "2"}, []string{`"2"`, "--client"}},
		{[]string{"--plain", "crowd"}, []string{"--plain", `"crowd"`}},
		{[]string{"help", "bogus"}, []string{`"bogus"`, "schedule, crowd, timeline or jobs"}},
		{[]string{"help", "crowd", "jobs"}, []string{"one command"}},
		// flags
		{[]string{"--bogus"}, []string{`"--bogus"`, "--plain", "--help", "--first-wait", "--slot"}},
		{[]string{"crowd", "--bogus=1"}, []string{`"--bogus=1"`, "--seeds", "--format", "--slot"}},
		{[]string{"crowd", "--plain"}, []string{`"--plain"`}},
		{[]string{"schedule", "--policy", "fixed", "--seeds", "5"}, []string{`"--seeds"`, "--policy", "--client"}},
		{[]string{"schedule", "--policy", "fixed", "--slot", "5"}, []string{`"--slot"`, "--client"}},
		{[]string{"jobs", "a:1", "--slot", "5"}, []string{`"--slot"`, "--format"}},
		{[]string{"--slot", "5", "jobs", "a:1"}, []string{"--slot", "jobs has no slots"}},
		{[]string{"--slot", "5", "schedule", "--policy", "fixed"}, []string{"--slot", "schedule has no slots"}},
		{[]string{"--plain=yes"}, []string{"--plain takes no value"}},
		{[]string{"crowd", "--help=1"}, []string{"--help takes no value"}},
		{[]string{"crowd", "--format"}, []string{"--format needs a value", "text, csv or json"}},
		{[]string{"--seed"}, []string{"--seed needs a value", "0 to 999999"}},
		{[]string{"crowd", "--outage"}, []string{"--outage needs a value", "0 to 600000 ms", "1s"}},
		// formats and policies
		{[]string{"crowd", "--format", "xml"}, []string{`--format "xml"`, "text, csv or json"}},
		{[]string{"crowd", "--format", "JSON"}, []string{`--format "JSON"`, "text, csv or json"}},
		{[]string{"schedule"}, []string{"schedule needs --policy", "full jitter", "full-jitter"}},
		{[]string{"timeline"}, []string{"timeline needs --policy", "decorrelated"}},
		{[]string{"schedule", "--policy", "fast"}, []string{`--policy "fast"`, "fixed, exponential, full jitter, equal jitter or decorrelated"}},
		{[]string{"timeline", "--policy", "full_jitter"}, []string{`--policy "full_jitter"`, "full-jitter"}},
		// numbers of the commands
		{[]string{"schedule", "--policy", "fixed", "--client", "0"}, []string{"--client 0", "1 to 200 (the clients)"}},
		{[]string{"schedule", "--policy", "fixed", "--client", "201"}, []string{"--client 201", "1 to 200"}},
		{[]string{"schedule", "--policy", "fixed", "--client", "60", "--clients", "50"}, []string{"--client 60", "1 to 50 (the clients)"}},
		{[]string{"schedule", "--policy", "fixed", "--client", "two"}, []string{"--client two", "whole number"}},
		{[]string{"crowd", "--seeds", "0"}, []string{"--seeds 0", "1 to 10000"}},
		{[]string{"crowd", "--seeds", "10001"}, []string{"--seeds 10001", "1 to 10000"}},
		{[]string{"crowd", "--seeds", "many"}, []string{"--seeds many", "1 to 10000"}},
		{[]string{"crowd", "--slot", "0"}, []string{"--slot 0", "1 to 600000 ms"}},
		{[]string{"timeline", "--policy", "fixed", "--slot", "10m1ms"}, []string{"--slot 10m1ms (600001 ms)", "1 to 600000 ms"}},
		{[]string{"timeline", "--policy", "fixed", "--slot", "1us"}, []string{"--slot 1us", "whole ms", "1 to 600000 ms"}},
		// settings: out of range, and not numbers
		{[]string{"--first-wait", "0"}, []string{"--first-wait 0", "1 to 10000 ms"}},
		{[]string{"crowd", "--first-wait", "11s"}, []string{"--first-wait 11s (11000 ms)", "1 to 10000 ms"}},
		{[]string{"--first-wait", "1.5ms", "crowd"}, []string{"--first-wait 1.5ms", "whole milliseconds (1000)", "250ms"}},
		{[]string{"--first-wait", "soon"}, []string{"--first-wait soon", "1 to 10000 ms"}},
		{[]string{"--first-wait", ""}, []string{`--first-wait ""`, "1 to 10000 ms"}},
		{[]string{"--longest", "500", "crowd"}, []string{"--longest 500", "1000 ms (the first wait) to 600000 ms"}},
		{[]string{"crowd", "--first-wait", "2s", "--longest", "1s"}, []string{"--longest 1s (1000 ms)", "2000 ms (the first wait)"}},
		{[]string{"--longest", "601s"}, []string{"--longest 601s (601000 ms)", "600000 ms"}},
		{[]string{"--attempts", "1"}, []string{"--attempts 1", "2 to 12"}},
		{[]string{"jobs", "a:1", "--attempts", "13"}, []string{"--attempts 13", "2 to 12"}},
		{[]string{"--attempts", "6.0"}, []string{"--attempts 6.0", "whole number from 2 to 12"}},
		{[]string{"--clients", "0", "crowd"}, []string{"--clients 0", "1 to 1000"}},
		{[]string{"crowd", "--clients", "1001"}, []string{"--clients 1001", "1 to 1000"}},
		{[]string{"--outage", "-1"}, []string{"--outage -1", "0 to 600000 ms"}},
		{[]string{"--outage", "-1s", "crowd"}, []string{"--outage -1s", "0 to 600000 ms"}},
		{[]string{"--outage", "11m"}, []string{"--outage 11m (660000 ms)", "0 to 600000 ms"}},
		{[]string{"--seed", "1000000"}, []string{"--seed 1000000", "0 to 999999"}},
		{[]string{"timeline", "--policy", "fixed", "--seed", "-1"}, []string{"--seed -1", "0 to 999999"}},
		{[]string{"--plain", "--clients", "many"}, []string{"--clients many", "1 to 1000"}},
		// jobs
		{[]string{"jobs"}, []string{"at least one job", "name:failures", "alpha:0"}},
		{[]string{"jobs", "--format", "csv"}, []string{"at least one job"}},
		{[]string{"jobs", "alpha"}, []string{`job "alpha"`, "name:number", "name:fatal"}},
		{[]string{"jobs", "alpha:0", "bravo:x"}, []string{`job "bravo:x"`, "0 to 999 failures"}},
		{[]string{"jobs", ":3"}, []string{`job ":3"`}},
		{[]string{"jobs", "a:1000"}, []string{`job "a:1000"`, "0 to 999"}},
		{[]string{"jobs", "a:1", "b:1", "c:1", "d:1", "e:1", "f:1", "g:1", "h:1", "i:1"}, []string{"9 jobs", "at most 8"}},
		{[]string{"jobs", "a:1 b:1 c:1 d:1 e:1", "f:1 g:1 h:1 i:1 j:1"}, []string{"10 jobs", "at most 8"}},
		{[]string{"jobs", "x\ty:1", "b:1", "c:1", "d:1", "e:1", "f:1", "g:1", "h:1", "i:1"}, []string{`"x\ty:1"`, "printable"}},
		{[]string{"jobs", "a\nb:1"}, []string{`"a\nb:1"`, "printable"}},
		{[]string{"jobs", "a\xff:1"}, []string{`"a\xff:1"`, "printable"}},
		// format characters (Cf) in a name: a report would not show what it says
		{[]string{"jobs", "a\u202eb:1"}, []string{`job "a\u202eb:1"`, "direction-changing", "U+202E"}},
		{[]string{"jobs", "ok:0", "x\u200b:fatal"}, []string{`job "x\u200b:fatal"`, "invisible", "U+200B"}},
		{[]string{"jobs", "\ufeffbom:2"}, []string{`job "\ufeffbom:2"`, "format characters", "U+FEFF"}},
		{[]string{"jobs", "soft\u00adhyphen:2"}, []string{`job "soft\u00adhyphen:2"`, "U+00AD"}},
		// an empty value, refused for --client as for every other flag
		{[]string{"schedule", "--policy", "fixed", "--client", ""}, []string{`--client ""`, "1 to 200 (the clients)"}},
		{[]string{"schedule", "--policy", "fixed", "--client="}, []string{`--client ""`, "1 to 200 (the clients)"}},
		{[]string{"crowd", "--seeds="}, []string{`--seeds ""`, "1 to 10000"}},
		{[]string{"--clients="}, []string{`--clients ""`, "1 to 1000"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errs, code := runArgs(t, "", tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.HasPrefix(errs, "retry-planner: ") || !strings.HasSuffix(errs, "\n") || strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr %q, want one line starting retry-planner: ", errs)
			}
			for _, w := range tt.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q does not say %q", errs, w)
				}
			}
		})
	}
	// Every settings flag is refused out of its range, before or after a command.
	for _, f := range settings {
		for _, args := range [][]string{{f, "99999999"}, {f, "99999999", "crowd"}, {"crowd", f, "99999999"}} {
			if out, errs, code := runArgs(t, "", args...); code != 2 || out != "" || !strings.Contains(errs, f+" 99999999") {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing, and the flag", args, code, out, errs)
			}
		}
	}
}

// A reader that goes away (| head) is no failure: exit 0, nothing said.
func TestReaderGoneIsQuiet(t *testing.T) {
	for _, args := range [][]string{{"crowd"}, {"--help"}, {"--plain"}} {
		var errb bytes.Buffer
		if code := run(args, strings.NewReader("2\n"), closedPipe{}, &errb); code != 0 || errb.Len() > 0 {
			t.Errorf("%q to a closed pipe: exit %d, stderr %q; want 0 and nothing", args, code, errb.String())
		}
	}
	// Any other failure to write is an error, --plain's included.
	var errb bytes.Buffer
	if code := run([]string{"--plain"}, strings.NewReader("2\n"), brokenWriter{}, &errb); code != 1 || !strings.Contains(errb.String(), "disk full") {
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
	if code := run([]string{"crowd"}, strings.NewReader(""), brokenWriter{}, &errb); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if want := "retry-planner: writing the crowd report: disk full\n"; errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
}

// One rule for a number everywhere, --plain's: 1 to 7 ASCII digits, no
// sign, no spaces. A time is such a number of ms or a Go duration, also
// without a sign.
func TestNumbersOneRule(t *testing.T) {
	tests := []struct {
		flags  [][]string // each takes the value last
		values []string
		taken  bool
	}{
		{numberFlags(), []string{"5", "05", "0000005"}, true},
		{numberFlags(), []string{"+5", "-0", "-5", "+0", " 5", "5 ", "5\t", "\u0665", "\uff15", "5_0", "0x5", "5e0", "5.0", "00000005", ""}, false},
		{timeFlags(), []string{"2000", "02000", "0002000", "2s", "2.0s", "2000ms", "0m2s"}, true},
		{timeFlags(), []string{"+2000", "-0", "+2s", "-0s", "-2s", " 2s", "2s ", "00002000", "2000 ms", ""}, false},
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

// numberFlags are the flags that take a number, each as it is given.
func numberFlags() [][]string {
	return [][]string{{"--attempts"}, {"--clients"}, {"--seed"}, {"crowd", "--seeds"}, {"schedule", "--policy", "fixed", "--client"}}
}

// timeFlags are the flags that take a time.
func timeFlags() [][]string {
	return [][]string{{"--first-wait"}, {"--longest"}, {"--outage"}, {"crowd", "--slot"}}
}
