package cli

import (
	"encoding/json"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/plan"
)

// A service that queues (issue 15) on the command line: --queue,
// --timeout, --drop-expired and --queue-order, in every mode but --plain.

// queueFlags set every setting of the queue away from its default, with
// the capacity a queue needs.
func queueFlags() []string {
	return []string{"--capacity", "100", "--queue", "1000", "--timeout", "1s", "--drop-expired", "--queue-order", "lifo"}
}

// The flags reach the settings in the full-screen program and every
// command, before or after the command, in any case for the order.
func TestQueueFlagsInEveryMode(t *testing.T) {
	want := plan.DefaultSettings()
	want.Capacity, want.Queue, want.Timeout, want.DropExpired, want.QueueOrder = 100, 1000, 1000, true, backoff.LIFO
	for _, args := range [][]string{
		queueFlags(),
		append([]string{"crowd"}, queueFlags()...),
		append(queueFlags(), "crowd"),
		{"--queue", "1000", "timeline", "--policy", "fixed", "--capacity", "100", "--timeout", "1s", "--drop-expired=true", "--queue-order", "LIFO"},
		append([]string{"schedule", "--policy", "fixed"}, queueFlags()...),
		append([]string{"jobs", "a:1"}, queueFlags()...),
	} {
		opts, err := parseArgs(args)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		s := opts.settings
		if args[0] == "--queue" {
			s.Slot = want.Slot // the timeline's own slot
		}
		if s != want {
			t.Errorf("%q: got %+v, want %+v", args, s, want)
		}
	}
}

// The boundaries of each setting, taken: a queue of 0 (none) and of 1, the
// longest queue where the capacity can work it off; a timeout of 0 (for
// ever), 1 ms and a day; the last of a repeated flag wins, and
// --drop-expired=false undoes a --drop-expired before it.
func TestQueueFlagsBoundaries(t *testing.T) {
	tests := []struct {
		args  []string
		check func(s backoff.Settings) bool
	}{
		{[]string{"--queue", "0"}, func(s backoff.Settings) bool { return s.Queue == 0 && !s.HasQueue() }},
		{[]string{"--queue", "1", "--capacity", "1"}, func(s backoff.Settings) bool { return s.Queue == 1 && s.HasQueue() }},
		{[]string{"--queue", "10000000", "--capacity", "100000000"}, func(s backoff.Settings) bool { return s.Queue == backoff.MaxQueue }},
		{[]string{"--queue", "5", "--capacity", "1", "--timeout", "0"}, func(s backoff.Settings) bool { return s.Timeout == 0 }},
		{[]string{"--queue", "5", "--capacity", "1", "--timeout", "1ms"}, func(s backoff.Settings) bool { return s.Timeout == 1 }},
		{[]string{"--queue", "5", "--capacity", "1", "--timeout", "24h"}, func(s backoff.Settings) bool { return s.Timeout == backoff.MaxTimeout }},
		{[]string{"--queue", "5", "--queue", "7", "--capacity", "1"}, func(s backoff.Settings) bool { return s.Queue == 7 }},
		{[]string{"--drop-expired", "--drop-expired=false"}, func(s backoff.Settings) bool { return !s.DropExpired }},
		{[]string{"--queue-order", "lifo", "--queue-order", "fifo"}, func(s backoff.Settings) bool { return s.QueueOrder == backoff.FIFO }},
		{[]string{"--queue-order", "Fifo"}, func(s backoff.Settings) bool { return s.QueueOrder == backoff.FIFO }},
	}
	for _, tt := range tests {
		args := append([]string{"crowd"}, tt.args...)
		opts, err := parseArgs(args)
		if err != nil {
			t.Errorf("%q: %v, want it taken", args, err)
			continue
		}
		if !tt.check(opts.settings) {
			t.Errorf("%q: got %+v", args, opts.settings)
		}
	}
}

// Each refusal is one line naming the flag, the value and what is allowed,
// or what to add; status 2 and nothing on standard output.
func TestQueueRefusals(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, dir, "lifo.toml", "[service]\ncapacity_per_second = 10\nqueue = 5\nqueue_order = \"lifo\"\ndrop_expired = true\n")
	tests := []struct {
		args []string
		want string // the whole message after "retry-planner: "
	}{
		// Out of range, or not a value at all.
		{[]string{"crowd", "--queue", "10000001", "--capacity", "1"}, "--queue 10000001: want a whole number of requests from 0 (no queue) to 10000000"},
		{[]string{"crowd", "--queue", "-1"}, "--queue -1: want a whole number of requests from 0 (no queue) to 10000000"},
		{[]string{"crowd", "--queue", "1k"}, "--queue 1k: want a whole number of requests from 0 (no queue) to 10000000"},
		{[]string{"crowd", "--timeout", "24h1ms", "--queue", "1", "--capacity", "1"}, "--timeout 24h1ms (86400001 ms): want 0 (wait for ever) to 86400000 ms"},
		{[]string{"crowd", "--timeout", "25h", "--queue", "1", "--capacity", "1"}, "--timeout 25h (90000000 ms): want 0 (wait for ever) to 86400000 ms"},
		{[]string{"crowd", "--timeout", "1.5ms"}, "--timeout 1.5ms: want a time of 0 (wait for ever) to 86400000 ms, whole ms, with its unit: 250ms, 1s, 1.5s, 1m30s, 2h"},
		{[]string{"crowd", "--queue-order", "stack"}, "--queue-order stack: want fifo or lifo"},
		{[]string{"crowd", "--queue-order", ""}, `--queue-order "": want fifo or lifo`},
		{[]string{"crowd", "--drop-expired=yes"}, `--drop-expired takes no value but false, got "--drop-expired=yes": give --drop-expired, or --drop-expired=false to turn off a plan's`},
		{[]string{"crowd", "--queue-order"}, "--queue-order needs a value: fifo or lifo"},
		// A setting that needs another.
		{[]string{"crowd", "--queue", "1"}, "--queue 1: a queue needs a capacity to serve it: add --capacity N (requests a second), or drop --queue"},
		{[]string{"crowd", "--queue", "1000", "--capacity", "0"}, "--queue 1000: a queue needs a capacity to serve it: add --capacity N (requests a second), or drop --queue"},
		{[]string{"crowd", "--timeout", "1s"}, "--timeout 1s (1000 ms): a timeout needs a queue to wait in: add --queue N (and --capacity), or drop --timeout"},
		{[]string{"crowd", "--timeout", "1ms", "--capacity", "100", "--queue", "0"}, "--timeout 1ms: a timeout needs a queue to wait in: add --queue N (and --capacity), or drop --timeout"},
		{[]string{"crowd", "--drop-expired"}, "--drop-expired: only a queue holds expired requests: add --queue N (and --capacity), or drop --drop-expired"},
		{[]string{"crowd", "--queue-order", "lifo"}, "--queue-order lifo: lifo takes the newest request from a queue: add --queue N (and --capacity), or drop --queue-order"},
		// A plan's, with a flag after it that takes its queue away.
		{[]string{"crowd", "--plan", "lifo.toml", "--queue", "0"}, "--drop-expired (from --plan lifo.toml): only a queue holds expired requests: add --queue N (and --capacity), or drop --drop-expired"},
		{[]string{"crowd", "--plan", "lifo.toml", "--queue", "0", "--drop-expired=false"}, "--queue-order lifo (from --plan lifo.toml): lifo takes the newest request from a queue: add --queue N (and --capacity), or drop --queue-order"},
		{[]string{"crowd", "--plan", "lifo.toml", "--capacity", "0"}, "--queue 5 (from --plan lifo.toml): a queue needs a capacity to serve it: add --capacity N (requests a second), or drop --queue"},
		// A queue the capacity could not work off in the time a run counts:
		// exponential's 6 attempts wait at most 16 s each, so every
		// attempt has arrived by 96,000 ms (past the outage's 10,000); a
		// million clients make 6,000,000 attempts, which the queue holds
		// and works off at 1 a second in 6,000,001,000 ms more, +2.
		{[]string{"crowd", "--queue", "10000000", "--capacity", "1", "--policies", "exponential", "--clients", "1000000"},
			"--queue 10000000 with --capacity 1 and --timeout 0 (the default): exponential: a queue of 10000000 at a capacity of 1 a second, with a timeout of 0 ms over 6 attempts, could go on for 6000097002 ms, more than the 4294967294 a run can count: shorten the queue or the timeout, or raise the capacity"},
	}
	for _, tt := range tests {
		out, errs, code := runArgs(t, "", tt.args...)
		if code != 2 || out != "" || errs != "retry-planner: "+tt.want+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q;\nwant 2, nothing and %q", tt.args, code, out, errs, "retry-planner: "+tt.want)
		}
	}
	// The full-screen program refuses them the same way, before it opens.
	if _, err := parseArgs([]string{"--queue", "1"}); err == nil || err.Error() != "--queue 1: a queue needs a capacity to serve it: add --capacity N (requests a second), or drop --queue" {
		t.Errorf("the full-screen program --queue 1: got %v", err)
	}
	if _, err := parseArgs([]string{"--queue", "10000000", "--capacity", "1", "--clients", "1000000"}); err == nil {
		t.Errorf("the full-screen program with a queue it cannot work off: got no error")
	}
	// --compare's plan too.
	writeFile(t, dir, "long.toml", "[crowd]\nclients = 1_000_000\n\n[service]\ncapacity_per_second = 1\nqueue = 10_000_000\n")
	checkUsageError(t, []string{"crowd", "--compare", "long.toml"}, "--compare long.toml: fixed: a queue of 10000000 at a capacity of 1 a second")
}

// --plain refuses each of them, as it refuses the service's other
// settings, whatever the value.
func TestPlainRefusesTheQueue(t *testing.T) {
	for _, tt := range []struct {
		args []string
		flag string
	}{
		{[]string{"--plain", "--queue", "0"}, "queue"},
		{[]string{"--plain", "--queue", "100", "--capacity", "10"}, "queue"},
		{[]string{"--plain", "--timeout", "0"}, "timeout"},
		{[]string{"--plain", "--timeout", "1s"}, "timeout"},
		{[]string{"--plain", "--drop-expired"}, "drop-expired"},
		{[]string{"--plain", "--drop-expired=false"}, "drop-expired"},
		{[]string{"--queue-order", "fifo", "--plain"}, "queue-order"},
	} {
		checkPlainRefuses(t, tt.args, tt.flag)
	}
}

// checkPlainRefuses holds --plain with args to its one line refusing
// --flag, exit 2 and nothing on standard output.
func checkPlainRefuses(t *testing.T, args []string, flag string) {
	t.Helper()
	want := "retry-planner: --plain keeps the reference's settings and takes no --" + flag + ": drop it, or use a report or the full-screen program, which take it\n"
	out, errs, code := runArgs(t, "", args...)
	if code != 2 || out != "" || errs != want {
		t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing and %q", args, code, out, errs, want)
	}
}

// checkSavedPlan holds the plan crowd args saves to its report: loaded
// again it gives the same report, and its text has each of lines.
func checkSavedPlan(t *testing.T, args []string, lines ...string) {
	t.Helper()
	saved := filepath.Join(t.TempDir(), "saved.toml")
	direct := reportOf(t, append(args, "--format", "json")...)
	reportOf(t, append(args, "--save-plan", saved)...)
	if got := reportOf(t, "crowd", "--plan", saved, "--format", "json"); got != direct {
		t.Errorf("--plan saved: got\n%s\nwant\n%s", got, direct)
	}
	text := readFile(t, saved)
	for _, line := range lines {
		if !strings.Contains(text, line) {
			t.Errorf("the plan saved has no %q:\n%s", line, text)
		}
	}
}

// The plan a report ran keeps the queue, and loaded again it gives the
// same report, every setting of the queue in its [service].
func TestQueueSavePlan(t *testing.T) {
	args := append([]string{"crowd", "--policies", "exponential", "--clients", "300", "--load", "90", "--load-until", "20s"}, queueFlags()...)
	checkSavedPlan(t, args, "\nqueue = 1000\n", "\ntimeout_ms = 1000\n", "\ndrop_expired = true\n", "\nqueue_order = \"lifo\"\n")
}

// The shells complete --queue-order's two values, and --breaker's none,
// an example and the presets (issue 26).
func TestQueueCompletion(t *testing.T) {
	for flag, want := range map[string]string{"--queue-order": "fifo\nlifo\n", "--breaker": "none\n5:30s\ngobreaker\nfailsafe-go\n"} {
		for _, args := range [][]string{{"__complete", flag, ""}, {"__complete", "crowd", flag, ""}} {
			out, _, code := runArgs(t, "", args...)
			if code != 0 || !strings.HasPrefix(out, want) {
				t.Errorf("%q: exit %d, got %q, want %q first", args, code, out, want)
			}
		}
	}
}

// The worked metastable failure, read back from the report
// goldens' JSON (testdata/reports/queue): MODEL.md's clients through of
// 30,500 for each way out, whether the service was still overloaded when
// the load ended, and the section 6 sums each run must keep.
func TestQueueWorkedExampleGoldens(t *testing.T) {
	for _, tt := range []struct {
		golden     string
		through    int
		overloaded bool
		queued     bool
	}{
		{"metastable", 134, true, true},
		{"drop-expired", 26315, false, true},
		{"lifo", 25697, false, true},
		{"budget", 25650, false, true},
		{"no-queue", 25795, true, false},
	} {
		var doc struct {
			Settings struct {
				Queue     int `json:"queue"`
				TimeoutMs int `json:"timeout_ms"`
			} `json:"settings"`
			Policies []struct {
				Policy          string `json:"policy"`
				Clients         int    `json:"clients"`
				Attempts        int    `json:"attempts"`
				Served          int    `json:"served"`
				Rejected        int    `json:"rejected"`
				FailedWhileDown int    `json:"failed_while_down"`
				TimedOut        int    `json:"timed_out"`
				Wasted          int    `json:"wasted"`
				Dropped         int    `json:"dropped"`
				QueuePeak       int    `json:"queue_peak"`
				Through         int    `json:"through"`
				StillOverloaded bool   `json:"still_overloaded"`
			} `json:"policies"`
		}
		path := filepath.Join(repoTestdata, "reports", "queue", tt.golden+".json")
		if err := json.Unmarshal([]byte(readFile(t, path)), &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(doc.Policies) != 1 || doc.Policies[0].Policy != "exponential" {
			t.Fatalf("%s: got %d policies, want exponential alone", path, len(doc.Policies))
		}
		p := doc.Policies[0]
		if p.Clients != 30500 || p.Through != tt.through {
			t.Errorf("%s: %d of %d clients through, want %d of 30500", tt.golden, p.Through, p.Clients, tt.through)
		}
		if p.StillOverloaded != tt.overloaded {
			t.Errorf("%s: still overloaded %v, want %v", tt.golden, p.StillOverloaded, tt.overloaded)
		}
		if (doc.Settings.Queue == 1000 && doc.Settings.TimeoutMs == 1000) != tt.queued {
			t.Errorf("%s: queue %d, timeout %d ms; want a queue of 1000 and 1 s: %v", tt.golden, doc.Settings.Queue, doc.Settings.TimeoutMs, tt.queued)
		}
		if sum := p.Served + p.Rejected + p.FailedWhileDown + p.TimedOut; sum != p.Attempts {
			t.Errorf("%s: served + rejected + failed while down + timed out = %d, want the attempts, %d", tt.golden, sum, p.Attempts)
		}
		if p.Wasted+p.Dropped != p.TimedOut || p.QueuePeak > doc.Settings.Queue {
			t.Errorf("%s: wasted %d + dropped %d against timed out %d, queue peak %d of %d", tt.golden, p.Wasted, p.Dropped, p.TimedOut, p.QueuePeak, doc.Settings.Queue)
		}
		if !tt.queued && p.TimedOut+p.Wasted+p.Dropped+p.QueuePeak != 0 {
			t.Errorf("%s: without a queue got timed out %d, wasted %d, dropped %d, queue peak %d; want 0", tt.golden, p.TimedOut, p.Wasted, p.Dropped, p.QueuePeak)
		}
	}
}

// crowd --compare names each setting of the queue that differs, as its
// flag, and holds the queue's figures against each other: the worked
// example without a queue (A) against it with one (B), dropping expired
// requests and serving the newest first.
func TestQueueCompare(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.toml")
	base := queued()[:len(queued())-4]
	reportOf(t, append([]string{"crowd", "--policies", "exponential", "--save-plan", a}, base...)...)
	args := append([]string{"crowd", "--compare", a, "--policies", "exponential", "--queue", "1000", "--timeout", "1s", "--drop-expired", "--queue-order", "lifo"}, base...)
	text := reportOf(t, args...)
	if want := "The settings that differ, A to B: --queue 0 to 1000; --timeout 0 to 1000 ms; --drop-expired false to true; --queue-order fifo to lifo.\n"; !strings.Contains(text, want) {
		t.Errorf("got\n%s\nwant the line %q", text, want)
	}
	v := verdicts(t, args...)["exponential in both"]
	for figure, want := range map[string]string{"timed_out": "0", "dropped": "0", "wasted": "0", "queue_peak": "0", "through": "25795"} {
		if got := v[figure][0]; got != want {
			t.Errorf("A's %s: got %q, want %q", figure, got, want)
		}
	}
	if v["timed_out"][1] == "0" || v["timed_out"][1] != v["dropped"][1] || v["wasted"][1] != "0" {
		t.Errorf("B with --drop-expired: timed out %q, dropped %q, wasted %q; want as many dropped as timed out, none wasted",
			v["timed_out"][1], v["dropped"][1], v["wasted"][1])
	}
	if v["timed_out"][3] != "worse" {
		t.Errorf("timed out from 0 to %s: verdict %q, want worse", v["timed_out"][1], v["timed_out"][3])
	}
}

// The README's picture of the metastable failure is a PNG of the size its
// command draws.
func TestReadmeQueuePicture(t *testing.T) {
	readme := readFile(t, filepath.Join("..", "..", "README.md"))
	const out = " --out testdata/readme/queue-timeline.png"
	const command = "retry-planner timeline --policy exponential --clients 2000 --outage 30s --attempts 4 --capacity 100 --load 95 --load-until 5m " +
		"--queue 1000 --timeout 1s --slot 10s --format png --width 800" + out
	if !strings.Contains(readme, command) || !strings.Contains(readme, "](testdata/readme/queue-timeline.png)") {
		t.Errorf("the README does not show testdata/readme/queue-timeline.png with the command that draws it, %q", command)
	}
	img, err := png.Decode(strings.NewReader(readFile(t, filepath.Join(repoTestdata, "readme", "queue-timeline.png"))))
	if err != nil {
		t.Fatal(err)
	}
	drawn, err := png.Decode(strings.NewReader(reportOf(t, strings.Fields(strings.TrimSuffix(strings.TrimPrefix(command, "retry-planner "), out))...)))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != drawn.Bounds() || img.Bounds().Dx() != 800 {
		t.Errorf("testdata/readme/queue-timeline.png is %v, the command draws %v; want the same, 800 wide", img.Bounds(), drawn.Bounds())
	}
	if !samePixels(img, drawn) {
		t.Errorf("testdata/readme/queue-timeline.png is not what %q draws: draw it again with that command", command)
	}
}

// schedule and jobs are one client's waits and a few jobs: they say that
// the queue, as the rest of the service, acts on a crowd; timeline's text
// without a queue has none of the queue's columns.
func TestQueueInOtherReports(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{append([]string{"schedule", "--policy", "fixed"}, queueFlags()...), "the capacity, the queue, the fresh load and the budget act on a crowd"},
		{append([]string{"jobs", "a:1"}, queueFlags()...), "the capacity, the queue, the fresh load and the budget act on a crowd"},
		{[]string{"schedule", "--policy", "fixed", "--capacity", "100"}, "the capacity, the fresh load and the budget act on a crowd"},
	} {
		if out := reportOf(t, tt.args...); !strings.Contains(out, tt.want) {
			t.Errorf("%q: no %q in\n%s", tt.args, tt.want, out)
		}
	}
	out := reportOf(t, "timeline", "--policy", "exponential", "--capacity", "100", "--load", "50", "--format", "csv")
	if head, _, _ := strings.Cut(out, "\n"); head != "from_ms,retries,attempts,served,rejected,failed_while_down,capacity,slot_ms,row_ms" {
		t.Errorf("no queue: the timeline's CSV head is %q", head)
	}
	out = reportOf(t, "timeline", "--policy", "exponential", "--capacity", "100", "--load", "50", "--queue", "1", "--format", "csv")
	if head, _, _ := strings.Cut(out, "\n"); head != "from_ms,retries,attempts,served,rejected,failed_while_down,capacity,timed_out,wasted,dropped,queue,slot_ms,row_ms" {
		t.Errorf("a queue of 1: the timeline's CSV head is %q", head)
	}
}
