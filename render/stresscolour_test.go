package render

import (
	"math"
	"strings"
	"testing"
)

// TestStressColoursShare: colour by stress is legended in the tooltip's
// quantity (share of the total in %); near-equal values (3.75e14 ..
// 3.76e14) get colours near the palette's middle, not its two ends;
// NaN items (overlays: a geodesic's measure, the point-MDS markers) are
// grey and do not move the scale.
func TestStressColoursShare(t *testing.T) {
	st := DefaultStyle()
	st.ColorBy = ColorStress
	sc := fixtureScene()
	for i := range sc.PerPoint {
		sc.PerPoint[i] = 3.75e14 + 1e12*float64(i%2)
	}
	cols := itemColors(sc, st, sc.Len())
	mid := Viridis(0.5)
	for i, c := range cols {
		if d := math.Abs(float64(c.G) - float64(mid.G)); d > 8 {
			t.Errorf("item %d (%.4g): colour %v, want near the middle %v", i, sc.PerPoint[i], c, mid)
		}
	}
	items := LegendItems(sc, st, NewLayout(sc, st))
	sum := 6*3.75e14 + 6*3.76e14
	if it := items[0]; it.Kind != LegendBar || !strings.Contains(it.Text, "share of stress (%)") ||
		!(it.Lo < 100*3.75e14/sum && it.Hi > 100*3.76e14/sum && it.Hi-it.Lo < 1.5) {
		t.Errorf("legend %+v: want the share in %% around %.3g", it, 100/12.0)
	}
	// Spread values keep the whole palette; a NaN overlay item is grey
	// and the minimum stays the data's.
	sc = fixtureScene()
	sc.PerPoint[3] = math.NaN()
	lo, hi := stressRange(sc.PerPoint)
	if lo == 0 || hi != 0.12 {
		t.Errorf("range %g..%g with a NaN overlay item", lo, hi)
	}
	cols = itemColors(sc, st, sc.Len())
	if cols[3] != Viridis(math.NaN()) {
		t.Errorf("NaN item colour %v", cols[3])
	}
	min, max := 0, 0
	for i, v := range sc.PerPoint {
		if v == lo {
			min = i
		}
		if v == hi {
			max = i
		}
	}
	if cols[min] != Viridis(0) || cols[max] != Viridis(1) {
		t.Errorf("spread values: ends %v %v, want the palette's ends", cols[min], cols[max])
	}
}
