//go:build amd64 && !purego

package emds

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// TestD2AVX2MatchesScalar runs the same problems through the AVX2 kernel
// and the scalar kernel (the reference it must reproduce), including
// zero scales (W t = 0, which the assembly hands back to the scalar code)
// and coincident points.
func TestD2AVX2MatchesScalar(t *testing.T) {
	if !d2HasAVX2 {
		t.Skip("no AVX2+FMA on this CPU")
	}
	defer func(v bool) { d2HasAVX2 = v }(d2HasAVX2)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{5, 37, 1500} {
		p := &Problem{N: n, Dim: 2, Tau: 0.25, Dist: make([]float64, n*(n-1)/2)}
		for k := range p.Dist {
			p.Dist[k] = 3 * rng.Float64()
		}
		s := State{Means: make([]float64, 2*n), Scales: make([]float64, 4*n)}
		for i := 0; i < n; i++ {
			s.Means[2*i], s.Means[2*i+1] = rng.NormFloat64(), rng.NormFloat64()
			if i%7 == 3 {
				continue // zero scale
			}
			a, b, c := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
			s.Scales[4*i], s.Scales[4*i+1], s.Scales[4*i+2], s.Scales[4*i+3] = a*a+0.01, a*b, a*b, b*b+c*c+0.01
		}
		copy(s.Means[2:4], s.Means[0:2]) // points 0 and 1 share a mean
		eval := func(avx bool) (float64, Gradient) {
			d2HasAVX2 = avx
			b := NewCPUBackend(2)
			if err := b.Load(p); err != nil {
				t.Fatal(err)
			}
			g := Gradient{Means: make([]float64, 2*n), Scales: make([]float64, 4*n), PerPoint: make([]float64, n)}
			v, err := b.Evaluate(context.Background(), s, &g)
			if err != nil {
				t.Fatal(err)
			}
			return v, g
		}
		v0, g0 := eval(false)
		v1, g1 := eval(true)
		// Written as !(x <= tol) so that a NaN (e.g. a lane with W t = 0
		// divided through in the assembly) fails the test.
		if !(math.Abs(v1-v0) <= 1e-12*v0) {
			t.Errorf("n=%d: stress AVX2 %.16g, scalar %.16g", n, v1, v0)
		}
		for _, c := range []struct {
			name string
			a, b []float64
		}{{"means", g1.Means, g0.Means}, {"scales", g1.Scales, g0.Scales}, {"per-point", g1.PerPoint, g0.PerPoint}} {
			for k := range c.a {
				if !(math.Abs(c.a[k]-c.b[k]) <= 1e-10*(1+math.Abs(c.b[k]))) {
					t.Errorf("n=%d %s[%d]: AVX2 %.16g, scalar %.16g", n, c.name, k, c.a[k], c.b[k])
					break
				}
			}
		}
	}
}
