package emds

import "context"

// Problem is an elliptical-MDS problem as a Backend sees it: n objects,
// their target distances stored once (packed upper triangle), optional
// weights, the family constant tau and the embedding dimension.
//
// Pairs are packed row by row: pair (i, j) with i < j is at index
// engine.PairIndex(n, i, j). Distances are in the optimiser's internal
// (normalised) units; the optimiser converts back for reporting.
type Problem struct {
	N       int       // number of objects
	Dim     int       // embedding dimension d
	Dist    []float64 // len n*(n-1)/2, packed upper triangle, D_ij >= 0
	Weights []float64 // nil (all ones) or same layout as Dist, w_ij >= 0
	Tau     float64   // family constant: covariance = Tau * scale
}

// State is the point at which a Backend evaluates the stress: means and
// symmetric positive (semi-)definite scale matrices of all n measures.
type State struct {
	Means  []float64 // n*d, row i is the mean of measure i
	Scales []float64 // n*d*d, row-major d x d blocks; nil means all Diracs (point MDS)
}

// Gradient receives the gradient of the stress with respect to a State.
// Slices are overwritten, not accumulated into. A nil slice is not computed.
type Gradient struct {
	Means    []float64 // n*d, d stress / d mean_i
	Scales   []float64 // n*d*d, d stress / d C_i (symmetric)
	PerPoint []float64 // n, per-point stress: sum over j != i of w_ij (D_ij - W_ij)^2 / 2
}

// Backend evaluates the elliptical-MDS stress
//
//	stress = sum_{i<j} w_ij (D_ij - W2(mu_i, mu_j))^2
//
// and its gradient. It is the hot path of the optimiser; the CPU backend in
// this package is the exact reference and gpucompute provides an OpenGL
// compute-shader implementation of the same contract. A Backend is used by
// one goroutine at a time.
type Backend interface {
	// Name identifies the backend in reports, e.g. "cpu" or "gl".
	Name() string
	// Load prepares the backend for a problem (GPU backends upload the
	// distances once here). It may be called again with a new problem.
	Load(p *Problem) error
	// Evaluate returns the stress at s and, for each non-nil slice of g,
	// its gradient. It honours ctx cancellation between chunks of work.
	Evaluate(ctx context.Context, s State, g *Gradient) (float64, error)
	// Close releases the backend's resources.
	Close() error
}
