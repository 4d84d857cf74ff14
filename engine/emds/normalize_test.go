package emds

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"burescope/engine"
)

// scaleTestFactors are the magnitudes every entrance must fit exactly like
// unit scale: far below and far above the range where squares of
// distances fit in float64.
var scaleTestFactors = []float64{1e-160, 1e-120, 1e-300, 1e150, 1e300}

// relClose reports |a - b| <= tol * max(|a|, |b|).
func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// randomPacked returns the packed distances of n random points in the
// plane with some noise (an imperfect fit, so stress-1 is well above 0).
func randomPacked(rng *rand.Rand, n int) []float64 {
	x := make([]float64, 3*n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	d := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d = append(d, math.Sqrt(engine.SqDist(x[3*i:3*i+3], x[3*j:3*j+3])))
		}
	}
	return d
}

// The exact optimiser fits distances at 1e-160 or 1e300 to the same
// stress-1 and the same shape (in the input's units) as their unit-scale
// copy: the normalisation is inside the problem, so every caller gets it.
func TestOptimizerAnyScale(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 40
	base := randomPacked(rng, n)
	fit := func(f float64) *Snapshot {
		dist := make([]float64, len(base))
		for k, v := range base {
			dist[k] = v * f
		}
		opt := DefaultOptions()
		opt.MaxIter = 60
		o, err := NewOptimizer(n, dist, opt, NewCPUBackend(1))
		if err != nil {
			t.Fatalf("scale %g: %v", f, err)
		}
		if err := o.Run(context.Background(), 0, nil); err != nil {
			t.Fatalf("scale %g: %v", f, err)
		}
		return o.Latest()
	}
	ref := fit(1)
	if !(ref.Stress1 > 1e-3) {
		t.Fatalf("unit-scale fit has stress-1 %v: the test wants an imperfect fit", ref.Stress1)
	}
	for _, f := range scaleTestFactors {
		s := fit(f)
		if !relClose(s.Stress1, ref.Stress1, 1e-9) {
			t.Errorf("scale %g: stress-1 %.12g, unit scale %.12g", f, s.Stress1, ref.Stress1)
		}
		for k, v := range ref.Means {
			if !relClose(s.Means[k], v*f, 1e-6) && math.Abs(s.Means[k]-v*f) > 1e-9*f {
				t.Fatalf("scale %g: mean %d is %g, want %g", f, k, s.Means[k], v*f)
			}
		}
		for k, v := range ref.Scales {
			if math.Abs(s.Scales[k]-v*f*f) > 1e-6*f*f {
				t.Fatalf("scale %g: scale entry %d is %g, want %g", f, k, s.Scales[k], v*f*f)
			}
		}
	}
}

// The sampled fit of a feature table at 1e-300 or 1e300 is the fit of its
// unit-scale copy in the table's units (before, every distance of a table
// at 1e-300 was 0 and the "fit" succeeded).
func TestFitSampledAnyScale(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, p = 120, 4
	base := make([]float64, n*p)
	for i := range base {
		base[i] = rng.NormFloat64()
	}
	fit := func(f float64) *SampledResult {
		x := make([]float64, len(base))
		for k, v := range base {
			x[k] = v * f
		}
		src, err := NewFeatureSource(n, p, x)
		if err != nil {
			t.Fatal(err)
		}
		opt := DefaultSampledOptions()
		opt.Epochs = 40
		opt.Threads = 1
		res, err := FitSampled(context.Background(), src, opt, nil)
		if err != nil {
			t.Fatalf("scale %g: %v", f, err)
		}
		return res
	}
	ref := fit(1)
	if !(ref.Snapshot.Stress1 > 1e-3) {
		t.Fatalf("unit-scale stress-1 %v", ref.Snapshot.Stress1)
	}
	for _, f := range []float64{1e-300, 1e-160, 1e300} {
		res := fit(f)
		if !relClose(res.Snapshot.Stress1, ref.Snapshot.Stress1, 1e-9) {
			t.Errorf("scale %g: stress-1 %.12g, unit scale %.12g", f, res.Snapshot.Stress1, ref.Snapshot.Stress1)
		}
		if !relClose(res.Scale, ref.Scale*f, 1e-9) {
			t.Errorf("scale %g: RMS distance %g, want %g", f, res.Scale, ref.Scale*f)
		}
		for k, v := range ref.Snapshot.Means {
			if math.Abs(res.Snapshot.Means[k]-v*f) > 1e-6*f {
				t.Fatalf("scale %g: mean %d is %g, want %g", f, k, res.Snapshot.Means[k], v*f)
			}
		}
	}
}
