package emds

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// exactBures returns tr (A^{1/2} B A^{1/2})^{1/2} and T^{AB} by gonum
// eigendecompositions: the independent reference for the closed forms.
func exactBures(t *testing.T, a, b []float64, d int) (float64, []float64) {
	t.Helper()
	eig := func(m []float64) ([]float64, *mat.Dense) {
		var e mat.EigenSym
		s := mat.NewSymDense(d, nil)
		for r := 0; r < d; r++ {
			for c := r; c < d; c++ {
				s.SetSym(r, c, 0.5*(m[r*d+c]+m[c*d+r]))
			}
		}
		if !e.Factorize(s, true) {
			t.Fatal("eigendecomposition failed")
		}
		var v mat.Dense
		e.VectorsTo(&v)
		return e.Values(nil), &v
	}
	fn := func(l []float64, v *mat.Dense, f func(float64) float64) []float64 {
		out := make([]float64, d*d)
		for r := 0; r < d; r++ {
			for c := 0; c < d; c++ {
				for k := 0; k < d; k++ {
					out[r*d+c] += v.At(r, k) * f(l[k]) * v.At(c, k)
				}
			}
		}
		return out
	}
	mul := func(x, y []float64) []float64 {
		out := make([]float64, d*d)
		for r := 0; r < d; r++ {
			for c := 0; c < d; c++ {
				for k := 0; k < d; k++ {
					out[r*d+c] += x[r*d+k] * y[k*d+c]
				}
			}
		}
		return out
	}
	la, va := eig(a)
	ra := fn(la, va, math.Sqrt)
	ira := fn(la, va, func(x float64) float64 { return 1 / math.Sqrt(x) })
	lm, vm := eig(mul(mul(ra, b), ra))
	var tr float64
	for _, l := range lm {
		tr += math.Sqrt(math.Max(l, 0))
	}
	sq := fn(lm, vm, func(x float64) float64 { return math.Sqrt(math.Max(x, 0)) })
	return tr, mul(mul(ira, sq), ira)
}

// pairMap evaluates a 2-object problem on the CPU backend with unit target
// distance 0 and recovers W and the transport map T^{AB} from the scale
// gradient of object 0: G_A = tau g (I - T^{AB}) with g = -(0 - W)/W = 1.
func pairMap(t *testing.T, a, b []float64, d int) (w float64, tab []float64) {
	t.Helper()
	p := &Problem{N: 2, Dim: d, Tau: 1, Dist: []float64{0}}
	be := NewCPUBackend(1)
	if err := be.Load(p); err != nil {
		t.Fatal(err)
	}
	s := State{Means: make([]float64, 2*d), Scales: append(append([]float64(nil), a...), b...)}
	g := Gradient{Scales: make([]float64, 2*d*d)}
	st, err := be.Evaluate(context.Background(), s, &g)
	if err != nil {
		t.Fatal(err)
	}
	tab = make([]float64, d*d)
	for r := 0; r < d; r++ {
		for c := 0; c < d; c++ {
			id := 0.0
			if r == c {
				id = 1
			}
			tab[r*d+c] = id - g.Scales[r*d+c]
		}
	}
	return math.Sqrt(st), tab
}

func TestD2ClosedFormAgainstEigen(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []float64
	}{
		{"identity", []float64{1, 0, 0, 1}, []float64{1, 0, 0, 1}},
		{"diagonal", []float64{4, 0, 0, 1}, []float64{1, 0, 0, 9}},
		{"general", []float64{2, 0.7, 0.7, 1}, []float64{0.5, -0.2, -0.2, 3}},
		{"thin", []float64{1e-3, 0, 0, 5}, []float64{3, 1, 1, 1}},
		{"scaled copy", []float64{2, 0.5, 0.5, 1}, []float64{8, 2, 2, 4}},
		{"large", []float64{1e4, 3e3, 3e3, 2e3}, []float64{0.02, 0, 0, 0.03}},
	} {
		wantT, wantMap := exactBures(t, tc.a, tc.b, 2)
		w, tab := pairMap(t, tc.a, tc.b, 2)
		wantW := math.Sqrt(math.Max(tc.a[0]+tc.a[3]+tc.b[0]+tc.b[3]-2*wantT, 0))
		if !(math.Abs(w-wantW) <= 1e-9*math.Max(1, wantW)) {
			t.Errorf("%s: W = %.15g, exact %.15g", tc.name, w, wantW)
		}
		if wantW < 1e-9 {
			continue // identical scales: W = 0, gradient undefined
		}
		for k := range tab {
			if !(math.Abs(tab[k]-wantMap[k]) <= 1e-7*math.Max(1, math.Abs(wantMap[k]))) {
				t.Errorf("%s: T[%d] = %.12g, exact %.12g", tc.name, k, tab[k], wantMap[k])
			}
		}
	}
}

// TestD2Hellinger checks the diagonal identity of docs/math.md:
// Bures^2 = |sqrt(diag A) - sqrt(diag B)|^2.
func TestD2Hellinger(t *testing.T) {
	a := []float64{4, 0, 0, 0.25}
	b := []float64{9, 0, 0, 1}
	w, _ := pairMap(t, a, b, 2)
	want := math.Sqrt((2-3)*(2-3) + (0.5-1)*(0.5-1))
	if !(math.Abs(w-want) <= 1e-14) {
		t.Errorf("W = %.16g, Hellinger %.16g", w, want)
	}
}
