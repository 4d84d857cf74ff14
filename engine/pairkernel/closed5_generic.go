//go:build purego || !amd64

package pairkernel

// closed5Invariants is closed5InvariantsGo (no assembly here).
func closed5Invariants(c *closed5, f *[25]float64) { closed5InvariantsGo(c, f) }

// closed5Laguerre is closed5LaguerreGo (no assembly here).
func closed5Laguerre(c *closed5) { closed5LaguerreGo(c) }

// closed5Matrices is closed5MatricesGo (no assembly here).
func closed5Matrices(c *closed5, f *[25]float64) { closed5MatricesGo(c, f) }
