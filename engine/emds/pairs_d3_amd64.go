//go:build amd64 && !purego

package emds

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// d3HasAVX2 selects the AVX2+FMA kernel (pairs_d3_amd64.s) and
// d3HasAVX512 the AVX-512 one (pairs_d3_avx512_amd64.s, 8 pairs per
// instruction; a row's last group of 4 then goes to the AVX2 kernel);
// they are variables so tests can compare the kernels with each other
// and with the scalar one (d3SetLevel).
var (
	d3HasAVX2   = d3CPUAVX2
	d3HasAVX512 = d3CPUAVX512
)

// What the CPU (and the OS) support.
var (
	d3CPUAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	d3CPUAVX512 = d3CPUAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ
)

// d3Args is the frame the assembly kernel reads (offsets are fixed in
// pairs_d3_amd64.s and checked by TestD3ArgsLayout: keep the field order).
type d3Args struct {
	pt        unsafe.Pointer // &pk[j0]: component c of point j0+q at pt + c*ptStride + 8q
	ptStride  uintptr        // pk's component stride * 8 bytes
	dist      unsafe.Pointer // &dist[0]
	wts       unsafe.Pointer // &wts[0], or nil (unweighted)
	acc       unsafe.Pointer // component c of point j0+q at acc + c*accStride + 8q
	accStride uintptr        // block buffer component stride * 8 bytes
	groups    int            // groups of 4 pairs (8 for d3Args512) in the row
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

// d3Args512 is the frame of the AVX-512 kernel: d3Args's header (same
// fields, same offsets), then 8-lane constants, scratch and lane sums
// (offsets in pairs_d3_avx512_amd64.s, checked by TestD3ArgsLayout).
type d3Args512 struct {
	pt        unsafe.Pointer
	ptStride  uintptr
	dist      unsafe.Pointer
	wts       unsafe.Pointer
	acc       unsafe.Pointer
	accStride uintptr
	groups    int
	done      int
	skip      uint64
	chunk     int
	_         [6]int
	c         [26][8]float64    // as d3Args.c, then SQRTUP's constants
	st        [24][8][8]float64 // as d3Args.st
	out       [12][8]float64    // as d3Args.out
}

// d3Args512 offsets used by the assembly.
const (
	d3Args512C   = 128
	d3Args512St  = 128 + 26*64
	d3Args512Out = 128 + 26*64 + 24*8*64
)

// d3NewtonTol bounds the vector root finder's predicted remaining error:
// a lane stops once f”(p) s^2 / (2 f'(p)) <= d3NewtonTol p after a step
// s. That is the error left by a Newton step from above to first order
// (f” increases beyond the root), and Halley's steps, which the kernel
// takes, converge faster still; it saves the confirming step that the
// scalar test f <= 1e-15 f' p needs.
const d3NewtonTol = 1e-16

// d3PointConsts returns the first 12 broadcast constants of the kernels
// (d3Args.c), those of point i, from its record x.
func d3PointConsts(x []float64) [12]float64 {
	return [...]float64{x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[15], x[16], x[17]}
}

// d3Consts returns the broadcast constants of the kernels for the record
// x of point i (d3Args.c).
func d3Consts(x []float64) [25]float64 {
	var c [25]float64
	p := d3PointConsts(x)
	copy(c[:], p[:])
	copy(c[12:], []float64{0, 1, 2, 4, 8, 0.5, d3NewtonTol, d3FastCond, 1e300, 6, 1e-300,
		// AVX-512 only (SQRTUP): 1 + 2^-13 and the least radicand 2^-1000.
		1 + 0x1p-13, 0x1p-1000})
	return c
}

// d3Consts2 is the number of d3Consts the AVX2 kernel reads (the rest
// are the AVX-512 kernel's).
const d3Consts2 = 23

// setConsts fills a.c from the record x of point i.
func (a *d3Args) setConsts(x []float64) {
	k := d3Consts(x)
	for c, v := range k[:d3Consts2] {
		a.c[c] = [4]float64{v, v, v, v}
	}
}

// setConsts fills a.c from the record x of point i.
func (a *d3Args512) setConsts(x []float64) {
	for c, v := range d3Consts(x) {
		a.c[c] = [8]float64{v, v, v, v, v, v, v, v}
	}
}

// setPoint sets the constants that depend on point i (the first 12 of
// a.c) from its record x.
func (a *d3Args) setPoint(x []float64) {
	for c, v := range d3PointConsts(x) {
		a.c[c] = [4]float64{v, v, v, v}
	}
}

// setPoint sets the constants that depend on point i (the first 12 of
// a.c) from its record x.
func (a *d3Args512) setPoint(x []float64) {
	for c, v := range d3PointConsts(x) {
		a.c[c] = [8]float64{v, v, v, v, v, v, v, v}
	}
}

// d3ArgsPool and d3Args512Pool hold frames for d3RowFast (one per
// concurrent row), their fixed constants set (a row then sets only
// setPoint's).
var (
	d3ArgsPool = sync.Pool{New: func() any {
		a := new(d3Args)
		a.setConsts(make([]float64, d3Rec))
		return a
	}}
	d3Args512Pool = sync.Pool{New: func() any {
		a := new(d3Args512)
		a.setConsts(make([]float64, d3Rec))
		return a
	}}
)

//go:noescape
func d3RowAVX2(a *d3Args)

//go:noescape
func d3RowAVX512(a *d3Args512)

// d3RowFast runs the vector kernels on row i, pairs j0.. j1-1: the
// AVX-512 kernel (where the CPU has it) on the first 8*floor((j1-j0)/8)
// pairs, the AVX2 kernel on the next 4*floor(rest/4), and returns how
// many pairs they processed (the scalar kernel finishes the row). The
// assembly leaves alone a group (of 8 or 4 pairs) with a lane off its
// path (a zero or ill-conditioned transport denominator pq - r,
// p^3 > d3FastCond (pq - r), W = 0, tr AB = 0, a NaN or an overflow) and
// reports it after the chunk of up to 8 groups it belongs to: that
// group goes through rowScalar, so its pairs get exactly the scalar
// results, and the kernel resumes with the next chunk. Which pairs a
// group holds depends only on the row blocking (a function of n) and
// the CPU, never on the thread count.
func d3RowFast(k *d3Kernel, i, j0, j1 int, dist, wts, acc []float64, off int, sums *d3Sums) int {
	m := j1 - j0
	if !d3HasAVX2 {
		return 0
	}
	q := 0
	if d3HasAVX512 && m >= 8 {
		q = 8 * (m / 8)
		d3Row512(k, i, j0, q/8, dist, wts, acc, off, sums)
	}
	if m-q >= 4 {
		g := (m - q) / 4
		var w []float64
		if wts != nil {
			w = wts[q:]
		}
		d3Row256(k, i, j0+q, g, dist[q:], w, acc, off, sums)
		q += 4 * g
	}
	return q
}

// d3Row256 runs the AVX2 kernel on the pairs (i, j0+q), q < 4 groups.
func d3Row256(k *d3Kernel, i, j0, groups int, dist, wts, acc []float64, off int, sums *d3Sums) {
	n := k.n
	m0 := soaStride(n - off)
	_ = dist[4*groups-1]
	if wts != nil {
		_ = wts[4*groups-1]
	}
	_ = acc[(d3Stride-1)*m0+j0-off+4*groups-1]
	_ = k.pk[(d3Comp-1)*k.ns+j0+4*groups-1]
	// The frame is ~7 KB (15 KB for AVX-512): reused from a pool rather
	// than zeroed per row.
	a := d3ArgsPool.Get().(*d3Args)
	a.done, a.skip, a.chunk = 0, 0, 0
	a.out = [12][4]float64{}
	a.setPoint(k.pt[i*d3Rec : (i+1)*d3Rec])
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
		d3Unskip(k, i, j0, 4, a.chunk, &a.skip, dist, wts, acc, off, sums)
	}
	var out [12]float64
	for c := range out {
		out[c] = (a.out[c][0] + a.out[c][1]) + (a.out[c][2] + a.out[c][3])
	}
	a.pt, a.dist, a.wts, a.acc = nil, nil, nil, nil
	d3ArgsPool.Put(a)
	d3AddOut(&out, sums)
}

// d3Row512 runs the AVX-512 kernel on the pairs (i, j0+q), q < 8 groups.
func d3Row512(k *d3Kernel, i, j0, groups int, dist, wts, acc []float64, off int, sums *d3Sums) {
	n := k.n
	m0 := soaStride(n - off)
	_ = dist[8*groups-1]
	if wts != nil {
		_ = wts[8*groups-1]
	}
	_ = acc[(d3Stride-1)*m0+j0-off+8*groups-1]
	_ = k.pk[(d3Comp-1)*k.ns+j0+8*groups-1]
	a := d3Args512Pool.Get().(*d3Args512)
	a.done, a.skip, a.chunk = 0, 0, 0
	a.out = [12][8]float64{}
	a.setPoint(k.pt[i*d3Rec : (i+1)*d3Rec])
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
		d3RowAVX512(a)
		d3Unskip(k, i, j0, 8, a.chunk, &a.skip, dist, wts, acc, off, sums)
	}
	var out [12]float64
	for c := range out {
		l := &a.out[c]
		out[c] = ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
	}
	a.pt, a.dist, a.wts, a.acc = nil, nil, nil, nil
	d3Args512Pool.Put(a)
	d3AddOut(&out, sums)
}

// d3Unskip sends the groups (of size pairs) that a kernel call left
// alone, bits of *skip counted from group chunk, through rowScalar and
// clears *skip.
func d3Unskip(k *d3Kernel, i, j0, size, chunk int, skip *uint64, dist, wts, acc []float64, off int, sums *d3Sums) {
	for b := 0; *skip != 0; b++ {
		if *skip&(1<<b) == 0 {
			continue
		}
		*skip &^= 1 << b
		// This group has a lane off the vector path.
		q := size * (chunk + b)
		var w []float64
		if wts != nil {
			w = wts[q : q+size]
		}
		k.rowScalar(i, j0+q, j0+q+size, dist[q:q+size], w, acc, off, sums)
	}
}

// d3AddOut adds a kernel's i-side lane sums (d3Args.out, lanes summed)
// to sums.
func d3AddOut(out *[12]float64, sums *d3Sums) {
	sg := out[10]
	for e := 0; e < 6; e++ {
		sums[e] += out[e]
	}
	sums[10] += out[11]
	sums[0] -= sg
	sums[3] -= sg
	sums[5] -= sg
	sums[6] += out[6]
	sums[7] += out[7]
	sums[8] += out[8]
	sums[9] += 0.5 * out[9]
}
