package engine

import (
	"math"
	"testing"
)

// TestUpdaters checks one step of each rule on f(x) = x^2/2 against the
// textbook formulas: GD x - lr g; Adam's first step moves every
// coordinate by exactly lr (bias-corrected m/sqrt(v) = sign g); Adagrad's
// first step also moves by lr.
func TestUpdaters(t *testing.T) {
	for _, tc := range []struct {
		kind string
		want []float64
	}{
		{OptGD, []float64{2 - 0.1*2, -1 - 0.1*-1}},
		{OptAdam, []float64{2 - 0.1, -1 + 0.1}},
		{OptAdagrad, []float64{2 - 0.1, -1 + 0.1}},
	} {
		u, err := newUpdater(tc.kind, 2)
		if err != nil {
			t.Fatal(err)
		}
		x := []float64{2, -1}
		g := []float64{2, -1}
		u.step(x, g, 0.1)
		for k := range x {
			if !(math.Abs(x[k]-tc.want[k]) <= 1e-9) {
				t.Errorf("%s: x = %v, want %v", tc.kind, x, tc.want)
				break
			}
		}
		// Copy and restore: a rolled-back updater repeats the same step.
		saved, _ := newUpdater(tc.kind, 2)
		saved.copyFrom(u)
		x1 := append([]float64(nil), x...)
		u.step(x1, g, 0.1)
		u.copyFrom(saved)
		x2 := append([]float64(nil), x...)
		u.step(x2, g, 0.1)
		if x1[0] != x2[0] || x1[1] != x2[1] {
			t.Errorf("%s: restored updater stepped to %v, original %v", tc.kind, x2, x1)
		}
	}
	if _, err := newUpdater("sgd", 1); err == nil {
		t.Error("unknown optimiser accepted")
	}
}
