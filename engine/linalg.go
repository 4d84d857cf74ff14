package engine

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// This file holds small dense helpers on row-major []float64 matrices used
// throughout the package. They allocate their results; hot loops that must
// not allocate use the fixed-size kernels in sqrtm.go and bures.go.

// MatMul returns the n x m product of the n x k matrix a and the k x m
// matrix b (all row-major).
func MatMul(a, b []float64, n, k, m int) []float64 {
	c := make([]float64, n*m)
	matMulInto(c, a, b, n, k, m)
	return c
}

// matMulInto writes a (n x k) times b (k x m) into c (n x m); c must not
// alias a or b.
func matMulInto(c, a, b []float64, n, k, m int) {
	for i := 0; i < n; i++ {
		ci := c[i*m : (i+1)*m]
		for j := range ci {
			ci[j] = 0
		}
		for p := 0; p < k; p++ {
			aip := a[i*k+p]
			if aip == 0 {
				continue
			}
			bp := b[p*m : (p+1)*m]
			for j, v := range bp {
				ci[j] += aip * v
			}
		}
	}
}

// mul3 returns the d x d product a b c.
func mul3(a, b, c []float64, d int) []float64 {
	return MatMul(MatMul(a, b, d, d, d), c, d, d, d)
}

// Transpose returns the m x n transpose of the n x m matrix a.
func Transpose(a []float64, n, m int) []float64 {
	t := make([]float64, n*m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			t[j*n+i] = a[i*m+j]
		}
	}
	return t
}

// Trace returns the trace of the d x d matrix a.
func Trace(a []float64, d int) float64 {
	var s float64
	for i := 0; i < d; i++ {
		s += a[i*d+i]
	}
	return s
}

// Symmetrize replaces the d x d matrix a by (a + a^T)/2 in place and
// returns it; it removes the round-off asymmetry of products like A B A.
func Symmetrize(a []float64, d int) []float64 {
	for i := 0; i < d; i++ {
		for j := 0; j < i; j++ {
			v := 0.5 * (a[i*d+j] + a[j*d+i])
			a[i*d+j] = v
			a[j*d+i] = v
		}
	}
	return a
}

// FrobNorm returns the Frobenius norm of a (any shape).
func FrobNorm(a []float64) float64 {
	var s float64
	for _, v := range a {
		s += v * v
	}
	return math.Sqrt(s)
}

// FrobDist returns the Frobenius norm of a - b (same shapes).
func FrobDist(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		e := v - b[i]
		s += e * e
	}
	return math.Sqrt(s)
}

// Dot returns the Euclidean inner product of two vectors of equal length.
func Dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// SqDist returns |a - b|^2 for two vectors of equal length.
func SqDist(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		e := v - b[i]
		s += e * e
	}
	return s
}

// FactorProduct returns the d x d matrix L L^T + eps I for the d x k
// row-major factor l (k may be 0: the result is eps I).
func FactorProduct(l []float64, d, k int, eps float64) []float64 {
	return Measure{Mean: make([]float64, d), Factor: l, K: k, Eps: eps}.Scale()
}

// symEig returns the eigenvalues (ascending) and the eigenvectors (the
// columns of a row-major d x d matrix) of the symmetric part of a.
func symEig(a []float64, d int) (vals, vecs []float64, ok bool) {
	s := mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			s.SetSym(i, j, 0.5*(a[i*d+j]+a[j*d+i]))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(s, true) {
		return nil, nil, false
	}
	vals = es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	vecs = make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			vecs[i*d+j] = v.At(i, j)
		}
	}
	return vals, vecs, true
}

// spectralFunc returns U diag(f(lambda)) U^T for the eigendecomposition
// vals, vecs of a symmetric d x d matrix.
func spectralFunc(vals, vecs []float64, d int, f func(float64) float64) []float64 {
	fv := make([]float64, d)
	for i, l := range vals {
		fv[i] = f(l)
	}
	out := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for k := 0; k < d; k++ {
				if fv[k] != 0 {
					s += vecs[i*d+k] * fv[k] * vecs[j*d+k]
				}
			}
			out[i*d+j] = s
			out[j*d+i] = s
		}
	}
	return out
}

// Finite reports whether every entry of a is a finite number (no NaN,
// no infinity). It is the one such check of the engine and its fitting
// and training packages.
func Finite(a []float64) bool {
	for _, v := range a {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// jacobiMaxSweeps bounds the Jacobi sweeps; cyclic Jacobi converges
// quadratically and needs 5 to 8 sweeps for d <= 16 in practice.
const jacobiMaxSweeps = 60

// JacobiEigen diagonalises the symmetric d x d matrix a (row-major; it is
// used as scratch and destroyed) by cyclic Jacobi rotations, without
// allocating: the eigenvalues go to l (unsorted) and, when v is not nil,
// the eigenvectors to the columns of v, so that a = v diag(l) v^T. It is
// the small-matrix eigensolver of the hot loops (CPU pair kernels for
// d >= 4, hypernymy training); accurate to round-off relative to |a|_F.
func JacobiEigen(a []float64, d int, v, l []float64) {
	if v != nil {
		for i := range v[:d*d] {
			v[i] = 0
		}
		for i := 0; i < d; i++ {
			v[i*d+i] = 1
		}
	}
	for sweep := 0; sweep < jacobiMaxSweeps; sweep++ {
		var off, diag float64
		for i := 0; i < d; i++ {
			diag += a[i*d+i] * a[i*d+i]
			for j := i + 1; j < d; j++ {
				off += a[i*d+j] * a[i*d+j]
			}
		}
		// Stop when the off-diagonal part is below round-off of the
		// diagonal (relative 1e-32 in squares, i.e. 1e-16 in norm).
		if off <= 1e-32*diag || off == 0 {
			break
		}
		for p := 0; p < d-1; p++ {
			for q := p + 1; q < d; q++ {
				apq := a[p*d+q]
				if apq == 0 {
					continue
				}
				theta := (a[q*d+q] - a[p*d+p]) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				// a <- J^T a J with J the rotation in the (p, q) plane.
				for k := 0; k < d; k++ {
					akp, akq := a[k*d+p], a[k*d+q]
					a[k*d+p] = c*akp - s*akq
					a[k*d+q] = s*akp + c*akq
				}
				for k := 0; k < d; k++ {
					apk, aqk := a[p*d+k], a[q*d+k]
					a[p*d+k] = c*apk - s*aqk
					a[q*d+k] = s*apk + c*aqk
				}
				a[p*d+q], a[q*d+p] = 0, 0
				if v != nil {
					for k := 0; k < d; k++ {
						vkp, vkq := v[k*d+p], v[k*d+q]
						v[k*d+p] = c*vkp - s*vkq
						v[k*d+q] = s*vkp + c*vkq
					}
				}
			}
		}
	}
	for i := 0; i < d; i++ {
		l[i] = a[i*d+i]
	}
}

// PairIndex returns the position of the unordered pair (i, j), i < j < n,
// in a packed upper triangle stored row by row: the layout of every pair
// array of Burescope (distances, weights, MDS problems).
func PairIndex(n, i, j int) int {
	return i*(2*n-i-1)/2 + (j - i - 1)
}
