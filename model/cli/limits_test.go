package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/model"
)

// bigWaits are the waits of the runs: a millisecond to an hour, a
// hundred attempts, a day's outage.
var bigWaits = []string{"--attempts", "100", "--first-wait", "1ms", "--longest", "1h", "--outage", "24h"}

// Issue 20.3: a run past a ceiling is refused in one line, exit status 2,
// naming the flag that allows it and by how much; nothing runs.
func TestRefusedPastACeiling(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{append([]string{"crowd", "--clients", "1000000", "--max-memory", "1GB"}, bigWaits...),
			"retry-planner: crowd would hold about 3.2 GB of memory, past the ceiling of 1.0 GB (--max-memory 1GB): allow it with --max-memory 4GB, or make the run smaller\n"},
		{append([]string{"timeline", "--policy", "all", "--clients", "1000000", "--max-memory", "900MB"}, bigWaits...),
			"retry-planner: timeline would hold about 3.3 GB of memory, past the ceiling of 900 MB (--max-memory 900MB): allow it with --max-memory 4GB, or make the run smaller\n"},
		{[]string{"crowd", "--clients", "1000000", "--seeds", "10000", "--max-time", "5m"},
			"retry-planner: crowd would take about 10 min on 2 cores, past the ceiling of 5 min (--max-time 5m): allow it with --max-time 13m, or make the run smaller\n"},
		{[]string{"crowd", "--max-memory", "1XB"}, "retry-planner: --max-memory 1XB: want a size such as 8GB, 500MB or 2GiB, or none\n"},
		{[]string{"crowd", "--max-time", "soon"}, "retry-planner: --max-time soon: want a time such as 30m or 2h, or none\n"},
		{append([]string{"--clients", "1000000", "--max-memory", "500MB"}, bigWaits...),
			"retry-planner: the full-screen program's first crowd would hold about 4.9 GB of memory, past the ceiling of 500 MB (--max-memory 500MB): allow it with --max-memory 5GB, or make the run smaller\n"},
	} {
		if strings.Contains(tt.want, "2 cores") && workersHere() != 2 {
			continue // the time depends on the cores
		}
		start := time.Now()
		stdout, stderr, code := runArgs(t, "", tt.args...)
		if code != 2 || stdout != "" || stderr != tt.want {
			t.Errorf("%v: got exit %d, stdout %q, stderr\n%q\nwant exit 2, nothing on stdout, stderr\n%q", tt.args, code, stdout, stderr, tt.want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%v: refused after %v, want at once (nothing runs)", tt.args, d)
		}
	}
	// none lifts a ceiling.
	for _, flag := range []string{"--max-memory", "--max-time"} {
		if _, err := parseArgs(append([]string{"crowd", "--clients", "1000000", "--seeds", "10000", flag, "none", "--max-memory", "none", "--max-time", "none"}, bigWaits...)); err != nil {
			t.Errorf("%s none: %v, want no ceiling", flag, err)
		}
	}
}

// Issue 25.12: a run is charged the work it does, not the time it may
// reach. Each of these was refused, or announced as long, for the idle
// milliseconds of a day's timeout: 10,000 seeds as about 42 h (it takes
// 12.6 s), the search as 65 min (0.33 s), one seed as 15 s (0.01 s), and
// one client against a queue of 10 million as running for 10,518,407,002
// ms. Each runs within a ceiling a little above what it takes.
func TestIdleMillisecondsAreNotCharged(t *testing.T) {
	day := []string{"--capacity", "1", "--queue", "10", "--timeout", "24h"}
	for _, tt := range []struct {
		args    []string
		ceiling float64 // seconds on the cores here
	}{
		{append([]string{"crowd", "--seeds", "10000"}, day...), 60},
		{append([]string{"advise", "--goal", "not-through<=10%"}, day...), 5},
		{append([]string{"crowd"}, day...), 1},
		{[]string{"crowd", "--queue", "10000000", "--capacity", "1", "--timeout", "24h", "--clients", "1"}, 1},
	} {
		opts, err := parseArgs(tt.args)
		if err != nil {
			t.Errorf("%v: %v, want it run", tt.args, err)
			continue
		}
		if secs := opts.report.cost(workersHere()).Seconds(workersHere()); secs > tt.ceiling {
			t.Errorf("%v: estimated %.1f s, want at most %v s", tt.args, secs, tt.ceiling)
		}
	}
}

// workersHere is the cores the reports use here.
func workersHere() int { return runtime.GOMAXPROCS(0) }

// syncBuffer is a buffer that a goroutine writes while a test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// The ceilings' sizes and times, read and written.
func TestCeilingUnits(t *testing.T) {
	for in, want := range map[string]int64{"8GB": 8e9, "8g": 8e9, "500MB": 500e6, "1.5GB": 1.5e9, "2GiB": 2 << 30, "none": 0, "0": 0, "4096": 4096, " 3 kb ": 3000} {
		if got, ok := parseBytes(in); !ok || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "GB", "-1GB", "1XB", "1e9", "0.0001", "99999999999TB"} {
		if got, ok := parseBytes(in); ok {
			t.Errorf("parseBytes(%q) = %d, want refused", in, got)
		}
	}
	for n, want := range map[int64]string{999: "999 bytes", 1000: "1.0 KB", 850e6: "850 MB", 2.84e9: "2.8 GB", 9.96e9: "10 GB", 12.4e9: "12 GB"} {
		if got := bytesText(n); got != want {
			t.Errorf("bytesText(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{1: "1MB", 999_999: "1MB", 1_000_001: "2MB", 1e9: "1GB", 1e9 + 1: "2GB"} {
		if got := flagBytes(n); got != want {
			t.Errorf("flagBytes(%d) = %q, want %q", n, got, want)
		}
	}
	for s, want := range map[float64]string{0.5: "under a second", 40: "40 s", 99.4: "99 s", 100: "2 min", 5999: "100 min", 7800: "2 h 10 min"} {
		if got := secondsText(s); got != want {
			t.Errorf("secondsText(%v) = %q, want %q", s, got, want)
		}
	}
	for s, want := range map[float64]string{1: "1s", 119: "119s", 120: "2m", 7199: "120m", 7200: "2h", 7201: "3h"} {
		if got := flagSeconds(s); got != want {
			t.Errorf("flagSeconds(%v) = %q, want %q", s, got, want)
		}
	}
}

// The limits exactly on their boundaries: a run that holds the ceiling
// runs; a byte more is refused; so with the time. The default says where
// it comes from.
func TestCeilingBoundaries(t *testing.T) {
	l := runLimits{memory: 1e9, memoryBy: "half this machine's memory, 2.0 GB", seconds: 60, timeBy: "--max-time's default"}
	at := backoff.Cost{Bytes: 1e9, Work: 60 * backoff.WorkPerSecond, Span: 1, Parallel: 1}
	if err := l.check("crowd", at, 1); err != nil {
		t.Errorf("a run at both ceilings: %v, want it run", err)
	}
	over := at
	over.Bytes++
	if err := l.check("crowd", over, 1); err == nil || err.Error() != "crowd would hold about 1.0 GB of memory, past the ceiling of 1.0 GB (half this machine's memory, 2.0 GB): allow it with --max-memory 2GB, or make the run smaller" {
		t.Errorf("a byte past the memory ceiling: %v", err)
	}
	over = at
	over.Work++
	if err := l.check("crowd", over, 1); err == nil || !strings.Contains(err.Error(), "past the ceiling of 60 s (--max-time's default): allow it with --max-time 76s") {
		t.Errorf("a unit of work past the time ceiling: %v", err)
	}
	hard := runLimits{hard: 2e9, hardBy: "ulimit -v 4.0 GB", memory: 8e9}
	if err := hard.check("crowd", backoff.Cost{Bytes: 2e9 + 1}, 1); err == nil || !strings.Contains(err.Error(), "past what this process may have (ulimit -v 4.0 GB): raise that limit") {
		t.Errorf("past the address space's limit: %v, want refused whatever --max-memory says", err)
	}
	if got := hard.heapLimit(); got != 2e9 {
		t.Errorf("the heap's soft limit: %d, want the address space's half, 2e9", got)
	}
}

// A large run says so before it starts, in one line; a small one says
// nothing.
func TestLargeRunSaysSo(t *testing.T) {
	_, stderr, code := runArgs(t, "", "crowd", "--clients", "20000")
	if code != 0 || stderr != "" {
		t.Errorf("a small crowd: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	if got := large("crowd", backoff.Cost{Bytes: 3.2e9, Work: 8 * backoff.WorkPerSecond * 2, Parallel: 2}, 2); got !=
		"retry-planner: crowd is a large run: about 3.2 GB of memory and 8 s on 2 cores (estimated; --max-memory and --max-time bound what may run)" {
		t.Errorf("the line of a large run: %q", got)
	}
	if got := large("crowd", backoff.Cost{Bytes: largeBytes - 1, Work: largeSeconds*backoff.WorkPerSecond - 1, Parallel: 1}, 1); got != "" {
		t.Errorf("a run just under large: %q, want nothing", got)
	}
}

// A run that fails inside, a panic, is exit status 1 and one line, never
// a trace or 2.
func TestRunFailureIsExit1(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := runReport(report{command: "schedule", format: "text"}, runLimits{}, &stdout, &stderr) // no policy: render panics
	if code != 1 || !strings.HasPrefix(stderr.String(), "retry-planner: the schedule report: an internal error: ") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("got exit %d, stderr %q; want 1 and one line", code, stderr.String())
	}
}

// The progress line: written over itself, and gone at the end.
func TestProgressLine(t *testing.T) {
	var buf syncBuffer
	p := showProgress(&buf, "crowd", 5, "policies", 40)
	p.done.Add(3)
	time.Sleep(3 * progressEvery / 2)
	p.end()
	out := buf.String()
	if !strings.Contains(out, "\r\x1b[Kretry-planner: crowd: 3 of 5 policies, under a second of about 40 s") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress: %q, want the line written over itself and cleared at the end", out)
	}
}

// Issues 20.3, 24.15 and 25.9: the estimate against real runs, each a
// child process, measured by its CPU time (user and system, every core's)
// and its peak resident set. The estimated work, as one core's seconds,
// holds within 2 times of the CPU time the run took beyond a process that
// runs nothing, either way; the estimated memory, with that process's,
// within 2 times of the peak it held. The runs: the README's, a spread
// over seeds, the search, heavy fresh loads, long queues with timeouts
// (FIFO and LIFO), many processes under a budget, a million clients, the
// day's timeout that was charged its idle milliseconds (issue 25.12), and
// the client's guards (issue 26: a breaker, pushback and a hang); each
// takes from a few tenths of a second to ten, some 20 s of CPU in all.
func TestEstimateAgainstRealRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real crowds and a search: some 20 s of CPU")
	}
	readmeQueue := []string{"--clients", "2000", "--outage", "30s", "--capacity", "100", "--load", "95", "--load-until", "5m", "--queue", "1000", "--timeout", "1s"}
	runs := [][]string{
		append([]string{"crowd", "--policies", "exponential", "--attempts", "4", "--seeds", "30"}, readmeQueue...),
		{"crowd", "--clients", "50000", "--outage", "30s", "--capacity", "2000", "--load", "1500", "--policies", "grpc,aws,full-jitter", "--seeds", "5"},
		append([]string{"advise", "--goal", "not-through<=20%", "--goal", "recovered<=120s"}, readmeQueue...),
		{"crowd", "--capacity", "1", "--queue", "10", "--timeout", "24h", "--seeds", "300"},
		{"crowd", "--clients", "200", "--load", "30000", "--load-until", "60s", "--capacity", "20000", "--policies", "full-jitter"},
		{"crowd", "--clients", "200", "--load", "30000", "--load-until", "60s", "--capacity", "20000", "--policies", "exponential", "--slot", "1ms"},
		{"crowd", "--clients", "1000000", "--capacity", "10000", "--queue", "1000000", "--timeout", "5m", "--outage", "1m", "--policies", "full-jitter"},
		{"crowd", "--clients", "1000000", "--capacity", "1000", "--queue", "50000", "--timeout", "2s", "--outage", "1m", "--queue-order", "lifo", "--policies", "full-jitter"},
		{"crowd", "--clients", "1000000", "--capacity", "50000", "--outage", "1m"},
		{"crowd", "--clients", "1000000", "--capacity", "5000", "--budget", "aws:500:5", "--processes", "1000", "--outage", "1m", "--policies", "full-jitter", "--seeds", "10"},
		append([]string{"crowd", "--clients", "100000"}, bigWaits...),
		// Issue 26's measure of speed, a tenth of it: breakers that stay
		// shut through the storm, short-circuiting nearly every attempt.
		{"crowd", "--clients", "100000", "--outage", "30s", "--attempts", "8", "--capacity", "2000", "--load", "1500", "--load-until", "3m",
			"--policies", "exponential,full-jitter,decorrelated", "--breaker", "20:5s", "--retry-after", "2s", "--outage-hang", "3s"},
	}
	measure := func(args []string) (cpu float64, rss int64, out string) {
		t.Helper()
		cmd := mainProcess(t, args...)
		peak := filepath.Join(t.TempDir(), "peak")
		cmd.Env = append(cmd.Env, "RETRY_PLANNER_PEAK="+peak)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v: %s", args, err, stderr.String())
		}
		ps := cmd.ProcessState
		// The child's own peak (VmHWM, in kB), which it writes as it
		// ends; its rusage's max RSS where that is missing, which also
		// holds what this process held at the fork.
		rss = ps.SysUsage().(*syscall.Rusage).Maxrss * 1024
		if b, err := os.ReadFile(peak); err == nil {
			if kb, err := strconv.ParseInt(strings.TrimSuffix(string(b), " kB"), 10, 64); err == nil {
				rss = kb * 1024
			}
		}
		return (ps.UserTime() + ps.SystemTime()).Seconds(), rss, stdout.String()
	}
	// A process that runs nothing to speak of: its start, its memory.
	baseCPU, baseRSS, _ := measure([]string{"crowd", "--clients", "1"})
	for _, args := range runs {
		opts, err := parseArgs(args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		c := opts.report.cost(workersHere())
		cpu, rss, out := measure(args)
		// Where no policy was good for the service, the report ran the
		// service's remedies with the first ranked after the run, within
		// what the run cost (model.RemediesToRun): their own estimate,
		// the costliest policy's, is added.
		if strings.Contains(out, "the service's own remedies work:") || strings.Contains(out, "none of the service's own remedies is enough alone:") {
			settings, _ := model.Remedies(opts.report.settings)
			var most int64
			for _, p := range opts.report.policies {
				most = max(most, model.RemediesCost(p, settings, workersHere()))
			}
			t.Logf("%s: the remedies ran, %.2f s of CPU estimated", strings.Join(args, " "), float64(most)/backoff.WorkPerSecond)
			c.Work += most
		}
		estCPU, ranCPU := float64(c.Work)/backoff.WorkPerSecond, max(cpu-baseCPU, 1e-3)
		estRSS := c.Bytes + baseRSS
		t.Logf("%s: %.2f s of CPU estimated, %.2f s taken (%.2f); %s held estimated, %s measured (%.2f)",
			strings.Join(args, " "), estCPU, ranCPU, estCPU/ranCPU, bytesText(estRSS), bytesText(rss), float64(estRSS)/float64(rss))
		if estCPU < ranCPU/2 || estCPU > 2*ranCPU {
			t.Errorf("%v: estimated %.2f s of CPU, it took %.2f s: want within 2 times either way", args, estCPU, ranCPU)
		}
		if estRSS < rss/2 || estRSS > 2*rss {
			t.Errorf("%v: estimated %s held, it held %s at its peak: want within 2 times either way", args, bytesText(estRSS), bytesText(rss))
		}
	}
}
