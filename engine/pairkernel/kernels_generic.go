//go:build !amd64 || purego

package pairkernel

// useAVX2 is false off amd64 (and with the purego tag).
var useAVX2 = false

// rotate applies the rotations of one QL sweep: rotateRef.
func rotate(w []float64, d, l, m int, cs, ss []float64) { rotateRef(w, d, l, m, cs, ss) }
