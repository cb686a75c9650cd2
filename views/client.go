package views

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
)

// ClientData is what the one-client pane shows: one client's schedule under
// one policy, against the moment the service is back.
type ClientData struct {
	Policy   backoff.Shape
	Client   int // 1 to Clients
	Clients  int
	Outage   int // ms: the service is back then
	Schedule backoff.Schedule
}

// PolicyRow is the five policies in a row, the chosen one in brackets. When
// the row is wider than w it gives way to the chosen policy alone and its
// place among the five.
func PolicyRow(selected backoff.Shape, w int, st *Styles) string {
	w = max(w, 0)
	var b strings.Builder
	n := 0
	for i, p := range backoff.Shapes() {
		if i > 0 {
			b.WriteString(" ")
			n++
		}
		if p == selected {
			b.WriteString(st.PolicySelected.Render("[" + p.String() + "]"))
		} else {
			b.WriteString(st.Policy.Render(" " + p.String() + " "))
		}
		n += len(p.String()) + 2
	}
	if n <= w {
		return b.String()
	}
	short := st.PolicySelected.Render("["+selected.String()+"]") +
		st.Muted.Render(fmt.Sprintf(" %d of %d", int(selected)+1, backoff.NumShapes))
	return Fit(short, w, 1)
}

// ClientHead is the fixed top of pane 1: the policies and the client number.
func ClientHead(d ClientData, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 {
		return ""
	}
	client := st.Title.Render(fmt.Sprintf("Client %d", d.Client)) +
		st.Muted.Render(fmt.Sprintf(" of %d; attempt 1 at 0 ms, then:", d.Clients))
	return PolicyRow(d.Policy, w, st) + "\n" + Fit(client, w, 1)
}

// ClientBody is pane 1 under its head at width w, for a viewport to scroll:
// the schedule as a table, the total before the last attempt, and the
// timeline strip, a blank line before each when all of it fits in room
// lines.
func ClientBody(d ClientData, w, room int, st *Styles) string {
	w = max(w, 0)
	if w == 0 {
		return ""
	}
	total := fmt.Sprintf("In all %s before the last attempt.", Millis(d.Schedule.DrawnTotal()))
	if d.Schedule.DrawnTotal() < d.Outage {
		total += " Every attempt comes while the service is down: this client gives up."
	}
	parts := []string{
		scheduleTable(d, scheduleRows(d), w, st),
		st.Text.Render(Wrap(total, w)),
		TimelineStrip(d.Schedule.Retries, d.Outage, w, st),
	}
	sep := "\n"
	if n := Height(parts[0]) + Height(parts[1]) + Height(parts[2]) + 3; n <= room {
		sep = "\n\n"
		parts[0] = "\n" + parts[0]
	}
	return strings.Join(parts, sep)
}

// scheduleRows are the schedule's rows, attempt 1 first: attempt, wait, at,
// and what the service does then. As in the core, attempt 1 at 0 ms always
// fails, whatever the outage; the first retry at or after it gets through.
func scheduleRows(d ClientData) [][]string {
	rows := make([][]string, 0, len(d.Schedule.Retries)+1)
	rows = append(rows, []string{"1", "-", Millis(0), landing(0, d.Outage, false, true)})
	through := false
	for _, r := range d.Schedule.Retries {
		rows = append(rows, []string{strconv.Itoa(r.Attempt), Millis(r.Wait), Millis(r.At), landing(r.At, d.Outage, through, false)})
		through = through || r.At >= d.Outage
	}
	return rows
}

// landing says what an attempt at ms meets: the service down, the service
// back (the attempt gets through), or nothing, as an earlier one got through.
// The first attempt always meets it down.
func landing(ms, outage int, through, first bool) string {
	switch {
	case through:
		return "○ not needed"
	case first || ms < outage:
		return "× down"
	default:
		return "✓ gets through"
	}
}

func scheduleTable(d ClientData, rows [][]string, w int, st *Styles) string {
	return readTable([]string{"attempt", "wait", "at", "the service"}, rows, []bool{true, true, true, false}, w, st,
		func(row, col int) lipgloss.Style {
			if col != 3 || row >= len(rows) {
				return st.Cell
			}
			switch {
			case strings.HasPrefix(rows[row][3], "×"):
				return st.Down
			case strings.HasPrefix(rows[row][3], "✓"):
				return st.Through
			}
			return st.Later
		})
}

// TimelineStrip draws a schedule on one line from 0 ms to its end (or the
// outage's end, if later): × for an attempt while the service is down (the
// first always is, as in the core), ✓
// for the one that gets through, ○ for attempts it makes unnecessary, ┃ for
// the moment the service is back; then a line of times under it and a
// legend. It needs w >= 3.
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
		later
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
	got := false
	for _, r := range schedule {
		// A retry comes after attempt 1, so never in its column, even
		// when it is so soon after that it would round into it.
		c := max(col(r.At), 1)
		switch {
		case got:
			mark(c, later)
		case r.At < outage:
			mark(c, down)
		default:
			mark(c, through)
			got = true
		}
	}
	glyph := [...]string{"─", "○", "┃", "×", "✓"}
	style := [...]lipgloss.Style{st.Rule, st.Later, st.Back, st.Down, st.Through}
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
	for _, k := range []int{down, through, later} {
		if seen[k] {
			legend = append(legend, glyph[k]+" "+[...]string{down: "down", through: "gets through", later: "not needed"}[k])
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
	put("back at "+Millis(outage), backCol)
	put(Millis(0), 0)
	put(Millis(end), w-ansi.StringWidth(Millis(end)))
	return st.Muted.Render(strings.TrimRight(string(cells), " "))
}
