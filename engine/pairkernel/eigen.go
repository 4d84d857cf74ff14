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
// scratch for the rotations of one sweep.
func tql2(w, diag, off, cs, ss []float64, d int, vectors bool) bool {
	diag, off = diag[:d], off[:d]
	cs, ss = cs[:d], ss[:d]
	for i := 1; i < d; i++ {
		off[i-1] = off[i]
	}
	off[d-1] = 0
	var f, tst1 float64
	const eps = 0x1p-52
	for l := 0; l < d; l++ {
		tst1 = math.Max(tst1, math.Abs(diag[l])+math.Abs(off[l]))
		m := l
		for m < d-1 && math.Abs(off[m]) > eps*tst1 {
			m++
		}
		if m > l {
			// The shorter recurrence below multiplies two matrix
			// elements: safe while their squares stay in range.
			fast := tst1 < 1e140 && tst1 > 1e-140
			for iter := 0; ; iter++ {
				if iter == 40 || math.IsNaN(tst1) {
					return false
				}
				g := diag[l]
				p := (diag[l+1] - g) / (2 * off[l])
				r := hypot(p, 1)
				if p < 0 {
					r = -r
				}
				diag[l] = off[l] / (p + r)
				diag[l+1] = off[l] * (p + r)
				dl1 := diag[l+1]
				h := g - diag[l]
				for i := l + 2; i < d; i++ {
					diag[i] -= h
				}
				f += h
				p = diag[m]
				c, c2, c3 := 1.0, 1.0, 1.0
				el1 := off[l+1]
				var s, s2 float64
				for i := m - 1; i >= l; i-- {
					c3 = c2
					c2 = c
					s2 = s
					oi := off[i]
					g = c * oi
					h = c * p
					// hypot(p, oi), inlined: the plain formula unless the
					// squares leave the exponent range.
					if r2 := p*p + oi*oi; r2 > 1e-290 && r2 < 1e290 {
						r = math.Sqrt(r2)
					} else {
						r = math.Hypot(p, oi)
					}
					off[i+1] = s * r
					if fast {
						// p = c diag[i] - s g with c = p / r, s = oi / r,
						// as (p diag[i] - oi g) / r: the numerator is
						// computed while the square root runs, which
						// shortens the chain of dependent operations from
						// one rotation to the next to a square root and a
						// division.
						num := p*diag[i] - oi*g
						s = oi / r
						c = p / r
						p = num / r
					} else {
						s = oi / r
						c = p / r
						p = c*diag[i] - s*g
					}
					diag[i+1] = h + s*(c*g+s*diag[i])
					cs[i], ss[i] = c, s
				}
				if vectors {
					rotate(w, d, l, m, cs, ss)
				}
				// (el1 / dl1) first: el1 * off[l] is the square of the
				// matrix's scale and leaves the exponent range beyond
				// 1e+-154.
				p = -s * s2 * c3 * (el1 / dl1) * off[l]
				off[l] = s * p
				diag[l] = c * p
				if !(math.Abs(off[l]) > eps*tst1) {
					break
				}
			}
		}
		diag[l] += f
		off[l] = 0
	}
	return true
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

// hypot returns sqrt(a^2 + b^2) by the plain formula where the squares
// neither overflow nor underflow, math.Hypot otherwise (kept small enough
// to be inlined).
func hypot(a, b float64) float64 {
	s := a*a + b*b
	if s > 1e-290 && s < 1e290 {
		return math.Sqrt(s)
	}
	return slowHypot(a, b)
}

//go:noinline
func slowHypot(a, b float64) float64 { return math.Hypot(a, b) }
