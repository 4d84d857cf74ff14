package words

import (
	"math"

	"burescope/engine"
	"burescope/engine/pairkernel"
)

// This file holds the per-pair kernel of the trainer: the pseudo dot
// product [mu_a : mu_b] of two measures given by factors and its
// gradients with respect to both factors, exactly and without allocating.
//
// With A = L L^T + eps I = R R^T (Cholesky) and B = M M^T + eps I, the
// matrix S = R^T B R is similar to A B and to A^{1/2} B A^{1/2}, so
//
//	tr (A^{1/2} B A^{1/2})^{1/2} = sum_i sqrt(lambda_i(S)),
//
// and the transport maps are T^{AB} = R^{-T} S^{1/2} R^{-1} (the unique SPD
// solution of T A T = B) and T^{BA} = (T^{AB})^{-1} = R S^{-1/2} R^T. One
// symmetric d x d eigendecomposition per pair therefore gives the value
// and both gradients d/dL = T^{AB} L and d/dM = T^{BA} M (docs/words.md).
// The references these are tested against are engine.CrossTrace and
// engine.TransportMap.

// eigJacobiMaxDim is the largest d whose eigendecompositions use
// engine.JacobiEigen; larger d use engine/pairkernel's eigensolver
// (Householder tridiagonalisation and implicit QL), faster there
// (BenchmarkPairKernel d = 4: 1.33 us against Jacobi's 1.82; the
// hypernymy kernel measured Jacobi ahead at d = 2 and 3).
const eigJacobiMaxDim = 3

// center holds what the kernel needs of the input measure of one pair,
// computed once per center word: A's Cholesky factor R (lower), R^T R
// and P = R^{-1} L.
type center struct {
	d, k int
	eps  float64   // the regulariser setCenter was given
	r    []float64 // d x d lower triangular, A = R R^T
	rt   []float64 // d x d, R^T
	rtr  []float64 // d x d, R^T R
	ertr []float64 // d x d, eps R^T R (formS's S when it is given this eps)
	ri   []float64 // d x d lower triangular, R^{-1} (square factors only)
	p    []float64 // d x k, R^{-1} L
}

// pairWS is the scratch space of one goroutine's kernel calls.
type pairWS struct {
	d, k            int
	q, s, w, lam, f []float64
	sh, shi, t1, t2 []float64
	z, vt           []float64 // d x d scratch of crossGemm
	ls              []float64 // d x d: crossBlock's S where the lanes solver fails
	// crossBlock's decompositions, blockPairs of them: each pair's Q,
	// the eigenvectors of its S (rows) and its clamped eigenvalues.
	bq, bw, blam []float64
	bsq          []float64             // the square roots of blam
	bms          [blockPairs][]float64 // runChunkLazy's context factors of a block
	// root is the center's sum of c S^{1/2} over its pairs (addRoot).
	root []float64
	// runChunkLazy's words of a block: mark[w] = stamp when word w is
	// crossBlock's pair slot[w] in the current block.
	mark   []uint64
	slot   []int32
	stamp  uint64
	pk     *pairkernel.Workspace
	gl, gm []float64
	c      center
}

func newPairWS(d, k int) *pairWS {
	return &pairWS{
		d: d, k: k,
		q: make([]float64, d*k), s: make([]float64, d*d), w: make([]float64, d*d),
		lam: make([]float64, d), f: make([]float64, d),
		sh: make([]float64, d*d), shi: make([]float64, d*d),
		t1: make([]float64, d*k), t2: make([]float64, d*k),
		z: make([]float64, d*d), vt: make([]float64, d*d),
		ls: make([]float64, d*d),
		bq: make([]float64, blockPairs*d*d), bw: make([]float64, blockPairs*d*d), blam: make([]float64, blockPairs*d),
		bsq:  make([]float64, blockPairs*d),
		root: make([]float64, d*d),
		pk:   pairkernel.NewWorkspace(d),
		gl:   make([]float64, d*k), gm: make([]float64, d*k),
		c: center{d: d, k: k, r: make([]float64, d*d), rt: make([]float64, d*d), rtr: make([]float64, d*d), ertr: make([]float64, d*d),
			ri: make([]float64, d*d), p: make([]float64, d*k)},
	}
}

// setCenter prepares the input measure with factor l (d x k) and
// regulariser eps. It returns false when L L^T + eps I is not positive
// definite (eps = 0 with a rank-deficient l, or non-finite entries).
func (ws *pairWS) setCenter(l []float64, eps float64) bool {
	ws.c.eps = eps
	d, k := ws.d, ws.k
	c := &ws.c
	r := c.r
	// A = L L^T + eps I into r (lower part), then Cholesky in place.
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			li, lj := l[i*k:(i+1)*k], l[j*k:(j+1)*k]
			for t := range li {
				s += li[t] * lj[t]
			}
			if i == j {
				s += eps
			}
			r[i*d+j] = s
		}
		for j := i + 1; j < d; j++ {
			r[i*d+j] = 0
		}
	}
	for j := 0; j < d; j++ {
		s := r[j*d+j]
		for t := 0; t < j; t++ {
			s -= r[j*d+t] * r[j*d+t]
		}
		if !(s > 0) {
			return false
		}
		rjj := math.Sqrt(s)
		r[j*d+j] = rjj
		for i := j + 1; i < d; i++ {
			s := r[i*d+j]
			for t := 0; t < j; t++ {
				s -= r[i*d+t] * r[j*d+t]
			}
			r[i*d+j] = s / rjj
		}
	}
	// R^T.
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			c.rt[j*d+i] = r[i*d+j]
		}
	}
	// R^T R.
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for t := i; t < d; t++ { // R[t][i] nonzero for t >= i
				s += r[t*d+i] * r[t*d+j]
			}
			c.rtr[i*d+j] = s
			c.rtr[j*d+i] = s
			c.ertr[i*d+j] = eps * s
			c.ertr[j*d+i] = eps * s
		}
	}
	// R^{-1} (lower triangular), column by column, for gradsGemm.
	for j := 0; j < d; j++ {
		for i := 0; i < j; i++ {
			c.ri[i*d+j] = 0
		}
		c.ri[j*d+j] = 1 / r[j*d+j]
		for i := j + 1; i < d; i++ {
			var s float64
			for t := j; t < i; t++ {
				s += r[i*d+t] * c.ri[t*d+j]
			}
			c.ri[i*d+j] = -s / r[i*d+i]
		}
	}
	// P = R^{-1} L by forward substitution.
	for col := 0; col < k; col++ {
		for i := 0; i < d; i++ {
			s := l[i*k+col]
			for t := 0; t < i; t++ {
				s -= r[i*d+t] * c.p[t*k+col]
			}
			c.p[i*k+col] = s / r[i*d+i]
		}
	}
	return true
}

// eig writes the eigenvalues of the symmetric d x d matrix m (destroyed)
// into lam and orthonormal eigenvectors into the columns of v.
func (ws *pairWS) eig(m, v, lam []float64) {
	d := ws.d
	if d <= eigJacobiMaxDim {
		engine.JacobiEigen(m, d, v, lam)
		return
	}
	copy(v, m[:d*d])
	if !ws.pk.SymEigen(v, lam) {
		// No convergence (non-finite input): Jacobi always terminates.
		engine.JacobiEigen(m, d, v, lam)
		return
	}
	// The rows of v are the eigenvectors: transpose into columns.
	for i := 0; i < d; i++ {
		for j := i + 1; j < d; j++ {
			v[i*d+j], v[j*d+i] = v[j*d+i], v[i*d+j]
		}
	}
}

// cross returns tr (A^{1/2} B A^{1/2})^{1/2} between the current center
// and the measure with factor m (d x k), B = M M^T + eps I. With grad it
// also fills ws.gl = T^{AB} L and ws.gm = T^{BA} M.
func (ws *pairWS) cross(m []float64, eps float64, grad bool) float64 {
	d, k := ws.d, ws.k
	if k == d && d > eigJacobiMaxDim && pairkernel.GemmAccelerated() {
		return ws.crossGemm(m, eps, grad)
	}
	c := &ws.c
	r := c.r
	// Q = R^T M.
	q := ws.q
	for i := 0; i < d; i++ {
		qi := q[i*k : (i+1)*k]
		for t := range qi {
			qi[t] = 0
		}
		for t := i; t < d; t++ {
			rti := r[t*d+i]
			mt := m[t*k : (t+1)*k]
			for u, v := range mt {
				qi[u] += rti * v
			}
		}
	}
	// S = Q Q^T + eps R^T R.
	s := ws.s
	for i := 0; i < d; i++ {
		qi := q[i*k : (i+1)*k]
		for j := 0; j <= i; j++ {
			qj := q[j*k : (j+1)*k]
			var v float64
			for u := range qi {
				v += qi[u] * qj[u]
			}
			v += eps * c.rtr[i*d+j]
			s[i*d+j] = v
			s[j*d+i] = v
		}
	}
	ws.eig(s, ws.w, ws.lam)
	var x float64
	for i, l := range ws.lam {
		l = math.Max(l, 1e-300)
		ws.lam[i] = l
		x += math.Sqrt(l)
	}
	if !grad {
		return x
	}
	// S^{1/2} and S^{-1/2}.
	w := ws.w
	for i, l := range ws.lam {
		ws.f[i] = math.Sqrt(l)
	}
	spectral(ws.sh, w, ws.f, d)
	for i, l := range ws.lam {
		ws.f[i] = 1 / math.Sqrt(l)
	}
	spectral(ws.shi, w, ws.f, d)
	// gl = R^{-T} S^{1/2} P: t1 = S^{1/2} P, then back substitution.
	matMul(ws.t1, ws.sh, c.p, d, d, k)
	for col := 0; col < k; col++ {
		for i := d - 1; i >= 0; i-- {
			v := ws.t1[i*k+col]
			for t := i + 1; t < d; t++ {
				v -= r[t*d+i] * ws.gl[t*k+col]
			}
			ws.gl[i*k+col] = v / r[i*d+i]
		}
	}
	// gm = R S^{-1/2} Q.
	matMul(ws.t2, ws.shi, q, d, d, k)
	for i := 0; i < d; i++ {
		gi := ws.gm[i*k : (i+1)*k]
		for u := range gi {
			gi[u] = 0
		}
		for t := 0; t <= i; t++ {
			rit := r[i*d+t]
			tt := ws.t2[t*k : (t+1)*k]
			for u, v := range tt {
				gi[u] += rit * v
			}
		}
	}
	return x
}

// spectral writes v diag(f) v^T into out (d x d); the columns of v are
// orthonormal eigenvectors.
func spectral(out, v, f []float64, d int) {
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for t := 0; t < d; t++ {
				s += v[i*d+t] * f[t] * v[j*d+t]
			}
			out[i*d+j] = s
			out[j*d+i] = s
		}
	}
}

// matMul writes a (n x p) times b (p x m) into c (n x m).
func matMul(c, a, b []float64, n, p, m int) {
	for i := 0; i < n; i++ {
		ci := c[i*m : (i+1)*m]
		for j := range ci {
			ci[j] = 0
		}
		for t := 0; t < p; t++ {
			ait := a[i*p+t]
			bt := b[t*m : (t+1)*m]
			for j, v := range bt {
				ci[j] += ait * v
			}
		}
	}
}

// crossDiag is cross for diagonal factors: A = diag(l^2) + eps I and
// B = diag(m^2) + eps I, so the cross term is sum_i sqrt(A_ii B_ii) and
// the gradients are l_i sqrt(B_ii/A_ii) and m_i sqrt(A_ii/B_ii). With
// grad it fills gl and gm (length d).
func crossDiag(l, m []float64, eps float64, gl, gm []float64) float64 {
	var x float64
	for i := range l {
		a := l[i]*l[i] + eps
		b := m[i]*m[i] + eps
		x += math.Sqrt(a * b)
		if gl != nil {
			gl[i] = l[i] * math.Sqrt(b/a)
			gm[i] = m[i] * math.Sqrt(a/b)
		}
	}
	return x
}

// crossGemm is cross for square factors (k = d) with every product by
// pairkernel.Gemm (AVX2+FMA): the same quantities, rounded differently.
func (ws *pairWS) crossGemm(m []float64, eps float64, grad bool) float64 {
	ws.formS(m, eps, ws.q, ws.s)
	ws.eigRows(ws.s, ws.w, ws.lam)
	x := traceRoot(ws.lam)
	if grad {
		ws.gradsGemm(ws.q, ws.w, ws.lam, ws.gl, ws.gm)
	}
	return x
}

// eigRows is eig with the eigenvectors in the rows of v.
func (ws *pairWS) eigRows(m, v, lam []float64) {
	d := ws.d
	copy(v, m[:d*d])
	if !ws.pk.SymEigen(v, lam) {
		// No convergence (non-finite input): Jacobi always terminates.
		engine.JacobiEigen(m, d, v, lam)
		transposeSquare(v, d)
	}
}

// crossLanes is crossGemm with gradients for the n <= ws.lanes() context
// factors ms[:n] against the current center, their eigendecompositions
// interleaved (crossBlock): pair k's trace is x[k] and its gradients go
// to gl[k] and gm[k], each bit for bit as crossGemm gives them. It needs
// square factors, d > eigJacobiMaxDim and Gemm (crossLanesOK).
func (ws *pairWS) crossLanes(ms *[pairkernel.WideLanes][]float64, n int, eps float64, gl, gm *[pairkernel.WideLanes][]float64) (x [pairkernel.WideLanes]float64) {
	ws.crossBlock(ms[:n], eps, x[:n])
	d := ws.d
	dd := d * d
	for k := 0; k < n; k++ {
		ws.gradsGemm(ws.bq[k*dd:(k+1)*dd], ws.bw[k*dd:(k+1)*dd], ws.blam[k*d:(k+1)*d], gl[k], gm[k])
	}
	return x
}

// crossBlock writes the cross terms of the current center against the
// len(ms) <= blockPairs square context factors ms into x, as crossGemm
// does (bit for bit), their eigendecompositions ws.lanes() at a time
// (pairkernel.SymEigenLanesWide: 8 at once on AVX-512 machines, else 4).
// It keeps pair k's Q, eigenvectors and clamped eigenvalues (and their
// square roots) in ws.bq, ws.bw, ws.blam (ws.bsq) for gradsGemm, addRoot
// and gradT. eps must be the center's (setCenter's). It needs
// crossLanesOK.
func (ws *pairWS) crossBlock(ms [][]float64, eps float64, x []float64) {
	d := ws.d
	dd := d * d
	nl := ws.lanes()
	for k0 := 0; k0 < len(ms); k0 += nl {
		n := min(nl, len(ms)-k0)
		var w, lam [pairkernel.WideLanes][]float64
		for q := 0; q < n; q++ {
			k := k0 + q
			w[q], lam[q] = ws.bw[k*dd:(k+1)*dd], ws.blam[k*d:(k+1)*d]
			ws.formS(ms[k], eps, ws.bq[k*dd:(k+1)*dd], w[q])
		}
		ok := ws.pk.SymEigenLanesWide(&w, &lam, n)
		for q := 0; q < n; q++ {
			if !ok[q] {
				// No convergence (non-finite input): S again, for
				// Jacobi, which always terminates.
				sq := ws.ls[:dd]
				ws.formS(ms[k0+q], eps, ws.bq[(k0+q)*dd:(k0+q+1)*dd], sq)
				engine.JacobiEigen(sq, d, w[q], lam[q])
				transposeSquare(w[q], d)
			}
			x[k0+q] = traceRootInto(lam[q], ws.bsq[(k0+q)*d:(k0+q+1)*d])
		}
	}
}

// addRoot adds c S^{1/2} of crossBlock's pair k to ws.root: summed over
// a center's pairs with their loss derivatives c, R^{-T} root P is the
// center factor's gradient (centerGrad), T^{AB} L = R^{-T} S^{1/2} P
// being linear in S^{1/2}.
func (ws *pairWS) addRoot(k int, c float64) {
	d := ws.d
	dd := d * d
	e, sq := ws.bw[k*dd:(k+1)*dd], ws.bsq[k*d:(k+1)*d]
	zt := ws.z
	for p, r := range sq {
		s := c * r
		zp, ep := zt[p*d:(p+1)*d], e[p*d:(p+1)*d]
		for i := range zp {
			zp[i] = ep[i] * s
		}
	}
	pairkernel.Gemm(ws.root, zt, e, d, 1, d, pairkernel.GemmAcc)
}

// centerGrad writes R^{-T} root P (the center factor's gradient summed
// over the pairs addRoot took) into g (d x d) and clears ws.root.
func (ws *pairWS) centerGrad(g []float64) {
	d := ws.d
	c := &ws.c
	pairkernel.Gemm(ws.t1, ws.root, c.p, d, d, 1, 0)
	pairkernel.Gemm(g, c.ri, ws.t1, d, 1, d, pairkernel.GemmUpper)
	clear(ws.root)
}

// gradT writes c T^{BA} = c R S^{-1/2} R^T of crossBlock's pair k into
// t (the upper triangle by rows, d (d+1)/2 values): with
// Z = D^{-1/4} E (E the eigenvectors in rows, D the eigenvalues),
// S^{-1/2} = Z^T Z and T^{BA} = G^T G for G = Z R^T, two products.
// Summed over a context word's pairs and multiplied by its factor M
// once, it gives the word's gradient sum_k c_k T^{BA}_k M (the trainer's
// ctxFactorGrad).
func (ws *pairWS) gradT(k int, t []float64, c float64) {
	d := ws.d
	dd := d * d
	e, sq := ws.bw[k*dd:(k+1)*dd], ws.bsq[k*d:(k+1)*d]
	z := ws.z
	for p, r := range sq {
		s := 1 / math.Sqrt(r)
		zp, ep := z[p*d:(p+1)*d], e[p*d:(p+1)*d]
		for i := range zp {
			zp[i] = ep[i] * s
		}
	}
	g, tf := ws.t1[:dd], ws.t2[:dd]
	pairkernel.Gemm(g, z, ws.c.rt, d, d, 1, 0)
	pairkernel.Gemm(tf, g, g, d, 1, d, 0)
	x := 0
	for i := 0; i < d; i++ {
		row := tf[i*d+i : i*d+d]
		if c == 1 {
			copy(t[x:], row)
		} else {
			for j, v := range row {
				t[x+j] = c * v
			}
		}
		x += len(row)
	}
}

// lanes returns how many pairs crossLanes takes per call.
func (ws *pairWS) lanes() int { return ws.pk.Wide() }

// crossLanesOK reports whether crossLanes serves this workspace.
func (ws *pairWS) crossLanesOK() bool {
	return ws.k == ws.d && ws.d > eigJacobiMaxDim && pairkernel.GemmAccelerated()
}

// transposeSquare transposes the d x d matrix a in place.
func transposeSquare(a []float64, d int) {
	for i := 0; i < d; i++ {
		for j := i + 1; j < d; j++ {
			a[i*d+j], a[j*d+i] = a[j*d+i], a[i*d+j]
		}
	}
}

// traceRootInto is traceRoot that also writes the square roots into sq.
func traceRootInto(lam, sq []float64) float64 {
	var x float64
	sq = sq[:len(lam)]
	for i, l := range lam {
		l = math.Max(l, 1e-300)
		lam[i] = l
		r := math.Sqrt(l)
		sq[i] = r
		x += r
	}
	return x
}

// traceRoot clamps the eigenvalues lam at 1e-300 (in place) and returns
// the sum of their square roots.
func traceRoot(lam []float64) float64 {
	var x float64
	for i, l := range lam {
		l = math.Max(l, 1e-300)
		lam[i] = l
		x += math.Sqrt(l)
	}
	return x
}

// formS writes Q = R^T M and S = eps R^T R + Q Q^T for the context factor
// m (square) into q and s, by Gemm (R^T upper triangular); the products
// q_iu q_ju are summed in the same order for s_ij and s_ji, so S is
// exactly symmetric.
func (ws *pairWS) formS(m []float64, eps float64, q, s []float64) {
	d := ws.d
	c := &ws.c
	pairkernel.Gemm(q, c.r, m, d, 1, d, pairkernel.GemmUpper)
	qt := ws.vt[:d*d]
	for i := 0; i < d; i++ {
		col := qt[i:]
		for j, v := range q[i*d : i*d+d] {
			col[j*d] = v
		}
	}
	if eps == c.eps {
		copy(s, c.ertr)
	} else {
		for i, x := range c.rtr {
			s[i] = eps * x
		}
	}
	pairkernel.Gemm(s, q, qt, d, d, 1, pairkernel.GemmAcc)
}

// gradsGemm writes gl = T^{AB} L = R^{-T} S^{1/2} P and
// gm = T^{BA} M = R S^{-1/2} Q for S's eigenvectors (the rows of e) and
// clamped eigenvalues lam, by Gemm.
func (ws *pairWS) gradsGemm(q, e, lam, gl, gm []float64) {
	d := ws.d
	c := &ws.c
	r := c.r
	// S^{1/2} = V diag(sqrt l) V^T and S^{-1/2} (V = e^T): with
	// Z^T = diag(.) e (row p of e scaled), S^{1/2} = (Z^T)^T e, Gemm
	// reading its first factor transposed.
	zt, sq := ws.z, ws.f
	for j, l := range lam {
		sq[j] = math.Sqrt(l)
	}
	for p, s := range sq[:d] {
		zp, ep := zt[p*d:(p+1)*d], e[p*d:(p+1)*d]
		for i := range zp {
			zp[i] = ep[i] * s
		}
	}
	pairkernel.Gemm(ws.sh, zt, e, d, 1, d, 0)
	for p, s := range sq[:d] {
		zp, ep := zt[p*d:(p+1)*d], e[p*d:(p+1)*d]
		is := 1 / s
		for i := range zp {
			zp[i] = ep[i] * is
		}
	}
	pairkernel.Gemm(ws.shi, zt, e, d, 1, d, 0)
	// gl = R^{-T} (S^{1/2} P): Gemm reads R^{-1} transposed (upper).
	pairkernel.Gemm(ws.t1, ws.sh, c.p, d, d, 1, 0)
	pairkernel.Gemm(gl, c.ri, ws.t1, d, 1, d, pairkernel.GemmUpper)
	// gm = R (S^{-1/2} Q), R lower triangular.
	pairkernel.Gemm(ws.t2, ws.shi, q, d, d, 1, 0)
	pairkernel.Gemm(gm, r, ws.t2, d, d, 1, pairkernel.GemmLower)
}
