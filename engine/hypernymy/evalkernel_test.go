package hypernymy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"burescope/engine"
	"burescope/engine/pairkernel"

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

// hypEvalCrossLoops is evalCross with M formed by the plain loops it used
// before hypMatMul (tmp = F^T A_w row by row, then the upper triangle of
// tmp F as dot products from zero): the reference for the bit-for-bit
// test below.
func hypEvalCrossLoops(c *hypItemCache, u, w int) float64 {
	d := c.d
	dd := d * d
	ft := c.ft[u*dd : (u+1)*dd]
	aw := c.a[w*dd : (w+1)*dd]
	tmp, m := make([]float64, dd), make([]float64, dd)
	for i := 0; i < d; i++ {
		ti := tmp[i*d : (i+1)*d]
		for p, f := range ft[i*d : (i+1)*d] {
			ap := aw[p*d : (p+1)*d]
			for j := range ti {
				ti[j] += f * ap[j]
			}
		}
	}
	for i := 0; i < d; i++ {
		ti := tmp[i*d : (i+1)*d]
		for j := i; j < d; j++ {
			fj := ft[j*d : (j+1)*d]
			var s float64
			for k, x := range ti {
				s += x * fj[k]
			}
			m[i*d+j] = s
		}
	}
	lam := make([]float64, d)
	if !pairkernel.NewWorkspace(d).SymEigen(m, lam) {
		return math.NaN()
	}
	var s float64
	for _, l := range lam {
		s += math.Sqrt(math.Max(l, 0))
	}
	return s
}

// hypRandCache returns a cache of n random items at dimension d, scales
// of random factors plus 0.01 I, the last nearly singular (1e-9 I).
func hypRandCache(rng *rand.Rand, n, d int) *hypItemCache {
	c := newHypItemCache(n, d)
	cws := newHypCacheWS(d)
	for i := 0; i < n; i++ {
		eps := 0.01
		if i == n-1 {
			eps = 1e-9
		}
		c.setFromScale(cws, i, engine.FactorProduct(hypRandFactor(rng, d, 1+rng.Float64()), d, d, eps))
	}
	return c
}

// TestEvalCrossBitExact checks that evalCross (M by hypMatMul, AVX2
// where the CPU has it) gives the same bits as the plain loops, so the
// ranks of the evaluation do not depend on the kernel, for d = 5 to 13
// (the dimensions that take this path) on random and nearly singular
// scales.
func TestEvalCrossBitExact(t *testing.T) {
	for d := hypJacobiMaxDim + 1; d <= 13; d++ {
		const n = 8
		c := hypRandCache(rand.New(rand.NewPCG(uint64(d), 17)), n, d)
		ws := newHypEvalWS(d)
		for u := 0; u < n; u++ {
			for w := 0; w < n; w++ {
				got, want := c.evalCross(ws, u, w), hypEvalCrossLoops(c, u, w)
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("d=%d u=%d w=%d: %v, loops %v", d, u, w, got, want)
				}
			}
		}
	}
}

// TestEvalScoresLanes checks that evalScores (the eigenvalue problems
// Wide() at a time) gives evalScore's bits for every pair, for
// every batch length up to 9 and d = 1 to 12, on random and nearly
// singular scales.
func TestEvalScoresLanes(t *testing.T) {
	for d := 1; d <= 12; d++ {
		rng := rand.New(rand.NewPCG(uint64(d), 19))
		const n = 9
		means := make([]float64, n*d)
		for i := range means {
			means[i] = rng.NormFloat64()
		}
		c := hypRandCache(rng, n, d)
		ws := newHypEvalWS(d)
		for u := 0; u < n; u++ {
			for m := 1; m <= n; m++ {
				w := make([]int, m)
				for k := range w {
					w[k] = (u + 3*k) % n
				}
				got := make([]float64, m)
				c.evalScores(ws, means, u, w, got)
				for k, x := range w {
					if want := c.evalScore(ws, means, u, x); math.Float64bits(got[k]) != math.Float64bits(want) {
						t.Fatalf("d=%d u=%d batch %d: score of %d = %v, evalScore %v", d, u, m, x, got[k], want)
					}
				}
			}
		}
	}
}

// evalScore returns (for the tests, pair by pair) the pseudo dot product <a_u, a_w> + evalCross(u, w)
// of items u and w (means n*d).
func (c *hypItemCache) evalScore(ws *hypEvalWS, means []float64, u, w int) float64 {
	d := c.d
	mu := means[u*d : (u+1)*d]
	mw := means[w*d : (w+1)*d]
	var dot float64
	for i := range mu {
		dot += mu[i] * mw[i]
	}
	return dot + c.evalCross(ws, u, w)
}
