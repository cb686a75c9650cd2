package picture

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	_ "github.com/charmbracelet/x/exp/golden" // registers -update
	"gonum.org/v1/plot/vg/draw"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// serviceSettings are the pictures' case with a service: 20,000 clients,
// a 30 s outage, 2,000 a second served, 500 fresh a second, 1 s slots.
func serviceSettings() backoff.Settings {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Load, s.Slot = 20000, 30000, 2000, 500, 1000
	return s
}

// queueSettings are the worked metastable failure with a queue
// (2,000 clients, a 30 s outage, 4 attempts, 100 a second served, 95 fresh
// a second for 5 minutes, a queue of 1,000, a timeout of 1 s), in 10 s
// slots.
func queueSettings() backoff.Settings {
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Attempts, s.Capacity, s.Load, s.LoadUntil = 2000, 30000, 4, 100, 95, 300000
	s.Queue, s.Timeout, s.Slot = 1000, 1000, 10000
	return s
}

func policiesNamed(t *testing.T, s backoff.Settings, names ...string) []backoff.Policy {
	t.Helper()
	var out []backoff.Policy
	for _, n := range names {
		p, err := backoff.LookupPolicy(s, n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func runSeries(t *testing.T, s backoff.Settings, ps []backoff.Policy) []backoff.Result {
	t.Helper()
	rs, err := backoff.RunAll(ps, s, backoff.Options{Series: true}, 2)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// guardsSettings are the pictures' case of the client's guards: 2,000
// clients in 4 processes against 200 a second in 1 s slots, the outage
// hanging 5 s, a breaker 5:30s, pushback of 2 s.
func guardsSettings() backoff.Settings {
	s := backoff.Defaults()
	s.Clients, s.Capacity, s.Processes, s.Slot = 2000, 200, 4, 1000
	s.OutageHang, s.Breaker, s.RetryAfter = 5000, backoff.Breaker{Failures: 5, Open: 30000}, 2000
	return s
}

// timelineCase is a timeline picture's input.
type timelineCase struct {
	name    string
	s       backoff.Settings
	results []backoff.Result
}

func timelineCases(t *testing.T) []timelineCase {
	t.Helper()
	d := backoff.Defaults()
	svc := serviceSettings()
	q := queueSettings()
	dropped := q
	dropped.DropExpired = true
	guards := guardsSettings()
	return []timelineCase{
		{"timeline-defaults", d, runSeries(t, d, d.Five())},
		{"timeline-service", svc, runSeries(t, svc, policiesNamed(t, svc, "full jitter", "fixed"))},
		{"timeline-queue", q, runSeries(t, q, policiesNamed(t, q, "exponential"))},
		{"timeline-queue-dropped", dropped, runSeries(t, dropped, policiesNamed(t, dropped, "exponential", "full jitter"))},
		{"timeline-guards", guards, runSeries(t, guards, policiesNamed(t, guards, "exponential", "decorrelated"))},
	}
}

// svgPath is a <path> of an SVG: its fill colour, if it is filled, and its
// stroke's colour and width, if it is stroked.
type svgPath struct{ fill, stroke, width string }

// parseSVG parses an SVG as XML, all of it, and returns its paths and the
// text of its <text> elements.
func parseSVG(t *testing.T, svg []byte) (paths []svgPath, texts []string) {
	t.Helper()
	fill := regexp.MustCompile(`(?:^|;)fill:(#[0-9A-Fa-f]{6})`)
	stroke := regexp.MustCompile(`(?:^|;)stroke:(#[0-9A-Fa-f]{6})`)
	width := regexp.MustCompile(`(?:^|;)stroke-width:([0-9.]+)`)
	d := xml.NewDecoder(bytes.NewReader(svg))
	inText := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			inText = e.Name.Local == "text"
			if e.Name.Local == "path" {
				var p svgPath
				for _, a := range e.Attr {
					if a.Name.Local != "style" {
						continue
					}
					if m := fill.FindStringSubmatch(a.Value); m != nil {
						p.fill = strings.ToUpper(m[1])
					}
					if m := stroke.FindStringSubmatch(a.Value); m != nil {
						p.stroke = strings.ToUpper(m[1])
					}
					if m := width.FindStringSubmatch(a.Value); m != nil {
						p.width = m[1]
					}
				}
				paths = append(paths, p)
			}
		case xml.CharData:
			if inText {
				texts = append(texts, string(e))
			}
		case xml.EndElement:
			inText = false
		}
	}
	return paths, texts
}

// strokedAs counts the paths stroked, unfilled, in style.
func strokedAs(paths []svgPath, style draw.LineStyle) int {
	n := 0
	for _, p := range paths {
		if p.fill == "" && p.stroke == hexColor(style.Color) && p.width == strconv.FormatFloat(float64(style.Width), 'g', -1, 64) {
			n++
		}
	}
	return n
}

func hexColor(c interface{ RGBA() (r, g, b, a uint32) }) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// The SVG holds one filled rectangle for each part of each bar that is not
// empty (served, rejected, failed while down: one bar per non-empty slot and
// policy), and one swatch of each in the legend: counted by colour.
func TestTimelinePictureBars(t *testing.T) {
	for _, tc := range timelineCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			svg, err := TimelinePicture(tc.s, tc.results, FormatSVG, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			paths, texts := parseSVG(t, svg)
			want := map[string]int{hexColor(servedColor): 1, hexColor(rejectedColor): 1, hexColor(downColor): 1}
			// With a queue: a swatch of wasted or dropped, whichever the
			// settings make, and of the queue's length, whose area is one
			// path a policy.
			if tc.s.HasQueue() {
				want[hexColor(wastedColor)], want[hexColor(droppedColor)] = 1, 0
				if tc.s.DropExpired {
					want[hexColor(wastedColor)], want[hexColor(droppedColor)] = 0, 1
				}
				want[hexColor(queueColor)] = 1 + len(tc.results)
			}
			// With a breaker: a swatch of short-circuited, and a part of
			// each bar that had any; without one, none.
			want[hexColor(shortColor)] = 0
			if tc.s.Breaker.On() {
				want[hexColor(shortColor)] = 1
			}
			bars := 0
			for _, r := range tc.results {
				se := r.Series
				if se.Len() > MaxTimelineBars {
					t.Fatalf("%s: %d slots: want a case of at most %d, one bar a slot", r.Policy, se.Len(), MaxTimelineBars)
				}
				for i := range se.Len() {
					if se.Attempts(i) > 0 {
						bars++
					}
					parts := map[string]int{hexColor(servedColor): se.Served[i], hexColor(rejectedColor): se.Rejected[i], hexColor(downColor): se.FailedWhileDown[i]}
					if se.Queued {
						parts[hexColor(wastedColor)], parts[hexColor(droppedColor)] = se.Wasted[i], se.Dropped[i]
					}
					if se.Breaker {
						parts[hexColor(shortColor)] = se.ShortCircuited[i]
					}
					for c, n := range parts {
						if n > 0 {
							want[c]++
						}
					}
				}
			}
			got := map[string]int{}
			for _, p := range paths {
				got[p.fill]++
			}
			for c, n := range want {
				if got[c] != n {
					t.Errorf("paths filled %s: got %d, want %d", c, got[c], n)
				}
			}
			if bars == 0 || got[hexColor(servedColor)] == 1 {
				t.Errorf("got %d bars and %d served parts: want a case with some of each", bars, got[hexColor(servedColor)])
			}
			all := strings.Join(texts, "\n")
			for _, r := range tc.results {
				if !strings.Contains(all, r.Policy.String()+": "+r.Policy.Describe()) {
					t.Errorf("no panel titled %s: %s", r.Policy, r.Policy.Describe())
				}
			}
			for _, w := range []string{"requests a second", "seconds since the outage began", "back at " + secondsText(tc.s.Outage), "seed 7"} {
				if !strings.Contains(all, w) {
					t.Errorf("no text %q in the SVG", w)
				}
			}
			// With a breaker: its key in the legend, and its mark there and
			// at each bar in whose stretch one opened, with a line across
			// the panel; without one, neither.
			marks, lines := 0, 0
			if tc.s.Breaker.On() {
				marks = 1
				for _, w := range []string{words.ShortCircuitedKey, words.BreakerOpenedKey} {
					if !strings.Contains(all, w) {
						t.Errorf("a breaker, yet no %q in the legend", w)
					}
				}
			}
			for _, r := range tc.results { // a bar a slot: checked above
				for i := range r.Series.Len() {
					if r.Series.Breaker && r.Series.Opened[i] > 0 {
						marks, lines = marks+1, lines+1
					}
				}
			}
			if got := strokedAs(paths, openedStyle); got != marks {
				t.Errorf("breakers' marks: got %d, want %d (one in the legend with a breaker, one for each slot one opened in)", got, marks)
			}
			if got := strokedAs(paths, openedLineStyle); got != lines {
				t.Errorf("lines where a breaker opened: got %d, want %d", got, lines)
			}
			if tc.s.Breaker.On() && lines == 0 {
				t.Errorf("a breaker that never opened: the case tests nothing")
			}
			queuePanel := "the queue's length at each slot's end, of at most"
			if got := strings.Count(all, queuePanel); tc.s.HasQueue() && got != len(tc.results) || !tc.s.HasQueue() && got != 0 {
				t.Errorf("%d panels of the queue's length, want one a policy with a queue, none without", got)
			}
			if tc.s.HasQueue() && (!strings.Contains(all, "requests waiting") || !strings.Contains(all, "from a queue of 1,000")) {
				t.Errorf("a queue, yet no axis of requests waiting or no queue in the subtitle: %s", all)
			}
		})
	}
}

// Past MaxTimelineBars slots, neighbouring slots make one bar: there are
// no more bars than that, each counts its slots, and the subtitle says so.
func TestTimelinePictureMergesSlots(t *testing.T) {
	s := backoff.Defaults()
	s.Slot = 10 // 26 s in 10 ms slots: 2,600 slots, 6 to a bar
	rs := runSeries(t, s, policiesNamed(t, s, "full jitter"))
	svg, err := TimelinePicture(s, rs, FormatSVG, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	paths, texts := parseSVG(t, svg)
	se := rs[0].Series
	per := (se.Len() + MaxTimelineBars - 1) / MaxTimelineBars
	want := 1 // the legend's swatch
	for b := 0; b*per < se.Len(); b++ {
		down := 0
		for i := b * per; i < min((b+1)*per, se.Len()); i++ {
			down += se.FailedWhileDown[i]
		}
		if down > 0 {
			want++
		}
	}
	got := 0
	for _, p := range paths {
		if p.fill == hexColor(downColor) {
			got++
		}
	}
	if per < 2 || got != want || got > MaxTimelineBars+1 {
		t.Errorf("%d slots, %d to a bar: got %d parts failed while down, want %d", se.Len(), per, got, want)
	}
	if all := strings.Join(texts, " "); !strings.Contains(all, fmt.Sprintf("bars of %d ms (%d slots of 10 ms)", per*10, per)) {
		t.Errorf("the subtitle does not say the bars hold %d slots: %s", per, all)
	}
}

func TestPicturePNGSize(t *testing.T) {
	tc := timelineCases(t)[1]
	d := backoff.Defaults()
	crowd := runSeries(t, d, d.Five())
	for _, tt := range []struct {
		name         string
		draw         func(w, h int) ([]byte, error)
		w, h         int
		wantW, wantH int
	}{
		{"timeline, asked", func(w, h int) ([]byte, error) { return TimelinePicture(tc.s, tc.results, FormatPNG, w, h) }, 1000, 700, 1000, 700},
		{"timeline, default", func(w, h int) ([]byte, error) { return TimelinePicture(tc.s, tc.results, FormatPNG, w, h) }, 0, 0,
			2 * DefaultPictureWidth, 2 * TimelinePictureHeight(2)},
		{"timeline, narrow", func(w, h int) ([]byte, error) { return TimelinePicture(tc.s, tc.results, FormatPNG, w, h) }, 333, 201, 333, 201},
		{"crowd, asked", func(w, h int) ([]byte, error) { return CrowdPicture(d, crowd, nil, FormatPNG, w, h) }, 1234, 987, 1234, 987},
		{"crowd, width only", func(w, h int) ([]byte, error) { return CrowdPicture(d, crowd, nil, FormatPNG, w, h) }, 800, 0, 800, CrowdPictureHeight(3)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.draw(tt.w, tt.h)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if got := img.Bounds().Size(); got.X != tt.wantW || got.Y != tt.wantH {
				t.Errorf("got %d x %d, want %d x %d", got.X, got.Y, tt.wantW, tt.wantH)
			}
		})
	}
}

// crowdCase is a crowd picture's input.
type crowdCase struct {
	name    string
	s       backoff.Settings
	results []backoff.Result
	spread  *backoff.SeedsCrowd
}

func crowdCases(t *testing.T) []crowdCase {
	t.Helper()
	d := backoff.Defaults()
	seeds := d
	seeds.Draws = backoff.Independent // the spread's draws unless one chooses the reference's
	sp, err := backoff.RunSeeds(d.Five(), seeds, 200, backoff.SeedOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	svc := serviceSettings()
	two := policiesNamed(t, svc, "full jitter", "fixed")
	svcSeeds := svc
	svcSeeds.Draws = backoff.Independent
	svcSpread, err := backoff.RunSeeds(two, svcSeeds, 20, backoff.SeedOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	q := queueSettings()
	g := guardsSettings()
	three := policiesNamed(t, g, "exponential", "full jitter", "decorrelated")
	gSeeds := g
	gSeeds.Draws = backoff.Independent
	gSpread, err := backoff.RunSeeds(three, gSeeds, 10, backoff.SeedOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return []crowdCase{
		{"crowd-defaults", d, runSeries(t, d, d.Five()), nil},
		{"crowd-seeds", d, runSeries(t, d, d.Five()), &sp},
		{"crowd-service", svc, runSeries(t, svc, two), &svcSpread},
		{"crowd-queue", q, runSeries(t, q, policiesNamed(t, q, "exponential", "full jitter", "decorrelated")), nil},
		{"crowd-guards", g, runSeries(t, g, three), &gSpread},
	}
}

func TestCrowdPicture(t *testing.T) {
	for _, tc := range crowdCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			svg, err := CrowdPicture(tc.s, tc.results, tc.spread, FormatSVG, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			paths, texts := parseSVG(t, svg)
			figs := crowdFigures(tc.s, hasFigure(tc.results, tc.spread))
			all := strings.Join(texts, "\n")
			wantBars := 0
			for _, f := range figs {
				if !strings.Contains(all, f.title) {
					t.Errorf("no panel titled %q", f.title)
				}
				field, _ := backoff.FindField(f.name)
				for _, r := range tc.results {
					if v := field.Get(r.Figures); v > 0 {
						wantBars++
					}
				}
			}
			got := 0
			for _, p := range paths {
				for _, c := range policyColors[:len(tc.results)] {
					if p.fill == hexColor(c) {
						got++
					}
				}
			}
			if got != wantBars+len(tc.results) {
				t.Errorf("got %d bars and swatches, want %d bars and %d swatches", got, wantBars, len(tc.results))
			}
			if tc.spread != nil && !strings.Contains(all, "median to p95 over the seeds") {
				t.Errorf("no whiskers in the legend")
			}
			// With a breaker, its two figures in a style of their own: the
			// short-circuited attempts' bars hatched, a mark over each bar
			// of a breaker that opened, each with its key in the legend;
			// without one, none.
			hatched, marks := 0, 0
			if tc.s.Breaker.On() {
				hatched, marks = 1, 1
				for _, w := range []string{words.ShortCircuitedKey, words.BreakerOpenedKey, "short-circuited, % of attempts", "breaker opened, times"} {
					if !strings.Contains(all, w) {
						t.Errorf("a breaker, yet no %q", w)
					}
				}
				for _, r := range tc.results {
					if r.Figures.ShortCircuited > 0 {
						hatched++
					}
					if r.Figures.BreakerOpened > 0 {
						marks++
					}
				}
				if hatched == 1 || marks == 1 {
					t.Errorf("a breaker that short-circuited nothing or never opened: the case tests nothing")
				}
			}
			if got := strokedAs(paths, hatchStyle); got != hatched {
				t.Errorf("hatched bars and swatches: got %d, want %d", got, hatched)
			}
			if got := strokedAs(paths, openedStyle); got != marks {
				t.Errorf("breakers' marks: got %d, want %d", got, marks)
			}
			// Each policy still overloaded when the load ended says so
			// above its stable-from bar, and no other.
			overloaded := 0
			for _, r := range tc.results {
				if r.Figures.StillOverloaded {
					overloaded++
				}
			}
			if got := strings.Count(all, StillOverloadedLabel); got != overloaded {
				t.Errorf("%q %d times, want %d: once for each policy still overloaded", StillOverloadedLabel, got, overloaded)
			}
		})
	}
}

func TestCrowdPictureFigures(t *testing.T) {
	d := backoff.Defaults()
	var names []string
	for _, f := range crowdFigures(d, func(string) bool { return false }) {
		names = append(names, f.name)
	}
	if got, want := strings.Join(names, " "), "retries most_in_a_slot peak_after_back gave_up all_through_by_ms latency_p99_ms"; got != want {
		t.Errorf("the defaults: got %s, want %s", got, want)
	}
	s := serviceSettings()
	s.Budget, s.MaxElapsed = backoff.Budget{Kind: backoff.BudgetAWS, A: 500, B: 5}, 60000
	if got := len(crowdFigures(s, func(string) bool { return false })); got != 9 {
		t.Errorf("with capacity, a budget and a limit: got %d figures, want all 9", got)
	}
	// A queue adds what the service wasted (or dropped) and its peak.
	q := queueSettings()
	for _, tt := range []struct {
		drop bool
		want string
	}{{false, "wasted queue_peak"}, {true, "dropped queue_peak"}} {
		q.DropExpired = tt.drop
		figs := crowdFigures(q, func(string) bool { return false })
		var last []string
		for _, f := range figs[len(figs)-2:] {
			last = append(last, f.name)
		}
		if got := strings.Join(last, " "); got != tt.want {
			t.Errorf("a queue, drop expired %v: the last figures %s, want %s", tt.drop, got, tt.want)
		}
		if peak := figs[len(figs)-1]; peak.unit(250, clientsOf{all: 30500, touched: 30500}, q) != 25 {
			t.Errorf("a queue peak of 250 of 1,000: got %v%%, want 25%%", peak.unit(250, clientsOf{all: 30500, touched: 30500}, q))
		}
	}
	// A breaker adds its two figures, last: the short-circuited attempts
	// as a share of all the attempts (9,780 of 12,000: 81.5%; of none, 0),
	// and how many times it opened, as counts. Without one, neither.
	g := guardsSettings()
	figs := crowdFigures(g, func(string) bool { return false })
	var last []string
	for _, f := range figs[len(figs)-2:] {
		last = append(last, f.name)
	}
	if got, want := strings.Join(last, " "), "short_circuited breaker_opened"; got != want {
		t.Fatalf("a breaker: the last figures %s, want %s", got, want)
	}
	short, opened := figs[len(figs)-2], figs[len(figs)-1]
	of := clientsOf{all: 2000, touched: 2000, attempts: 12000}
	if got, text := short.unit(9780, of, g), short.text(9780, of, g); got != 81.5 || text != "81.5%" || short.style != hatchedBars {
		t.Errorf("9,780 short-circuited of 12,000 attempts: got %v (%q, style %d), want 81.5 (\"81.5%%\", hatched)", got, text, short.style)
	}
	if got := short.unit(0, clientsOf{}, g); got != 0 {
		t.Errorf("none short-circuited of no attempts: got %v, want 0", got)
	}
	if got, text := opened.unit(1234, of, g), opened.text(1234, of, g); got != 1234 || text != "1,234" || opened.style != openedBars {
		t.Errorf("opened 1,234 times: got %v (%q, style %d), want 1234 (\"1,234\", under a mark)", got, text, opened.style)
	}
	g.Breaker = backoff.Breaker{}
	for _, f := range crowdFigures(g, func(string) bool { return true }) {
		if f.name == "short_circuited" || f.name == "breaker_opened" {
			t.Errorf("no breaker, yet a panel of %s", f.name)
		}
	}
}

// pictureGolden checks a picture's SVG against the SHA-256 kept in
// testdata/pictures and keeps its PNG beside it for a person to look at;
// -update rewrites both.
func pictureGolden(t *testing.T, name string, svg, pngBytes []byte) {
	t.Helper()
	dir := filepath.Join("testdata", "pictures")
	sum := sha256.Sum256(svg)
	got := hex.EncodeToString(sum[:]) + "\n"
	if updatingGoldens() {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for file, b := range map[string][]byte{name + ".sha256": []byte(got), name + ".png": pngBytes} {
			if err := os.WriteFile(filepath.Join(dir, file), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	want, err := os.ReadFile(filepath.Join(dir, name+".sha256"))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s: the SVG's SHA-256 is %s, want %s (go test ./views -run Golden -update rewrites it and its PNG: look at the PNG)",
			name, strings.TrimSpace(got), strings.TrimSpace(string(want)))
	}
	if _, err := os.Stat(filepath.Join(dir, name+".png")); err != nil {
		t.Errorf("%s: no PNG kept beside its hash: %v", name, err)
	}
}

func TestPictureGolden(t *testing.T) {
	draw := func(t *testing.T, f func(format string) ([]byte, error)) (svg, pngBytes []byte) {
		t.Helper()
		svg, err := f(FormatSVG)
		if err != nil {
			t.Fatal(err)
		}
		pngBytes, err = f(FormatPNG)
		if err != nil {
			t.Fatal(err)
		}
		// The same input gives the same bytes.
		again, _ := f(FormatSVG)
		againPNG, _ := f(FormatPNG)
		if !bytes.Equal(svg, again) || !bytes.Equal(pngBytes, againPNG) {
			t.Errorf("drawn twice, the pictures differ")
		}
		return svg, pngBytes
	}
	for _, tc := range timelineCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			svg, p := draw(t, func(format string) ([]byte, error) { return TimelinePicture(tc.s, tc.results, format, 0, 0) })
			pictureGolden(t, tc.name, svg, p)
		})
	}
	for _, tc := range crowdCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			svg, p := draw(t, func(format string) ([]byte, error) { return CrowdPicture(tc.s, tc.results, tc.spread, format, 0, 0) })
			pictureGolden(t, tc.name, svg, p)
		})
	}
}

func TestPictureErrors(t *testing.T) {
	d := backoff.Defaults()
	rs := runSeries(t, d, d.Five())
	plain, err := backoff.RunAll(d.Five(), d, backoff.Options{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	other := d
	other.Slot = 1000
	sp, err := backoff.RunSeeds(d.Five()[:2], d, 3, backoff.SeedOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		draw func() ([]byte, error)
		want string
	}{
		{"a format", func() ([]byte, error) { return TimelinePicture(d, rs, "jpeg", 0, 0) }, `picture format "jpeg": want svg or png`},
		{"no results", func() ([]byte, error) { return TimelinePicture(d, nil, FormatSVG, 0, 0) }, "timeline picture: no policies to draw"},
		{"no series", func() ([]byte, error) { return TimelinePicture(d, plain, FormatSVG, 0, 0) },
			"timeline picture: fixed has no series: run it with backoff.Options{Series: true}"},
		{"another slot", func() ([]byte, error) { return TimelinePicture(other, rs, FormatSVG, 0, 0) },
			"timeline picture: fixed was counted per 100 ms, the settings per 1000 ms"},
		{"too narrow", func() ([]byte, error) { return TimelinePicture(d, rs, FormatPNG, 199, 0) }, "picture of 199 x 232: want each side from 200 to 8000"},
		{"too tall", func() ([]byte, error) { return CrowdPicture(d, rs, nil, FormatSVG, 800, 8001) }, "picture of 800 x 8001: want each side from 200 to 8000"},
		{"no crowd", func() ([]byte, error) { return CrowdPicture(d, nil, nil, FormatSVG, 0, 0) }, "crowd picture: no policies to draw"},
		{"a spread of other policies", func() ([]byte, error) { return CrowdPicture(d, rs, &sp, FormatSVG, 0, 0) },
			"crowd picture: 5 policies, but the spread has 2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.draw()
			if err == nil || err.Error() != tt.want || b != nil {
				t.Errorf("got %d bytes, %v; want %s", len(b), err, tt.want)
			}
		})
	}
}

func TestPictureNumbers(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{tickLabel(20000, 10000), "20,000"},
		{tickLabel(0.5, 0.5), "0.5"},
		{tickLabel(0.30000000000000004, 0.1), "0.3"},
		{tickLabel(1234567, 1), "1,234,567"},
		{tickLabel(-0.0000001, 0.5), "0.0"},
		{secondsText(10000), "10 s"},
		{secondsText(1500), "1.5 s"},
		{secondsText(250), "250 ms"},
		{secondsText(0), "0 s"},
		{secondsText(90000000), "90,000 s"},
		{countText(20000), "20,000"},
		{countText(7), "7"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	var labels []string
	for _, tk := range (niceTicks{most: 4}).Ticks(0, 2464) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0 1,000 2,000" {
		t.Errorf("ticks from 0 to 2464: got %s, want 0 1,000 2,000", got)
	}
	if got := (niceTicks{most: 4}).Ticks(1, 1); got != nil {
		t.Errorf("ticks of an empty range: got %v, want none", got)
	}
}

// Every size in range draws, for one policy and for all thirteen: titles
// and legends that do not fit are cut or wrapped, never a panic.
func TestPictureSizes(t *testing.T) {
	s := backoff.Defaults()
	s.Outage = 0
	all := policiesNamed(t, s, backoff.Names()...)
	for _, ps := range [][]backoff.Policy{all[:1], all} {
		rs := runSeries(t, s, ps)
		for _, wh := range [][2]int{{MinPictureSide, MinPictureSide}, {333, 0}, {MinPictureSide, MaxPictureSide}} {
			for _, f := range []string{FormatSVG, FormatPNG} {
				if _, err := TimelinePicture(s, rs, f, wh[0], wh[1]); err != nil {
					t.Errorf("timeline of %d policies at %d x %d %s: %v", len(ps), wh[0], wh[1], f, err)
				}
				if _, err := CrowdPicture(s, rs, nil, f, wh[0], wh[1]); err != nil {
					t.Errorf("crowd of %d policies at %d x %d %s: %v", len(ps), wh[0], wh[1], f, err)
				}
			}
		}
	}
}

// updatingGoldens reports whether the golden package's -update flag is set,
// for the pictures' goldens, kept under names of their own in
// testdata/pictures: go test ./views/picture -run Golden -update.
func updatingGoldens() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Issue 24, item 1: the picture's shares of clients are of the clients the
// outage touched, so a longer load window (more clients, as many touched)
// draws the same bar; retries per client stay per client.
func TestPictureSharesOfClientsTouched(t *testing.T) {
	s := backoff.Defaults()
	figs := crowdFigures(s, func(string) bool { return true })
	short := backoff.Result{Figures: backoff.Figures{Clients: 12500, ClientsTouched: 4550, GaveUp: 3100, Retries: 6200}}
	long := short
	long.Figures.Clients = 47000
	for _, f := range figs {
		a := crowdBarOf(f, s, []backoff.Result{short}, nil, 0)
		b := crowdBarOf(f, s, []backoff.Result{long}, nil, 0)
		switch f.name {
		case "gave_up":
			// 3,100 of the 4,550 touched: 68.1%.
			if a.value != b.value || math.Abs(a.value-68.13) > 0.01 {
				t.Errorf("gave up: got %v and %v, want 68.1 both", a.value, b.value)
			}
		case "retries":
			if a.value != 6200.0/12500 || b.value != 6200.0/47000 {
				t.Errorf("retries per client: got %v and %v, want per client", a.value, b.value)
			}
		}
	}
}

// Issue 24, item 13: the panel of the latest served attempt is the last
// success where some client was lost, all through by where none was.
func TestPictureNamesTheLastSuccess(t *testing.T) {
	title := func(lost bool) string {
		for _, f := range crowdFigures(backoff.Defaults(), func(name string) bool { return lost && name == "not_through" }) {
			if f.name == "all_through_by_ms" {
				return f.title
			}
		}
		return ""
	}
	if got := title(true); got != "last success, seconds" {
		t.Errorf("clients lost: got %q, want \"last success, seconds\"", got)
	}
	if got := title(false); got != "all through by, seconds" {
		t.Errorf("none lost: got %q, want \"all through by, seconds\"", got)
	}
}

// Issue 24, item 12: a bar's label is the figure as every face writes it,
// one rounding per figure: 5,548 retries over 10,000 clients are 0.5548 a
// client, "0.55" (JSON and the text say 0.55, the program 0.55; the label
// said 0.555 with three significant digits); 24,306 in a 100 ms slot are
// "243,060" a second; 3,100 gave up of 4,550 touched "68.1%"; 100,900 ms
// "1 min 41 s".
func TestPictureLabelsAreTheFacesWords(t *testing.T) {
	s := backoff.Defaults()
	s.Capacity = 4000
	r := backoff.Result{Figures: backoff.Figures{Clients: 10000, ClientsTouched: 4550, Retries: 5548, MostInASlot: 24306, GaveUp: 3100, StableFrom: 100900}}
	want := map[string]string{"retries": "0.55", "most_in_a_slot": "243,060", "gave_up": "68.1%", "stable_from_ms": "1 min 41 s"}
	for _, f := range crowdFigures(s, func(string) bool { return true }) {
		w, ok := want[f.name]
		if !ok {
			continue
		}
		if got := crowdBarOf(f, s, []backoff.Result{r}, nil, 0).label; got != w {
			t.Errorf("%s: got the label %q, want %q", f.name, got, w)
		}
		delete(want, f.name)
	}
	if len(want) > 0 {
		t.Errorf("no panel for %v", want)
	}
}
