//go:build !purego

package pairkernel

//go:noescape
func closed5InvariantsAVX512(c *closed5, f *[25]float64)

//go:noescape
func closed5MatricesAVX512(c *closed5, f *[25]float64)

//go:noescape
func closed5LaguerreAVX512(c *closed5)

//go:noescape
func closed5InvariantsAVX2(c *closed5, f *[25]float64, off int)

//go:noescape
func closed5MatricesAVX2(c *closed5, f *[25]float64, off int)

//go:noescape
func closed5LaguerreAVX2(c *closed5, off int)

// closed5Invariants is closed5InvariantsGo, by AVX-512 (8 lanes at once)
// or AVX2 (4 lanes, twice; off is the byte offset of the second half)
// where the CPU has it: the same operations, so the same bits.
func closed5Invariants(c *closed5, f *[25]float64) {
	switch {
	case useAVX512:
		closed5InvariantsAVX512(c, f)
	case useAVX2:
		closed5InvariantsAVX2(c, f, 0)
		closed5InvariantsAVX2(c, f, 32)
	default:
		closed5InvariantsGo(c, f)
	}
}

// closed5Laguerre is closed5LaguerreGo, by AVX-512 or AVX2 where the CPU
// has it (the lanes' steps at once, masked by their convergence).
func closed5Laguerre(c *closed5) {
	switch {
	case useAVX512:
		closed5LaguerreAVX512(c)
	case useAVX2:
		closed5LaguerreAVX2(c, 0)
		closed5LaguerreAVX2(c, 32)
	default:
		closed5LaguerreGo(c)
	}
}

// closed5Matrices is closed5MatricesGo, by AVX-512 or AVX2 where the CPU
// has it.
func closed5Matrices(c *closed5, f *[25]float64) {
	switch {
	case useAVX512:
		closed5MatricesAVX512(c, f)
	case useAVX2:
		closed5MatricesAVX2(c, f, 0)
		closed5MatricesAVX2(c, f, 32)
	default:
		closed5MatricesGo(c, f)
	}
}
