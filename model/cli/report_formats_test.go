package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// The reports' three formats hold the same numbers: CSV and JSON parse back
// to each other cell for cell, and to the numbers the text shows.

// node is a JSON value whose objects keep their fields' order: an object is
// a []field, an array a []node, and a number its json.Number.
type node = any

type kv struct {
	key   string
	value node
}

// decodeOrdered parses one JSON document, keeping the order of every
// object's fields, and refuses anything after it.
func decodeOrdered(t *testing.T, doc string) []kv {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	var value func() node
	value = func() node {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("JSON does not parse: %v\n%s", err, doc)
		}
		switch d := tok.(type) {
		case json.Delim:
			switch d {
			case '{':
				obj := []kv{}
				for dec.More() {
					k, err := dec.Token()
					if err != nil {
						t.Fatalf("JSON does not parse: %v", err)
					}
					obj = append(obj, kv{k.(string), value()})
				}
				dec.Token()
				return obj
			case '[':
				arr := []node{}
				for dec.More() {
					arr = append(arr, value())
				}
				dec.Token()
				return arr
			}
		}
		return tok
	}
	root, ok := value().([]kv)
	if !ok {
		t.Fatalf("JSON is not an object:\n%s", doc)
	}
	if dec.More() {
		t.Fatalf("more than one JSON document:\n%s", doc)
	}
	return root
}

// get is an object's field, failing the test if it is missing.
func get(t *testing.T, obj node, key string) node {
	t.Helper()
	fields, ok := obj.([]kv)
	if !ok {
		t.Fatalf("not an object: %#v", obj)
	}
	for _, f := range fields {
		if f.key == key {
			return f.value
		}
	}
	t.Fatalf("no field %q in %v", key, keysOf(fields))
	return nil
}

func keysOf(fields []kv) []string {
	var out []string
	for _, f := range fields {
		out = append(out, f.key)
	}
	return out
}

// cell is a JSON value as a CSV cell: a number's digits, a string, true or
// false, "" for null.
func cell(t *testing.T, v node) string {
	t.Helper()
	switch x := v.(type) {
	case nil:
		return ""
	case json.Number:
		return x.String()
	case string:
		return x
	case bool:
		return fmt.Sprint(x)
	}
	t.Fatalf("not a cell: %#v", v)
	return ""
}

// flatten is a JSON object as the CSV row of the same report writes it: a
// policy's settings as policy_first_wait_ms, ...; a spread over seeds as
// retries_median, ..., all_through_by_median_ms (a time keeps _ms last).
func flatten(t *testing.T, obj node) (header, row []string) {
	t.Helper()
	for _, f := range obj.([]kv) {
		inner, nested := f.value.([]kv)
		switch {
		case !nested:
			header, row = append(header, f.key), append(row, cell(t, f.value))
		case f.key == "policy_settings":
			for _, g := range inner {
				header, row = append(header, "policy_"+g.key), append(row, cell(t, g.value))
			}
		default:
			base, unit := f.key, ""
			if strings.HasSuffix(base, "_ms") {
				base, unit = strings.TrimSuffix(base, "_ms"), "_ms"
			}
			for _, g := range inner {
				header, row = append(header, base+"_"+g.key+unit), append(row, cell(t, g.value))
			}
		}
	}
	return header, row
}

func csvRecords(t *testing.T, doc string) [][]string {
	t.Helper()
	records, err := csv.NewReader(strings.NewReader(doc)).ReadAll()
	if err != nil {
		t.Fatalf("CSV does not parse: %v\n%s", err, doc)
	}
	if len(records) < 1 {
		t.Fatalf("CSV has no header:\n%s", doc)
	}
	return records
}

// checkCSVIsJSON checks that the CSV is the JSON's list of objects, one row
// each, with the same columns in the same order; prefix holds columns that
// come before each object's own (the side-by-side timeline's policy).
func checkCSVIsJSON(t *testing.T, csvDoc string, objects []node, prefix func(i int) []kv) {
	t.Helper()
	records := csvRecords(t, csvDoc)
	if len(records)-1 != len(objects) {
		t.Fatalf("CSV has %d rows, JSON %d objects", len(records)-1, len(objects))
	}
	for i, obj := range objects {
		var pre []kv
		if prefix != nil {
			pre = prefix(i)
		}
		header, row := flatten(t, append(slices.Clone(pre), obj.([]kv)...))
		if !slices.Equal(records[0], header) {
			t.Fatalf("CSV header\n%q\nwant the JSON's fields\n%q", records[0], header)
		}
		if !slices.Equal(records[i+1], row) {
			t.Errorf("CSV row %d: got %q, want (JSON) %q", i+1, records[i+1], row)
		}
	}
}

// TestReportFormatsAgree reads every report case in all three formats.
func TestReportFormatsAgree(t *testing.T) {
	for _, rc := range reportCases() {
		t.Run(rc.name, func(t *testing.T) {
			text := reportOf(t, append(slices.Clone(rc.args), "--format", "text")...)
			csvDoc := reportOf(t, append(slices.Clone(rc.args), "--format", "csv")...)
			doc := decodeOrdered(t, reportOf(t, append(slices.Clone(rc.args), "--format", "json")...))
			switch rc.args[0] {
			case "schedule":
				checkScheduleFormats(t, text, csvDoc, doc)
			case "crowd":
				if slices.Contains(rc.args, "--seeds") {
					checkSeedsFormats(t, text, csvDoc, doc)
				} else {
					checkCrowdFormats(t, text, csvDoc, doc)
				}
			case "timeline":
				checkTimelineFormats(t, text, csvDoc, doc)
			case "jobs":
				checkJobsFormats(t, text, csvDoc, doc)
			default:
				t.Fatalf("no check for %q", rc.args[0])
			}
		})
	}
}

// rowsOf is every match of re in text, its groups.
func rowsOf(t *testing.T, re string, text string) [][]string {
	t.Helper()
	var rows [][]string
	for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(text, -1) {
		rows = append(rows, m[1:])
	}
	if len(rows) == 0 {
		t.Fatalf("no rows matching %s in\n%s", re, text)
	}
	return rows
}

// ms is a text's time as a cell: "400 ms" is 400, "-" is "".
func ms(s string) string {
	if s == "-" {
		return ""
	}
	return strings.TrimSuffix(s, " ms")
}

func checkScheduleFormats(t *testing.T, text, csvDoc string, doc []kv) {
	retries := get(t, doc, "retries").([]node)
	checkCSVIsJSON(t, csvDoc, retries, nil)
	byAttempt := map[string][]string{}
	for _, r := range retries {
		byAttempt[cell(t, get(t, r, "attempt"))] = []string{cell(t, get(t, r, "wait_ms")), cell(t, get(t, r, "at_ms")),
			cell(t, get(t, r, "low_ms")), cell(t, get(t, r, "high_ms")), cell(t, get(t, r, "cut_short")), cell(t, get(t, r, "outcome"))}
	}
	lines := rowsOf(t, `(?m)^  attempt +(\d+)  after +(\d+) ms, at +(\d+) ms(?:   band +(\d+) to +(\d+) ms([ *]))?  (down|through|not needed|past the limit)$`, text)
	for _, l := range lines {
		low, high, cut := l[3], l[4], l[5] == "*"
		if low == "" {
			low, high = l[1], l[1] // no jitter: the band is the wait
		}
		if got, want := []string{l[1], l[2], low, high, fmt.Sprint(cut), l[6]}, byAttempt[l[0]]; !slices.Equal(got, want) {
			t.Errorf("attempt %s: text %q, JSON %q", l[0], got, want)
		}
	}
	shown := len(lines)
	if m := regexp.MustCompile(`(?m)^  \.\.\. attempts? (\d+)(?: (?:to|and) (\d+))?: (not needed|past the limit) too`).FindStringSubmatch(text); m != nil {
		for _, r := range retries[shown:] {
			if o := cell(t, get(t, r, "outcome")); o != m[3] {
				t.Errorf("attempt %s: JSON %q, text %q", cell(t, get(t, r, "attempt")), o, m[3])
			}
		}
		if first := cell(t, get(t, retries[shown], "attempt")); first != m[1] {
			t.Errorf("the text's ... starts at attempt %s, want %s", m[1], first)
		}
		shown = len(retries)
	}
	if shown != len(retries) {
		t.Errorf("text shows %d retries, JSON has %d", shown, len(retries))
	}
	end, made, total := cell(t, get(t, doc, "end")), cell(t, get(t, doc, "made")), cell(t, get(t, doc, "total_ms"))
	if m := regexp.MustCompile(`(?m)^In all (\d+) ms before the last attempt it made\.$`).FindStringSubmatch(text); m == nil || m[1] != total {
		t.Errorf("text's In all %q, JSON total_ms %s", m, total)
	}
	switch m := regexp.MustCompile(`(?m)^(Gets through at attempt (\d+), at (\d+) ms|Gives up after (\d+) attempts|Out of time after (\d+) attempts)`).FindStringSubmatch(text); {
	case m == nil:
		t.Errorf("text says no end:\n%s", text)
	case m[2] != "":
		if end != "through" || m[2] != made || m[3] != cell(t, get(t, doc, "through_at_ms")) {
			t.Errorf("text %q; JSON end %s, made %s, through_at_ms %s", m[0], end, made, cell(t, get(t, doc, "through_at_ms")))
		}
	case m[4] != "":
		if end != "gave up" || m[4] != made {
			t.Errorf("text %q; JSON end %s, made %s", m[0], end, made)
		}
	default:
		if end != "out of time" || m[5] != made {
			t.Errorf("text %q; JSON end %s, made %s", m[0], end, made)
		}
	}
}

// rounded2 is n/d with two decimals, rounded half up, worked out exactly.
func rounded2(t *testing.T, n, d string) string {
	t.Helper()
	r, ok := new(big.Rat).SetString(n + "/" + d)
	if !ok {
		t.Fatalf("not numbers: %s/%s", n, d)
	}
	return r.FloatString(2)
}

func checkCrowdFormats(t *testing.T, text, csvDoc string, doc []kv) {
	policies := get(t, doc, "policies").([]node)
	checkCSVIsJSON(t, csvDoc, policies, nil)
	byName := map[string]node{}
	for _, p := range policies {
		byName[cell(t, get(t, p, "policy"))] = p
	}
	slot := cell(t, get(t, doc, "slot_ms"))
	f := func(p node, key string) string { return cell(t, get(t, p, key)) }
	// The reference's table.
	table := rowsOf(t, `(?m)^  (\S+(?: jitter)?) +(\d+) +(\d+) +(-?\d+) ms +(-|\d+ ms) +(\d+)$`, text)
	if len(table) != len(policies) {
		t.Errorf("the text's table has %d rows, JSON %d policies", len(table), len(policies))
	}
	for _, r := range table {
		p := byName[r[0]]
		if p == nil {
			t.Fatalf("text's %q is not in the JSON", r[0])
		}
		from := r[3]
		if from == "-"+slot {
			from = "" // the reference's slot -1: no retries
		}
		if got, want := []string{r[1], r[2], from, ms(r[4]), r[5]}, []string{f(p, "retries"), f(p, "most_in_a_slot"),
			f(p, "busiest_slot_from_ms"), f(p, "all_through_by_ms"), f(p, "gave_up")}; !slices.Equal(got, want) {
			t.Errorf("%s: text %q, JSON %q", r[0], got, want)
		}
	}
	// The rates.
	for _, r := range rowsOf(t, `(?m)^  (\S+(?: jitter)?) +(\d+\.\d\d) +(\d+) \(([\d.]+)/s\) +(\d+) \(([\d.]+)/s\) +(-|\d+ ms)$`, text) {
		p := byName[r[0]]
		want := []string{rounded2(t, f(p, "retries"), f(p, "clients")), f(p, "most_in_a_slot"), f(p, "most_in_a_slot_per_s"),
			f(p, "peak_after_back"), f(p, "peak_after_back_per_s"), f(p, "peak_after_back_from_ms")}
		if got := append(r[1:6:6], ms(r[6])); !slices.Equal(got, want) {
			t.Errorf("%s rates: text %q, JSON %q", r[0], got, want)
		}
	}
	if !strings.Contains(text, "When the service is back") {
		return
	}
	// With a queue the counts take timed out after failed while down, and
	// a third table the queue's figures.
	queued := cell(t, get(t, get(t, doc, "settings"), "queue")) != "0"
	counts := []string{"clients", "attempts", "served", "rejected", "failed_while_down", "through", "gave_up", "throttled", "out_of_time"}
	if queued {
		counts = slices.Insert(counts, 5, "timed_out")
		rows := rowsOf(t, `(?m)^  (\S+(?: jitter)?) +(\d+) +(\d+) +(\d+)$`, text)
		if len(rows) != len(policies) {
			t.Errorf("the text's queue table has %d rows, JSON %d policies", len(rows), len(policies))
		}
		for _, r := range rows {
			p := byName[r[0]]
			if got, want := r[1:], []string{f(p, "wasted"), f(p, "dropped"), f(p, "queue_peak")}; !slices.Equal(got, want) {
				t.Errorf("%s queue: text %q, JSON %q", r[0], got, want)
			}
		}
	} else if strings.Contains(text, "timed out") || strings.Contains(text, "queue peak") {
		t.Errorf("no queue, yet the text speaks of one:\n%s", text)
	}
	// With a breaker the counts take short-circuited after those, and the
	// times table the breakers opened last.
	breaker, _ := lookup(get(t, doc, "settings").([]kv), "breaker")
	times := `(?m)^  (\S+(?: jitter)?) +(-|\d+) +(\d+ ms) +(yes|no) +(-|\d+ ms) +(-|\d+ ms) +(-|\d+ ms)$`
	if breaker != nil {
		counts = slices.Insert(counts, slices.Index(counts, "through"), "short_circuited")
		times = strings.TrimSuffix(times, "$") + ` +(\d+)$`
	} else if strings.Contains(text, "short-circuited") || strings.Contains(text, "breaker opened") {
		t.Errorf("no breaker, yet the text speaks of one:\n%s", text)
	}
	for _, r := range rowsOf(t, fmt.Sprintf(`(?m)^  (\S+(?: jitter)?)((?: +\d+){%d})$`, len(counts)), text) {
		p := byName[r[0]]
		var want []string
		for _, k := range counts {
			want = append(want, f(p, k))
		}
		if got := strings.Fields(r[1]); !slices.Equal(got, want) {
			t.Errorf("%s service: text %q, JSON %q", r[0], got, want)
		}
	}
	timesRows := rowsOf(t, times, text)
	if len(timesRows) != len(policies) {
		t.Errorf("the text's service times have %d rows, JSON %d policies", len(timesRows), len(policies))
	}
	for _, r := range timesRows {
		p := byName[r[0]]
		overloaded := map[string]string{"yes": "true", "no": "false"}[r[3]]
		got := []string{strings.Trim(r[1], "-"), ms(r[2]), overloaded, ms(r[4]), ms(r[5]), ms(r[6])}
		want := []string{f(p, "slot_capacity"), f(p, "stable_from_ms"), f(p, "still_overloaded"), f(p, "latency_p50_ms"), f(p, "latency_p99_ms"), f(p, "latency_max_ms")}
		if breaker != nil {
			got, want = append(got, r[7]), append(want, f(p, "breaker_opened"))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s service times: text %q, JSON %q", r[0], got, want)
		}
	}
}

func checkSeedsFormats(t *testing.T, text, csvDoc string, doc []kv) {
	policies := get(t, doc, "policies").([]node)
	checkCSVIsJSON(t, csvDoc, policies, nil)
	byLabel := map[string]backoff.FigureField{}
	for _, ff := range backoff.FigureFields() {
		byLabel[ff.Label] = ff
		byLabel[words.FigureLabel(ff, true)] = ff // where a client is lost
	}
	policy, rows := "", 0
	for _, line := range strings.Split(text, "\n") {
		m := regexp.MustCompile(`^  (\S+(?: jitter)?)? +([a-z][a-z0-9 ]+?) +(-|\d+(?: ms)?) +(-|\d+(?: ms)?) +(-|\d+(?: ms)?)$`).FindStringSubmatch(line)
		if m == nil || m[2] == "figure" {
			continue
		}
		if m[1] != "" {
			policy = m[1]
		}
		ff, ok := byLabel[m[2]]
		if !ok {
			t.Fatalf("%q: no figure labelled %q", line, m[2])
		}
		var p node
		for _, q := range policies {
			if cell(t, get(t, q, "policy")) == policy {
				p = q
			}
		}
		sp := get(t, p, ff.Name)
		want := []string{cell(t, get(t, sp, "median")), cell(t, get(t, sp, "p95")), cell(t, get(t, sp, "worst"))}
		if got := []string{ms(m[3]), ms(m[4]), ms(m[5])}; !slices.Equal(got, want) {
			t.Errorf("%s %s: text %q, JSON %q", policy, m[2], got, want)
		}
		rows++
	}
	if rows < len(policies)*4 {
		t.Errorf("the text shows %d figures for %d policies:\n%s", rows, len(policies), text)
	}
	none := regexp.MustCompile(`(?m)^Seeds in which no client got through, of \d+: (.*)\.$`).FindStringSubmatch(text)
	for _, p := range policies {
		n := cell(t, get(t, p, "seeds_none_through"))
		name := cell(t, get(t, p, "policy"))
		said := none != nil && strings.Contains(", "+none[1]+",", ", "+name+" in "+n+",")
		if (n != "0") != said {
			t.Errorf("%s: JSON seeds_none_through %s, text %q", name, n, none)
		}
	}
}

func checkTimelineFormats(t *testing.T, text, csvDoc string, doc []kv) {
	if runs, ok := lookup(doc, "policies"); ok {
		checkTimelinesFormats(t, text, csvDoc, doc, runs.([]node))
		return
	}
	slots := withWidths(t, doc, get(t, doc, "rows").([]node))
	checkCSVIsJSON(t, csvDoc, slots, nil)
	var want [][]string
	for _, s := range slots {
		if r := cell(t, get(t, s, "retries")); r != "0" {
			want = append(want, []string{cell(t, get(t, s, "from_ms")), r})
		}
	}
	if got := rowsOf(t, `(?m)^ +(\d+) ms +(\d+)  #+$`, text); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("histogram: text %q, JSON %q", got, want)
	}
	if !strings.Contains(text, "by outcome") {
		return
	}
	want = nil
	keys, re, capAt := []string{"attempts", "served", "rejected", "failed_while_down", "capacity"}, `(?m)^ +(\d+) ms +(\d+) +(\d+) +(\d+) +(\d+) +(-|\d+)$`, 5
	if cell(t, get(t, get(t, doc, "settings"), "queue")) != "0" {
		keys, capAt = []string{"attempts", "served", "rejected", "failed_while_down", "timed_out", "wasted", "dropped", "capacity", "queue"}, 8
		re = `(?m)^ +(\d+) ms +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(-|\d+) +(\d+)$`
	}
	if b, _ := lookup(get(t, doc, "settings").([]kv), "breaker"); b != nil {
		keys = append(keys, "short_circuited", "breaker_opened")
		re = strings.TrimSuffix(re, "$") + ` +(\d+) +(\d+)$`
	}
	for _, s := range slots {
		if !busyRow(t, s) {
			continue // the text has a row for each row with any
		}
		row := []string{cell(t, get(t, s, "from_ms"))}
		for _, k := range keys {
			row = append(row, cell(t, get(t, s, k)))
		}
		want = append(want, row)
	}
	got := rowsOf(t, re, text)
	for _, r := range got {
		r[capAt] = strings.Trim(r[capAt], "-")
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("slots by outcome: text %q, JSON %q", got, want)
	}
}

// busyRow reports whether a timeline's row (JSON) has anything: an
// attempt, a retry, with a queue a request the service reached or left
// waiting, or a breaker that opened.
func busyRow(t *testing.T, row node) bool {
	t.Helper()
	for _, k := range []string{"attempts", "retries", "wasted", "dropped", "queue", "breaker_opened"} {
		if v, ok := lookup(row.([]kv), k); ok && cell(t, v) != "0" {
			return true
		}
	}
	return false
}

// withWidths are a timeline's rows with the document's slot_ms and row_ms
// after each row's own fields, as the CSV has them.
func withWidths(t *testing.T, doc []kv, rows []node) []node {
	t.Helper()
	out := make([]node, len(rows))
	for i, r := range rows {
		out[i] = append(slices.Clone(r.([]kv)), kv{"slot_ms", get(t, doc, "slot_ms")}, kv{"row_ms", get(t, doc, "row_ms")})
	}
	return out
}

// lookup is an object's field, if it has one.
func lookup(obj []kv, key string) (node, bool) {
	for _, f := range obj {
		if f.key == key {
			return f.value, true
		}
	}
	return nil, false
}

func checkTimelinesFormats(t *testing.T, text, csvDoc string, doc []kv, runs []node) {
	var all []node
	var names []kv
	for _, r := range runs {
		for _, s := range withWidths(t, doc, get(t, r, "rows").([]node)) {
			all = append(all, s)
			names = append(names, kv{"policy", get(t, r, "policy")})
		}
	}
	checkCSVIsJSON(t, csvDoc, all, func(i int) []kv { return names[i : i+1] })
	n := len(get(t, runs[0], "rows").([]node))
	sections := strings.Split(text, "side by side:\n")
	if len(sections) != 2 {
		t.Fatalf("no side by side table in\n%s", text)
	}
	check := func(section, key string) {
		var want [][]string
		for i := range n {
			busy := false
			for _, r := range runs {
				busy = busy || busyRow(t, get(t, r, "rows").([]node)[i])
			}
			if !busy {
				continue // the text has a row for each row with any, in any policy
			}
			row := []string{cell(t, get(t, get(t, runs[0], "rows").([]node)[i], "from_ms"))}
			for _, r := range runs {
				row = append(row, cell(t, get(t, get(t, r, "rows").([]node)[i], key)))
			}
			want = append(want, row)
		}
		re := `(?m)^ +(\d+) ms` + strings.Repeat(` +(\d+)`, len(runs)) + `$`
		var got [][]string
		for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(section, n) {
			got = append(got, m[1:])
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%s side by side: text %q, JSON %q", key, got, want)
		}
	}
	retries, rejected, service := sections[1], "", false
	if i := strings.Index(retries, "Attempts rejected"); i >= 0 {
		retries, rejected, service = retries[:i], retries[i:], true
	}
	check(retries, "retries")
	// With a queue: the timed out, the wasted or dropped, and the queue's
	// length, each a table of its own after the rejected.
	tables := []struct{ head, key string }{{"Attempts timed out", "timed_out"}, {"Expired requests wasted", "wasted"},
		{"Expired requests dropped", "dropped"}, {"The queue's length", "queue"}}
	queued := false
	for i := len(tables) - 1; i >= 0; i-- {
		if at := strings.Index(rejected, tables[i].head); at >= 0 {
			check(rejected[at:], tables[i].key)
			rejected, queued = rejected[:at], true
		}
	}
	if queued != (cell(t, get(t, get(t, doc, "settings"), "queue")) != "0") {
		t.Errorf("the queue's tables shown %v, want them with a queue alone:\n%s", queued, text)
	}
	if service {
		check(rejected, "rejected")
	}
}

func checkJobsFormats(t *testing.T, text, csvDoc string, doc []kv) {
	ledger := get(t, doc, "ledger")
	entries := get(t, ledger, "entries").([]node)
	checkCSVIsJSON(t, csvDoc, entries, nil)
	var want [][]string
	for _, e := range entries {
		want = append(want, []string{cell(t, get(t, e, "job")), cell(t, get(t, e, "attempt")), cell(t, get(t, e, "outcome")), cell(t, get(t, e, "wait_ms"))})
	}
	var got [][]string
	for _, r := range rowsOf(t, `(?m)^  (\S+) attempt (\d+): (.*)$`, text) {
		outcome, wait := r[2], "0"
		switch {
		case outcome == "done":
		case strings.HasPrefix(outcome, "failed, retry after "):
			outcome, wait = "retry", strings.TrimSuffix(strings.TrimPrefix(outcome, "failed, retry after "), " ms")
		case outcome == "failed, no attempts left":
			outcome = "gave up"
		case outcome == "failed, out of time":
			outcome = "out of time"
		case outcome == "cannot be retried, stopped":
			outcome = "refused"
		default:
			t.Fatalf("unknown ledger line %q", r)
		}
		got = append(got, []string{r[0], r[1], outcome, wait})
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("ledger: text %q, JSON %q", got, want)
	}
	want = nil
	for _, j := range get(t, doc, "jobs").([]node) {
		want = append(want, []string{cell(t, get(t, j, "job")), cell(t, get(t, j, "result")), cell(t, get(t, j, "attempts"))})
	}
	got = nil
	for _, m := range regexp.MustCompile(`(?m)^  (\S+): (?:done on attempt (\d+)|gave up after (\d+) attempts|out of time after (\d+) attempts .*|cannot be retried)$`).FindAllStringSubmatch(text, -1) {
		switch {
		case m[2] != "":
			got = append(got, []string{m[1], "done", m[2]})
		case m[3] != "":
			got = append(got, []string{m[1], "gave up", m[3]})
		case m[4] != "":
			got = append(got, []string{m[1], "out of time", m[4]})
		default:
			got = append(got, []string{m[1], "refused", "1"})
		}
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("results: text %q, JSON %q", got, want)
	}
	counts := regexp.MustCompile(`Attempts (\d+): (\d+) done, (\d+) failed\. The finally block ran (\d+) times\. Waited (\d+) ms in all\.\nJobs done, given up, refused: (\d+), (\d+), (\d+)\.`).FindStringSubmatch(text)
	if counts == nil {
		t.Fatalf("no counts in\n%s", text)
	}
	wantCounts := []string{cell(t, get(t, ledger, "attempts")), cell(t, get(t, ledger, "done")), cell(t, get(t, ledger, "failed")),
		cell(t, get(t, ledger, "finally_runs")), cell(t, get(t, ledger, "waited_ms")),
		cell(t, get(t, doc, "jobs_done")), cell(t, get(t, doc, "jobs_gave_up")), cell(t, get(t, doc, "jobs_refused"))}
	if !slices.Equal(counts[1:], wantCounts) {
		t.Errorf("counts: text %q, JSON %q", counts[1:], wantCounts)
	}
}

// modelFields is MODEL.md's table of figures, section 5, in its order.
var modelFields = []string{"clients", "attempts", "retries", "served", "rejected", "failed_while_down", "through", "gave_up",
	"throttled", "out_of_time", "most_in_a_slot", "busiest_slot_from_ms", "peak_after_back", "peak_after_back_from_ms",
	"slot_capacity", "all_through_by_ms", "stable_from_ms", "still_overloaded", "latency_p50_ms", "latency_p99_ms", "latency_max_ms",
	"not_through", "crowd_all_through_by_ms", "recovered_after_ms", "clients_touched"}

// queueFields are MODEL.md's figures of a service that queues (section 6),
// 0 without a queue.
var queueFields = []string{"timed_out", "wasted", "dropped", "queue_peak"}

// guardFields are MODEL.md's figures of the client's breakers (section 7),
// 0 without one.
var guardFields = []string{"short_circuited", "breaker_opened"}

// Every MODEL.md figure is in the crowd's JSON under its name for every
// policy, in every crowd case, one seed or many; the list above is
// MODEL.md's table where the specification lies beside the repository.
func TestEveryModelFieldInJSON(t *testing.T) {
	if spec, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "MODEL.md")); err == nil {
		_, table, _ := strings.Cut(string(spec), "## 5.")
		var names []string
		for _, row := range strings.Split(table, "\n") {
			// A row's first cell holds its figures' names; the second
			// speaks of others.
			cells := strings.Split(row, "|")
			if len(cells) < 3 {
				continue
			}
			for _, m := range regexp.MustCompile("`([a-z0-9_]+)`").FindAllStringSubmatch(cells[1], -1) {
				names = append(names, m[1])
			}
		}
		if !slices.Equal(names, modelFields) {
			t.Errorf("MODEL.md's figures\n%q\nwant this test's\n%q", names, modelFields)
		}
	}
	var fromCore []string
	for _, ff := range backoff.FigureFields() {
		fromCore = append(fromCore, ff.Name)
	}
	if want := append(slices.DeleteFunc(slices.Clone(modelFields), func(n string) bool { return n == "still_overloaded" }), slices.Concat(queueFields, guardFields)...); !slices.Equal(fromCore, want) {
		t.Errorf("backoff.FigureFields\n%q\nwant MODEL.md's, less still_overloaded,\n%q", fromCore, want)
	}
	cases := 0
	for _, rc := range reportCases() {
		if rc.args[0] != "crowd" {
			continue
		}
		cases++
		doc := decodeOrdered(t, reportOf(t, append(slices.Clone(rc.args), "--format", "json")...))
		seeds := slices.Contains(rc.args, "--seeds")
		for _, p := range get(t, doc, "policies").([]node) {
			fields := p.([]kv)
			for _, name := range slices.Concat(modelFields, queueFields, guardFields) {
				v, ok := lookup(fields, name)
				if seeds && name == "still_overloaded" {
					v, ok = lookup(fields, "seeds_still_overloaded")
				}
				if !ok {
					t.Errorf("%s: %s has no %s", rc.name, cell(t, get(t, p, "policy")), name)
					continue
				}
				if seeds && name != "still_overloaded" {
					for _, k := range []string{"median", "p95", "worst"} {
						get(t, v, k)
					}
				}
			}
		}
	}
	if cases < 5 {
		t.Errorf("%d crowd cases, want several", cases)
	}
}
