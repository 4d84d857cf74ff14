package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg"
)

// exportBytes writes sc in format to a temporary directory and returns the
// file's bytes, checking that no temporary file is left behind.
func exportBytes(t *testing.T, format string, sc *Scene, st Style, opt ExportOptions) []byte {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "fig."+format)
	if err := ExportFile(path, sc, st, opt); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%s: directory holds %d entries after export, want only the figure", format, len(entries))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestExportSVGStructure parses the SVG and counts the ellipse paths: each
// full-rank ellipse is one filled polygon (at least minSides sides) plus
// one outline, so the fixture (ten ellipses, one Dirac, one segment) has
// exactly 20 paths with at least minSides-1 line segments (legend swatches
// have fewer); every label and the caption are present as text.
func TestExportSVGStructure(t *testing.T) {
	sc := fixtureScene()
	st := DefaultStyle()
	st.ColorBy = ColorClass
	b := exportBytes(t, "svg", sc, st, ExportOptions{Width: 6 * vg.Inch, Height: 5 * vg.Inch, Title: "SVG fixture"})
	dec := xml.NewDecoder(bytes.NewReader(b))
	var texts []string
	long, inText := 0, false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Local == "path" {
				for _, a := range e.Attr {
					if a.Name.Local == "d" && strings.Count(a.Value, "L") >= minSides-1 {
						long++
					}
				}
			}
			inText = e.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(e))
			}
		case xml.EndElement:
			inText = false
		}
	}
	if long != 20 {
		t.Errorf("%d ellipse paths, want 20", long)
	}
	all := strings.Join(texts, "\n")
	for _, want := range append(append([]string{}, sc.Labels...), "SVG fixture", "alpha", "gamma", "stress-1 = 0.0123", "1-sigma ellipses") {
		if !strings.Contains(all, want) {
			t.Errorf("SVG text lacks %q", want)
		}
	}
}

func TestExportPDFAndEPSStructure(t *testing.T) {
	sc := fixtureScene()
	st := DefaultStyle()
	st.ColorBy = ColorClass
	opt := ExportOptions{Width: 5 * vg.Inch, Height: 4 * vg.Inch}
	pdf := exportBytes(t, "pdf", sc, st, opt)
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) || !bytes.Contains(pdf[len(pdf)-32:], []byte("%%EOF")) {
		t.Error("PDF lacks its header or trailer")
	}
	if n := len(regexp.MustCompile(`/Type /Page\b[^s]`).FindAll(pdf, -1)); n != 1 {
		t.Errorf("PDF has %d pages, want 1", n)
	}
	if !bytes.Contains(pdf, []byte("MediaBox [0 0 360.00 288.00]")) {
		t.Error("PDF page is not 5 x 4 inches (360 x 288 pt)")
	}
	eps := exportBytes(t, "eps", sc, st, opt)
	if !bytes.HasPrefix(eps, []byte("%!PS-Adobe-3.0 EPSF-3.0\n%%Creator: ")) {
		t.Errorf("EPS header %q", eps[:40])
	}
	if !bytes.Contains(eps, []byte("%%BoundingBox: 0 0 360 288")) {
		t.Error("EPS bounding box is not 360 x 288 pt")
	}
	for _, l := range sc.Labels {
		if !bytes.Contains(eps, []byte("("+l+") show")) {
			t.Errorf("EPS lacks label %q", l)
		}
	}
	// Ten ellipse fills, opaque (EPS has no alpha): no item colour is
	// written with transparency, so each fill is its own "fill".
	if n := bytes.Count(eps, []byte("\nfill")); n < 10 {
		t.Errorf("EPS has %d fills, want at least the 10 ellipses", n)
	}
}

func TestExportErrors(t *testing.T) {
	dir := t.TempDir()
	sc := fixtureScene()
	cases := []struct {
		name, path string
		sc         *Scene
		opt        ExportOptions
		want       string
	}{
		{"format", filepath.Join(dir, "fig.gif"), sc, ExportOptions{}, "unknown figure format"},
		{"dir", filepath.Join(dir, "missing", "fig.png"), sc, ExportOptions{}, "missing"},
		{"scene", filepath.Join(dir, "fig.png"), &Scene{Dim: 2, Means: []float64{1}}, ExportOptions{}, "multiple of dimension"},
		{"nil", filepath.Join(dir, "fig.png"), nil, ExportOptions{}, "no scene"},
		{"huge", filepath.Join(dir, "fig.png"), sc, ExportOptions{Width: 100 * vg.Inch, Height: 100 * vg.Inch, DPI: 600}, "megapixels"},
	}
	for _, c := range cases {
		err := ExportFile(c.path, c.sc, DefaultStyle(), c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
		if err != nil && c.name != "dir" && !strings.Contains(err.Error(), c.path) && c.name != "nil" {
			t.Errorf("%s: error %q does not name the file", c.name, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("failed exports left %d files", len(entries))
	}
}

func TestParseLength(t *testing.T) {
	cases := []struct {
		in   string
		dpi  int
		want vg.Length
		ok   bool
	}{
		{"6in", 300, 6 * vg.Inch, true},
		{"6", 300, 6 * vg.Inch, true},
		{"10cm", 300, 10 * vg.Centimeter, true},
		{"120mm", 300, 120 * vg.Millimeter, true},
		{"400pt", 300, 400, true},
		{"1200px", 300, 4 * vg.Inch, true},
		{" 3.5 in ", 300, 3.5 * vg.Inch, true},
		{"0in", 300, 0, false},
		{"-2in", 300, 0, false},
		{"abc", 300, 0, false},
		{"500in", 300, 0, false},
		{"NaNin", 300, 0, false},
	}
	for _, c := range cases {
		got, err := ParseLength(c.in, c.dpi)
		if (err == nil) != c.ok || (c.ok && fmt.Sprintf("%.6f", float64(got)) != fmt.Sprintf("%.6f", float64(c.want))) {
			t.Errorf("ParseLength(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestWrapCaption(t *testing.T) {
	w := func(s string) vg.Length { return vg.Length(len(s)) }
	got := wrapCaption("aaaa  |  bbbb  |  cc", w, 12)
	want := []string{"aaaa", "bbbb  |  cc"}
	if strings.Join(got, "/") != strings.Join(want, "/") {
		t.Errorf("wrap = %q, want %q", got, want)
	}
}

func TestPolygonSides(t *testing.T) {
	for _, c := range []struct {
		r    float64
		want int
	}{{0, minSides}, {1, minSides}, {10, 42}, {100, maxSides}} {
		if got := polygonSides(c.r); got != c.want {
			t.Errorf("polygonSides(%v) = %d, want %d", c.r, got, c.want)
		}
	}
	// Chord error of an n-gon inscribed in a circle of radius r is
	// r (1 - cos(pi/n)): below 0.9% of r for every n in range, and below
	// 0.05 pt where n is not clamped (r = 1.5 n / (2 pi)).
	for n := minSides; n <= maxSides; n++ {
		if e := 1 - math.Cos(math.Pi/float64(n)); e > 0.009 {
			t.Errorf("%d sides: relative chord error %v", n, e)
		}
		if r := 1.5 * float64(n) / (2 * math.Pi); r*(1-math.Cos(math.Pi/float64(n))) > 0.05 {
			t.Errorf("%d sides at r = %v pt: chord error %v pt", n, r, r*(1-math.Cos(math.Pi/float64(n))))
		}
	}
}

// TestEPSCreationDate: the EPS %%CreationDate line is a plain RFC 3339 UTC
// time within the export's wall-clock window, not Go's time.Time String
// form with its monotonic clock reading ("m=+0.07").
func TestEPSCreationDate(t *testing.T) {
	before := time.Now().Add(-time.Second)
	b := exportBytes(t, "eps", fixtureScene(), DefaultStyle(), ExportOptions{})
	after := time.Now().Add(time.Second)
	m := regexp.MustCompile(`(?m)^%%CreationDate:(.*)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no %%CreationDate line")
	}
	v := strings.TrimSpace(string(m[1]))
	if strings.Contains(v, "m=") {
		t.Errorf("%%%%CreationDate %q carries the monotonic clock", v)
	}
	when, err := time.Parse(time.RFC3339, v)
	if err != nil {
		t.Fatalf("%%%%CreationDate %q: %v", v, err)
	}
	if when.Before(before) || when.After(after) {
		t.Errorf("%%%%CreationDate %v outside [%v, %v]", when, before, after)
	}
}
