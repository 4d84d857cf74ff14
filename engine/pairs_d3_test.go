package engine

import (
	"burescope/internal/testkit"
	"math"
	"math/rand/v2"
	"testing"
)

// record3 builds a d3Kernel per-point record for the scale c (3x3).
func record3(c []float64) []float64 {
	k := &d3Kernel{}
	k.prepare(&Problem{N: 1, Dim: 3, Tau: 1}, State{Means: make([]float64, 3), Scales: c})
	return k.pt[:d3Rec]
}

// randSPD3 is a random 3 x 3 scale L L^T + I / cond.
func randSPD3(rng *rand.Rand, cond float64) []float64 {
	return testkit.RandomPSD(rng, 3, 3, 1, 1/cond)
}

func unpack6(s [6]float64) []float64 {
	return []float64{s[0], s[1], s[2], s[1], s[3], s[4], s[2], s[4], s[5]}
}

func TestD3ClosedFormAgainstEigen(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	type pair struct {
		name string
		a, b []float64
	}
	cases := []pair{
		{"identity", []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}},
		{"diagonal", []float64{4, 0, 0, 0, 1, 0, 0, 0, 0.25}, []float64{1, 0, 0, 0, 9, 0, 0, 0, 16}},
		{"scaled copy", []float64{2, 0.5, 0.1, 0.5, 1, 0.2, 0.1, 0.2, 3}, []float64{8, 2, 0.4, 2, 4, 0.8, 0.4, 0.8, 12}},
		{"equal eigenvalues of AB", []float64{2, 0, 0, 0, 2, 0, 0, 0, 2}, []float64{3, 0, 0, 0, 3, 0, 0, 0, 3}},
	}
	for k := 0; k < 20; k++ {
		cases = append(cases, pair{"random", randSPD3(rng, 10), randSPD3(rng, 10)})
	}
	for k := 0; k < 5; k++ {
		cases = append(cases, pair{"ill-conditioned", randSPD3(rng, 1e5), randSPD3(rng, 1e4)})
	}
	for _, tc := range cases {
		wantP, wantAB := exactBures(t, tc.a, tc.b, 3)
		_, wantBA := exactBures(t, tc.b, tc.a, 3)
		var tab, tba [6]float64
		p := bures3(record3(tc.a), record3(tc.b), true, &tab, &tba)
		if !(math.Abs(p-wantP) <= 1e-11*wantP) {
			t.Errorf("%s: p = %.15g, exact %.15g", tc.name, p, wantP)
		}
		scale := 0.0
		for _, v := range wantAB {
			scale = math.Max(scale, math.Abs(v))
		}
		for k, v := range unpack6(tab) {
			if !(math.Abs(v-wantAB[k]) <= 1e-7*scale) {
				t.Errorf("%s: T^AB[%d] = %.12g, exact %.12g", tc.name, k, v, wantAB[k])
			}
		}
		scale = 0
		for _, v := range wantBA {
			scale = math.Max(scale, math.Abs(v))
		}
		for k, v := range unpack6(tba) {
			if !(math.Abs(v-wantBA[k]) <= 1e-7*scale) {
				t.Errorf("%s: T^BA[%d] = %.12g, exact %.12g", tc.name, k, v, wantBA[k])
			}
		}
	}
}

// TestD3ScaledCopy checks T^{A, cA} = sqrt(c) I (docs/math.md: T A T = B).
func TestD3ScaledCopy(t *testing.T) {
	a := []float64{2, 0.5, 0.1, 0.5, 1, 0.2, 0.1, 0.2, 3}
	b := make([]float64, 9)
	for k := range a {
		b[k] = 4 * a[k]
	}
	var tab, tba [6]float64
	bures3(record3(a), record3(b), true, &tab, &tba)
	want := [6]float64{2, 0, 0, 2, 0, 2}
	for k := range tab {
		if !(math.Abs(tab[k]-want[k]) <= 1e-12) || !(math.Abs(tba[k]-want[k]/4) <= 1e-12) {
			t.Errorf("T^AB = %v, T^BA = %v; want 2 I and I/2", tab, tba)
			break
		}
	}
}

// bures3 returns tr(A^{1/2} B A^{1/2})^{1/2} = p and, when maps is true,
// the symmetric transport maps T^{AB} and T^{BA} (6 unique entries each)
// for the 20-value records x (A) and y (B).
func bures3(x, y []float64, maps bool, tab, tba *[6]float64) float64 {
	var v d3Inv
	v.invariants(x, y)
	p := v.root()
	if maps {
		v.maps(p, tab, tba)
	}
	return p
}
