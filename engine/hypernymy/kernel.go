package hypernymy

import (
	"math"

	"burescope/engine"
	"burescope/engine/pairkernel"
)

// This file holds the allocation-free kernels of the hypernymy trainer
// (trainer.go) and of the reconstruction evaluation (eval.go):
// the pseudo dot product with its T-map gradients on per-worker workspaces.
// The exact, allocating references they are tested against are SqrtPSD,
// TransportMap and CrossTrace.

// hypEig is the scratch space of the symmetric eigensolver used by the
// kernels: engine/pairkernel's (Householder tridiagonalisation and the
// implicit QL iteration, the shared small-matrix kernel) for d >
// hypJacobiMaxDim, cyclic Jacobi for smaller d (one exact rotation at
// d = 2), where it is faster: BenchmarkHypPairLoss, min of 5 runs on a
// loaded 2-core machine, Jacobi against pairkernel 8.6 / 15.8 us at
// d = 2, 28.6 / 38.4 at d = 3, 81.5 / 59.1 at d = 4.
const hypJacobiMaxDim = 3

type hypEig struct {
	d  int
	pk *pairkernel.Workspace
}

func newHypEig(d int) *hypEig {
	return &hypEig{d: d, pk: pairkernel.NewWorkspace(d)}
}

// vectors writes the eigenvalues of the symmetric d x d matrix m (used as
// scratch) into lam and orthonormal eigenvectors into the columns of v.
func (h *hypEig) vectors(m, v, lam []float64) {
	h.rows(m, v, lam)
	hypTranspose(v, h.d)
}

// rows is vectors with the eigenvectors in the rows of w (w = Q^T,
// m = w^T diag(lam) w): the layout the loss kernel reads contiguously.
func (h *hypEig) rows(m, w, lam []float64) {
	d := h.d
	if d <= hypJacobiMaxDim {
		engine.JacobiEigen(m, d, w, lam)
		hypTranspose(w, d)
		return
	}
	copy(w, m[:d*d])
	if !h.pk.SymEigen(w, lam) {
		// QL failed to converge (non-finite input): fall back to Jacobi,
		// which always terminates.
		engine.JacobiEigen(m, d, w, lam)
		hypTranspose(w, d)
	}
}

// rowsLanes is rows for the n <= h.lanes() matrices m[k*d*d:]
// (eigenvectors into w[k*d*d:], eigenvalues into lam[k*d:]), by
// pairkernel's SymEigenLanesWide for d > hypJacobiMaxDim (the same
// results as rows, matrix by matrix).
func (h *hypEig) rowsLanes(m, w, lam []float64, n int) {
	d := h.d
	dd := d * d
	if d <= hypJacobiMaxDim {
		for k := 0; k < n; k++ {
			h.rows(m[k*dd:(k+1)*dd], w[k*dd:(k+1)*dd], lam[k*d:(k+1)*d])
		}
		return
	}
	var ws, ls [pairkernel.WideLanes][]float64
	for k := 0; k < n; k++ {
		ws[k], ls[k] = w[k*dd:(k+1)*dd], lam[k*d:(k+1)*d]
		copy(ws[k], m[k*dd:(k+1)*dd])
	}
	ok := h.pk.SymEigenLanesWide(&ws, &ls, n)
	for k := 0; k < n; k++ {
		if !ok[k] {
			// QL failed to converge (non-finite input): Jacobi.
			engine.JacobiEigen(m[k*dd:(k+1)*dd], d, ws[k], ls[k])
			hypTranspose(ws[k], d)
		}
	}
}

// lanes returns how many matrices rowsLanes takes at once.
func (h *hypEig) lanes() int { return h.pk.Wide() }

// hypTranspose transposes the d x d matrix a in place.
func hypTranspose(a []float64, d int) {
	for i := 0; i < d; i++ {
		for j := i + 1; j < d; j++ {
			a[i*d+j], a[j*d+i] = a[j*d+i], a[i*d+j]
		}
	}
}

// values writes the eigenvalues of the symmetric d x d matrix m (used as
// scratch) into lam.
func (h *hypEig) values(m, lam []float64) {
	d := h.d
	if d <= hypJacobiMaxDim {
		engine.JacobiEigen(m, d, nil, lam)
		return
	}
	if !h.pk.SymValues(m, lam) {
		for i := range lam {
			lam[i] = math.NaN()
		}
	}
}

// hypSpectral writes v diag(f) v^T into out (d x d), where the columns of
// v are orthonormal eigenvectors and f holds one weight per column.
func hypSpectral(out, v, f []float64, d int) {
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for k := 0; k < d; k++ {
				s += v[i*d+k] * f[k] * v[j*d+k]
			}
			out[i*d+j] = s
			out[j*d+i] = s
		}
	}
}

// hypMul writes the product of the d x d matrices a and b into c (c must
// not alias a or b).
func hypMul(c, a, b []float64, d int) {
	for i := 0; i < d; i++ {
		ci := c[i*d : i*d+d]
		clear(ci)
		ai := a[i*d : i*d+d]
		for p, aip := range ai {
			bp := b[p*d : p*d+len(ci)]
			ci := ci[:len(bp)]
			for j, v := range bp {
				ci[j] += aip * v
			}
		}
	}
}

// hypMulUpper writes the product of the upper triangular d x d matrix a
// (entries below the diagonal are ignored) and b into c (c must not alias
// a or b).
func hypMulUpper(c, a, b []float64, d int) {
	for i := 0; i < d; i++ {
		ci := c[i*d : i*d+d]
		ai := a[i*d : i*d+d]
		p := i
		if (d-i)%2 == 1 {
			aip := ai[p]
			bp := b[p*d : p*d+len(ci)]
			ci := ci[:len(bp)]
			for j, v := range bp {
				ci[j] = aip * v
			}
			p++
		} else {
			clear(ci)
		}
		for ; p+1 < len(ai); p += 2 {
			a0, a1 := ai[p], ai[p+1]
			b0 := b[p*d : p*d+len(ci)]
			b1 := b[(p+1)*d : (p+1)*d+len(ci)]
			b1, ci := b1[:len(b0)], ci[:len(b0)]
			for j, v := range b0 {
				ci[j] += a0*v + a1*b1[j]
			}
		}
	}
}

// hypItemCache is the per-measure cache the kernels need, refreshed
// whenever the factors change. For every item, A = L L^T + eps I and a
// factor F with A = F F^T: the kernels use
//
//	M = F_u^T A_v F_u,  tr M^{1/2} = tr (A_u^{1/2} A_v A_u^{1/2})^{1/2}
//
// (M is similar to A_u A_v, whose eigenvalues are those of
// A_u^{1/2} A_v A_u^{1/2}), and the transport maps
// T^{A_u A_v} = F_u^{-T} M^{1/2} F_u^{-1} and T^{A_v A_u} = F_u M^{-1/2} F_u^T
// (both are symmetric positive definite and T A_u T = A_v; docs/hypernymy.md).
// Training takes F = the Cholesky factor (d^3/6 operations, no
// eigenvalue problem); scales read from a file take F = A^{1/2} (an
// eigendecomposition, which also handles singular A). Stored, all d x d
// row-major at offset i*d*d: a = A, ft = F^T, fit = F^{-T}, k = F^T F
// and p = F^{-1} L.
type hypItemCache struct {
	d                int
	a, ft, fit, k, p []float64
}

func newHypItemCache(n, d int) *hypItemCache {
	dd := d * d
	return &hypItemCache{d: d, a: make([]float64, n*dd), ft: make([]float64, n*dd),
		fit: make([]float64, n*dd), k: make([]float64, n*dd), p: make([]float64, n*dd)}
}

// hypCacheWS is the scratch space of one goroutine refreshing the cache.
type hypCacheWS struct {
	m, v, lam, f []float64
	eig          *hypEig
}

func newHypCacheWS(d int) *hypCacheWS {
	return &hypCacheWS{m: make([]float64, d*d), v: make([]float64, d*d),
		lam: make([]float64, d), f: make([]float64, d), eig: newHypEig(d)}
}

// setFromFactor fills item i of the cache from its d x d factor l:
// A = l l^T + eps I, its Cholesky factor C (F = C) and the derived
// matrices. It returns false when A is not numerically positive definite
// (non-finite entries).
func (c *hypItemCache) setFromFactor(ws *hypCacheWS, i int, l []float64, eps float64) bool {
	d := c.d
	dd := d * d
	a := c.a[i*dd : (i+1)*dd]
	for r := 0; r < d; r++ {
		for q := 0; q <= r; q++ {
			var s float64
			for k := 0; k < d; k++ {
				s += l[r*d+k] * l[q*d+k]
			}
			a[r*d+q] = s
			a[q*d+r] = s
		}
		a[r*d+r] += eps
	}
	// Cholesky A = C C^T into ws.m (lower triangle; upper left zero).
	ch := ws.m
	clear(ch)
	for j := 0; j < d; j++ {
		s := a[j*d+j]
		for k := 0; k < j; k++ {
			s -= ch[j*d+k] * ch[j*d+k]
		}
		if !(s > 0) || math.IsInf(s, 0) {
			return false
		}
		cjj := math.Sqrt(s)
		ch[j*d+j] = cjj
		for r := j + 1; r < d; r++ {
			s := a[r*d+j]
			for k := 0; k < j; k++ {
				s -= ch[r*d+k] * ch[j*d+k]
			}
			ch[r*d+j] = s / cjj
		}
	}
	// Inverse of C (lower triangular) into ws.v by forward substitution.
	ci := ws.v
	clear(ci)
	for j := 0; j < d; j++ {
		ci[j*d+j] = 1 / ch[j*d+j]
		for r := j + 1; r < d; r++ {
			var s float64
			for k := j; k < r; k++ {
				s += ch[r*d+k] * ci[k*d+j]
			}
			ci[r*d+j] = -s / ch[r*d+r]
		}
	}
	ft := c.ft[i*dd : (i+1)*dd]
	fit := c.fit[i*dd : (i+1)*dd]
	k := c.k[i*dd : (i+1)*dd]
	p := c.p[i*dd : (i+1)*dd]
	for r := 0; r < d; r++ {
		for q := 0; q < d; q++ {
			ft[r*d+q] = ch[q*d+r]
			fit[r*d+q] = ci[q*d+r]
		}
	}
	// K = C^T C (symmetric): K_rq = sum_{m >= max(r,q)} C_mr C_mq.
	for r := 0; r < d; r++ {
		for q := 0; q <= r; q++ {
			var s float64
			for m := r; m < d; m++ {
				s += ch[m*d+r] * ch[m*d+q]
			}
			k[r*d+q] = s
			k[q*d+r] = s
		}
	}
	// P = C^{-1} L (C^{-1} lower triangular).
	for r := 0; r < d; r++ {
		for q := 0; q < d; q++ {
			var s float64
			for m := 0; m <= r; m++ {
				s += ci[r*d+m] * l[m*d+q]
			}
			p[r*d+q] = s
		}
	}
	return true
}

// setFromScale fills item i of the cache from a given symmetric scale
// matrix with F = A^{1/2} (the factor-dependent P is left as it is). A
// non-positive eigenvalue gives F^{-1} = 0 along it (pseudo-inverse) and
// the result false.
func (c *hypItemCache) setFromScale(ws *hypCacheWS, i int, scale []float64) bool {
	d := c.d
	dd := d * d
	a := c.a[i*dd : (i+1)*dd]
	for r := 0; r < d; r++ {
		for q := 0; q < d; q++ {
			a[r*d+q] = 0.5 * (scale[r*d+q] + scale[q*d+r])
		}
	}
	copy(c.k[i*dd:(i+1)*dd], a)
	copy(ws.m, a)
	ws.eig.vectors(ws.m, ws.v, ws.lam)
	ok := true
	for k, l := range ws.lam {
		if !(l > 0) || math.IsInf(l, 0) {
			ok = false
			ws.f[k] = 0
			continue
		}
		ws.f[k] = math.Sqrt(l)
	}
	hypSpectral(c.ft[i*dd:(i+1)*dd], ws.v, ws.f, d)
	for k, f := range ws.f {
		if f > 0 {
			ws.f[k] = 1 / f
		}
	}
	hypSpectral(c.fit[i*dd:(i+1)*dd], ws.v, ws.f, d)
	return ok
}

// crossTrace returns tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} = tr M^{1/2},
// M = F_u^T A_w F_u, from the cache, using m, tmp and lam (d*d, d*d and
// d) and eig as scratch. For d = 2 it uses the closed form
// tr sqrt(M) = sqrt(tr M + 2 sqrt(det M)) (docs/newton-schulz.md),
// otherwise the eigenvalues of M.
func (c *hypItemCache) crossTrace(eig *hypEig, m, tmp, lam []float64, u, w int) float64 {
	d := c.d
	dd := d * d
	ft := c.ft[u*dd : (u+1)*dd]
	hypMul(tmp, ft, c.a[w*dd:(w+1)*dd], d)
	// m = (F^T A_w) F: the upper triangle, mirrored.
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			var s float64
			fj := ft[j*d : (j+1)*d]
			for k, t := range tmp[i*d : (i+1)*d] {
				s += t * fj[k]
			}
			m[i*d+j] = s
			m[j*d+i] = s
		}
	}
	if d == 1 {
		return math.Sqrt(math.Max(m[0], 0))
	}
	if d == 2 {
		det := m[0]*m[3] - m[1]*m[2]
		return math.Sqrt(math.Max(m[0]+m[3]+2*math.Sqrt(math.Max(det, 0)), 0))
	}
	eig.values(m, lam)
	var s float64
	for _, l := range lam {
		s += math.Sqrt(math.Max(l, 0))
	}
	return s
}
