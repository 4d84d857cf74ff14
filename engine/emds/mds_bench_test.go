package emds_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"burescope/engine/backendtest"
	"burescope/engine/emds"
	"burescope/internal/cputime"
)

// benchProblem is a random problem of n measures in dimension d (target
// distances are W2 distances of another random state, computed with the
// backend itself to keep setup fast).
func benchProblem(b *testing.B, n, d int) (*emds.Problem, emds.State) {
	b.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), uint64(d)))
	st := backendtest.RandomState(rng, n, d, false)
	p := &emds.Problem{N: n, Dim: d, Tau: 1, Dist: make([]float64, n*(n-1)/2)}
	for k := range p.Dist {
		p.Dist[k] = 1 + rng.Float64()
	}
	return p, st
}

// BenchmarkCPUStressGradient measures one full stress + gradient
// evaluation; ns/pair is wall time divided by n(n-1)/2.
func BenchmarkCPUStressGradient(b *testing.B) {
	for _, c := range []struct{ n, d, threads int }{
		{2000, 2, 0}, {2000, 2, 1}, {10000, 2, 0}, {10000, 2, 1}, {2000, 3, 0}, {2000, 3, 1}, {400, 4, 0}, {400, 4, 1}, {300, 5, 0},
	} {
		b.Run(fmt.Sprintf("n=%d/d=%d/threads=%d", c.n, c.d, c.threads), func(b *testing.B) {
			p, s := benchProblem(b, c.n, c.d)
			be := emds.NewCPUBackend(c.threads)
			if err := be.Load(p); err != nil {
				b.Fatal(err)
			}
			g := emds.Gradient{Means: make([]float64, c.n*c.d), Scales: make([]float64, c.n*c.d*c.d), PerPoint: make([]float64, c.n)}
			ctx := context.Background()
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				if _, err := be.Evaluate(ctx, s, &g); err != nil {
					b.Fatal(err)
				}
			}
			pairs := float64(c.n*(c.n-1)/2) * float64(b.N)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/pairs, "ns/pair")
			b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/pairs, "cpu-ns/pair")
		})
	}
}

// BenchmarkOptimizerStep measures one full optimiser iteration (state
// conversion, backend evaluation, chain rule, Adam update, snapshot
// bookkeeping) at d = 2; compare with BenchmarkCPUStressGradient for the
// optimiser's own overhead.
func BenchmarkOptimizerStep(b *testing.B) {
	for _, n := range []int{2000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			p, _ := benchProblem(b, n, 2)
			opt := emds.DefaultOptions()
			opt.MaxIter = 0
			opt.Tol = 0
			o, err := emds.NewOptimizer(n, p.Dist, opt, emds.NewCPUBackend(0))
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			cpu0 := cputime.Process()
			if _, err := o.Step(context.Background(), b.N); err != nil {
				b.Fatal(err)
			}
			pairs := float64(n*(n-1)/2) * float64(b.N)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/pairs, "ns/pair")
			b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/pairs, "cpu-ns/pair")
		})
	}
}
