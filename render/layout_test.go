package render

import (
	"math"
	"sort"
	"testing"
)

func TestLayoutKindsAndLevel(t *testing.T) {
	sc := fixtureScene()
	for _, k := range []float64{1, 2, 3} {
		lay := NewLayout(sc, Style{Level: k})
		for i, s := range lay.Shapes {
			want := KindEllipse
			switch i {
			case 10:
				want = KindPoint
			case 11:
				want = KindSegment
			}
			if s.Kind != want {
				t.Errorf("level %v item %d: kind %v, want %v", k, i, s.Kind, want)
			}
			if s.X != sc.Means[2*i] || s.Y != sc.Means[2*i+1] {
				t.Errorf("item %d drawn at (%v, %v), mean (%v, %v)", i, s.X, s.Y, sc.Means[2*i], sc.Means[2*i+1])
			}
			if s.Kind == KindEllipse {
				// The k-level matrix is k^2 C.
				c := sc.Scales[4*i : 4*i+4]
				if !(math.Abs(s.M.A-k*k*c[0]) <= 1e-12) || !(math.Abs(s.M.B-k*k*c[1]) <= 1e-12) || !(math.Abs(s.M.C-k*k*c[3]) <= 1e-12) {
					t.Errorf("level %v item %d: M = %v, want %v^2 x %v", k, i, s.M, k, c)
				}
			}
		}
	}
}

// TestPrecisionViewAxes checks the precision view against docs/math.md: same
// axes as the covariance view, inverted lengths (eigenvalue products all
// equal the one scale factor), and the median area preserved.
func TestPrecisionViewAxes(t *testing.T) {
	sc := fixtureScene()
	cov := NewLayout(sc, Style{View: Covariance, Level: 1.5})
	prec := NewLayout(sc, Style{View: Precision, Level: 1.5})
	var areaC, areaP []float64
	for i := range cov.Shapes {
		c, p := cov.Shapes[i], prec.Shapes[i]
		if c.Kind != KindEllipse {
			if p.Kind != KindPoint {
				t.Errorf("item %d: degenerate covariance drawn as %v in precision view", i, p.Kind)
			}
			continue
		}
		c1, c2, cx, cy := c.M.Eigen()
		p1, p2, px, py := p.M.Eigen()
		// Long covariance axis = short precision axis: p2's vector is
		// (-py, px), which must be parallel to (cx, cy).
		if !(math.Abs(math.Abs(-py*cx+px*cy)-1) <= 1e-9) {
			t.Errorf("item %d: precision short axis (%v, %v) is not the covariance long axis (%v, %v)", i, -py, px, cx, cy)
		}
		s := prec.PrecisionScale
		if !(math.Abs(c1*p2-s) <= 1e-9*s) || !(math.Abs(c2*p1-s) <= 1e-9*s) {
			t.Errorf("item %d: eigenvalue products %v, %v, want %v", i, c1*p2, c2*p1, s)
		}
		areaC = append(areaC, math.Pi*math.Sqrt(c.M.Det()))
		areaP = append(areaP, math.Pi*math.Sqrt(p.M.Det()))
	}
	// The item of (lower) median covariance area keeps its area.
	sorted := append([]float64(nil), areaC...)
	sort.Float64s(sorted)
	med := sorted[(len(sorted)-1)/2]
	for k := range areaC {
		if areaC[k] == med && !(math.Abs(areaP[k]-med) <= 1e-9*med) {
			t.Errorf("median item: area %v in precision view, %v in covariance view", areaP[k], med)
		}
	}
}

func TestLayout3DDepthOrder(t *testing.T) {
	sc := fixture3D()
	p := IdentityProjection(3)
	p.Rotate(0.3, 0.2)
	lay := NewLayout(sc, Style{Proj: p})
	for k := 1; k < len(lay.Order); k++ {
		if lay.Shapes[lay.Order[k-1]].Depth > lay.Shapes[lay.Order[k]].Depth {
			t.Fatalf("draw order not back to front at %d", k)
		}
	}
	// Depth is the third row of the rotation applied to the mean.
	for i, s := range lay.Shapes {
		var z float64
		for k := 0; k < 3; k++ {
			z += p.R[6+k] * sc.Means[3*i+k]
		}
		if !(math.Abs(z-s.Depth) <= 1e-12) {
			t.Errorf("item %d depth %v, want %v", i, s.Depth, z)
		}
	}
}

func TestSceneValidate(t *testing.T) {
	good := fixtureScene()
	if err := good.Validate(); err != nil {
		t.Fatalf("fixture invalid: %v", err)
	}
	cases := []struct {
		name string
		edit func(s *Scene)
	}{
		{"dim", func(s *Scene) { s.Dim = 0 }},
		{"means", func(s *Scene) { s.Means = s.Means[:5] }},
		{"scales", func(s *Scene) { s.Scales = s.Scales[:7] }},
		{"labels", func(s *Scene) { s.Labels = s.Labels[:3] }},
		{"classes", func(s *Scene) { s.Classes = s.Classes[:3] }},
		{"perpoint", func(s *Scene) { s.PerPoint = s.PerPoint[:3] }},
		{"nan-mean", func(s *Scene) { s.Means[3] = math.NaN() }},
		{"inf-scale", func(s *Scene) { s.Scales[2] = math.Inf(1) }},
		{"tau", func(s *Scene) { s.Tau = -1 }},
		{"selected", func(s *Scene) { s.Selected = []int{12} }},
		{"highlight", func(s *Scene) { s.Highlight = []int{-1} }},
	}
	for _, c := range cases {
		s := fixtureScene()
		c.edit(s)
		if err := s.Validate(); err == nil {
			t.Errorf("%s: invalid scene accepted", c.name)
		}
	}
}
