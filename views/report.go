package views

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/ledger"
)

// The reports' CSV and JSON. Every time is a whole number of milliseconds,
// named with _ms. A time that does not exist (no client got through, so
// there is no "all through by") is an empty CSV field and a JSON null, never
// a number a spreadsheet would add up. Each CSV has one header row; each JSON
// report is one document, indented, ending in a newline. The README shows
// every document; report goldens pin them.

// SettingsJSON is the settings every JSON report starts with.
type SettingsJSON struct {
	FirstWaitMs   int `json:"first_wait_ms"`
	LongestWaitMs int `json:"longest_wait_ms"`
	Attempts      int `json:"attempts"`
	Clients       int `json:"clients"`
	OutageMs      int `json:"outage_ms"`
	Seed          int `json:"seed"`
}

func settingsJSON(s backoff.Settings) SettingsJSON {
	return SettingsJSON{FirstWaitMs: s.FirstWait, LongestWaitMs: s.LongestWait, Attempts: s.Attempts,
		Clients: s.Clients, OutageMs: s.Outage, Seed: s.Seed}
}

// jsonDoc is v as an indented document. The report types hold only numbers,
// strings, booleans and slices of them, which always encode.
func jsonDoc(v any) string {
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("views: a report did not encode: %v", err))
	}
	return string(out) + "\n"
}

// csvDoc is a header row and records, every cell through safeCell: it is
// the one way the program writes CSV. Writing to a strings.Builder cannot
// fail.
func csvDoc(header []string, records [][]string) string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.Write(safeRow(header))
	for _, r := range records {
		_ = w.Write(safeRow(r))
	}
	w.Flush()
	return b.String()
}

func safeRow(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = safeCell(c)
	}
	return out
}

// safeCell keeps a spreadsheet from running a cell as a formula (CSV
// injection): a cell that begins with =, +, -, @, a tab or a carriage
// return gets a leading ', as OWASP recommends, and shows as typed. Only a
// job's name can begin so; the numbers are never negative.
func safeCell(c string) string {
	if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
		return "'" + c
	}
	return c
}

func itoa(n int) string { return strconv.Itoa(n) }

// optionalMs is a time that may not exist (< 0): a CSV field and a JSON value.
func optionalMs(ms int) (field string, value *int) {
	if ms < 0 {
		return "", nil
	}
	return itoa(ms), &ms
}

// RetryJSON is one retry of a schedule.
type RetryJSON struct {
	Attempt int `json:"attempt"`
	WaitMs  int `json:"wait_ms"`
	AtMs    int `json:"at_ms"`
}

// ScheduleJSON is the schedule report.
type ScheduleJSON struct {
	Settings SettingsJSON `json:"settings"`
	Policy   string       `json:"policy"`
	Client   int          `json:"client"`
	Retries  []RetryJSON  `json:"retries"`
	TotalMs  int          `json:"total_ms"`
}

// ScheduleCSV is one client's retries: attempt,wait_ms,at_ms. The first
// attempt, at 0 ms, is not a retry and has no row.
func ScheduleCSV(sc backoff.Schedule) string {
	records := make([][]string, 0, len(sc.Retries))
	for _, r := range sc.Retries {
		records = append(records, []string{itoa(r.Attempt), itoa(r.Wait), itoa(r.At)})
	}
	return csvDoc([]string{"attempt", "wait_ms", "at_ms"}, records)
}

// ScheduleDoc is one client's retries as a JSON document.
func ScheduleDoc(s backoff.Settings, sc backoff.Schedule) string {
	doc := ScheduleJSON{Settings: settingsJSON(s), Policy: sc.Policy.String(), Client: sc.Client, Retries: []RetryJSON{}, TotalMs: sc.DrawnTotal()}
	for _, r := range sc.Retries {
		doc.Retries = append(doc.Retries, RetryJSON{Attempt: r.Attempt, WaitMs: r.Wait, AtMs: r.At})
	}
	return jsonDoc(doc)
}

// CrowdRowJSON is one policy's row of the crowd table.
type CrowdRowJSON struct {
	Policy            string `json:"policy"`
	Retries           int    `json:"retries"`
	MostInASlot       int    `json:"most_in_a_slot"`
	BusiestSlotFromMs *int   `json:"busiest_slot_from_ms"` // null without retries
	AllThroughByMs    *int   `json:"all_through_by_ms"`    // null when no client got through
	GaveUp            int    `json:"gave_up"`
}

// CrowdJSON is the crowd report.
type CrowdJSON struct {
	Settings SettingsJSON   `json:"settings"`
	SlotMs   int            `json:"slot_ms"`
	Policies []CrowdRowJSON `json:"policies"`
}

func crowdHeader() []string {
	return []string{"policy", "retries", "most_in_a_slot", "busiest_slot_from_ms", "all_through_by_ms", "gave_up"}
}

// crowdRow is a crowd's row as CSV fields and as JSON.
func crowdRow(c backoff.Result) ([]string, CrowdRowJSON) {
	f := c.Figures
	fromField, from := optionalMs(f.BusiestSlotFrom)
	lastField, last := optionalMs(f.AllThroughBy)
	return []string{c.Policy.String(), itoa(f.Retries), itoa(f.MostInASlot), fromField, lastField, itoa(f.GaveUp)},
		CrowdRowJSON{Policy: c.Policy.String(), Retries: f.Retries, MostInASlot: f.MostInASlot, BusiestSlotFromMs: from, AllThroughByMs: last, GaveUp: f.GaveUp}
}

// CrowdCSV is the crowd table, one row per policy:
// policy,retries,most_in_a_slot,busiest_slot_from_ms,all_through_by_ms,gave_up.
func CrowdCSV(crowds []backoff.Result) string {
	var records [][]string
	for _, c := range crowds {
		row, _ := crowdRow(c)
		records = append(records, row)
	}
	return csvDoc(crowdHeader(), records)
}

// CrowdDoc is the crowd table as a JSON document.
func CrowdDoc(s backoff.Settings, crowds []backoff.Result) string {
	doc := CrowdJSON{Settings: settingsJSON(s), SlotMs: s.Slot}
	for _, c := range crowds {
		_, row := crowdRow(c)
		doc.Policies = append(doc.Policies, row)
	}
	return jsonDoc(doc)
}

// SeedsText is the crowd over many seeds: for each policy and figure, the
// median, the 95th percentile and the worst.
func SeedsText(s backoff.Settings, sc backoff.SeedsCrowd) string {
	var b strings.Builder
	b.WriteString(CrowdIntro(s) + ".\n")
	fmt.Fprintf(&b, "Over %s, each figure's median, 95th percentile and worst:\n", seedRange(sc))
	b.WriteString("  policy          figure                median         p95       worst\n")
	for _, p := range sc.Policies {
		last := p.Spread("all_through_by_ms")
		rows := []struct {
			figure string
			cells  [3]string
		}{
			{"retries", counts(p.Spread("retries"))},
			{"most in a slot", counts(p.Spread("most_in_a_slot"))},
			{"all through by", [3]string{throughBy(last.Median), throughBy(last.P95), throughBy(last.Worst)}},
			{"gave up", counts(p.Spread("gave_up"))},
		}
		for i, r := range rows {
			name := ""
			if i == 0 {
				name = p.Policy.String()
			}
			fmt.Fprintf(&b, "  %-14s  %-14s%12s%12s%12s\n", name, r.figure, r.cells[0], r.cells[1], r.cells[2])
		}
	}
	b.WriteString("Median and 95th percentile by nearest rank: each is a figure that one of the seeds gave. " +
		"\"-\" is a seed in which no client got through, which counts as later than any time.\n")
	var none []string
	for _, p := range sc.Policies {
		if p.NoneThrough > 0 {
			none = append(none, fmt.Sprintf("%s in %d", p.Policy, p.NoneThrough))
		}
	}
	if len(none) > 0 {
		fmt.Fprintf(&b, "Seeds in which no client got through, of %d: %s.\n", sc.Count, strings.Join(none, ", "))
	}
	return b.String()
}

func seedRange(sc backoff.SeedsCrowd) string {
	if sc.Count == 1 {
		return fmt.Sprintf("seed %d alone", sc.First)
	}
	return fmt.Sprintf("%d seeds, %d to %d", sc.Count, sc.First, sc.First+sc.Count-1)
}

func counts(sp backoff.Spread) [3]string {
	return [3]string{itoa(sp.Median), itoa(sp.P95), itoa(sp.Worst)}
}

// SpreadJSON is a figure's spread over the seeds.
type SpreadJSON struct {
	Median int `json:"median"`
	P95    int `json:"p95"`
	Worst  int `json:"worst"`
}

// OptionalSpreadJSON is the spread of a time that some seeds may lack: null
// where the percentile lands on a seed in which no client got through.
type OptionalSpreadJSON struct {
	Median *int `json:"median"`
	P95    *int `json:"p95"`
	Worst  *int `json:"worst"`
}

// SeedsRowJSON is one policy over the seeds.
type SeedsRowJSON struct {
	Policy           string             `json:"policy"`
	Retries          SpreadJSON         `json:"retries"`
	MostInASlot      SpreadJSON         `json:"most_in_a_slot"`
	AllThroughByMs   OptionalSpreadJSON `json:"all_through_by_ms"`
	GaveUp           SpreadJSON         `json:"gave_up"`
	SeedsNoneThrough int                `json:"seeds_none_through"`
}

// SeedRangeJSON is which seeds ran: First to Last, Count of them.
type SeedRangeJSON struct {
	First int `json:"first"`
	Last  int `json:"last"`
	Count int `json:"count"`
}

// SeedsJSON is the crowd report over many seeds.
type SeedsJSON struct {
	Settings SettingsJSON   `json:"settings"`
	SlotMs   int            `json:"slot_ms"`
	Seeds    SeedRangeJSON  `json:"seeds"`
	Policies []SeedsRowJSON `json:"policies"`
}

func seedsHeader() []string {
	return []string{"policy",
		"retries_median", "retries_p95", "retries_worst",
		"most_in_a_slot_median", "most_in_a_slot_p95", "most_in_a_slot_worst",
		"all_through_by_median_ms", "all_through_by_p95_ms", "all_through_by_worst_ms",
		"gave_up_median", "gave_up_p95", "gave_up_worst",
		"seeds_none_through"}
}

// SeedsCSV is the crowd over many seeds, one row per policy: the
// policy, then median, p95 and worst of retries, most_in_a_slot,
// all_through_by (ms) and gave_up, then seeds_none_through.
func SeedsCSV(sc backoff.SeedsCrowd) string {
	var records [][]string
	for _, p := range sc.Policies {
		row := []string{p.Policy.String()}
		for _, sp := range []backoff.Spread{p.Spread("retries"), p.Spread("most_in_a_slot")} {
			row = append(row, itoa(sp.Median), itoa(sp.P95), itoa(sp.Worst))
		}
		last := p.Spread("all_through_by_ms")
		for _, ms := range []int{last.Median, last.P95, last.Worst} {
			field, _ := optionalMs(ms)
			row = append(row, field)
		}
		gave := p.Spread("gave_up")
		row = append(row, itoa(gave.Median), itoa(gave.P95), itoa(gave.Worst), itoa(p.NoneThrough))
		records = append(records, row)
	}
	return csvDoc(seedsHeader(), records)
}

// SeedsDoc is the crowd over many seeds as a JSON document.
func SeedsDoc(s backoff.Settings, sc backoff.SeedsCrowd) string {
	spread := func(sp backoff.Spread) SpreadJSON { return SpreadJSON{Median: sp.Median, P95: sp.P95, Worst: sp.Worst} }
	doc := SeedsJSON{Settings: settingsJSON(s), SlotMs: s.Slot,
		Seeds: SeedRangeJSON{First: sc.First, Last: sc.First + sc.Count - 1, Count: sc.Count}}
	for _, p := range sc.Policies {
		last := p.Spread("all_through_by_ms")
		_, median := optionalMs(last.Median)
		_, p95 := optionalMs(last.P95)
		_, worst := optionalMs(last.Worst)
		doc.Policies = append(doc.Policies, SeedsRowJSON{
			Policy:           p.Policy.String(),
			Retries:          spread(p.Spread("retries")),
			MostInASlot:      spread(p.Spread("most_in_a_slot")),
			AllThroughByMs:   OptionalSpreadJSON{Median: median, P95: p95, Worst: worst},
			GaveUp:           spread(p.Spread("gave_up")),
			SeedsNoneThrough: p.NoneThrough,
		})
	}
	return jsonDoc(doc)
}

// SlotJSON is one non-empty slot of a timeline.
type SlotJSON struct {
	FromMs  int `json:"from_ms"`
	Retries int `json:"retries"`
}

// TimelineJSON is the timeline report.
type TimelineJSON struct {
	Settings SettingsJSON `json:"settings"`
	Policy   string       `json:"policy"`
	SlotMs   int          `json:"slot_ms"`
	Retries  int          `json:"retries"`
	Slots    []SlotJSON   `json:"slots"`
}

// TimelineCSV is a crowd's retries per slot, one row per slot that has any:
// from_ms,retries.
func TimelineCSV(c backoff.Result) string {
	var records [][]string
	for i, n := range c.Series.Retries {
		if n > 0 {
			records = append(records, []string{itoa(i * c.Series.Slot), itoa(n)})
		}
	}
	return csvDoc([]string{"from_ms", "retries"}, records)
}

// TimelineDoc is a crowd's retries per slot as a JSON document.
func TimelineDoc(s backoff.Settings, c backoff.Result) string {
	doc := TimelineJSON{Settings: settingsJSON(s), Policy: c.Policy.String(), SlotMs: c.Series.Slot, Retries: c.Figures.Retries, Slots: []SlotJSON{}}
	for i, n := range c.Series.Retries {
		if n > 0 {
			doc.Slots = append(doc.Slots, SlotJSON{FromMs: i * c.Series.Slot, Retries: n})
		}
	}
	return jsonDoc(doc)
}

// OutcomeWord is a ledger entry's outcome in the reports: "done", "retry",
// "gave up" (failed with no attempts left) or "refused" (cannot be retried).
// A job's last entry so tells its result.
func OutcomeWord(o ledger.Outcome) string {
	switch o {
	case ledger.Done:
		return "done"
	case ledger.Retry:
		return "retry"
	case ledger.LastFail:
		return "gave up"
	default:
		return "refused"
	}
}

// JobJSON is how one job ended.
type JobJSON struct {
	Job      string `json:"job"`
	Failures int    `json:"failures"`
	Fatal    bool   `json:"fatal"`
	Result   string `json:"result"`   // done, gave up or refused
	Attempts int    `json:"attempts"` // the attempt it was done on, or its last
}

// EntryJSON is one attempt in the ledger.
type EntryJSON struct {
	Job     string `json:"job"`
	Attempt int    `json:"attempt"`
	Outcome string `json:"outcome"` // see OutcomeWord
	WaitMs  int    `json:"wait_ms"` // before the next attempt; 0 unless the outcome is retry
}

// LedgerJSON is the ledger and its counts.
type LedgerJSON struct {
	Entries     []EntryJSON `json:"entries"`
	Attempts    int         `json:"attempts"`
	Done        int         `json:"done"`
	Failed      int         `json:"failed"`
	FinallyRuns int         `json:"finally_runs"`
	WaitedMs    int         `json:"waited_ms"`
	Balanced    bool        `json:"balanced"`
}

// JobsJSON is the jobs report.
type JobsJSON struct {
	Settings    SettingsJSON `json:"settings"`
	Jobs        []JobJSON    `json:"jobs"`
	Ledger      LedgerJSON   `json:"ledger"`
	JobsDone    int          `json:"jobs_done"`
	JobsGaveUp  int          `json:"jobs_gave_up"`
	JobsRefused int          `json:"jobs_refused"`
}

// jobResult is how a job ended, in the words of OutcomeWord.
func jobResult(r ledger.Result) string {
	var gaveUp *ledger.GaveUpError
	switch {
	case r.Err == nil:
		return "done"
	case errors.As(r.Err, &gaveUp):
		return "gave up"
	default:
		return "refused"
	}
}

// JobsCSV is the ledger, one row per attempt: job,attempt,outcome,wait_ms.
// A job's last row tells how it ended.
func JobsCSV(r ledger.Report) string {
	var records [][]string
	for _, e := range r.Ledger.Entries {
		records = append(records, []string{e.Job, itoa(e.Attempt), OutcomeWord(e.Outcome), itoa(e.Wait)})
	}
	return csvDoc([]string{"job", "attempt", "outcome", "wait_ms"}, records)
}

// JobsDoc is a run of jobs as a JSON document: each job's result, the
// ledger and its counts.
func JobsDoc(s backoff.Settings, r ledger.Report) string {
	l := r.Ledger
	doc := JobsJSON{Settings: settingsJSON(s), Jobs: []JobJSON{},
		Ledger: LedgerJSON{Entries: []EntryJSON{}, Attempts: l.Attempts, Done: l.Successes, Failed: l.Failures,
			FinallyRuns: l.FinallyRuns, WaitedMs: l.Waited, Balanced: l.Balanced()},
		JobsDone: r.Done, JobsGaveUp: r.GaveUp, JobsRefused: r.Refused}
	for _, res := range r.Results {
		doc.Jobs = append(doc.Jobs, JobJSON{Job: res.Job.Name, Failures: res.Job.Failures, Fatal: res.Job.Fatal,
			Result: jobResult(res), Attempts: res.Attempt})
	}
	for _, e := range l.Entries {
		doc.Ledger.Entries = append(doc.Ledger.Entries, EntryJSON{Job: e.Job, Attempt: e.Attempt, Outcome: OutcomeWord(e.Outcome), WaitMs: e.Wait})
	}
	return jsonDoc(doc)
}
