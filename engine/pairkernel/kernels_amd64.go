//go:build !purego

package pairkernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX2 selects the AVX2 rotation sweep (kernels_amd64.s); a variable
// so that tests can compare it with the plain loop.
var useAVX2 = cpu.X86.HasAVX2

// useFMA selects the AVX2+FMA product gemmAVX2.
var useFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func rotateAVX2(w *float64, d, l, m int, cs, ss *float64)

//go:noescape
func gemmAVX2(c, a, b *float64, d, ars, aps, flags int)

// rotate applies the rotations i = m-1 down to l of one QL sweep to the
// row pairs (i, i+1) of w (see rotateRef), by AVX2 where the CPU has it:
// the same operations, so bit for bit the same results.
func rotate(w []float64, d, l, m int, cs, ss []float64) {
	if !useAVX2 || m <= l {
		rotateRef(w, d, l, m, cs, ss)
		return
	}
	_, _, _ = w[(m+1)*d-1], cs[m-1], ss[m-1]
	_, _, _ = w[l*d], cs[l], ss[l]
	rotateAVX2(unsafe.SliceData(w), d, l, m, unsafe.SliceData(cs), unsafe.SliceData(ss))
}

// GemmAccelerated reports whether Gemm runs (AVX2 and FMA on amd64,
// without the purego tag).
func GemmAccelerated() bool { return useFMA }

// Gemm sets, for every row r of the d x d row-major c,
//
//	c[r,:] = (flags&GemmAcc ? c[r,:] : 0) + sum_p a[r*ars+p*aps] b[p,:]
//
// over p = p0..p1-1, p0 = r with GemmUpper (else 0), p1 = r+1 with
// GemmLower (else d): ars = d, aps = 1 reads a row-major, ars = 1, aps = d
// transposed. c must not alias a or b. It runs the AVX2+FMA kernel and
// returns true, or does nothing and returns false where GemmAccelerated
// is false (callers then use their plain loops). At d = 10 on machines
// with AVX-512 it runs gemm10 instead, at d = 12 gemm12, bit for bit the same. Its
// rounding differs from a plain loop's (fused multiply-adds) but depends
// on nothing but its inputs.
func Gemm(c, a, b []float64, d, ars, aps int, flags GemmFlags) bool {
	if !useFMA || d == 0 {
		return false
	}
	if d == 10 && useGemm10 && gemm10(c, a, b, ars, aps, flags) {
		return true
	}
	if d == 12 && useGemm12 && gemm12(c, a, b, ars, aps, flags) {
		return true
	}
	_, _ = c[d*d-1], b[d*d-1]
	_ = a[(d-1)*(ars+aps)] // the last element read
	gemmAVX2(unsafe.SliceData(c), unsafe.SliceData(a), unsafe.SliceData(b), d, ars, aps, int(flags))
	return true
}
