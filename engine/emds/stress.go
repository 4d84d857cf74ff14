package emds

import (
	"context"
	"math"
)

// StressReport is the stress of an embedding in the three forms Burescope
// reports.
type StressReport struct {
	// Stress is sum_{i<j} w_ij (D_ij - W_ij)^2 in the input's squared units.
	Stress float64
	// Stress1 is Kruskal's stress-1, sqrt(sum w (D - W)^2 / sum w D^2):
	// unit-free, 0 for a perfect fit.
	Stress1 float64
	// RawRatio is sum w (D - W)^2 / sum w D^2 (= Stress1^2), the other
	// reading of the paper's "normalised stress".
	RawRatio float64
}

// NewStressReport converts an internal-unit stress of problem p.
func NewStressReport(p *NormalizedProblem, internal float64) StressReport {
	r := StressReport{Stress: internal * p.Scale * p.Scale}
	if p.SumD2 > 0 {
		r.RawRatio = internal / p.SumD2
		r.Stress1 = math.Sqrt(r.RawRatio)
	}
	return r
}

// pointStress1 returns the stress-1 of points (Diracs) at means (n*d,
// internal units) for problem p, evaluated on backend b, which must hold
// p (Backend.Load): the metric-MDS stress of a point configuration.
func pointStress1(ctx context.Context, p *NormalizedProblem, b Backend, means []float64) (float64, error) {
	in := make([]float64, len(means))
	for k, v := range means {
		in[k] = v * p.Scale
	}
	s, err := b.Evaluate(ctx, State{Means: in}, nil)
	if err != nil {
		return 0, err
	}
	return NewStressReport(p, s/(p.Scale*p.Scale)).Stress1, nil
}
