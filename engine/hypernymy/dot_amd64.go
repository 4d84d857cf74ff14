//go:build amd64 && !purego

package hypernymy

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// hypHasAVX2 selects the AVX2+FMA dot kernels of the bounds
// (dot_amd64.s); a variable so that tests can compare them with the
// scalar ones.
var hypHasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func hypDotAVX2(a, b *float64, n int) float64

//go:noescape
func hypDot4AVX2(m *float64, stride int, x *float64, n int, out *[4]float64)

// hypDot returns the dot product of a and b (len(a) <= len(b)): by the
// AVX2+FMA kernel where the CPU has it, else by hypDotScalar. Its
// rounding differs from a plain loop's; the bounds that use it carry
// margins, and the exact scores do not use it.
func hypDot(a, b []float64) float64 {
	if !hypHasAVX2 {
		return hypDotScalar(a, b)
	}
	n := len(a)
	if n == 0 {
		return 0
	}
	b = b[:n]
	return hypDotAVX2(unsafe.SliceData(a), unsafe.SliceData(b), n)
}

// hypDot4 writes to out the dot products of x with the four rows
// m[r*stride : r*stride+len(x)], r = 0..3 (the last row must lie in m).
func hypDot4(m []float64, stride int, x []float64, out *[4]float64) {
	n := len(x)
	if n == 0 {
		*out = [4]float64{}
		return
	}
	_ = m[3*stride+n-1] // bounds check of the last row
	if !hypHasAVX2 {
		hypDot4Scalar(m, stride, x, out)
		return
	}
	hypDot4AVX2(unsafe.SliceData(m), stride, unsafe.SliceData(x), n, out)
}

//go:noescape
func hypPrefetchAsm(p *float64, n int)

// hypPrefetch asks the CPU to bring the cache lines of x into its caches
// (a hint: no effect on any result).
func hypPrefetch(x []float64) {
	if len(x) > 0 {
		hypPrefetchAsm(unsafe.SliceData(x), len(x))
	}
}
