package emds_test

import (
	"burescope/engine/emds"
	"burescope/internal/cputime"
	"context"
	"math"
	"sort"
	"testing"
	"time"
)

// BenchmarkFitSampledEpoch times sampled-fit epochs (sampling, on-the-fly
// distances, stress and gradient, one Adam step) on a clustered 50-feature
// table; ns/pair counts the pairs evaluated, CPU time included because the
// shared machine inflates wall time.
func BenchmarkFitSampledEpoch(b *testing.B) {
	for _, n := range []int{benchSampledN} {
		x, _ := clusterTableNoDist(n, 50, 10, 1)
		src, err := emds.NewFeatureSource(n, 50, x)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("n"+itoa(n), func(b *testing.B) {
			opt := emds.DefaultSampledOptions()
			opt.Epochs = 5
			opt.EvalEvery = 1000
			opt.EvalPairs = 1000
			var pairs float64
			var cpu time.Duration
			for it := 0; it < b.N; it++ {
				c0 := cputime.Process()
				res, err := emds.FitSampled(context.Background(), src, opt, nil)
				if err != nil {
					b.Fatal(err)
				}
				cpu += cputime.Process() - c0
				pairs += res.PairsPerEpoch * float64(opt.Epochs)
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/pairs, "cpu-ns/pair")
		})
	}
}

// benchSampledN is the table size of BenchmarkFitSampledEpoch.
var benchSampledN = 100000

// BenchmarkFeatureNeighbors100k is the approximate 10-NN graph of a
// 100,000 x 50 clustered table (random-projection forest + one round of
// neighbour-of-neighbour refinement), with its CPU time.
func BenchmarkFeatureNeighbors100k(b *testing.B) {
	x, _ := clusterTableNoDist(100000, 50, 10, 1)
	src, err := emds.NewFeatureSource(100000, 50, x)
	if err != nil {
		b.Fatal(err)
	}
	var cpu time.Duration
	k := 0
	var idx []int32
	for b.Loop() {
		c0 := cputime.Process()
		if idx, _, err = src.Neighbors(context.Background(), 10, 1); err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Process() - c0
		k++
	}
	b.ReportMetric(cpu.Seconds()/float64(k), "cpu-s/op")
	// Recall against brute force on 200 rows (every 500th).
	hits := 0
	var ratio float64
	d := make([]float64, 100000)
	for q := 0; q < 100000; q += 500 {
		for j := range d {
			d[j] = src.Dist(q, j)
		}
		d[q] = math.Inf(1)
		s := append([]float64(nil), d...)
		sort.Float64s(s)
		var found, exact float64
		for c, j := range idx[q*10 : q*10+10] {
			if d[j] <= s[9] {
				hits++
			}
			found += d[j]
			exact += s[c]
		}
		ratio += found / exact
	}
	b.ReportMetric(float64(hits)/2000, "recall")
	// Mean distance to the listed neighbours over that to the true ones.
	b.ReportMetric(ratio/200, "dist-ratio")
}
