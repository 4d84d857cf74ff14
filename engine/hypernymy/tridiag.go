package hypernymy

import "math"

// Symmetric eigensolver for the kernels at 5 <= d <= 64: Householder
// tridiagonalisation with accumulation of the transformations, then the
// implicit QL iteration with Wilkinson-like shifts (the tred2 / tql2 pair
// of EISPACK, as in the JAMA formulation), written for one small dense
// row-major matrix with no allocation and no call overhead per element.
// It replaces LAPACK's Dsyev (gonum) in the loss kernel, where the
// eigendecomposition of M = A_u^{1/2} A_v A_u^{1/2} is most of the work.
//
// Both work on the transpose w = V^T of JAMA's matrix V (w[c*d+r] =
// V[r][c]): the same operations in the same order, so the same results
// bit for bit, but every inner loop (the updates of a column of V, the
// Givens rotations of the QL sweeps) runs along a contiguous row of w.
// On return the ROWS of w are the eigenvectors.

// hypTred2 reduces the symmetric d x d matrix in w (row-major, full) to
// tridiagonal form: on return w holds the transpose of the orthogonal
// transformation Q (A = Q T Q^T, w = Q^T), diag the diagonal of T and
// off[1:] its sub-diagonal.
func hypTred2(w, diag, off []float64, d int) {
	w = w[:d*d]
	diag, off = diag[:d], off[:d]
	for j := 0; j < d; j++ {
		diag[j] = w[j*d+d-1]
	}
	for i := d - 1; i > 0; i-- {
		var scale, h float64
		for k := 0; k < i; k++ {
			scale += math.Abs(diag[k])
		}
		if scale == 0 {
			off[i] = diag[i-1]
			for j := 0; j < i; j++ {
				diag[j] = w[j*d+i-1]
				w[j*d+i] = 0
				w[i*d+j] = 0
			}
		} else {
			for k := 0; k < i; k++ {
				diag[k] /= scale
				h += diag[k] * diag[k]
			}
			f := diag[i-1]
			g := math.Sqrt(h)
			if f > 0 {
				g = -g
			}
			off[i] = scale * g
			h -= f * g
			diag[i-1] = f - g
			for j := 0; j < i; j++ {
				off[j] = 0
			}
			for j := 0; j < i; j++ {
				f = diag[j]
				w[i*d+j] = f
				wj := w[j*d : j*d+i]
				g = off[j] + wj[j]*f
				dk, ok := diag[:len(wj)], off[:len(wj)]
				for k := j + 1; k < len(wj); k++ {
					g += wj[k] * dk[k]
					ok[k] += wj[k] * f
				}
				off[j] = g
			}
			f = 0
			for j := 0; j < i; j++ {
				off[j] /= h
				f += off[j] * diag[j]
			}
			hh := f / (h + h)
			for j := 0; j < i; j++ {
				off[j] -= hh * diag[j]
			}
			for j := 0; j < i; j++ {
				f = diag[j]
				g = off[j]
				wj := w[j*d : j*d+i]
				dk, ok := diag[:len(wj)], off[:len(wj)]
				for k := j; k < len(wj); k++ {
					wj[k] -= f*ok[k] + g*dk[k]
				}
				diag[j] = w[j*d+i-1]
				w[j*d+i] = 0
			}
		}
		diag[i] = h
	}
	// Accumulate the transformations.
	for i := 0; i < d-1; i++ {
		w[i*d+d-1] = w[i*d+i]
		w[i*d+i] = 1
		h := diag[i+1]
		wi1 := w[(i+1)*d : (i+1)*d+i+1]
		if h != 0 {
			dk := diag[:len(wi1)]
			for k := range wi1 {
				dk[k] = wi1[k] / h
			}
			for j := 0; j <= i; j++ {
				wj := w[j*d : j*d+len(wi1)]
				var g float64
				wj = wj[:len(wi1)]
				for k, x := range wi1 {
					g += x * wj[k]
				}
				dk := dk[:len(wj)]
				for k := range wj {
					wj[k] -= g * dk[k]
				}
			}
		}
		clear(wi1)
	}
	for j := 0; j < d; j++ {
		diag[j] = w[j*d+d-1]
		w[j*d+d-1] = 0
	}
	w[(d-1)*d+d-1] = 1
	off[0] = 0
}

// hypTql2 diagonalises the tridiagonal matrix (diag, off[1:]) from
// hypTred2 by the implicit QL iteration, applying the rotations to the
// rows of w: on return diag holds the eigenvalues (unordered) and the
// rows of w the eigenvectors. It returns false if an eigenvalue did not
// converge in 30 iterations (non-finite input). rot (at least 2d long)
// is scratch: the cosines and sines of a sweep, applied to w in one call
// of hypRotSweep once the sweep's scalar part is done.
func hypTql2(w, diag, off, rot []float64, d int) bool {
	w = w[:d*d]
	cs, ss := rot[:d], rot[d:2*d]
	diag, off = diag[:d], off[:d]
	for i := 1; i < d; i++ {
		off[i-1] = off[i]
	}
	off[d-1] = 0
	var f, tst1 float64
	const eps = 0x1p-52
	for l := 0; l < d; l++ {
		tst1 = math.Max(tst1, math.Abs(diag[l])+math.Abs(off[l]))
		m := l
		for m < d && math.Abs(off[m]) > eps*tst1 {
			m++
		}
		if m == d {
			m = d - 1
		}
		if m > l {
			for iter := 0; ; iter++ {
				if iter == 30 || math.IsNaN(tst1) {
					return false
				}
				g := diag[l]
				p := (diag[l+1] - g) / (2 * off[l])
				r := hypHypot(p, 1)
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
					r = hypHypot(p, oi)
					off[i+1] = s * r
					// The new p = c diag[i] - s g with c = p / r,
					// s = oi / r, as (p diag[i] - oi g) / r: its
					// numerator is computed while the square root runs,
					// which shortens the chain of dependent operations
					// from one rotation to the next (sqrt, then one
					// division).
					num := p*diag[i] - oi*g
					s = oi / r
					c = p / r
					p = num / r
					diag[i+1] = h + s*(c*g+s*diag[i])
					cs[i], ss[i] = c, s
				}
				hypRotSweep(w, d, l, m, cs, ss)
				p = -s * s2 * c3 * el1 * off[l] / dl1
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

// hypHypot returns sqrt(a^2 + b^2): the plain formula, which is several
// times faster than math.Hypot, falling back to math.Hypot where the
// squares overflow or underflow.
func hypHypot(a, b float64) float64 {
	s := a*a + b*b
	if s > 1e-290 && s < 1e290 {
		return math.Sqrt(s)
	}
	return math.Hypot(a, b)
}
