//go:build !amd64 || purego

package hypernymy

// hypGemv4 sets out[r*ostride+i] = sum_f coef[4f+r] y[f*stride+i] for
// the four queries r = 0..3 and i < n, in float32.
func hypGemv4(y []float32, stride int, coef []float32, out []float32, ostride, n int) {
	hypGemv4Scalar(y, stride, coef, out, ostride, n)
}

// hypCombine sets bit i%8 of mask[i/8] when, with m = min(s[i],
// sqrt(k max(h[i], 0))), l[i] + m + 2^-20 (|l[i]| + m) >= thr, for
// i < len(l) (a multiple of 8), in float32.
func hypCombine(l, s, h []float32, k, thr float32, mask []uint8) {
	hypCombineScalar(l, s, h, k, thr, mask)
}
