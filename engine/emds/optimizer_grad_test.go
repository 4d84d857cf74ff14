package emds

import (
	"burescope/engine"
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// TestParamGradientFiniteDifferences checks the gradient the optimisers
// use (means and factors, through C = L L^T + eps I) against central
// differences of fs * stress, in d = 2, 3 and 4, for both families.
func TestParamGradientFiniteDifferences(t *testing.T) {
	for _, tc := range []struct {
		d   int
		fam engine.Family
		eps float64
	}{
		{2, engine.Gaussian(), 0.01}, {2, engine.Uniform(2), 0.05}, {3, engine.Gaussian(), 0.01}, {3, engine.Uniform(3), 0.01}, {4, engine.Gaussian(), 0.02},
	} {
		rng := rand.New(rand.NewPCG(uint64(tc.d), 1))
		n := 7
		dist := make([]float64, n*(n-1)/2)
		for k := range dist {
			dist[k] = 1 + 3*rng.Float64()
		}
		opt := DefaultOptions()
		opt.Dim, opt.Family, opt.Eps = tc.d, tc.fam, tc.eps
		o, err := NewOptimizer(n, dist, opt, NewCPUBackend(1))
		if err != nil {
			t.Fatal(err)
		}
		// Random, non-triangular factors.
		for k := n * tc.d; k < len(o.x); k++ {
			o.x[k] = 0.3 * rng.NormFloat64()
		}
		if _, err := o.evaluate(context.Background()); err != nil {
			t.Fatal(err)
		}
		o.paramGradient()
		grad := append([]float64(nil), o.pg...)
		f := func() float64 {
			v, err := o.evaluate(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return o.fs * v
		}
		const h = 1e-6
		for k := range o.x {
			old := o.x[k]
			o.x[k] = old + h
			fp := f()
			o.x[k] = old - h
			fm := f()
			o.x[k] = old
			fd := (fp - fm) / (2 * h)
			if !(math.Abs(fd-grad[k]) <= 1e-6*math.Max(1, math.Abs(fd))) {
				t.Errorf("d=%d %s: d F/d x[%d] = %.10g, finite difference %.10g", tc.d, tc.fam.Name, k, grad[k], fd)
			}
		}
	}
}
