package views

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/retryplanner/retry-planner/backoff"
)

// partialBlocks is the ramp of a bar's last cell, in eighths of a cell:
// a bar of n eighths is n/8 full blocks and partialBlocks[n%8].
var partialBlocks = [8]string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

const fullBlock = "█"

// BackMark is put between a second and its bar when the service is back in
// that second.
const BackMark = "▶"

// Bar is n against most drawn in at most width cells, to an eighth of a
// cell, and the cells it takes; any n above 0 shows at least an eighth.
func Bar(n, most, width int) (bar string, cells int) {
	if n <= 0 || most <= 0 || width <= 0 {
		return "", 0
	}
	eighths := int(int64(min(n, most)) * int64(width) * 8 / int64(most))
	eighths = max(eighths, 1)
	return strings.Repeat(fullBlock, eighths/8) + partialBlocks[eighths%8], (eighths + 7) / 8
}

// TimelineData is what pane 3 shows: the retries of each policy's crowd per
// second (backoff.Timeline with 1000 ms slots), the policy chosen, and
// whether all five are shown side by side.
type TimelineData struct {
	Crowds   []backoff.Result // the five, each with its series at 1000 ms slots
	Policy   backoff.Shape
	All      bool
	Outage   int
	Attempts int
}

// TimelineHead is the fixed top of pane 3: the policies and what the bars
// show; in all-five mode also each column's name.
func TimelineHead(d TimelineData, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 {
		return ""
	}
	back := fmt.Sprintf("; %s back at %s", BackMark, Millis(d.Outage))
	if !d.All {
		most := d.Crowds[d.Policy].Figures.MostInASlot
		title := st.Title.Render(fmt.Sprintf("%s: retries in each second", d.Policy)) +
			st.Muted.Render(fmt.Sprintf(", most %d%s", most, back))
		return PolicyRow(d.Policy, w, st) + "\n" + Wrap(title, w)
	}
	most := timelineMost(d.Crowds)
	title := st.Title.Render("All five on one scale: retries in each second") +
		st.Muted.Render(fmt.Sprintf(", most %d%s", most, back))
	g := timelineGeometry(d, w)
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", max(g.label+2, 0)))
	for _, p := range backoff.Shapes() {
		if p == d.Policy {
			name := cut("["+p.String()+"]", max(g.column-1, 0))
			b.WriteString(st.PolicySelected.Render(name) + strings.Repeat(" ", max(g.column-ansi.StringWidth(name), 0)))
		} else {
			b.WriteString(st.Muted.Render(padRight(cut(" "+p.String(), max(g.column-1, 0)), g.column)))
		}
	}
	return Wrap(title, w) + "\n" + Fit(b.String(), w, 1)
}

// timelineGeom is the widths of pane 3's rows: the label (the second, in
// ms), the counts, and in all-five mode each policy's column.
type timelineGeom struct {
	label, count, column, bar int
}

func timelineGeometry(d TimelineData, w int) timelineGeom {
	secs := timelineSeconds(d)
	last := 0
	if len(secs) > 0 {
		last = secs[len(secs)-1]
	}
	g := timelineGeom{label: len(Millis(last * 1000)), count: len(strconv.Itoa(max(timelineMost(d.Crowds), 1)))}
	rest := w - g.label - 3 // the label, then " ▶ "
	if d.All {
		g.column = max(rest/backoff.NumShapes, 0)
		g.bar = max(g.column-g.count-2, 0) // bar, space, count, space
	} else {
		g.column = rest
		g.bar = max(rest-g.count-1, 0)
	}
	return g
}

// timelineMost is the busiest second of all five policies: all-five mode
// draws every column on this one scale.
func timelineMost(crowds []backoff.Result) int {
	most := 0
	for _, c := range crowds {
		most = max(most, c.Figures.MostInASlot)
	}
	return most
}

// timelineSeconds are the rows of pane 3 in order: every second with a
// retry of the policy shown (of any policy, in all-five mode), and the
// second the service is back.
func timelineSeconds(d TimelineData) []int {
	backSec := d.Outage / 1000
	n := backSec + 1
	crowds := d.Crowds[:]
	if !d.All {
		crowds = d.Crowds[d.Policy : d.Policy+1]
	}
	for _, c := range crowds {
		n = max(n, c.Series.Len())
	}
	var secs []int
	for s := 0; s < n; s++ {
		keep := s == backSec
		for _, c := range crowds {
			keep = keep || count(c, s) > 0
		}
		if keep {
			secs = append(secs, s)
		}
	}
	return secs
}

// TimelineBody is pane 3's rows at width w, for a viewport to scroll: one
// row per second, the second's start in ms, the back mark, then the bar and
// its count (in all-five mode, one bar and count per policy). Bars before
// the service is back are drawn in one colour, from then on in another.
func TimelineBody(d TimelineData, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 {
		return ""
	}
	g := timelineGeometry(d, w)
	most := timelineMost(d.Crowds)
	if !d.All {
		most = d.Crowds[d.Policy].Figures.MostInASlot
	}
	// Each style is worked out once; a row then only joins strings.
	muted, back, bar, after, num := newPaint(st.Muted), newPaint(st.Back), newPaint(st.Bar), newPaint(st.BarAfter), newPaint(st.Count)
	mark := back.paint(BackMark)
	backSec := d.Outage / 1000
	var b strings.Builder
	for i, s := range timelineSeconds(d) {
		if i > 0 {
			b.WriteByte('\n')
		}
		label, gutter, bars := muted, " ", bar
		if s == backSec {
			label, gutter = back, mark
		}
		if s >= backSec {
			bars = after
		}
		b.WriteString(label.paint(padLeft(Millis(s*1000), g.label)))
		b.WriteString(" " + gutter + " ")
		if !d.All {
			n := count(d.Crowds[d.Policy], s)
			blocks, _ := Bar(n, most, g.bar)
			b.WriteString(bars.paint(blocks) + " " + num.paint(strconv.Itoa(n)))
			continue
		}
		for p, c := range d.Crowds {
			n := count(c, s)
			blocks, cells := Bar(n, most, g.bar)
			digits := ""
			if n > 0 {
				digits = strconv.Itoa(n)
			}
			b.WriteString(bars.paint(blocks) + " " + num.paint(digits))
			if p < len(d.Crowds)-1 {
				b.WriteString(strings.Repeat(" ", max(g.column-cells-1-len(digits), 0)))
			}
		}
	}
	out := b.String()
	// The geometry keeps every row within w unless w is too narrow for even
	// an empty bar and its count.
	if g.bar == 0 {
		out = Fit(out, w, Height(out))
	}
	return out
}

// paint is a style worked out once as the codes before and after the text,
// for views that style hundreds of short strings.
type paint struct{ pre, post string }

func newPaint(s lipgloss.Style) paint {
	pre, post, _ := strings.Cut(s.Render("x"), "x")
	return paint{pre, post}
}

func (p paint) paint(text string) string {
	if text == "" {
		return ""
	}
	return p.pre + text + p.post
}

func count(c backoff.Result, sec int) int {
	if c.Series == nil || sec < 0 || sec >= c.Series.Len() {
		return 0
	}
	return c.Series.Retries[sec]
}
