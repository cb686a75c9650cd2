package picture

import (
	"errors"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// MaxTimelineBars is the most bars a timeline's panel draws: past it,
// neighbouring slots are drawn together as one bar, as many as it takes (a
// bar then counts its slots' attempts over their whole width), and the
// subtitle says so.
const MaxTimelineBars = 500

// TimelinePictureHeight is a timeline's default height in points for n
// policies: the header, a panel each and the time axis's label. With a
// queue each policy has two panels: TimelinePictureHeight(2n).
func TimelinePictureHeight(n int) int { return pictureHeader + 24 + max(n, 1)*TimelinePanelHeight }

// TimelinePicture draws the attempts over time of each result, one panel
// per policy, stacked, on one shared scale: per slot of s.Slot a bar of the
// served, the rejected and those that failed while the service was down
// (with a breaker, those it short-circuited on top, and at each slot a
// breaker opened in a line and ⊗), in
// requests a second (count x 1000 / slot ms); the capacity per slot as a line
// in the same unit, when there is one; the outage's end as a dashed line,
// labelled; time in seconds. Each result must hold its Series (backoff.Run
// with Options{Series: true}). format is "svg" (width and height in points)
// or "png" (in pixels); 0 takes the defaults, DefaultPictureWidth and
// TimelinePictureHeight(len(results)) (twice as many pixels for a PNG).
//
// With a queue a bar stacks what became of each request where the service
// settled it: served, then the expired requests it wasted its capacity on
// (or dropped), so that those two stand against the capacity line, then the
// rejected and those that failed while it was down; an attempt that timed
// out is counted where its request was wasted or dropped. Under each
// policy's panel a second one draws the queue's length at each slot's end
// against its limit.
func TimelinePicture(s backoff.Settings, results []backoff.Result, format string, width, height int) ([]byte, error) {
	return TimelinePictureOf(s, results, TimelineView{}, format, width, height)
}

// TimelineView is how a timeline picture groups and where it starts: bars
// of RowMs (a whole number of slots; 0 for the slot, or more where the bars
// would pass MaxTimelineBars), and with FromBack only the time from the
// slot the service is back in on, scaled to what happens there.
type TimelineView struct {
	RowMs    int
	FromBack bool
}

// TimelinePictureOf is TimelinePicture drawn as v says.
func TimelinePictureOf(s backoff.Settings, results []backoff.Result, v TimelineView, format string, width, height int) ([]byte, error) {
	if len(results) == 0 {
		return nil, errors.New("timeline picture: no policies to draw")
	}
	slots := 0
	for _, r := range results {
		if r.Series == nil {
			return nil, fmt.Errorf("timeline picture: %s has no series: run it with backoff.Options{Series: true}", r.Policy)
		}
		if r.Series.Slot != s.Slot {
			return nil, fmt.Errorf("timeline picture: %s was counted per %d ms, the settings per %d ms", r.Policy, r.Series.Slot, s.Slot)
		}
		slots = max(slots, r.Series.Len())
	}
	queued := s.HasQueue()
	panels := len(results)
	if queued {
		panels *= 2
	}
	w, h, dpi, err := pictureSize(format, width, height, TimelinePictureHeight(panels))
	if err != nil {
		return nil, err
	}
	tl := newTimelineLayout(s, results, slots, v)

	c, dc := pictureCanvas(format, w, h, dpi)
	legend := []legendEntry{{label: "served", fill: servedColor}}
	switch {
	case queued && s.DropExpired:
		legend = append(legend, legendEntry{label: "dropped: its client had left", fill: droppedColor})
	case queued:
		legend = append(legend, legendEntry{label: "wasted: its client had left", fill: wastedColor})
	}
	legend = append(legend, legendEntry{label: "rejected", fill: rejectedColor}, legendEntry{label: "failed while down", fill: downColor})
	if s.Breaker.On() {
		legend = append(legend, legendEntry{label: words.ShortCircuitedKey, fill: shortColor}, legendEntry{label: words.BreakerOpenedKey, opened: true})
	}
	if s.Capacity > 0 {
		legend = append(legend, legendEntry{label: "capacity", line: capacityStyle})
	}
	if queued {
		legend = append(legend, legendEntry{label: "the queue's length", fill: queueColor}, legendEntry{label: "its limit", line: limitStyle})
	}
	legend = append(legend, legendEntry{label: "the outage ends", line: outageStyle})
	area := drawHeader(dc, timelineTitle(s, results, w-24), tl.subtitle(s, results), legend)

	plots := make([][]*plot.Plot, 0, panels)
	for i, r := range results {
		p := newPicturePlot()
		p.Title.Text = fitText(p.Title.TextStyle, r.Policy.String()+": "+r.Policy.Describe(), w-40)
		p.X.Min, p.X.Max = tl.start, tl.end
		p.Y.Min, p.Y.Max = 0, tl.top
		p.X.Tick.Marker = niceTicks{most: 12}
		p.Y.Tick.Marker = niceTicks{most: 4}
		p.Y.Label.Text = "requests a second"
		if i == len(results)-1 && !queued {
			p.X.Label.Text = "seconds since the outage began"
		}
		p.Add(gridLines{}, slotBars(tl.bars(r.Series)))
		if s.Capacity > 0 {
			p.Add(capacityLine(tl.capacity))
		}
		if r.Series.Breaker {
			p.Add(openedMarks(tl.openings(r.Series)))
		}
		p.Add(outageMark{at: float64(s.Outage) / 1000, label: "back at " + secondsText(s.Outage)})
		plots = append(plots, []*plot.Plot{p})
		if queued {
			plots = append(plots, []*plot.Plot{tl.queuePlot(s, r, w, i == len(results)-1)})
		}
	}
	tiles := draw.Tiles{Rows: panels, Cols: 1, PadX: 0, PadY: 10, PadLeft: 6, PadRight: 14, PadBottom: 4}
	canvases := plot.Align(plots, tiles, area)
	for i := range plots {
		plots[i][0].Draw(canvases[i][0])
	}
	return pictureBytes(format, c)
}

// timelineLayout is what the panels share: the bars' width, the axes'
// ends and the capacity's steps.
type timelineLayout struct {
	perBar     int       // slots a bar holds
	barMs      int       // a bar's width in ms
	first      int       // the first slot drawn
	start, end float64   // the time axis's ends in s
	top        float64   // the rate axis's top
	capacity   []barRate // the capacity of each bar from the outage's on
	slots      int       // the most slots any series holds
	fromBack   bool
}

// barRate is a rate over a stretch of time, in seconds.
type barRate struct {
	from, to float64
	rate     float64
}

func newTimelineLayout(s backoff.Settings, results []backoff.Result, slots int, v TimelineView) timelineLayout {
	tl := timelineLayout{slots: max(slots, 1), fromBack: v.FromBack}
	if v.FromBack {
		tl.first = min(s.Outage/s.Slot, tl.slots-1)
	}
	span := tl.slots - tl.first
	row := max(v.RowMs/s.Slot, 1)
	// Whole rows, as many to a bar as keep the bars to MaxTimelineBars.
	tl.perBar = row * max(1, (span+row*MaxTimelineBars-1)/(row*MaxTimelineBars))
	tl.barMs = tl.perBar * s.Slot
	bars := (span + tl.perBar - 1) / tl.perBar
	tl.start = float64(tl.first*s.Slot) / 1000
	tl.end = tl.start + float64(bars)*float64(tl.barMs)/1000
	most := 0.0
	for _, r := range results {
		for _, b := range tl.bars(r.Series) {
			most = max(most, b.served+b.wasted+b.dropped+b.rejected+b.down+b.short)
		}
	}
	if s.Capacity > 0 {
		for b := max(s.Outage/s.Slot-tl.first, 0) / tl.perBar; b < bars; b++ {
			sum := 0
			for i := tl.first + b*tl.perBar; i < tl.first+(b+1)*tl.perBar; i++ {
				sum += s.SlotCapacity(i, s.Slot)
			}
			rate := float64(sum) * 1000 / float64(tl.barMs)
			tl.capacity = append(tl.capacity, barRate{from: tl.start + float64(b*tl.barMs)/1000, to: tl.start + float64((b+1)*tl.barMs)/1000, rate: rate})
			most = max(most, rate)
		}
	}
	// Room above the tallest bar for the outage's label.
	tl.top = max(most*1.12, 1)
	return tl
}

// timelineBar is one bar: its stretch of time in seconds and the rates of
// its parts, from the bottom; wasted and dropped only with a queue,
// short-circuited only with a breaker.
type timelineBar struct {
	from, to                                       float64
	served, wasted, dropped, rejected, down, short float64
}

// bars are a series' bars, one for each stretch that had an attempt, or
// with a queue a request the service wasted or dropped.
func (tl timelineLayout) bars(se *backoff.Series) []timelineBar {
	var out []timelineBar
	perSecond := 1000 / float64(tl.barMs)
	for b := 0; tl.first+b*tl.perBar < se.Len(); b++ {
		var served, wasted, dropped, rejected, down, short int
		for i := tl.first + b*tl.perBar; i < min(tl.first+(b+1)*tl.perBar, se.Len()); i++ {
			served, rejected, down = served+se.Served[i], rejected+se.Rejected[i], down+se.FailedWhileDown[i]
			if se.Queued {
				wasted, dropped = wasted+se.Wasted[i], dropped+se.Dropped[i]
			}
			if se.Breaker {
				short += se.ShortCircuited[i]
			}
		}
		if served+wasted+dropped+rejected+down+short == 0 {
			continue
		}
		out = append(out, timelineBar{from: tl.start + float64(b*tl.barMs)/1000, to: tl.start + float64((b+1)*tl.barMs)/1000,
			served: float64(served) * perSecond, wasted: float64(wasted) * perSecond, dropped: float64(dropped) * perSecond,
			rejected: float64(rejected) * perSecond, down: float64(down) * perSecond, short: float64(short) * perSecond})
	}
	return out
}

// openings are the middles, in seconds, of the bars in whose stretch a
// breaker opened, where the series counts them.
func (tl timelineLayout) openings(se *backoff.Series) []float64 {
	if !se.Breaker {
		return nil
	}
	var out []float64
	for b := 0; tl.first+b*tl.perBar < se.Len(); b++ {
		opened := 0
		for i := tl.first + b*tl.perBar; i < min(tl.first+(b+1)*tl.perBar, se.Len()); i++ {
			opened += se.Opened[i]
		}
		if opened > 0 {
			out = append(out, tl.start+(float64(b)+0.5)*float64(tl.barMs)/1000)
		}
	}
	return out
}

// queueLengths are the queue's length at the end of each bar's stretch (its
// last slot's), where the series holds one.
func (tl timelineLayout) queueLengths(se *backoff.Series) []barRate {
	var out []barRate
	if !se.Queued {
		return nil
	}
	for b := 0; b*tl.perBar < se.Len(); b++ {
		last := min((b+1)*tl.perBar, se.Len()) - 1
		out = append(out, barRate{from: float64(b*tl.barMs) / 1000, to: float64((b+1)*tl.barMs) / 1000, rate: float64(se.Queue[last])})
	}
	return out
}

// queuePlot is the panel under r's bars: the queue's length at each slot's
// end as a filled step, against its limit, on the bars' time axis.
func (tl timelineLayout) queuePlot(s backoff.Settings, r backoff.Result, w vg.Length, last bool) *plot.Plot {
	p := newPicturePlot()
	p.Title.Text = fitText(p.Title.TextStyle, fmt.Sprintf("%s: the queue's length at each slot's end, of at most %s", r.Policy, countText(s.Queue)), w-40)
	p.X.Min, p.X.Max = 0, tl.end
	p.Y.Min, p.Y.Max = 0, float64(s.Queue)*1.12
	p.X.Tick.Marker = niceTicks{most: 12}
	p.Y.Tick.Marker = niceTicks{most: 4}
	p.Y.Label.Text = "requests waiting"
	if last {
		p.X.Label.Text = "seconds since the outage began"
	}
	p.Add(gridLines{}, queueArea(tl.queueLengths(r.Series)), limitLine{limit: float64(s.Queue)},
		outageMark{at: float64(s.Outage) / 1000, label: "back at " + secondsText(s.Outage)})
	return p
}

func timelineTitle(s backoff.Settings, results []backoff.Result, width vg.Length) string {
	names := make([]string, len(results))
	for i, r := range results {
		names[i] = r.Policy.String()
	}
	return pictureTitle(fmt.Sprintf("Retries over time: %s clients, the service back at %s", countText(s.Clients), secondsText(s.Outage)), names, width)
}

func (tl timelineLayout) subtitle(s backoff.Settings, results []backoff.Result) []string {
	parts := serviceText(s)
	if tl.perBar > 1 {
		parts = append(parts, fmt.Sprintf("bars of %s (%d slots of %s)", secondsText(tl.barMs), tl.perBar, secondsText(s.Slot)))
	} else {
		parts = append(parts, "slots of "+secondsText(s.Slot))
	}
	if tl.fromBack {
		parts = append(parts, "from the service's return on, scaled to it")
	}
	for _, r := range results {
		if r.Series.Truncated {
			parts = append(parts, fmt.Sprintf("counted for the first %s slots", countText(backoff.MaxSeriesSlots)))
			break
		}
	}
	return parts
}

// slotBars draws each bar as up to three filled rectangles, one for each
// part that is not empty, served at the bottom: one SVG path each.
type slotBars []timelineBar

func (bars slotBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, b := range bars {
		// A hair wider than the slot, so that neighbouring bars meet with
		// no seam of background where a renderer smooths their edges.
		x0, x1 := trX(b.from), min(trX(b.to)+0.3, c.Max.X)
		y := 0.0
		for _, part := range []struct {
			rate  float64
			color color.Color
		}{{b.served, servedColor}, {b.wasted, wastedColor}, {b.dropped, droppedColor}, {b.rejected, rejectedColor}, {b.down, downColor}, {b.short, shortColor}} {
			if part.rate <= 0 {
				continue
			}
			y0, y1 := trY(y), trY(y+part.rate)
			c.FillPolygon(part.color, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
			y += part.rate
		}
	}
}

// openedMarks are the moments a breaker opened, in seconds: at each, a
// thin line across the panel and the breaker's mark, ⊗, at its top.
type openedMarks []float64

func (om openedMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	top := c.Max.Y - openedRadius - 1
	for _, at := range om {
		x := trX(at)
		c.StrokeLine2(openedLineStyle, x, c.Min.Y, x, top-openedRadius)
		openedMark(c, vg.Point{X: x, Y: top})
	}
}

var (
	openedLineStyle = draw.LineStyle{Color: shortColor, Width: 0.6, Dashes: []vg.Length{2, 2}}
	capacityStyle   = draw.LineStyle{Color: inkColor, Width: 1.4}
	outageStyle     = draw.LineStyle{Color: inkColor, Width: 1, Dashes: []vg.Length{4, 3}}
	limitStyle      = draw.LineStyle{Color: alarmColor, Width: 1, Dashes: []vg.Length{2, 2}}
)

// queueArea is the queue's length, a filled step from stretch to stretch:
// one SVG path.
type queueArea []barRate

func (qa queueArea) Plot(c draw.Canvas, p *plot.Plot) {
	if len(qa) == 0 {
		return
	}
	trX, trY := p.Transforms(&c)
	pts := []vg.Point{{X: trX(qa[0].from), Y: trY(0)}}
	for _, b := range qa {
		pts = append(pts, vg.Point{X: trX(b.from), Y: trY(b.rate)}, vg.Point{X: trX(b.to), Y: trY(b.rate)})
	}
	pts = append(pts, vg.Point{X: trX(qa[len(qa)-1].to), Y: trY(0)})
	c.FillPolygon(queueColor, c.ClipPolygonXY(pts))
}

// limitLine is the queue's limit across the panel.
type limitLine struct{ limit float64 }

func (l limitLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(l.limit)
	c.StrokeLine2(limitStyle, c.Min.X, y, c.Max.X, y)
}

// capacityLine is the capacity of each bar, a step from bar to bar.
type capacityLine []barRate

func (cl capacityLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var pts []vg.Point
	for _, b := range cl {
		pts = append(pts, vg.Point{X: trX(b.from), Y: trY(b.rate)}, vg.Point{X: trX(b.to), Y: trY(b.rate)})
	}
	c.StrokeLines(capacityStyle, c.ClipLinesXY(pts)...)
}

// outageMark is the outage's end: a dashed line across the panel, and its
// label on a white ground at the top, beside the line on whichever side
// has room.
type outageMark struct {
	at    float64 // seconds
	label string
}

func (m outageMark) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(m.at)
	c.StrokeLine2(outageStyle, x, c.Min.Y, x, c.Max.Y)
	ts := pictureFont(8.5, false)
	ts.YAlign = draw.YTop
	width := ts.Width(m.label)
	left := x + 4
	if left+width > c.Max.X {
		left = x - 4 - width
	}
	top := c.Max.Y - 2
	c.FillPolygon(color.White, []vg.Point{{X: left - 2, Y: top - ts.Height(m.label) - 1}, {X: left + width + 2, Y: top - ts.Height(m.label) - 1},
		{X: left + width + 2, Y: top + 1}, {X: left - 2, Y: top + 1}})
	c.FillText(ts, vg.Point{X: left, Y: top}, m.label)
}
