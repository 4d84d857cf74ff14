package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestGeodesicEndpointsAndSpeed(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	for d := 1; d <= 6; d++ {
		f := Uniform(d)
		ma, mb := randGauss(rng, d), randGauss(rng, d)
		sa := randScale(rng, d, d, 1)
		sb := randScale(rng, d, d, 0.8)
		m0, s0, err := Geodesic(ma, sa, mb, sb, d, 0)
		if err != nil {
			t.Fatal(err)
		}
		m1, s1, _ := Geodesic(ma, sa, mb, sb, d, 1)
		if !(FrobDist(m0, ma) <= 1e-15) || !(relErr(s0, sa, 1) <= 1e-13) {
			t.Errorf("d=%d: c(0) != (a, A)", d)
		}
		if !(FrobDist(m1, mb) <= 1e-14) || !(relErr(s1, sb, 1) <= 1e-9) {
			t.Errorf("d=%d: c(1) != (b, B): %g", d, relErr(s1, sb, 1))
		}
		// Constant speed: W2(c(s), c(t)) = |t - s| W2(a, b) on [0, 1].
		w := W2(f, ma, sa, mb, sb, d)
		ts := []float64{0, 0.2, 0.5, 0.9, 1}
		for i, s := range ts {
			for _, u := range ts[i+1:] {
				ms, ss, _ := Geodesic(ma, sa, mb, sb, d, s)
				mu, su, _ := Geodesic(ma, sa, mb, sb, d, u)
				got := W2(f, ms, ss, mu, su, d)
				if want := (u - s) * w; !(math.Abs(got-want) <= 1e-6*w) {
					t.Errorf("d=%d: W2(c(%v), c(%v)) = %v, want %v", d, s, u, got, want)
				}
			}
		}
		// Extrapolation stays PSD (eigenvalues >= -rounding) for any t.
		for _, tt := range []float64{-2, -1, 1.5, 3, 10} {
			_, st, err := Geodesic(ma, sa, mb, sb, d, tt)
			if err != nil {
				t.Fatal(err)
			}
			ev := EigenvaluesPSD(st, d)
			if ev[0] < -1e-12*math.Max(1, ev[d-1]) {
				t.Errorf("d=%d t=%v: C(t) has eigenvalue %v", d, tt, ev[0])
			}
		}
	}
}

func TestGeodesicDegenerate(t *testing.T) {
	// Dirac to a full measure: T^{AB} does not exist (A = 0), the curve is
	// built from B's end: C(t) = t^2 B (T^{BA} = 0), mean (1-t)a + t b.
	d := 3
	rng := rand.New(rand.NewPCG(31, 32))
	ma, mb := randGauss(rng, d), randGauss(rng, d)
	z := make([]float64, d*d)
	sb := randScale(rng, d, d, 1)
	for _, tt := range []float64{0, 0.3, 1, 2} {
		_, st, err := Geodesic(ma, z, mb, sb, d, tt)
		if err != nil {
			t.Fatalf("t=%v: %v", tt, err)
		}
		want := make([]float64, d*d)
		for i := range want {
			want[i] = tt * tt * sb[i]
		}
		if e := FrobDist(st, want); !(e <= 1e-12*math.Max(1, FrobNorm(want))) {
			t.Errorf("t=%v: C(t) off by %g", tt, e)
		}
	}
	// Two rank-1 scales on different lines: no curve.
	a1 := FactorProduct([]float64{1, 0, 0}, 3, 1, 0)
	b1 := FactorProduct([]float64{0, 1, 0}, 3, 1, 0)
	if _, _, err := Geodesic(ma, a1, mb, b1, 3, 0.5); err == nil {
		t.Error("geodesic between rank-1 scales on different lines: want error")
	}
}

func TestFactorStepIsRiemannianStep(t *testing.T) {
	// ((1-eta) I + eta T) L times its transpose equals the Riemannian step
	// of A = L L^T (docs/math.md, Gradients), for eta inside and outside [0, 1].
	rng := rand.New(rand.NewPCG(33, 34))
	for d := 1; d <= 6; d++ {
		for _, k := range []int{d, d + 1} {
			l := randGauss(rng, d*k)
			a := FactorProduct(l, d, k, 0)
			b := randScale(rng, d, d, 1)
			tm, err := TransportMap(a, b, d)
			if err != nil {
				t.Fatal(err)
			}
			for _, eta := range []float64{-0.5, 0.1, 0.7, 1, 1.8} {
				l2 := FactorStep(l, tm, d, k, eta)
				got := FactorProduct(l2, d, k, 0)
				want, err := RiemannianStep(a, b, d, eta)
				if err != nil {
					t.Fatal(err)
				}
				if e := relErr(got, want, 1); !(e <= 1e-12) {
					t.Errorf("d=%d k=%d eta=%v: factor step vs Riemannian step %g", d, k, eta, e)
				}
				// eta = 1 lands on B.
				if eta == 1 {
					if e := relErr(got, b, 1); !(e <= 1e-9) {
						t.Errorf("d=%d eta=1: step does not reach B (%g)", d, e)
					}
				}
			}
		}
	}
}

func TestMetricDerivative(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	for _, d := range []int{1, 2, 3, 5} {
		f := Uniform(d)
		ma, mb := randGauss(rng, d), randGauss(rng, d)
		sa := randScale(rng, d, d, 1)
		sb := randScale(rng, d, d, 1)
		w := W2(f, ma, sa, mb, sb, d)
		c := GeodesicCurve(ma, sa, mb, sb, d)
		// On [0, 1] the geodesic has constant speed W2(a, b).
		for _, tt := range []float64{0.25, 0.5, 0.75} {
			got, _, err := MetricDerivative(f, c, d, tt, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !(math.Abs(got-w) <= 1e-6*w) {
				t.Errorf("d=%d t=%v: |c'| = %v, want W2 = %v", d, tt, got, w)
			}
		}
		// Outside [0, 1] the speed is at most W2(a, b): C(t) = X X^T with
		// X(t) = ((1-t) I + t T) L linear in t, and Bures(X X^T, Y Y^T) <=
		// |X - Y|_F, so |c'|^2 <= |b-a|^2 + tau |TL - L|_F^2 = W2^2.
		for _, tt := range []float64{-2, -0.5, 1.5, 3} {
			got, _, err := MetricDerivative(f, c, d, tt, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got > w*(1+1e-6) {
				t.Errorf("d=%d t=%v: |c'| = %v exceeds W2 = %v", d, tt, got, w)
			}
		}
	}
	// Commuting scales: the extrapolated curve still has constant speed
	// sqrt(|b-a|^2 + tau sum (sqrt(lb_i) - sqrt(la_i))^2) while
	// (1-t) sqrt(la_i) + t sqrt(lb_i) does not change sign (Hellinger).
	f := Gaussian()
	sa := []float64{4, 0, 0, 1}
	sb := []float64{9, 0, 0, 2.25}
	ma, mb := []float64{0, 0}, []float64{1, 1}
	want := math.Sqrt(2 + 1 + 0.25)
	for _, tt := range []float64{-1.5, 0.5, 4} {
		got, _, err := MetricDerivative(f, GeodesicCurve(ma, sa, mb, sb, 2), 2, tt, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(got-want) <= 1e-7) {
			t.Errorf("commuting t=%v: |c'| = %v, want %v", tt, got, want)
		}
	}
}

// TestMetricDerivativeStepControl checks MetricDerivative on a curve of
// non-constant speed, where the difference quotient depends on h (on a
// geodesic it does not, so the step control goes untested there). Curve:
// c(t) = (e^t v, e^{2t} A). Its scales commute, so (Hellinger case of
// docs/math.md) Bures(e^{2s} A, e^{2u} A) = |e^s - e^u| sqrt(tr A) and
// W2(c(s), c(u)) = |e^s - e^u| K with K = sqrt(|v|^2 + tau tr A): the
// metric derivative is e^t K, and the central quotient with half-width h is
// e^t K sinh(h)/h, relative error h^2/6 (1.7e-5 at the default first
// h = 1e-2), so an estimate that stops before tol is met fails here.
func TestMetricDerivativeStepControl(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for _, d := range []int{1, 2, 3, 5} {
		for _, f := range []Family{Gaussian(), Uniform(d)} {
			v := randGauss(rng, d)
			a := randScale(rng, d, d, 1)
			k := math.Sqrt(SqDist(v, make([]float64, d)) + f.Tau*Trace(a, d))
			c := func(tt float64) ([]float64, []float64, error) {
				m := make([]float64, d)
				for i := range m {
					m[i] = math.Exp(tt) * v[i]
				}
				s := make([]float64, d*d)
				for i := range s {
					s[i] = math.Exp(2*tt) * a[i]
				}
				return m, s, nil
			}
			for _, tt := range []float64{-1, 0, 0.7} {
				want := math.Exp(tt) * k
				got, errEst, err := MetricDerivative(f, c, d, tt, 0, 0)
				if err != nil {
					t.Fatal(err)
				}
				// Default tol 1e-7: the last estimate is within about
				// 1e-7 relative, and errEst (the last change) bounds the
				// true error, since the error shrinks by 4 per halving.
				if !(math.Abs(got-want) <= 5e-7*want) {
					t.Errorf("d=%d %s t=%v: |c'| = %.12g, want e^t K = %.12g", d, f.Name, tt, got, want)
				}
				if !(math.Abs(got-want) <= errEst+1e-9*want) || !(errEst <= 1e-6*want) {
					t.Errorf("d=%d %s t=%v: error estimate %.3g, true error %.3g", d, f.Name, tt, errEst, math.Abs(got-want))
				}
			}
		}
	}
}

func TestBures2Transport(t *testing.T) {
	// Nearby matrices: the transport form keeps relative accuracy where the
	// trace formula cancels. Reference: commuting A and B = (1+h)^2 A give
	// Bures^2 = h^2 tr A exactly.
	d := 4
	rng := rand.New(rand.NewPCG(37, 38))
	a := randScale(rng, d, d, 1)
	for _, h := range []float64{1e-2, 1e-5, 1e-7} {
		b := make([]float64, d*d)
		for i := range b {
			b[i] = (1 + h) * (1 + h) * a[i]
		}
		want := h * h * Trace(a, d)
		got, err := Bures2Transport(a, b, d)
		if err != nil {
			t.Fatal(err)
		}
		// T = (1+h) I is computed with error ~1e-16 cond(A), so the
		// relative error of |S - TS|^2 is about 1e-16 cond(A) / h.
		ev := EigenvaluesPSD(a, d)
		if tol := 1e-14 * ev[d-1] / ev[0] / h; !(math.Abs(got-want) <= tol*want) {
			t.Errorf("h=%g: Bures2Transport = %v, want %v", h, got, want)
		}
	}
}

// RiemannianStep is RiemannianStepMap with T = TransportMap(a, b, d).
func RiemannianStep(a, b []float64, d int, eta float64) ([]float64, error) {
	t, err := TransportMap(a, b, d)
	if err != nil {
		return nil, err
	}
	return RiemannianStepMap(a, t, d, eta), nil
}

// FactorStep returns ((1-eta) I + eta T) L for the d x k factor l: the
// Euclidean gradient step on the factor, which equals the Riemannian step
// on A = L L^T (docs/math.md, Gradients).
func FactorStep(l, t []float64, d, k int, eta float64) []float64 {
	return MatMul(stepMatrix(t, d, eta), l, d, d, k)
}
