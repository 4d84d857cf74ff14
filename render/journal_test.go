package render

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// svgColour is what a fill or stroke colour may be in an exported SVG.
var svgColour = regexp.MustCompile(`^(none|#[0-9A-Fa-f]{6})$`)

// strictSVG parses b as XML in strict mode and returns every style
// colour (fill and stroke) and the text of every text element; it fails
// the test on a parse error or a colour that is not #RRGGBB or none.
func strictSVG(t *testing.T, b []byte) (texts []string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse strictly: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			inText = e.Name.Local == "text"
			for _, a := range e.Attr {
				if a.Name.Local != "style" {
					continue
				}
				for _, decl := range strings.Split(a.Value, ";") {
					k, v, ok := strings.Cut(decl, ":")
					if !ok || (k != "fill" && k != "stroke") {
						continue
					}
					if !svgColour.MatchString(v) {
						t.Errorf("<%s> %s colour %q", e.Name.Local, k, v)
					}
				}
			}
		case xml.CharData:
			if inText {
				texts = append(texts, string(e))
			}
		case xml.EndElement:
			inText = false
		}
	}
	return texts
}

// TestExportJournalSVG: the SVG of a scene parses as strict XML, every
// colour is #RRGGBB or none (the plot background used to come out as
// fill:#-8000000000000000-...: a transparent colour un-premultiplied by
// zero), numbers in the legend and caption are short ("2.9-sigma", not
// 2.9000000000000004), a 3-D scene's caption says it is a projection,
// and two independent renderers (librsvg's rsvg-convert and ImageMagick's
// convert, when installed) draw the file without error into a picture
// with ink.
func TestExportJournalSVG(t *testing.T) {
	st := DefaultStyle()
	st.ColorBy = ColorClass
	st.Level = 0.1 * 29 // 2.9000000000000004, as the View tab's slider gives
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		sc   *Scene
		want []string
	}{
		{"2d", fixtureScene(), []string{"2.9-sigma ellipses", "alpha"}},
		{"3d", fixture3D(), []string{"2-D projection of a 3-D embedding", "projection x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := exportBytes(t, "svg", tc.sc, st, ExportOptions{Width: 6 * vg.Inch, AutoHeight: true, Title: "journal"})
			all := strings.Join(strictSVG(t, b), "\n")
			if strings.Contains(all, "0000000") || strings.Contains(all, "9999999") {
				t.Errorf("a number with a binary-rounding tail in the text:\n%s", all)
			}
			for _, w := range tc.want {
				if !strings.Contains(strings.ReplaceAll(all, "\n", " "), w) {
					t.Errorf("SVG text lacks %q", w)
				}
			}
			path := filepath.Join(dir, tc.name+".svg")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			renderers := map[string][]string{
				"rsvg-convert": {"rsvg-convert", "-o", path + ".rsvg.png", path},
				"convert":      {"convert", path, path + ".im.png"},
			}
			for name, argv := range renderers {
				if _, err := exec.LookPath(argv[0]); err != nil {
					t.Logf("%s not installed: skipped", name)
					continue
				}
				out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
				if err != nil || len(bytes.TrimSpace(out)) > 0 {
					t.Errorf("%s: %v %s", name, err, out)
					continue
				}
				png := argv[len(argv)-1]
				if name == "rsvg-convert" {
					png = argv[2]
				}
				if ink := inkShare(t, png); !(ink > 0.02) {
					t.Errorf("%s drew %.3f of the picture in ink", name, ink)
				}
			}
		})
	}
}

// inkShare is the share of pixels of the PNG at path that are neither
// white nor transparent.
func inkShare(t *testing.T, path string) float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	ink := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			if a > 0x8000 && (r < 0xE000 || g < 0xE000 || bl < 0xE000) {
				ink++
			}
		}
	}
	return float64(ink) / float64(b.Dx()*b.Dy())
}

// TestExportTightBounds: a wide, flat scene (x in +-600, y in +-75) gets
// axes that span the data with their 5% margin on both axes (y is not
// widened to +-600), one unit as long on both axes, a plot box narrowed to
// that aspect; AutoHeight gives a page far shorter than it is wide and a
// fixed height keeps the page size.
func TestExportTightBounds(t *testing.T) {
	sc := fixtureScene()
	for i := 0; i < sc.Len(); i++ {
		sc.Means[2*i] *= 200
		sc.Means[2*i+1] *= 25
	}
	st := DefaultStyle()
	lay := NewLayout(sc, st)
	p := plot.New()
	dc := draw.NewCanvas(new(recorder.Canvas), 6*vg.Inch, 5*vg.Inch)
	got := tightAxes(p, dc, lay)
	xr, yr := lay.MaxX-lay.MinX, lay.MaxY-lay.MinY
	if math.Abs((p.X.Max-p.X.Min)/xr-1.1) > 1e-9 || math.Abs((p.Y.Max-p.Y.Min)/yr-1.1) > 1e-9 {
		t.Errorf("axes x [%g, %g] y [%g, %g] for data x %g wide, y %g high: want 5%% margins", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max, xr, yr)
	}
	da := p.DataCanvas(got)
	ux := (p.X.Max - p.X.Min) / float64(da.Max.X-da.Min.X)
	uy := (p.Y.Max - p.Y.Min) / float64(da.Max.Y-da.Min.Y)
	if math.Abs(ux/uy-1) > 0.01 {
		t.Errorf("units per point: x %g, y %g", ux, uy)
	}
	if got.Max.Y != dc.Max.Y || !(got.Min.Y > dc.Min.Y+vg.Inch) {
		t.Errorf("plot box y [%v, %v] in page [%v, %v]: want it kept at the top and shortened", got.Min.Y, got.Max.Y, dc.Min.Y, dc.Max.Y)
	}
	for _, opt := range []ExportOptions{{Width: 6 * vg.Inch, AutoHeight: true}, {Width: 6 * vg.Inch, Height: 5 * vg.Inch}} {
		b := exportBytes(t, "svg", sc, st, opt)
		strictSVG(t, b)
		var hdr struct {
			H string `xml:"height,attr"`
		}
		if err := xml.Unmarshal(b, &hdr); err != nil {
			t.Fatal(err)
		}
		h, _ := strconv.ParseFloat(strings.TrimSuffix(hdr.H, "pt"), 64)
		if opt.AutoHeight && !(h < 3*72) {
			t.Errorf("auto height %gpt for data 8:1 wide", h)
		}
		if !opt.AutoHeight && h != 5*72 {
			t.Errorf("fixed height %gpt, want 360", h)
		}
	}
}
