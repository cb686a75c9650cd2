package pane

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// WideFrom is the width from which panes 1 and 2 lay their parts side by
// side: pane 1 the six schedules, pane 2 the tables beside their bars.
const WideFrom = 160

// ProseWidth is the widest a paragraph is wrapped, so that it can be read.
const ProseWidth = 100

// prose wraps text at the pane's width, but no wider than ProseWidth.
func prose(text string, w int) string { return Wrap(text, min(w, ProseWidth)) }

// ClientData is what the one-client pane shows: one client's schedule under
// each policy, the chosen one picked out, against the moment the service is
// back.
type ClientData struct {
	Policies  []backoff.Policy // the five, then the settings' own
	Chosen    int              // index into Policies
	Client    int              // 1 to Settings.Clients
	Settings  backoff.Settings
	Schedules []backoff.Schedule // the client's, one per policy
}

func (d ClientData) chosen() backoff.Schedule {
	if d.Chosen < 0 || d.Chosen >= len(d.Schedules) {
		return backoff.Schedule{}
	}
	return d.Schedules[d.Chosen]
}

// PolicyNames are the policies' names, in order.
func PolicyNames(ps []backoff.Policy) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

// policyRowCells is where each name of the policy row starts and ends, in
// cells, when it fits w; nil when it does not.
func policyRowCells(names []string, w int) [][2]int {
	cells := make([][2]int, len(names))
	at := 0
	for i, n := range names {
		if i > 0 {
			at++
		}
		wide := ansi.StringWidth(n) + 2
		cells[i] = [2]int{at, at + wide}
		at += wide
	}
	if at > w {
		return nil
	}
	return cells
}

// PolicyRow is the policies in a row, the chosen one in brackets. When the
// row is wider than w it gives way to the chosen policy alone and its place
// among them.
func PolicyRow(names []string, chosen, w int, st *Styles) string {
	w = max(w, 0)
	if policyRowCells(names, w) == nil {
		if chosen < 0 || chosen >= len(names) {
			return ""
		}
		short := st.PolicySelected.Render("["+names[chosen]+"]") +
			st.Muted.Render(fmt.Sprintf(" %d of %d (←/→)", chosen+1, len(names)))
		return Fit(short, w, 1)
	}
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(" ")
		}
		if i == chosen {
			b.WriteString(st.PolicySelected.Render("[" + n + "]"))
		} else {
			b.WriteString(st.Policy.Render(" " + n + " "))
		}
	}
	return b.String()
}

// PolicyRowAt is the policy under column x of the row PolicyRow draws, or
// -1 for none.
func PolicyRowAt(names []string, w, x int) int {
	for i, c := range policyRowCells(names, max(w, 0)) {
		if x >= c[0] && x < c[1] {
			return i
		}
	}
	return -1
}

// ClientHead is the fixed top of pane 1: the policies, the chosen one's
// formula, and the client.
func ClientHead(d ClientData, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 || len(d.Policies) == 0 {
		return ""
	}
	p := d.Policies[min(max(d.Chosen, 0), len(d.Policies)-1)]
	formula := st.Text.Render(Wrap(words.Formula(p), w))
	client := fmt.Sprintf("Client %s of %s", words.Count(d.Client), words.Count(d.Settings.Clients))
	then := ": attempt 1 at 0 ms, then:"
	line := st.Title.Render(client) + st.Muted.Render(then)
	if hint := "  (# goes to another)"; ansi.StringWidth(client+then+hint) <= w {
		line += st.Muted.Render(hint)
	}
	return PolicyRow(PolicyNames(d.Policies), d.Chosen, w, st) + "\n" + formula + "\n" + Fit(line, w, 1)
}

// ClientTables are pane 1's tables, drawn once for its schedules and
// width: a key that only picks another policy picks among them.
type ClientTables struct {
	width   int
	tables  []string    // each policy's schedule as a table
	columns [][2]string // from WideFrom: each policy's column, as it is and as the chosen one
	colW    int
}

// NewClientTables draws d's schedules at width w.
func NewClientTables(d ClientData, w int, st *Styles) ClientTables {
	t := ClientTables{width: max(w, 0)}
	if t.width == 0 {
		return t
	}
	if t.width >= WideFrom && len(d.Schedules) > 1 {
		n := len(d.Schedules)
		t.colW = max((t.width-2*(n-1))/n, 0)
		for _, sc := range d.Schedules {
			t.columns = append(t.columns, scheduleColumn(sc, t.colW, st))
		}
		return t
	}
	for _, sc := range d.Schedules {
		t.tables = append(t.tables, scheduleTable(sc, d.Settings.Outage, t.width, st))
	}
	return t
}

// ClientBody is pane 1 under its head at width w, for a viewport to scroll:
// the chosen policy's schedule as a table (from WideFrom columns, every
// policy's side by side), the total before the last attempt, and the
// timeline strip, a blank line before each when all of it fits in room
// lines. The tables come from t, drawn for d at w.
func ClientBody(d ClientData, t ClientTables, w, room int, st *Styles) string {
	w = max(w, 0)
	if w == 0 || len(d.Schedules) == 0 || t.width != w {
		return ""
	}
	sc := d.chosen()
	var table string
	switch {
	case t.columns != nil:
		blocks := make([]string, 0, 2*len(t.columns))
		for i, c := range t.columns {
			if i > 0 {
				blocks = append(blocks, "  ")
			}
			if i == d.Chosen {
				blocks = append(blocks, c[1])
			} else {
				blocks = append(blocks, c[0])
			}
		}
		table = Fit(lipgloss.JoinHorizontal(lipgloss.Top, blocks...), w, 1<<20)
	case d.Chosen >= 0 && d.Chosen < len(t.tables):
		table = t.tables[d.Chosen]
	}
	parts := []string{table}
	if note := cutNote(sc); note != "" {
		parts[0] += "\n" + st.Warn.Render(prose(note, w))
	}
	parts = append(parts, st.Text.Render(prose(scheduleTotal(sc, d.Settings), w)),
		TimelineStrip(sc.Retries, d.Settings.Outage, w, st))
	sep := "\n"
	n := len(parts)
	for _, p := range parts {
		n += Height(p)
	}
	if n <= room {
		sep = "\n\n"
		parts[0] = "\n" + parts[0]
	}
	return strings.Join(parts, sep)
}

// CutMark follows a band that reference draws cannot fill.
const CutMark = "†"

// cutNote says, under a schedule with a band that reference draws cut
// short, what that means and how to draw otherwise; "" for none.
func cutNote(sc backoff.Schedule) string {
	for _, r := range sc.Retries {
		if r.Cut {
			return CutMark + " " + CutShortSentence(r.Low)
		}
	}
	return ""
}

// CutShortSentence is what every face says beside a figure whose band
// reference draws cut short: they never reach past low + 65,535 ms.
func CutShortSentence(low int) string {
	return fmt.Sprintf("reference draws never reach past %s + 65,535 ms (%s) here; press d for independent draws.",
		words.Human(low), words.Human(low+backoff.ReferenceReach-1))
}

// scheduleTotal is the sentence under a schedule: the time of the last
// attempt the client made (not those it never needs) and how it ends.
func scheduleTotal(sc backoff.Schedule, s backoff.Settings) string {
	total := fmt.Sprintf("In all %s before the last attempt it made, attempt %d.", words.Human(sc.Total), sc.Made)
	switch sc.End {
	case backoff.EndThrough:
		if sc.Made < sc.Policy.Attempts {
			total += " It gets through there; the attempts after it are not needed."
		} else {
			total += " It gets through on its last attempt."
		}
	case backoff.EndGaveUp:
		total += " Every attempt comes while the service is down: this client gives up."
	case backoff.EndOutOfTime:
		total += " The next retry would pass the limit on total time: this client stops there."
	}
	if s.HasService() {
		total += " Down and through are against the outage alone; panes 2 and 3 show the service's capacity, load and budget."
	}
	return total
}

// landing says what an attempt meets: the service down, the service back
// (the attempt gets through), nothing as an earlier one got through, or
// nothing as it would pass the limit on total time.
func landing(o backoff.Outcome) string {
	switch o {
	case backoff.Through:
		return "✓ gets through"
	case backoff.NotNeeded:
		return "○ not needed"
	case backoff.PastLimit:
		return "⊘ past the limit"
	}
	return "× down"
}

// landingStyle is the style of an outcome's cell.
func landingStyle(o backoff.Outcome, st *Styles) lipgloss.Style {
	switch o {
	case backoff.Through:
		return st.Through
	case backoff.Down:
		return st.Down
	}
	return st.Later
}

// band is a retry's lowest and highest wait: "0 ms–1 s".
func band(r backoff.Retry) string {
	s := words.Human(r.Low) + "–" + words.Human(r.High)
	if r.Cut {
		s += " " + CutMark
	}
	return s
}

// scheduleTable is one schedule as a table: attempt, wait, the band the
// wait is drawn from (for a policy that draws), at, and what the service
// does. As in the core, attempt 1 at 0 ms always fails.
func scheduleTable(sc backoff.Schedule, outage, w int, st *Styles) string {
	draws := sc.Policy.Jitter.Draws()
	outcomes := []backoff.Outcome{backoff.Down}
	row := func(cells ...string) []string {
		if !draws {
			cells = append(cells[:2], cells[3:]...)
		}
		return cells
	}
	rows := [][]string{row("1", "-", "-", words.Human(0), landing(backoff.Down))}
	for _, r := range sc.Retries {
		rows = append(rows, row(strconv.Itoa(r.Attempt), words.Human(r.Wait), band(r), words.Human(r.At), landing(r.Outcome)))
		outcomes = append(outcomes, r.Outcome)
	}
	heads := row("attempt", "wait", "could be", "at", "the service")
	right := row("r", "r", "r", "r", "")
	alignRight := make([]bool, len(right))
	for i, r := range right {
		alignRight[i] = r != ""
	}
	last := len(heads) - 1
	return readTable(heads, rows, alignRight, w, st, func(row, col int) lipgloss.Style {
		if col != last || row >= len(outcomes) {
			return st.Cell
		}
		return landingStyle(outcomes[row], st)
	})
}

// outcomeMark is an outcome's one-character mark for the side-by-side
// columns.
func outcomeMark(o backoff.Outcome) string {
	return strings.Fields(landing(o))[0]
}

// scheduleColumn is one policy's schedule as a column of the side-by-side
// view, col cells wide: attempt, wait, at and the outcome's mark, under its
// name; as it is, and picked out as the chosen one.
func scheduleColumn(sc backoff.Schedule, col int, st *Styles) [2]string {
	pad := func(l string) string { return l + strings.Repeat(" ", max(col-ansi.StringWidth(l), 0)) }
	plain := pad(st.Header.Render(cut(" "+sc.Policy.Name+" ", col)))
	chosen := pad(st.PolicySelected.Render(cut("["+sc.Policy.Name+"]", col)))
	var lines []string
	rows := [][]string{{"1", "-", words.Human(0), outcomeMark(backoff.Down)}}
	for _, r := range sc.Retries {
		wait := words.Human(r.Wait)
		if r.Cut {
			wait += CutMark
		}
		rows = append(rows, []string{strconv.Itoa(r.Attempt), wait, words.Human(r.At), outcomeMark(r.Outcome)})
	}
	outcomes := append([]backoff.Outcome{backoff.Down}, outcomesOf(sc)...)
	tbl := readTable([]string{"#", "wait", "at", ""}, rows, []bool{true, true, true, false}, col, st,
		func(row, c int) lipgloss.Style {
			if c == 3 && row < len(outcomes) {
				return landingStyle(outcomes[row], st)
			}
			return st.Cell
		})
	lines = append(lines, strings.Split(tbl, "\n")...)
	lines = append(lines, st.Muted.Render(cut("in all "+words.Human(sc.Total), col))) // the attempts made, as the single view counts
	// Each line padded to the column, so that the columns stand side by side.
	for i, l := range lines {
		lines[i] = pad(l)
	}
	body := "\n" + strings.Join(lines, "\n")
	return [2]string{plain + body, chosen + body}
}

func outcomesOf(sc backoff.Schedule) []backoff.Outcome {
	out := make([]backoff.Outcome, len(sc.Retries))
	for i, r := range sc.Retries {
		out[i] = r.Outcome
	}
	return out
}

// TimelineStrip draws a schedule on one line from 0 ms to its end (or the
// outage's end, if later): × for an attempt while the service is down (the
// first always is, as in the core), ✓ for the one that gets through, ○ for
// attempts it makes unnecessary and ⊘ for those that would pass the limit on
// total time, ┃ for the moment the service is back; then a line of times
// under it and a legend, in the words of the schedule's table (landing).
// It needs w >= 3.
func TimelineStrip(schedule []backoff.Retry, outage, w int, st *Styles) string {
	if w < 3 {
		return ""
	}
	end := max(outage, 1)
	if len(schedule) > 0 {
		end = max(end, schedule[len(schedule)-1].At)
	}
	col := func(ms int) int { return int(int64(ms) * int64(w-1) / int64(end)) }

	const (
		line = iota
		notNeeded
		pastLimit
		back
		down
		through
	)
	kind := make([]int, w)
	mark := func(c, k int) {
		if k > kind[c] {
			kind[c] = k
		}
	}
	mark(col(outage), back)
	mark(0, down) // attempt 1 fails at 0 ms, whatever the outage
	for _, r := range schedule {
		// A retry comes after attempt 1, so never in its column, even
		// when it is so soon after that it would round into it.
		c := max(col(r.At), 1)
		switch r.Outcome {
		case backoff.Down:
			mark(c, down)
		case backoff.Through:
			mark(c, through)
		case backoff.PastLimit:
			mark(c, pastLimit)
		default:
			mark(c, notNeeded)
		}
	}
	glyph := [...]string{"─", "○", "⊘", "┃", "×", "✓"}
	style := [...]lipgloss.Style{st.Rule, st.Later, st.Later, st.Back, st.Down, st.Through}
	var b strings.Builder
	for c := 0; c < w; {
		k := kind[c]
		n := 1
		for c+n < w && kind[c+n] == k {
			n++
		}
		b.WriteString(style[k].Render(strings.Repeat(glyph[k], n)))
		c += n
	}
	var seen [through + 1]bool
	for _, k := range kind {
		seen[k] = true
	}
	legend := []string{}
	// The words of the table's outcomes (landing), one name for each.
	outcome := [...]backoff.Outcome{down: backoff.Down, through: backoff.Through, notNeeded: backoff.NotNeeded, pastLimit: backoff.PastLimit}
	for _, k := range []int{down, through, notNeeded, pastLimit} {
		if seen[k] {
			legend = append(legend, landing(outcome[k]))
		}
	}
	legend = append(legend, "┃ back")
	return b.String() + "\n" + stripLabels(col(outage), outage, end, w, st) + "\n" +
		Fit(st.Muted.Render(strings.Join(legend, "  ")), w, 1)
}

// stripLabels puts "0 ms" at the left, "back at …" under the ┃ and the
// strip's end at the right, leaving out a label that would touch another.
func stripLabels(backCol, outage, end, w int, st *Styles) string {
	cells := []rune(strings.Repeat(" ", w))
	used := make([]bool, w)
	put := func(s string, at int) bool {
		r := []rune(s)
		at = min(max(at, 0), w-len(r))
		if at < 0 {
			return false
		}
		for i := max(at-1, 0); i < min(at+len(r)+1, w); i++ {
			if used[i] {
				return false
			}
		}
		for i, c := range r {
			cells[at+i] = c
			used[at+i] = true
		}
		return true
	}
	put("back at "+words.Human(outage), backCol)
	put(words.Human(0), 0)
	put(words.Human(end), w-ansi.StringWidth(words.Human(end)))
	return st.Muted.Render(strings.TrimRight(string(cells), " "))
}
