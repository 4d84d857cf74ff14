//go:build !amd64 || purego

package pairkernel

// useAVX2 and useFMA are false off amd64 (and with the purego tag).
var useAVX2, useFMA = false, false

// rotate applies the rotations of one QL sweep: rotateRef.
func rotate(w []float64, d, l, m int, cs, ss []float64) { rotateRef(w, d, l, m, cs, ss) }

// GemmAccelerated reports false: there is no Gemm kernel in this build.
func GemmAccelerated() bool { return false }

// Gemm does nothing and returns false in this build (see the amd64
// version): callers use their plain loops.
func Gemm(c, a, b []float64, d, ars, aps int, flags GemmFlags) bool { return false }
