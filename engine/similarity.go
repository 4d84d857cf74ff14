package engine

import (
	"math"
)

// DotProduct returns the Wasserstein-Bures pseudo dot product
// [mu_a : mu_b] = <a, b> + tr (A^{1/2} B A^{1/2})^{1/2} of two measures
// whose covariances are the scales A and B themselves (tau = 1: the
// Gaussian family, and the hypernymy model); PseudoDot is the definition
// for every family.
func DotProduct(ma, sa, mb, sb []float64, d int) float64 {
	return PseudoDot(Family{Tau: 1}, ma, sa, mb, sb, d, 1)
}

// PseudoDot returns the Wasserstein-Bures pseudo dot product of two
// measures of family f with means ma, mb and scales sa, sb (covariances
// f.Tau * scale), with covariance weight rho (docs/hypernymy.md):
//
//	[mu_a : mu_b]_rho = <a, b> + rho tau tr (A^{1/2} B A^{1/2})^{1/2}.
//
// With rho = 1 it is the polarisation of W2^2 against the Dirac at 0,
// (W2^2(mu_a, delta_0) + W2^2(mu_b, delta_0) - W2^2(mu_a, mu_b)) / 2, for
// every family: the cross term of the covariances tau A and tau B is
// tau tr (A^{1/2} B A^{1/2})^{1/2}. A zero Tau counts as 1.
func PseudoDot(f Family, ma, sa, mb, sb []float64, d int, rho float64) float64 {
	tau := f.Tau
	if tau == 0 {
		tau = 1
	}
	return Dot(ma, mb) + rho*tau*CrossTrace(sa, sb, d)
}

// BuresCosine returns the Wasserstein-Bures cosine with mixing weight rho
// (paper, supplementary "Wasserstein-Bures Cosine"; docs/math.md):
//
//	(<a,b> + rho X) / sqrt(|a|^2 + rho tr A) / sqrt(|b|^2 + rho tr B),
//
// X = tr (A^{1/2} B A^{1/2})^{1/2}. It is 0 when a denominator is 0.
func BuresCosine(ma, sa, mb, sb []float64, d int, rho float64) float64 {
	na := math.Sqrt(Dot(ma, ma) + rho*Trace(sa, d))
	nb := math.Sqrt(Dot(mb, mb) + rho*Trace(sb, d))
	if !(na > 0 && nb > 0) {
		return 0
	}
	return (Dot(ma, mb) + rho*CrossTrace(sa, sb, d)) / (na * nb)
}

// MixtureCosine returns the paper's mixture of cosines S_B with weight rho
// (docs/math.md; the paper's word-similarity measure uses rho = 1):
//
//	<a,b>/(|a||b|) + rho X / sqrt(tr A tr B),
//
// X = tr (A^{1/2} B A^{1/2})^{1/2}. A term whose denominator is 0 counts 0.
func MixtureCosine(ma, sa, mb, sb []float64, d int, rho float64) float64 {
	var s float64
	if nn := math.Sqrt(Dot(ma, ma) * Dot(mb, mb)); nn > 0 {
		s += Dot(ma, mb) / nn
	}
	if tt := math.Sqrt(Trace(sa, d) * Trace(sb, d)); tt > 0 {
		s += rho * CrossTrace(sa, sb, d) / tt
	}
	return s
}
