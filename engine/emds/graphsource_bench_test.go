package emds_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"burescope/engine/emds"
	"burescope/internal/cputime"
)

// BenchmarkFitSampledGraphEpoch times sampled-fit epochs of a relation
// graph (20 breadth-first search pivots, the edge stratum, stress and
// gradient, one Adam step) on a random recursive tree of 100,000 nodes;
// cpu-ns/pair counts the pairs evaluated, CPU time included because the
// shared machine inflates wall time.
func BenchmarkFitSampledGraphEpoch(b *testing.B) {
	const n = 100000
	rng := rand.New(rand.NewPCG(17, 1))
	edges := make([][2]int, 0, n-1)
	for i := 1; i < n; i++ {
		edges = append(edges, [2]int{i, rng.IntN(i)})
	}
	g, err := emds.NewGraphSource(n, edges)
	if err != nil {
		b.Fatal(err)
	}
	opt := emds.DefaultSampledOptions()
	opt.K, opt.Epochs, opt.EvalEvery, opt.EvalPairs = 0, 5, 1000, 1000
	var pairs float64
	var cpu time.Duration
	for it := 0; it < b.N; it++ {
		c0 := cputime.Process()
		res, err := emds.FitSampled(context.Background(), g, opt, nil)
		if err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Process() - c0
		pairs += res.PairsPerEpoch * float64(opt.Epochs)
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/pairs, "cpu-ns/pair")
}
