package pairkernel

import "math"

// Shape tells how a factor F (A = F F^T) is stored.
type Shape uint8

const (
	// Lower is a Cholesky factor: F lower triangular (its strict upper
	// triangle zero) and G = F^{-1} lower triangular.
	Lower Shape = iota
	// Root is the fallback for a matrix that is not numerically positive
	// definite: F = A^{1/2} and G its pseudo-inverse (zero on the null
	// space), both symmetric and stored in full.
	Root
)

// Lanes is how many pairs EigenLanes decomposes at once.
const Lanes = qlLanes

// Workspace is one goroutine's scratch memory for d x d pairs. Eigen
// leaves the eigendecomposition of the last M in it (lane 0) for AddRoot,
// AddInvMap and Map; EigenLanes leaves one per lane for the Lane
// variants.
type Workspace struct {
	d       int
	x, y, t []float64       // d*d scratch
	ln      [wideLanes]lane // RootLanesWide's (8 where Wide is); the others use the first Lanes
	// w, lam, f, h, off, cs and ss are lane 0's.
	w, lam, off, f, h, cs, ss []float64
	c4                        *closed4 // RootLanes' lanes at d = 4
	c5                        *closed5 // RootLanes' lanes at d = 5
	soa, soa8                 *soaEig  // the SoA solver (4 and 8 lanes) at d >= soaMinDim
}

// lane holds one pair's decomposition.
type lane struct {
	w      []float64 // M (upper), then the eigenvectors as rows
	lam    []float64 // eigenvalues of M
	off    []float64 // sub-diagonal
	f, h   []float64 // sqrt of the eigenvalues above the cut, inverse (else 0)
	cs, ss []float64 // rotations of one QL sweep
	// closed: the lane of RootLanes' closed form (the Workspace's c4 at
	// d = 4, c5 at d = 5) holds M^{1/2} and T^{BA} = F M^{-1/2} F^T; w,
	// lam, f, h mean nothing.
	closed bool
	// soa, where not nil: the structure-of-arrays solver that settled
	// the lane holds its M^{1/2} and T^{BA}; w, lam, f, h mean nothing.
	soa *soaEig
}

// NewWorkspace returns scratch memory for d x d pairs (d >= 1).
func NewWorkspace(d int) *Workspace {
	dd := d * d
	// The lanes RootLanesWide can use: 8 with the 8-lane kernels (then
	// the 8-lane solver's storage too from d = 5; at d = 4 the closed
	// form's), else 4.
	wide := useWide && d >= 4
	nl := Lanes
	if wide {
		nl = wideLanes
	}
	buf := make([]float64, 3*dd+nl*(dd+6*d))
	ws := &Workspace{d: d, x: buf[0:dd:dd], y: buf[dd : 2*dd : 2*dd], t: buf[2*dd : 3*dd : 3*dd]}
	buf = buf[3*dd:]
	take := func(n int) []float64 {
		s := buf[:n:n]
		buf = buf[n:]
		return s
	}
	for k := range ws.ln[:nl] {
		ws.ln[k] = lane{w: take(dd), lam: take(d), off: take(d), f: take(d), h: take(d), cs: take(d), ss: take(d)}
	}
	if d >= soaMinDim {
		ws.soa = newSoaEig(d, Lanes)
	}
	if d == 4 {
		ws.c4 = new(closed4)
	}
	if d == 5 {
		ws.c5 = new(closed5)
	}
	if wide && d >= soaMinDim {
		ws.soa8 = newSoaEig(d, wideLanes)
	}
	l0 := &ws.ln[0]
	ws.w, ws.lam, ws.off, ws.f, ws.h, ws.cs, ws.ss = l0.w, l0.lam, l0.off, l0.f, l0.h, l0.cs, l0.ss
	return ws
}

// Dim returns the workspace's d.
func (ws *Workspace) Dim() int { return ws.d }

// Factor writes a factor F of the symmetric positive semi-definite matrix
// a (read from its upper triangle) into f, and G = F^{-1} into g, and
// returns their Shape: the Cholesky factor (Lower) where every pivot is
// positive and finite, else the symmetric root and pseudo-inverse root
// (Root; eigenvalues at or below d*2^-52 times the largest count as zero).
// a, f and g are d*d long and must not overlap.
func (ws *Workspace) Factor(a, f, g []float64) Shape {
	d := ws.d
	a, f, g = a[:d*d], f[:d*d], g[:d*d]
	if cholesky(a, f, d) {
		lowerInverse(f, g, d)
		return Lower
	}
	return ws.RootFactor(a, f, g)
}

// RootFactor is Factor restricted to the symmetric root: F = A^{1/2} and
// G its pseudo-inverse (eigenvalues at or below d*2^-52 times the largest
// count as zero), for callers that need M = A^{1/2} B A^{1/2} itself
// rather than a matrix similar to it. It returns Root.
func (ws *Workspace) RootFactor(a, f, g []float64) Shape {
	d := ws.d
	a, f, g = a[:d*d], f[:d*d], g[:d*d]
	copy(ws.w, a)
	tred2(ws.w, ws.lam, ws.off, d, true)
	tql2(ws.w, ws.lam, ws.off, ws.cs, ws.ss, d, true)
	var top float64
	for _, l := range ws.lam {
		top = maxNaN(l, top)
	}
	cut := float64(d) * 0x1p-52 * top
	for k, l := range ws.lam {
		if l > cut {
			ws.f[k] = math.Sqrt(l)
			ws.h[k] = 1 / ws.f[k]
		} else {
			ws.f[k], ws.h[k] = 0, 0
		}
	}
	clear(f)
	clear(g)
	ws.addSpectral(f, ws.w, ws.f, 1)
	ws.addSpectral(g, ws.w, ws.h, 1)
	mirror(f, d)
	mirror(g, d)
	return Root
}

// cholesky writes the lower Cholesky factor of a (upper triangle read)
// into l and reports whether every pivot was finite and above d*2^-52
// times the largest diagonal element (below that the matrix is singular
// to working precision, and Factor's eigenvalue cut applies instead).
func cholesky(a, l []float64, d int) bool {
	clear(l)
	var top float64
	for j := 0; j < d; j++ {
		top = maxNaN(a[j*d+j], top)
	}
	cut := float64(d) * 0x1p-52 * top
	for j := 0; j < d; j++ {
		lj := l[j*d : j*d+j+1]
		s := a[j*d+j]
		for _, x := range lj[:j] {
			s -= x * x
		}
		if !(s > cut) || math.IsInf(s, 0) {
			return false
		}
		p := math.Sqrt(s)
		lj[j] = p
		inv := 1 / p
		for i := j + 1; i < d; i++ {
			li := l[i*d : i*d+j]
			s := a[j*d+i]
			for k, x := range lj[:j] {
				s -= li[k] * x
			}
			l[i*d+j] = s * inv
		}
	}
	return true
}

// lowerInverse writes the inverse of the lower triangular l into g.
func lowerInverse(l, g []float64, d int) {
	clear(g)
	for c := 0; c < d; c++ {
		g[c*d+c] = 1 / l[c*d+c]
		for r := c + 1; r < d; r++ {
			lr := l[r*d : r*d+r]
			var s float64
			for k := c; k < r; k++ {
				s += lr[k] * g[k*d+c]
			}
			g[r*d+c] = -s / l[r*d+r]
		}
	}
}

// mirror copies the upper triangle of the d x d matrix m onto its lower.
func mirror(m []float64, d int) {
	for r := 1; r < d; r++ {
		for c := 0; c < r; c++ {
			m[r*d+c] = m[c*d+r]
		}
	}
}

// Mirror copies the upper triangle of the d x d matrix m onto its lower
// triangle (the accumulators of this package are upper triangles).
func Mirror(m []float64, d int) { mirror(m[:d*d], d) }

// form writes the upper triangle of M = F^T B F into w (B read in full:
// callers pass symmetric matrices stored in full).
func (ws *Workspace) form(w, f []float64, shape Shape, b []float64) {
	ws.sandwich(w, f, shape, b, 1, false)
}

// sandwich sets (acc false) or adds to (acc true) the upper triangle of
// out c F^T B F, F of shape shape, B symmetric and stored in full; by
// Gemm where the machine has it (then all of out), plain loops
// otherwise. It uses ws.x as scratch.
func (ws *Workspace) sandwich(out, f []float64, shape Shape, b []float64, c float64, acc bool) {
	d := ws.d
	x := ws.x
	out, b, f = out[:d*d], b[:d*d], f[:d*d]
	// X = F^T B (F^T upper triangular for a Cholesky factor), scaled by
	// c, then out (+)= X F.
	if Gemm(x, f, b, d, 1, d, triFlag(shape, GemmUpper)) {
		if c != 1 {
			for k := range x {
				x[k] *= c
			}
		}
		fl := GemmFlags(0)
		if acc {
			fl = GemmAcc
		}
		Gemm(out, x, f, d, d, 1, fl)
		return
	}
	// The same by rows: X = B F (F[k, q] = 0 for q > k when lower), then
	// out[r, r:] (+)= c sum_k F[k][r] X[k, r:] (k >= r when lower).
	clear(x)
	for r := 0; r < d; r++ {
		xr := x[r*d : r*d+d]
		for k, bk := range b[r*d : r*d+d] {
			fk := f[k*d : k*d+d]
			if shape == Lower {
				fk = fk[:k+1]
			}
			xk := xr[:len(fk)]
			for q, v := range fk {
				xk[q] += bk * v
			}
		}
	}
	for r := 0; r < d; r++ {
		or := out[r*d+r : r*d+d]
		if !acc {
			clear(or)
		}
		k0 := 0
		if shape == Lower {
			k0 = r
		}
		for k := k0; k < d; k++ {
			a := c * f[k*d+r]
			xk := x[k*d+r : k*d+d]
			xk = xk[:len(or)]
			for q, v := range xk {
				or[q] += a * v
			}
		}
	}
}

// TraceRoot returns tr M^{1/2} = tr (A^{1/2} B A^{1/2})^{1/2} for the
// factor f (of shape shape) of A and the symmetric b (stored in full),
// from the eigenvalues of M alone (eigenvalues at or below ZeroCut times
// the largest count as zero), or at d = 4 and 5 from M's invariants where
// M is well-conditioned (RootLanes' closed forms, without the matrices). It
// returns NaN for non-finite input.
func (ws *Workspace) TraceRoot(f []float64, shape Shape, b []float64) float64 {
	t := ws.TraceRootLanes(f, shape, &[Lanes][]float64{b}, 1)
	return t[0]
}

// TraceRootLanes is TraceRoot for the n <= Lanes matrices bs[:n] against
// the same factor, their QL iterations interleaved (each result bit for
// bit TraceRoot's).
func (ws *Workspace) TraceRootLanes(f []float64, shape Shape, bs *[Lanes][]float64, n int) (t [Lanes]float64) {
	if ws.d == 5 && shape == Lower && useClosed5 {
		return ws.traceLanes5(f, shape, bs, n)
	}
	var use [Lanes]bool
	if ws.d == 4 && shape == Lower {
		// The closed form's first two passes (closed4.go); the lanes
		// it does not settle go to the eigensolver.
		c := ws.c4
		f16 := (*[16]float64)(f[:16])
		interleaveUpper4(&c.bm, bs[:], n)
		closed4Invariants(c, f16, n)
		closed4Laguerre(c, n)
		for k := 0; k < n; k++ {
			if c.settled(k) {
				t[k] = math.Sqrt(c.q[k]) * math.Sqrt(c.tr[k])
				continue
			}
			use[k] = true
			for e, x := range upper4 {
				ws.ln[k].w[x] = c.m[e][k]
			}
		}
		ws.traceLanes(f, shape, bs, &use, true, &t)
		return t
	}
	for k := 0; k < n; k++ {
		use[k] = true
	}
	formed := false
	if useSoA && ws.soa != nil {
		// The structure-of-arrays solver; the lanes it leaves (with
		// M formed) go on below.
		widen(bs, &use, &t, func(bw *[wideLanes][]float64, uw *[wideLanes]bool, tw *[wideLanes]float64) {
			ws.traceSoA(ws.soa, f, shape, bw, uw, tw)
		})
		formed = true
	}
	ws.traceLanes(f, shape, bs, &use, formed, &t)
	return t
}

// traceLanes is TraceRootLanes by the eigensolver on the lanes k with
// use[k], writing t[k]; with formed set, lane k's w already holds M_k.
func (ws *Workspace) traceLanes(f []float64, shape Shape, bs *[Lanes][]float64, use *[Lanes]bool, formed bool, t *[Lanes]float64) {
	d := ws.d
	var ps [qlLanes]qlProblem
	var idx [qlLanes]int
	n := 0
	for k := range use {
		if !use[k] {
			continue
		}
		ln := &ws.ln[k]
		if !formed {
			ws.form(ln.w, f, shape, bs[k])
		}
		tred2(ln.w, ln.lam, ln.off, d, false)
		ps[n] = qlProblem{w: ln.w, diag: ln.lam, off: ln.off, cs: ln.cs, ss: ln.ss}
		idx[n] = k
		n++
	}
	ok := tqlLanes(&ps, n, d, false)
	for q := 0; q < n; q++ {
		k := idx[q]
		if !ok[q] {
			t[k] = math.NaN()
			continue
		}
		lam := ws.ln[k].lam
		cut := cutOf(lam)
		var x float64
		for _, l := range lam {
			if l > cut {
				x += math.Sqrt(l)
			}
		}
		t[k] = x
	}
}

// ZeroCut is the relative level (of M's largest eigenvalue) at or below
// which an eigenvalue of M counts as zero: rounding makes the exact zeros
// of a rank-deficient product about +-eps |M|, and their square roots
// (about 1e-8 |M|^{1/2} each) would otherwise enter the trace.
const ZeroCut = 1e-14

// cutOf returns ZeroCut times the largest of the eigenvalues lam (0 if
// none is positive).
func cutOf(lam []float64) float64 {
	var top float64
	for _, l := range lam {
		top = maxNaN(l, top)
	}
	return ZeroCut * top
}

// Eigen is TraceRoot with the eigenvectors of M, kept in the workspace
// for AddRoot, AddInvMap and Map (which treat the eigenvalues TraceRoot
// drops as zero: M^{-1/2} is then the pseudo-inverse root, and the
// gradient that of a nearby definite matrix).
func (ws *Workspace) Eigen(f []float64, shape Shape, b []float64) float64 {
	bs := [Lanes][]float64{b}
	t := ws.EigenLanes(f, shape, &bs, 1)
	return t[0]
}

// EigenLanes is Eigen for the n <= Lanes matrices bs[:n] against the same
// factor f: lane k keeps the decomposition of M_k = F^T B_k F for the
// Lane variants of AddRoot and AddInvMap, and t[k] = tr M_k^{1/2}. From
// d = 5 (with AVX2+FMA) the n pairs go through the structure-of-arrays
// solver together (soa.go), else their QL iterations run interleaved
// (tqlLanes), which hides most of their latency; each lane's results are
// those of Eigen on its matrix, bit for bit.
func (ws *Workspace) EigenLanes(f []float64, shape Shape, bs *[Lanes][]float64, n int) (t [Lanes]float64) {
	var use [Lanes]bool
	for k := 0; k < n; k++ {
		use[k] = true
	}
	formed := false
	if useSoA && ws.soa != nil {
		// The structure-of-arrays solver; the lanes it leaves (with
		// M formed) go on below.
		widen(bs, &use, &t, func(bw *[wideLanes][]float64, uw *[wideLanes]bool, tw *[wideLanes]float64) {
			ws.eigenSoA(ws.soa, f, shape, bw, uw, tw)
		})
		formed = true
	}
	ws.eigenLanes(0, f, shape, bs, &use, formed, &t)
	return t
}

// widen runs solve, a structure-of-arrays solve with the 8-lane
// signature, on the Lanes lanes of a 4-lane call: bs and use go in
// widened (the extra lanes unused), use (the lanes it left) and t come
// back narrowed.
func widen(bs *[Lanes][]float64, use *[Lanes]bool, t *[Lanes]float64, solve func(*[wideLanes][]float64, *[wideLanes]bool, *[wideLanes]float64)) {
	var bw [wideLanes][]float64
	var uw [wideLanes]bool
	var tw [wideLanes]float64
	copy(bw[:], bs[:])
	copy(uw[:], use[:])
	solve(&bw, &uw, &tw)
	copy(use[:], uw[:])
	copy(t[:], tw[:])
}

// WideLanes is the most pairs RootLanesWide takes at once.
const WideLanes = wideLanes

// Wide returns how many pairs RootLanesWide takes per call: WideLanes
// where the CPU has the 8-lane kernels (AVX-512) and d >= 5 (the
// structure-of-arrays solver, the closed form at d = 5) or d = 4 (the
// closed form), else Lanes.
func (ws *Workspace) Wide() int {
	if useWide && (useSoA && ws.soa8 != nil || ws.c4 != nil && ws.ln[wideLanes-1].w != nil) {
		return WideLanes
	}
	return Lanes
}

// RootLanesWide is RootLanes for the n <= ws.Wide() matrices bs[:n]:
// with n > Lanes the structure-of-arrays solver takes the 8 pairs at once
// (AVX-512: one register per quantity of the 8 pairs), the per-lane
// solver the pairs it does not settle; at d = 4 and 5 (Lower factor)
// the closed forms (closed4.go, closed5.go) take them, 8 per AVX-512
// register. Lane k's results (for AddRootLane and AddInvMapLane, k < n)
// depend only on its own inputs, and are those of RootLanes on its pair.
func (ws *Workspace) RootLanesWide(f []float64, shape Shape, bs *[WideLanes][]float64, n int) (t [WideLanes]float64) {
	if n > ws.Wide() {
		panic("pairkernel: RootLanesWide: more pairs than Wide")
	}
	if ws.d == 4 {
		if shape == Lower {
			ws.rootLanes4(f, bs[:], n, t[:])
			return t
		}
		// A Root factor: the per-lane eigensolver, Lanes at a time.
		for h := 0; h < n; h += Lanes {
			var b4 [Lanes][]float64
			var u4 [Lanes]bool
			var t4 [Lanes]float64
			for q := 0; q < Lanes && h+q < n; q++ {
				b4[q], u4[q] = bs[h+q], true
			}
			ws.eigenLanes(h, f, shape, &b4, &u4, false, &t4)
			copy(t[h:], t4[:min(Lanes, n-h)])
		}
		return t
	}
	if ws.d == 5 && shape == Lower && useClosed5 {
		return ws.rootLanes5(f, shape, bs, n)
	}
	if n <= Lanes {
		var b4 [Lanes][]float64
		copy(b4[:], bs[:])
		t4 := ws.RootLanes(f, shape, &b4, n)
		copy(t[:], t4[:])
		return t
	}
	var use [wideLanes]bool
	for k := 0; k < n; k++ {
		use[k] = true
	}
	ws.eigenSoA(ws.soa8, f, shape, bs, &use, &t)
	for h := 0; h < wideLanes; h += Lanes {
		var b4 [Lanes][]float64
		var u4 [Lanes]bool
		var t4 [Lanes]float64
		rest := false
		for q := 0; q < Lanes; q++ {
			b4[q], u4[q] = bs[h+q], use[h+q]
			rest = rest || u4[q]
		}
		if rest {
			ws.eigenLanes(h, f, shape, &b4, &u4, true, &t4)
			for q := 0; q < Lanes; q++ {
				if use[h+q] {
					t[h+q] = t4[q]
				}
			}
		}
	}
	return t
}

// eigenLanes is the per-lane solver for EigenLanes on the lanes base+k
// with use[k] (the others are left alone), writing their traces into
// t[k]; with formed set, lane base+k's w already holds M_k.
func (ws *Workspace) eigenLanes(base int, f []float64, shape Shape, bs *[Lanes][]float64, use *[Lanes]bool, formed bool, t *[Lanes]float64) {
	d := ws.d
	var ps [qlLanes]qlProblem
	var idx [qlLanes]int
	n := 0
	for k := range use {
		if !use[k] {
			continue
		}
		ln := &ws.ln[base+k]
		ln.closed, ln.soa = false, nil
		if !formed {
			ws.form(ln.w, f, shape, bs[k])
		}
		tred2(ln.w, ln.lam, ln.off, d, true)
		ps[n] = qlProblem{w: ln.w, diag: ln.lam, off: ln.off, cs: ln.cs, ss: ln.ss}
		idx[n] = k
		n++
	}
	ok := tqlLanes(&ps, n, d, true)
	for q := 0; q < n; q++ {
		k := idx[q]
		ln := &ws.ln[base+k]
		if !ok[q] {
			for q := range ln.f {
				ln.f[q], ln.h[q] = math.NaN(), math.NaN()
			}
			t[k] = math.NaN()
			continue
		}
		cut := cutOf(ln.lam)
		var tk float64
		for q, l := range ln.lam {
			if l > cut {
				s := math.Sqrt(l)
				ln.f[q], ln.h[q] = s, 1/s
				tk += s
			} else {
				ln.f[q], ln.h[q] = 0, 0
			}
		}
		t[k] = tk
	}
}

// addSpectral adds c * sum_k v[k] V_k V_k^T (V_k the rows of w) to the
// upper triangle of s (by Gemm, where the machine has it, to all of s).
func (ws *Workspace) addSpectral(s, w, v []float64, c float64) {
	d := ws.d
	s = s[:d*d]
	if useFMA {
		// s += Z^T W with Z = diag(c v) W.
		z := ws.y
		for k := 0; k < d; k++ {
			a := c * v[k]
			zk, wk := z[k*d:k*d+d], w[k*d:k*d+d]
			for q, x := range wk {
				zk[q] = a * x
			}
		}
		Gemm(s, z, w, d, 1, d, GemmAcc)
		return
	}
	for k := 0; k < d; k++ {
		a := c * v[k]
		if a == 0 {
			continue
		}
		vk := w[k*d : k*d+d]
		for r, x := range vk {
			t := a * x
			sr := s[r*d+r : r*d+d]
			vr := vk[r:]
			vr = vr[:len(sr)]
			for q, y := range vr {
				sr[q] += t * y
			}
		}
	}
}

// AddRoot adds c M^{1/2} (of the last Eigen) to the upper triangle of s.
// Summed over pairs and sandwiched once by AddSandwich it gives the sum of
// c T^{AB}: T^{AB} = G^T M^{1/2} G.
func (ws *Workspace) AddRoot(s []float64, c float64) { ws.AddRootLane(0, s, c) }

// AddRootLane is AddRoot for lane k of the last EigenLanes or RootLanes.
func (ws *Workspace) AddRootLane(k int, s []float64, c float64) {
	if ws.ln[k].closed {
		if ws.d == 5 {
			addSoALane(s, flat25(&ws.c5.root), 5, wideLanes, k, c)
			return
		}
		addLane(s, &ws.c4.root, k, c)
		return
	}
	if e := ws.ln[k].soa; e != nil {
		addSoALane(s, e.root, ws.d, e.L, k, c)
		return
	}
	ws.addSpectral(s, ws.ln[k].w, ws.ln[k].f, c)
}

// AddInvMap adds c T^{BA} = c F M^{-1/2} F^T (of the last Eigen, f its
// factor) to the upper triangle of out.
func (ws *Workspace) AddInvMap(out, f []float64, shape Shape, c float64) {
	ws.AddInvMapLane(0, out, f, shape, c)
}

// AddInvMapLane is AddInvMap for lane k of the last EigenLanes or
// RootLanes (f its factor, the one that call was given).
func (ws *Workspace) AddInvMapLane(k int, out, f []float64, shape Shape, c float64) {
	d := ws.d
	if ws.ln[k].closed {
		// Formed by RootLanes with the same f.
		if d == 5 {
			addSoALane(out, flat25(&ws.c5.tba), 5, wideLanes, k, c)
			return
		}
		addLane(out, &ws.c4.tba, k, c)
		return
	}
	if e := ws.ln[k].soa; e != nil {
		addSoALane(out, e.tba, d, e.L, k, c) // formed with the same f
		return
	}
	w := ws.ln[k].w
	f = f[:d*d]
	// U = W F^T (rows U_q = F V_q) into ws.x, then out += U^T diag(c h) U.
	u := ws.x
	if useFMA {
		ft := ws.y
		for r := 0; r < d; r++ {
			for p := 0; p < d; p++ {
				ft[p*d+r] = f[r*d+p]
			}
		}
		Gemm(u, w, ft, d, d, 1, 0)
	} else {
		for q := 0; q < d; q++ {
			vq := w[q*d : q*d+d]
			uq := u[q*d : q*d+d]
			for r := range uq {
				fr := f[r*d : r*d+d]
				if shape == Lower {
					fr = fr[:r+1]
				}
				v := vq[:len(fr)]
				var s float64
				for p, x := range fr {
					s += x * v[p]
				}
				uq[r] = s
			}
		}
	}
	ws.addSpectral(out, u, ws.ln[k].h, c)
}

// AddPairLane is one pair's share of the MDS gradient for lane k of the
// last EigenLanes, RootLanes or RootLanesWide (f its factor, the one that
// call was given): c M^{1/2} added to the upper triangle of s and
// c (I - T^{BA}) to that of out, as AddRootLane(k, s, c), then
// AddInvMapLane(k, out, f, shape, -c), then c added to out's diagonal do
// it (the same operations in the same order, so the same bits; a lane of
// the d = 4 closed form in one pass).
func (ws *Workspace) AddPairLane(k int, s, out, f []float64, shape Shape, c float64) {
	if ws.ln[k].closed && ws.d == 4 {
		addPair4(s, out, ws.c4, k, c)
		return
	}
	ws.AddRootLane(k, s, c)
	ws.AddInvMapLane(k, out, f, shape, -c)
	d := ws.d
	out = out[:d*d]
	for q := 0; q < d; q++ {
		out[q*d+q] += c
	}
}

// AddSandwich adds c G^T S G to the upper triangle of out, with S given
// by its upper triangle in s (s is mirrored in place) and g of shape
// shape (G = F^{-1}).
func (ws *Workspace) AddSandwich(out, g []float64, shape Shape, s []float64, c float64) {
	mirror(s[:ws.d*ws.d], ws.d)
	ws.sandwich(out, g, shape, s, c, true)
}

// Map writes the transport map T^{AB} = G^T M^{1/2} G of the last Eigen
// into out, in full (g = F^{-1} of shape shape).
func (ws *Workspace) Map(out, g []float64, shape Shape) {
	d := ws.d
	clear(out[:d*d])
	root := ws.t
	clear(root)
	ws.AddRoot(root, 1)
	ws.AddSandwich(out, g, shape, root, 1)
	mirror(out, d)
}

// SymEigen diagonalises the symmetric d x d matrix whose upper triangle is
// in w (row-major; the strict lower triangle is not read): on return the
// rows of w are orthonormal eigenvectors and lam (d long) holds the
// eigenvalues, unordered. It returns false if the QL iteration did not
// converge (non-finite input); w and lam are then unspecified. It uses
// ws only for scratch (the decomposition of the last Eigen is kept).
func (ws *Workspace) SymEigen(w, lam []float64) bool {
	ok := ws.SymEigenLanes(&[Lanes][]float64{w}, &[Lanes][]float64{lam}, 1)
	return ok[0]
}

// SymEigenLanes is SymEigen on the n <= Lanes matrices w[:n] (eigenvalues
// into lam[:n]) solved together, as EigenLanes: each lane's results are
// SymEigen's, bit for bit. It uses ws only for scratch.
func (ws *Workspace) SymEigenLanes(w, lam *[Lanes][]float64, n int) (ok [Lanes]bool) {
	d := ws.d
	var use [Lanes]bool
	for k := 0; k < n; k++ {
		use[k] = true
	}
	if useSoA && ws.soa != nil {
		// The structure-of-arrays solver; the lanes it leaves go on
		// below.
		var ww, lw [wideLanes][]float64
		var uw [wideLanes]bool
		copy(ww[:], w[:])
		copy(lw[:], lam[:])
		copy(uw[:], use[:])
		okw := ws.symEigenSoA(ws.soa, &ww, &lw, &uw)
		copy(use[:], uw[:])
		copy(ok[:], okw[:])
	}
	var ps [qlLanes]qlProblem
	var idx [qlLanes]int
	m := 0
	for k := 0; k < n; k++ {
		if !use[k] {
			continue
		}
		ln := &ws.ln[m]
		idx[m] = k
		m++
		tred2(w[k][:d*d], lam[k], ln.off, d, true)
		ps[m-1] = qlProblem{w: w[k], diag: lam[k], off: ln.off, cs: ln.cs, ss: ln.ss}
	}
	if m > 0 {
		r := tqlLanes(&ps, m, d, true)
		for q := 0; q < m; q++ {
			ok[idx[q]] = r[q]
		}
	}
	return ok
}

// SymEigenLanesWide is SymEigenLanes for the n <= ws.Wide() matrices
// w[:n]: with n > Lanes the structure-of-arrays solver takes the 8 at
// once (AVX-512). Each lane's results are SymEigen's, bit for bit.
func (ws *Workspace) SymEigenLanesWide(w, lam *[WideLanes][]float64, n int) (ok [WideLanes]bool) {
	if n > ws.Wide() {
		panic("pairkernel: SymEigenLanesWide: more matrices than Wide")
	}
	if n <= Lanes {
		var w4, l4 [Lanes][]float64
		copy(w4[:], w[:])
		copy(l4[:], lam[:])
		ok4 := ws.SymEigenLanes(&w4, &l4, n)
		copy(ok[:], ok4[:])
		return ok
	}
	var use [wideLanes]bool
	for k := 0; k < n; k++ {
		use[k] = true
	}
	if ws.soa8 != nil {
		ok = ws.symEigenSoA(ws.soa8, w, lam, &use)
	}
	// The rest by SymEigenLanes (whose own solver takes them the same
	// way), Lanes at a time.
	var w4, l4 [Lanes][]float64
	var idx [Lanes]int
	m := 0
	for k := 0; k <= n; k++ {
		if m == Lanes || (k == n && m > 0) {
			ok4 := ws.SymEigenLanes(&w4, &l4, m)
			for q := 0; q < m; q++ {
				ok[idx[q]] = ok4[q]
			}
			m = 0
		}
		if k < n && use[k] {
			w4[m], l4[m], idx[m] = w[k], lam[k], k
			m++
		}
	}
	return ok
}

// SymValues writes the eigenvalues of the symmetric d x d matrix whose
// upper triangle is in w (destroyed) into lam, unordered, without
// eigenvectors. It returns false as SymEigen does.
func (ws *Workspace) SymValues(w, lam []float64) bool {
	d := ws.d
	tred2(w[:d*d], lam, ws.off, d, false)
	return tql2(w, lam, ws.off, ws.cs, ws.ss, d, false)
}

// triFlag returns flag for a Lower factor (whose transpose, or itself,
// Gemm then reads as triangular), 0 for a full Root one.
func triFlag(shape Shape, flag GemmFlags) GemmFlags {
	if shape == Lower {
		return flag
	}
	return 0
}
