package engine

import (
	"errors"
	"fmt"
	"math"
)

// Geodesic returns the point at time t of the W2 geodesic from
// mu(ma, sa) to mu(mb, sb) (docs/math.md, Transport map and geodesics):
//
//	c(t) = (1-t) a + t b,   C(t) = ((1-t) I + t T) A ((1-t) I + t T),
//
// with T = T^{AB}. Any real t is accepted: outside [0, 1] the same formula
// extrapolates (C(t) stays PSD but the curve is no longer a geodesic). When
// A is singular and Im B is not inside Im A, T^{AB} does not exist; if
// instead Im A lies inside Im B the curve is built from the other end,
// C(t) = (t I + (1-t) T^{BA}) B (t I + (1-t) T^{BA}), which is the same
// geodesic on [0, 1]. If neither inclusion holds the error wraps ErrImage.
func Geodesic(ma, sa, mb, sb []float64, d int, t float64) (mean, scale []float64, err error) {
	mean = make([]float64, d)
	for i := range mean {
		mean[i] = (1-t)*ma[i] + t*mb[i]
	}
	from, w := sa, t
	tm, err := TransportMap(sa, sb, d)
	if errors.Is(err, ErrImage) {
		tm, err = TransportMap(sb, sa, d)
		from, w = sb, 1-t
	}
	if err != nil {
		return nil, nil, fmt.Errorf("geodesic: %w", err)
	}
	return mean, RiemannianStepMap(from, tm, d, w), nil
}

// RiemannianStepMap returns ((1-eta) I + eta T) A ((1-eta) I + eta T), the
// Riemannian (geodesic) update of the scale A towards B when T = T^{AB}
// (docs/math.md, Gradients; the paper's equation for the Riemannian update).
func RiemannianStepMap(a, t []float64, d int, eta float64) []float64 {
	m := stepMatrix(t, d, eta)
	return Symmetrize(mul3(m, a, m, d), d)
}

func stepMatrix(t []float64, d int, eta float64) []float64 {
	m := make([]float64, d*d)
	for i := range m {
		m[i] = eta * t[i]
	}
	for i := 0; i < d; i++ {
		m[i*d+i] += 1 - eta
	}
	return m
}

// Bures2Transport returns Bures^2(A, B) as |S - T^{AB} S|_F^2 with
// S = A^{1/2} (any factor of A gives the same value; docs/math.md, Gradients).
// For nearby A and B it is much more accurate than the trace formula,
// which cancels to about 1e-16 * tr A absolute. It fails where
// TransportMap fails.
func Bures2Transport(a, b []float64, d int) (float64, error) {
	t, err := TransportMap(a, b, d)
	if err != nil {
		return 0, err
	}
	s := SqrtPSD(a, d)
	ts := MatMul(t, s, d, d, d)
	v := FrobDist(s, ts)
	return v * v, nil
}

// Curve is a path of elliptical measures: mean and scale at time t.
type Curve func(t float64) (mean, scale []float64, err error)

// GeodesicCurve returns the Curve t -> Geodesic(ma, sa, mb, sb, d, t).
func GeodesicCurve(ma, sa, mb, sb []float64, d int) Curve {
	return func(t float64) ([]float64, []float64, error) { return Geodesic(ma, sa, mb, sb, d, t) }
}

// Default step control of MetricDerivative.
const (
	DefaultMDStep = 1e-2 // first half-width h of the central difference
	DefaultMDTol  = 1e-7 // relative agreement of successive estimates
)

// MetricDerivative returns the metric derivative
// |c'|(t) = lim_{h->0} W2(c(t-h), c(t+h)) / (2h) of the curve c of family
// f at t, and an estimate of its absolute error. It halves h, starting at
// h0 (<= 0 means DefaultMDStep), until two successive estimates agree
// within tol (relative; <= 0 means DefaultMDTol) or 16 halvings are done,
// and then returns the last estimate with the last difference as the
// error estimate. Nearby distances are evaluated with Bures2Transport
// (falling back to the trace formula where no map exists) so that the
// difference quotient keeps about 1e-10 relative accuracy.
func MetricDerivative(f Family, c Curve, d int, t, h0, tol float64) (deriv, errEst float64, err error) {
	if h0 <= 0 {
		h0 = DefaultMDStep
	}
	if tol <= 0 {
		tol = DefaultMDTol
	}
	quot := func(h float64) (float64, error) {
		m0, s0, err := c(t - h)
		if err != nil {
			return 0, err
		}
		m1, s1, err := c(t + h)
		if err != nil {
			return 0, err
		}
		b2, err := Bures2Transport(s0, s1, d)
		if err != nil {
			b2 = Bures2(s0, s1, d)
		}
		return math.Sqrt(SqDist(m0, m1)+f.Tau*b2) / (2 * h), nil
	}
	h := h0
	prev, err := quot(h)
	if err != nil {
		return 0, 0, err
	}
	errEst = math.Inf(1)
	for i := 0; i < 16; i++ {
		h /= 2
		cur, err := quot(h)
		if err != nil {
			return 0, 0, err
		}
		errEst = math.Abs(cur - prev)
		prev = cur
		if errEst <= tol*math.Max(cur, 1e-300) {
			break
		}
	}
	return prev, errEst, nil
}
