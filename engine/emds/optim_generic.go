//go:build !amd64 || purego

package emds

// adamHasAVX2 is false where optim_amd64.s is not built.
var adamHasAVX2 = false

// adamUpdate is adamUpdateRef.
func adamUpdate(x, g, m, v []float64, c *[6]float64) { adamUpdateRef(x, g, m, v, c) }
