//go:build purego || !amd64

package pairkernel

// closed4Invariants is closed4InvariantsGo (no assembly here).
func closed4Invariants(c *closed4) { closed4InvariantsGo(c) }

// closed4Matrices is closed4MatricesGo (no assembly here).
func closed4Matrices(c *closed4, f *[16]float64) { closed4MatricesGo(c, f) }

// closed4Laguerre is closed4LaguerreGo (no assembly here).
func closed4Laguerre(c *closed4) { closed4LaguerreGo(c) }
