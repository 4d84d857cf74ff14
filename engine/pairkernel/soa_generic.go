//go:build !amd64 || purego

package pairkernel

// useSoA, useAVX512 and useWide are false in this build: EigenLanes keeps
// the per-lane solver and RootLanesWide takes 4 pairs (tests turn
// useSoA and useWide on to check the Go kernels).
var useSoA, useAVX512, useWide = false, false, false

// qlSweepsL is qlSweepsGo in this build.
func qlSweepsL(st *qlState, w, diag, off []float64) { qlSweepsGo(st, w, diag, off) }

// qlSplitL is qlSplitGo in this build.
func qlSplitL(st *qlState, diag, off []float64) { qlSplitGo(st, diag, off) }

// tred2L is tred2SoA in this build.
func tred2L(e *soaEig, d int, vectors bool) { tred2SoA(e, d, vectors) }

// formL is formSoA in this build.
func formL(L int, m, x, b, f []float64, d int, lower bool) { formSoA(L, m, x, b, f, d, lower) }

// scaleL is scaleSoA in this build.
func scaleL(L int, w, tr []float64, d int) { scaleSoA(L, w, tr, d) }

// rootsL is rootsSoA in this build.
func rootsL(L int, diag, tr, fv, hv, t []float64, d int) { rootsSoA(L, diag, tr, fv, hv, t, d) }

// addSoALane is addSoALaneGo in this build.
func addSoALane(s, x []float64, d, L, k int, c float64) { addSoALaneGo(s, x, d, L, k, c) }

// spectralL is spectralSoA in this build.
func spectralL(L int, out, x, v []float64, d int) { spectralSoA(L, out, x, v, d) }

// mulFTL is mulFTSoA in this build.
func mulFTL(L int, out, x, f []float64, d int, lower bool) { mulFTSoA(L, out, x, f, d, lower) }
