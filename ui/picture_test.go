package ui

import (
	"math"
	"testing"

	"burescope/render"
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
