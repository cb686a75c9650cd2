package main

import (
	"errors"
	"fmt"
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
		{name: "crowd", flags: []string{"seeds", "policies"}, slot: true},
		{name: "timeline", flags: []string{"policy", "policies"}, slot: true},
		{name: "jobs", flags: []string{"policy"}, jobs: true},
	}
}

// findCommand finds a command by its name, in any case.
func findCommand(name string) (reportCommand, bool) {
	for _, c := range reportCommands() {
		if strings.EqualFold(c.name, name) {
			return c, true
		}
	}
	return reportCommand{}, false
}

func commandList() string {
	return "schedule, crowd, timeline or jobs"
}

func formatList() string {
	return "text, csv or json, in any case"
}

// timelineSlot is the timeline's slot without --slot: the reference's
// retries over time count per second.
const timelineSlot = 1000

// report is one report command, read and checked.
type report struct {
	command  string
	format   string // text, csv or json
	settings backoff.Settings
	policies []backoff.Policy // schedule, timeline and jobs: one, unless the timeline shows several side by side
	sideBy   bool             // timeline: several policies side by side (--policy all or --policies)
	client   int              // schedule: which client
	seeds    int              // crowd: how many seeds; 0 for the one seed's table
	slot     int              // timeline: ms per slot (the crowd's is the settings')
	jobs     []ledger.Job     // jobs
}

// reportArgs is a report command's stretch of the command line as read,
// before the settings are known.
type reportArgs struct {
	cmd         reportCommand
	report      report
	policyNames []string // as typed, each checked; resolved once the settings are known
	policyFlag  string   // the flag that named them: "policy" or "policies"
	all         bool     // timeline --policy all
	clientSet   bool
	client      string // as typed; checked against the clients once they are known
}

// helpRequest is a command line that asks for help: topic "" is the
// program's, else a command's or "presets".
type helpRequest struct{ topic string }

func (h *helpRequest) Error() string { return "help requested" }

// versionRequest is a command line that asks for the version.
type versionRequest struct{}

func (*versionRequest) Error() string { return "version requested" }

// commandFlags is the flags a command's stretch takes.
func commandFlags(cmd reportCommand, plain bool) flagSet {
	own := append(slices.Clone(cmd.flags), "format")
	return flagSet{who: cmd.name, own: own, valued: append(slices.Clone(own), settingNames()...), switches: []string{"help"}, plain: plain}
}

// readReport reads a report command and its arguments (args[0] is the
// command), taking settings flags into draft.
func readReport(args []string, draft *settingsDraft, plain bool) (reportArgs, error) {
	if strings.EqualFold(args[0], "help") {
		return reportArgs{}, readHelp(args[1:])
	}
	cmd, ok := findCommand(args[0])
	if !ok {
		return reportArgs{}, usagef("unknown command %s: want %s, or none for the full-screen program; see --help", strconv.Quote(args[0]), commandList())
	}
	fs := commandFlags(cmd, plain)
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
		f := strings.ToLower(u.value)
		if f != "text" && f != "csv" && f != "json" {
			return usagef("--format %s: want %s", strconv.Quote(u.value), formatList())
		}
		ra.report.format = f
	case "policy":
		if ra.cmd.name == "timeline" && strings.EqualFold(strings.TrimSpace(u.value), "all") {
			ra.policyNames, ra.policyFlag, ra.all = nil, "policy", true
			return nil
		}
		if _, err := policyKey(u.value); err != nil {
			allowed := policyList()
			if ra.cmd.name == "timeline" {
				allowed += ", or all for the five side by side"
			}
			return usagef("--policy %s: want %s", strconv.Quote(u.value), allowed)
		}
		ra.policyNames, ra.policyFlag, ra.all = []string{u.value}, "policy", false
	case "policies":
		names, err := readPolicies(u.value)
		if err != nil {
			return err
		}
		ra.policyNames, ra.policyFlag, ra.all = names, "policies", false
	case "client":
		ra.client, ra.clientSet = u.value, true
	case "seeds":
		n, ok := backoff.ParseCount(u.value)
		if !ok || n < 1 || n > backoff.MaxSeeds {
			return usagef("--seeds %s: want %s", quoteOdd(u.value), allowedValue("seeds", backoff.WideLimits))
		}
		ra.report.seeds = n
	default:
		return draft.take(u)
	}
	return nil
}

// readPolicies reads --policies: names separated by commas, none empty,
// none twice.
func readPolicies(v string) ([]string, error) {
	var names, keys []string
	for item := range strings.SplitSeq(v, ",") {
		if strings.TrimSpace(item) == "" {
			return nil, usagef("--policies %s: a name is empty; want %s", strconv.Quote(v), policiesList())
		}
		key, err := policyKey(item)
		if err != nil {
			return nil, usagef("--policies %s: %s is no policy; want %s", strconv.Quote(v), strconv.Quote(item), policiesList())
		}
		if slices.Contains(keys, key) {
			return nil, usagef("--policies %s: %s is listed twice; want each policy once", strconv.Quote(v), key)
		}
		names, keys = append(names, item), append(keys, key)
	}
	return names, nil
}

// finish checks what depends on the settings, now known, and returns the
// report.
func (ra *reportArgs) finish(s backoff.Settings, draft *settingsDraft) (report, error) {
	r := ra.report
	if draft.has("slot") && !ra.cmd.slot {
		return r, usagef("--slot: %s has no slots; --slot goes with crowd, timeline, --plain or the full-screen program", ra.cmd.name)
	}
	if r.seeds > 0 && !draft.has("draws") {
		// One seed's figures are the reference's; a spread over seeds is
		// of independent clients unless --draws reference asks otherwise.
		s.Draws = backoff.Independent
	}
	r.settings = s
	policies, err := ra.resolve(s, draft)
	if err != nil {
		return r, err
	}
	r.policies, r.sideBy = policies, ra.all || ra.policyFlag == "policies"
	if ra.clientSet {
		n, ok := backoff.ParseCount(ra.client)
		if !ok || n < 1 || n > s.Clients {
			return r, usagef("--client %s: want a whole number from 1 to %d (the clients)", quoteOdd(ra.client), s.Clients)
		}
		r.client = n
	}
	r.slot = s.Slot
	if r.command == "timeline" && !draft.has("slot") {
		r.slot = timelineSlot
	}
	return r, nil
}

// resolve returns the policies the report runs: those named, or each
// command's default.
func (ra *reportArgs) resolve(s backoff.Settings, draft *settingsDraft) ([]backoff.Policy, error) {
	five := s.Five()
	if draft.definesCustom() {
		five = append(five, s.Custom())
	}
	switch {
	case ra.all:
		return five, nil
	case len(ra.policyNames) == 0 && ra.cmd.name == "crowd":
		return five, nil
	case len(ra.policyNames) == 0 && ra.cmd.name == "jobs":
		return []backoff.Policy{s.Policy(backoff.Exponential)}, nil
	case len(ra.policyNames) == 0:
		allowed := policyList()
		if ra.cmd.name == "timeline" {
			allowed += "; or --policy all, or --policies, for several side by side"
		}
		return nil, usagef("%s needs --policy: %s", ra.cmd.name, allowed)
	}
	var out []backoff.Policy
	for _, name := range ra.policyNames {
		p, err := backoff.LookupPolicy(s, name)
		if err != nil {
			return nil, usagef("--%s %s: want %s", ra.policyFlag, strconv.Quote(name), policyList())
		}
		for _, q := range out {
			if q.Name == p.Name {
				return nil, usagef("--policies %s: custom has %s's settings, so %s is listed twice; want each policy once",
					strconv.Quote(strings.Join(ra.policyNames, ",")), p.Name, p.Name)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// readJobs reads the jobs, as --plain does, from the words of the command
// line: each word one or more jobs separated by spaces. A job's name must be
// printable text: a report writes it on a line of its own, in CSV and in
// JSON, which have no room for control characters or broken UTF-8, and it
// must show what it holds: no format characters (ledger.CheckNames). Each
// job has a name of its own (ledger.CheckUnique): the ledger tells jobs
// apart by name.
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
	if err == nil {
		err = ledger.CheckUnique(jobs)
	}
	var ferr *ledger.FormatError
	var many *ledger.TooManyJobsError
	var nerr *ledger.NameError
	switch {
	case errors.As(err, &ferr):
		return nil, usagef("jobs: %s: %s", quoteJob(ferr.Job), ferr.Rule())
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

// quoteJob writes a job as typed, quoted only if it holds a space, a
// quote mark, a backslash or anything that does not show as itself, so that
// alpha:1000 reads as typed.
func quoteJob(word string) string {
	if word == "" || strings.ContainsFunc(word, func(r rune) bool {
		return r == ' ' || r == '"' || r == '\\' || !unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r)
	}) {
		return strconv.Quote(word)
	}
	return word
}

// readHelp reads "help [COMMAND|presets]".
func readHelp(words []string) error {
	switch {
	case len(words) == 0:
		return &helpRequest{}
	case len(words) > 1:
		return usagef("help takes one topic at most, got %d words: want %s or presets", len(words), commandList())
	case strings.EqualFold(words[0], "presets"):
		return &helpRequest{topic: "presets"}
	}
	cmd, ok := findCommand(words[0])
	if !ok {
		return usagef("help on %s: want %s, or presets", strconv.Quote(words[0]), commandList())
	}
	return &helpRequest{topic: cmd.name}
}

// render writes the report to w: a pure function of the report. workers
// only says how many goroutines the crowds may use; the output does not
// depend on it. A timeline is written slot by slot, however many slots it
// has; the other reports are short.
func (r report) render(w io.Writer, workers int) error {
	s := r.settings
	write := func(text, csv, json func() string) error {
		_, err := io.WriteString(w, r.pick(text, csv, json))
		return err
	}
	switch r.command {
	case "schedule":
		sc := backoff.ScheduleOf(r.policies[0], s, r.client)
		return write(
			func() string { return views.ScheduleReport(s, sc) },
			func() string { return views.ScheduleCSV(sc) },
			func() string { return views.ScheduleDoc(s, sc) })
	case "crowd":
		if r.seeds > 0 {
			sc, err := backoff.RunSeeds(r.policies, s, r.seeds, backoff.SeedOptions{Workers: workers})
			if err != nil {
				return &runError{err}
			}
			return write(
				func() string { return views.SeedsText(s, sc) },
				func() string { return views.SeedsCSV(s, sc) },
				func() string { return views.SeedsDoc(s, sc) })
		}
		crowds, err := backoff.RunAll(r.policies, s, backoff.Options{}, workers)
		if err != nil {
			return &runError{err}
		}
		return write(
			func() string { return views.CrowdReport(s, crowds) },
			func() string { return views.CrowdReportCSV(s, crowds) },
			func() string { return views.CrowdReportDoc(s, crowds) })
	case "timeline":
		one := s
		one.Slot = r.slot
		runs, err := backoff.RunAll(r.policies, one, backoff.Options{Series: true}, workers)
		if err != nil {
			return &runError{err}
		}
		tl := views.Timeline{Settings: one, Runs: runs, SideBy: r.sideBy}
		switch r.format {
		case "csv":
			return tl.WriteCSV(w)
		case "json":
			return tl.WriteJSON(w)
		}
		return tl.WriteText(w)
	default:
		rep := ledger.RunAllUnder(r.jobs, r.policies[0], s)
		return write(
			func() string { return views.JobsReport(s, r.policies[0], rep) },
			func() string { return views.JobsCSV(rep) },
			func() string { return views.JobsDoc(s, r.policies[0], rep) })
	}
}

// runError is a crowd that could not be run: a defect, since the settings
// were checked.
type runError struct{ err error }

func (e *runError) Error() string { return e.err.Error() }

func (r report) pick(text, csv, json func() string) string {
	switch r.format {
	case "csv":
		return csv()
	case "json":
		return json()
	}
	return text()
}

// runReport prints the report. Its only failures are a stdout that cannot
// be written to and a crowd that could not be run.
func runReport(r report, stdout, stderr io.Writer) int {
	err := r.render(stdout, runtime.GOMAXPROCS(0))
	var run *runError
	if errors.As(err, &run) {
		fmt.Fprintf(stderr, "retry-planner: the %s report: %v\n", r.command, run.err)
		return 1
	}
	return writeStatus(err, "the "+r.command+" report", stderr)
}
