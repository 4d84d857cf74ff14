package hypernymy

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkPrefilterGemv times the prefilter's dense products for four
// queries on eight chunks of 78 features (d = 10), per query and item.
func BenchmarkPrefilterGemv(b *testing.B) {
	const nf = 78
	rng := rand.New(rand.NewPCG(1, 2))
	y := make([]float64, nf*hypChunk*8)
	for i := range y {
		y[i] = rng.Float64()
	}
	coef := make([]float64, 4*nf)
	for i := range coef {
		coef[i] = rng.Float64()
	}
	out := make([]float64, 4*hypChunk)
	b.Run("four", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			ch := i % 8
			hypGemv4(y[ch*nf*hypChunk:], hypChunk, coef, out, hypChunk, hypChunk)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*4*hypChunk), "ns/item")
	})
}
