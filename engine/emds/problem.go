package emds

import (
	"burescope/engine"
	"fmt"
	"math"
)

// NormalizedProblem is a Problem together with the scale of its data.
//
// Input distances may have any scale (kilometres, test scores, unit-free).
// The optimiser's parameters live in internal units where the weighted RMS
// distance is 1 (distance / Scale), so every default (learning rates, eps,
// initial scale sizes) is independent of the data's units. The Problem
// itself keeps the caller's distances in input units, without a copy
// (distances are stored once, n(n-1)/2 values); the optimiser converts the
// state to input units before each evaluation and the gradient back.
// Lengths convert by Scale, scale matrices and stress by Scale^2.
type NormalizedProblem struct {
	*Problem
	Scale float64 // input units per internal unit (> 0)
	SumD2 float64 // sum_{i<j} w_ij D_ij^2 in internal units (D / Scale)
}

// NewProblem validates packed input distances (length n(n-1)/2, finite,
// >= 0) and optional weights, and returns the problem for an embedding of
// dimension dim and family fam with its scale. dist and weights are used
// in place: the caller must not change them while the problem is in use.
func NewProblem(n, dim int, dist, weights []float64, fam engine.Family) (*NormalizedProblem, error) {
	if n < 2 {
		return nil, fmt.Errorf("engine: need at least 2 objects, got %d", n)
	}
	m := n * (n - 1) / 2
	if len(dist) != m {
		return nil, fmt.Errorf("engine: %d objects need %d packed distances, got %d", n, m, len(dist))
	}
	if weights != nil && len(weights) != m {
		return nil, fmt.Errorf("engine: %d objects need %d packed weights, got %d", n, m, len(weights))
	}
	var sw, swd2 float64
	for k, v := range dist {
		if !(v >= 0) || math.IsInf(v, 0) {
			i, j := PairOf(n, k)
			return nil, fmt.Errorf("engine: distance (%d, %d) is %v (want finite, >= 0)", i, j, v)
		}
		w := 1.0
		if weights != nil {
			w = weights[k]
			if !(w >= 0) || math.IsInf(w, 0) {
				i, j := PairOf(n, k)
				return nil, fmt.Errorf("engine: weight (%d, %d) is %v (want finite, >= 0)", i, j, w)
			}
		}
		sw += w
		swd2 += w * v * v
	}
	scale := 1.0
	if sw > 0 && swd2 > 0 {
		scale = math.Sqrt(swd2 / sw)
	}
	p := &Problem{N: n, Dim: dim, Tau: fam.Tau, Dist: dist, Weights: weights}
	sum := swd2 / (scale * scale)
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &NormalizedProblem{Problem: p, Scale: scale, SumD2: sum}, nil
}

// PairOf inverts PairIndex: the unordered pair (i, j), i < j, stored at
// packed index k of an n-object upper triangle.
func PairOf(n, k int) (i, j int) {
	// Row i starts at i(2n-i-1)/2; find the last row start <= k.
	i = int(float64(2*n-1)/2 - math.Sqrt(float64(2*n-1)*float64(2*n-1)/4-2*float64(k)))
	if i < 0 {
		i = 0
	}
	for i > 0 && engine.PairIndex(n, i, i+1) > k {
		i--
	}
	for i+1 < n-1 && engine.PairIndex(n, i+1, i+2) <= k {
		i++
	}
	return i, k - engine.PairIndex(n, i, i+1) + i + 1
}
