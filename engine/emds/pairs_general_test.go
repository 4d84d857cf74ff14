package emds

import (
	"burescope/engine"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestJacobiEigAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, d := range []int{1, 2, 3, 4, 7, 12, 16} {
		a := make([]float64, d*d)
		for r := 0; r < d; r++ {
			for c := r; c < d; c++ {
				v := rng.NormFloat64()
				a[r*d+c], a[c*d+r] = v, v
			}
		}
		sym := mat.NewSymDense(d, append([]float64(nil), a...))
		var e mat.EigenSym
		if !e.Factorize(sym, false) {
			t.Fatal("gonum failed")
		}
		want := e.Values(nil)
		m := append([]float64(nil), a...)
		v := make([]float64, d*d)
		l := make([]float64, d)
		engine.JacobiEigen(m, d, v, l)
		got := append([]float64(nil), l...)
		sort.Float64s(got)
		for k := range want {
			if !(math.Abs(got[k]-want[k]) <= 1e-12*math.Max(1, math.Abs(want[k]))) {
				t.Errorf("d=%d eigenvalue %d = %.15g, gonum %.15g", d, k, got[k], want[k])
			}
		}
		// Reconstruction a = V diag(l) V^T.
		rec := make([]float64, d*d)
		for r := 0; r < d; r++ {
			for c := 0; c < d; c++ {
				for k := 0; k < d; k++ {
					rec[r*d+c] += v[r*d+k] * l[k] * v[c*d+k]
				}
			}
		}
		for k := range a {
			if !(math.Abs(rec[k]-a[k]) <= 1e-12*float64(d)) {
				t.Errorf("d=%d: V L V^T differs from A at %d: %g vs %g", d, k, rec[k], a[k])
				break
			}
		}
	}
}
