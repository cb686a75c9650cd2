package picture

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// Pictures for a design document: the retries over time and the crowd's
// figures, drawn with gonum.org/v1/plot as SVG or PNG. The same input always
// gives the same bytes: the SVG names its fonts rather than embedding them
// (Liberation Sans, which has Arial's metrics, so a reader without it sees
// Arial or Helvetica at the same widths), and neither writer records a date.

// The picture formats.
const (
	FormatSVG = "svg"
	FormatPNG = "png"
)

// The pictures' sizes. An SVG's size is in points, a PNG's in pixels; a
// width or height of 0 takes the default. A PNG is drawn at twice the
// density of the SVG's layout, so a default PNG is the default SVG at 2x,
// sharp on a high-density screen; a PNG of another width keeps the layout's
// proportions to its width, at least 1x.
const (
	DefaultPictureWidth = 800 // points
	TimelinePanelHeight = 170 // points a policy's panel takes by default
	CrowdPanelHeight    = 150 // points a row of the crowd's panels takes by default
	// MinPictureSide and MaxPictureSide bound a picture's width and height
	// (a PNG of 8000 x 8000 pixels takes 256 MB while it is drawn).
	MinPictureSide = 200
	MaxPictureSide = 8000
	pngScale       = 2 // a default PNG's pixels per point
)

// pictureHeader is the points the title, subtitle and legend take above the
// panels.
const pictureHeader = 62

// The colours. The three outcomes differ in lightness as well as hue
// (CIE L* about 26, 57 and 84), so that they stay apart printed in grey; a
// queue's wasted work is a crimson between served and rejected (L* about
// 40), its dropped requests a light violet (L* about 70).
var (
	servedColor   = color.RGBA{R: 0x1f, G: 0x3d, B: 0x73, A: 0xff} // dark blue
	rejectedColor = color.RGBA{R: 0xdd, G: 0x6a, B: 0x2a, A: 0xff} // orange
	downColor     = color.RGBA{R: 0xd2, G: 0xd2, B: 0xd2, A: 0xff} // light grey
	wastedColor   = color.RGBA{R: 0xa5, G: 0x0f, B: 0x3c, A: 0xff} // crimson
	droppedColor  = color.RGBA{R: 0xbc, G: 0xa6, B: 0xd9, A: 0xff} // light violet
	shortColor    = color.RGBA{R: 0x2a, G: 0x9d, B: 0x8f, A: 0xff} // teal: short-circuited, never reaching the service
	queueColor    = color.RGBA{R: 0x6b, G: 0x8e, B: 0xb0, A: 0xff} // grey blue: the queue's length
	alarmColor    = color.RGBA{R: 0xc0, G: 0x00, B: 0x00, A: 0xff} // a service still overloaded
	inkColor      = color.RGBA{R: 0x22, G: 0x22, B: 0x22, A: 0xff} // text and lines
	gridColor     = color.RGBA{R: 0xe4, G: 0xe4, B: 0xe4, A: 0xff}
)

// pictureFont is Liberation Sans, which the plot package carries.
func pictureFont(size vg.Length, bold bool) text.Style {
	f := font.Font{Typeface: "Liberation", Variant: "Sans"}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return text.Style{Color: inkColor, Font: font.From(f, size), Handler: plot.DefaultTextHandler}
}

// pictureSize checks a picture's format and size, fills in the defaults,
// and returns the size of its layout in points and the PNG's dots per inch.
func pictureSize(format string, width, height, defaultHeight int) (w, h vg.Length, dpi int, err error) {
	if format != FormatSVG && format != FormatPNG {
		return 0, 0, 0, fmt.Errorf("picture format %q: want svg or png", format)
	}
	scale := 1
	if format == FormatPNG {
		scale = pngScale
	}
	if width == 0 {
		width = DefaultPictureWidth * scale
	}
	if height == 0 {
		height = min(max(defaultHeight*width/(DefaultPictureWidth*scale)*scale, MinPictureSide), MaxPictureSide)
	}
	for _, side := range []int{width, height} {
		if side < MinPictureSide || side > MaxPictureSide {
			return 0, 0, 0, fmt.Errorf("picture of %d x %d: want each side from %d to %d", width, height, MinPictureSide, MaxPictureSide)
		}
	}
	if format == FormatSVG {
		return vg.Points(float64(width)), vg.Points(float64(height)), 0, nil
	}
	// The layout is DefaultPictureWidth points wide, or the width in pixels
	// when that is narrower, so that text keeps its size against the panels.
	dpi = max(72, int(math.Round(72*float64(width)/DefaultPictureWidth)))
	return vg.Length(float64(width) * 72 / float64(dpi)), vg.Length(float64(height) * 72 / float64(dpi)), dpi, nil
}

// pictureCanvas is a blank white canvas of the format.
func pictureCanvas(format string, w, h vg.Length, dpi int) (vg.CanvasWriterTo, draw.Canvas) {
	var c vg.CanvasWriterTo
	if format == FormatSVG {
		c = vgsvg.New(w, h)
	} else {
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}
	}
	dc := draw.New(c)
	dc.FillPolygon(color.White, []vg.Point{dc.Min, {X: dc.Max.X, Y: dc.Min.Y}, dc.Max, {X: dc.Min.X, Y: dc.Max.Y}})
	return c, dc
}

// pictureBytes writes the canvas out. In an SVG, each font is named with
// the families that share its metrics after it.
func pictureBytes(format string, c vg.CanvasWriterTo) ([]byte, error) {
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	if format == FormatSVG {
		return bytes.ReplaceAll(b.Bytes(), []byte("font-family:Liberation Sans;"),
			[]byte("font-family:Liberation Sans,Arial,Helvetica,sans-serif;")), nil
	}
	return b.Bytes(), nil
}

// newPicturePlot is a plot in the pictures' fonts, with thin grey grid
// lines and no padding between the axes and the data, so bars stand on the
// axis.
func newPicturePlot() *plot.Plot {
	p := plot.New()
	p.Title.TextStyle = pictureFont(10.5, true)
	p.Title.TextStyle.XAlign, p.Title.TextStyle.YAlign = draw.XCenter, draw.YTop
	p.Title.Padding = 4
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle = pictureFont(9.5, false)
		a.Label.TextStyle.XAlign, a.Label.TextStyle.YAlign = draw.XCenter, draw.YBottom
		tick := pictureFont(8.5, false)
		tick.XAlign, tick.YAlign = a.Tick.Label.XAlign, a.Tick.Label.YAlign
		a.Tick.Label = tick
		a.Tick.Length = 4
		a.Padding = 0
		a.Color, a.Tick.Color = inkColor, inkColor
	}
	p.Legend.TextStyle = pictureFont(9, false)
	return p
}

// gridLines draws a plot's horizontal grid at its y ticks, under the data.
type gridLines struct{}

func (gridLines) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	for _, t := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if t.Label == "" || t.Value <= p.Y.Min || t.Value > p.Y.Max {
			continue
		}
		y := trY(t.Value)
		c.StrokeLine2(draw.LineStyle{Color: gridColor, Width: 0.5}, c.Min.X, y, c.Max.X, y)
	}
}

// niceTicks marks an axis at steps of 1, 2 or 5 times a power of ten,
// about every span/most, with a minor tick between, labelled as numbers are
// written in the reports' text: 20,000 and 0.5.
type niceTicks struct{ most int }

func (n niceTicks) Ticks(low, high float64) []plot.Tick {
	if !(high > low) || math.IsInf(high-low, 0) {
		return nil
	}
	raw := (high - low) / float64(max(n.most, 1))
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ticks []plot.Tick
	first := math.Ceil(low/step-1e-9) * step
	for i := 0; ; i++ {
		v := first + float64(i)*step
		if v > high+step*1e-9 || i > 1000 {
			break
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: tickLabel(v, step)})
		if half := v + step/2; half < high {
			ticks = append(ticks, plot.Tick{Value: half})
		}
	}
	return ticks
}

// tickLabel writes v to the precision of step, with commas between
// thousands.
func tickLabel(v, step float64) string {
	decimals := max(0, int(math.Ceil(-math.Log10(step)-1e-9)))
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	if v < 0 && strings.Trim(s, "0.") != "" {
		s = "-" + s
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	out := groupThousands(whole)
	if hasFrac {
		out += "." + frac
	}
	return out
}

// groupThousands puts commas between the thousands of a run of digits,
// after any sign.
func groupThousands(digits string) string {
	sign := ""
	if strings.HasPrefix(digits, "-") {
		sign, digits = "-", digits[1:]
	}
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String()
}

// countText is a count with commas: 20,000.
func countText(n int) string { return groupThousands(strconv.Itoa(n)) }

// secondsText is a time in ms as a person says it: "10 s", "1.5 s",
// "250 ms".
func secondsText(ms int) string {
	switch {
	case ms < 1000 && ms != 0:
		return strconv.Itoa(ms) + " ms"
	case ms%1000 == 0:
		return countText(ms/1000) + " s"
	}
	return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) + " s"
}

// serviceText is the plan's service and draws in words, for a subtitle.
func serviceText(s backoff.Settings) []string {
	var parts []string
	switch {
	case s.HasQueue():
		timeout := "no timeout"
		if s.Timeout > 0 {
			timeout = "timeout " + secondsText(s.Timeout)
			if s.DropExpired {
				timeout += ", expired requests dropped"
			}
		}
		parts = append(parts, fmt.Sprintf("capacity %s a second from a queue of %s (%s, %s)", countText(s.Capacity), countText(s.Queue), s.QueueOrder, timeout))
	case s.Capacity > 0:
		parts = append(parts, "capacity "+countText(s.Capacity)+" a second")
	default:
		parts = append(parts, "no limit on capacity")
	}
	if s.Load > 0 {
		parts = append(parts, fmt.Sprintf("fresh load %s a second until %s", countText(s.Load), secondsText(s.LoadEnd())))
	} else {
		parts = append(parts, "no fresh load")
	}
	switch {
	case s.Budget.Kind == backoff.BudgetNone:
		parts = append(parts, "no retry budget")
	case s.Processes == backoff.PerClient:
		parts = append(parts, fmt.Sprintf("budget %s in each of %s processes, one a client", s.Budget, countText(s.ProcessCount())))
	case s.Processes > 1:
		parts = append(parts, fmt.Sprintf("budget %s in each of %s processes", s.Budget, countText(s.Processes)))
	default:
		parts = append(parts, "budget "+s.Budget.String())
	}
	if s.OutageHang > 0 {
		parts = append(parts, "the outage hangs "+secondsText(s.OutageHang))
	}
	if s.Breaker.On() {
		parts = append(parts, "breaker "+s.Breaker.String())
	}
	if s.RetryAfter > 0 {
		parts = append(parts, "retry after "+secondsText(s.RetryAfter))
	}
	return append(parts, s.Draws.String()+" draws", "seed "+strconv.Itoa(s.Seed))
}

// legendEntry is one entry of a picture's legend: a swatch of colour, or a
// line (dashed or not).
type legendEntry struct {
	label  string
	fill   color.Color // a swatch, or nil for a line
	line   draw.LineStyle
	marker bool // a whisker's mark
	hatch  bool // a swatch of short-circuited attempts' hatching
	opened bool // the mark of a breaker that opened
}

// Short-circuited attempts and the moments a breaker opened have a style
// of their own in every picture, as in pane 3 (╌ and ⊗): in teal
// (shortColor), the attempts filled or hatched, each opening a circled
// cross.
var (
	hatchStyle  = draw.LineStyle{Color: shortColor, Width: 0.9}
	openedStyle = draw.LineStyle{Color: shortColor, Width: 1.3}
)

// openedRadius is the radius of the mark of a breaker that opened, in
// points.
const openedRadius = vg.Length(3.5)

// openedMark draws the mark of a breaker that opened, ⊗, centred at at:
// one path.
func openedMark(c draw.Canvas, at vg.Point) {
	r := openedRadius
	var p vg.Path
	p.Move(vg.Point{X: at.X + r, Y: at.Y})
	p.Arc(at, r, 0, 2*math.Pi)
	p.Close()
	d := r * 0.7071 // the cross's arms end on the circle
	p.Move(vg.Point{X: at.X - d, Y: at.Y - d})
	p.Line(vg.Point{X: at.X + d, Y: at.Y + d})
	p.Move(vg.Point{X: at.X - d, Y: at.Y + d})
	p.Line(vg.Point{X: at.X + d, Y: at.Y - d})
	c.SetLineStyle(openedStyle)
	c.Stroke(p)
}

// hatch strokes lines rising at 45 degrees, 3.5 points apart, across the
// rectangle from lo to hi: one path.
func hatch(c draw.Canvas, lo, hi vg.Point) {
	const gap = vg.Length(3.5)
	h := hi.Y - lo.Y
	if h <= 0 || hi.X <= lo.X {
		return
	}
	var p vg.Path
	for off := gap/2 - h; off < hi.X-lo.X; off += gap {
		a := vg.Point{X: lo.X + off, Y: lo.Y}
		b := vg.Point{X: a.X + h, Y: hi.Y}
		if a.X < lo.X {
			a.Y += lo.X - a.X
			a.X = lo.X
		}
		if b.X > hi.X {
			b.Y -= b.X - hi.X
			b.X = hi.X
		}
		p.Move(a)
		p.Line(b)
	}
	c.SetLineStyle(hatchStyle)
	c.Stroke(p)
}

// pictureTitle is head and the policies' names, or how many there are when
// the names do not fit in width, cut short if even that does not fit.
func pictureTitle(head string, names []string, width vg.Length) string {
	ts := titleStyle()
	if title := head + "; " + words.And(names); ts.Width(title) <= width {
		return title
	}
	if len(names) == 1 {
		return fitText(ts, head+"; "+names[0], width)
	}
	return fitText(ts, fmt.Sprintf("%s; %d policies", head, len(names)), width)
}

// fitText is s, or as much of it as fits in width followed by "…".
func fitText(sty text.Style, s string, width vg.Length) string {
	if sty.Width(s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && sty.Width(string(r)+"…") > width {
		r = r[:len(r)-1]
	}
	return strings.TrimRight(string(r), " ,;:") + "…"
}

// titleStyle is a picture's title's.
func titleStyle() text.Style {
	ts := pictureFont(13, true)
	ts.YAlign = draw.YTop
	return ts
}

// drawHeader writes a picture's title and subtitle at the top of dc, and
// its legend in rows below them, and returns the canvas left below.
//
// The subtitle is its parts joined by " · ", on as many lines as it takes
// to stay inside the picture.
func drawHeader(dc draw.Canvas, title string, subtitle []string, legend []legendEntry) draw.Canvas {
	const left = 12
	top := dc.Max.Y - 8
	ts := titleStyle()
	dc.FillText(ts, vg.Point{X: dc.Min.X + left, Y: top}, title)
	top -= ts.Height(title) + 3
	ss := pictureFont(9.5, false)
	ss.YAlign = draw.YTop
	for _, line := range wrapParts(ss, subtitle, dc.Max.X-dc.Min.X-2*left) {
		dc.FillText(ss, vg.Point{X: dc.Min.X + left, Y: top}, line)
		top -= ss.Height(line) + 2
	}
	top -= 5

	ls := pictureFont(9, false)
	ls.YAlign = draw.YCenter
	x := dc.Min.X + left
	y := top - 5
	for _, e := range legend {
		width := 19 + ls.Width(e.label)
		if x > dc.Min.X+left && x+width > dc.Max.X-left {
			x, y = dc.Min.X+left, y-16 // a row of its own when this one is full
		}
		switch {
		case e.fill != nil:
			dc.FillPolygon(e.fill, []vg.Point{{X: x, Y: y - 5}, {X: x + 14, Y: y - 5}, {X: x + 14, Y: y + 5}, {X: x, Y: y + 5}})
		case e.hatch:
			hatch(dc, vg.Point{X: x, Y: y - 5}, vg.Point{X: x + 14, Y: y + 5})
		case e.opened:
			openedMark(dc, vg.Point{X: x + 7, Y: y})
		case e.marker:
			dc.StrokeLine2(e.line, x+7, y-5, x+7, y+5)
			dc.StrokeLine2(e.line, x+3, y+5, x+11, y+5)
			dc.StrokeLine2(e.line, x+3, y-5, x+11, y-5)
		default:
			dc.StrokeLine2(e.line, x, y, x+14, y)
		}
		dc.FillText(ls, vg.Point{X: x + 19, Y: y}, e.label)
		x += width + 16
	}
	below := dc
	below.Max.Y = y - 12
	return below
}

// wrapParts joins parts with " · " into lines no wider than width, a part
// that is wider on a line of its own.
func wrapParts(sty text.Style, parts []string, width vg.Length) []string {
	var lines []string
	line := ""
	for _, part := range parts {
		switch {
		case line == "":
			line = part
		case sty.Width(line+" · "+part) <= width:
			line += " · " + part
		default:
			lines = append(lines, line)
			line = part
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
