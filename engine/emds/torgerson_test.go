package emds

import (
	"burescope/engine"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/mds"
)

// torgerson (O(m^2) double centring) against gonum's TorgersonScaling on
// Euclidean and non-Euclidean distances: the same eigenvalues and the same
// coordinates up to the sign of each column.
func TestTorgersonMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, tc := range []struct {
		name      string
		euclidean bool
	}{{"euclidean", true}, {"non-euclidean", false}} {
		t.Run(tc.name, func(t *testing.T) {
			n, d := 60, 3
			var dist []float64
			if tc.euclidean {
				dist = randomDistances(rng, n, 5)
			} else {
				dist = make([]float64, n*(n-1)/2)
				for k := range dist {
					dist[k] = 0.5 + rng.Float64()
				}
			}
			idx := make([]int, n)
			for i := range idx {
				idx[i] = i
			}
			x, vals, err := torgerson(n, d, dist, idx)
			if err != nil {
				t.Fatal(err)
			}
			sym := mat.NewSymDense(n, nil)
			for a := 0; a < n; a++ {
				for b := a + 1; b < n; b++ {
					sym.SetSym(a, b, dist[engine.PairIndex(n, a, b)])
				}
			}
			var ref mat.Dense
			eig := make([]float64, n)
			k, eig := mds.TorgersonScaling(&ref, eig, sym)
			for c := 0; c < d && c < k; c++ {
				if !(math.Abs(vals[c]-eig[c]) <= 1e-9*math.Abs(eig[0])) {
					t.Errorf("eigenvalue %d: %g, gonum %g", c, vals[c], eig[c])
				}
				sign := 1.0
				if x[c]*ref.At(0, c) < 0 {
					sign = -1
				}
				for a := 0; a < n; a++ {
					if e := math.Abs(sign*x[a*d+c] - ref.At(a, c)); !(e <= 1e-8) {
						t.Fatalf("coordinate (%d, %d): %g, gonum %g", a, c, x[a*d+c], ref.At(a, c))
					}
				}
			}
		})
	}
}
