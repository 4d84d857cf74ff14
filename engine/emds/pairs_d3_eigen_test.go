package emds_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"burescope/engine"
	"burescope/engine/backendtest"
	"burescope/engine/emds"
)

// TestD3KernelAgainstGonumReference evaluates d = 3 problems with the
// CPU backend as shipped (on amd64 with AVX2+FMA the vector kernel, else
// the scalar one) and with backendtest.Reference (gonum symmetric
// eigendecompositions, pair by pair), on scales that are well
// conditioned, badly conditioned (ridge 1e-4: condition numbers up to
// ~1e4) and weighted. Tolerance 1e-9 of the largest entry, as the
// conformance suite.
func TestD3KernelAgainstGonumReference(t *testing.T) {
	for _, tc := range []struct {
		name     string
		ridge    float64
		weighted bool
	}{
		{"well-conditioned", 0.1, false},
		{"badly-conditioned", 1e-4, false},
		{"badly-conditioned-weighted", 1e-4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(23, 29))
			n := 53
			p := &emds.Problem{N: n, Dim: 3, Tau: 0.8, Dist: make([]float64, n*(n-1)/2)}
			for k := range p.Dist {
				p.Dist[k] = 0.5 + 2*rng.Float64()
			}
			if tc.weighted {
				p.Weights = make([]float64, len(p.Dist))
				for k := range p.Weights {
					p.Weights[k] = 2 * rng.Float64()
				}
			}
			s := emds.State{Means: make([]float64, 3*n), Scales: make([]float64, 9*n)}
			for i := 0; i < n; i++ {
				for k := 0; k < 3; k++ {
					s.Means[3*i+k] = rng.NormFloat64()
				}
				copy(s.Scales[9*i:], engine.RandomPSD(rng, 3, 3, 0.7, tc.ridge))
			}
			be := emds.NewCPUBackend(2)
			if err := be.Load(p); err != nil {
				t.Fatal(err)
			}
			g := emds.Gradient{Means: make([]float64, 3*n), Scales: make([]float64, 9*n), PerPoint: make([]float64, n)}
			got, err := be.Evaluate(context.Background(), s, &g)
			if err != nil {
				t.Fatal(err)
			}
			want, ref := backendtest.Reference(p, s)
			if !(math.Abs(got-want) <= 1e-9*want) {
				t.Errorf("stress %.15g, gonum reference %.15g", got, want)
			}
			for _, c := range []struct {
				name string
				a, b []float64
			}{{"means", g.Means, ref.Means}, {"scales", g.Scales, ref.Scales}, {"per-point", g.PerPoint, ref.PerPoint}} {
				scale := 0.0
				for _, v := range c.b {
					scale = math.Max(scale, math.Abs(v))
				}
				for k := range c.a {
					if !(math.Abs(c.a[k]-c.b[k]) <= 1e-9*scale) {
						t.Errorf("%s[%d] = %.15g, gonum reference %.15g (largest %.3g)", c.name, k, c.a[k], c.b[k], scale)
						break
					}
				}
			}
		})
	}
}
