package engine

// Test-only references of the Newton-Schulz two-run trick (docs/math.md,
// Newton-Schulz): the accuracy tables of docs/newton-schulz.md and the
// benchmarks use them. The CPU backend's Newton-Schulz kernel
// (pairs_ns.go) computes the same quantities without allocating.

import "math"

// NewtonSchulz runs Algorithm 1 on the symmetric PSD d x d matrix a and
// returns its approximate square root and inverse square root.
func NewtonSchulz(a []float64, d int, o NSOptions) NSResult {
	w := NewNSWorkspace(d)
	r := NSResult{Sqrt: make([]float64, d*d), InvSqrt: make([]float64, d*d)}
	r.Iters, r.Residual = w.Roots(r.Sqrt, r.InvSqrt, a, o)
	return r
}

// NSPair is what the two-run trick gives for one pair (A, B): both
// transport maps and Bures^2, from the roots (Y1, Z1) of A and (Y2, Z2) of
// Y1 B Y1 = A^{1/2} B A^{1/2}.
type NSPair struct {
	TAB    []float64 // T^{AB} = Z1 Y2 Z1
	TBA    []float64 // T^{BA} = Y1 Z2 Y1
	Bures2 float64   // tr A + tr B - 2 tr Y2 (clamped at 0)
}

// TransportPairNS computes T^{AB}, T^{BA} and Bures^2(A, B) with two
// Newton-Schulz runs (docs/math.md, Newton-Schulz: the two-run trick). A must
// be positive definite for the maps (e.g. L L^T + eps I with eps > 0);
// Bures2 is accurate for any PSD A and B.
func TransportPairNS(a, b []float64, d int, o NSOptions) NSPair {
	w := NewNSWorkspace(d)
	y1 := make([]float64, d*d)
	z1 := make([]float64, d*d)
	w.Roots(y1, z1, a, o)
	return pairFromRoots(w, y1, z1, a, b, d, o)
}

// pairFromRoots runs the second Newton-Schulz run of the trick given the
// roots y1 = A^{1/2}, z1 = A^{-1/2}.
func pairFromRoots(w *NSWorkspace, y1, z1, a, b []float64, d int, o NSOptions) NSPair {
	m := Symmetrize(mul3(y1, b, y1, d), d)
	y2 := make([]float64, d*d)
	z2 := make([]float64, d*d)
	w.Roots(y2, z2, m, o)
	return NSPair{
		TAB:    Symmetrize(mul3(z1, y2, z1, d), d),
		TBA:    Symmetrize(mul3(y1, z2, y1, d), d),
		Bures2: math.Max(Trace(a, d)+Trace(b, d)-2*Trace(y2, d), 0),
	}
}

// TransportBatchNS computes the two-run trick for all n x m pairs
// (A_i, B_j) of the stacked matrices as (n*d*d) and bs (m*d*d): n first
// runs for (Y1, Z1) of each A_i, shared by the n*m second runs (docs/math.md:
// "n runs for the (Y1, Z1), n*m for the cross terms"). Pair (i, j) is at
// index i*m + j. Work is spread over GOMAXPROCS goroutines.
func TransportBatchNS(as []float64, n int, bs []float64, m, d int, o NSOptions) []NSPair {
	dd := d * d
	y1, z1, _ := NewtonSchulzBatch(as, n, d, o)
	out := make([]NSPair, n*m)
	ParallelRanges(n*m, func(lo, hi int) {
		w := NewNSWorkspace(d)
		for p := lo; p < hi; p++ {
			i, j := p/m, p%m
			out[p] = pairFromRoots(w, y1[i*dd:(i+1)*dd], z1[i*dd:(i+1)*dd],
				as[i*dd:(i+1)*dd], bs[j*dd:(j+1)*dd], d, o)
		}
	})
	return out
}
