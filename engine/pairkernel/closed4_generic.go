//go:build purego || !amd64

package pairkernel

// closed4Invariants is closed4InvariantsGo on the lanes l < n (no
// assembly here).
func closed4Invariants(c *closed4, f *[16]float64, n int) { closed4InvariantsGo(c, f, n) }

// closed4Matrices is closed4MatricesGo on the lanes l < n (no assembly
// here).
func closed4Matrices(c *closed4, f *[16]float64, n int) { closed4MatricesGo(c, f, n) }

// closed4Laguerre is closed4LaguerreGo on the lanes l < n (no assembly
// here).
func closed4Laguerre(c *closed4, n int) { closed4LaguerreGo(c, n) }
