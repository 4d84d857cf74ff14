package emds

import (
	"burescope/engine"
	"context"
	"math"
	"testing"
)

func TestStressReportAndPointStress(t *testing.T) {
	// Three points on a line at 0, 1, 3 against targets 1, 2, 2:
	// residuals (1-1, 2-3, 2-2) -> stress 1 (internal), sum D^2 = 9.
	dist := []float64{1, 2, 2}
	p, err := NewProblem(3, 1, dist, nil, engine.Gaussian())
	if err != nil {
		t.Fatal(err)
	}
	s := p.Scale // sqrt(9/3)
	means := []float64{0, 1 / s, 3 / s}
	b := NewCPUBackend(1)
	if err := b.Load(p.Problem); err != nil {
		t.Fatal(err)
	}
	got, err := pointStress1(context.Background(), p, b, means)
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Sqrt(1.0 / 9); !(math.Abs(got-want) <= 1e-15) {
		t.Errorf("stress-1 %v, want %v", got, want)
	}
	r := NewStressReport(p, 1/(s*s))
	if !(math.Abs(r.Stress-1) <= 1e-12) || !(math.Abs(r.RawRatio-1.0/9) <= 1e-15) || !(math.Abs(r.Stress1*r.Stress1-r.RawRatio) <= 1e-15) {
		t.Errorf("report %+v, want stress 1, raw 1/9", r)
	}
}
