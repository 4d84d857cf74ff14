package gpucompute

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"burescope/engine/emds"
	"burescope/internal/cputime"
)

// benchProblem is a d = 2 problem with random distances and a random
// state (scales L L^T + 0.1 I); timing does not depend on the values.
func benchProblem(n, d int) (*emds.Problem, emds.State) {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	p := &emds.Problem{N: n, Dim: d, Tau: 1, Dist: make([]float64, n*(n-1)/2)}
	for k := range p.Dist {
		p.Dist[k] = 3 * rng.Float64()
	}
	return p, randomState(rng, problemCase{n: n, d: d})
}

// BenchmarkEvaluate times one stress + full gradient evaluation per
// iteration, transfers included (state upload, gradient read-back), on
// the GL backend (float32 and float64) and the CPU backend. Besides wall
// time it reports cpu-ns/op, the process CPU time per evaluation (all
// threads, llvmpipe's included): on a shared machine wall time depends on
// the other load, CPU time much less. Run with -benchtime=3x for the
// n = 10000 cases.
func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{2000, 10000} {
		p, s := benchProblem(n, 2)
		for _, which := range []string{"cpu", "gl", "gl64"} {
			b.Run(fmt.Sprintf("n=%d/d=2/%s", n, which), func(b *testing.B) {
				var be emds.Backend
				if which == "cpu" {
					be = emds.NewCPUBackend(0)
				} else {
					be = newBackend(b, Options{FP64: which == "gl64"})
				}
				defer be.Close()
				if err := be.Load(p); err != nil {
					b.Fatal(err)
				}
				g := emds.Gradient{Means: make([]float64, n*2), Scales: make([]float64, n*4), PerPoint: make([]float64, n)}
				ctx := context.Background()
				if _, err := be.Evaluate(ctx, s, &g); err != nil { // warm-up: first dispatch JIT-compiles
					b.Fatal(err)
				}
				b.ResetTimer()
				c0 := cputime.Process()
				for i := 0; i < b.N; i++ {
					if _, err := be.Evaluate(ctx, s, &g); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(cputime.Process()-c0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkLoad times the one-off upload of the distances (tiling
// included) at n = 10000.
func BenchmarkLoad(b *testing.B) {
	p, _ := benchProblem(10000, 2)
	be := newBackend(b, Options{})
	for i := 0; i < b.N; i++ {
		if err := be.Load(p); err != nil {
			b.Fatal(err)
		}
	}
}
