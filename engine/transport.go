package engine

import (
	"errors"
	"fmt"

	"burescope/engine/pairkernel"
)

// ImageTol is the relative tolerance with which TransportMap decides that
// Im B lies inside Im A for a singular A: the part of B outside Im A,
// |B - P B P|_F with P the projector onto Im A, must be at most
// ImageTol * |B|_F.
const ImageTol = 1e-8

// ErrImage is returned (wrapped) by TransportMap when A is singular and
// Im B is not contained in Im A: no transport map from A to B exists then.
var ErrImage = errors.New("image of B is not inside image of A")

// TransportMap returns the optimal transport (Brenier) map between centred
// measures with PSD scales a and b (d x d, row-major), by the first formula
// of docs/math.md:
//
//	T^{AB} = A^{-1/2} (A^{1/2} B A^{1/2})^{1/2} A^{-1/2},  T A T = B.
//
// For a singular A the inverse roots are pseudo-inverse roots; the map is
// then defined on Im A (and zero on ker A) and exists only when Im B lies
// inside Im A, otherwise the error wraps ErrImage. The result is symmetric
// PSD.
func TransportMap(a, b []float64, d int) ([]float64, error) {
	sa, isa, rank := RootsPSD(a, d, 0)
	if !Finite(sa) || !Finite(b) {
		return nil, errors.New("transport map: non-finite matrix entry")
	}
	if rank < d {
		if err := checkImage(sa, isa, b, d); err != nil {
			return nil, err
		}
	}
	// M = A^{1/2} B A^{1/2} and G^T M^{1/2} G with G = (A^+)^{1/2}, by the
	// pair kernel (engine/pairkernel) with A^{1/2} as the factor.
	ws := pairkernel.NewWorkspace(d)
	ws.Eigen(sa, pairkernel.Root, Symmetrize(append([]float64(nil), b...), d))
	out := make([]float64, d*d)
	ws.Map(out, isa, pairkernel.Root)
	return out, nil
}

// checkImage returns an error wrapping ErrImage when b has a component
// outside the image of A (sa = A^{1/2}, isa = (A^+)^{1/2}).
func checkImage(sa, isa, b []float64, d int) error {
	p := MatMul(sa, isa, d, d, d) // projector onto Im A
	pbp := mul3(p, b, p, d)
	nb := FrobNorm(b)
	if off := FrobDist(b, pbp); off > ImageTol*nb {
		return fmt.Errorf("transport map: A is singular and %w (relative residual %.3g)", ErrImage, off/nb)
	}
	return nil
}
