//go:build !purego

package pairkernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useSoA selects the structure-of-arrays eigensolver for EigenLanes at
// d >= soaMinDim (soa.go); it wants the AVX2+FMA kernels.
var useSoA = useFMA

// useAVX512 selects the AVX-512 versions of the kernels for 8 lanes;
// useWide lets RootLanesWide take 8 pairs (both where the CPU has
// AVX-512 F and DQ; tests set useWide alone to run the Go kernels on 8
// lanes).
var (
	useAVX512 = useFMA && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ
	useWide   = useAVX512
)

//go:noescape
func qlSweepsAVX2(st *qlState, w, diag, off *float64)

//go:noescape
func qlSweepsAVX512(st *qlState, w, diag, off *float64)

//go:noescape
func qlSplitAVX2(st *qlState, diag, off *float64)

//go:noescape
func qlSplitAVX512(st *qlState, diag, off *float64)

//go:noescape
func tred2AVX2(w, diag, off *float64, d, vectors int)

//go:noescape
func tred2AVX512(w, diag, off *float64, d, vectors int)

//go:noescape
func formAVX2(m, x, b, f *float64, d, lower int)

//go:noescape
func formAVX512(m, x, b, f *float64, d, lower int)

//go:noescape
func scaleAVX2(w, tr *float64, d int)

//go:noescape
func scaleAVX512(w, tr *float64, d int)

//go:noescape
func rootsAVX2(diag, tr, fv, hv, t *float64, d int)

//go:noescape
func rootsAVX512(diag, tr, fv, hv, t *float64, d int)

//go:noescape
func addLaneAVX(s, x *float64, d, L, k int, c float64)

//go:noescape
func addLane5x8(s, x *float64, k int, c float64)

//go:noescape
func addLane6x8(s, x *float64, k int, c float64)

//go:noescape
func addLane7x8(s, x *float64, k int, c float64)

//go:noescape
func addLane8x8(s, x *float64, k int, c float64)

//go:noescape
func spectralAVX2(out, x, v *float64, d int)

//go:noescape
func spectralAVX512(out, x, v *float64, d int)

//go:noescape
func mulFTAVX2(out, x, f *float64, d, lower int)

//go:noescape
func mulFTAVX512(out, x, f *float64, d, lower int)

// kernelFor reports which assembly serves L lanes: 2 AVX2+FMA (L = 4),
// 5 AVX-512 (L = 8), 0 none (the Go code).
func kernelFor(L int) int {
	switch {
	case L == 4 && useFMA:
		return 2
	case L == 8 && useAVX512:
		return 5
	}
	return 0
}

// qlSweepsL is qlSweepsGo, by AVX2+FMA (4 lanes) or AVX-512 (8 lanes)
// where the CPU has it (the same operations).
func qlSweepsL(st *qlState, w, diag, off []float64) {
	k := kernelFor(st.L)
	if k == 0 {
		qlSweepsGo(st, w, diag, off)
		return
	}
	d, L := st.d, st.L
	_, _, _ = w[d*d*L-1], diag[d*L-1], off[d*L-1]
	if st.l < 0 || st.top >= d || st.l+1 >= d {
		panic("pairkernel: qlSweepsL out of range")
	}
	if k == 2 {
		qlSweepsAVX2(st, unsafe.SliceData(w), unsafe.SliceData(diag), unsafe.SliceData(off))
	} else {
		qlSweepsAVX512(st, unsafe.SliceData(w), unsafe.SliceData(diag), unsafe.SliceData(off))
	}
}

// qlSplitL is qlSplitGo, by AVX2 (4 lanes) or AVX-512 (8 lanes) where
// the CPU has it (the same operations).
func qlSplitL(st *qlState, diag, off []float64) {
	k := kernelFor(st.L)
	if k == 0 {
		qlSplitGo(st, diag, off)
		return
	}
	d, L := st.d, st.L
	_, _ = diag[d*L-1], off[d*L-1]
	if st.l < 0 || st.l >= d {
		panic("pairkernel: qlSplitL out of range")
	}
	if k == 2 {
		qlSplitAVX2(st, unsafe.SliceData(diag), unsafe.SliceData(off))
	} else {
		qlSplitAVX512(st, unsafe.SliceData(diag), unsafe.SliceData(off))
	}
}

// tred2L is tred2SoA, by AVX2 (4 lanes) or AVX-512 (8 lanes) where the
// CPU has it (the same operations: the same results).
func tred2L(e *soaEig, d int, vectors bool) {
	k := kernelFor(e.L)
	if k == 0 {
		tred2SoA(e, d, vectors)
		return
	}
	L := e.L
	_, _, _ = e.w[d*d*L-1], e.diag[d*L-1], e.off[d*L-1]
	v := 0
	if vectors {
		v = 1
	}
	if k == 2 {
		tred2AVX2(unsafe.SliceData(e.w), unsafe.SliceData(e.diag), unsafe.SliceData(e.off), d, v)
	} else {
		tred2AVX512(unsafe.SliceData(e.w), unsafe.SliceData(e.diag), unsafe.SliceData(e.off), d, v)
	}
}

// formL is formSoA, by FMA (AVX2 or AVX-512) where the CPU has it.
func formL(L int, m, x, b, f []float64, d int, lower bool) {
	k := kernelFor(L)
	if k == 0 {
		formSoA(L, m, x, b, f, d, lower)
		return
	}
	_, _, _, _ = m[d*d*L-1], x[d*d*L-1], b[d*d*L-1], f[d*d-1]
	lo := 0
	if lower {
		lo = 1
	}
	if k == 2 {
		formAVX2(unsafe.SliceData(m), unsafe.SliceData(x), unsafe.SliceData(b), unsafe.SliceData(f), d, lo)
	} else {
		formAVX512(unsafe.SliceData(m), unsafe.SliceData(x), unsafe.SliceData(b), unsafe.SliceData(f), d, lo)
	}
}

// scaleL is scaleSoA, by AVX2 or AVX-512 where the CPU has it (the same
// operations).
func scaleL(L int, w, tr []float64, d int) {
	k := kernelFor(L)
	if k == 0 {
		scaleSoA(L, w, tr, d)
		return
	}
	_, _ = w[d*d*L-1], tr[L-1]
	if k == 2 {
		scaleAVX2(unsafe.SliceData(w), unsafe.SliceData(tr), d)
	} else {
		scaleAVX512(unsafe.SliceData(w), unsafe.SliceData(tr), d)
	}
}

// rootsL is rootsSoA, by AVX2 or AVX-512 where the CPU has it (the same
// operations).
func rootsL(L int, diag, tr, fv, hv, t []float64, d int) {
	k := kernelFor(L)
	if k == 0 {
		rootsSoA(L, diag, tr, fv, hv, t, d)
		return
	}
	_, _, _, _, _ = diag[d*L-1], tr[L-1], fv[d*L-1], hv[d*L-1], t[L-1]
	if k == 2 {
		rootsAVX2(unsafe.SliceData(diag), unsafe.SliceData(tr), unsafe.SliceData(fv), unsafe.SliceData(hv), unsafe.SliceData(t), d)
	} else {
		rootsAVX512(unsafe.SliceData(diag), unsafe.SliceData(tr), unsafe.SliceData(fv), unsafe.SliceData(hv), unsafe.SliceData(t), d)
	}
}

// addSoALane is addSoALaneGo, by the AVX scalar loop where the CPU has
// AVX2 (the same operations, without bounds checks; written out for 8
// lanes at d = 5..8).
func addSoALane(s, x []float64, d, L, k int, c float64) {
	if !useAVX2 {
		addSoALaneGo(s, x, d, L, k, c)
		return
	}
	_, _ = s[d*d-1], x[d*d*L-1]
	if k < 0 || k >= L {
		panic("pairkernel: addSoALane lane out of range")
	}
	if L == wideLanes {
		// Written out for d = 5..8 (no row loops).
		switch d {
		case 5:
			addLane5x8(unsafe.SliceData(s), unsafe.SliceData(x), k, c)
			return
		case 6:
			addLane6x8(unsafe.SliceData(s), unsafe.SliceData(x), k, c)
			return
		case 7:
			addLane7x8(unsafe.SliceData(s), unsafe.SliceData(x), k, c)
			return
		case 8:
			addLane8x8(unsafe.SliceData(s), unsafe.SliceData(x), k, c)
			return
		}
	}
	addLaneAVX(unsafe.SliceData(s), unsafe.SliceData(x), d, L, k, c)
}

// spectralL is spectralSoA, by FMA (AVX2 or AVX-512) where the CPU has
// it.
func spectralL(L int, out, x, v []float64, d int) {
	k := kernelFor(L)
	if k == 0 {
		spectralSoA(L, out, x, v, d)
		return
	}
	_, _, _ = out[d*d*L-1], x[d*d*L-1], v[d*L-1]
	if k == 2 {
		spectralAVX2(unsafe.SliceData(out), unsafe.SliceData(x), unsafe.SliceData(v), d)
	} else {
		spectralAVX512(unsafe.SliceData(out), unsafe.SliceData(x), unsafe.SliceData(v), d)
	}
}

// mulFTL is mulFTSoA, by FMA (AVX2 or AVX-512) where the CPU has it.
func mulFTL(L int, out, x, f []float64, d int, lower bool) {
	k := kernelFor(L)
	if k == 0 {
		mulFTSoA(L, out, x, f, d, lower)
		return
	}
	_, _, _ = out[d*d*L-1], x[d*d*L-1], f[d*d-1]
	lo := 0
	if lower {
		lo = 1
	}
	if k == 2 {
		mulFTAVX2(unsafe.SliceData(out), unsafe.SliceData(x), unsafe.SliceData(f), d, lo)
	} else {
		mulFTAVX512(unsafe.SliceData(out), unsafe.SliceData(x), unsafe.SliceData(f), d, lo)
	}
}
