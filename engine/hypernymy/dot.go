package hypernymy

// Dot products of the bounds of the pruned evaluation (evaltree.go):
// hypDot and hypDot4 use an AVX2+FMA kernel on amd64 where the CPU has
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
