//go:build !amd64 || purego

package hypernymy

// hypCombine sets bit i%4 of mask[i/4] when l[i] + min(s[i],
// sqrt(k max(h[i], 0))) >= thr, for i < len(l) (a multiple of 4).
func hypCombine(l, s, h []float64, k, thr float64, mask []uint8) {
	hypCombineScalar(l, s, h, k, thr, mask)
}

// hypGemv4 sets out[r*ostride+i] = sum_f coef[4f+r] y[f*stride+i] for
// the four queries r = 0..3 and i < n.
func hypGemv4(y []float64, stride int, coef []float64, out []float64, ostride, n int) {
	hypGemv4Scalar(y, stride, coef, out, ostride, n)
}
