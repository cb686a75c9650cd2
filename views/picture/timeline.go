package picture

import (
	"errors"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/retryplanner/retry-planner/backoff"
)

// MaxTimelineBars is the most bars a timeline's panel draws: past it,
// neighbouring slots are drawn together as one bar, as many as it takes (a
// bar then counts its slots' attempts over their whole width), and the
// subtitle says so.
const MaxTimelineBars = 500

// TimelinePictureHeight is a timeline's default height in points for n
// policies: the header, a panel each and the time axis's label.
func TimelinePictureHeight(n int) int { return pictureHeader + 24 + max(n, 1)*TimelinePanelHeight }

// TimelinePicture draws the attempts over time of each result, one panel
// per policy, stacked, on one shared scale: per slot of s.Slot a bar of the
// served, the rejected and those that failed while the service was down, in
// requests a second (count x 1000 / slot ms); the capacity per slot as a line
// in the same unit, when there is one; the outage's end as a dashed line,
// labelled; time in seconds. Each result must hold its Series (backoff.Run
// with Options{Series: true}). format is "svg" (width and height in points)
// or "png" (in pixels); 0 takes the defaults, DefaultPictureWidth and
// TimelinePictureHeight(len(results)) (twice as many pixels for a PNG).
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
	w, h, dpi, err := pictureSize(format, width, height, TimelinePictureHeight(len(results)))
	if err != nil {
		return nil, err
	}
	tl := newTimelineLayout(s, results, slots, v)

	c, dc := pictureCanvas(format, w, h, dpi)
	legend := []legendEntry{
		{label: "served", fill: servedColor},
		{label: "rejected", fill: rejectedColor},
		{label: "failed while down", fill: downColor},
	}
	if s.Capacity > 0 {
		legend = append(legend, legendEntry{label: "capacity", line: capacityStyle})
	}
	legend = append(legend, legendEntry{label: "the outage ends", line: outageStyle})
	area := drawHeader(dc, timelineTitle(s, results, w-24), tl.subtitle(s, results), legend)

	plots := make([][]*plot.Plot, len(results))
	for i, r := range results {
		p := newPicturePlot()
		p.Title.Text = fitText(p.Title.TextStyle, r.Policy.String()+": "+r.Policy.Describe(), w-40)
		p.X.Min, p.X.Max = tl.start, tl.end
		p.Y.Min, p.Y.Max = 0, tl.top
		p.X.Tick.Marker = niceTicks{most: 12}
		p.Y.Tick.Marker = niceTicks{most: 4}
		p.Y.Label.Text = "requests a second"
		if i == len(results)-1 {
			p.X.Label.Text = "seconds since the outage began"
		}
		p.Add(gridLines{}, slotBars(tl.bars(r.Series)))
		if s.Capacity > 0 {
			p.Add(capacityLine(tl.capacity))
		}
		p.Add(outageMark{at: float64(s.Outage) / 1000, label: "back at " + secondsText(s.Outage)})
		plots[i] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(results), Cols: 1, PadX: 0, PadY: 10, PadLeft: 6, PadRight: 14, PadBottom: 4}
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
			most = max(most, b.served+b.rejected+b.down)
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
// its three parts, from the bottom.
type timelineBar struct {
	from, to               float64
	served, rejected, down float64
}

// bars are a series' bars, one for each stretch that had an attempt.
func (tl timelineLayout) bars(se *backoff.Series) []timelineBar {
	var out []timelineBar
	perSecond := 1000 / float64(tl.barMs)
	for b := 0; tl.first+b*tl.perBar < se.Len(); b++ {
		var served, rejected, down int
		for i := tl.first + b*tl.perBar; i < min(tl.first+(b+1)*tl.perBar, se.Len()); i++ {
			served, rejected, down = served+se.Served[i], rejected+se.Rejected[i], down+se.FailedWhileDown[i]
		}
		if served+rejected+down == 0 {
			continue
		}
		out = append(out, timelineBar{from: tl.start + float64(b*tl.barMs)/1000, to: tl.start + float64((b+1)*tl.barMs)/1000,
			served: float64(served) * perSecond, rejected: float64(rejected) * perSecond, down: float64(down) * perSecond})
	}
	return out
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
		}{{b.served, servedColor}, {b.rejected, rejectedColor}, {b.down, downColor}} {
			if part.rate <= 0 {
				continue
			}
			y0, y1 := trY(y), trY(y+part.rate)
			c.FillPolygon(part.color, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
			y += part.rate
		}
	}
}

var (
	capacityStyle = draw.LineStyle{Color: inkColor, Width: 1.4}
	outageStyle   = draw.LineStyle{Color: inkColor, Width: 1, Dashes: []vg.Length{4, 3}}
)

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
