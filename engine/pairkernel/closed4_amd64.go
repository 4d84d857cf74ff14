//go:build !purego

package pairkernel

//go:noescape
func closed4InvariantsAVX2(c *closed4)

//go:noescape
func closed4MatricesAVX2(c *closed4, f *[16]float64)

//go:noescape
func closed4LaguerreAVX2(c *closed4)

// closed4Invariants is closed4InvariantsGo, by AVX2 where the CPU has it
// (the same operations: the same bits).
func closed4Invariants(c *closed4) {
	if useAVX2 {
		closed4InvariantsAVX2(c)
		return
	}
	closed4InvariantsGo(c)
}

// closed4Laguerre is closed4LaguerreGo, by AVX2 where the CPU has it
// (the 4 lanes' steps at once, masked by their convergence).
func closed4Laguerre(c *closed4) {
	if useAVX2 {
		closed4LaguerreAVX2(c)
		return
	}
	closed4LaguerreGo(c)
}

// closed4Matrices is closed4MatricesGo, by AVX2 where the CPU has it.
func closed4Matrices(c *closed4, f *[16]float64) {
	if useAVX2 {
		closed4MatricesAVX2(c, f)
		return
	}
	closed4MatricesGo(c, f)
}
