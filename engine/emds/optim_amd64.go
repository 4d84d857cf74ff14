//go:build amd64 && !purego

package emds

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// adamHasAVX2 selects the AVX2 Adam update (optim_amd64.s); a variable
// so that tests can compare it with the plain loop.
var adamHasAVX2 = cpu.X86.HasAVX2

//go:noescape
func adamUpdateAVX2(x, gr, m, v *float64, n int, c *[6]float64)

// adamUpdate is adamUpdateRef, four elements at a time where the CPU has
// AVX2: the same operations without FMA, so the same bits.
func adamUpdate(x, g, m, v []float64, c *[6]float64) {
	n := len(x)
	if !adamHasAVX2 || n == 0 {
		adamUpdateRef(x, g, m, v, c)
		return
	}
	_, _, _ = g[n-1], m[n-1], v[n-1]
	n4 := n &^ 3
	if n4 > 0 {
		adamUpdateAVX2(unsafe.SliceData(x), unsafe.SliceData(g), unsafe.SliceData(m), unsafe.SliceData(v), n4, c)
	}
	if n4 < n {
		adamUpdateRef(x[n4:], g[n4:], m[n4:], v[n4:], c)
	}
}
