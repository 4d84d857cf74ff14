package render

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/engine"
)

// ends2 returns planar Gaussian ends from means and scale entries
// (a, b; b, c).
func ends2(x0, y0, a0, b0, c0, x1, y1, a1, b1, c1 float64) GeodesicEnds {
	return GeodesicEnds{Dim: 2, Family: engine.Gaussian(),
		MeanA: []float64{x0, y0}, ScaleA: []float64{a0, b0, b0, c0},
		MeanB: []float64{x1, y1}, ScaleB: []float64{a1, b1, b1, c1}}
}

var geoPairs = []struct {
	name string
	e    GeodesicEnds
}{
	{"paper-like", ends2(0, 0, 1, 0.3, 0.25, 1.6, 0.2, 0.15, -0.1, 0.8)},
	{"isotropic", ends2(0, 0, 1, 0, 1, 0, 3, 4, 0, 4)},
	{"rotated", ends2(-1, 2, 2, 0.9, 0.5, 1, 1, 0.5, -0.2, 2)},
}

func TestMetricDerivatives(t *testing.T) {
	ts := []float64{-2, -1, -0.3, 0, 0.2, 0.5, 0.8, 1, 1.4, 2, 3}
	for _, p := range geoPairs {
		t.Run(p.name, func(t *testing.T) {
			md, err := MetricDerivatives(p.e, []float64{0, 1, -2, 3}, ts)
			if err != nil {
				t.Fatal(err)
			}
			for i, tt := range ts {
				// Inside [0, 1] the curve is a geodesic through mu_0 and mu_1.
				if tt >= 0 && tt <= 1 {
					for k := 0; k < 2; k++ {
						if !(math.Abs(md[k][i]-1) <= 1e-5) {
							t.Errorf("ref %d t=%v: %v, want 1", k, tt, md[k][i])
						}
					}
				}
				for k := range md {
					if md[k][i] > 1+1e-5 {
						t.Errorf("ref %d t=%v: %v > 1 (the curve has speed W2(mu0, mu1))", k, tt, md[k][i])
					}
				}
			}
		})
	}
	// The paper's point: outside [0, 1] geodesicity is lost for some pair.
	md, _ := MetricDerivatives(geoPairs[0].e, []float64{3}, []float64{0.5})
	if md[0][0] > 0.99 {
		t.Errorf("paper-like pair: ratio to mu_3 at t=0.5 is %v, expected clearly below 1", md[0][0])
	}
	if _, err := MetricDerivatives(ends2(0, 0, 1, 0, 1, 0, 0, 1, 0, 1), []float64{0}, []float64{1}); err == nil {
		t.Error("equal ends accepted")
	}
}

// TestGeodesicSceneMarginals: the strip of a d = 3 geodesic shows, for
// each t, the first two mean entries and the top-left 2 x 2 scale block
// of engine.Geodesic's point.
func TestGeodesicSceneMarginals(t *testing.T) {
	e := GeodesicEnds{Dim: 3, Family: engine.Uniform(3),
		MeanA: []float64{0, 1, 2}, ScaleA: []float64{1, 0.2, 0.1, 0.2, 0.5, 0, 0.1, 0, 0.7},
		MeanB: []float64{2, 0, 1}, ScaleB: []float64{0.3, -0.1, 0, -0.1, 1.2, 0.3, 0, 0.3, 0.4}}
	times := []float64{-1, 0, 0.5, 2}
	sc, err := GeodesicScene(e, times)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Dim != 2 || len(sc.Labels) != 4 || sc.Labels[2] != "t=0.5" || sc.Tau != e.Family.Tau {
		t.Fatalf("scene dim %d labels %v tau %v", sc.Dim, sc.Labels, sc.Tau)
	}
	for i, tt := range times {
		m, s, err := engine.Geodesic(e.MeanA, e.ScaleA, e.MeanB, e.ScaleB, 3, tt)
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{m[0], m[1], s[0], s[1], s[3], s[4]}
		got := []float64{sc.Means[2*i], sc.Means[2*i+1], sc.Scales[4*i], sc.Scales[4*i+1], sc.Scales[4*i+2], sc.Scales[4*i+3]}
		for k := range want {
			if !(math.Abs(got[k]-want[k]) <= 1e-15) {
				t.Errorf("t=%v entry %d: %v, want %v", tt, k, got[k], want[k])
			}
		}
	}
	for _, bad := range []GeodesicEnds{{Dim: 1, Family: engine.Gaussian()}, {Dim: 2, Family: engine.Gaussian(), MeanA: []float64{0}}} {
		if _, err := GeodesicScene(bad, times); err == nil {
			t.Errorf("ends %+v accepted", bad)
		}
	}
}

// TestSaveGeodesicFigure: the SVG export holds both plots of figure 5
// (their titles, one label per time, the legend of each reference time),
// and a failing figure leaves no file behind.
func TestSaveGeodesicFigure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fig5.svg")
	if err := SaveGeodesicFigure(path, geoPairs[0].e, PaperTimes, PaperRefs, ExportOptions{}, false); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	for _, want := range []string{"<svg", "W2 geodesic and its extrapolation", "Normalised metric derivative", "t=-2", "t=0.25", "t=3", "r = -2", "r = 3"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	bad := filepath.Join(dir, "bad.pdf")
	if err := SaveGeodesicFigure(bad, ends2(0, 0, 1, 0, 1, 0, 0, 1, 0, 1), PaperTimes, PaperRefs, ExportOptions{}, false); err == nil {
		t.Error("equal ends: no error")
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("failed export left %s (stat err %v)", bad, err)
	}
}

func TestDecimate(t *testing.T) {
	h := make([]float64, 10007)
	for i := range h {
		h[i] = 1 / float64(i+1)
	}
	h[5000] = 7 // a spike must survive
	pts := decimate(h, func(v float64) float64 { return v })
	if len(pts) > maxCurvePoints+1 {
		t.Errorf("%d points", len(pts))
	}
	var spike bool
	for _, p := range pts {
		if p.X == 5001 && p.Y == 7 {
			spike = true
		}
	}
	if !spike || pts[0].X != 1 || pts[len(pts)-1].X != 10007 {
		t.Errorf("spike kept %v, first %v, last %v", spike, pts[0], pts[len(pts)-1])
	}
	if _, err := StressCurve(nil, 0, 0, false); err == nil {
		t.Error("empty history accepted")
	}
	if _, err := StressCurve([]float64{0, -1, math.NaN()}, 0, 0, false); err == nil {
		t.Error("history without positive values accepted")
	}
}
