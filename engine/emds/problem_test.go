package emds

import (
	"burescope/engine"
	"math"
	"testing"
)

func TestPairOfInvertsPairIndex(t *testing.T) {
	for _, n := range []int{2, 3, 7, 100, 1001} {
		k := 0
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if engine.PairIndex(n, i, j) != k {
					t.Fatalf("n=%d: engine.PairIndex(%d,%d) = %d, want %d", n, i, j, engine.PairIndex(n, i, j), k)
				}
				if a, b := PairOf(n, k); a != i || b != j {
					t.Fatalf("n=%d: PairOf(%d) = (%d,%d), want (%d,%d)", n, k, a, b, i, j)
				}
				k++
			}
		}
	}
}

func TestNewProblemNormalises(t *testing.T) {
	dist := []float64{3000, 4000, 5000}
	p, err := NewProblem(3, 2, dist, nil, engine.Gaussian())
	if err != nil {
		t.Fatal(err)
	}
	// RMS of (3000, 4000, 5000) = sqrt(50e6/3).
	want := math.Sqrt(50e6 / 3)
	if !(math.Abs(p.Scale-want) <= 1e-9*want) {
		t.Errorf("scale %v, want %v", p.Scale, want)
	}
	if !(math.Abs(p.SumD2-3) <= 1e-12) {
		t.Errorf("internal sum of squares %v, want 3 (RMS 1)", p.SumD2)
	}
	if &p.Dist[0] != &dist[0] {
		t.Error("the problem copied the distances (they must be stored once)")
	}
	for _, tc := range []struct {
		name string
		n    int
		d, w []float64
	}{
		{"one object", 1, nil, nil},
		{"length", 3, []float64{1, 2}, nil},
		{"NaN", 3, []float64{1, math.NaN(), 1}, nil},
		{"Inf", 3, []float64{1, math.Inf(1), 1}, nil},
		{"negative", 3, []float64{1, -2, 1}, nil},
		{"weights length", 3, []float64{1, 2, 3}, []float64{1}},
		{"negative weight", 3, []float64{1, 2, 3}, []float64{1, -1, 1}},
	} {
		if _, err := NewProblem(tc.n, 2, tc.d, tc.w, engine.Gaussian()); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
