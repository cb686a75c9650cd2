// Command livetable runs the full table of live storms and prints it: each
// scenario of livecheck.FullTable (every kind of client, the capacity below
// and above the storm, with and without fresh load) made live several
// times against a real HTTP server on 127.0.0.1, each kept run's figures
// set against the planner's spread over 50 seeds, then a summary.
//
//	cd testdata/livecheck && go run ./cmd/livetable
//	go run ./cmd/livetable -runs 5 -only cenkalti
//	go run ./cmd/livetable -queue   # MODEL.md section 6's storms too
//	go run ./cmd/livetable -breaker # MODEL.md section 7's breakers too
//
// Runs the machine did not keep time for are discarded, listed with the
// reason, and made again, up to -tries runs a scenario. The progress goes
// to standard error, the table to standard output.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/retryplanner/retry-planner/testdata/livecheck"
)

func main() {
	runs := flag.Int("runs", 3, "kept live runs wanted for each scenario")
	tries := flag.Int("tries", 0, "live runs at most for each scenario (0: three times -runs)")
	only := flag.String("only", "", "only the scenarios whose name holds this")
	queue := flag.Bool("queue", false, "also MODEL.md section 6's storms, which queue, against the planner's queue")
	breaker := flag.Bool("breaker", false, "also MODEL.md section 7's storms of clients with circuit breakers")
	out := flag.String("out", "", "also write the table so far to this file after each scenario, so that a run cut short keeps what it measured")
	quiet := flag.Duration("quiet", 5*time.Minute, "how long to wait in all, for each scenario, for the machine's timers to be on time before its runs")
	flag.Parse()
	if *tries <= 0 {
		*tries = 3 * *runs
	}
	scenarios := livecheck.FullTable()
	if *queue {
		scenarios = append(scenarios, livecheck.QueueTable()...)
	}
	if *breaker {
		scenarios = append(scenarios, livecheck.BreakerTable()...)
	}

	start := time.Now()
	head := fmt.Sprintf("Live table, %s; %s\n\n", start.UTC().Format("2006-01-02 15:04 MST"), machine())
	fmt.Print(head)
	var reps []livecheck.Report
	faults := 0
	for _, sc := range scenarios {
		if !strings.Contains(sc.Name, *only) {
			continue
		}
		sims, err := livecheck.Simulate(sc, 1, livecheck.SimSeeds)
		if err != nil {
			fail(err)
		}
		live, err := livecheck.LiveRuns(context.Background(), sc, *runs, *tries, livecheck.LiveSeed, *quiet, func(r *livecheck.Run) {
			state := "kept"
			if !r.Kept {
				state = "not measured: " + r.Why
			}
			fmt.Fprintf(os.Stderr, "%s, %v: %s\n  %s\n  %s\n", sc.Name, r.Took.Round(time.Millisecond), state, r.Health, asIfKept(sc, r, sims))
		})
		rep := livecheck.Compare(sc, live, sims)
		if err != nil {
			// A fault of the run itself, not the machine's timing: say
			// so in the table and go on with the next scenario.
			fmt.Fprintln(os.Stderr, "livetable:", err)
			rep.Note = "FAULT: " + err.Error()
			faults++
		}
		reps = append(reps, rep)
		if *out != "" {
			so := head + livecheck.Table(reps) + "\n" + livecheck.Summary(reps)
			if err := os.WriteFile(*out, []byte(so), 0o644); err != nil {
				fail(err)
			}
		}
	}
	fmt.Print(livecheck.Table(reps))
	fmt.Printf("\n%s", livecheck.Summary(reps))
	fmt.Printf("\nTook %v; load average at the end: %s\n", time.Since(start).Round(time.Second), loadavg())
	if faults > 0 {
		os.Exit(1)
	}
}

// asIfKept says how the run's figures compare with the simulator's
// whether it was kept or not: the evidence of what a busy machine does to
// them.
func asIfKept(sc livecheck.Scenario, r *livecheck.Run, sims []livecheck.Figures) string {
	if len(sims) == 0 {
		return ""
	}
	one := *r
	one.Kept = true
	rep := livecheck.Compare(sc, []*livecheck.Run{&one}, sims)
	var parts []string
	for _, row := range rep.Rows {
		if row.Check.Tol > 0 && row.Sim.Median > 0 {
			parts = append(parts, fmt.Sprintf("%s %+.1f%%", row.Check.Name, 100*float64(row.LiveMid-row.Sim.Median)/float64(row.Sim.Median)))
		}
	}
	verdict := "would agree"
	if n := len(rep.Failed()); n > 0 {
		verdict = fmt.Sprintf("would fail %d", n)
	}
	if !sc.Kind.Jittered() {
		verdict = "lockstep"
	}
	return fmt.Sprintf("against the simulator's median: %s (%s)", strings.Join(parts, ", "), verdict)
}

func machine() string {
	cpu := "?"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if name, ok := strings.CutPrefix(l, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
				break
			}
		}
	}
	return fmt.Sprintf("%s/%s, %d cores (%s), %s; load average at the start: %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpu, runtime.Version(), loadavg())
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "livetable:", err)
	os.Exit(1)
}
