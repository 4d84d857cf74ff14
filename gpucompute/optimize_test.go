package gpucompute

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
)

// TestFitConvergesLikeCPU runs whole elliptical-MDS fits with
// emds.NewOptimizer on the CPU backend and on the GL backend from the
// same start and checks they reach the same stress (stress-1, the
// optimiser's unit-free figure, within 1e-4 relative in float32 and 1e-9
// in float64) after the same iterations.
func TestFitConvergesLikeCPU(t *testing.T) {
	// 60 objects with 4-D features in 3 clusters: Euclidean distances.
	rng := rand.New(rand.NewPCG(60, 4))
	const n, f = 60, 4
	x := make([]float64, n*f)
	for i := 0; i < n; i++ {
		for k := 0; k < f; k++ {
			x[i*f+k] = float64(i%3)*1.5*float64(k%2) + rng.NormFloat64()
		}
	}
	dist := make([]float64, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			var s float64
			for k := 0; k < f; k++ {
				v := x[i*f+k] - x[j*f+k]
				s += v * v
			}
			dist[engine.PairIndex(n, i, j)] = math.Sqrt(s)
		}
	}
	tests := []struct {
		name string
		opt  func(o *emds.Options)
		fp64 bool
		tol  float64
	}{
		{"d2-adam-f32", func(o *emds.Options) {}, false, 1e-4},
		{"d2-gd-f32", func(o *emds.Options) { o.Optimizer = "gd" }, false, 1e-4},
		{"d3-adam-f32", func(o *emds.Options) { o.Dim = 3 }, false, 1e-4},
		{"d2-adam-f64", func(o *emds.Options) {}, true, 1e-9},
		{"d2-points-f32", func(o *emds.Options) { o.Points = true }, false, 1e-4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := emds.DefaultOptions()
			opt.MaxIter = 300
			opt.Tol = 0
			tt.opt(&opt)
			run := func(b emds.Backend) *emds.Snapshot {
				o, err := emds.NewOptimizer(n, dist, opt, b)
				if err != nil {
					t.Fatalf("%s: NewOptimizer: %v", b.Name(), err)
				}
				if err := o.Run(context.Background(), math.MaxInt64, nil); err != nil {
					t.Fatalf("%s: Run: %v", b.Name(), err)
				}
				return o.Latest()
			}
			cpu := run(emds.NewCPUBackend(2))
			gl := run(newBackend(t, Options{FP64: tt.fp64}))
			if cpu.Iter != gl.Iter {
				t.Errorf("iterations: cpu %d, gl %d", cpu.Iter, gl.Iter)
			}
			if d := relDiff(gl.Stress1, cpu.Stress1); !(d <= tt.tol) {
				t.Errorf("stress-1: cpu %.9g, gl %.9g (relative difference %.2g > %g)", cpu.Stress1, gl.Stress1, d, tt.tol)
			}
			// The fit must have made progress, or the comparison is empty.
			if !(cpu.Stress1 < 0.9*cpu.History[0]) {
				t.Errorf("stress-1 %.4g -> %.4g: the fit did not progress", cpu.History[0], cpu.Stress1)
			}
			t.Logf("stress-1 %.6g -> cpu %.9g, gl %.9g", cpu.History[0], cpu.Stress1, gl.Stress1)
		})
	}
}

// TestPISAFitLikeCPU is the GL backend's acceptance run: the paper's toy
// problem (35 OECD countries x PISA 2015 scores, d = 2, 1000 iterations of
// the default optimiser, as `burescope fit builtin:pisa2015` runs it) on
// the CPU and GL backends ends at the same stress-1 within 1e-4 (float32;
// float64 within 1e-9 relative). Near its optimum float32 gradients are
// rounding-dominated, so the float32 trajectory drifts from the CPU's by
// a few percent of the (tiny, ~7e-4) final stress-1, well inside 1e-4.
func TestPISAFitLikeCPU(t *testing.T) {
	ds, err := datasets.Load("builtin:pisa2015", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := ds.Len()
	opt := emds.DefaultOptions()
	run := func(b emds.Backend) *emds.Snapshot {
		o, err := emds.NewOptimizer(n, ds.Dist, opt, b)
		if err != nil {
			t.Fatalf("%s: %v", b.Name(), err)
		}
		if err := o.Run(context.Background(), math.MaxInt64, nil); err != nil {
			t.Fatalf("%s: %v", b.Name(), err)
		}
		return o.Latest()
	}
	cpu := run(emds.NewCPUBackend(2))
	f32 := run(newBackend(t, Options{}))
	f64 := run(newBackend(t, Options{FP64: true}))
	t.Logf("stress-1 after %d/%d/%d iterations: cpu %.9g, gl f32 %.9g, gl f64 %.9g (classical MDS %.4g)",
		cpu.Iter, f32.Iter, f64.Iter, cpu.Stress1, f32.Stress1, f64.Stress1, cpu.ClassicalStress1)
	if !(cpu.Stress1 < cpu.ClassicalStress1/10) {
		t.Errorf("the CPU fit did not converge: stress-1 %.4g vs classical %.4g", cpu.Stress1, cpu.ClassicalStress1)
	}
	if d := math.Abs(f32.Stress1 - cpu.Stress1); !(d <= 1e-4) {
		t.Errorf("float32: stress-1 %.9g vs cpu %.9g: differ by %.2g > 1e-4", f32.Stress1, cpu.Stress1, d)
	}
	if d := relDiff(f64.Stress1, cpu.Stress1); !(d <= 1e-9) {
		t.Errorf("float64: stress-1 %.12g vs cpu %.12g: relative difference %.2g > 1e-9", f64.Stress1, cpu.Stress1, d)
	}
}
