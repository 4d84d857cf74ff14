package engine

import (
	"fmt"
	"math"
)

// NormalizedProblem is a Problem in internal units together with the
// factor that converts back to the input's units.
//
// Input distances may have any scale (kilometres, test scores, unit-free).
// The optimiser works on D / Scale where Scale is the weighted RMS of the
// input distances, so internal distances have RMS 1 and every default
// (learning rates, eps, initial scale sizes) is independent of the data's
// units. Lengths convert back by multiplying by Scale, scale matrices and
// stress (squared lengths) by Scale^2.
type NormalizedProblem struct {
	*Problem
	Scale float64 // input units per internal unit (> 0)
	SumD2 float64 // sum_{i<j} w_ij D_ij^2 in internal units
}

// NewProblem validates packed input distances (length n(n-1)/2, finite,
// >= 0) and optional weights, and returns the normalised problem for an
// embedding of dimension dim and family fam.
func NewProblem(n, dim int, dist, weights []float64, fam Family) (*NormalizedProblem, error) {
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
	p := &Problem{N: n, Dim: dim, Tau: fam.Tau, Dist: make([]float64, m)}
	inv := 1 / scale
	var sum float64
	for k, v := range dist {
		p.Dist[k] = v * inv
		w := 1.0
		if weights != nil {
			w = weights[k]
		}
		sum += w * p.Dist[k] * p.Dist[k]
	}
	if weights != nil {
		p.Weights = append([]float64(nil), weights...)
	}
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
	for i > 0 && PairIndex(n, i, i+1) > k {
		i--
	}
	for i+1 < n-1 && PairIndex(n, i+1, i+2) <= k {
		i++
	}
	return i, k - PairIndex(n, i, i+1) + i + 1
}
