package cli

import (
	"strings"
	"testing"

	vreport "github.com/retryplanner/retry-planner/views/report"

	"github.com/retryplanner/retry-planner/backoff"
)

// benchService is issue 8's benchmark: the five at a million clients
// against a capacity of 50,000 a second and a fresh load of 10,000 a second.
const benchService = "crowd --clients 1000000 --attempts 12 --first-wait 1s --longest 60s --outage 30s " +
	"--capacity 50000 --load 10000 --load-until 90s --draws independent --seed 7 --slot 100ms"

// The report's own share of a crowd report: the figures are the core's,
// computed once; this is writing them out in each format, which must cost
// next to nothing against the crowd's seconds.
func BenchmarkCrowdReportFormats(b *testing.B) {
	opts, err := parseArgs(strings.Fields(benchService))
	if err != nil {
		b.Fatal(err)
	}
	s := opts.report.settings
	crowds, err := backoff.RunAll(opts.report.policies, s, backoff.Options{}, 2)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []struct {
		name  string
		write func() string
	}{
		{"text", func() string { return vreport.CrowdReport(s, crowds, nil) }},
		{"csv", func() string { return vreport.CrowdReportCSV(s, crowds) }},
		{"json", func() string { return vreport.CrowdReportDoc(s, crowds, nil) }},
	} {
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = f.write()
			}
		})
	}
}

// Reading the command line of a report, settings and all.
func BenchmarkParseArgs(b *testing.B) {
	args := strings.Fields(benchService + " --policies fixed,exponential,full-jitter,grpc --format json")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseArgs(args); err != nil {
			b.Fatal(err)
		}
	}
}
