package render

import (
	"image"
	"math"
	"testing"
)

// TestOneScale: with GlyphFrom set to the data alone, a scene with
// overlays appended (a large measure, as a geodesic's at t) is shrunk by
// the data's own factor, whatever the overlay; the last Unscaled items
// (point-MDS connectors) keep their size; barycenters are shrunk with the
// items; without GlyphFrom the overlay would change the factor.
func TestOneScale(t *testing.T) {
	data := heavyScene()
	st := DefaultStyle()
	ref := NewLayout(data, st)
	if ref.Glyph == 1 {
		t.Fatalf("heavy scene not in glyph mode (overlap %g)", ref.Overlap)
	}
	n := data.Len()
	withOverlay := func(big float64) *Scene {
		sc := *data
		sc.Means = append(append([]float64(nil), data.Means...), 0, 0, 0.5, 0.5)
		sc.Scales = append(append([]float64(nil), data.Scales...), big, 0, 0, big, 0.04, 0.04, 0.04, 0.04)
		sc.Labels, sc.Classes, sc.PerPoint = nil, nil, nil
		return &sc
	}
	changed := false
	for _, big := range []float64{1e-4, 1, 100} {
		sc := withOverlay(big)
		if NewLayout(sc, st).Glyph != ref.Glyph {
			changed = true
		}
		sc.GlyphFrom = data
		sc.Unscaled = 1
		lay := NewLayout(sc, st)
		if lay.Glyph != ref.Glyph {
			t.Errorf("overlay %g: glyph %g, the data's is %g", big, lay.Glyph, ref.Glyph)
		}
		f2 := lay.Glyph * lay.Glyph
		if m := lay.Shapes[n].M; !(math.Abs(m.A-f2*big) <= 1e-12*big) {
			t.Errorf("overlay %g at %g, want the data's factor: %g", big, m.A, f2*big)
		}
		if last := lay.Shapes[n+1]; last.M != last.Full {
			t.Errorf("unscaled connector shrunk: %+v from %+v", last.M, last.Full)
		}
	}
	if !changed {
		t.Log("the overlays did not change the free factor either")
	}
	// Barycenters at the items' factor.
	sc := *data
	var err error
	if sc.Barycenters, err = ClassBarycenters(&sc); err != nil {
		t.Fatal(err)
	}
	lay := NewLayout(&sc, st)
	for k, b := range lay.Bary {
		if want := b.Full.Scale(lay.Glyph * lay.Glyph); math.Abs(b.M.A-want.A) > 1e-12*math.Abs(want.A)+1e-300 {
			t.Errorf("barycenter %d at %+v, want %+v", k, b.M, want)
		}
	}
}

// TestRingsAtGlyphSize: in glyph mode a selected item's ring surrounds its
// glyph (ringMargin pixels wider), not its full-size ellipse; a hovered
// item's ring is its full-size ellipse.
func TestRingsAtGlyphSize(t *testing.T) {
	sc := heavyScene()
	st := DefaultStyle()
	st.Legend = false
	st.Labels = false
	lay := NewLayout(sc, st)
	if lay.Glyph == 1 {
		t.Fatal("not in glyph mode")
	}
	var vp Viewport
	vp.FitTo(sc, Style{}, 400, 400)
	s := lay.Shapes[7]
	inkAt := func(sel, hov []int, wx, wy float64) bool {
		c := *sc
		c.Selected, c.Hovered = sel, hov
		img := image.NewRGBA(image.Rect(0, 0, 400, 400))
		var l Live
		l.Draw(img, &c, st, vp)
		x, y := vp.ToPixel(wx, wy)
		p := img.RGBAAt(int(math.Round(x)), int(math.Round(y)))
		return p.R < 0x90 && p.G < 0x90 && p.B < 0x90 || p.R > 0xC0 && p.G < 0x80 && p.B < 0x30
	}
	r1, _, ux, uy := s.Full.Axes()
	fullX, fullY := s.X+r1*ux, s.Y+r1*uy
	if inkAt([]int{7}, nil, fullX, fullY) {
		t.Error("selected item ringed at its full size in glyph mode")
	}
	if !inkAt(nil, []int{7}, fullX, fullY) {
		t.Error("hovered item not ringed at its full size")
	}
	g1, _, gx, gy := s.M.Axes()
	px := math.Sqrt(g1*g1*vp.S*vp.S+ringMargin*ringMargin) / vp.S
	if !inkAt([]int{7}, nil, s.X+px*gx, s.Y+px*gy) {
		t.Error("selected item's glyph not ringed")
	}
}

// TestLegendSaysHoverFullSize: in glyph mode the legend says the hovered
// item's ring is at full size; without a hovered item it does not.
func TestLegendSaysHoverFullSize(t *testing.T) {
	sc := heavyScene()
	st := DefaultStyle()
	has := func() bool {
		for _, it := range LegendItems(sc, st, NewLayout(sc, st)) {
			if it.Text == "orange ring: hovered item at full size" {
				return true
			}
		}
		return false
	}
	if has() {
		t.Error("hover line without a hovered item")
	}
	sc.Hovered = []int{3}
	if !has() {
		t.Error("no hover line with item 3 hovered in glyph mode")
	}
}
