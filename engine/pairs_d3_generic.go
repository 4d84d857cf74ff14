//go:build !amd64 || purego

package engine

// d3RowFast is the SIMD kernel where one exists; here there is none, so
// it processes no pairs and the scalar kernel does all the work.
func d3RowFast(k *d3Kernel, i, j0, j1 int, dist, wts, acc []float64, off int, sums *d3Sums) int {
	return 0
}

// d3Levels lists the kernels this build can run: only the scalar one.
func d3Levels() []int { return []int{d3Scalar} }

// d3SetLevel is a no-op here (only the scalar kernel exists); for tests
// and benchmarks.
func d3SetLevel(l int) int { return d3Scalar }
