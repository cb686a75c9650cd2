package picture

import (
	"errors"
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// CrowdPictureHeight is the crowd picture's default height in points for
// rows of its panels.
func CrowdPictureHeight(rows int) int { return pictureHeader + 12 + max(rows, 1)*CrowdPanelHeight }

// policyColors tell the policies apart in the crowd picture, in the
// legend's order: Okabe and Ito's colours for those who see colours
// differently, then Paul Tol's and greys of three lightnesses. They repeat
// past 13, as many as there are policies to name.
var policyColors = []color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, {0xe6, 0x9f, 0x00, 0xff}, {0x00, 0x9e, 0x73, 0xff}, {0xcc, 0x79, 0xa7, 0xff},
	{0x56, 0xb4, 0xe9, 0xff}, {0xd5, 0x5e, 0x00, 0xff}, {0x55, 0x55, 0x55, 0xff}, {0x33, 0x22, 0x88, 0xff},
	{0x99, 0x99, 0x33, 0xff}, {0xdd, 0xcc, 0x77, 0xff}, {0x88, 0x22, 0x55, 0xff}, {0x11, 0x11, 0x11, 0xff},
	{0xb3, 0xb3, 0xb3, 0xff},
}

// crowdFigure is one panel of the crowd picture: a figure, by its JSON
// name, in the unit its title gives.
type crowdFigure struct {
	title, name string
	// unit turns the figure's value into the panel's unit, of the clients
	// where it is a figure a client.
	unit func(v int, of clientsOf, s backoff.Settings) float64
	// text is the value's label, in the words every face writes it in
	// (words.PerClient, words.Rate, words.Percent, words.Human): one
	// rounding per figure.
	text func(v int, of clientsOf, s backoff.Settings) string
	// alarm marks, above its bar, a policy whose service was still
	// overloaded when the load ended.
	alarm bool
	style barStyle
}

// barStyle is how a panel's bars are drawn: in the policies' colours, and
// with a breaker's figures in the style the pictures give them.
type barStyle int

const (
	plainBars   barStyle = iota
	hatchedBars          // short-circuited attempts: hatched in teal
	openedBars           // a breaker's openings: each bar under a ⊗
)

// crowdFigures are the figures the crowd picture draws, in order: the load
// the retries make, how the clients ended, and how long it took. Throttled
// needs a budget and out of time a limit on total time: without, they are
// left out unless a policy has some (a preset's limit). Without a capacity
// nothing is rejected and every policy is stable from the outage's end, so
// that panel is left out too.
func crowdFigures(s backoff.Settings, has func(name string) bool) []crowdFigure {
	// Where a client was lost, all through by is the last success.
	lost := has("not_through")
	// A share of the clients not through is of those the outage touched.
	share := func(v int, of clientsOf, _ backoff.Settings) float64 {
		return 100 * float64(v) / float64(max(of.touched, 1))
	}
	shareText := func(v int, of clientsOf, _ backoff.Settings) string { return words.Percent(v, of.touched) }
	seconds := func(v int, _ clientsOf, _ backoff.Settings) float64 { return float64(v) / 1000 }
	secondsText := func(v int, _ clientsOf, _ backoff.Settings) string { return words.Human(v) }
	perSecond := func(v int, _ clientsOf, s backoff.Settings) float64 { return float64(v) * 1000 / float64(s.Slot) }
	rateText := func(v int, _ clientsOf, s backoff.Settings) string {
		return strings.TrimSuffix(words.Rate(v, s.Slot), "/s")
	}
	figs := []crowdFigure{
		{title: "retries per client", name: "retries", unit: func(v int, of clientsOf, _ backoff.Settings) float64 {
			return float64(v) / float64(max(of.all, 1))
		}, text: func(v int, of clientsOf, _ backoff.Settings) string { return words.PerClient(v, of.all) }},
		{title: "busiest slot, retries a second", name: "most_in_a_slot", unit: perSecond, text: rateText},
		{title: "peak after back, attempts a second", name: "peak_after_back", unit: perSecond, text: rateText},
		{title: "gave up, % of clients touched", name: "gave_up", unit: share, text: shareText},
		{title: "throttled, % of clients touched", name: "throttled", unit: share, text: shareText},
		{title: "out of time, % of clients touched", name: "out_of_time", unit: share, text: shareText},
		{title: "stable from, seconds", name: "stable_from_ms", unit: seconds, text: secondsText, alarm: true},
		{title: words.LastSuccess(lost) + ", seconds", name: "all_through_by_ms", unit: seconds, text: secondsText},
		{title: "latency p99, seconds", name: "latency_p99_ms", unit: seconds, text: secondsText},
	}
	count := func(v int, _ clientsOf, _ backoff.Settings) float64 { return float64(v) }
	countText := func(v int, _ clientsOf, _ backoff.Settings) string { return words.Count(v) }
	// A queue: the capacity spent on clients that had left, or the requests
	// dropped unworked, and how full the queue got.
	if s.HasQueue() {
		if s.DropExpired {
			figs = append(figs, crowdFigure{title: "dropped, expired requests", name: "dropped", unit: count, text: countText})
		} else {
			figs = append(figs, crowdFigure{title: "wasted, expired requests worked on", name: "wasted", unit: count, text: countText})
		}
		figs = append(figs, crowdFigure{title: "queue peak, % of its limit", name: "queue_peak", unit: func(v int, _ clientsOf, s backoff.Settings) float64 {
			return 100 * float64(v) / float64(max(s.Queue, 1))
		}, text: func(v int, _ clientsOf, s backoff.Settings) string { return words.Percent(v, s.Queue) }})
	}
	// A breaker: the share of the attempts it failed at once, which never
	// reached the service, and how many times it opened, in the style
	// the pictures give them.
	if s.Breaker.On() {
		figs = append(figs, crowdFigure{title: "short-circuited, % of attempts", name: "short_circuited", unit: func(v int, of clientsOf, _ backoff.Settings) float64 {
			return 100 * float64(v) / float64(max(of.attempts, 1))
		}, text: func(v int, of clientsOf, _ backoff.Settings) string { return words.Percent(v, of.attempts) }, style: hatchedBars},
			crowdFigure{title: words.BreakerOpenedKey + ", times", name: "breaker_opened", unit: count, text: countText, style: openedBars})
	}
	var out []crowdFigure
	for _, f := range figs {
		if f.name == "throttled" && s.Budget.Kind == backoff.BudgetNone && !has(f.name) ||
			f.name == "out_of_time" && s.MaxElapsed == 0 && !has(f.name) ||
			f.name == "stable_from_ms" && s.Capacity == 0 {
			continue
		}
		out = append(out, f)
	}
	return out
}

// clientsOf are what a figure a client is of: all the clients, and those
// the outage touched, which a share of clients not through is of; and the
// attempts, which a share of attempts short-circuited is of.
type clientsOf struct{ all, touched, attempts int }

// crowdBar is one policy's bar in one panel: its value and the spread's
// median and 95th percentile, each absent when ok is false.
type crowdBar struct {
	value, median, p95   float64
	label                string // the value in words, when it has one
	hasValue, hasWhisker bool
}

// CrowdPicture draws the crowd's figures as bars, one panel for each figure
// in its own unit (retries per client; the busiest slot's retries and the
// peak of attempts after the service is back, a second; the shares of
// clients that gave up, were throttled or ran out of time; and in seconds
// when it was stable, when all got through and the 99th percentile of
// latency; with a queue what it wasted or dropped and its peak; with a
// breaker the share of the attempts it short-circuited, hatched, and how
// many times it opened, under ⊗), one bar per policy in the legend's colours, left to
// right in its order. The bars are the results' figures (one seed's); with a
// spread, each bar has a whisker from the median to the 95th percentile over
// its seeds, and with no results the bars are the medians. A figure no client
// reached (all through by, latency, when none got through) has no bar and
// says "none". format, width and height are as for TimelinePicture; the
// defaults are DefaultPictureWidth by CrowdPictureHeight of the panels' rows.
func CrowdPicture(s backoff.Settings, results []backoff.Result, spread *backoff.SeedsCrowd, format string, width, height int) ([]byte, error) {
	var names []string
	switch {
	case len(results) > 0:
		for _, r := range results {
			names = append(names, r.Policy.String())
		}
	case spread != nil && len(spread.Policies) > 0:
		for _, ps := range spread.Policies {
			names = append(names, ps.Policy.String())
		}
	default:
		return nil, errors.New("crowd picture: no policies to draw")
	}
	if spread != nil && len(results) > 0 {
		if len(spread.Policies) != len(results) {
			return nil, fmt.Errorf("crowd picture: %d policies, but the spread has %d", len(results), len(spread.Policies))
		}
		for i, ps := range spread.Policies {
			if ps.Policy.String() != names[i] {
				return nil, fmt.Errorf("crowd picture: policy %d is %s, but the spread's is %s", i+1, names[i], ps.Policy)
			}
		}
	}
	figs := crowdFigures(s, hasFigure(results, spread))
	const cols = 2
	rows := (len(figs) + cols - 1) / cols
	w, h, dpi, err := pictureSize(format, width, height, CrowdPictureHeight(rows))
	if err != nil {
		return nil, err
	}

	c, dc := pictureCanvas(format, w, h, dpi)
	var legend []legendEntry
	for i, n := range names {
		legend = append(legend, legendEntry{label: n, fill: policyColors[i%len(policyColors)]})
	}
	if s.Breaker.On() {
		legend = append(legend, legendEntry{label: words.ShortCircuitedKey, hatch: true}, legendEntry{label: words.BreakerOpenedKey, opened: true})
	}
	if spread != nil {
		legend = append(legend, legendEntry{label: "median to p95 over the seeds", line: whiskerStyle, marker: true})
	}
	head := fmt.Sprintf("The crowd: %s clients, the service back at %s", countText(s.Clients), secondsText(s.Outage))
	area := drawHeader(dc, pictureTitle(head, names, w-24), crowdSubtitle(s, results, spread), legend)

	plots := make([][]*plot.Plot, rows)
	for r := range plots {
		plots[r] = make([]*plot.Plot, cols)
	}
	for i, f := range figs {
		bars := make([]crowdBar, len(names))
		for j := range names {
			bars[j] = crowdBarOf(f, s, results, spread, j)
		}
		p := newPicturePlot()
		p.Title.Text = fitText(p.Title.TextStyle, f.title, w/cols-30)
		p.X.Min, p.X.Max = 0, float64(len(names))
		p.X.Tick.Marker = plot.ConstantTicks{}
		top := 0.0
		for _, b := range bars {
			if b.hasValue {
				top = max(top, b.value)
			}
			if b.hasWhisker {
				top = max(top, b.p95, b.median)
			}
		}
		// The peak after back is held against what a slot serves: the
		// capacity, drawn across its panel.
		var rule *capacityRule
		if f.name == "peak_after_back" && s.Capacity > 0 {
			rate := float64(s.SlotCapacity(s.Outage/s.Slot, s.Slot)) * 1000 / float64(s.Slot)
			rule = &capacityRule{rate: rate, label: "capacity " + words.Rate(s.SlotCapacity(s.Outage/s.Slot, s.Slot), s.Slot)}
			top = max(top, rate)
		}
		pb := policyBars{bars: bars, style: f.style}
		room := 1.18 // above the tallest bar, for its label
		if f.style == openedBars {
			room = 1.3 // and a breaker's mark under it
		}
		for _, r := range results {
			pb.alarms = append(pb.alarms, f.alarm && r.Figures.StillOverloaded)
			if f.alarm && r.Figures.StillOverloaded {
				room = 1.34 // and an alarm above that
			}
		}
		p.Y.Min, p.Y.Max = 0, max(top*room, 1e-9)
		if top == 0 {
			p.Y.Max = 1
		}
		p.Y.Tick.Marker = niceTicks{most: 4}
		p.Add(gridLines{}, pb)
		if rule != nil {
			p.Add(*rule)
		}
		plots[i/cols][i%cols] = p
	}
	// An odd panel out leaves its tile empty: Align skips a nil plot.
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: 24, PadY: 12, PadLeft: 6, PadRight: 14, PadBottom: 6}
	canvases := plot.Align(plots, tiles, area)
	for r := range plots {
		for col, p := range plots[r] {
			if p != nil {
				p.Draw(canvases[r][col])
			}
		}
	}
	return pictureBytes(format, c)
}

// hasFigure reports whether a figure, by its JSON name, is above 0 for
// some policy of the results or some seed of the spread.
func hasFigure(results []backoff.Result, spread *backoff.SeedsCrowd) func(name string) bool {
	return func(name string) bool {
		field, _ := backoff.FindField(name)
		for _, r := range results {
			if field.Get(r.Figures) > 0 {
				return true
			}
		}
		if spread != nil {
			for _, ps := range spread.Policies {
				if ps.Spread(name).Worst > 0 {
					return true
				}
			}
		}
		return false
	}
}

// crowdBarOf is policy j's bar in figure f's panel.
func crowdBarOf(f crowdFigure, s backoff.Settings, results []backoff.Result, spread *backoff.SeedsCrowd, j int) crowdBar {
	field, _ := backoff.FindField(f.name)

	present := func(v int) bool { return !field.Optional || v >= 0 }
	var b crowdBar
	if spread != nil {
		ps := spread.Policies[j]
		clients := clientsOf{all: ps.Spread("clients").Median, touched: ps.Spread("clients_touched").Median, attempts: ps.Spread("attempts").Median}
		sp := ps.Spread(f.name)
		if present(sp.Median) && present(sp.P95) {
			b.median, b.p95, b.hasWhisker = f.unit(sp.Median, clients, s), f.unit(sp.P95, clients, s), true
		}
		if len(results) == 0 && present(sp.Median) {
			b.value, b.label, b.hasValue = f.unit(sp.Median, clients, s), f.text(sp.Median, clients, s), true
		}
	}
	if len(results) > 0 {
		fig := results[j].Figures
		if v := field.Get(fig); present(v) {
			of := clientsOf{all: fig.Clients, touched: fig.ClientsTouched, attempts: fig.Attempts}
			b.value, b.label, b.hasValue = f.unit(v, of, s), f.text(v, of, s), true
		}
	}
	return b
}

func crowdSubtitle(s backoff.Settings, results []backoff.Result, spread *backoff.SeedsCrowd) []string {
	parts := append(serviceText(s), "slots of "+secondsText(s.Slot))
	switch {
	case spread == nil:
	case len(results) == 0:
		parts = append(parts, fmt.Sprintf("bars: the median over %s seeds from %d", countText(spread.Count), spread.First))
	default:
		parts = append(parts, fmt.Sprintf("bars: seed %d", s.Seed), fmt.Sprintf("whiskers: %s seeds from %d", countText(spread.Count), spread.First))
	}
	return parts
}

// A whisker is drawn in ink over a white halo, so that it shows on a bar
// of any colour, and at least minWhisker tall, so that a spread the bar's
// top hides still shows as a mark.
var (
	whiskerStyle = draw.LineStyle{Color: inkColor, Width: 1.2}
	whiskerHalo  = draw.LineStyle{Color: color.White, Width: 3.4}
)

// minWhisker is the least height a whisker is drawn, in points.
const minWhisker = vg.Length(4)

// whiskerEnds are a whisker's ends from lo to hi (in either order), spread
// about their middle to at least minWhisker apart.
func whiskerEnds(lo, hi vg.Length) (vg.Length, vg.Length) {
	if lo > hi {
		lo, hi = hi, lo
	}
	if hi-lo < minWhisker {
		mid := (lo + hi) / 2
		lo, hi = mid-minWhisker/2, mid+minWhisker/2
	}
	return lo, hi
}

// capacityRule is the capacity across a panel of rates a second, labelled
// at its right end.
type capacityRule struct {
	rate  float64
	label string
}

func (cr capacityRule) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(cr.rate)
	c.StrokeLine2(capacityStyle, c.Min.X, y, c.Max.X, y)
	ts := pictureFont(7.5, false)
	ts.XAlign, ts.YAlign = draw.XRight, draw.YBottom
	// On a white ground, as the outage's label: a bar may stand behind it.
	right, w, h := c.Max.X-2, ts.Width(cr.label), ts.Height(cr.label)
	c.FillPolygon(color.White, []vg.Point{{X: right - w - 2, Y: y + 1}, {X: right + 1, Y: y + 1}, {X: right + 1, Y: y + h + 2}, {X: right - w - 2, Y: y + h + 2}})
	c.FillText(ts, vg.Point{X: right, Y: y + 2}, cr.label)
}

// policyBars draws a panel's bars, one for each policy, each with its value
// above it (or "none") and its whisker when it has one.
type policyBars struct {
	bars   []crowdBar
	alarms []bool // policy i's service still overloaded: "overloaded" above its label
	style  barStyle
}

func (pb policyBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	ls := pictureFont(7.5, false)
	ls.XAlign, ls.YAlign = draw.XCenter, draw.YBottom
	for i, b := range pb.bars {
		x0, x1 := trX(float64(i)+0.12), trX(float64(i)+0.88)
		mid := (x0 + x1) / 2
		labelAt := trY(0)
		if b.hasValue {
			labelAt = trY(b.value)
			if b.value > 0 {
				c.FillPolygon(policyColors[i%len(policyColors)], []vg.Point{{X: x0, Y: trY(0)}, {X: x1, Y: trY(0)}, {X: x1, Y: labelAt}, {X: x0, Y: labelAt}})
				if pb.style == hatchedBars {
					hatch(c, vg.Point{X: x0, Y: trY(0)}, vg.Point{X: x1, Y: labelAt})
				}
			}
		}
		if b.hasWhisker {
			lo, hi := whiskerEnds(trY(b.median), trY(b.p95))
			cap := (x1 - x0) / 4
			for _, style := range []draw.LineStyle{whiskerHalo, whiskerStyle} {
				c.StrokeLine2(style, mid, lo, mid, hi)
				c.StrokeLine2(style, mid-cap, lo, mid+cap, lo)
				c.StrokeLine2(style, mid-cap, hi, mid+cap, hi)
			}
			labelAt = max(labelAt, hi, lo)
		}
		label := "none"
		if b.hasValue {
			label = b.label
			if pb.style == openedBars && b.value > 0 {
				openedMark(c, vg.Point{X: mid, Y: labelAt + 3 + openedRadius})
				labelAt += 4 + 2*openedRadius
			}
		}
		c.FillText(ls, vg.Point{X: mid, Y: labelAt + 2}, label)
		if i < len(pb.alarms) && pb.alarms[i] {
			as := pictureFont(7.5, true)
			as.Color, as.XAlign, as.YAlign = alarmColor, draw.XCenter, draw.YBottom
			c.FillText(as, vg.Point{X: mid, Y: labelAt + 2 + ls.Height(label)}, StillOverloadedLabel)
		}
	}
}

// StillOverloadedLabel is written above the stable-from bar of a policy
// whose service was still overloaded when the load ended.
const StillOverloadedLabel = "still overloaded"
