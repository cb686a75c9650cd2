package main

import (
	"errors"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
	"github.com/retryplanner/retry-planner/views"
)

// The report commands print one report and exit: for scripts, pipelines,
// design documents and CI checks. Each is the same figures as a screen of
// --plain, as text (byte for byte what --plain writes), CSV or JSON.

// reportCommand is one report command and what it takes.
type reportCommand struct {
	name  string
	flags []string // its own flags, each with a value, --format aside
	slot  bool     // --slot applies
	jobs  bool     // it takes jobs as words
}

func reportCommands() []reportCommand {
	return []reportCommand{
		{name: "schedule", flags: []string{"policy", "client"}},
		{name: "crowd", flags: []string{"seeds"}, slot: true},
		{name: "timeline", flags: []string{"policy"}, slot: true},
		{name: "jobs", jobs: true},
	}
}

func findCommand(name string) (reportCommand, bool) {
	for _, c := range reportCommands() {
		if c.name == name {
			return c, true
		}
	}
	return reportCommand{}, false
}

func commandList() string {
	return "schedule, crowd, timeline or jobs"
}

func formatList() string {
	return "text, csv or json"
}

// timelineSlot is the timeline's slot without --slot: the reference's
// retries over time count per second.
const timelineSlot = 1000

// report is one report command, read and checked.
type report struct {
	command string
	format  string // text, csv or json
	policy  backoff.Shape
	client  int          // schedule: which client
	seeds   int          // crowd: how many seeds; 0 for the one seed's table
	slot    int          // timeline: ms per slot (the crowd's is the settings')
	jobs    []ledger.Job // jobs
}

// reportArgs is a report command's stretch of the command line as read,
// before the settings are known.
type reportArgs struct {
	cmd       reportCommand
	report    report
	policySet bool
	clientSet bool
	client    string // as typed; checked against the clients once they are known
}

// helpRequest is a command line that asks for help: topic "" is the
// program's, else a command's.
type helpRequest struct{ topic string }

func (h *helpRequest) Error() string { return "help requested" }

// readReport reads a report command and its arguments (args[0] is the
// command), taking settings flags into draft.
func readReport(args []string, draft *settingsDraft) (reportArgs, error) {
	if args[0] == "help" {
		return reportArgs{}, readHelp(args[1:])
	}
	cmd, ok := findCommand(args[0])
	if !ok {
		return reportArgs{}, usagef("unknown command %s: want %s, or none for the full-screen program; see --help", strconv.Quote(args[0]), commandList())
	}
	fs := flagSet{who: cmd.name, valued: append(append(append([]string(nil), cmd.flags...), "format"), settingNames(cmd.slot)...), switches: []string{"help"}}
	uses, words, _, err := fs.scan(args[1:], false)
	if err != nil {
		return reportArgs{}, err
	}
	for _, u := range uses {
		if u.name == "help" {
			return reportArgs{}, &helpRequest{topic: cmd.name}
		}
	}
	ra := reportArgs{cmd: cmd, report: report{command: cmd.name, format: "text", client: 1}}
	for _, u := range uses {
		if err := ra.take(u, draft); err != nil {
			return reportArgs{}, err
		}
	}
	if cmd.jobs {
		jobs, err := readJobs(words)
		if err != nil {
			return reportArgs{}, err
		}
		ra.report.jobs = jobs
	} else if len(words) > 0 {
		return reportArgs{}, usagef("%s takes no arguments but flags, got %s; it takes %s", cmd.name, strconv.Quote(words[0]), fs.list())
	}
	return ra, nil
}

// take applies one flag of a report command's stretch.
func (ra *reportArgs) take(u flagUse, draft *settingsDraft) error {
	switch u.name {
	case "format":
		if u.value != "text" && u.value != "csv" && u.value != "json" {
			return usagef("--format %s: want %s", strconv.Quote(u.value), formatList())
		}
		ra.report.format = u.value
	case "policy":
		p, err := parsePolicy(u.value)
		if err != nil {
			return err
		}
		ra.report.policy, ra.policySet = p, true
	case "client":
		ra.client, ra.clientSet = u.value, true
	case "seeds":
		n, ok := parseNumber(u.value)
		if !ok || n < 1 || n > backoff.MaxSeeds {
			return usagef("--seeds %s: want %s", quoteOdd(u.value), allowedValue("seeds"))
		}
		ra.report.seeds = n
	default:
		return draft.take(u)
	}
	return nil
}

// finish checks what depends on the settings, now known, and returns the
// report.
func (ra *reportArgs) finish(s backoff.Settings, slotSet bool) (report, error) {
	r := ra.report
	if slotSet && !ra.cmd.slot {
		return r, usagef("--slot: %s has no slots; --slot goes with crowd, timeline, --plain or the full-screen program", ra.cmd.name)
	}
	if slices.Contains(ra.cmd.flags, "policy") && !ra.policySet {
		return r, usagef("%s needs --policy: %s", ra.cmd.name, policyList())
	}
	if ra.clientSet {
		n, ok := parseNumber(ra.client)
		if !ok || n < 1 || n > s.Clients {
			return r, usagef("--client %s: want a whole number from 1 to %d (the clients)", quoteOdd(ra.client), s.Clients)
		}
		r.client = n
	}
	r.slot = s.Slot
	if r.command == "timeline" && !slotSet {
		r.slot = timelineSlot
	}
	return r, nil
}

// readJobs reads the jobs, as --plain does, from the words of the command
// line: each word one or more jobs separated by spaces. A job's name must be
// printable text: a report writes it on a line of its own, in CSV and in
// JSON, which have no room for control characters or broken UTF-8, and it
// must show what it holds: no format characters (ledger.CheckNames).
func readJobs(words []string) ([]ledger.Job, error) {
	for _, w := range words {
		if !utf8.ValidString(w) || strings.ContainsFunc(w, unicode.IsControl) {
			return nil, usagef("jobs: %s: a job is printable text, name:failures or name:fatal", strconv.Quote(w))
		}
	}
	jobs, err := ledger.Parse(strings.Join(words, " "))
	if err == nil {
		err = ledger.CheckNames(jobs)
	}
	var ferr *ledger.FormatError
	var many *ledger.TooManyJobsError
	var nerr *ledger.NameError
	switch {
	case errors.As(err, &ferr):
		return nil, usagef("%v", ferr)
	case errors.As(err, &nerr):
		return nil, usagef("%v", nerr)
	case errors.As(err, &many):
		return nil, usagef("jobs: %v", many)
	case err != nil:
		return nil, usagef("jobs: %v", err)
	case len(jobs) == 0:
		return nil, usagef("jobs needs at least one job, name:failures or name:fatal, such as: jobs alpha:0 bravo:2 charlie:9 delta:fatal")
	}
	return jobs, nil
}

// readHelp reads "help [COMMAND]".
func readHelp(words []string) error {
	switch {
	case len(words) == 0:
		return &helpRequest{}
	case len(words) > 1:
		return usagef("help takes one command at most, got %d words: want %s", len(words), commandList())
	}
	if _, ok := findCommand(words[0]); !ok {
		return usagef("help on %s: want %s", strconv.Quote(words[0]), commandList())
	}
	return &helpRequest{topic: words[0]}
}

// render is the report's output: a pure function of the report and the
// settings. workers only says how many goroutines the crowd over many seeds
// may use; the output does not depend on it.
func (r report) render(s backoff.Settings, workers int) string {
	switch r.command {
	case "schedule":
		sched := backoff.ScheduleOf(s.Policy(r.policy), s, r.client)
		return r.pick(
			func() string { return views.ScheduleText(sched) },
			func() string { return views.ScheduleCSV(sched) },
			func() string { return views.ScheduleDoc(s, sched) })
	case "crowd":
		if r.seeds > 0 {
			sc, _ := backoff.RunSeeds(s.Five(), s, r.seeds, backoff.SeedOptions{Workers: workers})
			return r.pick(
				func() string { return views.SeedsText(s, sc) },
				func() string { return views.SeedsCSV(sc) },
				func() string { return views.SeedsDoc(s, sc) })
		}
		crowds, _ := backoff.RunAll(s.Five(), s, backoff.Options{}, workers)
		return r.pick(
			func() string { return views.CrowdText(s, crowds) },
			func() string { return views.CrowdCSV(crowds) },
			func() string { return views.CrowdDoc(s, crowds) })
	case "timeline":
		one := s
		one.Slot = r.slot
		c, _ := backoff.Run(one.Policy(r.policy), one, backoff.Options{Series: true})
		return r.pick(
			func() string { return views.HistogramText(c) },
			func() string { return views.TimelineCSV(c) },
			func() string { return views.TimelineDoc(s, c) })
	default:
		rep := ledger.RunAll(r.jobs, s)
		return r.pick(
			func() string { return views.JobsText(rep) },
			func() string { return views.JobsCSV(rep) },
			func() string { return views.JobsDoc(s, rep) })
	}
}

func (r report) pick(text, csv, json func() string) string {
	switch r.format {
	case "csv":
		return csv()
	case "json":
		return json()
	}
	return text()
}

// runReport prints the report. Its only failure is a stdout that cannot be
// written to.
func runReport(r report, s backoff.Settings, stdout, stderr io.Writer) int {
	_, err := io.WriteString(stdout, r.render(s, runtime.GOMAXPROCS(0)))
	return writeStatus(err, "the "+r.command+" report", stderr)
}
