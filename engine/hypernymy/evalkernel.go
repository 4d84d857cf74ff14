package hypernymy

import (
	"math"

	"burescope/engine/pairkernel"
)

// The exact score of the reconstruction evaluation: the cross term
// tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} = tr M^{1/2}, M = F_u^T A_w F_u, from
// the eigenvalues of M. For d > hypJacobiMaxDim they are the shared
// pair kernel's (pairkernel.Workspace.SymEigen: Householder reduction to
// tridiagonal form, then the implicit QL iteration; its eigenvectors are
// not used, but its structure-of-arrays form takes 8 matrices at once
// on AVX-512 with each lane's bits SymEigen's, and at d = 10 is twice as
// fast per matrix as the values-only solver 4 at a time); smaller d use
// crossTrace (closed forms, Jacobi). Both the brute-force rows
// (DotProductRows) and the pruned evaluation score with it, so their
// ranks agree exactly.

// hypEvalWS is the scratch space of evalCross.
type hypEvalWS struct {
	m, tmp, lam []float64
	f           []float64 // F (the transpose of the cache's F^T)
	eig         *hypEig
	ml, ll      [pairkernel.WideLanes][]float64 // evalCrossLanes' M and eigenvalues
}

func newHypEvalWS(d int) *hypEvalWS {
	ws := &hypEvalWS{m: make([]float64, d*d), tmp: make([]float64, d*d), f: make([]float64, d*d), lam: make([]float64, d),
		eig: newHypEig(d)}
	for k := range ws.ml {
		ws.ml[k], ws.ll[k] = make([]float64, d*d), make([]float64, d)
	}
	return ws
}

// evalCross returns tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} from the cache.
func (c *hypItemCache) evalCross(ws *hypEvalWS, u, w int) float64 {
	d := c.d
	if d <= hypJacobiMaxDim {
		return c.crossTrace(ws.eig, ws.m, ws.tmp, ws.lam, u, w)
	}
	dd := d * d
	ft := c.ft[u*dd : (u+1)*dd]
	aw := c.a[w*dd : (w+1)*dd]
	tmp, m, f := ws.tmp[:dd], ws.m[:dd], ws.f[:dd]
	// tmp = F^T A_w, then m = tmp F (SymEigen reads the upper triangle
	// only), by hypMatMul: each entry summed over k = 0, 1, ... from
	// zero, as the plain loops, so the same bits.
	hypMatMul(tmp, ft, aw, d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			f[j*d+i] = ft[i*d+j]
		}
	}
	hypMatMul(m, tmp, f, d)
	lam := ws.lam[:d]
	if !ws.eig.pk.SymEigen(m, lam) {
		return math.NaN()
	}
	var s float64
	for _, l := range lam {
		s += math.Sqrt(math.Max(l, 0))
	}
	return s
}

// evalCrossLanes sets out[k] = evalCross(ws, u, w[k]) for every k (each
// the same bits), the eigenvalue problems pairkernel.Workspace.Wide at a
// time (8 on AVX-512: the structure-of-arrays solver, whose lanes give
// SymEigen's bits).
func (c *hypItemCache) evalCrossLanes(ws *hypEvalWS, u int, w []int, out []float64) {
	d := c.d
	if d <= hypJacobiMaxDim {
		for k, x := range w {
			out[k] = c.evalCross(ws, u, x)
		}
		return
	}
	dd := d * d
	ft := c.ft[u*dd : (u+1)*dd]
	f := ws.f[:dd]
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			f[j*d+i] = ft[i*d+j]
		}
	}
	wide := ws.eig.pk.Wide()
	for len(w) > 0 {
		n := min(len(w), wide)
		for k, x := range w[:n] {
			hypMatMul(ws.tmp[:dd], ft, c.a[x*dd:(x+1)*dd], d)
			hypMatMul(ws.ml[k], ws.tmp[:dd], f, d)
		}
		ok := ws.eig.pk.SymEigenLanesWide(&ws.ml, &ws.ll, n)
		for k := 0; k < n; k++ {
			if !ok[k] {
				out[k] = math.NaN()
				continue
			}
			var s float64
			for _, l := range ws.ll[k] {
				s += math.Sqrt(math.Max(l, 0))
			}
			out[k] = s
		}
		w, out = w[n:], out[n:]
	}
}

// evalScores sets out[k] to the pseudo dot product <a_u, a_w> +
// evalCross(u, w) of items u and w = w[k] (means n*d), for every k, by
// evalCrossLanes.
func (c *hypItemCache) evalScores(ws *hypEvalWS, means []float64, u int, w []int, out []float64) {
	d := c.d
	c.evalCrossLanes(ws, u, w, out)
	mu := means[u*d : (u+1)*d]
	for k, x := range w {
		mw := means[x*d : (x+1)*d]
		var dot float64
		for i := range mu {
			dot += mu[i] * mw[i]
		}
		out[k] = dot + out[k]
	}
}
