package hypernymy

import (
	"burescope/engine"
	"math/rand/v2"
	"testing"
)

// BenchmarkPrefilterGemv times the prefilter's dense products for four
// queries on eight chunks of 78 features (d = 10), per query and item.
func BenchmarkPrefilterGemv(b *testing.B) {
	const nf = 78
	rng := rand.New(rand.NewPCG(1, 2))
	y := make([]float32, nf*hypChunk*8)
	for i := range y {
		y[i] = rng.Float32()
	}
	coef := make([]float32, 4*nf)
	for i := range coef {
		coef[i] = rng.Float32()
	}
	out := make([]float32, 4*hypChunk)
	b.Run("four", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			ch := i % 8
			hypGemv4(y[ch*nf*hypChunk:], hypChunk, coef, out, hypChunk, hypChunk)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*4*hypChunk), "ns/item")
	})
}

// BenchmarkEvalScores times the exact scores of the evaluation at
// d = 10, four at a time (evalScores) and one by one (evalScore).
func BenchmarkEvalScores(b *testing.B) {
	const n, d = 64, 10
	rng := rand.New(rand.NewPCG(5, 6))
	c := newHypItemCache(n, d)
	cws := newHypCacheWS(d)
	means := make([]float64, n*d)
	for i := 0; i < n; i++ {
		c.setFromScale(cws, i, engine.FactorProduct(hypRandFactor(rng, d, 1), d, d, 0.01))
	}
	ws := newHypEvalWS(d)
	w := make([]int, n)
	for i := range w {
		w[i] = i
	}
	out := make([]float64, n)
	b.Run("lanes", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			c.evalScores(ws, means, i%n, w, out)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/score")
	})
	b.Run("one", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, x := range w {
				out[x] = c.evalScore(ws, means, i%n, x)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/score")
	})
}
