package hypernymy

import "math"

// The exact score of the reconstruction evaluation: the cross term
// tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} = tr M^{1/2}, M = F_u^T A_w F_u, from
// the eigenvalues of M alone. For d > hypJacobiMaxDim they are the shared
// pair kernel's (pairkernel.Workspace.SymValues: Householder reduction to
// tridiagonal form without accumulating the reflections, then the
// implicit QL iteration); smaller d use crossTrace (closed forms, Jacobi).
// Both the brute-force rows (DotProductRows) and the pruned evaluation
// score with it, so their ranks agree exactly.

// hypEvalWS is the scratch space of evalCross.
type hypEvalWS struct {
	m, tmp, lam []float64
	f           []float64 // F (the transpose of the cache's F^T)
	eig         *hypEig
}

func newHypEvalWS(d int) *hypEvalWS {
	return &hypEvalWS{m: make([]float64, d*d), tmp: make([]float64, d*d), f: make([]float64, d*d), lam: make([]float64, d),
		eig: newHypEig(d)}
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
	// tmp = F^T A_w, then m = tmp F (SymValues reads the upper triangle
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
	if !ws.eig.pk.SymValues(m, lam) {
		return math.NaN()
	}
	var s float64
	for _, l := range lam {
		s += math.Sqrt(math.Max(l, 0))
	}
	return s
}

// evalScore returns the pseudo dot product <a_u, a_w> + evalCross(u, w)
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
