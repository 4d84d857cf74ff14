package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestDotProductPolarisation(t *testing.T) {
	// [mu_a : mu_b] is the polarisation of W2^2 (tau = 1) against the Dirac
	// at 0 (docs/math.md): 2 [a:b] = W2^2(a, d0) + W2^2(b, d0) - W2^2(a, b).
	rng := rand.New(rand.NewPCG(51, 52))
	g := Gaussian()
	for d := 1; d <= 6; d++ {
		zm, zs := make([]float64, d), make([]float64, d*d)
		for _, rb := range []int{d, d / 2} {
			ma, mb := randGauss(rng, d), randGauss(rng, d)
			sa, sb := randScale(rng, d, d, 1), randScale(rng, d, rb, 1)
			want := 0.5 * (W2Squared(g, ma, sa, zm, zs, d) + W2Squared(g, mb, sb, zm, zs, d) - W2Squared(g, ma, sa, mb, sb, d))
			if got := DotProduct(ma, sa, mb, sb, d); !(math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))) {
				t.Errorf("d=%d rankB=%d: [a:b] = %v, polarisation %v", d, rb, got, want)
			}
		}
	}
}

func TestCosineValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 54))
	for d := 1; d <= 5; d++ {
		m := randGauss(rng, d)
		s := randScale(rng, d, d, 1)
		// A measure against itself: cos_B = 1 for any rho; S_B = 1 + rho
		// (both traces equal tr A and the cross term is tr A).
		for _, rho := range []float64{0.5, 1, 3} {
			if got := BuresCosine(m, s, m, s, d, rho); !(math.Abs(got-1) <= 1e-9) {
				t.Errorf("d=%d rho=%v: cos_B(mu, mu) = %v", d, rho, got)
			}
			if got := MixtureCosine(m, s, m, s, d, rho); !(math.Abs(got-1-rho) <= 1e-9) {
				t.Errorf("d=%d rho=%v: S_B(mu, mu) = %v", d, rho, got)
			}
		}
	}
	// Hand-computed diagonal case: a = (1,0), b = (1,1), A = diag(4,1),
	// B = diag(1,9); cross term = sqrt(4*1) + sqrt(1*9) = 5; tr A = 5,
	// tr B = 10. S_B = 1/sqrt2 + rho 5/sqrt(50); cos_B = (1 + 5 rho) /
	// sqrt(1 + 5 rho) / sqrt(2 + 10 rho) = 1/sqrt2.
	a, b := []float64{1, 0}, []float64{1, 1}
	sa, sb := []float64{4, 0, 0, 1}, []float64{1, 0, 0, 9}
	for _, rho := range []float64{0.5, 2} {
		if got, want := MixtureCosine(a, sa, b, sb, 2, rho), 1/math.Sqrt2+rho*5/math.Sqrt(50); !(math.Abs(got-want) <= 1e-14) {
			t.Errorf("S_B = %v, want %v", got, want)
		}
		if got, want := BuresCosine(a, sa, b, sb, 2, rho), 1/math.Sqrt2; !(math.Abs(got-want) <= 1e-14) {
			t.Errorf("cos_B = %v, want %v", got, want)
		}
	}
	// Zero denominators count as 0.
	z := []float64{0, 0}
	zs := []float64{0, 0, 0, 0}
	if got := MixtureCosine(z, zs, b, sb, 2, 1); got != 0 {
		t.Errorf("S_B with a Dirac at 0 = %v, want 0", got)
	}
	if got := BuresCosine(z, zs, b, sb, 2, 1); got != 0 {
		t.Errorf("cos_B with a Dirac at 0 = %v, want 0", got)
	}
}

func TestSimilarityGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	for _, c := range gradCases(rng) {
		scale := func(la []float64) []float64 { return FactorProduct(la, c.d, c.k, c.eps) }
		v, gm, gl, err := DotProductGrad(c.ma, c.la, c.k, c.eps, c.mb, c.sb, c.d)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		dot := func(ma, la []float64) float64 { return DotProduct(ma, scale(la), c.mb, c.sb, c.d) }
		if want := dot(c.ma, c.la); !(math.Abs(v-want) <= 1e-12*math.Max(1, math.Abs(want))) {
			t.Errorf("%s: dot value %v, want %v", c.name, v, want)
		}
		checkGrad(t, "dot", c, gm, gl, dot)
		for _, rho := range []float64{0.3, 1} {
			v, gm, gl, err := BuresCosineGrad(c.ma, c.la, c.k, c.eps, c.mb, c.sb, c.d, rho)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			cos := func(ma, la []float64) float64 { return BuresCosine(ma, scale(la), c.mb, c.sb, c.d, rho) }
			if want := cos(c.ma, c.la); !(math.Abs(v-want) <= 1e-12) {
				t.Errorf("%s: cos_B value %v, want %v", c.name, v, want)
			}
			checkGrad(t, "cos_B", c, gm, gl, cos)
			v, gm, gl, err = MixtureCosineGrad(c.ma, c.la, c.k, c.eps, c.mb, c.sb, c.d, rho)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			mix := func(ma, la []float64) float64 { return MixtureCosine(ma, scale(la), c.mb, c.sb, c.d, rho) }
			if want := mix(c.ma, c.la); !(math.Abs(v-want) <= 1e-12) {
				t.Errorf("%s: S_B value %v, want %v", c.name, v, want)
			}
			checkGrad(t, "S_B", c, gm, gl, mix)
		}
	}
}

// TestPseudoDotPolarisation checks PseudoDot against the polarisation of
// W2^2 (W2Squared, independent of the cross-trace code path's use here)
// against the Dirac at 0, for every family: [mu:nu]_1 =
// (W2^2(mu, delta_0) + W2^2(nu, delta_0) - W2^2(mu, nu)) / 2, and that
// rho scales the covariance term alone.
func TestPseudoDotPolarisation(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, d := range []int{1, 2, 3, 5} {
		for _, f := range []Family{Gaussian(), Uniform(d), CustomFamily(0.37)} {
			t.Run(fmt.Sprintf("d=%d/%s", d, f.Name), func(t *testing.T) {
				zero, dirac := make([]float64, d), make([]float64, d*d)
				for trial := 0; trial < 5; trial++ {
					ma, mb := make([]float64, d), make([]float64, d)
					for i := range ma {
						ma[i], mb[i] = rng.NormFloat64(), rng.NormFloat64()
					}
					la, lb := make([]float64, d*d), make([]float64, d*d)
					for i := range la {
						la[i], lb[i] = rng.NormFloat64(), rng.NormFloat64()
					}
					sa, sb := FactorProduct(la, d, d, 0), FactorProduct(lb, d, d, 0)
					want := (W2Squared(f, ma, sa, zero, dirac, d) + W2Squared(f, mb, sb, zero, dirac, d) - W2Squared(f, ma, sa, mb, sb, d)) / 2
					got := PseudoDot(f, ma, sa, mb, sb, d, 1)
					scale := 1 + math.Abs(want) + Trace(sa, d) + Trace(sb, d)
					if !(math.Abs(got-want) <= 1e-9*scale) {
						t.Errorf("[mu:nu] = %v, polarisation of W2^2 = %v", got, want)
					}
					if g2 := PseudoDot(f, ma, sa, mb, sb, d, 2.5); !(math.Abs(g2-Dot(ma, mb)-2.5*(got-Dot(ma, mb))) <= 1e-12*scale) {
						t.Errorf("rho = 2.5: %v, want %v", g2, Dot(ma, mb)+2.5*(got-Dot(ma, mb)))
					}
				}
			})
		}
	}
}
