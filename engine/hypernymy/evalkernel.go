package hypernymy

import "math"

// The exact score of the reconstruction evaluation: the cross term
// tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} = tr M^{1/2}, M = F_u^T A_w F_u, from
// the eigenvalues of M alone. For d > hypJacobiMaxDim it reduces M to
// tridiagonal form by Householder reflections without accumulating them
// (tred2 of Numerical Recipes, values only: about 2d^3/3 multiply-adds,
// several times faster at d = 10 than LAPACK's Dsytd2 through the BLAS
// interface) and takes the eigenvalues of the tridiagonal matrix by the
// implicit QL algorithm (tqli, values only; faster here than LAPACK's
// Dsterf, which also rescales and sorts). Smaller d use crossTrace (closed forms, Jacobi).
// Both the brute-force rows (DotProductRows) and the pruned evaluation
// score with it, so their ranks agree exactly.

// hypEvalWS is the scratch space of evalCross.
type hypEvalWS struct {
	m, tmp, lam, e []float64
	f              []float64 // F (the transpose of the cache's F^T)
	eig            *hypEig
}

func newHypEvalWS(d int) *hypEvalWS {
	return &hypEvalWS{m: make([]float64, d*d), tmp: make([]float64, d*d), f: make([]float64, d*d), lam: make([]float64, d),
		e: make([]float64, d), eig: newHypEig(d)}
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
	// tmp = F^T A_w, then m = tmp F (tred2 reads the lower triangle
	// only), by hypMatMul: each entry summed over k = 0, 1, ... from
	// zero, as the plain loops, so the same bits.
	hypMatMul(tmp, ft, aw, d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			f[j*d+i] = ft[i*d+j]
		}
	}
	hypMatMul(m, tmp, f, d)
	lam, e := ws.lam[:d], ws.e[:d]
	hypTridiagValues(m, lam, e, d)
	if !hypTQLValues(lam, e, d) {
		return math.NaN()
	}
	var s float64
	for _, l := range lam {
		s += math.Sqrt(math.Max(l, 0))
	}
	return s
}

// hypTridiagValues reduces the symmetric d x d matrix a (lower triangle
// read, overwritten) to a tridiagonal matrix with the same eigenvalues:
// diagonal into diag, subdiagonal into e[1:] (e[i] couples i-1 and i).
func hypTridiagValues(a, diag, e []float64, d int) {
	for i := d - 1; i > 0; i-- {
		l := i - 1
		ai := a[i*d : i*d+i]
		if l == 0 {
			e[i] = ai[0]
			continue
		}
		var scale, h float64
		for _, v := range ai {
			scale += math.Abs(v)
		}
		if scale == 0 {
			e[i] = ai[l]
			continue
		}
		for k := range ai {
			ai[k] /= scale
			h += ai[k] * ai[k]
		}
		f := ai[l]
		g := math.Sqrt(h)
		if f >= 0 {
			g = -g
		}
		e[i] = scale * g
		h -= f * g
		ai[l] = f - g
		f = 0
		for j := 0; j <= l; j++ {
			var g float64
			aj := a[j*d : j*d+j+1]
			for k, v := range aj {
				g += v * ai[k]
			}
			for k := j + 1; k <= l; k++ {
				g += a[k*d+j] * ai[k]
			}
			e[j] = g / h
			f += e[j] * ai[j]
		}
		hh := f / (h + h)
		for j := 0; j <= l; j++ {
			f := ai[j]
			g := e[j] - hh*f
			e[j] = g
			aj := a[j*d : j*d+j+1]
			for k := range aj {
				aj[k] -= f*e[k] + g*ai[k]
			}
		}
	}
	e[0] = 0
	for i := 0; i < d; i++ {
		diag[i] = a[i*d+i]
	}
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

// hypTQLValues overwrites diag with the eigenvalues (unsorted) of the
// symmetric tridiagonal matrix with diagonal diag and subdiagonal e[1:]
// (e is overwritten), by the implicit QL algorithm with Wilkinson shifts
// (tqli of Numerical Recipes, values only). It returns false if an
// eigenvalue needs more than 60 iterations (non-finite input).
func hypTQLValues(diag, e []float64, n int) bool {
	for i := 1; i < n; i++ {
		e[i-1] = e[i]
	}
	e[n-1] = 0
	for l := 0; l < n; l++ {
		for iter := 0; ; iter++ {
			m := l
			for ; m < n-1; m++ {
				dd := math.Abs(diag[m]) + math.Abs(diag[m+1])
				if math.Abs(e[m])+dd == dd {
					break
				}
			}
			if m == l {
				break
			}
			if iter == 60 {
				return false
			}
			g := (diag[l+1] - diag[l]) / (2 * e[l])
			r := math.Sqrt(g*g + 1)
			g = diag[m] - diag[l] + e[l]/(g+math.Copysign(r, g))
			s, c, p := 1.0, 1.0, 0.0
			i := m - 1
			for ; i >= l; i-- {
				f, b := s*e[i], c*e[i]
				r = math.Sqrt(f*f + g*g)
				e[i+1] = r
				if r == 0 {
					diag[i+1] -= p
					e[m] = 0
					break
				}
				s, c = f/r, g/r
				g = diag[i+1] - p
				r = (diag[i]-g)*s + 2*c*b
				p = s * r
				diag[i+1] = g + p
				g = c*r - b
			}
			if r == 0 && i >= l {
				continue
			}
			diag[l] -= p
			e[l] = g
			e[m] = 0
		}
	}
	return true
}
