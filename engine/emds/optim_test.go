package emds

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

// TestUpdatersSequence runs three steps with changing gradients through
// each rule and compares with the textbook recurrences written out here
// (Kingma & Ba 2015, Algorithm 1, with this package's b1 = 0.9,
// b2 = 0.999, eps = 1e-12; Duchi et al. 2011 for Adagrad's running sum
// of squares), so state carried between steps is checked, not only the
// first step.
func TestUpdatersSequence(t *testing.T) {
	grads := [][]float64{{2, -1}, {-0.5, 3}, {1, 1}}
	const lr = 0.05
	for _, kind := range []string{OptGD, OptAdam, OptAdagrad} {
		u, err := newUpdater(kind, 2)
		if err != nil {
			t.Fatal(err)
		}
		x := []float64{1, -2}
		want := []float64{1, -2}
		var m, v, s [2]float64
		for it, g := range grads {
			u.step(x, append([]float64(nil), g...), lr)
			for k := range want {
				switch kind {
				case OptGD:
					want[k] -= lr * g[k]
				case OptAdam:
					m[k] = 0.9*m[k] + 0.1*g[k]
					v[k] = 0.999*v[k] + 0.001*g[k]*g[k]
					mh := m[k] / (1 - math.Pow(0.9, float64(it+1)))
					vh := v[k] / (1 - math.Pow(0.999, float64(it+1)))
					want[k] -= lr * mh / math.Sqrt(vh)
				case OptAdagrad:
					s[k] += g[k] * g[k]
					want[k] -= lr * g[k] / math.Sqrt(s[k])
				}
			}
			for k := range x {
				if !(math.Abs(x[k]-want[k]) <= 1e-9) {
					t.Errorf("%s step %d: x = %v, want %v", kind, it+1, x, want)
					break
				}
			}
		}
	}
}

// TestAdamRangesAndRecurrence checks emds.Adam against the Adam
// recurrence written out here (Kingma & Ba 2015, Algorithm 1 with the
// folded bias correction) and that updating two sub-ranges after one
// Tick equals one Step on the whole vector.
func TestAdamRangesAndRecurrence(t *testing.T) {
	const n, lr = 7, 0.05
	whole, split := NewAdam(n), NewAdam(n)
	x1 := []float64{1, -2, 0.5, 3, 0, -1, 2}
	x2 := append([]float64(nil), x1...)
	want := append([]float64(nil), x1...)
	m, v := make([]float64, n), make([]float64, n)
	for step := 1; step <= 4; step++ {
		g := make([]float64, n)
		for k := range g {
			g[k] = math.Cos(float64(3*k+step)) * float64(step)
		}
		whole.Step(x1, g, lr)
		split.Tick()
		split.Update(x2[:3], g[:3], 0, lr)
		split.Update(x2[3:], g[3:], 3, lr)
		c1, c2 := 1-math.Pow(0.9, float64(step)), 1-math.Pow(0.999, float64(step))
		for k := range want {
			m[k] = 0.9*m[k] + 0.1*g[k]
			v[k] = 0.999*v[k] + 0.001*g[k]*g[k]
			want[k] -= lr * math.Sqrt(c2) / c1 * m[k] / (math.Sqrt(v[k]) + AdamEps)
		}
		for k := range want {
			if !(math.Abs(x1[k]-want[k]) <= 1e-14*(1+math.Abs(want[k]))) || x2[k] != x1[k] {
				t.Fatalf("step %d, entry %d: Step %.17g, ranges %.17g, recurrence %.17g", step, k, x1[k], x2[k], want[k])
			}
		}
	}
	if whole.Steps() != 4 || split.Steps() != 4 {
		t.Fatalf("steps %d, %d", whole.Steps(), split.Steps())
	}
}
