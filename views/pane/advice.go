package pane

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/table"
	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/views/words"
)

// Pane 6, the advice: the goals, the search's progress, and the candidates
// that meet the goals (or the closest) as a table a row of which is chosen,
// with the chosen one's verdicts and command under it.

// AdviceData is what pane 6 shows.
type AdviceData struct {
	Goals       advice.Goals
	Seeds       int
	AlsoService bool
	Searching   bool
	Done, Most  int            // while searching: the crowds run, and the most there will be
	Advice      *advice.Advice // the last search's answer; nil before one lands
	Stale       bool           // the plan has changed since that search
	Err         string         // why no search runs
	Note        string         // what the last enter did
	Command     func(advice.Candidate) string
}

// Shown are the candidates the table lists: those that meet every goal,
// else the closest.
func (d AdviceData) Shown() []advice.Candidate {
	switch {
	case d.Advice == nil:
		return nil
	case len(d.Advice.Meets) > 0:
		return d.Advice.Meets
	}
	return d.Advice.Closest
}

// AdviceHead is the pane's first lines: its title and keys, the goals, the
// search's progress or what it found.
func AdviceHead(d AdviceData, w int, st *Styles) string {
	if w <= 0 {
		return ""
	}
	lines := []string{st.Title.Render(ansi.Truncate("Advice: the retry settings that meet your goals", w, "…"))}
	para := func(text string, style func(...string) string) {
		lines = append(lines, style(prose(text, w)))
	}
	if d.Goals.Len() == 0 {
		para("No goals yet: e sets them, such as not through at most 1% of the clients, recovered within 60 s, a peak after back of at most 2x the capacity. "+
			"The search then tries the five, the presets, policies of your own and retry budgets, and lists those that meet every goal at the 95th percentile over the seeds.",
			st.Muted.Render)
		return strings.Join(lines, "\n")
	}
	also := ""
	if d.AlsoService {
		also = ", the service's remedies too"
	}
	para(fmt.Sprintf("Goals over %d seeds%s (e changes them): %s.", d.Seeds, also, d.Goals), st.Text.Render)
	switch {
	case d.Err != "":
		para(ErrorMark+" "+d.Err, st.Error.Render)
	case d.Searching:
		lines = append(lines, searchBar(d.Done, d.Most, w, st))
	}
	if d.Note != "" {
		para(d.Note, st.Note.Render)
	}
	if a := d.Advice; a != nil {
		for _, b := range a.Bounds { // what arithmetic rules out, before the search
			para(words.BoundLine(b), st.Note.Render)
		}
		if a.Search.Goals.Len() == 0 {
			para("Nothing to search for: no candidate can meet these goals.", st.Text.Render)
			return strings.Join(lines, "\n")
		}
		found := fmt.Sprintf("Tried %s candidates, %s crowds: ", words.Count(a.Tried), words.Count(a.Crowds))
		switch n := len(a.Meets); {
		case n == 1:
			found += fmt.Sprintf("1 meets every goal over all %d seeds.", a.Search.Seeds)
		case n > 1:
			found += fmt.Sprintf("%d meet every goal over all %d seeds, ranked by your goals first, then clients not through, recovery, latency and attempts.", n, a.Search.Seeds)
		default:
			found += fmt.Sprintf("none meets every goal; the closest, over all %d seeds.", a.Search.Seeds)
		}
		if d.Stale {
			found += " (For the plan as it was: the search runs again for the plan now.)"
		}
		style := st.Text.Render
		if d.Stale {
			style = st.Stale.Render
		}
		para(found, style)
	}
	return strings.Join(lines, "\n")
}

// searchBar is the search's progress: "Searching ████░░░░ 312 of at most
// 826 crowds".
func searchBar(done, most, w int, st *Styles) string {
	label := fmt.Sprintf(" %s of at most %s crowds", words.Count(done), words.Count(most))
	barW := max(min(20, w-len("Searching ")-ansi.StringWidth(label)), 0)
	filled := 0
	if most > 0 {
		filled = min(barW, done*barW/most)
	}
	return ansi.Truncate("Searching "+st.Bar.Render(strings.Repeat("█", filled))+st.Muted.Render(strings.Repeat("░", barW-filled))+label, w, "")
}

// goalHeads are the goals' columns' heads, and narrowHeads the short ones
// of a narrow pane.
var (
	goalHeads   = [advice.NumKinds]string{"not through", "recovered", "peak", "peak/s", "p99", "attempts"}
	narrowHeads = [advice.NumKinds]string{"through", "recov", "peak", "peak/s", "p99", "tries"}
)

// candidateLabel is a candidate's policy in a few words: the five's or a
// preset's name, or a policy of one's own as its waits, "yours: 1 s-1 min
// full x1.5, 5 tries" (the multiplier where it is not 2 and the jitter
// reads it).
func candidateLabel(c advice.Candidate, short bool) string {
	if !c.Custom() {
		return c.Policy.Name
	}
	if short {
		return "yours"
	}
	p := c.Policy
	m := ""
	if p.Multiplier != 2000 && p.Jitter.Kind != backoff.JitterDecorrelated {
		m = " x" + backoff.FormatThousandths(p.Multiplier)
	}
	return fmt.Sprintf("yours: %s-%s %s%s, %d tries", words.Human(p.FirstWait), words.Human(p.LongestWait), p.Jitter, m, p.Attempts)
}

// AdviceTable is the table's columns and rows for a width: a row per
// candidate shown, its rank, policy, budget, the service's settings where
// any candidate changes them, each goal ticked (✓) or missed (✗) with its
// value at the 95th percentile, the attempts a client and the p99 latency
// (medians). Where the width is short it leaves out the p99, then the
// attempts, names a policy of one's own "yours", leaves out the service,
// shortens the heads, and last leaves out the goals' values, keeping their
// marks: no cell is ever cut.
func AdviceTable(d AdviceData, chosen, w int) ([]table.Column, []table.Row) {
	cs := d.Shown()
	if len(cs) == 0 {
		return nil, nil
	}
	scenario := d.Advice.Search.Settings
	service := false
	for _, c := range cs {
		service = service || len(advice.ServiceChanges(scenario, c.Settings)) > 0
	}
	type layout struct{ p99, tries, svc, values, names, heads bool }
	build := func(l layout) ([]table.Column, []table.Row) {
		heads := []string{"#", "policy", "budget"}
		if l.svc {
			heads = append(heads, "service")
		}
		for _, g := range d.Advice.Search.Goals.List() { // the goals searched: a verdict each
			if l.heads {
				heads = append(heads, goalHeads[g.Kind])
			} else {
				heads = append(heads, narrowHeads[g.Kind])
			}
		}
		if l.tries {
			heads = append(heads, "tries")
		}
		if l.p99 {
			heads = append(heads, "p99 med")
		}
		var rows []table.Row
		for i, c := range cs {
			// The chosen row is marked with a character, not its style
			// alone, so that it shows without colour.
			rank := fmt.Sprintf("  %d", i+1)
			if i == chosen {
				rank = fmt.Sprintf("> %d", i+1)
			}
			row := table.Row{rank, candidateLabel(c, !l.names), c.Settings.Budget.String()}
			if l.svc {
				row = append(row, strings.Join(advice.ServiceChanges(scenario, c.Settings), ", "))
			}
			for _, v := range c.Verdicts {
				mark := "✓"
				if !v.Met {
					mark = ErrorMark
				}
				if l.values {
					mark += " " + words.GoalShort(v)
				}
				row = append(row, mark)
			}
			if l.tries {
				row = append(row, words.Each(c.Spread.Spread("attempts").Median, c.Spread.Spread("clients").Median))
			}
			if l.p99 {
				row = append(row, words.Human(c.Spread.Spread("latency_p99_ms").Median))
			}
			rows = append(rows, row)
		}
		cols := make([]table.Column, len(heads))
		for i, h := range heads {
			cols[i] = table.Column{Title: h, Width: ansi.StringWidth(h)}
			for _, r := range rows {
				cols[i].Width = max(cols[i].Width, ansi.StringWidth(r[i]))
			}
		}
		return cols, rows
	}
	layouts := []layout{{true, true, service, true, true, true}, {false, true, service, true, true, true}, {false, false, service, true, true, true},
		{false, false, service, true, false, true}, {false, false, false, true, false, true}, {false, false, false, true, false, false},
		{false, false, false, false, false, false}}
	for _, l := range layouts {
		if cols, rows := build(l); TableWidth(cols) <= w {
			return cols, rows
		}
	}
	return build(layouts[len(layouts)-1])
}

// TableWidth is the cells a table of these columns takes: each column's
// width and its cell's padding.
func TableWidth(cols []table.Column) int {
	n := 0
	for _, c := range cols {
		n += c.Width + 2
	}
	return n
}

// AdviceTableStyles are the table's styles: the head bold, the chosen row
// in the chosen policy's style.
func AdviceTableStyles(st *Styles) table.Styles {
	return table.Styles{
		Header:   st.Header.Padding(0, 1),
		Cell:     st.Cell.Padding(0, 1),
		Selected: st.PolicySelected,
	}
}

// wrapWords wraps text at its spaces alone, never inside a word: a
// command's flags stay whole ("--first-wait"), however narrow the pane; a
// word longer than a line has a line of its own.
func wrapWords(text string, w int) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case ansi.StringWidth(line)+1+ansi.StringWidth(word) > w:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	return strings.Join(append(lines, line), "\n")
}

// AdviceDetail is the chosen candidate, under the table: its name, each
// goal met or missed and by how much, its figures' medians and 95th
// percentiles, and the crowd command that gives them, wrapped. Short
// leaves out the figures, for a short pane.
func AdviceDetail(d AdviceData, chosen, w int, short bool, st *Styles) string {
	cs := d.Shown()
	if chosen < 0 || chosen >= len(cs) || w <= 0 {
		return ""
	}
	c := cs[chosen]
	var lines []string
	lines = append(lines, st.Title.Render(prose(fmt.Sprintf("#%d %s", chosen+1, c.Name(d.Advice.Search.Settings)), w)))
	for _, v := range c.Verdicts {
		mark, style := "✓ meets", st.Good
		if !v.Met {
			mark, style = ErrorMark+" misses", st.Bad
		}
		lines = append(lines, style.Render(prose(mark+" "+v.Goal.String()+": "+words.GoalLine(v), w)))
	}
	med := func(name string) string {
		sp := c.Spread.Spread(name)
		if strings.HasSuffix(name, "_ms") {
			return words.Human(sp.Median) + "/" + words.Human(sp.P95)
		}
		return words.Count(sp.Median) + "/" + words.Count(sp.P95)
	}
	if !short {
		lines = append(lines, st.Muted.Render(prose(fmt.Sprintf("Median/p95: attempts %s, not through %s, recovered after %s, peak after back %s, p99 %s.",
			med("attempts"), med("not_through"), med("recovered_after_ms"), med("peak_after_back"), med("latency_p99_ms")), w)))
	}
	if d.Command != nil {
		lines = append(lines, st.Muted.Render(wrapWords("enter makes it your own policy and budget; its crowd: "+d.Command(c), min(w, ProseWidth))))
	}
	return strings.Join(lines, "\n")
}
