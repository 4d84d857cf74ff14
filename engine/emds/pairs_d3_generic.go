//go:build !amd64 || purego

package emds

// d3RowFast is the SIMD kernel where one exists; here there is none, so
// it processes no pairs and the scalar kernel does all the work.
func d3RowFast(k *d3Kernel, i, j0, j1 int, dist, wts, acc []float64, off int, sums *d3Sums) int {
	return 0
}
