//go:build amd64 && !purego

package emds

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// d2HasAVX2 selects the AVX2+FMA kernel (pairs_d2_amd64.s); it is a
// variable so tests can compare it with the scalar kernel.
var d2HasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// d2Args is the frame the assembly kernel reads (offsets are fixed in
// pairs_d2_amd64.s: keep the field order).
type d2Args struct {
	pt        unsafe.Pointer // &pk[j0]: component c of point j0+q at pt + c*ptStride + 8q
	ptStride  uintptr        // n * 8 bytes
	dist      unsafe.Pointer // &dist[0]
	acc       unsafe.Pointer // &acc[0]: component c of point j0+q at acc + c*accStride + 8q
	accStride uintptr        // m0 * 8 bytes
	groups    int            // groups of 4 pairs to process
	done      int            // groups processed (the kernel stops early at a zero W or t)
	_         int
	// c holds broadcast constants: ax, ay, a11, 2 a12, a22, tr, 2 sqrt det,
	// a12, sqrt det, 2, 0, 1/2 of point i.
	c [12][4]float64
	// out holds the i-side lane sums, signs as documented in d2RowFast.
	out [8][4]float64
}

//go:noescape
func d2RowAVX2(a *d2Args)

// d2RowFast runs the AVX2 kernel on the first 4*floor((j1-j0)/4) pairs of
// row i (unweighted) and returns how many pairs it processed; the scalar
// kernel finishes the row. The assembly accumulates -g, -(g/t) B, -(g/t)
// sqrt det B, g (a - b) and r^2, which are converted here.
func d2RowFast(k *d2Kernel, i, j0, j1 int, dist, acc []float64, m0 int, sums *d2Sums) int {
	m := j1 - j0
	if !d2HasAVX2 || m < 4 {
		return 0
	}
	var a d2Args
	groups := m / 4
	_ = dist[4*groups-1]
	_ = acc[7*m0+4*groups-1]
	_ = k.pk[7*k.n+j0+4*groups-1]
	a.pt = unsafe.Pointer(&k.pk[j0])
	a.ptStride = uintptr(k.n) * 8
	a.dist = unsafe.Pointer(&dist[0])
	a.acc = unsafe.Pointer(&acc[0])
	a.accStride = uintptr(m0) * 8
	a.groups = groups
	sdi := k.sd[i]
	vals := [12]float64{k.mx[i], k.my[i], k.c11[i], 2 * k.c12[i], k.c22[i], k.tr[i], 2 * sdi, k.c12[i], sdi, 2, 0, 0.5}
	for c, v := range vals {
		a.c[c] = [4]float64{v, v, v, v}
	}
	d2RowAVX2(&a)
	if a.done == 0 {
		return 0
	}
	lane := func(c int) float64 { return (a.out[c][0] + a.out[c][1]) + (a.out[c][2] + a.out[c][3]) }
	sums[0] -= lane(0)
	sums[1] -= lane(1)
	sums[2] -= lane(2)
	sums[3] -= lane(3)
	sums[4] -= lane(4)
	sums[5] += lane(5)
	sums[6] += lane(6)
	sums[7] += 0.5 * lane(7)
	return 4 * a.done
}
