//go:build amd64 && !purego

package emds

// d3Levels lists the kernels this CPU can run: d3Scalar, d3AVX2 and,
// where present, d3AVX512.
func d3Levels() []int {
	l := []int{d3Scalar}
	if d3CPUAVX2 {
		l = append(l, d3AVX2)
	}
	if d3CPUAVX512 {
		l = append(l, d3AVX512)
	}
	return l
}

// d3SetLevel selects the kernel (one of d3Levels) and returns the
// previous one; for tests and benchmarks.
func d3SetLevel(l int) int {
	old := d3Scalar
	switch {
	case d3HasAVX512:
		old = d3AVX512
	case d3HasAVX2:
		old = d3AVX2
	}
	d3HasAVX2 = l >= d3AVX2 && d3CPUAVX2
	d3HasAVX512 = l >= d3AVX512 && d3CPUAVX512
	return old
}
