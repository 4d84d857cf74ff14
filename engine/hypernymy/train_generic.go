//go:build !amd64 || purego

package hypernymy

// hypTrainAVX2 is false where the AVX2 kernels of train_amd64.s are not
// built.
var hypTrainAVX2 = false

// hypGemm returns false: the callers use their plain loops.
func hypGemm(c, a, b []float64, d, ars, aps, flags int) bool { return false }
