package view

import (
	"math"
	"strings"
	"testing"

	"burescope/engine/emds"
	"burescope/render"
)

// TestBaselinePickAndProjection: on a hand-made scene (two circles of
// radius 1 at x = 0 and x = 10, d = 3) with the overlay markers at
// (0.5, 0, 0) and (5, 0, 0): a click on the first marker selects the
// ellipse it lies in (item 0), a click on the second, outside both,
// selects its own item 1, and a click elsewhere nothing. The markers are
// laid out by render exactly where the 3-D projection puts their means.
func TestBaselinePickAndProjection(t *testing.T) {
	sc := &render.Scene{
		Dim:    3,
		Means:  []float64{0, 0, 0, 10, 0, 0},
		Scales: []float64{1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1},
		Labels: []string{"a", "b"},
	}
	snap := &emds.Snapshot{N: 2, Dim: 3, Means: sc.Means, PointMeans: []float64{0.5, 0, 0, 5, 0, 0}, PointStress1: 0.1}
	st := render.DefaultStyle()
	st.Labels = false
	if out, ov := WithBaseline(sc, snap, false, st); out != sc || ov != nil {
		t.Fatal("overlay while off")
	}
	pst := st
	pst.View = render.Precision
	if out, ov := WithBaseline(sc, snap, true, pst); ov == nil || ov.lines || out.Len() != 4 || ov.markerAt(1) != 3 {
		t.Fatalf("precision view: overlay %+v, %d items (want markers only)", ov, out.Len())
	}
	out, ov := WithBaseline(sc, snap, true, st)
	if ov == nil || out.Len() != 6 || ov.from != 2 || !ov.lines {
		t.Fatalf("overlay %+v, %d items", ov, out.Len())
	}
	proj := render.DefaultProjection(out)
	lay := render.NewLayout(out, st)
	for k := 0; k < 2; k++ {
		p := snap.PointMeans[3*k : 3*k+3]
		x, y, _ := proj.Point(p)
		s := lay.Shapes[ov.markerAt(k)]
		if s.Kind != render.KindPoint || math.Abs(s.X-x) > 1e-12 || math.Abs(s.Y-y) > 1e-12 {
			t.Errorf("marker %d laid out at (%v, %v) kind %v, projection (%v, %v)", k, s.X, s.Y, s.Kind, x, y)
		}
		// The line's ends, centre -/+ the top axis of M (level 1), are
		// the projections of the marker and of the item's mean.
		l := lay.Shapes[2+k]
		l1, _, ux, uy := l.M.Eigen()
		mx, my, _ := proj.Point(sc.Means[3*k : 3*k+3])
		r := math.Sqrt(l1)
		e1 := math.Hypot(l.X+r*ux-x, l.Y+r*uy-y) + math.Hypot(l.X-r*ux-mx, l.Y-r*uy-my)
		e2 := math.Hypot(l.X-r*ux-x, l.Y-r*uy-y) + math.Hypot(l.X+r*ux-mx, l.Y+r*uy-my)
		if l.Kind != render.KindSegment || math.Min(e1, e2) > 1e-9 {
			t.Errorf("line %d: kind %v, ends off by %v", k, l.Kind, math.Min(e1, e2))
		}
	}
	var vp render.Viewport
	vp.FitTo(out, st, 400, 300)
	for _, tc := range []struct {
		pt   []float64
		want int
	}{
		{snap.PointMeans[0:3], 0},
		{snap.PointMeans[3:6], 1},
		{[]float64{5, 3, 0}, -1},
	} {
		wx, wy, _ := proj.Point(tc.pt)
		px, py := vp.ToPixel(wx, wy)
		idx, ok := render.HitTest(out, st, vp, px, py)
		if !ok {
			idx = -1
		}
		if got := ov.pickItem(idx, out, st, vp, px, py); got != tc.want {
			t.Errorf("click at %v: hit %d, picked %d, want %d", tc.pt, idx, got, tc.want)
		}
	}
	// Hovering item 1's line: outside the circles it stands for item 1's
	// marker (scene item 5); inside circle 1 the circle wins.
	for _, tc := range []struct {
		pt   []float64
		want int
	}{
		{[]float64{7, 0, 0}, 5},
		{[]float64{9.5, 0, 0}, 1},
	} {
		wx, wy, _ := proj.Point(tc.pt)
		px, py := vp.ToPixel(wx, wy)
		idx, ok := render.HitTest(out, st, vp, px, py)
		if !ok || !ov.isLine(idx) && tc.want == 5 {
			t.Errorf("hover at %v: hit %d (%v), want a line", tc.pt, idx, ok)
		}
		if got := ov.hoverItem(idx, out, st, vp, px, py); got != tc.want {
			t.Errorf("hover at %v: hit %d, shows %d, want %d", tc.pt, idx, got, tc.want)
		}
	}
	if tip := frameTooltip(ov, out, 3); tip != frameTooltip(ov, out, 5) {
		t.Errorf("line and marker tooltips differ: %q, %q", tip, frameTooltip(ov, out, 3))
	}
	if tip := frameTooltip(ov, out, 5); !strings.HasPrefix(tip, "b (point MDS)\n") || !strings.HasSuffix(tip, "to the ellipse's mean 5") {
		t.Errorf("tooltip %q", tip)
	}
}

// TestBaselineConnectorsInGlyphMode: with the ellipses shrunk to glyphs
// the point-MDS connectors still join each marker to its item's mean
// (they used to shrink with the glyphs into slivers), and the glyph
// factor is the fit's own.
func TestBaselineConnectorsInGlyphMode(t *testing.T) {
	sc := &render.Scene{
		Dim:    2,
		Means:  []float64{0, 0, 10, 0},
		Scales: []float64{1, 0, 0, 1, 1, 0, 0, 1},
	}
	snap := &emds.Snapshot{N: 2, Dim: 2, Means: sc.Means, PointMeans: []float64{0, 3, 10, -4}, PointStress1: 0.1}
	st := render.DefaultStyle()
	st.Glyph, st.GlyphFactor = render.GlyphOn, 0.1
	out, ov := WithBaseline(sc, snap, true, st)
	if ov == nil || !ov.lines {
		t.Fatal("no connectors")
	}
	lay := render.NewLayout(out, st)
	if lay.Glyph != 0.1 || math.Abs(lay.Shapes[0].M.A-0.01) > 1e-12 {
		t.Fatalf("glyph %g, item 0 at %+v", lay.Glyph, lay.Shapes[0].M)
	}
	for k := 0; k < 2; k++ {
		l := lay.Shapes[2+k]
		l1, _, _, _ := l.M.Eigen()
		want := math.Hypot(snap.PointMeans[2*k]-sc.Means[2*k], snap.PointMeans[2*k+1]-sc.Means[2*k+1])
		if got := 2 * math.Sqrt(l1); math.Abs(got-want) > 1e-9 {
			t.Errorf("connector %d is %g long, the marker is %g from the mean", k, got, want)
		}
	}
}
