package ui

import (
	"math"
	"testing"

	"burescope/render"
	"burescope/ui/fit"
	"burescope/ui/view"
)

// TestStressColourWithGeodesic: coloured by stress with the geodesic tool
// on the canvas, the legend's stress bar is the data's share of stress in
// % (the smallest item's share, not 0: the geodesic's measure is not data)
// and its ends bracket the tooltip's shares.
func TestStressColourWithGeodesic(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	a.sess.Step(30)
	pause(t, a)
	a.on(func() {
		s := a.set
		s.ColorBy = "stress"
		host{a.App}.ApplyView(s)
		a.tabs.SelectIndex(3)
		a.geo.SetPair(0, 100)
		a.geo.SetT(0.5)
	})
	a.loop.Wake()
	eventually(t, "the geodesic frame coloured by stress", func() bool {
		f := a.frame()
		return f != nil && f.Scene != nil && f.Scene.Len() > 150 && f.Style.ColorBy == render.ColorStress
	})
	maybeShot(t, a, "stress-geodesic.png")
	f := a.frame()
	items := render.LegendItems(f.Scene, f.Style, render.NewLayout(f.Scene, f.Style))
	bar := items[0]
	if bar.Kind != render.LegendBar || bar.Text != "share of stress (%)" {
		t.Fatalf("legend %+v", items)
	}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range f.Scene.PerPoint[:150] {
		lo, hi, sum = math.Min(lo, v), math.Max(hi, v), sum+v
	}
	if !(bar.Lo > 0) || !(bar.Lo <= 100*lo/sum+1e-9) || !(bar.Hi >= 100*hi/sum-1e-9) {
		t.Errorf("stress bar %g..%g %%, data shares %g..%g %%", bar.Lo, bar.Hi, 100*lo/sum, 100*hi/sum)
	}
}

// TestPlayKeepsGlyphFactor: the geodesic between two saved states is drawn
// at one glyph factor for every t of a Play (state A's), and the geodesic
// between two items at the data's own factor: the picture does not jump
// between 0.15x, 0.25x and full size as t crosses [0, 1].
func TestPlayKeepsGlyphFactor(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	pause(t, a)
	a.on(func() {
		a.tabs.SelectIndex(3)
		a.geo.SetStatesMode(true)
		a.geo.SaveState(false)
	})
	it0 := a.sess.Snapshot().Iter
	if !a.sess.Step(300) {
		t.Fatalf("Step refused in state %v", a.sess.State())
	}
	eventually(t, "300 steps", func() bool {
		return a.sess.State() == fit.StatePaused && a.sess.Snapshot().Iter >= it0+299
	})
	a.on(func() { a.geo.SaveState(true) })
	sa, sb := a.geo.States()
	glyphAt := func(tt float64) (float64, float64) {
		a.on(func() { a.geo.SetT(tt) })
		a.loop.Wake()
		want := (1-tt)*sa.Means[0] + tt*sb.Means[0] // means move on straight lines
		var f *view.Frame
		eventually(t, "the frame at t", func() bool {
			f = a.frame()
			return f != nil && f.Scene != nil && f.Scene.GlyphFrom != nil && math.Abs(f.Scene.Means[0]-want) < 1e-9
		})
		free := *f.Scene
		free.GlyphFrom = nil
		return render.NewLayout(f.Scene, f.Style).Glyph, render.NewLayout(&free, f.Style).Glyph
	}
	var first float64
	for k, tt := range []float64{-2, -1, 0, 0.5, 1, 2, 3} {
		g, free := glyphAt(tt)
		t.Logf("t = %g: glyph %g (free choice %g)", tt, g, free)
		if k == 0 {
			first = g
		} else if g != first {
			t.Errorf("t = %g: glyph factor %g, at t = -1 it was %g", tt, g, first)
		}
	}
}
