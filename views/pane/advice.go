package pane

import (
	"fmt"
	"math/bits"
	"sort"
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
	RoundSeeds  int            // while searching: the seeds the round running holds each candidate over; 0 before it says
	Elapsed     float64        // while searching: the seconds since it started
	Estimate    float64        // while searching: the seconds the search's cost says it takes on Cores cores; 0 before it is known
	Cores       int            // the cores the search runs on
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
// search's progress or what it found. Short, for a pane too low for the
// whole, each goal the arithmetic rules out is said in brief
// (words.BoundShort), when the last client can be through is left out, and
// so is how the candidates are ranked.
func AdviceHead(d AdviceData, w int, short bool, st *Styles) string {
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
		para(searchLine(d), st.Muted.Render)
	}
	if d.Note != "" {
		para(d.Note, st.Note.Render)
	}
	if a := d.Advice; a != nil {
		for _, b := range a.Bounds { // what arithmetic rules out, before the search
			if short {
				if !b.Impossible && !b.Breaker { // a note (when the last client can be through) gives way
					continue
				}
				para(words.BoundShort(b), st.Note.Render)
				continue
			}
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
		case n > 1 && short:
			found += fmt.Sprintf("%d meet every goal over all %d seeds.", n, a.Search.Seeds)
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
		loses := words.LosesMostLine
		if short {
			loses = words.LosesMostShort
		}
		if line := loses(a.Search.Goals, a.Meets, true); line != "" {
			para(line, st.Note.Render)
		}
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

// searchLine is the round the search is in and its time against the
// estimate: "The 30 most promising on 4 seeds; 12 s so far of about 1 min
// 13 s (estimated on 2 cores)."
func searchLine(d AdviceData) string {
	var round string
	switch n := d.RoundSeeds; {
	case n <= 1:
		round = "Every candidate on its first seed"
	case n == d.Seeds && n > min(advice.ScreenSeeds, d.Seeds):
		round = fmt.Sprintf("The %d most promising on all %d seeds", advice.KeepLast, n)
	case n == d.Seeds:
		round = fmt.Sprintf("The %d most promising on all %d seeds", advice.KeepFirst, n)
	default:
		round = fmt.Sprintf("The %d most promising on %d seeds", advice.KeepFirst, n)
	}
	so := words.Seconds(d.Elapsed) + " so far"
	switch {
	case d.Estimate <= 0:
	case d.Elapsed <= d.Estimate:
		so += fmt.Sprintf(" of about %s (estimated on %s)", words.Seconds(d.Estimate), cores(d.Cores))
	default:
		so += fmt.Sprintf(", past the %s estimated on %s", words.Seconds(d.Estimate), cores(d.Cores))
	}
	return round + "; " + so + "."
}

// cores is "1 core" or "4 cores".
func cores(n int) string {
	if n == 1 {
		return "1 core"
	}
	return fmt.Sprintf("%d cores", max(n, 1))
}

// AdviceEstimate is what a search will take, said before it runs: "A
// search over 20 seeds runs at most 834 crowds of 7,600 clients: about 1
// min 13 s on 2 cores."
func AdviceEstimate(seeds int, w advice.Work, secs float64, n int) string {
	s := "seeds"
	if seeds == 1 {
		s = "seed"
	}
	return fmt.Sprintf("A search over %d %s runs at most %s crowds of %s clients: about %s on %s.",
		seeds, s, words.Count(w.Crowds), words.Count(w.Clients), words.Seconds(max(secs, 1)), cores(n))
}

// goalHeads are the goals' columns' heads, and narrowHeads the short ones
// of a narrow pane. The attempts a client, as a goal and as a figure, are
// "per client": "attempts" is the policy's setting, the most it tries.
var (
	goalHeads   = [advice.NumKinds]string{"not through", "recovered", "peak", "peak/s", "p99", "per client"}
	narrowHeads = [advice.NumKinds]string{"not through", "recov", "peak", "peak/s", "p99", "each"}
)

// adviceSetting is a setting a candidate's row may show: its column's
// head and its value for a candidate, in words. A row shows the settings
// that differ among the candidates listed (issue 24, item 9: four rows that
// all read "yours").
type adviceSetting struct {
	head   string
	cell   func(scenario backoff.Settings, c advice.Candidate) string
	minor  bool // gives way before the goals' values: the growth, the limit in all
	policy bool // the policy's own: the five's and a preset's name says it
}

// adviceSettings are the settings a row may show, the most telling first:
// the last give way first where the pane is narrow.
var adviceSettings = []adviceSetting{
	{"first", func(_ backoff.Settings, c advice.Candidate) string { return words.Human(c.Policy.FirstWait) }, false, true},
	{"longest", func(_ backoff.Settings, c advice.Candidate) string { return words.Human(c.Policy.LongestWait) }, false, true},
	{"jitter", func(_ backoff.Settings, c advice.Candidate) string { return c.Policy.Jitter.String() }, false, true},
	{"attempts", func(_ backoff.Settings, c advice.Candidate) string { return fmt.Sprint(c.Policy.Attempts) }, false, true},
	{"budget", func(_ backoff.Settings, c advice.Candidate) string { return c.Settings.Budget.String() }, false, false},
	{"breaker", func(_ backoff.Settings, c advice.Candidate) string { return c.Settings.Breaker.String() }, false, false},
	{"service", func(s backoff.Settings, c advice.Candidate) string {
		if ch := advice.ServiceChanges(s, c.Settings); len(ch) > 0 {
			return strings.Join(ch, ", ")
		}
		return "as it is"
	}, false, false},
	{"growth", func(_ backoff.Settings, c advice.Candidate) string {
		if c.Policy.Growth == backoff.GrowthLinear {
			return c.Policy.Growth.String()
		}
		return "x" + backoff.FormatThousandths(c.Policy.Multiplier)
	}, true, true},
	{"in all", func(_ backoff.Settings, c advice.Candidate) string {
		if c.Policy.MaxElapsed == 0 {
			return "no limit"
		}
		return words.Human(c.Policy.MaxElapsed)
	}, true, true},
}

// differing are the settings that tell candidates apart, in
// adviceSettings' order: those that differ between two of them, but for
// the policy's own where two of the five or the presets differ in name
// (full jitter's jitter tells nothing fixed's name does not); where none
// does, the budget.
func differing(scenario backoff.Settings, cs []advice.Candidate) []adviceSetting {
	var out []adviceSetting
	apart := func(set adviceSetting, a, b advice.Candidate) bool {
		if set.policy && !a.Custom() && !b.Custom() && a.Policy.Name != b.Policy.Name {
			return false
		}
		return set.cell(scenario, a) != set.cell(scenario, b)
	}
	for _, set := range adviceSettings {
	pairs:
		for i, a := range cs {
			for _, b := range cs[i+1:] {
				if apart(set, a, b) {
					out = append(out, set)
					break pairs
				}
			}
		}
	}
	if len(out) == 0 {
		out = append(out, adviceSettings[4])
	}
	return out
}

// rowName is a candidate's policy as its row names it: the five's or a
// preset's name, "yours" for one of one's own.
func rowName(c advice.Candidate) string {
	if c.Custom() {
		return "yours"
	}
	return c.Policy.Name
}

// AdviceTable is the table's columns and rows for a width: a row per
// candidate shown, its rank, its policy's name ("yours" for one of one's
// own), the settings that differ among the candidates (first wait, longest
// wait, jitter, attempts, budget, breaker, the service's remedies, growth,
// limit on total time), each goal ticked (✓) or missed (✗) with its value at the
// 95th percentile, the attempts a client and the p99 latency (medians).
// Where the width is short it leaves out the p99, then the attempts a
// client, shortens the heads, leaves out the growth and the limit in all,
// then the goals' values, keeping their marks (and the settings), then puts
// the marks in one column, "goals", in the goals' order
// (or leaves them out, where every candidate meets every goal: ticks alone
// tell nothing apart), and last leaves out the settings from the least
// telling: no cell is ever cut.
func AdviceTable(d AdviceData, chosen, w int) ([]table.Column, []table.Row) {
	cs := d.Shown()
	if len(cs) == 0 {
		return nil, nil
	}
	scenario := d.Advice.Search.Settings
	settings := differing(scenario, cs)
	_, attemptsGoal := d.Advice.Search.Goals.Get(advice.Attempts)
	// The goals' marks: a column each, one column of them all, or none.
	const (
		noMarks = iota
		oneColumn
		columns
	)
	type layout struct {
		p99, each, values, heads bool
		marks                    int
		settings                 uint // which of settings: bit i for settings[i]
	}
	build := func(l layout) ([]table.Column, []table.Row) {
		heads := []string{"#", "policy"}
		for i, set := range settings {
			if l.settings&(1<<i) != 0 {
				heads = append(heads, set.head)
			}
		}
		if l.marks == oneColumn {
			heads = append(heads, "goals")
		}
		for _, g := range d.Advice.Search.Goals.List() { // the goals searched: a verdict each
			if l.marks != columns {
				break
			}
			if l.heads {
				heads = append(heads, goalHeads[g.Kind])
			} else {
				heads = append(heads, narrowHeads[g.Kind])
			}
		}
		if l.each {
			heads = append(heads, "per client")
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
			row := table.Row{rank, rowName(c)}
			for i, set := range settings {
				if l.settings&(1<<i) != 0 {
					row = append(row, set.cell(scenario, c))
				}
			}
			all := ""
			for _, v := range c.Verdicts {
				mark := "✓"
				if !v.Met {
					mark = ErrorMark
				}
				all += mark
				if l.values {
					mark += " " + words.GoalShort(v)
				}
				if l.marks == columns {
					row = append(row, mark)
				}
			}
			if l.marks == oneColumn {
				row = append(row, all)
			}
			if l.each {
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
	n := len(settings)
	first := func(k int) uint { return 1<<k - 1 } // the k most telling
	every := first(n)
	layouts := []layout{{true, !attemptsGoal, true, true, columns, every}, {false, !attemptsGoal, true, true, columns, every}, {false, false, true, true, columns, every},
		{false, false, true, false, columns, every}}
	for k := n - 1; k >= 0 && settings[k].minor; k-- {
		layouts = append(layouts, layout{values: true, marks: columns, settings: first(k)})
	}
	layouts = append(layouts, layout{marks: columns, settings: every}, layout{marks: oneColumn, settings: every})
	marks := oneColumn
	if len(d.Advice.Meets) > 0 { // all meet: all ticks
		marks = noMarks
		layouts = append(layouts, layout{settings: every})
	}
	for k := n - 1; k >= 0; k-- {
		layouts = append(layouts, layout{marks: marks, settings: first(k)})
	}
	// Where none of those tells the rows apart, any choice of the settings
	// that does, the most settings first, the more telling among as many
	// (a setting that differs only where a name already says it gives way
	// to one that tells two rows apart).
	var choices []uint
	for set := every; set > 0; set-- {
		choices = append(choices, set)
	}
	sort.SliceStable(choices, func(i, j int) bool {
		a, b := choices[i], choices[j]
		if na, nb := bits.OnesCount(a), bits.OnesCount(b); na != nb {
			return na > nb
		}
		return bits.Reverse(a) > bits.Reverse(b) // the lower bits, the more telling
	})
	for _, set := range choices {
		layouts = append(layouts, layout{marks: marks, settings: set})
	}
	// The first layout that fits and tells every row apart; else the first
	// that fits.
	fit := -1
	for i, l := range layouts {
		cols, rows := build(l)
		if TableWidth(cols) > w {
			continue
		}
		if distinct(rows) {
			return cols, rows
		}
		if fit < 0 {
			fit = i
		}
	}
	if fit < 0 {
		fit = len(layouts) - 1
	}
	return build(layouts[fit])
}

// distinct reports whether no two rows read the same but for their rank.
func distinct(rows []table.Row) bool {
	seen := map[string]bool{}
	for _, r := range rows {
		k := strings.Join(r[1:], "\x00")
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
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

// DetailLevel is how much of the chosen candidate AdviceDetail shows, from
// the most: a short pane takes a lower level rather than cut the lines.
type DetailLevel int

const (
	DetailFull     DetailLevel = iota // its name, each goal, its figures, its command whole
	DetailCommand                     // its name, each goal, its command whole
	DetailOneLine                     // its name, each goal, its command on one line, cut
	DetailNameLine                    // its name and its command on one line, cut
	DetailName                        // its name
	NumDetailLevels
)

// AdviceDetail is the chosen candidate, under the table: its name, each
// goal met or missed and by how much, its figures' medians and 95th
// percentiles, and the crowd command that gives them (the c key copies
// it), as much as level says. A command whole is laid out by CommandLines,
// each line but the last ending in " \\", so that the lines copied from
// the screen run as one command; cut, it says so.
func AdviceDetail(d AdviceData, chosen, w int, level DetailLevel, st *Styles) string {
	cs := d.Shown()
	if chosen < 0 || chosen >= len(cs) || w <= 0 {
		return ""
	}
	c := cs[chosen]
	var lines []string
	lines = append(lines, st.Title.Render(prose(fmt.Sprintf("#%d %s", chosen+1, c.Name(d.Advice.Search.Settings)), w)))
	if level <= DetailOneLine {
		for _, v := range c.Verdicts {
			mark, style := "✓ meets", st.Good
			if !v.Met {
				mark, style = ErrorMark+" misses", st.Bad
			}
			lines = append(lines, style.Render(prose(mark+" "+v.Goal.String()+": "+words.GoalLine(v), w)))
		}
	}
	med := func(name string) string {
		sp := c.Spread.Spread(name)
		if strings.HasSuffix(name, "_ms") {
			return words.Human(sp.Median) + "/" + words.Human(sp.P95)
		}
		return words.Count(sp.Median) + "/" + words.Count(sp.P95)
	}
	if level == DetailFull {
		lines = append(lines, st.Muted.Render(prose(fmt.Sprintf("Median/p95: attempts %s, not through %s, recovered after %s, peak after back %s, p99 %s.",
			med("attempts"), med("not_through"), med("recovered_after_ms"), med("peak_after_back"), med("latency_p99_ms")), w)))
	}
	if d.Command == nil || level == DetailName {
		return strings.Join(lines, "\n")
	}
	cmd := d.Command(c)
	if level <= DetailCommand {
		lines = append(lines, st.Muted.Render(prose("Its crowd over the same seeds (c copies it):", w)))
		for _, l := range strings.Split(CommandLines(CommandParts(cmd), min(w, ProseWidth)), "\n") {
			lines = append(lines, st.Muted.Render(l)) // line by line: no padding after a \\
		}
		return strings.Join(lines, "\n")
	}
	lead := "Its crowd (c copies it whole): "
	if ansi.StringWidth(lead)+ansi.StringWidth(cmd) > w {
		lines = append(lines, st.Muted.Render(ansi.Truncate(lead+cmd, w, "…")))
	} else {
		lines = append(lines, st.Muted.Render(lead+cmd))
	}
	return strings.Join(lines, "\n")
}

// CommandParts are a command line's parts as CommandLines lays them out:
// the program and its command ("retry-planner crowd"), then each flag with
// its value, or alone where a flag follows it (a switch: --drop-expired).
func CommandParts(cmd string) []string {
	fields := strings.Fields(cmd)
	var parts []string
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case i == 0 && len(fields) > 1 && !strings.HasPrefix(fields[1], "-"):
			f += " " + fields[1]
			i++
		case strings.HasPrefix(f, "-") && i+1 < len(fields) && !strings.HasPrefix(fields[i+1], "-"):
			f += " " + fields[i+1]
			i++
		}
		parts = append(parts, f)
	}
	return parts
}
