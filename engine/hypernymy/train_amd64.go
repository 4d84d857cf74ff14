//go:build amd64 && !purego

package hypernymy

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// hypTrainAVX2 selects the AVX2+FMA kernels of the training loss
// (train_amd64.s); a variable so that tests can compare them with the
// plain loops.
var hypTrainAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func hypGemmAVX2(c, a, b *float64, d, ars, aps, flags int)

// hypGemm is hypGemmRef (see there for a, ars, aps and flags) by the
// AVX2+FMA kernel; it returns false, doing nothing, where the CPU lacks
// AVX2 or FMA. Its rounding differs from a plain loop's (fused
// multiply-adds), but does not depend on anything but its inputs.
func hypGemm(c, a, b []float64, d, ars, aps, flags int) bool {
	if !hypTrainAVX2 || d == 0 {
		return false
	}
	_, _ = c[d*d-1], b[d*d-1]
	_ = a[(d-1)*(ars+aps)] // the last element read
	hypGemmAVX2(unsafe.SliceData(c), unsafe.SliceData(a), unsafe.SliceData(b), d, ars, aps, flags)
	return true
}
