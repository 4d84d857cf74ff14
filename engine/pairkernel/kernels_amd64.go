//go:build !purego

package pairkernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX2 selects the AVX2 rotation sweep (rotate_amd64.s); a variable
// so that tests can compare it with the plain loop.
var useAVX2 = cpu.X86.HasAVX2

//go:noescape
func rotateAVX2(w *float64, d, l, m int, cs, ss *float64)

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
