package hypernymy

import "math"

// Dot products of the bounds of the pruned evaluation (evaltree.go):
// hypDot and the eigenbasis bounds use AVX2+FMA kernels on amd64 where the CPU has
// one (dot_amd64.s) and these scalar loops elsewhere. The bounds carry
// margins (hypBoundRel) far above the rounding differences between the
// two; the exact scores use neither.

// hypDotScalar returns the dot product of a and b (len(a) <= len(b)),
// with four partial sums.
func hypDotScalar(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		x, y := a[i:i+4:i+4], b[i:i+4:i+4]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// hypDot4Scalar writes to out the dot products of x with the four rows
// m[r*stride : r*stride+len(x)], r = 0..3.
func hypDot4Scalar(m []float64, stride int, x []float64, out *[4]float64) {
	for r := range out {
		out[r] = hypDotScalar(x, m[r*stride:r*stride+len(x)])
	}
}

// hypEigen4Scalar returns sum_r sl[r] sqrt(max(m[r*stride :
// r*stride+len(x)] . x, 0)) over r = 0..3.
func hypEigen4Scalar(m []float64, stride int, x []float64, sl *[4]float64) float64 {
	var out [4]float64
	hypDot4Scalar(m, stride, x, &out)
	var s float64
	for r, v := range out {
		s += sl[r] * math.Sqrt(hypMax(v, 0))
	}
	return s
}

// hypQuadSumScalar returns sum_i f_i sqrt(max(w_i^T a w_i, 0)) over the
// columns w_i of the d x d matrix v (a: d x d; both row-major).
func hypQuadSumScalar(v, f, a []float64, d int) float64 {
	var s float64
	for i := 0; i < d; i++ {
		var qf float64
		for r := 0; r < d; r++ {
			var t float64
			for k := 0; k < d; k++ {
				t += a[r*d+k] * v[k*d+i]
			}
			qf += v[r*d+i] * t
		}
		s += f[i] * math.Sqrt(hypMax(qf, 0))
	}
	return s
}

// hypMatMulScalar writes the product a b of the d x d row-major matrices
// into c (not aliasing a or b): c[i][j] accumulated over p = 0, 1, ... from
// zero, one rounding per product and per sum.
func hypMatMulScalar(c, a, b []float64, d int) {
	for i := 0; i < d; i++ {
		ci := c[i*d : (i+1)*d]
		clear(ci)
		for p, f := range a[i*d : (i+1)*d] {
			bp := b[p*d : (p+1)*d]
			for j := range ci {
				ci[j] += f * bp[j]
			}
		}
	}
}
