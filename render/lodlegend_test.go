package render

import (
	"image"
	"strings"
	"testing"
)

// TestLODLegend: a live picture drawn as density (more than LiveShapeMax
// means in view) has a legend that says so and no "ellipses at 0.05x"
// or outline line; shapes keep their lines.
func TestLODLegend(t *testing.T) {
	items := []LegendItem{{Kind: LegendSwatch, Text: "a"}, {Kind: LegendText, Text: "outline: 1-sigma ellipses"}, {Kind: LegendText, Text: "ellipses at 0.05x"}}
	if got := LODLegend(items, LODShapes, false); len(got) != 3 {
		t.Errorf("shapes: %+v", got)
	}
	for _, tc := range []struct {
		lod    LOD
		export bool
		want   string
	}{
		{LODDensity, false, "density of the means (zoom in"},
		{LODGlyphs, false, "a dot per mean"},
		{LODDensity, true, "no ellipses above 20000 items"},
	} {
		got := LODLegend(items, tc.lod, tc.export)
		var all []string
		for _, it := range got {
			all = append(all, it.Text)
		}
		s := strings.Join(all, "\n")
		if len(got) != 2 || got[0].Text != "a" || !strings.Contains(s, tc.want) || strings.Contains(s, "ellipses at") || strings.Contains(s, "outline") {
			t.Errorf("%v export %v: legend %q", tc.lod, tc.export, s)
		}
	}
	// The live view: 25,000 items all in view are drawn as density, and
	// the Live's legend is built from its LOD.
	n := LiveShapeMax + 5000
	sc := &Scene{Dim: 2, Means: make([]float64, 2*n), Scales: make([]float64, 4*n), Tau: 1}
	for i := 0; i < n; i++ {
		sc.Means[2*i], sc.Means[2*i+1] = float64(i%500), float64(i/500)
		sc.Scales[4*i], sc.Scales[4*i+3] = 0.1, 0.1
	}
	st := DefaultStyle()
	var vp Viewport
	vp.FitTo(sc, st, 600, 400)
	var l Live
	l.Draw(image.NewRGBA(image.Rect(0, 0, 600, 400)), sc, st, vp)
	if l.LOD() != LODDensity {
		t.Fatalf("LOD %v", l.LOD())
	}
}
