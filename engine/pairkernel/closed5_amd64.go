//go:build !purego

package pairkernel

//go:noescape
func closed5InvariantsAVX512(c *closed5, f *[25]float64)

//go:noescape
func closed5MatricesAVX512(c *closed5, f *[25]float64)

//go:noescape
func closed5LaguerreAVX512(c *closed5)

//go:noescape
func closed5TraceAVX512(c *closed5)

//go:noescape
func closed5TraceAVX2(c *closed5, off int)

//go:noescape
func closed5InvariantsAVX2(c *closed5, f *[25]float64, off int)

//go:noescape
func closed5MatricesAVX2(c *closed5, f *[25]float64, off int)

//go:noescape
func closed5LaguerreAVX2(c *closed5, off int)

// closed5Invariants is closed5InvariantsGo for at least the lanes l < n:
// by AVX-512 (all 8 lanes at once, where n > 4) or AVX2 (4 lanes, the
// second half only where n > 4; off is the byte offset of a half) where
// the CPU has them: the same operations, so the same bits. (With n <= 4
// one AVX2 half is faster than the AVX-512 pass on 8 lanes.)
func closed5Invariants(c *closed5, f *[25]float64, n int) {
	switch {
	case useAVX512 && n > Lanes:
		closed5InvariantsAVX512(c, f)
	case useAVX2:
		closed5InvariantsAVX2(c, f, 0)
		if n > Lanes {
			closed5InvariantsAVX2(c, f, 32)
		}
	default:
		closed5InvariantsGo(c, f, n)
	}
}

// closed5Laguerre is closed5LaguerreGo, by AVX-512 or AVX2 where the CPU
// has it (the lanes' steps at once, masked by their convergence).
func closed5Laguerre(c *closed5, n int) {
	switch {
	case useAVX512 && n > Lanes:
		closed5LaguerreAVX512(c)
	case useAVX2:
		closed5LaguerreAVX2(c, 0)
		if n > Lanes {
			closed5LaguerreAVX2(c, 32)
		}
	default:
		closed5LaguerreGo(c, n)
	}
}

// closed5Matrices is closed5MatricesGo, by AVX-512 or AVX2 where the CPU
// has it.
func closed5Matrices(c *closed5, f *[25]float64, n int) {
	switch {
	case useAVX512 && n > Lanes:
		closed5MatricesAVX512(c, f)
	case useAVX2:
		closed5MatricesAVX2(c, f, 0)
		if n > Lanes {
			closed5MatricesAVX2(c, f, 32)
		}
	default:
		closed5MatricesGo(c, f, n)
	}
}

// closed5Trace is closed5TraceGo, by AVX-512 or AVX2 where the CPU has
// it.
func closed5Trace(c *closed5, n int) {
	switch {
	case useAVX512 && n > Lanes:
		closed5TraceAVX512(c)
	case useAVX2:
		closed5TraceAVX2(c, 0)
		if n > Lanes {
			closed5TraceAVX2(c, 32)
		}
	default:
		closed5TraceGo(c, n)
	}
}
