package emds

import (
	"burescope/engine"
	"math"
)

// Distances whose largest value lies in [SafeScaleLow, SafeScaleHigh] are
// fitted as they are; outside it their squares (and sums of squares) can
// underflow to 0 or overflow to +Inf, so NormalizeDistances rescales them.
const (
	SafeScaleLow  = 1e-100
	SafeScaleHigh = 1e100
)

// NormalizeDistances returns distances safe to square and the unit they
// are in: when the largest distance lies outside [SafeScaleLow,
// SafeScaleHigh] a copy divided by it and that largest value; otherwise
// dist itself and 1. Fitting the copy and multiplying the result back by
// the unit (RescaleSnapshot) fits any positive scale exactly like its
// scaled-up copy: MDS stress-1 and the fitted shape are scale-free.
func NormalizeDistances(dist []float64) (out []float64, unit float64) {
	var m float64
	for _, v := range dist {
		if v > m {
			m = v
		}
	}
	if m == 0 || math.IsInf(m, 0) || math.IsNaN(m) || (m >= SafeScaleLow && m <= SafeScaleHigh) {
		return dist, 1
	}
	out = make([]float64, len(dist))
	for k, v := range dist {
		out[k] = v / m
	}
	return out, m
}

// RescaleSnapshot returns a copy of s with every length multiplied by
// unit (means, point means), every squared length by unit^2 (scales,
// stress, per-point stress): the fit of NormalizeDistances' output in the
// input's units. Stress-1 and the history are unit-free and kept. With
// unit 1 it returns s.
func RescaleSnapshot(s *Snapshot, unit float64) *Snapshot {
	if unit == 1 {
		return s
	}
	c := *s
	mul := func(v []float64, f float64) []float64 {
		if v == nil {
			return nil
		}
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = x * f
		}
		return out
	}
	// unit*x*unit rather than x*unit^2: unit^2 alone may under- or
	// overflow where the product does not.
	sq := func(v []float64) []float64 {
		if v == nil {
			return nil
		}
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = x * unit * unit
		}
		return out
	}
	c.Means = mul(s.Means, unit)
	c.PointMeans = mul(s.PointMeans, unit)
	c.Scales = sq(s.Scales)
	c.PerPoint = sq(s.PerPoint)
	c.Stress = s.Stress * unit * unit
	return &c
}

// ScaleEmbedding returns a copy of e with every length multiplied by f:
// means by f, scales by f twice (f*f itself may under- or overflow where
// the two products do not).
func ScaleEmbedding(e *engine.Embedding, f float64) *engine.Embedding {
	out := &engine.Embedding{Family: e.Family, Dim: e.Dim, Labels: e.Labels,
		Means: make([]float64, len(e.Means)), Scales: make([]float64, len(e.Scales))}
	for i, v := range e.Means {
		out.Means[i] = v * f
	}
	for i, v := range e.Scales {
		out.Scales[i] = v * f * f
	}
	return out
}
