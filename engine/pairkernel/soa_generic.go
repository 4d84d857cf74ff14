//go:build !amd64 || purego

package pairkernel

// useSoA is false without the AVX2 steps: EigenLanes keeps the per-lane
// solver (tests turn it on to check the Go steps).
var useSoA = false

// qlSweeps4 is qlSweepsGo in this build.
func qlSweeps4(st *qlState, w, diag, off []float64) { qlSweepsGo(st, w, diag, off) }

// tred2Lanes4 is tred2SoA in this build.
func tred2Lanes4(e *soaEig, d int, vectors bool) { tred2SoA(e, d, vectors) }

// spectral4 is spectralSoA in this build.
func spectral4(out, x, v []float64, d int) { spectralSoA(out, x, v, d) }

// mulFT4 is mulFTSoA in this build.
func mulFT4(out, x, f []float64, d int, lower bool) { mulFTSoA(out, x, f, d, lower) }
