package pairkernel

import "math"

// The eigensolver of EigenLanes, RootLanes(Wide), TraceRootLanes and
// SymEigenLanes(Wide) in structure-of-arrays form, for d >= soaMinDim:
// the L = 4 or 8 matrices M_k (scaled to unit trace, or by a power of
// two) are stored interleaved, element e of lane k at e*L+k, and tred2
// and the QL iteration run on all lanes at once, branch-free where they
// were branches (a lane that needs no Householder step or no rotation is
// masked, not skipped). The QL sweeps at one l, with the rotations
// applied to the eigenvector rows as they are found, are qlSweepsGo, the
// search for the split point before them qlSplitGo. In assembly
// (soa_amd64.s) one register holds a quantity of the 4 (AVX2) or 8
// (AVX-512) lanes, so the chain of dependent square roots and divisions
// runs for all the pairs at once; tred2SoA and the products after the
// solver (M^{1/2}, T^{BA}) have assembly versions too. Each lane's
// arithmetic depends only on its own matrix (masked lanes keep their
// values), so a pair's result does not depend on the pairs it shares the
// call with, nor on L. A lane whose iteration leaves the range where the
// shorter recurrence is safe, or does not converge, goes to the per-lane
// solver (tred2, tqlLanes) instead.

// wideLanes is the most lanes the solver takes at once (AVX-512).
const wideLanes = 8

// soaMinDim is the smallest d that takes the structure-of-arrays solver
// (d = 4 has the closed form, and its fallback lanes the per-lane solver).
const soaMinDim = 5

// soaEig is the interleaved storage of the structure-of-arrays solver.
type soaEig struct {
	L            int       // lanes: 4 (AVX2) or 8 (AVX-512)
	w, diag, off []float64 // d*d*L, d*L, d*L
	// The lanes' M^{1/2} and T^{BA} (upper triangles), U = V^T F^T, the
	// square roots of the eigenvalues above the cut and their inverses
	// (else 0).
	root, tba, u []float64 // d*d*L each
	fv, hv       []float64 // d*L each
	zero         []float64 // d*d zeros: the B of a lane not in use
	st           qlState
}

// qlState is what the QL sweeps at one l (qlSweepsGo and its assembly)
// read and update, per lane: the rotation's cosine and sine, p, the
// previous cosines and sine, the lane's m (its rotations run for i < m),
// the lanes whose squares left the safe range or whose iteration did not
// converge (bad, sign bit), the lanes still iterating (act, all ones),
// the accumulated shift f, the convergence threshold eps*tst1, el1, dl1,
// the sweep count, whether the eigenvectors are wanted, the lanes in
// use, tql2's tst1 and the lanes not (yet) failed. The assembly knows its
// layout (8 lanes per field).
type qlState struct {
	d, l, top           int
	c, s, p, c2, c3, s2 [wideLanes]float64
	m                   [wideLanes]int64
	bad, act            [wideLanes]uint64
	f, thr, el1, dl1    [wideLanes]float64
	iter                [wideLanes]float64
	rows                int // nonzero: apply the rotations to the eigenvectors
	L                   int // the lanes in use (4 or 8)
	tst1                [wideLanes]float64
	ok                  [wideLanes]uint64 // the lanes still good (all ones)
}

// newSoaEig returns the storage for L lanes of d x d matrices.
func newSoaEig(d, L int) *soaEig {
	buf := make([]float64, (4*d*d+4*d)*L)
	take := func(n int) []float64 {
		s := buf[: n*L : n*L]
		buf = buf[n*L:]
		return s
	}
	e := &soaEig{L: L, w: take(d * d), diag: take(d), off: take(d), root: take(d * d), tba: take(d * d), u: take(d * d)}
	e.fv, e.hv = take(d), take(d)
	e.zero = make([]float64, d*d)
	e.st.L = L
	return e
}

// qlSweepsGo runs the QL sweeps at st.l on the lanes of st.act until
// each has converged (|off[l]| <= thr) or failed (more than 40 sweeps,
// or squares out of [1e-290, 1e290]: st.bad): tqlLanes' sweeps (its fast
// recurrence, 1/r from 1/r^2), each rotation applied at once to the rows
// i, i+1 of the lane's eigenvectors (as rotateRef does, but with fused
// multiply-adds) where st.rows is set.
// A lane's rotations run for i = m-1 down to l; st.top is the largest m.
func qlSweepsGo(st *qlState, w, diag, off []float64) {
	L := st.L
	d, l := st.d, st.l
	for {
		more := false
		for k := 0; k < L; k++ {
			if st.act[k] == 0 {
				continue
			}
			st.iter[k]++
			if st.iter[k] > 40 {
				st.bad[k], st.act[k] = ^uint64(0), 0
				continue
			}
			more = true
		}
		if !more {
			return
		}
		for k := 0; k < L; k++ {
			st.c[k], st.c2[k], st.c3[k], st.s[k], st.s2[k] = 1, 1, 1, 0, 0
			st.el1[k] = off[(l+1)*L+k]
			if st.act[k] == 0 {
				continue
			}
			g := diag[l*L+k]
			ol := off[l*L+k]
			q := (diag[(l+1)*L+k] - g) / (2 * ol)
			r := hypot1(q)
			if q < 0 {
				r = -r
			}
			diag[l*L+k] = ol / (q + r)
			diag[(l+1)*L+k] = ol * (q + r)
			st.dl1[k] = diag[(l+1)*L+k]
			h := g - diag[l*L+k]
			for i := l + 2; i < d; i++ {
				diag[i*L+k] -= h
			}
			st.f[k] += h
		}
		for i := st.top - 1; i >= l; i-- {
			a := w[i*d*L : (i+1)*d*L]
			b := w[(i+1)*d*L : (i+2)*d*L]
			for k := 0; k < L; k++ {
				if int64(i)+1 == st.m[k] {
					st.p[k] = diag[(i+1)*L+k]
				}
				if st.act[k] == 0 || int64(i) >= st.m[k] {
					continue
				}
				ck, sk, pp := st.c[k], st.s[k], st.p[k]
				st.c3[k] = st.c2[k]
				st.c2[k] = ck
				st.s2[k] = sk
				oi := off[i*L+k]
				di := diag[i*L+k]
				g := ck * oi
				h := ck * pp
				r2 := pp*pp + oi*oi
				if !(r2 > 1e-290 && r2 < 1e290) {
					st.bad[k] = ^uint64(0)
				}
				// 1/r as sqrt(r2) / r2: the square root and the
				// division run side by side, which shortens the chain
				// from one rotation to the next.
				inv2 := 1 / r2
				r := math.Sqrt(r2)
				off[(i+1)*L+k] = sk * r
				num := pp*di - oi*g
				rinv := r * inv2
				sk = oi * rinv
				ck = pp * rinv
				pp = num * rinv
				diag[(i+1)*L+k] = h + sk*(ck*g+sk*di)
				st.c[k], st.s[k], st.p[k] = ck, sk, pp
				if st.rows == 0 {
					continue
				}
				for q := k; q < d*L; q += L {
					x, y := a[q], b[q]
					b[q] = math.FMA(sk, x, ck*y)
					a[q] = math.FMA(ck, x, -(sk * y))
				}
			}
		}
		for k := 0; k < L; k++ {
			if st.act[k] == 0 {
				continue
			}
			if int64(st.bad[k]) < 0 {
				st.act[k] = 0
				continue
			}
			q := -st.s[k] * st.s2[k] * st.c3[k] * (st.el1[k] / st.dl1[k]) * off[l*L+k]
			off[l*L+k] = st.s[k] * q
			diag[l*L+k] = st.c[k] * q
			if !(math.Abs(off[l*L+k]) > st.thr[k]) {
				st.act[k] = 0
			}
		}
	}
}

// tred2SoA is tred2 on the interleaved lanes of e (input: the upper
// triangles of the e.L matrices in e.w), branch-free: a lane
// whose column is already reduced (scale 0) or whose reflection is the
// identity (h 0) takes the steps with the reflection's vector 0, which
// leaves what tred2's skipped branch leaves.
func tred2SoA(e *soaEig, d int, vectors bool) {
	L := e.L
	w, diag, off := e.w[:d*d*L], e.diag[:d*L], e.off[:d*L]
	for j := 0; j < d; j++ {
		copy(diag[j*L:j*L+L], w[(j*d+d-1)*L:(j*d+d)*L])
	}
	var scale, h, f, g, inv, hinv, hh [wideLanes]float64
	for i := d - 1; i > 0; i-- {
		scale, h = [wideLanes]float64{}, [wideLanes]float64{}
		dv := diag[:i*L]
		for q := 0; q < i*L; q += L {
			for k := 0; k < L; k++ {
				scale[k] += math.Abs(dv[q+k])
			}
		}
		for k := 0; k < L; k++ {
			inv[k] = 0
			if scale[k] != 0 {
				inv[k] = 1 / scale[k]
			}
		}
		for q := 0; q < i*L; q += L {
			for k := 0; k < L; k++ {
				x := dv[q+k] * inv[k]
				dv[q+k] = x
				h[k] += x * x
			}
		}
		for k := 0; k < L; k++ {
			fk := dv[(i-1)*L+k]
			gk := math.Sqrt(h[k])
			if fk > 0 {
				gk = -gk
			}
			off[i*L+k] = scale[k] * gk
			h[k] -= fk * gk
			dv[(i-1)*L+k] = fk - gk
		}
		ev := off[:i*L]
		clear(ev)
		for j := 0; j < i; j++ {
			wj := w[j*d*L : (j*d+i)*L]
			copy(w[(i*d+j)*L:(i*d+j+1)*L], dv[j*L:j*L+L])
			for k := 0; k < L; k++ {
				f[k] = dv[j*L+k]
				g[k] = ev[j*L+k] + wj[j*L+k]*f[k]
			}
			for q := (j + 1) * L; q < i*L; q += L {
				for k := 0; k < L; k++ {
					g[k] += wj[q+k] * dv[q+k]
					ev[q+k] += wj[q+k] * f[k]
				}
			}
			copy(ev[j*L:j*L+L], g[:L])
		}
		for k := 0; k < L; k++ {
			f[k] = 0
			hinv[k] = 0
			if h[k] != 0 {
				hinv[k] = 1 / h[k]
			}
		}
		for q := 0; q < i*L; q += L {
			for k := 0; k < L; k++ {
				ev[q+k] *= hinv[k]
				f[k] += ev[q+k] * dv[q+k]
			}
		}
		for k := 0; k < L; k++ {
			hh[k] = 0
			if h[k] != 0 {
				hh[k] = f[k] / (h[k] + h[k])
			}
		}
		for q := 0; q < i*L; q += L {
			for k := 0; k < L; k++ {
				ev[q+k] -= hh[k] * dv[q+k]
			}
		}
		for j := 0; j < i; j++ {
			wj := w[j*d*L : (j*d+i+1)*L]
			for q := j * L; q < i*L; q += L {
				for k := 0; k < L; k++ {
					wj[q+k] -= dv[j*L+k]*ev[q+k] + ev[j*L+k]*dv[q+k]
				}
			}
			copy(diag[j*L:j*L+L], wj[(i-1)*L:i*L])
			clear(wj[i*L : i*L+L])
		}
		copy(diag[i*L:i*L+L], h[:L])
	}
	if !vectors {
		for j := 0; j < d; j++ {
			copy(diag[j*L:j*L+L], w[(j*d+j)*L:(j*d+j+1)*L])
		}
		clear(off[:L])
		return
	}
	// Accumulate the transformations.
	for i := 0; i < d-1; i++ {
		copy(w[(i*d+d-1)*L:(i*d+d)*L], w[(i*d+i)*L:(i*d+i+1)*L])
		for k := 0; k < L; k++ {
			w[(i*d+i)*L+k] = 1
			hinv[k] = 0
			if hk := diag[(i+1)*L+k]; hk != 0 {
				hinv[k] = 1 / hk
			}
		}
		u := w[(i+1)*d*L : ((i+1)*d+i+1)*L]
		dk := diag[:len(u)]
		for q := 0; q < len(u); q += L {
			for k := 0; k < L; k++ {
				dk[q+k] = u[q+k] * hinv[k]
			}
		}
		for j := 0; j <= i; j++ {
			wj := w[j*d*L : j*d*L+len(u)]
			g = [wideLanes]float64{}
			for q := 0; q < len(u); q += L {
				for k := 0; k < L; k++ {
					g[k] += u[q+k] * wj[q+k]
				}
			}
			for q := 0; q < len(u); q += L {
				for k := 0; k < L; k++ {
					wj[q+k] -= g[k] * dk[q+k]
				}
			}
		}
		clear(u)
	}
	for j := 0; j < d; j++ {
		copy(diag[j*L:j*L+L], w[(j*d+d-1)*L:(j*d+d)*L])
		clear(w[(j*d+d-1)*L : (j*d+d)*L])
	}
	for k := 0; k < L; k++ {
		w[(d*d-1)*L+k] = 1
		off[k] = 0
	}
}

// tqlSoA is tqlLanes on the interleaved lanes of e (tred2SoA's
// output), on the lanes k with run[k]; it reports the lanes that
// converged within the safe range (ok[k]). At each l the split search
// (qlSplitL) and the sweeps (qlSweepsL) run for all lanes at once.
func tqlSoA(e *soaEig, d int, run *[wideLanes]bool, vectors bool) (ok [wideLanes]bool) {
	L := e.L
	diag, off := e.diag[:d*L], e.off[:d*L]
	st := &e.st
	st.d = d
	st.rows = 0
	if vectors {
		st.rows = 1
	}
	st.bad = [wideLanes]uint64{}
	st.f = [wideLanes]float64{}
	st.tst1 = [wideLanes]float64{}
	// off[i-1] = off[i] for every lane (one move: the lanes of an
	// element are contiguous), off[d-1] = 0.
	copy(off[:(d-1)*L], off[L:])
	clear(off[(d-1)*L:])
	for k := 0; k < L; k++ {
		st.ok[k] = 0
		if run[k] {
			st.ok[k] = ^uint64(0)
		}
	}
	for l := 0; l < d; l++ {
		st.l = l
		qlSplitL(st, diag, off)
		top := 0
		for k := 0; k < L; k++ {
			if st.act[k] != 0 {
				top = max(top, int(st.m[k]))
			}
		}
		if top > 0 {
			st.top = top
			qlSweepsL(st, e.w[:d*d*L], diag, off)
			for k := 0; k < L; k++ {
				if int64(st.bad[k]) < 0 {
					st.ok[k] = 0
				}
			}
		}
		for k := 0; k < L; k++ {
			diag[l*L+k] += st.f[k]
			off[l*L+k] = 0
		}
	}
	for k := 0; k < L; k++ {
		ok[k] = st.ok[k] != 0 && st.tst1[k] <= math.MaxFloat64
	}
	return ok
}

// qlSplitGo starts the QL iteration at st.l on every lane: tst1 =
// max(tst1, |diag[l]| + |off[l]|) (NaN where either is),
// thr = eps tst1, m the first i >= l with |off[i]| <= thr (or d-1), the
// lanes to iterate (act: m > l, still good and tst1 within the fast
// recurrence's range [1e-140, 1e140]; a lane with m > l outside it fails)
// and the sweep counts to 0.
func qlSplitGo(st *qlState, diag, off []float64) {
	const eps = 0x1p-52
	d, l, L := st.d, st.l, st.L
	for k := 0; k < L; k++ {
		a, b := math.Abs(diag[l*L+k])+math.Abs(off[l*L+k]), st.tst1[k]
		if a != a || b != b {
			b = math.NaN()
		} else if a > b {
			b = a
		}
		st.tst1[k] = b
		thr := eps * b
		mk := l
		for mk < d-1 && math.Abs(off[mk*L+k]) > thr {
			mk++
		}
		st.m[k], st.iter[k], st.thr[k], st.act[k] = int64(mk), 0, thr, 0
		if mk > l && st.ok[k] != 0 {
			if !(b < 1e140 && b > 1e-140) {
				st.ok[k] = 0
				continue
			}
			st.act[k] = ^uint64(0)
		}
	}
}

// eigenSoA is the structure-of-arrays solver for the lanes k with
// use[k] of e (e.L of them): for the lanes it settles it clears use[k],
// sets lane k's soa to e, writes t[k] = tr M_k^{1/2} and leaves
// M_k^{1/2} and T^{BA} in e for AddRootLane and AddInvMapLane. The
// other lanes (trace not positive and finite, or the solver's checks
// failed) keep M_k, formed into lane k's w, for the per-lane solver.
func (ws *Workspace) eigenSoA(e *soaEig, f []float64, shape Shape, bs *[wideLanes][]float64, use *[wideLanes]bool, t *[wideLanes]float64) {
	L := e.L
	d := ws.d
	w := e.w[:d*d*L]
	run, tr := ws.gatherSoA(e, f, shape, bs, use)
	tred2L(e, d, true)
	ok := tqlSoA(e, d, &run, true)
	// The eigenvalues of M (the solver's times the trace), the cut,
	// f = sqrt, h = 1/f above it.
	var tv [wideLanes]float64
	rootsL(L, e.diag, tr[:L], e.fv, e.hv, tv[:L], d)
	any := false
	for k := 0; k < L; k++ {
		if !ok[k] {
			for q := 0; q < d; q++ {
				e.fv[q*L+k], e.hv[q*L+k] = 0, 0
			}
			continue
		}
		t[k] = tv[k]
		use[k] = false
		ws.ln[k].closed, ws.ln[k].soa = false, e
		any = true
	}
	ws.formRest(e, f, shape, bs, use)
	if !any {
		return
	}
	// M^{1/2} = V diag(f) V^T, T^{BA} = F V diag(h) V^T F^T = U^T diag(h) U
	// with U = V^T F^T (the rows of w are the eigenvectors).
	spectralL(e.L, e.root, w, e.fv, d)
	mulFTL(e.L, e.u, w, f[:d*d], d, shape == Lower)
	spectralL(e.L, e.tba, e.u, e.hv, d)
}

// gatherSoA stores M_k / tr M_k, M_k = F^T B_k F, into the interleaved
// lanes of e for the lanes k with use[k] whose trace is positive and
// finite (run[k]; tr[k] the trace), formed in that layout (formL); the
// other lanes get the identity, which no step of the solver changes.
func (ws *Workspace) gatherSoA(e *soaEig, f []float64, shape Shape, bs *[wideLanes][]float64, use *[wideLanes]bool) (run [wideLanes]bool, tr [wideLanes]float64) {
	L := e.L
	d := ws.d
	w, sb := e.w[:d*d*L], e.u[:d*d*L]
	var src [wideLanes][]float64
	for k := 0; k < L; k++ {
		src[k] = e.zero[:d*d]
		if use[k] {
			src[k] = bs[k][:d*d]
		}
	}
	interleave(sb, &src, L)
	formL(L, w, e.root[:d*d*L], sb, f[:d*d], d, shape == Lower)
	scaleL(L, w, tr[:L], d)
	for k := 0; k < L; k++ {
		run[k] = use[k] && tr[k] > 0 && tr[k] <= math.MaxFloat64
		if !run[k] {
			for r := 0; r < d; r++ {
				for c := r; c < d; c++ {
					w[(r*d+c)*L+k] = 0
				}
				w[(r*d+r)*L+k] = 1
			}
		}
	}
	return run, tr
}

// interleave stores src[k][x] at dst[x*L+k] for the L = 4 or 8 lanes
// (src[k] all of one length), element by element: one row of L values
// per element, written in order.
func interleave(dst []float64, src *[wideLanes][]float64, L int) {
	s0 := src[0]
	n := len(s0)
	s1, s2, s3 := src[1][:n], src[2][:n], src[3][:n]
	if L == 4 {
		dst = dst[:4*n]
		for x := range s0 {
			o := dst[4*x : 4*x+4 : 4*x+4]
			o[0], o[1], o[2], o[3] = s0[x], s1[x], s2[x], s3[x]
		}
		return
	}
	s4, s5, s6, s7 := src[4][:n], src[5][:n], src[6][:n], src[7][:n]
	dst = dst[:8*n]
	for x := range s0 {
		o := dst[8*x : 8*x+8 : 8*x+8]
		o[0], o[1], o[2], o[3] = s0[x], s1[x], s2[x], s3[x]
		o[4], o[5], o[6], o[7] = s4[x], s5[x], s6[x], s7[x]
	}
}

// scaleSoA sets tr[k] to the trace of lane k of the interleaved w and
// multiplies the lane's upper triangle by 1/tr[k]. It is the reference of
// the assembly (the same operations).
func scaleSoA(L int, w, tr []float64, d int) {
	var inv [wideLanes]float64
	for k := 0; k < L; k++ {
		var s float64
		for r := 0; r < d; r++ {
			s += w[(r*d+r)*L+k]
		}
		tr[k] = s
		inv[k] = 1 / s
	}
	for r := 0; r < d; r++ {
		for c := r; c < d; c++ {
			x := w[(r*d+c)*L : (r*d+c+1)*L]
			for k := range x {
				x[k] *= inv[k]
			}
		}
	}
}

// rootsSoA sets, for each lane k of the interleaved eigenvalues diag
// (of M / tr[k]): with l = diag tr[k] the eigenvalues of M and cut =
// ZeroCut max l, fv = sqrt(l) and hv = 1/fv where l > cut (else 0), and
// t[k] = sum fv. It is the reference of the assembly (the same
// operations).
func rootsSoA(L int, diag, tr, fv, hv, t []float64, d int) {
	for k := 0; k < L; k++ {
		var top float64
		for q := 0; q < d; q++ {
			top = maxNaN(diag[q*L+k]*tr[k], top)
		}
		cut := ZeroCut * top
		var tk float64
		for q := 0; q < d; q++ {
			fv[q*L+k], hv[q*L+k] = 0, 0
			if l := diag[q*L+k] * tr[k]; l > cut {
				s := math.Sqrt(l)
				fv[q*L+k], hv[q*L+k] = s, 1/s
				tk += s
			}
		}
		t[k] = tk
	}
}

// formRest forms M_k into lane k's w for the lanes k with use[k] (those
// the structure-of-arrays solver left to the per-lane one).
func (ws *Workspace) formRest(e *soaEig, f []float64, shape Shape, bs *[wideLanes][]float64, use *[wideLanes]bool) {
	for k := 0; k < e.L; k++ {
		if use[k] {
			ln := &ws.ln[k]
			ln.closed, ln.soa = false, nil
			ws.form(ln.w, f, shape, bs[k])
		}
	}
}

// traceSoA is traceLanes by the structure-of-arrays solver (eigenvalues
// only) for the lanes k with use[k]: it writes t[k] and clears use[k]
// for the lanes it settles; the others keep M_k in w for traceLanes.
func (ws *Workspace) traceSoA(e *soaEig, f []float64, shape Shape, bs *[wideLanes][]float64, use *[wideLanes]bool, t *[wideLanes]float64) {
	L := e.L
	d := ws.d
	run, tr := ws.gatherSoA(e, f, shape, bs, use)
	tred2L(e, d, false)
	ok := tqlSoA(e, d, &run, false)
	var tv [wideLanes]float64
	rootsL(L, e.diag, tr[:L], e.fv, e.hv, tv[:L], d)
	for k := 0; k < L; k++ {
		if ok[k] {
			t[k] = tv[k]
			use[k] = false
		}
	}
	ws.formRest(e, f, shape, bs, use)
}

// symEigenSoA is SymEigenLanes by the structure-of-arrays solver for
// the lanes k with use[k]: each matrix is scaled by a power of two (its
// largest element to [1/2, 1): exact), and for the lanes it settles
// (ok[k], use[k] cleared) the eigenvectors go into the rows of w[k] and
// the eigenvalues into lam[k]. The other lanes (largest element 0,
// non-finite or beyond 2^+-1000, or the solver's checks failed) keep
// their input.
func (ws *Workspace) symEigenSoA(e *soaEig, w, lam *[wideLanes][]float64, use *[wideLanes]bool) (ok [wideLanes]bool) {
	L := e.L
	d := ws.d
	sw := e.w[:d*d*L]
	var run [wideLanes]bool
	var up, down [wideLanes]float64
	all := L == wideLanes
	for k := 0; k < L; k++ {
		if use[k] {
			src := w[k][:d*d]
			// The largest |element| of the upper triangle, NaN if any is
			// (maxNaN's): the bits of |x| order as |x| does, and a NaN's
			// are above every number's.
			var tb uint64
			for r := 0; r < d; r++ {
				for _, v := range src[r*d+r : r*d+d] {
					tb = max(tb, math.Float64bits(v)&^(1<<63))
				}
			}
			top := math.Float64frombits(tb)
			if top >= 0x1p-1000 && top <= 0x1p1000 {
				// top = m 2^x with m in [1/2, 1).
				x := int(math.Float64bits(top)>>52&0x7ff) - 1022
				down[k] = math.Float64frombits(uint64(1023-x) << 52)
				up[k], run[k] = math.Float64frombits(uint64(1023+x)<<52), true
				continue
			}
		}
		all = false
	}
	if all {
		// Every lane of eight runs: the upper triangles interleaved one
		// element of every lane at a time.
		dd := d * d
		s0 := w[0][:dd]
		s1, s2, s3 := w[1][:len(s0)], w[2][:len(s0)], w[3][:len(s0)]
		s4, s5, s6, s7 := w[4][:len(s0)], w[5][:len(s0)], w[6][:len(s0)], w[7][:len(s0)]
		for r := 0; r < d; r++ {
			for x := r*d + r; x < r*d+d; x++ {
				v := sw[x*wideLanes : x*wideLanes+wideLanes : x*wideLanes+wideLanes]
				v[0], v[1], v[2], v[3] = s0[x]*down[0], s1[x]*down[1], s2[x]*down[2], s3[x]*down[3]
				v[4], v[5], v[6], v[7] = s4[x]*down[4], s5[x]*down[5], s6[x]*down[6], s7[x]*down[7]
			}
		}
	} else {
		for k := 0; k < L; k++ {
			if run[k] {
				src := w[k][:d*d]
				for r := 0; r < d; r++ {
					dst := sw[(r*d+r)*L+k:]
					for i, v := range src[r*d+r : r*d+d] {
						dst[i*L] = v * down[k]
					}
				}
				continue
			}
			for r := 0; r < d; r++ {
				for c := r; c < d; c++ {
					sw[(r*d+c)*L+k] = 0
				}
				sw[(r*d+r)*L+k] = 1
			}
		}
	}
	tred2L(e, d, true)
	ok = tqlSoA(e, d, &run, true)
	all = L == wideLanes
	for k := 0; k < L; k++ {
		if !ok[k] {
			all = false
			continue
		}
		lk := lam[k][:d]
		for q := range lk {
			lk[q] = e.diag[q*L+k] * up[k]
		}
		use[k] = false
	}
	if all {
		// Every lane of eight settled: the rows of w from the
		// interleaved ones, one element of every lane at a time.
		dd := d * d
		w0 := w[0][:dd]
		w1, w2, w3 := w[1][:len(w0)], w[2][:len(w0)], w[3][:len(w0)]
		w4, w5, w6, w7 := w[4][:len(w0)], w[5][:len(w0)], w[6][:len(w0)], w[7][:len(w0)]
		for x := range w0 {
			v := sw[x*wideLanes : x*wideLanes+wideLanes : x*wideLanes+wideLanes]
			w0[x], w1[x], w2[x], w3[x] = v[0], v[1], v[2], v[3]
			w4[x], w5[x], w6[x], w7[x] = v[4], v[5], v[6], v[7]
		}
		return ok
	}
	for k := 0; k < L; k++ {
		if !ok[k] {
			continue
		}
		wk := w[k][:d*d]
		src := sw[k:]
		for x := range wk {
			wk[x] = src[x*L]
		}
	}
	return ok
}

// addSoALaneGo adds c times lane k of the upper triangle x (interleaved,
// L lanes) to the upper triangle of s: addSoALane's reference.
func addSoALaneGo(s, x []float64, d, L, k int, c float64) {
	for r := 0; r < d; r++ {
		sr := s[r*d+r : r*d+d]
		xr := x[(r*d+r)*L+k : (r*d+d)*L]
		for q := range sr {
			sr[q] += c * xr[q*L]
		}
	}
}

// formSoA sets the upper triangle (c >= r) of each lane of m to
// F^T B F (m, b interleaved d x d, b symmetric and stored in full; f one
// plain row-major d x d matrix shared by the lanes, lower triangular with
// its strict upper triangle zero when lower, else in full; x d x d
// interleaved scratch): X = F^T B, then M = X F. It is the reference of
// the assembly (which fuses the multiply-adds).
func formSoA(L int, m, x, b, f []float64, d int, lower bool) {
	for r := 0; r < d; r++ {
		xr := x[r*d*L : (r+1)*d*L]
		clear(xr)
		p0 := 0
		if lower {
			p0 = r
		}
		for p := p0; p < d; p++ {
			a := f[p*d+r]
			bp := b[p*d*L : (p+1)*d*L]
			for q := range xr {
				xr[q] += a * bp[q]
			}
		}
	}
	for r := 0; r < d; r++ {
		xr := x[r*d*L : (r+1)*d*L]
		for c := r; c < d; c++ {
			var acc [wideLanes]float64
			p0 := 0
			if lower {
				p0 = c
			}
			for p := p0; p < d; p++ {
				a := f[p*d+c]
				for k := 0; k < L; k++ {
					acc[k] += xr[p*L+k] * a
				}
			}
			copy(m[(r*d+c)*L:(r*d+c+1)*L], acc[:L])
		}
	}
}

// spectralSoA sets the upper triangle (c >= r) of each lane of out to
// sum_q v[q] X[q][r] X[q][c] (out, x interleaved d x d, v interleaved d
// long). It is the reference of the assembly (which fuses the
// multiply-adds).
func spectralSoA(L int, out, x, v []float64, d int) {
	for r := 0; r < d; r++ {
		or := out[(r*d+r)*L : (r*d+d)*L]
		clear(or)
		for q := 0; q < d; q++ {
			xq := x[(q*d+r)*L : (q*d+d)*L]
			for k := 0; k < L; k++ {
				t := v[q*L+k] * xq[k]
				for c := k; c < len(or); c += L {
					or[c] += t * xq[c]
				}
			}
		}
	}
}

// mulFTSoA sets out[q][r] = sum_p F[r][p] X[q][p] for each lane (out = X
// F^T; out and x interleaved d x d, f one plain row-major d x d matrix
// shared by the lanes: when lower, f is lower triangular with its strict
// upper triangle zero, and the sum runs over p <= r). It is the reference
// of the assembly (which fuses the multiply-adds and, when lower, may add
// the zeros above the diagonal).
func mulFTSoA(L int, out, x, f []float64, d int, lower bool) {
	for q := 0; q < d; q++ {
		xq := x[q*d*L : (q+1)*d*L]
		for r := 0; r < d; r++ {
			pe := d
			if lower {
				pe = r + 1
			}
			var acc [wideLanes]float64
			for p := 0; p < pe; p++ {
				a := f[r*d+p]
				for k := 0; k < L; k++ {
					acc[k] += a * xq[p*L+k]
				}
			}
			copy(out[(q*d+r)*L:(q*d+r+1)*L], acc[:L])
		}
	}
}
