//go:build amd64 && !purego

package engine

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// d3HasAVX2 selects the AVX2+FMA kernel (pairs_d3_amd64.s); it is a
// variable so tests can compare it with the scalar kernel.
var d3HasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// d3Args is the frame the assembly kernel reads (offsets are fixed in
// pairs_d3_amd64.s and checked by TestD3ArgsLayout: keep the field order).
type d3Args struct {
	pt        unsafe.Pointer // &pk[j0]: component c of point j0+q at pt + c*ptStride + 8q
	ptStride  uintptr        // pk's component stride * 8 bytes
	dist      unsafe.Pointer // &dist[0]
	wts       unsafe.Pointer // &wts[0], or nil (unweighted)
	acc       unsafe.Pointer // component c of point j0+q at acc + c*accStride + 8q
	accStride uintptr        // block buffer component stride * 8 bytes
	groups    int            // groups of 4 pairs in the row
	done      int            // groups processed so far (skipped ones included)
	skip      uint64         // bit b: group chunk+b was not processed
	chunk     int            // first group of the last chunk
	_         [6]int         // the kernel's loop state
	// c holds broadcast constants (setConsts; indices in pairs_d3_amd64.s):
	// the mean, scaled scale, trace, sqrt det and sqrt trace of point i,
	// then 0, 1, 2, 4, 8, 1/2, d3NewtonTol, d3FastCond, 1e300, 6 and
	// 1e-300 (1e300 and 1e-300 bound (pq - r) W, whose reciprocal the
	// kernel takes).
	c [24][4]float64
	// st is the per-group scratch of a chunk of up to 8 groups (24
	// components, pairs_d3_amd64.s).
	st [24][8][4]float64
	// out holds the i-side lane sums: sum gn (T^{AB} - pr/(pq-r) A^{-1})
	// (6), sum gn (b - a) (3), sum wt (D - W)^2, sum gn, sum gn pr/(pq - r),
	// with gn = -g = wt (D - W) / W.
	out [12][4]float64
}

// d3Args offsets used by the assembly.
const (
	d3ArgsC   = 128
	d3ArgsSt  = 896
	d3ArgsOut = 896 + 24*8*32
)

// d3NewtonTol bounds the vector root finder's predicted remaining error:
// a lane stops once f”(p) s^2 / (2 f'(p)) <= d3NewtonTol p after a step
// s. That is the error left by a Newton step from above to first order
// (f” increases beyond the root), and Halley's steps, which the kernel
// takes, converge faster still; it saves the confirming step that the
// scalar test f <= 1e-15 f' p needs.
const d3NewtonTol = 1e-16

// setConsts fills a.c from the record x of point i.
func (a *d3Args) setConsts(x []float64) {
	vals := [...]float64{
		x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[15], x[16], x[17],
		0, 1, 2, 4, 8, 0.5, d3NewtonTol, d3FastCond, 1e300, 6, 1e-300,
	}
	for c, v := range vals {
		a.c[c] = [4]float64{v, v, v, v}
	}
}

// d3ArgsPool holds frames for d3RowFast (one per concurrent row).
var d3ArgsPool = sync.Pool{New: func() any { return new(d3Args) }}

//go:noescape
func d3RowAVX2(a *d3Args)

// d3RowFast runs the AVX2 kernel on the first 4*floor((j1-j0)/4) pairs
// of row i and returns how many pairs it processed (the scalar kernel
// finishes the row). The assembly leaves alone a group of 4 with a lane
// off its path (a zero or ill-conditioned transport denominator
// pq - r, p^3 > d3FastCond (pq - r), W = 0, tr AB = 0, a NaN or an
// overflow) and reports it after the chunk of up to 8 groups it belongs
// to: that group goes through rowScalar, so its pairs get exactly the
// scalar results, and the kernel resumes with the next chunk. Which pairs
// a group holds depends only on the row blocking (a function of n), never
// on the thread count.
func d3RowFast(k *d3Kernel, i, j0, j1 int, dist, wts, acc []float64, off int, sums *d3Sums) int {
	m := j1 - j0
	if !d3HasAVX2 || m < 4 {
		return 0
	}
	n := k.n
	m0 := soaStride(n - off)
	groups := m / 4
	_ = dist[4*groups-1]
	if wts != nil {
		_ = wts[4*groups-1]
	}
	_ = acc[(d3Stride-1)*m0+j0-off+4*groups-1]
	_ = k.pk[(d3Comp-1)*k.ns+j0+4*groups-1]
	// The frame is ~9 KB: reused from a pool rather than zeroed per row.
	a := d3ArgsPool.Get().(*d3Args)
	defer d3ArgsPool.Put(a)
	defer func() { a.pt, a.dist, a.wts, a.acc = nil, nil, nil, nil }()
	a.done, a.skip, a.chunk = 0, 0, 0
	a.out = [12][4]float64{}
	x := k.pt[i*d3Rec : (i+1)*d3Rec]
	a.setConsts(x)
	a.ptStride = uintptr(k.ns) * 8
	a.accStride = uintptr(m0) * 8
	a.pt = unsafe.Pointer(&k.pk[j0])
	a.dist = unsafe.Pointer(&dist[0])
	a.wts = nil
	if wts != nil {
		a.wts = unsafe.Pointer(&wts[0])
	}
	a.acc = unsafe.Pointer(&acc[j0-off])
	a.groups = groups
	for a.done < a.groups {
		d3RowAVX2(a)
		for b := 0; a.skip != 0; b++ {
			if a.skip&(1<<b) == 0 {
				continue
			}
			a.skip &^= 1 << b
			// This group has a lane off the vector path.
			q := 4 * (a.chunk + b)
			var w []float64
			if wts != nil {
				w = wts[q : q+4]
			}
			k.rowScalar(i, j0+q, j0+q+4, dist[q:q+4], w, acc, off, sums)
		}
	}
	lane := func(c int) float64 { return (a.out[c][0] + a.out[c][1]) + (a.out[c][2] + a.out[c][3]) }
	sg := lane(10)
	for e := 0; e < 6; e++ {
		sums[e] += lane(e)
	}
	sums[10] += lane(11)
	sums[0] -= sg
	sums[3] -= sg
	sums[5] -= sg
	sums[6] += lane(6)
	sums[7] += lane(7)
	sums[8] += lane(8)
	sums[9] += 0.5 * lane(9)
	return 4 * groups
}

// d3SetVector turns the vector kernel on or off (where the CPU has it)
// and returns the previous setting; for tests and benchmarks.
func d3SetVector(on bool) bool {
	old := d3HasAVX2
	d3HasAVX2 = on && cpu.X86.HasAVX2 && cpu.X86.HasFMA
	return old
}
