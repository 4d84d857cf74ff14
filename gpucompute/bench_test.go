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

// BenchmarkSchemes compares the stress kernels' two work splits (the
// row-owner scheme and WIDE, one workgroup per row) and, at d >= 4, the
// two root methods, at the sizes of docs/gpu.md's table on a GPU (small
// ones on a software renderer). It reports ns/pair (wall, per unordered
// pair). docs/experiments/gpu.sh runs it on a lent GPU.
func BenchmarkSchemes(b *testing.B) {
	needGL(b)
	probe := newBackend(b, Options{})
	sizes := [][2]int{{2, 40000}, {3, 10000}, {5, 1000}, {10, 500}, {16, 200}}
	if probe.Info().Software() {
		sizes = [][2]int{{2, 1000}, {3, 500}, {5, 100}, {10, 40}}
	}
	probe.Close()
	for _, sz := range sizes {
		d, n := sz[0], sz[1]
		p, s := benchProblem(n, d)
		pairs := float64(n) * float64(n-1) / 2
		type variant struct {
			name  string
			opts  Options
			roots bool // a root-method variant (d >= 4 only)
		}
		vs := []variant{
			{"gl/rows", Options{wide: -1}, false},
			{"gl/wide", Options{wide: 1}, false},
			{"gl64/wide", Options{FP64: true, wide: 1}, false},
			{"gl/wide/newton-schulz", Options{wide: 1, Roots: emds.RootsNewtonSchulz}, true},
			{"gl64/wide/newton-schulz", Options{FP64: true, wide: 1, Roots: emds.RootsNewtonSchulz}, true},
		}
		for _, v := range vs {
			if v.roots && (d < 4 || d > JacobiMaxDim) {
				continue
			}
			b.Run(fmt.Sprintf("d=%d/n=%d/%s", d, n, v.name), func(b *testing.B) {
				be := newBackend(b, v.opts)
				defer be.Close()
				if err := be.Load(p); err != nil {
					b.Skip(err) // e.g. a kernel this driver cannot link
				}
				g := emds.Gradient{Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
				ctx := context.Background()
				if _, err := be.Evaluate(ctx, s, &g); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := be.Evaluate(ctx, s, &g); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/pairs, "ns/pair")
			})
		}
	}
}
