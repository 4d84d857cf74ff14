package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// fdGrad returns the central finite-difference gradient of f at x (step h
// relative to max(1, |x_i|)); x is restored afterwards.
func fdGrad(f func(x []float64) float64, x []float64, h float64) []float64 {
	g := make([]float64, len(x))
	for i := range x {
		xi := x[i]
		s := h * math.Max(1, math.Abs(xi))
		x[i] = xi + s
		fp := f(x)
		x[i] = xi - s
		fm := f(x)
		x[i] = xi
		g[i] = (fp - fm) / (2 * s)
	}
	return g
}

// gradCase is one configuration of the finite-difference checks: a measure
// mu(ma, L L^T + eps I) with a d x k factor against mu(mb, sb).
type gradCase struct {
	name   string
	d, k   int
	eps    float64
	ma, la []float64
	mb, sb []float64
}

// gradCases covers eps = 0 (full-rank factors only: the gradient does not
// exist at singular A) and eps = 1e-2 (also rank-deficient k < d factors),
// for d = 1..5, B full rank and rank-deficient.
func gradCases(rng *rand.Rand) []gradCase {
	var cs []gradCase
	for d := 1; d <= 5; d++ {
		for _, eps := range []float64{0, 1e-2} {
			ks := []int{d, d + 1}
			if eps > 0 && d > 1 {
				ks = append(ks, d-1)
			}
			for _, k := range ks {
				for _, rb := range []int{d, d - 1} {
					if rb == 0 {
						continue
					}
					cs = append(cs, gradCase{
						name: fmt.Sprintf("d=%d k=%d eps=%g rankB=%d", d, k, eps, rb),
						d:    d, k: k, eps: eps,
						ma: randGauss(rng, d), la: randGauss(rng, d*k),
						mb: randGauss(rng, d), sb: randScale(rng, d, rb, 1),
					})
				}
			}
		}
	}
	return cs
}

// checkGrad compares analytic gradients with finite differences of value
// with respect to the mean and the factor.
func checkGrad(t *testing.T, name string, c gradCase, gMean, gL []float64,
	value func(ma, la []float64) float64) {
	t.Helper()
	const h, tol = 1e-6, 1e-6
	fdM := fdGrad(func(x []float64) float64 { return value(x, c.la) }, c.ma, h)
	fdL := fdGrad(func(x []float64) float64 { return value(c.ma, x) }, c.la, h)
	if e := FrobDist(gMean, fdM); !(e <= tol*math.Max(1, FrobNorm(fdM))) {
		t.Errorf("%s %s: d/dmean off by %g (analytic %v, fd %v)", name, c.name, e, gMean, fdM)
	}
	if e := FrobDist(gL, fdL); !(e <= tol*math.Max(1, FrobNorm(fdL))) {
		t.Errorf("%s %s: d/dL off by %g (analytic %v, fd %v)", name, c.name, e, gL, fdL)
	}
}

func TestW2Gradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, c := range gradCases(rng) {
		f := Uniform(c.d)
		w2sq := func(ma, la []float64) float64 {
			return W2Squared(f, ma, FactorProduct(la, c.d, c.k, c.eps), c.mb, c.sb, c.d)
		}
		v, gm, gl, err := W2SquaredGrad(f, c.ma, c.la, c.k, c.eps, c.mb, c.sb, c.d)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if want := w2sq(c.ma, c.la); !(math.Abs(v-want) <= 1e-12*math.Max(1, want)) {
			t.Errorf("%s: W2^2 value %v, want %v", c.name, v, want)
		}
		checkGrad(t, "W2^2", c, gm, gl, w2sq)

		w, gm, gl, err := W2Grad(f, c.ma, c.la, c.k, c.eps, c.mb, c.sb, c.d)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if want := math.Sqrt(w2sq(c.ma, c.la)); !(math.Abs(w-want) <= 1e-12*math.Max(1, want)) {
			t.Errorf("%s: W2 value %v, want %v", c.name, w, want)
		}
		checkGrad(t, "W2", c, gm, gl, func(ma, la []float64) float64 { return math.Sqrt(w2sq(ma, la)) })
	}
}

func TestW2GradAtZero(t *testing.T) {
	// mu against itself: W2 = 0, zero (sub)gradient, no NaN.
	l := []float64{1, 0.2, 0, 1}
	m := []float64{0.5, -0.5}
	w, gm, gl, err := W2Grad(Gaussian(), m, l, 2, 0, m, FactorProduct(l, 2, 2, 0), 2)
	if err != nil {
		t.Fatal(err)
	}
	if w > 1e-7 || FrobNorm(gm) != 0 || FrobNorm(gl) > 1 || !Finite(gl) {
		t.Errorf("W2Grad at coincident measures: w=%v gm=%v gl=%v", w, gm, gl)
	}
}

func TestW2GradNoMap(t *testing.T) {
	// eps = 0 and rank-1 A against a full-rank B: the gradient does not
	// exist (Im B not in Im A), an error is returned.
	_, _, _, err := W2SquaredGrad(Gaussian(), []float64{0, 0}, []float64{1, 0}, 1, 0,
		[]float64{1, 1}, identity(2), 2)
	if err == nil {
		t.Error("want an error for singular A with Im B outside Im A")
	}
}

func TestBuresGradScale(t *testing.T) {
	// d/dA Bures^2(A, B) = I - T^{AB}: directional derivative along a
	// random symmetric E equals <I - T, E>, checked by central differences.
	rng := rand.New(rand.NewPCG(43, 44))
	for d := 1; d <= 6; d++ {
		a := randScale(rng, d, d, 1)
		b := randScale(rng, d, d, 1)
		g, err := BuresGradScale(a, b, d)
		if err != nil {
			t.Fatal(err)
		}
		e := Symmetrize(randGauss(rng, d*d), d)
		const h = 1e-6
		ap, am := make([]float64, d*d), make([]float64, d*d)
		for i := range a {
			ap[i] = a[i] + h*e[i]
			am[i] = a[i] - h*e[i]
		}
		fd := (Bures2(ap, b, d) - Bures2(am, b, d)) / (2 * h)
		if got := Dot(g, e); !(math.Abs(got-fd) <= 1e-6*math.Max(1, math.Abs(fd))) {
			t.Errorf("d=%d: <grad, E> = %v, fd %v", d, got, fd)
		}
	}
}

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
