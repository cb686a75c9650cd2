package report

import (
	"bytes"
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

// SettingsJSON is the settings every JSON report starts with: the
// reference's six, the policy of one's own (growth, multiplier, jitter), the
// limit on total time, the draws and the service. The first and longest
// wait, the attempts and the limit are the five's; custom, present only when
// the policy of one's own has waits of its own (a preset, --custom-*), is the
// waits it runs at. growth is exponential or linear (which ignores the
// multiplier). Capacity 0 is no limit, load 0 no fresh load, max_elapsed_ms 0
// no limit; load_until_ms is when the load stops, the outage + 60 s unless
// told. queue 0 is no queue, timeout_ms 0 no timeout; queue_order is fifo or
// lifo. The client's guards are present only when set: outage_hang_ms,
// breaker (F:D) and retry_after_ms.
type SettingsJSON struct {
	FirstWaitMs   int         `json:"first_wait_ms"`
	LongestWaitMs int         `json:"longest_wait_ms"`
	Attempts      int         `json:"attempts"`
	Clients       int         `json:"clients"`
	OutageMs      int         `json:"outage_ms"`
	Seed          int         `json:"seed"`
	Growth        string      `json:"growth"`
	Multiplier    json.Number `json:"multiplier"`
	Jitter        string      `json:"jitter"`
	MaxElapsedMs  int         `json:"max_elapsed_ms"`
	Custom        *CustomJSON `json:"custom,omitempty"`
	Draws         string      `json:"draws"`
	Capacity      int         `json:"capacity"`
	Load          int         `json:"load"`
	LoadUntilMs   int         `json:"load_until_ms"`
	Budget        string      `json:"budget"`
	Processes     int         `json:"processes"`
	Queue         int         `json:"queue"`
	TimeoutMs     int         `json:"timeout_ms"`
	DropExpired   bool        `json:"drop_expired"`
	QueueOrder    string      `json:"queue_order"`
	OutageHangMs  int         `json:"outage_hang_ms,omitempty"`
	Breaker       string      `json:"breaker,omitempty"`
	RetryAfterMs  int         `json:"retry_after_ms,omitempty"`
}

// CustomJSON is the waits the policy of one's own runs at: its own, or
// the five's where it follows them.
type CustomJSON struct {
	FirstWaitMs   int `json:"first_wait_ms"`
	LongestWaitMs int `json:"longest_wait_ms"`
	Attempts      int `json:"attempts"`
	MaxElapsedMs  int `json:"max_elapsed_ms"`
}

func settingsJSON(s backoff.Settings) SettingsJSON {
	out := SettingsJSON{FirstWaitMs: s.FirstWait, LongestWaitMs: s.LongestWait, Attempts: s.Attempts,
		Clients: s.Clients, OutageMs: s.Outage, Seed: s.Seed, Growth: s.Growth.String(),
		Multiplier: thousandths(s.Multiplier), Jitter: s.Jitter.String(), MaxElapsedMs: s.MaxElapsed,
		Draws: s.Draws.String(), Capacity: s.Capacity, Load: s.Load, LoadUntilMs: s.LoadEnd(),
		Budget: s.Budget.String(), Processes: s.ProcessCount(), // with a process per client, how many that is
		Queue: s.Queue, TimeoutMs: s.Timeout, DropExpired: s.DropExpired, QueueOrder: s.QueueOrder.String(),
		OutageHangMs: s.OutageHang, RetryAfterMs: s.RetryAfter}
	if s.Breaker.On() {
		out.Breaker = s.Breaker.String()
	}
	for _, f := range backoff.Fields() {
		if _, own := f.Follows(); own && s.Get(f) != backoff.Follow {
			out.Custom = &CustomJSON{FirstWaitMs: s.Value(backoff.CustomFirstWait), LongestWaitMs: s.Value(backoff.CustomLongestWait),
				Attempts: s.Value(backoff.CustomAttempts), MaxElapsedMs: s.Value(backoff.CustomMaxElapsed)}
			break
		}
	}
	return out
}

// PolicySettingsJSON is what a policy is: its first and longest wait, its
// growth as --growth takes it (exponential, or linear, which ignores the
// multiplier), its multiplier (a decimal: 1.6), its jitter as --jitter takes
// it, its attempts (the first included) and its limit on total time (0:
// none).
type PolicySettingsJSON struct {
	FirstWaitMs   int         `json:"first_wait_ms"`
	LongestWaitMs int         `json:"longest_wait_ms"`
	Growth        string      `json:"growth"`
	Multiplier    json.Number `json:"multiplier"`
	Jitter        string      `json:"jitter"`
	Attempts      int         `json:"attempts"`
	MaxElapsedMs  int         `json:"max_elapsed_ms"`
}

func policySettings(p backoff.Policy) PolicySettingsJSON {
	return PolicySettingsJSON{FirstWaitMs: p.FirstWait, LongestWaitMs: p.LongestWait, Growth: p.Growth.String(),
		Multiplier: thousandths(p.Multiplier), Jitter: p.Jitter.String(), Attempts: p.Attempts, MaxElapsedMs: p.MaxElapsed}
}

// policyColumns are a policy's settings as CSV columns, each name with
// policy_ before it, since a crowd's own attempts column is a figure.
func policyColumns(p backoff.Policy) []column {
	return []column{
		{"policy_first_wait_ms", itoa(p.FirstWait)},
		{"policy_longest_wait_ms", itoa(p.LongestWait)},
		{"policy_growth", p.Growth.String()},
		{"policy_multiplier", backoff.FormatThousandths(p.Multiplier)},
		{"policy_jitter", p.Jitter.String()},
		{"policy_attempts", itoa(p.Attempts)},
		{"policy_max_elapsed_ms", itoa(p.MaxElapsed)},
	}
}

// column is one CSV cell and the name of its column.
type column struct {
	name, cell string
}

// thousandths is n thousandths as a JSON number: 1600 is 1.6.
func thousandths(n int) json.Number { return json.Number(backoff.FormatThousandths(n)) }

// member is one field of an object whose fields keep their order.
type member struct {
	key   string
	value any
}

// object is a JSON object whose fields come out in the order given: the
// figures' order is MODEL.md's, which a struct cannot follow when the
// figures are a list.
type object []member

// MarshalJSON writes the fields in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		value, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(key)
		b.WriteByte(':')
		b.Write(value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
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
	Attempt  int    `json:"attempt"`
	WaitMs   int    `json:"wait_ms"`
	AtMs     int    `json:"at_ms"`
	LowMs    int    `json:"low_ms"`    // the band's lowest wait
	HighMs   int    `json:"high_ms"`   // and its highest: the library's promise
	CutShort bool   `json:"cut_short"` // reference draws cannot reach the band's top
	Outcome  string `json:"outcome"`   // down, through, not needed or past the limit
}

// ScheduleJSON is the schedule report.
type ScheduleJSON struct {
	Settings       SettingsJSON       `json:"settings"`
	Policy         string             `json:"policy"`
	PolicySettings PolicySettingsJSON `json:"policy_settings"`
	Client         int                `json:"client"`
	Retries        []RetryJSON        `json:"retries"`
	End            string             `json:"end"`           // through, gave up or out of time
	ThroughAtMs    *int               `json:"through_at_ms"` // null unless through
	Made           int                `json:"made"`          // attempts made, the first included
	TotalMs        int                `json:"total_ms"`      // the last attempt made
	DrawnTotalMs   int                `json:"drawn_total_ms"`
}

// ScheduleCSV is one client's retries: attempt,wait_ms,at_ms, then each
// retry's band (low_ms,high_ms), whether reference draws cut the band short
// (cut_short) and its outcome (down, through, not needed, past the limit).
// The first attempt, at 0 ms, is not a retry and has no row.
func ScheduleCSV(sc backoff.Schedule) string {
	records := make([][]string, 0, len(sc.Retries))
	for _, r := range sc.Retries {
		records = append(records, []string{itoa(r.Attempt), itoa(r.Wait), itoa(r.At), itoa(r.Low), itoa(r.High),
			strconv.FormatBool(r.Cut), r.Outcome.String()})
	}
	return csvDoc([]string{"attempt", "wait_ms", "at_ms", "low_ms", "high_ms", "cut_short", "outcome"}, records)
}

// ScheduleDoc is one client's retries as a JSON document. total_ms is the
// last attempt the client made; drawn_total_ms the last retry drawn, made
// or not, which total_ms was before the schedule had outcomes.
func ScheduleDoc(s backoff.Settings, sc backoff.Schedule) string {
	doc := ScheduleJSON{Settings: settingsJSON(s), Policy: sc.Policy.String(), PolicySettings: policySettings(sc.Policy),
		Client: sc.Client, Retries: []RetryJSON{}, End: sc.End.String(), Made: sc.Made, TotalMs: sc.Total, DrawnTotalMs: sc.DrawnTotal()}
	for _, r := range sc.Retries {
		doc.Retries = append(doc.Retries, RetryJSON{Attempt: r.Attempt, WaitMs: r.Wait, AtMs: r.At, LowMs: r.Low, HighMs: r.High,
			CutShort: r.Cut, Outcome: r.Outcome.String()})
	}
	if r, ok := sc.ThroughAt(); ok {
		at := r.At
		doc.ThroughAtMs = &at
	}
	return jsonDoc(doc)
}

// CrowdCSV is the crowd table in the reference's columns, one row per
// policy: policy,retries,most_in_a_slot,busiest_slot_from_ms,
// all_through_by_ms,gave_up. The crowd report writes CrowdReportCSV, which
// starts with them.
func CrowdCSV(crowds []backoff.Result) string {
	var records [][]string
	for _, c := range crowds {
		f := c.Figures
		from, _ := optionalMs(f.BusiestSlotFrom)
		last, _ := optionalMs(f.AllThroughBy)
		records = append(records, []string{c.Policy.String(), itoa(f.Retries), itoa(f.MostInASlot), from, last, itoa(f.GaveUp)})
	}
	return csvDoc([]string{"policy", "retries", "most_in_a_slot", "busiest_slot_from_ms", "all_through_by_ms", "gave_up"}, records)
}

// OutcomeWord is a ledger entry's outcome in the reports: "done", "retry",
// "gave up" (failed with no attempts left), "out of time" (failed, and the
// next attempt would pass the policy's limit on total time) or "refused"
// (cannot be retried).
// A job's last entry so tells its result.
func OutcomeWord(o ledger.Outcome) string {
	switch o {
	case ledger.Done:
		return "done"
	case ledger.Retry:
		return "retry"
	case ledger.LastFail:
		return "gave up"
	case ledger.OutOfTime:
		return "out of time"
	default:
		return "refused"
	}
}

// JobJSON is how one job ended.
type JobJSON struct {
	Job      string `json:"job"`
	Failures int    `json:"failures"`
	Fatal    bool   `json:"fatal"`
	Result   string `json:"result"`   // done, gave up, out of time or refused
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
	Settings       SettingsJSON       `json:"settings"`
	Policy         string             `json:"policy"`
	PolicySettings PolicySettingsJSON `json:"policy_settings"`
	Jobs           []JobJSON          `json:"jobs"`
	Ledger         LedgerJSON         `json:"ledger"`
	JobsDone       int                `json:"jobs_done"`
	JobsGaveUp     int                `json:"jobs_gave_up"`
	JobsRefused    int                `json:"jobs_refused"`
	JobsOutOfTime  int                `json:"jobs_out_of_time"`
}

// jobResult is how a job ended, in the words of OutcomeWord.
func jobResult(r ledger.Result) string {
	var gaveUp *ledger.GaveUpError
	var late *ledger.OutOfTimeError
	switch {
	case r.Err == nil:
		return "done"
	case errors.As(r.Err, &gaveUp):
		return "gave up"
	case errors.As(r.Err, &late):
		return "out of time"
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

// JobsDoc is a run of jobs under policy p as a JSON document: each job's
// result, the ledger and its counts.
func JobsDoc(s backoff.Settings, p backoff.Policy, r ledger.Report) string {
	l := r.Ledger
	doc := JobsJSON{Settings: settingsJSON(s), Policy: p.String(), PolicySettings: policySettings(p), Jobs: []JobJSON{},
		Ledger: LedgerJSON{Entries: []EntryJSON{}, Attempts: l.Attempts, Done: l.Successes, Failed: l.Failures,
			FinallyRuns: l.FinallyRuns, WaitedMs: l.Waited, Balanced: l.Balanced()},
		JobsDone: r.Done, JobsGaveUp: r.GaveUp, JobsRefused: r.Refused, JobsOutOfTime: r.OutOfTime}
	for _, res := range r.Results {
		doc.Jobs = append(doc.Jobs, JobJSON{Job: res.Job.Name, Failures: res.Job.Failures, Fatal: res.Job.Fatal,
			Result: jobResult(res), Attempts: res.Attempt})
	}
	for _, e := range l.Entries {
		doc.Ledger.Entries = append(doc.Ledger.Entries, EntryJSON{Job: e.Job, Attempt: e.Attempt, Outcome: OutcomeWord(e.Outcome), WaitMs: e.Wait})
	}
	return jsonDoc(doc)
}
