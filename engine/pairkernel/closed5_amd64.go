//go:build !purego

package pairkernel

// closed5Invariants is closed5InvariantsGo.
func closed5Invariants(c *closed5) { closed5InvariantsGo(c) }

// closed5Laguerre is closed5LaguerreGo.
func closed5Laguerre(c *closed5) { closed5LaguerreGo(c) }

// closed5Matrices is closed5MatricesGo.
func closed5Matrices(c *closed5, f *[25]float64) { closed5MatricesGo(c, f) }
