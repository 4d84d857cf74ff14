//go:build !amd64 || purego

package hypernymy

// hypLoss10 is false off amd64: hypPairLoss uses its general code.
var hypLoss10 = false

// hypGram10 is not used off amd64 (hypLoss10 is false).
func hypGram10(m, y, k []float64, eps float64) { panic("hypernymy: no d = 10 kernel in this build") }

// hypSpectral10 is not used off amd64 (hypLoss10 is false).
func hypSpectral10(g, s, q, qg, qs []float64, fg, fs *[10]float64) {
	panic("hypernymy: no d = 10 kernel in this build")
}
