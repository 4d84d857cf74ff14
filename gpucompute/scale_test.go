package gpucompute

import (
	"testing"

	"burescope/engine/emds"
)

// TestFloat32AnyScale: the float32 kernels see the problem in units of the
// RMS distance, so the same problem scaled by 1e12 or 1e-12 (where
// float32 determinants of the scales would overflow or underflow) agrees
// with the CPU backend as well as the unit-scale problem does; CPU and GL
// results are compared in the input's units.
func TestFloat32AnyScale(t *testing.T) {
	gl := newBackend(t, Options{})
	cases := []problemCase{
		{name: "d2", n: 120, d: 2, tau: 1, seed: 21},
		{name: "d3", n: 80, d: 3, tau: 1, seed: 22},
	}
	for _, c := range cases {
		for _, sc := range []float64{1, 1e12, 1e-12} {
			t.Run(c.name+"/"+formatScale(sc), func(t *testing.T) {
				p, s := makeProblem(c)
				dist := make([]float64, len(p.Dist))
				for k, v := range p.Dist {
					dist[k] = v * sc
				}
				p.Dist = dist
				means := make([]float64, len(s.Means))
				for k, v := range s.Means {
					means[k] = v * sc
				}
				scales := make([]float64, len(s.Scales))
				for k, v := range s.Scales {
					scales[k] = v * sc * sc
				}
				s = emds.State{Means: means, Scales: scales}
				cpu := emds.NewCPUBackend(2)
				if err := cpu.Load(p); err != nil {
					t.Fatal(err)
				}
				if err := gl.Load(p); err != nil {
					t.Fatal(err)
				}
				want, wg := evalAll(t, cpu, s, c.n, c.d)
				got, gg := evalAll(t, gl, s, c.n, c.d)
				const tol = 1e-5
				if e := relDiff(got, want); !(e <= tol) {
					t.Errorf("stress %.9g, cpu %.9g (rel %.2g > %g)", got, want, e, tol)
				}
				for _, x := range []struct {
					name      string
					got, want []float64
				}{{"grad means", gg.Means, wg.Means}, {"grad scales", gg.Scales, wg.Scales}, {"per-point", gg.PerPoint, wg.PerPoint}} {
					if e := vecErr(x.got, x.want); !(e <= tol) {
						t.Errorf("%s: rel err %.2g > %g", x.name, e, tol)
					}
				}
			})
		}
	}
}

// formatScale names a scale for a subtest.
func formatScale(s float64) string {
	switch s {
	case 1:
		return "unit"
	case 1e12:
		return "1e12"
	}
	return "1e-12"
}
