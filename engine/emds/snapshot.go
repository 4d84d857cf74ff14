package emds

import (
	"burescope/engine"
	"strconv"
)

// Snapshot is one published state of an Optimizer. It is immutable once
// published: the optimiser never writes to a Snapshot or to the slices it
// holds after handing it out, so any goroutine may read it without locks.
//
// All lengths are in the INPUT's units (the optimiser's internal
// normalisation is undone): Means n*Dim, Scales n*Dim*Dim (the scale C =
// L L^T + eps I, not tau*C; nil for point MDS), Stress and PerPoint in
// squared input units.
type Snapshot struct {
	Iter     int           // gradient steps taken so far
	N, Dim   int           // number of measures and their dimension
	Family   engine.Family // the fitted family (tau turns scales into covariances)
	Means    []float64     // n*Dim means, input units
	Scales   []float64     // n*Dim*Dim scales C (incl. eps), input units squared; nil for points
	Stress   float64       // sum_{i<j} w (D - W)^2
	Stress1  float64       // Kruskal stress-1 (unit-free)
	RawRatio float64       // Stress1^2
	PerPoint []float64     // n, sum_j w_ij (D_ij - W_ij)^2 / 2 (sums to Stress)
	// History is the stress-1 of every accepted iterate so far (History[0]
	// is the initial state). It may share its backing array with later
	// snapshots but its elements are never changed.
	History   []float64
	Converged bool   // stopped by the tolerance rule (or no further progress possible)
	Backend   string // name of the backend that computed it
	// ClassicalStress1 is the stress-1 of classical MDS (points) on the
	// same data (NaN in the snapshot an Optimizer publishes when it is
	// built: it is computed by the first Step or Run, Step(ctx, 0)
	// included); PointStress1 that of the point-MDS baseline, or NaN while
	// it has not been computed (see Optimizer.PointBaseline).
	ClassicalStress1, PointStress1 float64
	// PointMeans are the means (n*Dim, input units) of the point-MDS
	// baseline behind PointStress1, aligned to this snapshot's Means by
	// the orthogonal Procrustes rotation (or reflection) and translation
	// (no scaling; see Procrustes), so the two pictures can be compared.
	// Nil until Optimizer.PointBaseline has run, and for a Points fit.
	// Immutable like the rest of the snapshot.
	PointMeans []float64
	// MeanShare is the share of the fitted squared distances that the
	// means carry, sum w |m_i - m_j|^2 / sum w W2_ij^2 (MeanShare); the
	// scales carry the rest, 1 - MeanShare. 1 for point MDS.
	MeanShare float64
}

// Embedding returns the snapshot as an Embedding with the given labels
// (nil labels become "1".."n"). Means and scales are copied; point-MDS
// snapshots get zero scale matrices.
func (s *Snapshot) Embedding(labels []string) *engine.Embedding {
	if labels == nil {
		labels = make([]string, s.N)
		for i := range labels {
			labels[i] = strconv.Itoa(i + 1)
		}
	}
	e := &engine.Embedding{
		Family: s.Family,
		Dim:    s.Dim,
		Labels: append([]string(nil), labels...),
		Means:  append([]float64(nil), s.Means...),
		Scales: make([]float64, s.N*s.Dim*s.Dim),
	}
	copy(e.Scales, s.Scales)
	return e
}
