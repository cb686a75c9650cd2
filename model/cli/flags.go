package cli

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	vpicture "github.com/retryplanner/retry-planner/views/picture"
	"github.com/retryplanner/retry-planner/views/words"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/backoff/plan"
)

// andList is "a, b and c"; orList "a, b or c".
func andList(items []string) string { return words.And(items) }
func orList(items []string) string  { return words.Or(items) }

// nearest is the name closest to typed, within two edits, or "".
func nearest(typed string, names []string) string {
	best, bestDist := "", 3
	for _, n := range names {
		if d := editDistance(typed, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes; long
// words are not compared (a flag name is short).
func editDistance(a, b string) int {
	if len(a) > 40 || len(b) > 40 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// usagef is a *usageError with a formatted message.
func usagef(format string, a ...any) error {
	return &usageError{msg: fmt.Sprintf(format, a...)}
}

// valueKind is how a settings flag's value is written.
type valueKind int

const (
	countValue       valueKind = iota // a whole number (backoff.ParseCount)
	timeValue                         // a time with its unit (backoff.ParseTimeUnit)
	decimalValue                      // a decimal of at most three places (backoff.ParseThousandths)
	jitterValue                       // backoff.ParseJitter
	growthValue                       // backoff.ParseGrowth
	drawsValue                        // backoff.ParseDraws
	budgetValue                       // backoff.ParseBudget
	presetValue                       // a preset's name
	planValue                         // a plan's file (plan.Decode)
	seedDrawsValue                    // backoff.ParseDraws, for the spread over seeds
	dropExpiredValue                  // a switch: "" (on) or "false"
	queueOrderValue                   // backoff.ParseQueueOrder
	goalValue                         // advice.ParseGoal: one goal, repeatable
	processesValue                    // backoff.ParseProcesses: a whole number, or clients
	breakerValue                      // backoff.ParseBreaker, its open time with a unit
)

// settingFlag is a settings flag and the setting it sets.
type settingFlag struct {
	name  string
	kind  valueKind
	field backoff.Field // for numbers, times and decimals
	plain bool          // --plain takes it: the reference's settings and the slot
}

// noField marks a settings flag that sets no whole-number field.
const noField backoff.Field = -1

// settingFlags are the settings flags in the order --help lists them: a
// plan, the reference's six and the slot, the policy of one's own (its
// preset, its own waits, growth, multiplier and jitter), the limit on total time
// and custom's own, the draws, the service.
func settingFlags() []settingFlag {
	return []settingFlag{
		{"plan", planValue, noField, false},
		fieldFlag(backoff.FirstWait, timeValue, true),
		fieldFlag(backoff.LongestWait, timeValue, true),
		fieldFlag(backoff.Attempts, countValue, true),
		fieldFlag(backoff.Clients, countValue, true),
		fieldFlag(backoff.Outage, timeValue, true),
		fieldFlag(backoff.Seed, countValue, true),
		fieldFlag(backoff.Slot, timeValue, true),
		{"preset", presetValue, noField, false},
		fieldFlag(backoff.CustomFirstWait, timeValue, false),
		fieldFlag(backoff.CustomLongestWait, timeValue, false),
		fieldFlag(backoff.CustomAttempts, countValue, false),
		{"growth", growthValue, noField, false},
		fieldFlag(backoff.Multiplier, decimalValue, false),
		{"jitter", jitterValue, noField, false},
		fieldFlag(backoff.MaxElapsed, timeValue, false),
		fieldFlag(backoff.CustomMaxElapsed, timeValue, false),
		{"draws", drawsValue, noField, false},
		{"seed-draws", seedDrawsValue, noField, false},
		fieldFlag(backoff.Capacity, countValue, false),
		fieldFlag(backoff.Load, countValue, false),
		fieldFlag(backoff.LoadUntil, timeValue, false),
		{"budget", budgetValue, noField, false},
		fieldFlag(backoff.Processes, processesValue, false),
		fieldFlag(backoff.Queue, countValue, false),
		fieldFlag(backoff.Timeout, timeValue, false),
		{"drop-expired", dropExpiredValue, noField, false},
		{"queue-order", queueOrderValue, noField, false},
		fieldFlag(backoff.OutageHang, timeValue, false),
		{"breaker", breakerValue, noField, false},
		fieldFlag(backoff.RetryAfter, timeValue, false),
		{"goal", goalValue, noField, false},
	}
}

// fieldFlag is the settings flag of a whole-number setting, named as every
// face names it (views.FieldFlag).
func fieldFlag(f backoff.Field, kind valueKind, plain bool) settingFlag {
	return settingFlag{f.Flag(), kind, f, plain}
}

func settingNames() []string {
	var names []string
	for _, sf := range settingFlags() {
		names = append(names, sf.name)
	}
	return names
}

func findSetting(name string) (settingFlag, bool) {
	for _, sf := range settingFlags() {
		if sf.name == name {
			return sf, true
		}
	}
	return settingFlag{}, false
}

// flagOf is the settings flag that sets field f.
func flagOf(f backoff.Field) settingFlag {
	for _, sf := range settingFlags() {
		if sf.field == f {
			return sf
		}
	}
	return settingFlag{name: f.String(), field: f}
}

// settingsDraft gathers the settings flags from both stretches of the
// command line, in order; the last of a repeated flag wins. Each value's
// form is checked as it is read, its range once all are read. --plan sets
// every setting, as if each were given at its place, and the plan's
// policies and seeds for the report (see reportArgs.fromPlan).
type settingsDraft struct {
	limits   backoff.Limits // whose ranges a malformed value's message gives
	settings backoff.Settings
	shown    map[backoff.Field]string // how a field got its value, for messages: as typed, or from a preset or a plan
	given    []string                 // the settings flags given since the last --plan, in order, each once
	files    files                    // where --plan reads
	// seedDraws are the spread's draws: --seed-draws, else the last
	// --draws, else a plan's; independent unless told.
	seedDraws      backoff.Draws
	seedDrawsGiven bool   // --seed-draws was given since the last --plan: --draws leaves the spread's draws alone
	slotFrom       string // where the slot came from: "", "--slot" or "--plan"
	plan           *loadedPlan
	// goals are what advise and the advice pane search for: each --goal,
	// over the last plan's, one of each kind (the last wins); goalFlags
	// those given by --goal since the last --plan, the rest the plan's.
	goals, goalFlags advice.Goals
}

// loadedPlan is the last --plan read.
type loadedPlan struct {
	file string
	plan plan.Plan
}

func newSettingsDraft(s backoff.Settings, fsys files) settingsDraft {
	return settingsDraft{limits: backoff.WideLimits, settings: s, shown: map[backoff.Field]string{}, files: fsys, seedDraws: backoff.Independent}
}

// take applies u, a settings flag, after checking its value's form.
func (d *settingsDraft) take(u flagUse) error {
	sf, ok := findSetting(u.name)
	if !ok {
		return usagef("--%s is not a setting", u.name)
	}
	bad := func(allowed string) error { return usagef("--%s %s: want %s", u.name, quoteOdd(u.value), allowed) }
	s := &d.settings
	switch sf.kind {
	case countValue, timeValue, decimalValue, processesValue:
		var v int
		switch sf.kind {
		case countValue:
			v, ok = backoff.ParseCount(u.value)
		case processesValue:
			v, ok = backoff.ParseProcesses(u.value)
		case timeValue:
			v, ok = backoff.ParseTimeUnit(u.value)
			if !ok && len(backoff.TimeReadings(u.value)) > 0 {
				return bareTime(u)
			}
		default:
			v, ok = backoff.ParseThousandths(u.value)
		}
		// --plain keeps the reference's rule: digits, no separators.
		if !ok || (d.limits == backoff.PlainLimits && strings.ContainsAny(u.value, ",_")) {
			return bad(allowedForm(sf, d.limits, *s))
		}
		s.Set(sf.field, v)
		d.shown[sf.field] = u.value
		if sf.field == backoff.Slot {
			d.slotFrom = "--slot"
		}
	case jitterValue:
		j, err := backoff.ParseJitter(u.value)
		if err != nil {
			return bad(backoff.JitterList)
		}
		s.Jitter = j
	case growthValue:
		g, err := backoff.ParseGrowth(u.value)
		if err != nil {
			return bad(backoff.GrowthList)
		}
		s.Growth = g
	case drawsValue:
		dr, err := backoff.ParseDraws(u.value)
		if err != nil {
			return bad("reference or independent")
		}
		s.Draws = dr
		if !d.seedDrawsGiven {
			d.seedDraws = dr
		}
	case seedDrawsValue:
		dr, err := backoff.ParseDraws(u.value)
		if err != nil {
			return bad("reference or independent")
		}
		d.seedDraws, d.seedDrawsGiven = dr, true
	case planValue:
		if d.limits == backoff.PlainLimits {
			return plainRefuses(sf.name)
		}
		p, err := loadPlan(d.files, "--plan", u.value)
		if err != nil {
			return err
		}
		d.takePlan(u.value, p)
	case budgetValue:
		b, err := backoff.ParseBudget(u.value)
		if err != nil {
			return bad(backoff.BudgetList)
		}
		s.Budget = b
	case dropExpiredValue:
		s.DropExpired = u.value != "false"
	case queueOrderValue:
		o, err := backoff.ParseQueueOrder(u.value)
		if err != nil {
			return bad("fifo or lifo")
		}
		s.QueueOrder = o
	case breakerValue:
		b, err := readBreaker(u)
		if err != nil {
			return err
		}
		s.Breaker = b
	case goalValue:
		g, err := advice.ParseGoal(u.value)
		var ge *advice.GoalError
		if errors.As(err, &ge) {
			return usagef("--goal %s: %s", quoteOdd(u.value), ge.Rule)
		}
		d.goals, d.goalFlags = d.goals.With(g), d.goalFlags.With(g)
	case presetValue:
		pr, ok := lookupPreset(u.value)
		if !ok {
			return bad(presetList())
		}
		*s = s.WithPreset(pr)
		for _, f := range []backoff.Field{backoff.CustomFirstWait, backoff.CustomLongestWait, backoff.Multiplier, backoff.CustomAttempts, backoff.CustomMaxElapsed} {
			v := s.Get(f)
			d.shown[f] = fmt.Sprintf("%s (from --preset %s)", backoff.FormatValue(f, v), pr.Name)
		}
	}
	if !slices.Contains(d.given, sf.name) {
		d.given = append(d.given, sf.name)
	}
	return nil
}

// bareTime is the message for a time flag given a number without a unit,
// which could be ms or s: "--outage 45: a time needs a unit: 45ms or 45s?".
func bareTime(u flagUse) error {
	return usagef("--%s %s: a time needs a unit: %s?", u.name, quoteOdd(u.value), orList(backoff.TimeReadings(u.value)))
}

// readBreaker reads --breaker: none, a library's name, or F:D whose open
// time D has its unit as every time flag's ("5:30": 5:30ms or 5:30s?).
func readBreaker(u flagUse) (backoff.Breaker, error) {
	if readings := backoff.BreakerReadings(u.value); len(readings) > 0 {
		return backoff.Breaker{}, usagef("--%s %s: the time it stays open needs a unit: %s?", u.name, quoteOdd(u.value), orList(readings))
	}
	b, err := backoff.ParseBreaker(u.value)
	if err != nil {
		return b, usagef("--%s %s: want %s", u.name, quoteOdd(u.value), breakerForms())
	}
	return b, nil
}

// breakerForms is what --breaker takes, each library's with its F:D.
func breakerForms() string {
	return backoff.BreakerList + backoff.BreakerPresetValues()
}

// readTime reads the value of a time flag that is no setting (--every,
// --max-time): its ms, or a usage error: for a number without a unit, what
// it could be; for any other value that is no time, "want" what is.
func readTime(u flagUse) (int, error) {
	ms, ok := backoff.ParseTimeUnit(u.value)
	switch {
	case ok:
		return ms, nil
	case len(backoff.TimeReadings(u.value)) > 0:
		return 0, bareTime(u)
	}
	return 0, usagef("--%s %s: want %s", u.name, quoteOdd(u.value), allowedValue(u.name, backoff.WideLimits))
}

// takePlan sets every setting from the plan in file: what came before
// gives way to it, as to any flag.
func (d *settingsDraft) takePlan(file string, p plan.Plan) {
	d.settings = p.Settings
	d.seedDraws, d.seedDrawsGiven = p.SeedDraws, false
	d.slotFrom = "--plan"
	d.plan = &loadedPlan{file: file, plan: p}
	d.goals, d.goalFlags = p.Goals, advice.Goals{}
	d.given = nil
	for _, f := range backoff.Fields() {
		v := d.settings.Get(f)
		switch {
		case f == backoff.LoadUntil && v == backoff.DefaultLoadUntil, v == backoff.Follow && isCustomOwn(f):
			delete(d.shown, f)
		default:
			d.shown[f] = fmt.Sprintf("%s (from --plan %s)", backoff.FormatValue(f, v), shownFile(file))
		}
	}
}

// plainRefuses is --plain's message for a flag beyond the reference's.
func plainRefuses(name string) error {
	return usagef("--plain keeps the reference's settings and takes no --%s: drop it, or use a report or the full-screen program, which take it", name)
}

// lookupPreset finds a preset by its name in any case, with _ or a space
// for its hyphen.
func lookupPreset(name string) (backoff.Preset, bool) {
	return backoff.FindPreset(strings.NewReplacer("_", "-", " ", "-").Replace(strings.TrimSpace(name)))
}

func presetList() string { return "a preset: " + backoff.PresetNames() }

// has reports whether a settings flag was given.
func (d *settingsDraft) has(name string) bool { return slices.Contains(d.given, name) }

// definesCustom reports whether the flags describe a policy of one's own:
// a preset, a growth, a multiplier, a jitter or one of its own waits.
func (d *settingsDraft) definesCustom() bool {
	return d.has("preset") || d.has("growth") || d.has("multiplier") || d.has("jitter") || slices.ContainsFunc(d.given, func(name string) bool {
		sf, _ := findSetting(name)
		return sf.field != noField && isCustomOwn(sf.field)
	})
}

// isCustomOwn reports whether f is one of the custom policy's own waits,
// which take the five's unless given.
func isCustomOwn(f backoff.Field) bool {
	_, own := f.Follows()
	return own
}

// check returns the settings, or an error naming the first setting, in the
// fields' order, whose value is out of its range under l. --plain (l is
// PlainLimits) refuses every flag beyond the reference's.
func (d *settingsDraft) check(l backoff.Limits) (backoff.Settings, error) {
	s := d.settings
	if l == backoff.PlainLimits {
		for _, name := range d.given {
			if sf, _ := findSetting(name); !sf.plain {
				return s, plainRefuses(name)
			}
		}
	}
	for _, f := range backoff.Fields() {
		v := s.Get(f)
		if s.CheckIn(l, f, v) == nil {
			continue
		}
		sf := flagOf(f)
		if f == backoff.LongestWait && d.shown[f] == "" {
			// The longest wait kept its default, below the first wait given.
			low, high := s.RangeIn(l, f)
			return s, usagef("--first-wait %s is longer than the longest wait, %d ms by default: give --longest too, from %d to %d ms",
				d.shownValue(backoff.FirstWait), v, low, high)
		}
		if f == backoff.CustomLongestWait && v == backoff.Follow {
			// Custom's longest wait follows the five's, below its own first.
			low, high := s.RangeIn(l, f)
			return s, usagef("--custom-first-wait %s is longer than custom's longest wait, the five's %d ms (--longest): give --custom-longest too, from %d to %d ms",
				d.shownValue(backoff.CustomFirstWait), s.LongestWait, low, high)
		}
		return s, usagef("--%s %s: want %s", sf.name, d.shownValue(f), allowed(sf, l, s))
	}
	if err := d.queueProblem(); err != nil {
		return s, err
	}
	err := s.ValidateIn(l)
	var load *backoff.TooMuchLoadError
	switch {
	case errors.As(err, &load):
		return s, usagef("--load %d until %d ms is %d fresh requests, more than %d: lower --load or --load-until",
			load.Load, load.Until, load.Requests, backoff.MaxFreshRequests)
	case err != nil:
		return s, usagef("%v", err)
	}
	return s, nil
}

// queueProblem is a queue's setting that means nothing without another
// (backoff's validateQueue, in its order), named as the flags name them
// with what to add: a queue without a capacity, and a timeout, drop-expired
// or lifo without a queue.
func (d *settingsDraft) queueProblem() error {
	s := d.settings
	switch {
	case s.Queue > 0 && s.Capacity <= 0:
		return usagef("--queue %s: a queue needs a capacity to serve it: add --capacity N (requests a second), or drop --queue", d.shownValue(backoff.Queue))
	case s.Queue > 0:
		return nil
	case s.Timeout > 0:
		return usagef("--timeout %s: a timeout needs a queue to wait in: add --queue N (and --capacity), or drop --timeout", d.shownValue(backoff.Timeout))
	case s.DropExpired:
		return usagef("%s: only a queue holds expired requests: add --queue N (and --capacity), or drop --drop-expired", d.shownSwitch("drop-expired", "--drop-expired"))
	case s.QueueOrder == backoff.LIFO:
		return usagef("%s: lifo takes the newest request from a queue: add --queue N (and --capacity), or drop --queue-order", d.shownSwitch("queue-order", "--queue-order lifo"))
	}
	return nil
}

// runnable refuses settings whose queue could make a run of one of
// policies go on past the time a run can count (backoff.CheckQueue): a
// long queue at a low capacity, or long timeouts over many attempts.
func (d *settingsDraft) runnable(s backoff.Settings, policies []backoff.Policy) error {
	for _, p := range policies {
		if err := backoff.CheckQueue(p, s); err != nil {
			return usagef("--queue %s with --capacity %s and --timeout %s: %v", d.shownValue(backoff.Queue), d.shownValue(backoff.Capacity),
				d.shownValue(backoff.Timeout), err)
		}
	}
	return nil
}

// shownSwitch is a setting that is no number, for a message: as typed, or
// as the last plan set it when no flag since has.
func (d *settingsDraft) shownSwitch(name, typed string) string {
	if d.plan != nil && !d.has(name) {
		return fmt.Sprintf("%s (from --plan %s)", typed, shownFile(d.plan.file))
	}
	return typed
}

// shownValue is field f's value for a message: as typed, with its ms when
// a time was typed another way ("11s (11000 ms)"), or its default.
func (d *settingsDraft) shownValue(f backoff.Field) string {
	v := d.settings.Get(f)
	typed, ok := d.shown[f]
	switch {
	case !ok:
		return fmt.Sprintf("%s (the default)", backoff.FormatValue(f, v))
	case strings.Contains(typed, " (from --"):
		return typed
	case f.IsTime() && typed != strconv.Itoa(v)+"ms":
		return fmt.Sprintf("%s (%d ms)", quoteOdd(typed), v)
	}
	return quoteOdd(typed)
}

// allowed is what a settings flag may be under l: "1 to 3600000 ms".
func allowed(sf settingFlag, l backoff.Limits, s backoff.Settings) string {
	low, high := s.RangeIn(l, sf.field)
	switch sf.field {
	case backoff.LongestWait:
		return fmt.Sprintf("%d ms (the first wait) to %d ms", low, high)
	case backoff.CustomLongestWait:
		return fmt.Sprintf("%d ms (custom's first wait) to %d ms", low, high)
	case backoff.MaxElapsed, backoff.CustomMaxElapsed:
		return fmt.Sprintf("0 (no limit) to %d ms", high)
	case backoff.Multiplier:
		return fmt.Sprintf("a decimal from %s to %s, at most three decimals (1.6)", backoff.FormatThousandths(low), backoff.FormatThousandths(high))
	case backoff.Capacity:
		return fmt.Sprintf("a whole number from 0 (no limit) to %d a second", high)
	case backoff.Load:
		return fmt.Sprintf("a whole number from 0 (none) to %d a second", high)
	case backoff.Queue:
		return fmt.Sprintf("a whole number of requests from 0 (no queue) to %d", high)
	case backoff.Timeout:
		return fmt.Sprintf("0 (wait for ever) to %d ms", high)
	case backoff.OutageHang:
		return fmt.Sprintf("0 (the outage refuses at once) to %d ms", high)
	case backoff.RetryAfter:
		return fmt.Sprintf("0 (no pushback) to %d ms", high)
	case backoff.Processes:
		return fmt.Sprintf("a whole number from %d to %d, or clients (a process for each client, the fresh requests included)", low, high)
	}
	if sf.field.IsTime() {
		return fmt.Sprintf("%d to %d ms", low, high)
	}
	return fmt.Sprintf("a whole number from %d to %d", low, high)
}

// allowedForm is what a flag's value may be, and how to write it: for a
// value that is not even a number.
func allowedForm(sf settingFlag, l backoff.Limits, s backoff.Settings) string {
	switch sf.kind {
	case timeValue:
		return "a time of " + allowed(sf, l, s) + ", whole ms, with its unit: 250ms, 1s, 1.5s, 1m30s, 2h"
	case jitterValue:
		return backoff.JitterList
	case growthValue:
		return backoff.GrowthList
	case drawsValue, seedDrawsValue:
		return "reference or independent"
	case budgetValue:
		return backoff.BudgetList
	case queueOrderValue:
		return "fifo or lifo"
	case breakerValue:
		return breakerForms()
	case dropExpiredValue:
		return "no value: it is a switch"
	case presetValue:
		return presetList()
	case goalValue:
		return advice.Forms + "; quote it for the shell: --goal 'recovered<=60s'"
	case planValue:
		return "a plan's file (TOML; --save-plan writes one)"
	}
	return allowed(sf, l, s)
}

// allowedValue is what a flag's value may be, for "--x needs a value".
func allowedValue(name string, l backoff.Limits) string {
	if sf, ok := findSetting(name); ok {
		return allowedForm(sf, l, backoff.Defaults())
	}
	switch name {
	case "format":
		return formatList()
	case "policy":
		return policyList()
	case "policies":
		return policiesList()
	case "client":
		return "a whole number from 1 to the clients"
	case "seeds":
		return fmt.Sprintf("a whole number from 1 to %d", backoff.MaxSeeds)
	case "every":
		return "a time with its unit, a whole number of slots (1s, 500ms)"
	case "from":
		return "start or back"
	case "width", "height":
		return fmt.Sprintf("a whole number from %d to %d (points for svg, pixels for png)", vpicture.MinPictureSide, vpicture.MaxPictureSide)
	case "out":
		return "a file to write the report to"
	case "save-plan":
		return "a file to write the plan to"
	case "compare":
		return "a plan's file to compare with (TOML; --save-plan writes one)"
	case "max-work":
		return fmt.Sprintf("a whole number of clients from 1 to %d", maxMaxWork)
	case "max-memory", "max-output":
		return "a size such as 8GB, 500MB or 2GiB, or none"
	case "max-time":
		return "a time such as 30m or 2h, or none"
	}
	return "a value"
}

// quoteOdd quotes a value for a message when it holds anything but letters,
// digits and the marks of a number, so that "" and spaces show.
func quoteOdd(v string) string {
	if v == "" || strings.ContainsFunc(v, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || strings.ContainsRune("-+.:", r))
	}) {
		return strconv.Quote(v)
	}
	return v
}

// policyKey is a policy's name as LookupPolicy reads it, for telling two
// names of one policy apart: "Full-Jitter" and "full jitter" are one.
func policyKey(name string) (string, error) {
	p, err := backoff.LookupPolicy(backoff.Defaults(), name)
	if err != nil {
		return "", err
	}
	if strings.EqualFold(strings.TrimSpace(name), "custom") {
		return "custom", nil
	}
	return p.Name, nil
}

func policyList() string {
	return backoff.PolicyNames() + ", in any case, with - or _ for a space (full-jitter)"
}

func policiesList() string {
	return "policies separated by commas (fixed,full-jitter,grpc), each once: " + backoff.PolicyNames()
}
