//go:build !purego

package pairkernel

//go:noescape
func closed4InvariantsAVX512(c *closed4, f *[16]float64)

//go:noescape
func closed4MatricesAVX512(c *closed4, f *[16]float64)

//go:noescape
func closed4LaguerreAVX512(c *closed4)

//go:noescape
func closed4InvariantsAVX2(c *closed4, f *[16]float64, off int)

//go:noescape
func closed4MatricesAVX2(c *closed4, f *[16]float64, off int)

//go:noescape
func closed4LaguerreAVX2(c *closed4, off int)

// closed4Invariants is closed4InvariantsGo for at least the lanes l < n:
// by AVX-512 (all 8 lanes at once, where n > 4) or AVX2 (4 lanes, the
// second half only where n > 4; off is the byte offset of a half) where
// the CPU has them: the same operations, so the same bits.
func closed4Invariants(c *closed4, f *[16]float64, n int) {
	switch {
	case useAVX512 && n > Lanes:
		closed4InvariantsAVX512(c, f)
	case useAVX2:
		closed4InvariantsAVX2(c, f, 0)
		if n > Lanes {
			closed4InvariantsAVX2(c, f, 32)
		}
	default:
		closed4InvariantsGo(c, f, n)
	}
}

// closed4Laguerre is closed4LaguerreGo, by AVX-512 or AVX2 where the CPU
// has it (the lanes' steps at once, masked by their convergence).
func closed4Laguerre(c *closed4, n int) {
	switch {
	case useAVX512 && n > Lanes:
		closed4LaguerreAVX512(c)
	case useAVX2:
		closed4LaguerreAVX2(c, 0)
		if n > Lanes {
			closed4LaguerreAVX2(c, 32)
		}
	default:
		closed4LaguerreGo(c, n)
	}
}

// closed4Matrices is closed4MatricesGo, by AVX-512 or AVX2 where the CPU
// has it.
func closed4Matrices(c *closed4, f *[16]float64, n int) {
	switch {
	case useAVX512 && n > Lanes:
		closed4MatricesAVX512(c, f)
	case useAVX2:
		closed4MatricesAVX2(c, f, 0)
		if n > Lanes {
			closed4MatricesAVX2(c, f, 32)
		}
	default:
		closed4MatricesGo(c, f, n)
	}
}
