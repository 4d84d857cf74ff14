package render

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestShepard: a Shepard diagram of a perfect fit has stress-1 0 and
// every dot on y = x; a fit off by 10% everywhere has stress-1 0.1; the
// two panels share one scale; above MaxShepardPairs pairs an even stride
// is drawn and the legend says so; the SVG parses strictly with titles
// naming each fit.
func TestShepard(t *testing.T) {
	const n = 5
	pts := []float64{0, 0, 3, 0, 0, 4, 1, 1, 5, 5}
	in := PointPairs(pts, n, 2)
	if len(in) != 10 || math.Abs(in[1]-4) > 1e-12 || math.Abs(in[0]-3) > 1e-12 {
		t.Fatalf("pairs %v", in)
	}
	scaled := make([]float64, len(in))
	for i, v := range in {
		scaled[i] = 1.1 * v
	}
	figs, err := Shepard(in, n, []ShepardPanel{{Title: "elliptical MDS (W2)", YLabel: "W2 distance", Fitted: in}, {Title: "point MDS", YLabel: "Euclidean distance", Fitted: scaled}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := figs[0].Plot.Title.Text; got != "elliptical MDS (W2): stress-1 0" {
		t.Errorf("title %q", got)
	}
	if got := figs[1].Plot.Title.Text; got != "point MDS: stress-1 0.1" {
		t.Errorf("title %q", got)
	}
	if figs[0].Plot.Y.Max != figs[1].Plot.Y.Max || figs[0].Plot.X.Max != figs[1].Plot.X.Max {
		t.Errorf("panels on different scales: %g %g", figs[0].Plot.Y.Max, figs[1].Plot.Y.Max)
	}
	path := filepath.Join(t.TempDir(), "shepard.svg")
	if err := SaveFigures(path, ExportOptions{Width: 8 * vg.Inch, Height: 4 * vg.Inch}, figs...); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	texts := strings.Join(strictSVG(t, b), "\n")
	for _, w := range []string{"input distance", "W2 distance", "Euclidean distance", "y = x", "10 pairs"} {
		if !strings.Contains(texts, w) {
			t.Errorf("SVG lacks %q", w)
		}
	}
	// 300 items: 44,850 pairs, every 3rd drawn.
	m := 300
	big := make([]float64, 2*m)
	for i := range big {
		big[i] = float64(i%17) + 0.1*float64(i)
	}
	bp := PointPairs(big, m, 2)
	figs, err = Shepard(bp, m, []ShepardPanel{{Title: "x", YLabel: "y", Fitted: bp}}, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveFigures(path, ExportOptions{}, figs...); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	if texts := strings.Join(strictSVG(t, b), "\n"); !strings.Contains(texts, "14950 of 44850 pairs (1 in 3)") {
		t.Errorf("legend of the strided diagram: %q", texts)
	}
	if _, err := Shepard(bp[:10], m, nil, false); err == nil {
		t.Error("10 distances for 300 items accepted")
	}
}
