package gpucompute

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"burescope/engine/emds"
)

// selfTestTol is the relative agreement with the CPU backend the self-test
// demands (float32 kernels agree to about 1e-6 on its problem).
const selfTestTol = 1e-4

// Auto returns a GL backend when a 4.3 compute context comes up, passes
// SelfTest and runs on a GPU (or opts.AllowSoftware is set), else
// emds.NewCPUBackend(0). The string says which backend
// runs and, for the CPU, in one line why GL was not used; callers print
// it. The error is non-nil only for invalid options (an unknown
// Options.Context), never because GL is missing.
func Auto(opts Options) (emds.Backend, string, error) {
	switch opts.Context {
	case "", "auto", "egl", "glfw":
	default:
		return nil, "", fmt.Errorf("gpucompute: unknown context kind %q (want auto, egl or glfw)", opts.Context)
	}
	b, err := New(opts)
	if err != nil {
		return emds.NewCPUBackend(0), "cpu: OpenGL compute unavailable: " + err.Error(), nil
	}
	if err := SelfTest(b); err != nil {
		b.Close()
		return emds.NewCPUBackend(0), "cpu: OpenGL backend failed its self-test: " + err.Error(), nil
	}
	if info := b.Info(); info.Software() && !opts.AllowSoftware {
		b.Close()
		return emds.NewCPUBackend(0), "cpu: the OpenGL renderer (" + info.Renderer +
			") is a software rasteriser, slower than the CPU backend here; --backend gl forces it", nil
	}
	return b, "gl: " + b.Info().String(), nil
}

// SelfTest loads a small random problem (d = 2 and d = 3, with weights)
// into b, evaluates stress and gradients, and compares them with the CPU
// backend to 1e-4 relative. The problem stays loaded afterwards: callers
// Load their own.
func SelfTest(b emds.Backend) error {
	rng := rand.New(rand.NewPCG(2018, 12))
	for _, d := range []int{2, 3} {
		n := 37
		p := &emds.Problem{N: n, Dim: d, Tau: 1, Dist: make([]float64, n*(n-1)/2), Weights: make([]float64, n*(n-1)/2)}
		for k := range p.Dist {
			p.Dist[k] = 3 * rng.Float64()
			p.Weights[k] = 0.5 + rng.Float64()
		}
		s := emds.State{Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
		for k := range s.Means {
			s.Means[k] = rng.NormFloat64()
		}
		for i := 0; i < n; i++ {
			c := s.Scales[i*d*d : (i+1)*d*d]
			// C = X X^T + 0.2 I with X Gaussian.
			x := make([]float64, d*d)
			for k := range x {
				x[k] = 0.6 * rng.NormFloat64()
			}
			for r := 0; r < d; r++ {
				for q := 0; q < d; q++ {
					var v float64
					for k := 0; k < d; k++ {
						v += x[r*d+k] * x[q*d+k]
					}
					if r == q {
						v += 0.2
					}
					c[r*d+q] = v
				}
			}
		}
		cpu := emds.NewCPUBackend(1)
		if err := cpu.Load(p); err != nil {
			return err
		}
		if err := b.Load(p); err != nil {
			return fmt.Errorf("self-test d=%d: %w", d, err)
		}
		want, wg, err := evalFull(cpu, s, n, d)
		if err != nil {
			return err
		}
		got, gg, err := evalFull(b, s, n, d)
		if err != nil {
			return fmt.Errorf("self-test d=%d: %w", d, err)
		}
		if e := math.Abs(got-want) / math.Abs(want); !(e <= selfTestTol) {
			return fmt.Errorf("self-test d=%d: stress %.9g, CPU %.9g (relative error %.2g)", d, got, want, e)
		}
		for _, v := range []struct {
			name      string
			got, want []float64
		}{{"mean gradient", gg.Means, wg.Means}, {"scale gradient", gg.Scales, wg.Scales}, {"per-point stress", gg.PerPoint, wg.PerPoint}} {
			var num, den float64
			for k := range v.want {
				num = math.Max(num, math.Abs(v.got[k]-v.want[k]))
				den = math.Max(den, math.Abs(v.want[k]))
			}
			if !(num <= selfTestTol*den) {
				return fmt.Errorf("self-test d=%d: %s differs from the CPU by %.2g (largest entry %.3g)", d, v.name, num, den)
			}
		}
	}
	return nil
}

func evalFull(b emds.Backend, s emds.State, n, d int) (float64, emds.Gradient, error) {
	g := emds.Gradient{Means: make([]float64, n*d), Scales: make([]float64, n*d*d), PerPoint: make([]float64, n)}
	v, err := b.Evaluate(context.Background(), s, &g)
	return v, g, err
}
