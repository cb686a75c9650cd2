package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	vpicture "github.com/retryplanner/retry-planner/views/picture"
	vreport "github.com/retryplanner/retry-planner/views/report"
	"github.com/retryplanner/retry-planner/views/words"
	"github.com/spf13/cobra"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/backoff/plan"
	"github.com/retryplanner/retry-planner/ledger"
	"github.com/retryplanner/retry-planner/model"
)

// The report commands print one report and exit: for scripts, pipelines,
// design documents and CI checks. Each is the same figures as a screen of
// --plain, as text (byte for byte what --plain writes), CSV or JSON.

// reportCommand is one report command: its words in help, its own flags
// (declared in its own file: schedule.go, crowd.go, timeline.go, jobs.go),
// and what it takes.
type reportCommand struct {
	name     string
	help     commandHelp
	own      []ownFlag // its own flags, in the order its help lists them; --format and the files' follow
	slot     bool      // --slot applies
	jobs     bool      // it takes jobs as words
	pictures bool      // --format svg and png, --width and --height
	// Commands with flags of their own beyond these (advise) read them
	// (read reports whether the flag was its own), check the report once it
	// is read, and render it.
	read   func(ra *reportArgs, u flagUse) (bool, error)
	check  func(r *report, draft *settingsDraft) error
	render func(r report, w io.Writer, workers int) error
}

// ownFlag is one of a command's own flags: its help, and how the shells
// complete its value (nil: no completion).
type ownFlag struct {
	name, typ, usage string
	toggle           bool
	complete         cobra.CompletionFunc
}

// commandHelp is a command's words in its help.
type commandHelp struct{ use, short, long, example string }

// reportCommands are the report commands, in the order help lists them.
func reportCommands() []reportCommand {
	return []reportCommand{scheduleCommand(), crowdCommand(), timelineCommand(), jobsCommand(), adviseCommand()}
}

// flags is every flag c takes: its own, then --format, the picture's size
// where it draws pictures, and the files every report writes.
func (c reportCommand) flags() []ownFlag {
	formats := []string{"text", "csv", "json"}
	usage := "text, csv or json (default text)"
	if c.pictures {
		formats = append(formats, "svg", "png")
		usage = "text, csv, json, or svg or png for a picture (default text)"
	}
	out := append(slices.Clone(c.own), ownFlag{name: "format", typ: "F", usage: usage, complete: cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp)})
	if c.pictures {
		out = append(out,
			ownFlag{name: "width", typ: "N", usage: fmt.Sprintf("a picture's width: %d to %d, points for svg, pixels for png (default %d points)",
				vpicture.MinPictureSide, vpicture.MaxPictureSide, vpicture.DefaultPictureWidth)},
			ownFlag{name: "height", typ: "N", usage: fmt.Sprintf("a picture's height: %d to %d (default: as tall as its panels need)",
				vpicture.MinPictureSide, vpicture.MaxPictureSide)})
	}
	return append(out,
		ownFlag{name: "out", typ: "FILE", usage: "write the report to FILE, not standard output"},
		ownFlag{name: "save-plan", typ: "FILE", usage: "write the plan the report ran to FILE (TOML), for --plan", complete: completePlanFile},
		ownFlag{name: "force", toggle: true, usage: "let --out and --save-plan overwrite a file that is there"})
}

// takes reports whether c takes the flag called name.
func (c reportCommand) takes(name string) bool {
	return slices.ContainsFunc(c.flags(), func(f ownFlag) bool { return f.name == name })
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

func formatList() string {
	return "text, csv or json, in any case"
}

// pictureFormatList is what --format takes where there are pictures.
func pictureFormatList() string {
	return "text, csv, json, svg or png, in any case"
}

// report is one report command, read and checked.
type report struct {
	command  string
	format   string // text, csv, json, or for crowd and timeline svg or png
	settings backoff.Settings
	policies []backoff.Policy // schedule, timeline and jobs: one, unless the timeline shows several side by side
	sideBy   bool             // timeline: several policies side by side (--policy all or --policies)
	client   int              // schedule: which client
	// seeds is how many seeds the crowd runs, 0 for the one seed's table;
	// the other commands keep a plan's, for --save-plan.
	seeds     int
	seedDraws backoff.Draws // the spread's draws
	every     int           // timeline: a row's width in ms, a whole number of slots (--every; 0 for the default)
	fromBack  bool          // timeline: the rows start when the service is back (--from back)
	jobs      []ledger.Job  // jobs
	note      string        // the last plan's note, kept in a plan saved

	out      string // --out: the file the report goes to, "" for standard output
	savePlan string // --save-plan: the file the plan it ran goes to
	force    bool   // --force: out and savePlan may overwrite a file

	width, height int // a picture's size; 0 takes the default

	compare *compareSpec // crowd --compare: plan A

	goals  advice.Goals // --goal and the plan's: kept in a plan saved
	advise *adviseSpec  // advise: what it searches, and what it found
	// progress is where a long report says how far it has gone while it
	// runs (crowd --seeds, advise): standard error when it is a terminal,
	// else nil.
	progress io.Writer

	// maxOutput is the most bytes a timeline writes (--max-output), 0 for
	// no ceiling; maxOutputBy says where it comes from.
	maxOutput   int64
	maxOutputBy string

	done   *atomic.Int64 // if set, counts the policies or seeds run, for a progress line
	stop   func() bool   // if set, stops the run (a signal)
	stderr io.Writer     // if set, where a report says what its format cannot (a CSV cut short)
}

// defaultMaxOutput is --max-output unless told: a gigabyte.
const defaultMaxOutput = 1e9

// outputError is a report that would write more than --max-output allows:
// nothing of it is written.
type outputError struct{ msg string }

func (e *outputError) Error() string { return e.msg }

// compareSpec is plan A of crowd --compare, as it runs.
type compareSpec struct {
	file      string
	settings  backoff.Settings
	policies  []backoff.Policy
	seeds     int
	seedDraws backoff.Draws
	idle      []vreport.Idle // the settings that differ and change no figure
}

// picture reports whether the report is a picture.
func (r report) picture() bool {
	return r.format == vpicture.FormatSVG || r.format == vpicture.FormatPNG
}

// reportArgs is a report command's stretch of the command line as read,
// before the settings are known.
type reportArgs struct {
	cmd         reportCommand
	report      report
	policyNames []string // as typed, each checked; resolved once the settings are known
	policyFlag  string   // the flag that named them: "policy", "policies" or "plan" (a plan's, in crowd)
	all         bool     // timeline --policy all
	clientSet   bool
	client      string // as typed; checked against the clients once they are known
	// planPolicies are the last plan's policies, which timeline --policy
	// all runs; planFile is its file.
	planPolicies []string
	planFile     string
	widthSet     string // --width and --height as given, for messages
	heightSet    string
	everySet     string // --every as given, for messages
	compareFile  string
	compare      *plan.Plan
}

// fromPlan takes the policies and seeds of a plan just read, where the
// command uses them: crowd's policies (none: its default) and seeds, the
// policies timeline --policy all runs; and its note, which a plan saved
// keeps. The other commands keep its seeds too, for a plan they save.
func (ra *reportArgs) fromPlan(lp *loadedPlan) {
	if lp == nil {
		return
	}
	switch ra.cmd.name {
	case "crowd":
		ra.policyNames, ra.policyFlag = lp.plan.Policies, "plan"
	case "timeline":
		ra.planPolicies = lp.plan.Policies
	}
	ra.planFile = lp.file
	ra.report.seeds, ra.report.note = lp.plan.Seeds, lp.plan.Note
}

// take applies one flag of a report command's stretch.
func (ra *reportArgs) take(u flagUse, draft *settingsDraft) error {
	if ra.cmd.read != nil {
		if own, err := ra.cmd.read(ra, u); own {
			return err
		}
	}
	switch u.name {
	case "format":
		f := strings.ToLower(u.value)
		switch {
		case f == "text" || f == "csv" || f == "json":
		case (f == vpicture.FormatSVG || f == vpicture.FormatPNG) && ra.cmd.pictures:
		case f == vpicture.FormatSVG || f == vpicture.FormatPNG:
			return usagef("--format %s: %s writes %s; pictures are for crowd and timeline", f, ra.cmd.name, formatList())
		case ra.cmd.pictures:
			return usagef("--format %s: want %s", strconv.Quote(u.value), pictureFormatList())
		default:
			return usagef("--format %s: want %s", strconv.Quote(u.value), formatList())
		}
		ra.report.format = f
	case "plan":
		if err := draft.take(u); err != nil {
			return err
		}
		ra.fromPlan(draft.plan)
	case "compare":
		p, err := loadPlan(draft.files, "--compare", u.value)
		if err != nil {
			return err
		}
		ra.compare, ra.compareFile = &p, u.value
	case "out":
		if u.value == "" {
			return usagef("--out \"\": want a file to write the report to")
		}
		ra.report.out = u.value
	case "save-plan":
		if u.value == "" {
			return usagef("--save-plan \"\": want a file to write the plan to")
		}
		ra.report.savePlan = u.value
	case "force":
		ra.report.force = true
	case "max-output":
		n, ok := parseBytes(u.value)
		if !ok {
			return usagef("--max-output %s: want %s", quoteOdd(u.value), allowedValue(u.name, backoff.WideLimits))
		}
		ra.report.maxOutput, ra.report.maxOutputBy = n, "--max-output "+u.value
	case "width", "height":
		n, ok := backoff.ParseCount(u.value)
		if !ok || n < vpicture.MinPictureSide || n > vpicture.MaxPictureSide {
			return usagef("--%s %s: want %s", u.name, quoteOdd(u.value), allowedValue(u.name, backoff.WideLimits))
		}
		if u.name == "width" {
			ra.report.width, ra.widthSet = n, u.value
		} else {
			ra.report.height, ra.heightSet = n, u.value
		}
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
	case "every":
		n, err := readTime(u)
		switch {
		case err != nil:
			return err
		case n < 1 || n > backoff.MaxTime:
			return usagef("--every %s: want %s", quoteOdd(u.value), allowedValue("every", backoff.WideLimits))
		}
		ra.report.every, ra.everySet = n, u.value
	case "from":
		switch strings.ToLower(strings.TrimSpace(u.value)) {
		case "start":
			ra.report.fromBack = false
		case "back":
			ra.report.fromBack = true
		default:
			return usagef("--from %s: want %s", strconv.Quote(u.value), allowedValue("from", backoff.WideLimits))
		}
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
	if draft.slotFrom == "--slot" && !ra.cmd.slot {
		return r, usagef("--slot: %s has no slots; --slot goes with crowd, timeline, --plain or the full-screen program", ra.cmd.name)
	}
	// One seed's figures are the reference's unless --draws says otherwise;
	// a spread over seeds is of independent clients unless --seed-draws or
	// --draws reference asks otherwise.
	r.seedDraws = draft.seedDraws
	r.settings = s
	if err := ra.checkFiles(draft.files); err != nil {
		return r, err
	}
	policies, err := ra.resolve(s, draft)
	if err != nil {
		return r, err
	}
	r.policies, r.sideBy = policies, ra.all || ra.policyFlag == "policies"
	if err := draft.runnable(s, policies); err != nil {
		return r, err
	}
	if ra.clientSet {
		n, ok := backoff.ParseCount(ra.client)
		if !ok || n < 1 || n > s.Clients {
			return r, usagef("--client %s: want a whole number from 1 to %d (the clients)", quoteOdd(ra.client), s.Clients)
		}
		r.client = n
	}
	if r.command == "timeline" {
		if r.every == 0 {
			r.every = vreport.DefaultRowMs(s.Slot)
		} else if r.every%s.Slot != 0 {
			return r, usagef("--every %s: a row is a whole number of slots of %d ms (--slot), such as %d ms", quoteOdd(ra.everySet), s.Slot,
				vreport.DefaultRowMs(s.Slot))
		}
	}
	if ra.compare != nil {
		if r.picture() {
			return r, usagef("--compare writes %s, not %s: drop --format %s", formatList(), r.format, r.format)
		}
		a, err := ra.compare.PolicyList()
		if err != nil {
			return r, usagef("--compare %s: %v", shownFile(ra.compareFile), err)
		}
		for _, p := range a {
			if err := backoff.CheckQueue(p, ra.compare.Settings); err != nil {
				return r, usagef("--compare %s: %v", shownFile(ra.compareFile), err)
			}
		}
		r.compare = &compareSpec{file: ra.compareFile, settings: ra.compare.Settings, policies: a,
			seeds: ra.compare.Seeds, seedDraws: ra.compare.SeedDraws, idle: ra.idleSettings(s, r.policies, draft)}
	}
	r.goals = draft.goals
	if ra.cmd.check != nil {
		if err := ra.cmd.check(&r, draft); err != nil {
			return r, err
		}
	}
	return r, nil
}

// checkFiles checks the flags that name files to write and the picture's
// size: --force and --width or --height only where they apply, a file
// that is there only with --force, and not one file for two things.
func (ra *reportArgs) checkFiles(fsys files) error {
	r := ra.report
	switch {
	case r.force && r.out == "" && r.savePlan == "":
		return usagef("--force overwrites the file of --out or --save-plan: give one of them, or drop --force")
	case (ra.widthSet != "" || ra.heightSet != "") && !r.picture():
		flag, v := "--width", ra.widthSet
		if v == "" {
			flag, v = "--height", ra.heightSet
		}
		return usagef("%s %s: the size of a picture; give --format svg or png (%s takes them)", flag, quoteOdd(v), ra.cmd.name)
	case r.out != "" && r.savePlan != "" && (r.out == r.savePlan || fsys.same(r.out, r.savePlan)):
		names := shownFile(r.out)
		if r.out != r.savePlan {
			names = "one file, " + shownFile(r.out) + " and " + shownFile(r.savePlan)
		}
		return usagef("--out and --save-plan both name %s: give each its own file", names)
	}
	for _, f := range []struct{ flag, file string }{{"--out", r.out}, {"--save-plan", r.savePlan}} {
		if f.file == "" {
			continue
		}
		if err := fsys.unfit(f.file); err != nil {
			return usagef("%s %s: %s: remove it, or name another file", f.flag, shownFile(f.file), words.FileReason(err, "no such folder"))
		}
		if !r.force && fsys.exists(f.file) {
			return existsError(f.flag, f.file)
		}
	}
	return nil
}

// resolve returns the policies the report runs: those named, or each
// command's default.
func (ra *reportArgs) resolve(s backoff.Settings, draft *settingsDraft) ([]backoff.Policy, error) {
	five := s.Five()
	if draft.definesCustom() {
		five = append(five, s.Custom())
	}
	switch {
	case ra.all && len(ra.planPolicies) > 0:
		return lookupPolicies(s, ra.planPolicies, "--plan "+shownFile(ra.planFile)+": policies")
	case ra.all:
		return five, nil
	case len(ra.policyNames) == 0 && (ra.cmd.name == "crowd" || ra.cmd.name == "advise"):
		return five, nil
	case len(ra.policyNames) == 0 && ra.cmd.name == "jobs":
		return []backoff.Policy{s.Policy(backoff.Exponential)}, nil
	case len(ra.policyNames) == 0:
		allowed := policyList()
		if ra.cmd.name == "timeline" {
			allowed += "; or --policy all, or --policies, for several side by side"
			if len(ra.planPolicies) > 0 {
				allowed += " (--policy all runs the plan's)"
			}
		}
		return nil, usagef("%s needs --policy: %s", ra.cmd.name, allowed)
	}
	who := "--" + ra.policyFlag
	if ra.policyFlag == "plan" {
		who = "--plan " + shownFile(ra.planFile) + ": policies"
	}
	return lookupPolicies(s, ra.policyNames, who)
}

// lookupPolicies finds each policy named, by who (a flag, or a plan) for
// messages, each once.
func lookupPolicies(s backoff.Settings, names []string, who string) ([]backoff.Policy, error) {
	var out []backoff.Policy
	for _, name := range names {
		p, err := backoff.LookupPolicy(s, name)
		if err != nil {
			return nil, usagef("%s %s: want %s", who, strconv.Quote(name), policyList())
		}
		for _, q := range out {
			if q.Name == p.Name {
				return nil, usagef("%s %s: custom has %s's settings, so %s is listed twice; want each policy once",
					who, strconv.Quote(strings.Join(names, ",")), p.Name, p.Name)
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

// remedies are the service's own remedies for the crowd report, where no
// policy of the run is good for the service (words.Choice says the way
// out): run on the first ranked policy when they cost little
// (model.RemediesToRun), else named for the person to try; none where a
// policy is good.
func (r report) remedies(crowds []backoff.Result, workers int) ([]words.Remedy, error) {
	first, settings, remedies, run := model.RemediesToRun(r.policies, r.settings, crowds, workers)
	if !run {
		return remedies, nil
	}
	return model.RunRemedies(func(ps []backoff.Policy, s backoff.Settings) ([]backoff.Result, error) {
		return backoff.RunAll(ps, s, backoff.Options{Stop: r.stop}, workers)
	}, first, settings, remedies)
}

// render writes the report to w: a pure function of the report. workers
// only says how many goroutines the crowds may use; the output does not
// depend on it. A timeline is written slot by slot, however many slots it
// has; the other reports are short.
func (r report) render(w io.Writer, workers int) error {
	if c, ok := findCommand(r.command); ok && c.render != nil {
		return c.render(r, w, workers)
	}
	s := r.settings
	write := func(text, csv, json func() string) error {
		_, err := io.WriteString(w, r.pick(text, csv, json))
		return err
	}
	writePicture := func(b []byte, err error) error {
		if err != nil {
			return &runError{err}
		}
		_, err = w.Write(b)
		return err
	}
	switch r.command {
	case "schedule":
		sc := backoff.ScheduleOf(r.policies[0], s, r.client)
		return write(
			func() string { return vreport.ScheduleReport(s, sc) },
			func() string { return vreport.ScheduleCSV(sc) },
			func() string { return vreport.ScheduleDoc(s, sc) })
	case "crowd":
		if r.compare != nil {
			c, err := r.comparison(workers)
			if err != nil {
				return err
			}
			return write(
				func() string { return vreport.CompareText(c) },
				func() string { return vreport.CompareCSV(c) },
				func() string { return vreport.CompareDoc(c) })
		}
		if r.seeds > 0 {
			sp := s
			sp.Draws = r.seedDraws
			opts := backoff.SeedOptions{Workers: workers, Done: r.done, Stop: r.stop}
			sc, err := r.runSeeds("the spread", r.policies, sp, r.seeds, opts)
			if err != nil {
				return &runError{err}
			}
			if r.picture() {
				return writePicture(vpicture.CrowdPicture(sp, nil, &sc, r.format, r.width, r.height))
			}
			return write(
				func() string { return vreport.SeedsText(sp, sc) },
				func() string { return vreport.SeedsCSV(sp, sc) },
				func() string { return vreport.SeedsDoc(sp, sc) })
		}
		crowds, err := backoff.RunAll(r.policies, s, backoff.Options{Done: r.done, Stop: r.stop}, workers)
		if err != nil {
			return &runError{err}
		}
		if r.picture() {
			return writePicture(vpicture.CrowdPicture(s, crowds, nil, r.format, r.width, r.height))
		}
		remedies, err := r.remedies(crowds, workers)
		if err != nil {
			return &runError{err}
		}
		return write(
			func() string { return vreport.CrowdReport(s, crowds, remedies) },
			func() string { return vreport.CrowdReportCSV(s, crowds) },
			func() string { return vreport.CrowdReportDoc(s, crowds, remedies) })
	case "timeline":
		runs, err := backoff.RunAll(r.policies, s, backoff.Options{Series: true, Done: r.done, Stop: r.stop}, workers)
		if err != nil {
			return &runError{err}
		}
		if r.picture() {
			return writePicture(vpicture.TimelinePictureOf(s, runs, vpicture.TimelineView{RowMs: r.every, FromBack: r.fromBack}, r.format, r.width, r.height))
		}
		tl := vreport.Timeline{Settings: s, Runs: runs, SideBy: r.sideBy, RowMs: r.every, FromBack: r.fromBack}
		if size := tl.Size(r.format); r.maxOutput > 0 && size > r.maxOutput {
			return &outputError{fmt.Sprintf("timeline would write about %s of %s (%s rows of %s), past the ceiling of %s (%s): allow it with --max-output %s, or write fewer rows (a wider --every, --from back)",
				bytesText(size), strings.ToUpper(r.format), words.Count(tl.Rows()), countOf(len(runs), "policy", "policies"), bytesText(r.maxOutput), r.maxOutputBy, flagBytes(size))}
		}
		if r.format == "csv" && r.stderr != nil {
			for _, run := range runs {
				if run.Series.Truncated {
					fmt.Fprintf(r.stderr, "retry-planner: timeline: %s's rows stop at %s ms, where its series stops (%s slots): the CSV does not go on; a wider --slot shows it all\n",
						run.Policy, words.Count(backoff.MaxSeriesSlots*s.Slot), words.Count(backoff.MaxSeriesSlots))
				}
			}
		}
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
			func() string { return vreport.JobsReport(s, r.policies[0], rep) },
			func() string { return vreport.JobsCSV(rep) },
			func() string { return vreport.JobsDoc(s, r.policies[0], rep) })
	}
}

// safeRender is render, a panic in it a runError: the report fails with
// one line and exit status 1, as any failure of a run does.
func (r report) safeRender(w io.Writer, workers int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &runError{fmt.Errorf("an internal error: %v", p)}
		}
	}()
	return r.render(w, workers)
}

// comparison runs both sides of crowd --compare: A, the plan's crowd, and
// B, the command line's. With seeds on either side both run over seeds,
// each side over its own count (or the other's, if it has none) from its
// own seed, with its spread's draws, and the medians are compared.
func (r report) comparison(workers int) (vreport.Comparison, error) {
	a, b := r.compare, r
	aSeeds, bSeeds := a.seeds, b.seeds
	if aSeeds == 0 {
		aSeeds = bSeeds
	}
	if bSeeds == 0 {
		bSeeds = aSeeds
	}
	side := func(file string, s backoff.Settings, policies []backoff.Policy, seeds int, seedDraws backoff.Draws) (vreport.CompareSide, error) {
		cs := vreport.CompareSide{File: file, Settings: s}
		if seeds == 0 {
			results, err := backoff.RunAll(policies, s, backoff.Options{Done: r.done, Stop: r.stop}, workers)
			cs.Results = results
			return cs, err
		}
		cs.Settings.Draws = seedDraws
		opts := backoff.SeedOptions{Workers: workers, Done: r.done, Stop: r.stop}
		side := "B's spread"
		if file != "" {
			side = "A's spread"
		}
		sc, err := r.runSeeds(side, policies, cs.Settings, seeds, opts)
		cs.Spread = &sc
		return cs, err
	}
	sa, err := side(a.file, a.settings, a.policies, aSeeds, a.seedDraws)
	if err != nil {
		return vreport.Comparison{}, &runError{err}
	}
	sb, err := side("", b.settings, b.policies, bSeeds, b.seedDraws)
	if err != nil {
		return vreport.Comparison{}, &runError{err}
	}
	return vreport.Comparison{A: sa, B: sb, Idle: a.idle}, nil
}

// policySetting is a setting that policies read: one of the five's waits
// (custom's too where it follows them), or custom's own.
type policySetting struct {
	flag   string
	custom bool                                             // custom's own: only custom reads it
	differ func(a, b backoff.Settings) bool                 // whether A's and B's differ, by the values policies run at
	take   func(s *backoff.Settings, from backoff.Settings) // sets s's to from's
}

// policySettings are the settings that policies read, as their flags name
// them.
func policySettings() []policySetting {
	var out []policySetting
	for _, f := range []backoff.Field{backoff.FirstWait, backoff.LongestWait, backoff.Attempts, backoff.MaxElapsed,
		backoff.CustomFirstWait, backoff.CustomLongestWait, backoff.CustomAttempts, backoff.CustomMaxElapsed, backoff.Multiplier} {
		out = append(out, policySetting{flag: "--" + f.Flag(), custom: isCustomOwn(f) || f == backoff.Multiplier,
			// Custom's own that follows on both sides is the five's, which say it.
			differ: func(a, b backoff.Settings) bool {
				return a.Value(f) != b.Value(f) && (!isCustomOwn(f) || a.Get(f) != backoff.Follow || b.Get(f) != backoff.Follow)
			},
			take: func(s *backoff.Settings, from backoff.Settings) { s.Set(f, from.Get(f)) }})
	}
	return append(out,
		policySetting{flag: "--growth", custom: true, differ: func(a, b backoff.Settings) bool { return a.Growth != b.Growth },
			take: func(s *backoff.Settings, from backoff.Settings) { s.Growth = from.Growth }},
		policySetting{flag: "--jitter", custom: true, differ: func(a, b backoff.Settings) bool { return a.Jitter != b.Jitter },
			take: func(s *backoff.Settings, from backoff.Settings) { s.Jitter = from.Jitter }})
}

// idleSettings are the settings of crowd --compare that differ from A (the
// plan) to B (the command line's settings s, running policies) and change
// no figure (issue 24, item 6): a policy's setting that no policy either
// side runs reads (the same policies come of it at either value, as custom
// is not run, or a preset keeps its own waits), and the processes where
// neither side has a budget or a breaker, pushback where neither has a
// capacity. Each comes with the flag that would run what
// reads it in B.
func (ra *reportArgs) idleSettings(s backoff.Settings, policies []backoff.Policy, draft *settingsDraft) []vreport.Idle {
	a := ra.compare.Settings
	runA := func(x backoff.Settings) ([]backoff.Policy, error) {
		q := *ra.compare
		q.Settings = x
		return q.PolicyList()
	}
	runB := func(x backoff.Settings) ([]backoff.Policy, error) { return ra.resolve(x, draft) }
	// same reports whether the side runs the same policies at x as at was.
	same := func(run func(backoff.Settings) ([]backoff.Policy, error), was, x backoff.Settings) bool {
		p, err := run(was)
		q, errq := run(x)
		return err == nil && errq == nil && slices.Equal(p, q)
	}
	names := ra.policyNames
	if len(names) == 0 {
		for _, p := range policies {
			names = append(names, p.Name)
		}
	}
	names = flagNames(names)
	var out []vreport.Idle
	for _, ps := range policySettings() {
		if !ps.differ(a, s) {
			continue
		}
		a2, b2 := a, s
		ps.take(&a2, s)
		ps.take(&b2, a)
		if !same(runA, a, a2) || !same(runB, s, b2) {
			continue
		}
		if ps.custom {
			out = append(out, vreport.Idle{Flag: ps.flag, Why: "read only by custom, which is not run here",
				Action: "run custom in B", Run: "--policies " + strings.Join(append(names, "custom"), ",")})
		} else {
			out = append(out, vreport.Idle{Flag: ps.flag, Why: "read only by the five (and custom where it follows them), none of which runs here",
				Action: "run one of the five in B", Run: "--policies " + strings.Join(append(names, "exponential"), ",")})
		}
	}
	if a.Processes != s.Processes && a.Budget.Kind == backoff.BudgetNone && s.Budget.Kind == backoff.BudgetNone && !a.Breaker.On() && !s.Breaker.On() {
		out = append(out, vreport.Idle{Flag: "--processes", Why: "processes only share out budgets and breakers, and neither side has one",
			Action: "give B one", Run: "--budget grpc:10:0.1"})
	}
	if a.RetryAfter != s.RetryAfter && a.Capacity == 0 && s.Capacity == 0 {
		// Pushback follows a rejection, and only a capacity rejects.
		out = append(out, vreport.Idle{Flag: "--retry-after", Why: "only a rejection carries it, and neither side has a capacity to reject",
			Action: "give B one", Run: fmt.Sprintf("--capacity %d", max(s.Clients/10, 1))})
	}
	return out
}

// runSeeds is backoff.RunSeeds, saying on a terminal how many seeds are
// done (as label) unless the run's own progress line already counts them.
func (r report) runSeeds(label string, ps []backoff.Policy, s backoff.Settings, seeds int, opts backoff.SeedOptions) (backoff.SeedsCrowd, error) {
	if r.done == nil {
		defer seedsProgress(r.progress, label, seeds, &opts)()
	}
	return backoff.RunSeeds(ps, s, seeds, opts)
}

// plan is the plan the report ran: its settings, the policies it ran, the
// seeds and the spread's draws, and the note of the plan it was given, if
// any.
func (r report) savedPlan() plan.Plan {
	if r.advise != nil {
		return r.advise.savedPlan(r)
	}
	p := plan.Plan{Settings: r.settings, Seeds: r.seeds, SeedDraws: r.seedDraws, Note: r.note, Goals: r.goals}
	for _, pol := range r.policies {
		p.Policies = append(p.Policies, pol.Name)
	}
	return p
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

// runReport prints the report, to standard output or --out's file, then
// writes the plan it ran to --save-plan's. Its failures are a file or a
// stdout that cannot be written to (1), a file that appeared since the
// command line was read or a PNG for a terminal (2), and a crowd that could
// not be run (1). A file the report makes is removed if it fails; a file
// it overwrites (--force) is replaced only once the new one is whole.
func runReport(r report, limits runLimits, stdout, stderr io.Writer) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "retry-planner: "+format+"\n", a...)
		return code
	}
	workers := runtime.GOMAXPROCS(0)
	cost := r.cost(workers)
	if h := limits.heapLimit(); h > 0 {
		debug.SetMemoryLimit(h)
	}
	if line := large(r.command, cost, workers); line != "" {
		fmt.Fprintln(stderr, line)
	}
	if r.format == vpicture.FormatPNG && r.out == "" && isTerminal(stdout) {
		return fail(2, "a PNG is not for a terminal: use --out FILE or redirect")
	}
	if isTerminal(stderr) {
		r.progress = stderr
	}
	// A signal stops the run and removes the files being written at once,
	// then the report ends with 128 plus its number, saying nothing; one
	// that does not end within interruptGrace ends the process.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	var files openFiles
	defer files.abort()
	var got atomic.Int32
	open := func(flag, name string) (*outFile, int) {
		o, err := createOut(name, r.force)
		if err != nil {
			if isExist(err) {
				return nil, fail(2, "%s", existsError(flag, name).Error())
			}
			return nil, fail(1, "%s", writeFailure(name, err))
		}
		files.add(o)
		return o, 0
	}
	var w io.Writer = stdout
	var out, planOut *outFile
	if r.out != "" {
		var code int
		if out, code = open("--out", r.out); out == nil {
			return code
		}
		w = out
	}
	if r.savePlan != "" {
		var code int
		if planOut, code = open("--save-plan", r.savePlan); planOut == nil {
			return code
		}
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case s := <-sigs:
			n := int(s.(syscall.Signal))
			got.Store(int32(n))
			files.abort()
			select {
			case <-done:
			case <-time.After(interruptGrace):
				os.Exit(128 + n)
			}
		case <-done:
		}
	}()
	r.stop = func() bool { return got.Load() != 0 }
	r.stderr = stderr
	w = interruptible{w, r.stop}
	var prog *progress
	if secs := cost.Seconds(workers); secs >= progressAfter && isTerminal(stderr) {
		total, what := len(r.policies), "policies"
		if r.seeds > 0 {
			total, what = r.seeds, "seeds"
		}
		if r.compare != nil {
			total *= 2
		}
		if r.advise != nil {
			total, what = r.search().Estimate().Crowds, "crowds at most"
		}
		prog = showProgress(stderr, r.command, total, what, secs)
		r.done = prog.counter()
	}
	err := r.safeRender(w, workers)
	prog.end() // before any line of its own
	if n := got.Load(); n != 0 {
		return 128 + int(n)
	}
	var run *runError
	var tooMuch *outputError
	switch {
	case errors.As(err, &tooMuch):
		return fail(2, "%s", tooMuch.msg)
	case errors.As(err, &run):
		return fail(1, "the %s report: %v", r.command, run.err)
	case err != nil && out != nil:
		return fail(1, "%s", writeFailure(r.out, err))
	case err != nil && !errors.Is(err, syscall.EPIPE):
		return writeStatus(err, "the "+r.command+" report", stderr)
	}
	commit := func(flag string, o *outFile) int {
		switch err := o.commit(); {
		case got.Load() != 0:
			return 128 + int(got.Load())
		case isExist(err):
			return fail(2, "%s", existsError(flag, o.name).Error())
		case err != nil:
			return fail(1, "%s", writeFailure(o.name, err))
		}
		return 0
	}
	if out != nil {
		if code := commit("--out", out); code != 0 {
			return code
		}
	}
	if planOut != nil {
		if _, err := io.WriteString(planOut, plan.Encode(r.savedPlan())); err != nil {
			if n := got.Load(); n != 0 {
				return 128 + int(n)
			}
			return fail(1, "%s", writeFailure(r.savePlan, err))
		}
		return commit("--save-plan", planOut)
	}
	return 0
}

// interruptGrace is how long a report stopped by a signal may take to end.
const interruptGrace = 2 * time.Second

// openFiles are the files a report is writing, which a signal's
// goroutine aborts while the report writes them.
type openFiles struct {
	mu   sync.Mutex
	list []*outFile
}

func (f *openFiles) add(o *outFile) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.list = append(f.list, o)
}

// abort aborts every file not yet committed: each is removed.
func (f *openFiles) abort() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, o := range f.list {
		o.abort()
	}
}

// interruptible is a writer that fails once stop says so: a signal ends a
// long report's writing too, not only its run.
type interruptible struct {
	w    io.Writer
	stop func() bool
}

func (w interruptible) Write(p []byte) (int, error) {
	if w.stop() {
		return 0, errInterrupted
	}
	return w.w.Write(p)
}

// report reads the line of a report command: words are its words (the
// jobs).
func (p *parse) report(c reportCommand, words []string) error {
	draft := newSettingsDraft(plan.DefaultSettings(), p.files)
	ra := reportArgs{cmd: c, report: report{command: c.name, format: "text", client: 1, maxOutput: defaultMaxOutput, maxOutputBy: "--max-output's default"}}
	limits := newRunLimits()
	for _, u := range p.ordered() {
		var err error
		if isLimitFlag(u.name) {
			err = limits.take(u)
		} else {
			err = ra.take(u, &draft)
		}
		if err != nil {
			return err
		}
	}
	if c.jobs {
		jobs, err := readJobs(words)
		if err != nil {
			return err
		}
		ra.report.jobs = jobs
	} else if len(words) > 0 {
		return usagef("%s takes no arguments but flags, got %q; it takes %s", c.name, words[0], commandTakes(c))
	}
	s, err := draft.check(backoff.WideLimits)
	if err != nil {
		return err
	}
	r, err := ra.finish(s, &draft)
	if err != nil {
		return err
	}
	workers := runtime.GOMAXPROCS(0)
	if err := limits.check(c.name, r.cost(workers), workers); err != nil {
		return err
	}
	p.opts = &options{settings: r.settings, rest: []string{c.name}, report: r, limits: limits}
	return nil
}

// commandTakes is a report command's flags, for a message.
func commandTakes(c reportCommand) string {
	var names []string
	for _, f := range c.flags() {
		names = append(names, "--"+f.name)
	}
	return andList(append(names, settingsItem))
}

// newReportCommand is report command c.
func (p *parse) newReportCommand(c reportCommand) *cobra.Command {
	cmd := &cobra.Command{
		Use:                   c.help.use,
		DisableFlagsInUseLine: true,
		Short:                 c.help.short,
		Long:                  c.help.long,
		Example:               c.help.example,
		Args:                  cobra.ArbitraryArgs,
		// The settings flags apply: its help says so.
		Annotations: map[string]string{"settings": "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			return p.report(c, args)
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	for _, f := range c.flags() {
		if f.toggle {
			p.addSwitch(fs, f.name, f.usage)
		} else {
			p.addFlag(fs, f.name, f.typ, f.usage)
		}
		if f.complete != nil {
			_ = cmd.RegisterFlagCompletionFunc(f.name, f.complete)
		}
	}
	return cmd
}
