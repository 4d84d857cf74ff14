//go:build !amd64 || purego

package emds

// d3Levels lists the kernels this build can run: only the scalar one.
func d3Levels() []int { return []int{d3Scalar} }

// d3SetLevel is a no-op here (only the scalar kernel exists); for tests
// and benchmarks.
func d3SetLevel(l int) int { return d3Scalar }
