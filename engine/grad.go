package engine

import (
	"fmt"
	"math"
)

// BuresGradScale returns the gradient of Bures^2(A, B) with respect to the
// symmetric matrix A, I - T^{AB} (from d/dA tr(B^{1/2} A B^{1/2})^{1/2} =
// T^{AB}/2, docs/math.md, Gradients). It exists when A is positive definite; for
// a singular A it returns the pseudo-inverse version, or an error when no
// transport map exists.
func BuresGradScale(a, b []float64, d int) ([]float64, error) {
	t, err := TransportMap(a, b, d)
	if err != nil {
		return nil, err
	}
	for i := range t {
		t[i] = -t[i]
	}
	for i := 0; i < d; i++ {
		t[i*d+i]++
	}
	return t, nil
}

// W2SquaredGrad returns W2^2 between mu_a = mu(ma, L L^T + eps I) (L = la,
// d x k row-major) and mu_b = mu(mb, sb) of family f, with its gradients
// with respect to the mean ma and the factor L (docs/math.md, Gradients):
//
//	d/dma = 2 (ma - mb),   d/dL = 2 tau (I - T^{A_eps B}) L.
//
// With eps = 0 and a singular L L^T the gradient does not exist in
// general; the pseudo-inverse transport map is used when Im B lies inside
// Im A, and an error is returned otherwise.
func W2SquaredGrad(f Family, ma, la []float64, k int, eps float64, mb, sb []float64, d int) (w2sq float64, gMean, gL []float64, err error) {
	a := FactorProduct(la, d, k, eps)
	t, err := TransportMap(a, sb, d)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("W2^2 gradient: %w", err)
	}
	w2sq = SqDist(ma, mb) + f.Tau*Bures2(a, sb, d)
	gMean = make([]float64, d)
	for i := range gMean {
		gMean[i] = 2 * (ma[i] - mb[i])
	}
	tl := MatMul(t, la, d, d, k)
	gL = make([]float64, d*k)
	for i := range gL {
		gL[i] = 2 * f.Tau * (la[i] - tl[i])
	}
	return w2sq, gMean, gL, nil
}

// W2Grad returns W2 = sqrt(W2^2) and its gradients with respect to ma and
// L, the W2^2 gradients divided by 2 W2. At W2 = 0 the distance is not
// differentiable; zero gradients (a valid subgradient at the minimum) are
// returned there.
func W2Grad(f Family, ma, la []float64, k int, eps float64, mb, sb []float64, d int) (w2 float64, gMean, gL []float64, err error) {
	w2sq, gMean, gL, err := W2SquaredGrad(f, ma, la, k, eps, mb, sb, d)
	if err != nil {
		return 0, nil, nil, err
	}
	w2 = math.Sqrt(w2sq)
	s := 0.0
	if w2 > 0 {
		s = 1 / (2 * w2)
	}
	for i := range gMean {
		gMean[i] *= s
	}
	for i := range gL {
		gL[i] *= s
	}
	return w2, gMean, gL, nil
}
