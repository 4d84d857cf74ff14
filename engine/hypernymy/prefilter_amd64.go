//go:build amd64 && !purego

package hypernymy

import "unsafe"

//go:noescape
func hypGemv4AVX2(y *float32, stride int, coef *float32, nf int, out *float32, ostride int, n int)

//go:noescape
func hypCombineAVX2(l, s, h *float32, k, thr float32, n int, mask *uint8)

// hypGemv4 sets out[r*ostride+i] = sum_f coef[4f+r] y[f*stride+i] for
// the four queries r = 0..3 and i < n (a multiple of 24), in float32.
func hypGemv4(y []float32, stride int, coef []float32, out []float32, ostride, n int) {
	nf := len(coef) / 4
	if !hypHasAVX2 {
		hypGemv4Scalar(y, stride, coef, out, ostride, n)
		return
	}
	_ = y[(nf-1)*stride+n-1]
	_ = out[3*ostride+n-1]
	hypGemv4AVX2(unsafe.SliceData(y), stride, unsafe.SliceData(coef), nf, unsafe.SliceData(out), ostride, n)
}

// hypCombine sets bit i%8 of mask[i/8] when, with m = min(s[i],
// sqrt(k max(h[i], 0))), l[i] + m + 2^-20 (|l[i]| + m) >= thr, for
// i < len(l) (a multiple of 8), in float32.
func hypCombine(l, s, h []float32, k, thr float32, mask []uint8) {
	if !hypHasAVX2 {
		hypCombineScalar(l, s, h, k, thr, mask)
		return
	}
	n := len(l)
	_, _, _ = s[n-1], h[n-1], mask[n/8-1]
	hypCombineAVX2(unsafe.SliceData(l), unsafe.SliceData(s), unsafe.SliceData(h), k, thr, n, unsafe.SliceData(mask))
}
