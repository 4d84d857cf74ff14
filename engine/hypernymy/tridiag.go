package hypernymy

import "math"

// Symmetric eigensolver for the kernels at 5 <= d <= 64: Householder
// tridiagonalisation with accumulation of the transformations, then the
// implicit QL iteration with Wilkinson-like shifts (the tred2 / tql2 pair
// of EISPACK, as in the JAMA formulation), written for one small dense
// row-major matrix with no allocation and no call overhead per element.
// It replaces LAPACK's Dsyev (gonum) in the loss kernel, where the
// eigendecomposition of M = A_u^{1/2} A_v A_u^{1/2} is most of the work.

// hypTred2 reduces the symmetric d x d matrix in v (row-major, full) to
// tridiagonal form: on return v holds the orthogonal transformation Q
// (A = Q T Q^T), diag the diagonal of T and off[1:] its sub-diagonal.
func hypTred2(v, diag, off []float64, d int) {
	for j := 0; j < d; j++ {
		diag[j] = v[(d-1)*d+j]
	}
	for i := d - 1; i > 0; i-- {
		var scale, h float64
		for k := 0; k < i; k++ {
			scale += math.Abs(diag[k])
		}
		if scale == 0 {
			off[i] = diag[i-1]
			for j := 0; j < i; j++ {
				diag[j] = v[(i-1)*d+j]
				v[i*d+j] = 0
				v[j*d+i] = 0
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
				v[j*d+i] = f
				g = off[j] + v[j*d+j]*f
				for k := j + 1; k <= i-1; k++ {
					g += v[k*d+j] * diag[k]
					off[k] += v[k*d+j] * f
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
				for k := j; k <= i-1; k++ {
					v[k*d+j] -= f*off[k] + g*diag[k]
				}
				diag[j] = v[(i-1)*d+j]
				v[i*d+j] = 0
			}
		}
		diag[i] = h
	}
	// Accumulate the transformations.
	for i := 0; i < d-1; i++ {
		v[(d-1)*d+i] = v[i*d+i]
		v[i*d+i] = 1
		h := diag[i+1]
		if h != 0 {
			for k := 0; k <= i; k++ {
				diag[k] = v[k*d+i+1] / h
			}
			for j := 0; j <= i; j++ {
				var g float64
				for k := 0; k <= i; k++ {
					g += v[k*d+i+1] * v[k*d+j]
				}
				for k := 0; k <= i; k++ {
					v[k*d+j] -= g * diag[k]
				}
			}
		}
		for k := 0; k <= i; k++ {
			v[k*d+i+1] = 0
		}
	}
	for j := 0; j < d; j++ {
		diag[j] = v[(d-1)*d+j]
		v[(d-1)*d+j] = 0
	}
	v[(d-1)*d+d-1] = 1
	off[0] = 0
}

// hypTql2 diagonalises the tridiagonal matrix (diag, off[1:]) from
// hypTred2 by the implicit QL iteration, applying the rotations to the
// columns of v: on return diag holds the eigenvalues (unordered) and the
// columns of v the eigenvectors. It returns false if an eigenvalue did
// not converge in 30 iterations (non-finite input).
func hypTql2(v, diag, off []float64, d int) bool {
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
					g = c * off[i]
					h = c * p
					r = hypHypot(p, off[i])
					off[i+1] = s * r
					s = off[i] / r
					c = p / r
					p = c*diag[i] - s*g
					diag[i+1] = h + s*(c*g+s*diag[i])
					for k := 0; k < d; k++ {
						vk := v[k*d : k*d+d]
						h = vk[i+1]
						vk[i+1] = s*vk[i] + c*h
						vk[i] = c*vk[i] - s*h
					}
				}
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
