package engine

import (
	"fmt"
	"math"
)

// ScaledDistances returns the packed upper triangle (PairIndex)
// of the W2 distances between the measures of e, computed in a scaled
// form so that neither overflow nor underflow can change them: W2 is
// 1-homogeneous (W2 of means s*m and scales s^2*A is s times W2 of m and
// A), so the measures are divided by their largest magnitude s, the
// distances computed there and multiplied by s. A distance that is still
// not finite (larger than the largest float64) is an error naming the two
// items. It holds the n x n matrix and the packed triangle at once
// (8 n^2 + 4 n (n - 1) bytes): callers check that memory first
// (datasets.CheckMemory).
func ScaledDistances(e *Embedding) ([]float64, error) {
	n := e.Len()
	scaled, s := ScaledEmbedding(e)
	full := DistanceMatrix(scaled)
	packed := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			w := s * full[i*n+j]
			if math.IsNaN(w) || math.IsInf(w, 0) {
				return nil, fmt.Errorf("the W2 distance between items %d (%q) and %d (%q) is %v x %g, larger than the largest float64",
					i+1, label(e.Labels, i), j+1, label(e.Labels, j), full[i*n+j], s)
			}
			packed = append(packed, w)
		}
	}
	return packed, nil
}

// ScaledEmbedding returns a copy of e with means divided by s and scales
// by s^2, where s is e's largest magnitude (1 when e is all zeros), and s.
// Every W2 distance of the copy is that of e divided by s, and every
// scale-free quantity (variance kept by a projection, stress-1) is the
// same, but none of its squares can overflow or underflow.
func ScaledEmbedding(e *Embedding) (*Embedding, float64) {
	s := embeddingScale(e)
	if !(s > 0) || math.IsInf(s, 0) {
		s = 1
	}
	scaled := &Embedding{Family: e.Family, Dim: e.Dim, Labels: e.Labels,
		Means: make([]float64, len(e.Means)), Scales: make([]float64, len(e.Scales))}
	for i, v := range e.Means {
		scaled.Means[i] = v / s
	}
	for i, v := range e.Scales {
		scaled.Scales[i] = v / s / s
	}
	return scaled, s
}

// embeddingScale is the largest magnitude in e: the largest |mean entry|
// and the square root of the largest |tau * scale entry|.
func embeddingScale(e *Embedding) float64 {
	var m float64
	for _, v := range e.Means {
		m = math.Max(m, math.Abs(v))
	}
	tau := e.Family.Tau
	if !(tau > 0) {
		tau = 1
	}
	var a float64
	for _, v := range e.Scales {
		a = math.Max(a, math.Abs(v))
	}
	// sqrt(tau) * sqrt(a) rather than sqrt(tau * a), which can overflow.
	return math.Max(m, math.Sqrt(tau)*math.Sqrt(a))
}

// label returns labels[i], or "" when there are no labels.
func label(labels []string, i int) string {
	if i < len(labels) {
		return labels[i]
	}
	return ""
}
