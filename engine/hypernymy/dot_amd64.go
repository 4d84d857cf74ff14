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

//go:noescape
func hypPrefetchAsm(p *float64, n int)

// hypPrefetch asks the CPU to bring the cache lines of x into its caches
// (a hint: no effect on any result).
func hypPrefetch(x []float64) {
	if len(x) > 0 {
		hypPrefetchAsm(unsafe.SliceData(x), len(x))
	}
}

//go:noescape
func hypPrefetchL2Asm(p *float64, n int)

// hypPrefetchL2 asks the CPU to bring the cache lines of x into its
// second-level cache (PREFETCHT1; a hint: no effect on any result). The
// trainer's scattered rows come in bursts of hundreds of lines, more
// than the first-level cache has miss buffers for: PREFETCHT0 stalled
// the core on them (BenchmarkHypernymyNounsBatch/d=10: 0.85 of the CPU
// time with PREFETCHT1 on the loaded test machine).
func hypPrefetchL2(x []float64) {
	if len(x) > 0 {
		hypPrefetchL2Asm(unsafe.SliceData(x), len(x))
	}
}

//go:noescape
func hypEigen4AVX2(m *float64, stride int, x *float64, n int, sl *[4]float64) float64

//go:noescape
func hypQuadSumAVX2(v, f, a *float64, d int) float64

// hypEigen4 returns sum_r sl[r] sqrt(max(m[r*stride : r*stride+len(x)] . x,
// 0)) over r = 0..3 (the last row must lie in m).
func hypEigen4(m []float64, stride int, x []float64, sl *[4]float64) float64 {
	n := len(x)
	if n == 0 {
		return 0
	}
	_ = m[3*stride+n-1] // bounds check of the last row
	if !hypHasAVX2 {
		return hypEigen4Scalar(m, stride, x, sl)
	}
	return hypEigen4AVX2(unsafe.SliceData(m), stride, unsafe.SliceData(x), n, sl)
}

// hypQuadSum returns sum_i f_i sqrt(max(w_i^T a w_i, 0)) over the columns
// w_i of the d x d matrix v (a: d x d; both row-major).
func hypQuadSum(v, f, a []float64, d int) float64 {
	if d == 0 {
		return 0
	}
	_, _, _ = v[d*d-1], f[d-1], a[d*d-1]
	if !hypHasAVX2 {
		return hypQuadSumScalar(v, f, a, d)
	}
	return hypQuadSumAVX2(unsafe.SliceData(v), unsafe.SliceData(f), unsafe.SliceData(a), d)
}

//go:noescape
func hypMatMulAVX2(c, a, b *float64, d int)

// hypMatMul writes the product a b of the d x d row-major matrices into c
// (not aliasing a or b), bit for bit as hypMatMulScalar.
func hypMatMul(c, a, b []float64, d int) {
	if d == 0 {
		return
	}
	_, _, _ = c[d*d-1], a[d*d-1], b[d*d-1]
	if !hypHasAVX2 {
		hypMatMulScalar(c, a, b, d)
		return
	}
	hypMatMulAVX2(unsafe.SliceData(c), unsafe.SliceData(a), unsafe.SliceData(b), d)
}
