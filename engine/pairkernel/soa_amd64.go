//go:build !purego

package pairkernel

import "unsafe"

// useSoA selects the structure-of-arrays eigensolver for EigenLanes at
// d >= soaMinDim (soa.go); it wants the AVX2+FMA kernels.
var useSoA = useFMA

//go:noescape
func qlSweepsAVX2(st *qlState, w, diag, off *float64)

// qlSweeps4 is qlSweepsGo, by AVX2+FMA where the CPU has it (the same
// operations).
func qlSweeps4(st *qlState, w, diag, off []float64) {
	if !useFMA {
		qlSweepsGo(st, w, diag, off)
		return
	}
	d := st.d
	_, _, _ = w[d*d*Lanes-1], diag[d*Lanes-1], off[d*Lanes-1]
	if st.l < 0 || st.top >= d || st.l+1 >= d {
		panic("pairkernel: qlSweeps4 out of range")
	}
	qlSweepsAVX2(st, unsafe.SliceData(w), unsafe.SliceData(diag), unsafe.SliceData(off))
}

//go:noescape
func tred2AVX2(w, diag, off *float64, d, vectors int)

// tred2Lanes4 is tred2SoA, by AVX2 where the CPU has it (the same
// operations: the same results).
func tred2Lanes4(e *soaEig, d int, vectors bool) {
	if !useFMA {
		tred2SoA(e, d, vectors)
		return
	}
	_, _, _ = e.w[d*d*Lanes-1], e.diag[d*Lanes-1], e.off[d*Lanes-1]
	v := 0
	if vectors {
		v = 1
	}
	tred2AVX2(unsafe.SliceData(e.w), unsafe.SliceData(e.diag), unsafe.SliceData(e.off), d, v)
}

//go:noescape
func spectralAVX2(out, x, v *float64, d int)

//go:noescape
func mulFTAVX2(out, x, f *float64, d, lower int)

// spectral4 is spectralSoA, by AVX2+FMA where the CPU has it.
func spectral4(out, x, v []float64, d int) {
	if !useFMA {
		spectralSoA(out, x, v, d)
		return
	}
	_, _, _ = out[d*d*Lanes-1], x[d*d*Lanes-1], v[d*Lanes-1]
	spectralAVX2(unsafe.SliceData(out), unsafe.SliceData(x), unsafe.SliceData(v), d)
}

// mulFT4 is mulFTSoA, by AVX2+FMA where the CPU has it.
func mulFT4(out, x, f []float64, d int, lower bool) {
	if !useFMA {
		mulFTSoA(out, x, f, d, lower)
		return
	}
	_, _, _ = out[d*d*Lanes-1], x[d*d*Lanes-1], f[d*d-1]
	lo := 0
	if lower {
		lo = 1
	}
	mulFTAVX2(unsafe.SliceData(out), unsafe.SliceData(x), unsafe.SliceData(f), d, lo)
}
