package pairkernel

import "math"

// The symmetric eigensolver: Householder reduction to tridiagonal form
// (tred2), then the implicit QL iteration with shifts (tql2), after the
// EISPACK routines of the same names. Both work on w = V^T: on return the
// ROWS of w are the eigenvectors, so the Givens rotations of the QL sweeps
// and the accumulation of the Householder reflections run along
// contiguous memory. The input of tred2 is the upper triangle of the
// symmetric matrix, w[r*d+c] for c >= r; the strict lower triangle is
// never read.

// tred2 reduces the symmetric matrix in the upper triangle of w to
// tridiagonal form T = Q^T A Q; on return w = Q^T (rows of w are columns
// of Q), diag holds T's diagonal and off[1:] its sub-diagonal. With
// vectors false the transformations are not accumulated (w is then
// garbage) and only diag and off are valid.
func tred2(w, diag, off []float64, d int, vectors bool) {
	w = w[:d*d]
	diag, off = diag[:d], off[:d]
	for j := 0; j < d; j++ {
		diag[j] = w[j*d+d-1]
	}
	for i := d - 1; i > 0; i-- {
		var scale, h float64
		for _, x := range diag[:i] {
			scale += math.Abs(x)
		}
		if scale == 0 {
			off[i] = diag[i-1]
			for j := 0; j < i; j++ {
				diag[j] = w[j*d+i-1]
				w[j*d+i] = 0
				w[i*d+j] = 0
			}
			diag[i] = 0
			continue
		}
		inv := 1 / scale
		dv := diag[:i]
		for k := range dv {
			dv[k] *= inv
			h += dv[k] * dv[k]
		}
		f := dv[i-1]
		g := math.Sqrt(h)
		if f > 0 {
			g = -g
		}
		off[i] = scale * g
		h -= f * g
		dv[i-1] = f - g
		ev := off[:i]
		clear(ev)
		// e = A_i u (A_i the leading i x i block, upper triangle of w
		// holds it by rows: w[j*d+k], k >= j).
		for j := 0; j < i; j++ {
			f = dv[j]
			w[i*d+j] = f
			wj := w[j*d+j : j*d+i]
			dk := dv[j:]
			ek := ev[j:][:len(dk)]
			wj = wj[:len(dk)]
			g = ev[j] + wj[0]*f
			for k := 1; k < len(wj); k++ {
				g += wj[k] * dk[k]
				ek[k] += wj[k] * f
			}
			ev[j] = g
		}
		f = 0
		hinv := 1 / h
		for j := range ev {
			ev[j] *= hinv
			f += ev[j] * dv[j]
		}
		hh := f / (h + h)
		for j := range ev {
			ev[j] -= hh * dv[j]
		}
		for j := 0; j < i; j++ {
			f = dv[j]
			g = ev[j]
			wj := w[j*d+j : j*d+i]
			dk := dv[j:]
			ek := ev[j:][:len(dk)]
			wj = wj[:len(dk)]
			for k := range wj {
				wj[k] -= f*ek[k] + g*dk[k]
			}
			diag[j] = w[j*d+i-1]
			w[j*d+i] = 0
		}
		diag[i] = h
	}
	if !vectors {
		for j := 0; j < d; j++ {
			diag[j] = w[j*d+j]
		}
		off[0] = 0
		return
	}
	// Accumulate the transformations.
	for i := 0; i < d-1; i++ {
		w[i*d+d-1] = w[i*d+i]
		w[i*d+i] = 1
		h := diag[i+1]
		u := w[(i+1)*d : (i+1)*d+i+1]
		if h != 0 {
			hinv := 1 / h
			dk := diag[:len(u)]
			for k := range u {
				dk[k] = u[k] * hinv
			}
			for j := 0; j <= i; j++ {
				wj := w[j*d : j*d+len(u)]
				var g float64
				for k, x := range u {
					g += x * wj[k]
				}
				for k := range wj {
					wj[k] -= g * dk[k]
				}
			}
		}
		clear(u)
	}
	for j := 0; j < d; j++ {
		diag[j] = w[j*d+d-1]
		w[j*d+d-1] = 0
	}
	w[d*d-1] = 1
	off[0] = 0
}

// tql2 diagonalises the tridiagonal matrix (diag, off[1:]) left by tred2
// with the implicit QL iteration; with vectors it applies the rotations to
// the rows of w (which then hold the eigenvectors). On return diag holds
// the eigenvalues, unordered. It returns false if an eigenvalue did not
// converge in 40 iterations (non-finite input). cs and ss (d long) are
// scratch for the rotations of one sweep. It is tqlLanes with one lane.
func tql2(w, diag, off, cs, ss []float64, d int, vectors bool) bool {
	var ps [qlLanes]qlProblem
	ps[0] = qlProblem{w: w, diag: diag, off: off, cs: cs, ss: ss}
	return tqlLanes(&ps, 1, d, vectors)[0]
}

// qlLanes is how many tridiagonal problems tqlLanes runs in lockstep.
const qlLanes = 4

// qlProblem is one problem of tqlLanes: tred2's output (w, diag, off)
// and the scratch of its sweeps (cs, ss), each d long (w d*d).
type qlProblem struct {
	w, diag, off, cs, ss []float64
}

// tqlLanes is tql2 on n <= qlLanes independent problems at once. The
// sweeps' rotations form one chain of dependent operations (a square
// root and a division each, about 40 cycles) that bounds a single
// problem's speed; here the rotations of the n problems alternate, so
// the processor overlaps their chains. Each problem sees exactly the
// operations of a lone tql2 (the results are the same bits), only their
// interleaving differs. ok[k] reports problem k's convergence.
func tqlLanes(ps *[qlLanes]qlProblem, n, d int, vectors bool) (ok [qlLanes]bool) {
	const eps = 0x1p-52
	var f, tst1, p, c, c2, c3, s, s2, el1, dl1 [qlLanes]float64
	var m, iter [qlLanes]int
	var active, fast [qlLanes]bool
	for k := 0; k < n; k++ {
		pk := &ps[k]
		pk.diag, pk.off = pk.diag[:d], pk.off[:d]
		pk.cs, pk.ss = pk.cs[:d], pk.ss[:d]
		off := pk.off
		for i := 1; i < d; i++ {
			off[i-1] = off[i]
		}
		off[d-1] = 0
		ok[k] = true
	}
	for l := 0; l < d; l++ {
		more := false
		for k := 0; k < n; k++ {
			diag, off := ps[k].diag, ps[k].off
			tst1[k] = maxNaN(math.Abs(diag[l])+math.Abs(off[l]), tst1[k])
			mk := l
			for mk < d-1 && math.Abs(off[mk]) > eps*tst1[k] {
				mk++
			}
			m[k], iter[k] = mk, 0
			active[k] = mk > l && ok[k]
			// The shorter recurrence below multiplies two matrix
			// elements: safe while their squares stay in range.
			fast[k] = tst1[k] < 1e140 && tst1[k] > 1e-140
			more = more || active[k]
		}
		for more {
			// Start a sweep in every active problem: the shift.
			long := 0
			for k := 0; k < n; k++ {
				if !active[k] {
					continue
				}
				if iter[k] == 40 || math.IsNaN(tst1[k]) {
					ok[k], active[k] = false, false
					continue
				}
				iter[k]++
				diag, off := ps[k].diag, ps[k].off
				g := diag[l]
				q := (diag[l+1] - g) / (2 * off[l])
				r := hypot1(q)
				if q < 0 {
					r = -r
				}
				diag[l] = off[l] / (q + r)
				diag[l+1] = off[l] * (q + r)
				dl1[k] = diag[l+1]
				h := g - diag[l]
				for i := l + 2; i < d; i++ {
					diag[i] -= h
				}
				f[k] += h
				p[k] = diag[m[k]]
				c[k], c2[k], c3[k] = 1, 1, 1
				el1[k] = off[l+1]
				s[k], s2[k] = 0, 0
				long = max(long, m[k]-l)
			}
			// The rotations, step by step in every problem.
			for step := 1; step <= long; step++ {
				for k := 0; k < n; k++ {
					i := m[k] - step
					if !active[k] || i < l {
						continue
					}
					diag, off := ps[k].diag, ps[k].off
					ck, sk, pp := c[k], s[k], p[k]
					c3[k] = c2[k]
					c2[k] = ck
					s2[k] = sk
					oi := off[i]
					g := ck * oi
					h := ck * pp
					// hypot(pp, oi), inlined: the plain formula unless
					// the squares leave the exponent range.
					var r float64
					if r2 := pp*pp + oi*oi; r2 > 1e-290 && r2 < 1e290 {
						r = math.Sqrt(r2)
					} else {
						r = math.Hypot(pp, oi)
					}
					off[i+1] = sk * r
					if fast[k] {
						// pp = c diag[i] - s g with c = pp / r,
						// s = oi / r, as (pp diag[i] - oi g) / r: the
						// numerator is computed while the square root
						// runs, which shortens the chain from one rotation
						// to the next; one division (1/r) instead of
						// three, as the divider bounds the interleaved
						// lanes.
						num := pp*diag[i] - oi*g
						rinv := 1 / r
						sk = oi * rinv
						ck = pp * rinv
						pp = num * rinv
					} else {
						sk = oi / r
						ck = pp / r
						pp = ck*diag[i] - sk*g
					}
					diag[i+1] = h + sk*(ck*g+sk*diag[i])
					ps[k].cs[i], ps[k].ss[i] = ck, sk
					c[k], s[k], p[k] = ck, sk, pp
				}
			}
			// Finish the sweeps.
			more = false
			for k := 0; k < n; k++ {
				if !active[k] {
					continue
				}
				if vectors {
					rotate(ps[k].w, d, l, m[k], ps[k].cs, ps[k].ss)
				}
				off := ps[k].off
				// (el1 / dl1) first: el1 * off[l] is the square of the
				// matrix's scale and leaves the exponent range beyond
				// 1e+-154.
				q := -s[k] * s2[k] * c3[k] * (el1[k] / dl1[k]) * off[l]
				off[l] = s[k] * q
				ps[k].diag[l] = c[k] * q
				active[k] = math.Abs(off[l]) > eps*tst1[k]
				more = more || active[k]
			}
		}
		for k := 0; k < n; k++ {
			ps[k].diag[l] += f[k]
			ps[k].off[l] = 0
		}
	}
	// A non-finite entry need not stop an iteration (no sweep may run
	// after it), but it always reaches tst1.
	for k := 0; k < n; k++ {
		if !(tst1[k] <= math.MaxFloat64) {
			ok[k] = false
		}
	}
	return ok
}

// rotateRef applies the rotations i = m-1 down to l of one QL sweep to
// the row pairs (i, i+1) of w: row i+1 <- s row i + c row i+1, row i <-
// c row i - s row i+1. It is the reference of the assembly sweeps and
// the path off amd64.
func rotateRef(w []float64, d, l, m int, cs, ss []float64) {
	for i := m - 1; i >= l; i-- {
		c, s := cs[i], ss[i]
		a := w[i*d : i*d+d]
		b := w[(i+1)*d : (i+1)*d+d]
		b = b[:len(a)]
		for k, x := range a {
			y := b[k]
			b[k] = s*x + c*y
			a[k] = c*x - s*y
		}
	}
}

// hypot1 returns sqrt(q^2 + 1) (q^2 + 1 rounds to q^2 long before q^2
// overflows, so |q| there).
func hypot1(q float64) float64 {
	if a := math.Abs(q); a > 1e150 {
		return a
	}
	return math.Sqrt(q*q + 1)
}

// maxNaN returns the larger of a and b, NaN if either is (math.Max, but
// inlined: a NaN must reach tst1 so that tqlLanes reports the failure).
func maxNaN(a, b float64) float64 {
	if a > b || a != a {
		return a
	}
	return b
}
