//go:build !amd64 || purego

package emds

// d2RowFast is the SIMD kernel where one exists; here there is none, so
// it processes no pairs and the scalar kernel does all the work.
func d2RowFast(k *d2Kernel, i, j0, j1 int, dist, acc []float64, m0 int, sums *d2Sums) int {
	return 0
}
