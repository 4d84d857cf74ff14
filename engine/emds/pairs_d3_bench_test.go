package emds

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"burescope/engine"
	"burescope/internal/cputime"
)

// BenchmarkD3Row times the d = 3 row kernel alone (one thread) on one
// column tile: rows i = 0..7 against j = 9..2008 of a random problem
// (n = 2009, scales L L^T + 0.1 I with L entries N(0, 1)). Besides the
// mean it reports min-ns/pair, the fastest of the b.N rows: on a shared
// machine that is the figure least disturbed by other processes (a row
// is ~30 us, usually not preempted). Sub-benchmarks: the kernel as
// dispatched (AVX-512 where the CPU has it, else AVX2+FMA, else scalar),
// then each kernel this CPU can run: scalar, avx2 (AVX2 only), avx512.
func BenchmarkD3Row(b *testing.B) {
	const n = 2009
	p, s := d3Problem(n, 3, false, func(rng *rand.Rand, i int) []float64 { return randSPD3(rng, 10) })
	for _, level := range append([]int{-1}, d3Levels()...) {
		name := "dispatched"
		if level >= 0 {
			name = [...]string{d3Scalar: "scalar", d3AVX2: "avx2", d3AVX512: "avx512"}[level]
		}
		b.Run(name, func(b *testing.B) {
			if level >= 0 {
				defer d3SetLevel(d3SetLevel(level))
			}
			k := &d3Kernel{}
			k.prepare(p, s)
			acc := make([]float64, soaStride(n)*d3Stride)
			best := time.Duration(1 << 62)
			b.ResetTimer()
			for it := 0; it < b.N; it++ {
				i := it % 8
				t0 := time.Now()
				k.row(i, 9, n, p.Dist[engine.PairIndex(n, i, 9):], nil, acc, 0, nil)
				if d := time.Since(t0); d < best {
					best = d
				}
			}
			pairs := float64(n - 9)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/pairs/float64(b.N), "ns/pair")
			b.ReportMetric(float64(best.Nanoseconds())/pairs, "min-ns/pair")
		})
	}
}

// BenchmarkD3Evaluate times a whole d = 3 stress + gradient evaluation
// (n = 2000, scales as in BenchmarkD3Row, all threads) with each kernel
// this CPU can run, so a machine with AVX-512 also gives the figure of
// one without it (avx2); ns/pair is wall time, cpu-ns/pair the process's
// CPU time, per pair.
func BenchmarkD3Evaluate(b *testing.B) {
	const n = 2000
	p, s := d3Problem(n, 3, false, func(rng *rand.Rand, i int) []float64 { return randSPD3(rng, 10) })
	for _, level := range d3Levels() {
		b.Run([...]string{d3Scalar: "scalar", d3AVX2: "avx2", d3AVX512: "avx512"}[level], func(b *testing.B) {
			defer d3SetLevel(d3SetLevel(level))
			be := NewCPUBackend(0)
			if err := be.Load(p); err != nil {
				b.Fatal(err)
			}
			g := Gradient{Means: make([]float64, 3*n), Scales: make([]float64, 9*n), PerPoint: make([]float64, n)}
			b.ResetTimer()
			cpu0 := cputime.Process()
			for it := 0; it < b.N; it++ {
				if _, err := be.Evaluate(context.Background(), s, &g); err != nil {
					b.Fatal(err)
				}
			}
			pairs := float64(n*(n-1)/2) * float64(b.N)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/pairs, "ns/pair")
			b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/pairs, "cpu-ns/pair")
		})
	}
}
