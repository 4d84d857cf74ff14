package render

import (
	"image"
	"math"
	"testing"
)

func TestHitTestKnownPoints(t *testing.T) {
	sc := fixtureScene()
	st := Style{Level: 1}
	var vp Viewport
	vp.FitTo(sc, st, 800, 600)
	lay := NewLayout(sc, st)
	type probe struct {
		name   string
		wx, wy float64 // world point
		want   int     // -1: nothing
	}
	var probes []probe
	for _, i := range []int{0, 3, 5, 8} {
		s := lay.Shapes[i]
		r1, _, ux, uy := s.M.Axes()
		probes = append(probes,
			probe{"mean", s.X, s.Y, i},
			probe{"inside major axis", s.X + 0.9*r1*ux, s.Y + 0.9*r1*uy, i},
			probe{"outside major axis", s.X + 1.15*r1*ux, s.Y + 1.15*r1*uy, -1},
		)
	}
	probes = append(probes,
		probe{"dirac", lay.Shapes[10].X, lay.Shapes[10].Y, 10},
		probe{"near dirac", lay.Shapes[10].X + 2/vp.S, lay.Shapes[10].Y, 10},
		probe{"segment end", lay.Shapes[11].X + 0.9*math.Sqrt(lay.Shapes[11].M.A), lay.Shapes[11].Y + 0.9*lay.Shapes[11].M.B/math.Sqrt(lay.Shapes[11].M.A), 11},
		probe{"origin (empty)", 0, 0, -1},
	)
	var l Live
	l.Draw(image.NewRGBA(image.Rect(0, 0, 800, 600)), sc, st, vp)
	for _, p := range probes {
		x, y := vp.ToPixel(p.wx, p.wy)
		got, ok := HitTest(sc, st, vp, x, y)
		if !ok {
			got = -1
		}
		if got != p.want {
			t.Errorf("%s (%v, %v): hit %d, want %d", p.name, p.wx, p.wy, got, p.want)
		}
		if g2, _ := l.HitTest(x, y); g2 != got {
			t.Errorf("%s: Live.HitTest %d, HitTest %d", p.name, g2, got)
		}
	}
}

func TestHitTestTopmost(t *testing.T) {
	// Two overlapping discs: the later one is drawn on top and wins; in 3D
	// the nearer one wins whatever its index.
	sc := &Scene{Dim: 2, Means: []float64{0, 0, 0.5, 0}, Scales: []float64{1, 0, 0, 1, 1, 0, 0, 1}}
	vp := Viewport{OX: 200, OY: 200, S: 100}
	if i, ok := HitTest(sc, Style{}, vp, 225, 200); !ok || i != 1 {
		t.Errorf("overlap hit %d %v, want 1", i, ok)
	}
	if i, ok := HitTest(sc, Style{}, vp, 120, 200); !ok || i != 0 {
		t.Errorf("left part hit %d %v, want 0", i, ok)
	}
	s3 := &Scene{Dim: 3, Means: []float64{0, 0, 1, 0, 0, 0}, Scales: []float64{1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1}}
	p := IdentityProjection(3) // depth = z: item 0 (z = 1) is nearer
	if i, ok := HitTest(s3, Style{Proj: p}, vp, 200, 200); !ok || i != 0 {
		t.Errorf("3D hit %d %v, want the nearer item 0", i, ok)
	}
}
