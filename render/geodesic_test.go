package render

import (
	"math"
	"testing"

	"burescope/engine"
)

var geoPairs = []struct {
	name string
	a, b Measure2
}{
	{"paper-like", Measure2{0, 0, Sym2{1, 0.3, 0.25}}, Measure2{1.6, 0.2, Sym2{0.15, -0.1, 0.8}}},
	{"isotropic", Measure2{0, 0, Sym2{1, 0, 1}}, Measure2{0, 3, Sym2{4, 0, 4}}},
	{"rotated", Measure2{-1, 2, Sym2{2, 0.9, 0.5}}, Measure2{1, 1, Sym2{0.5, -0.2, 2}}},
}

func TestTransportMapPushesAToB(t *testing.T) {
	// docs/math.md: T A T = B for T = T^{AB}.
	for _, p := range geoPairs {
		tm, err := TransportMap2(p.a.C, p.b.C)
		if err != nil {
			t.Fatal(err)
		}
		got := congruence(tm, p.a.C)
		if !(math.Abs(got.A-p.b.C.A) <= 1e-12) || !(math.Abs(got.B-p.b.C.B) <= 1e-12) || !(math.Abs(got.C-p.b.C.C) <= 1e-12) {
			t.Errorf("%s: T A T = %v, want B = %v", p.name, got, p.b.C)
		}
	}
	if _, err := TransportMap2(Sym2{1, 1, 1}, Sym2{1, 0, 1}); err == nil {
		t.Error("singular start scale accepted")
	}
}

func TestGeodesic2(t *testing.T) {
	for _, p := range geoPairs {
		d := W2Measure2(p.a, p.b, 1)
		// Bures2 agrees with the engine's independent closed form.
		eb := engine.Bures2x2([]float64{p.a.C.A, p.a.C.B, p.a.C.B, p.a.C.C}, []float64{p.b.C.A, p.b.C.B, p.b.C.B, p.b.C.C})
		if got := Bures2(p.a.C, p.b.C); !(math.Abs(got-eb) <= 1e-12*(1+eb)) {
			t.Errorf("%s: Bures2 %v, engine %v", p.name, got, eb)
		}
		for _, tt := range []float64{0, 0.1, 0.5, 0.9, 1} {
			m, err := Geodesic2(p.a, p.b, tt)
			if err != nil {
				t.Fatal(err)
			}
			// Constant speed: W2(mu_0, mu_t) = t W2(mu_0, mu_1) and
			// W2(mu_t, mu_1) = (1 - t) W2(mu_0, mu_1).
			if g := W2Measure2(p.a, m, 1); !(math.Abs(g-tt*d) <= 1e-7*d) {
				t.Errorf("%s t=%v: W2(mu0, mut) = %v, want %v", p.name, tt, g, tt*d)
			}
			if g := W2Measure2(m, p.b, 1); !(math.Abs(g-(1-tt)*d) <= 1e-7*d) {
				t.Errorf("%s t=%v: W2(mut, mu1) = %v, want %v", p.name, tt, g, (1-tt)*d)
			}
			// Against the engine's general-d geodesic.
			em, es, err := engine.Geodesic([]float64{p.a.X, p.a.Y}, []float64{p.a.C.A, p.a.C.B, p.a.C.B, p.a.C.C},
				[]float64{p.b.X, p.b.Y}, []float64{p.b.C.A, p.b.C.B, p.b.C.B, p.b.C.C}, 2, tt)
			if err != nil {
				t.Fatal(err)
			}
			if !(math.Abs(em[0]-m.X)+math.Abs(em[1]-m.Y) <= 1e-12) || !(math.Abs(es[0]-m.C.A)+math.Abs(es[1]-m.C.B)+math.Abs(es[3]-m.C.C) <= 1e-9) {
				t.Errorf("%s t=%v: %v, engine mean %v scale %v", p.name, tt, m, em, es)
			}
		}
	}
}

func TestMetricDerivatives(t *testing.T) {
	ts := []float64{-2, -1, -0.3, 0, 0.2, 0.5, 0.8, 1, 1.4, 2, 3}
	for _, p := range geoPairs {
		md, err := MetricDerivatives(p.a, p.b, 1, []float64{0, 1, -2, 3}, ts)
		if err != nil {
			t.Fatal(err)
		}
		for i, tt := range ts {
			// Inside [0, 1] the curve is a geodesic through mu_0 and mu_1.
			if tt >= 0 && tt <= 1 {
				for k := 0; k < 2; k++ {
					if !(math.Abs(md[k][i]-1) <= 1e-5) {
						t.Errorf("%s: ref %d t=%v: %v, want 1", p.name, k, tt, md[k][i])
					}
				}
			}
			for k := range md {
				if md[k][i] > 1+1e-5 {
					t.Errorf("%s: ref %d t=%v: %v > 1 (the curve has speed W2(mu0, mu1))", p.name, k, tt, md[k][i])
				}
			}
		}
	}
	// The paper's point: outside [0, 1] geodesicity is lost for some pair.
	md, _ := MetricDerivatives(geoPairs[0].a, geoPairs[0].b, 1, []float64{3}, []float64{0.5})
	if md[0][0] > 0.99 {
		t.Errorf("paper-like pair: ratio to mu_3 at t=0.5 is %v, expected clearly below 1", md[0][0])
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
