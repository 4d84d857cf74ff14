//go:build !amd64 || purego

package hypernymy

// hypHasAVX2 is false off amd64: the scalar kernels are used.
var hypHasAVX2 = false

// hypDot returns the dot product of a and b (len(a) <= len(b)).
func hypDot(a, b []float64) float64 { return hypDotScalar(a, b) }

// hypPrefetch does nothing here (a hint on amd64).
func hypPrefetch(x []float64) {}

// hypPrefetchL2 does nothing here (a hint on amd64).
func hypPrefetchL2(x []float64) {}

// hypEigen4 returns sum_r sl[r] sqrt(max(m[r*stride : r*stride+len(x)] . x,
// 0)) over r = 0..3.
func hypEigen4(m []float64, stride int, x []float64, sl *[4]float64) float64 {
	return hypEigen4Scalar(m, stride, x, sl)
}

// hypQuadSum returns sum_i f_i sqrt(max(w_i^T a w_i, 0)) over the columns
// w_i of the d x d matrix v (a: d x d; both row-major).
func hypQuadSum(v, f, a []float64, d int) float64 { return hypQuadSumScalar(v, f, a, d) }

// hypMatMul writes the product a b of the d x d row-major matrices into c
// (not aliasing a or b).
func hypMatMul(c, a, b []float64, d int) { hypMatMulScalar(c, a, b, d) }
