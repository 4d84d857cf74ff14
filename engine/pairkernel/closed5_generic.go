//go:build purego || !amd64

package pairkernel

// closed5Invariants is closed5InvariantsGo on the lanes l < n (no
// assembly here).
func closed5Invariants(c *closed5, f *[25]float64, n int) { closed5InvariantsGo(c, f, n) }

// closed5Laguerre is closed5LaguerreGo (no assembly here).
func closed5Laguerre(c *closed5, n int) { closed5LaguerreGo(c, n) }

// closed5Matrices is closed5MatricesGo (no assembly here).
func closed5Matrices(c *closed5, f *[25]float64, n int) { closed5MatricesGo(c, f, n) }

// closed5Trace is closed5TraceGo (no assembly here).
func closed5Trace(c *closed5, n int) { closed5TraceGo(c, n) }
