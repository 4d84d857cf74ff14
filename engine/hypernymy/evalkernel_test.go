package hypernymy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"burescope/engine"

	"gonum.org/v1/gonum/mat"
)

// TestEvalCrossAgainstGonum checks the evaluation's cross term against
// the eigenvalues of A_u^{1/2} A_w A_u^{1/2} from gonum's EigenSym (square
// roots by engine.SqrtPSD), for random scales including a near-singular
// one (1e-7 relative there, 1e-11 otherwise), at d = 1 to 16.
func TestEvalCrossAgainstGonum(t *testing.T) {
	for _, d := range []int{1, 2, 3, 5, 8, 10, 16} {
		t.Run(fmt.Sprintf("d=%d", d), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(d), 3))
			const n = 6
			c := newHypItemCache(n, d)
			cws := newHypCacheWS(d)
			scales := make([][]float64, n)
			for i := 0; i < n; i++ {
				eps := 0.01
				if i == n-1 {
					eps = 1e-9 // nearly singular
				}
				scales[i] = engine.FactorProduct(hypRandFactor(rng, d, 1), d, d, eps)
				c.setFromScale(cws, i, scales[i])
			}
			ws := newHypEvalWS(d)
			for u := 0; u < n; u++ {
				for w := 0; w < n; w++ {
					su := engine.SqrtPSD(scales[u], d)
					x := mat.NewDense(d, d, nil)
					x.Product(mat.NewDense(d, d, su), mat.NewDense(d, d, scales[w]), mat.NewDense(d, d, su))
					sym := mat.NewSymDense(d, nil)
					for i := 0; i < d; i++ {
						for j := i; j < d; j++ {
							sym.SetSym(i, j, 0.5*(x.At(i, j)+x.At(j, i)))
						}
					}
					var es mat.EigenSym
					if !es.Factorize(sym, false) {
						t.Fatal("EigenSym failed")
					}
					var want float64
					for _, l := range es.Values(nil) {
						want += math.Sqrt(math.Max(l, 0))
					}
					got := c.evalCross(ws, u, w)
					tol := 1e-11 // the square roots of tiny eigenvalues lose digits:
					if u == n-1 || w == n-1 {
						tol = 1e-7
					}
					if !(math.Abs(got-want) <= tol*want) {
						t.Errorf("u=%d w=%d: %v, gonum %v", u, w, got, want)
					}
				}
			}
		})
	}
}
