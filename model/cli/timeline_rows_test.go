package cli

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	vreport "github.com/retryplanner/retry-planner/views/report"
	"github.com/retryplanner/retry-planner/views/words"
)

// Issue 19, item 6: crowd and timeline run one model, the settings' slot;
// a timeline's row only groups slots. Summed over its rows, the timeline
// gives the crowd's counts exactly, with a capacity, a load and a budget,
// at slots that divide a second and slots that do not.
func TestTimelineSumsToTheCrowd(t *testing.T) {
	settings := []struct {
		flags []string
		slot  int
		every string // a whole number of slots
	}{
		{[]string{"--clients", "5000", "--outage", "30s", "--capacity", "2000", "--load", "1500"}, 100, "5s"},
		{[]string{"--clients", "2000", "--capacity", "300", "--load", "50", "--slot", "250ms", "--budget", "aws:500:5", "--processes", "2"}, 250, "5s"},
		{[]string{"--clients", "1000", "--capacity", "5000", "--slot", "7ms", "--outage", "1234ms", "--load", "700", "--budget", "grpc:10:0.1"}, 7, "77ms"},
		{[]string{"--clients", "3000", "--capacity", "900", "--slot", "1500ms", "--outage", "20s"}, 1500, "6s"},
	}
	counts := []string{"retries", "attempts", "served", "rejected", "failed_while_down"}
	for _, set := range settings {
		for _, every := range [][]string{nil, {"--every", set.every}} {
			args := append([]string{"--policies", "grpc,aws,full-jitter,exponential"}, set.flags...)
			crowd := csvRecords(t, reportOf(t, append([]string{"crowd", "--format", "csv"}, args...)...))
			args = append(args, every...)
			timeline := csvRecords(t, reportOf(t, append([]string{"timeline", "--format", "csv"}, args...)...))
			want := map[string]map[string]int{} // policy, figure
			col := func(head []string, name string) int {
				for i, h := range head {
					if h == name {
						return i
					}
				}
				t.Fatalf("%q: no column %s in %q", args, name, head)
				return -1
			}
			for _, row := range crowd[1:] {
				want[row[0]] = map[string]int{}
				for _, c := range counts {
					want[row[0]][c], _ = strconv.Atoi(row[col(crowd[0], c)])
				}
			}
			got := map[string]map[string]int{}
			for _, row := range timeline[1:] {
				p := row[col(timeline[0], "policy")]
				if got[p] == nil {
					got[p] = map[string]int{}
				}
				for _, c := range counts {
					n, _ := strconv.Atoi(row[col(timeline[0], c)])
					got[p][c] += n
				}
				if slot, _ := strconv.Atoi(row[col(timeline[0], "slot_ms")]); slot != set.slot {
					t.Fatalf("%q: slot_ms %d, want the settings' %d", args, slot, set.slot)
				}
			}
			if len(want) != 4 {
				t.Fatalf("%q: the crowd ran %d policies, want 4", args, len(want))
			}
			for p, figs := range want {
				for _, c := range counts {
					if got[p][c] != figs[c] {
						t.Errorf("%q: %s's %s summed over the timeline's rows: got %d, want the crowd's %d", args, p, c, got[p][c], figs[c])
					}
				}
			}
		}
	}
}

// The timeline's rows: the slot by default, grouped to the fewest whole
// slots that span a second; --every groups more; the JSON says the model's
// slot and the rows' width.
func TestTimelineRows(t *testing.T) {
	tests := []struct {
		args          []string
		slot, row     int
		firstRowsFrom []int
	}{
		{nil, 100, 1000, []int{0, 1000, 2000}},
		{[]string{"--slot", "250ms"}, 250, 1000, []int{0, 1000}},
		{[]string{"--slot", "300ms"}, 300, 1200, []int{0, 1200}},
		{[]string{"--slot", "2s"}, 2000, 2000, []int{0, 2000}},
		{[]string{"--every", "500ms"}, 100, 500, []int{0, 500}},
		{[]string{"--every", "100ms"}, 100, 100, []int{0, 100}},
		{[]string{"--from", "back"}, 100, 1000, []int{10000, 11000}},
		{[]string{"--from", "back", "--outage", "10.05s", "--every", "200ms"}, 100, 200, []int{10000, 10200}},
	}
	for _, tt := range tests {
		args := append([]string{"timeline", "--policy", "full-jitter", "--format", "json"}, tt.args...)
		var doc struct {
			SlotMs int `json:"slot_ms"`
			RowMs  int `json:"row_ms"`
			Rows   []struct {
				FromMs int `json:"from_ms"`
			} `json:"rows"`
		}
		if err := json.Unmarshal([]byte(reportOf(t, args...)), &doc); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if doc.SlotMs != tt.slot || doc.RowMs != tt.row {
			t.Errorf("%q: slot_ms %d, row_ms %d; want %d and %d", args, doc.SlotMs, doc.RowMs, tt.slot, tt.row)
		}
		for i, from := range tt.firstRowsFrom {
			if i >= len(doc.Rows) || doc.Rows[i].FromMs != from {
				t.Errorf("%q: row %d from %v, want %d", args, i, doc.Rows, from)
				break
			}
		}
	}
	for _, bad := range [][]string{{"--every", "150ms"}, {"--every", "0"}, {"--slot", "300ms", "--every", "1s"}, {"--from", "middle"}} {
		checkUsageError(t, append([]string{"timeline", "--policy", "fixed"}, bad...), "--"+strings.TrimPrefix(bad[len(bad)-2], "--"))
	}
	checkUsageError(t, []string{"crowd", "--every", "1s"}, "--every")
}

// Issue 20.8: one client, 1 ms slots and rows, a day's outage: the text's
// tables have a row for each row with any attempt, as the help says (the
// reference's histogram too), not a row for each of the millions of rows
// of zeros; CSV and JSON list every row up to the last, and say where a
// series stops: JSON and text in themselves, CSV on standard error.
func TestTimelineRowsWithAny(t *testing.T) {
	// The reference's draws, which the rows below were worked out with.
	args := []string{"timeline", "--policy", "all", "--clients", "1", "--slot", "1ms", "--every", "1ms", "--outage", "24h", "--attempts", "30", "--first-wait", "1ms", "--longest", "10m", "--draws", "reference"}
	text, errs, code := runArgs(t, "", args...)
	if code != 0 || strings.Contains(errs, "stop") {
		t.Fatalf("text: exit %d, stderr %q; want 0, and the series' end said in the text", code, errs)
	}
	if !strings.Contains(text, "slots stop at 4194304") {
		t.Errorf("text: does not say where the series stops:\n%s", text)
	}
	rows := regexp.MustCompile(`(?m)^ +(\d+) ms((?: +\d+)+)$`).FindAllStringSubmatch(text, -1)
	if len(rows) == 0 || len(rows) > 200 {
		t.Fatalf("text: %d rows, want one for each row with a retry of one client's 5 policies (at most 29 each)", len(rows))
	}
	for _, r := range rows {
		if strings.Trim(strings.ReplaceAll(r[2], " ", ""), "0") == "" {
			t.Errorf("text: a row of zeros, %q", r[0])
		}
	}
	// Rows of a second: exponential's waits (1 ms doubling to 10 min, 30
	// attempts) pass the 4,194,304 slots a series keeps: its retries come
	// at 1 + 2 + ... + 524,288 = 1,048,575 ms and every 600,000 ms after,
	// the last it keeps at 4,048,575 ms, in row 4,048; so every policy's
	// CSV lists 4,049 rows, and says it stops.
	args[8] = "1s"
	csvOut, errs, code := runArgs(t, "", append(args, "--format", "csv")...)
	if code != 0 {
		t.Fatalf("csv: exit %d, stderr %q", code, errs)
	}
	if n := strings.Count(csvOut, "\n"); n != 1+5*4049 {
		t.Errorf("csv: %d lines, want a header and the 5 policies' 4,049 rows, up to the series' end: %d", n, 1+5*4049)
	}
	want := "retry-planner: timeline: exponential's rows stop at 4,194,304 ms, where its series stops (4,194,304 slots): the CSV does not go on; a wider --slot shows it all\n"
	if !strings.Contains(errs, want) || strings.Count(errs, "rows stop") != 1 {
		t.Errorf("csv cut short: stderr %q, want it to say, once, %q", errs, want)
	}
}

// The ceiling of --max-output exactly on its boundary: a report of
// exactly that many bytes of rows is written, a byte less refused in one
// line, exit 2, nothing written; the default is a gigabyte.
func TestTimelineOutputCeiling(t *testing.T) {
	args := []string{"timeline", "--policy", "all", "--clients", "50", "--slot", "10ms", "--every", "10ms", "--format", "json"}
	opts, err := parseArgs(args)
	if err != nil {
		t.Fatal(err)
	}
	r := opts.report
	if r.maxOutput != 1e9 {
		t.Errorf("the default ceiling: %d bytes, want 1e9", r.maxOutput)
	}
	runs, err := backoff.RunAll(r.policies, r.settings, backoff.Options{Series: true}, 1)
	if err != nil {
		t.Fatal(err)
	}
	tl := vreport.Timeline{Settings: r.settings, Runs: runs, SideBy: r.sideBy, RowMs: r.every, FromBack: r.fromBack}
	size := tl.Size("json")
	out, errs, code := runArgs(t, "", append(args, "--max-output", strconv.FormatInt(size, 10))...)
	if code != 0 || errs != "" || out == "" {
		t.Errorf("--max-output %d, the rows' size: exit %d, stderr %q; want it written", size, code, errs)
	}
	out, errs, code = runArgs(t, "", append(args, "--max-output", strconv.FormatInt(size-1, 10))...)
	want := fmt.Sprintf("retry-planner: timeline would write about %s of JSON (%s rows of 5 policies), past the ceiling of %s (--max-output %d): allow it with --max-output %s, or write fewer rows (a wider --every, --from back)\n",
		bytesText(size), words.Count(tl.Rows()), bytesText(size-1), size-1, flagBytes(size))
	if code != 2 || out != "" || errs != want {
		t.Errorf("--max-output %d, a byte less: exit %d, stdout %d bytes, stderr\n%q\nwant exit 2, nothing, stderr\n%q", size-1, code, len(out), errs, want)
	}
	checkUsageError(t, append(args, "--max-output", "lots"), "--max-output lots: want a size such as 8GB, 500MB or 2GiB, or none")
}
