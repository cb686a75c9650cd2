package cli

import (
	"encoding/xml"
	"errors"
	"image"
	"image/png"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	vpicture "github.com/retryplanner/retry-planner/views/picture"
)

// Pictures through the commands: timeline and crowd --format svg|png, to
// standard output or --out, at the asked size.

// svgOf parses an SVG document as XML and returns its root's width and
// height in points and its texts.
func svgOf(t *testing.T, doc string) (width, height float64, texts []string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	root := true
	inText := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG does not parse as XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if root {
				if el.Name.Local != "svg" {
					t.Fatalf("the root is <%s>, want <svg>", el.Name.Local)
				}
				for _, a := range el.Attr {
					v, err := strconv.ParseFloat(strings.TrimSuffix(a.Value, "pt"), 64)
					switch {
					case a.Name.Local == "width" && err == nil:
						width = v
					case a.Name.Local == "height" && err == nil:
						height = v
					}
				}
				root = false
			}
			inText = el.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(el))
			}
		case xml.EndElement:
			inText = false
		}
	}
	if root {
		t.Fatal("the SVG has no element")
	}
	return width, height, texts
}

// fills counts the SVG's paths filled with each colour, by its hex.
func fills(doc string) map[string]int {
	out := map[string]int{}
	for _, m := range regexp.MustCompile(`fill:#([0-9A-Fa-f]{6})`).FindAllStringSubmatch(doc, -1) {
		out[strings.ToUpper(m[1])]++
	}
	return out
}

// The timeline's SVG through the command: it parses, is as large as asked,
// says what was run, and holds a bar for each part of each slot with
// attempts (served, rejected, failed while down) of each policy, as the
// timeline's CSV counts them, and one swatch of each in the legend.
func TestTimelineSVG(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		size   []string
		w, h   float64
		titles []string
	}{
		{[]string{"timeline", "--policy", "exponential"}, nil, vpicture.DefaultPictureWidth, float64(vpicture.TimelinePictureHeight(1)),
			[]string{"Retries over time: 200 clients, the service back at 10 s; exponential", "independent draws", "bars of 1 s (10 slots of 100 ms)"}},
		{[]string{"timeline", "--policy", "all", "--capacity", "100", "--clients", "500", "--draws", "independent"}, []string{"--width", "640", "--height", "900"}, 640, 900,
			[]string{"independent draws", "capacity 100 a second", "decorrelated: first 1000 ms"}},
		{[]string{"timeline", "--policies", "fixed,grpc", "--slot", "250ms", "--load", "50"}, []string{"--width", "1000"}, 1000, float64(vpicture.TimelinePictureHeight(2) * 1000 / vpicture.DefaultPictureWidth),
			[]string{"fixed and grpc", "slots of 250 ms", "fresh load 50 a second"}},
	} {
		doc := reportOf(t, slices.Concat(tt.args, []string{"--format", "svg"}, tt.size)...)
		w, h, texts := svgOf(t, doc)
		if w != tt.w || h != tt.h {
			t.Errorf("%q: %g x %g points, want %g x %g", tt.args, w, h, tt.w, tt.h)
		}
		all := strings.Join(texts, "\n")
		for _, want := range tt.titles {
			if !strings.Contains(all, want) {
				t.Errorf("%q: the picture does not say %q:\n%s", tt.args, want, all)
			}
		}
		records := csvRecords(t, reportOf(t, append(slices.Clone(tt.args), "--format", "csv")...))
		col := func(name string) int { return slices.Index(records[0], name) }
		want := map[string]int{"1F3D73": 1, "DD6A2A": 1, "D2D2D2": 1} // the legend's swatches
		for _, r := range records[1:] {
			for part, colour := range map[string]string{"served": "1F3D73", "rejected": "DD6A2A", "failed_while_down": "D2D2D2"} {
				if r[col(part)] != "0" {
					want[colour]++
				}
			}
		}
		got := fills(doc)
		for colour, n := range want {
			if got[colour] != n {
				t.Errorf("%q: %d paths of #%s, want %d (a bar for each slot's part with attempts, and the legend's)", tt.args, got[colour], colour, n)
			}
		}
		if want["DD6A2A"] == 1 && strings.Contains(strings.Join(tt.args, " "), "capacity") {
			t.Errorf("%q: no slot rejected anything: the case tests nothing of the rejected", tt.args)
		}
	}
}

// The PNGs decode with image/png at the asked size; the same picture comes
// to standard output and to --out's file.
func TestPicturePNG(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		w, h int
	}{
		{[]string{"timeline", "--policy", "full-jitter"}, 2 * vpicture.DefaultPictureWidth, 2 * vpicture.TimelinePictureHeight(1)},
		{[]string{"timeline", "--policy", "all", "--width", "640", "--height", "480"}, 640, 480},
		{[]string{"crowd"}, 2 * vpicture.DefaultPictureWidth, 2 * vpicture.CrowdPictureHeight(3)},
		{[]string{"crowd", "--seeds", "5", "--policies", "exponential,full-jitter", "--capacity", "200", "--width", "1200", "--height", "1000"}, 1200, 1000},
	} {
		args := append(slices.Clone(tt.args), "--format", "png")
		out := reportOf(t, args...)
		img, err := png.Decode(strings.NewReader(out))
		if err != nil {
			t.Fatalf("%q: the PNG does not decode: %v", args, err)
		}
		if b := img.Bounds(); b.Dx() != tt.w || b.Dy() != tt.h {
			t.Errorf("%q: %d x %d pixels, want %d x %d", args, b.Dx(), b.Dy(), tt.w, tt.h)
		}
		file := filepath.Join(dir, "picture.png")
		if stdout := reportOf(t, append(args, "--out", file, "--force")...); stdout != "" {
			t.Errorf("%q --out: stdout %d bytes, want nothing", args, len(stdout))
		}
		if got := readFile(t, file); got != out {
			t.Errorf("%q --out: the file's %d bytes differ from standard output's %d", args, len(got), len(out))
		}
	}
}

// The crowd's SVG: its bars' whiskers come from the spread, and its
// subtitle says whose draws and seeds it shows.
func TestCrowdSVG(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args       []string
		say, never []string
	}{
		{[]string{"crowd"}, []string{"The crowd: 200 clients, the service back at 10 s", "independent draws", "seed 7"}, []string{"median to p95"}},
		{[]string{"crowd", "--seeds", "5"}, []string{"median to p95 over the seeds", "independent draws", "the median over 5 seeds from 7"}, []string{"reference draws"}},
		{[]string{"crowd", "--seeds", "5", "--seed-draws", "reference", "--draws", "independent"}, []string{"reference draws", "the median over 5 seeds from 7"}, []string{"independent draws"}},
		{[]string{"crowd", "--policies", "grpc,aws", "--capacity", "300"}, []string{"grpc and aws", "capacity 300 a second", "stable from, seconds"}, nil},
	} {
		file := filepath.Join(dir, "crowd.svg")
		args := append(slices.Clone(tt.args), "--format", "SVG", "--out", file, "--force")
		if stdout := reportOf(t, args...); stdout != "" {
			t.Errorf("%q: stdout %q, want nothing", args, stdout)
		}
		_, _, texts := svgOf(t, readFile(t, file))
		all := strings.Join(texts, "\n")
		for _, want := range tt.say {
			if !strings.Contains(all, want) {
				t.Errorf("%q: the picture does not say %q:\n%s", args, want, all)
			}
		}
		for _, never := range tt.never {
			if strings.Contains(all, never) {
				t.Errorf("%q: the picture says %q:\n%s", args, never, all)
			}
		}
	}
}

// Pictures only where there are pictures, at sizes the views draw.
func TestPictureFlagErrors(t *testing.T) {
	for _, tt := range []errorCase{
		{[]string{"schedule", "--policy", "fixed", "--format", "svg"}, []string{"--format svg: schedule writes text, csv or json", "pictures are for crowd and timeline"}},
		{[]string{"jobs", "a:1", "--format", "PNG"}, []string{"--format png: jobs writes text, csv or json"}},
		{[]string{"crowd", "--format", "gif"}, []string{`--format "gif"`, "svg or png"}},
		{[]string{"crowd", "--width", "600"}, []string{"--width 600: the size of a picture; give --format svg or png"}},
		{[]string{"timeline", "--policy", "all", "--height", "600", "--format", "csv"}, []string{"--height 600: the size of a picture"}},
		{[]string{"crowd", "--format", "svg", "--width", "199"}, []string{"--width 199: want a whole number from 200 to 8000"}},
		{[]string{"crowd", "--format", "png", "--height", "8001"}, []string{"--height 8001: want a whole number from 200 to 8000"}},
		{[]string{"crowd", "--format", "png", "--height", "-300"}, []string{"--height -300: want"}},
		{[]string{"schedule", "--policy", "fixed", "--width", "600"}, []string{`"--width" is for crowd or timeline, not schedule`}},
		{[]string{"crowd", "--compare", filepath.Join(repoTestdata, "plans", "compare-a.toml"), "--format", "png"}, []string{"--compare writes text, csv or json", "not png"}},
	} {
		checkUsageError(t, tt.args, tt.want...)
	}
}

// The README's picture is a PNG of the size its command asks for.
func TestReadmePicture(t *testing.T) {
	readme := readFile(t, filepath.Join("..", "..", "README.md"))
	const command = "retry-planner timeline --policies exponential,full-jitter --clients 1000 --capacity 150 --format png --width 800 --out testdata/readme/timeline.png"
	if !strings.Contains(readme, command) || !strings.Contains(readme, "](testdata/readme/timeline.png)") {
		t.Errorf("the README does not show testdata/readme/timeline.png with the command that draws it, %q", command)
	}
	img, err := png.Decode(strings.NewReader(readFile(t, filepath.Join("..", "..", "testdata", "readme", "timeline.png"))))
	if err != nil {
		t.Fatal(err)
	}
	drawn, err := png.Decode(strings.NewReader(reportOf(t, strings.Fields(strings.TrimSuffix(strings.TrimPrefix(command, "retry-planner "), " --out testdata/readme/timeline.png"))...)))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != drawn.Bounds() || img.Bounds().Dx() != 800 {
		t.Errorf("testdata/readme/timeline.png is %v, the command draws %v; want the same, 800 wide", img.Bounds(), drawn.Bounds())
	}
	// Pixel for pixel what the command draws today: the README shows what
	// the program draws.
	if !samePixels(img, drawn) {
		t.Errorf("testdata/readme/timeline.png is not what %q draws: draw it again with that command", command)
	}
}

// samePixels reports whether a and b have the same bounds and colours.
func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}
