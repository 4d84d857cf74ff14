package engine

import (
	"fmt"
	"math"
)

// DotProduct returns the Wasserstein-Bures pseudo dot product
// [mu_a : mu_b] = <a, b> + tr (A^{1/2} B A^{1/2})^{1/2} of two measures
// whose covariances are the scales A and B themselves (tau = 1: the
// Gaussian family, and the hypernymy model); PseudoDot is the definition
// for every family.
func DotProduct(ma, sa, mb, sb []float64, d int) float64 {
	return Dot(ma, mb) + CrossTrace(sa, sb, d)
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

// DotProductGrad returns [mu_a : mu_b] for mu_a = mu(ma, L L^T + eps I)
// and its gradients: d/dma = mb and d/dL = T^{A_eps B} L (docs/math.md). The
// error is that of TransportMap (singular A_eps and Im B outside Im A).
func DotProductGrad(ma, la []float64, k int, eps float64, mb, sb []float64, d int) (dot float64, gMean, gL []float64, err error) {
	a := FactorProduct(la, d, k, eps)
	t, err := TransportMap(a, sb, d)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("dot product gradient: %w", err)
	}
	dot = Dot(ma, mb) + CrossTrace(a, sb, d)
	gMean = append([]float64(nil), mb...)
	gL = MatMul(t, la, d, d, k)
	return dot, gMean, gL, nil
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

// BuresCosineGrad returns BuresCosine for mu_a = mu(ma, L L^T + eps I) and
// its gradients with respect to ma and L. With N the numerator and
// na, nb the norms: dN/dma = mb, dN/dL = rho T L, dna/dma = ma/na,
// dna/dL = rho L/na, and d cos = dN/(na nb) - N dna/(na^2 nb).
func BuresCosineGrad(ma, la []float64, k int, eps float64, mb, sb []float64, d int, rho float64) (cos float64, gMean, gL []float64, err error) {
	a := FactorProduct(la, d, k, eps)
	na := math.Sqrt(Dot(ma, ma) + rho*Trace(a, d))
	nb := math.Sqrt(Dot(mb, mb) + rho*Trace(sb, d))
	gMean = make([]float64, d)
	gL = make([]float64, d*k)
	if !(na > 0 && nb > 0) {
		return 0, gMean, gL, nil
	}
	t, err := TransportMap(a, sb, d)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("Bures cosine gradient: %w", err)
	}
	num := Dot(ma, mb) + rho*CrossTrace(a, sb, d)
	cos = num / (na * nb)
	tl := MatMul(t, la, d, d, k)
	for i := range gMean {
		gMean[i] = mb[i]/(na*nb) - num*ma[i]/(na*na*na*nb)
	}
	for i := range gL {
		gL[i] = rho*tl[i]/(na*nb) - num*rho*la[i]/(na*na*na*nb)
	}
	return cos, gMean, gL, nil
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

// MixtureCosineGrad returns MixtureCosine for mu_a = mu(ma, L L^T + eps I)
// and its gradients with respect to ma and L:
// d/dma = mb/(|a||b|) - <a,b> ma/(|a|^3 |b|) and, with s = sqrt(tr A tr B),
// d/dL = rho (T L / s - X L / (tr A s)).
func MixtureCosineGrad(ma, la []float64, k int, eps float64, mb, sb []float64, d int, rho float64) (sim float64, gMean, gL []float64, err error) {
	a := FactorProduct(la, d, k, eps)
	gMean = make([]float64, d)
	gL = make([]float64, d*k)
	an, bn := math.Sqrt(Dot(ma, ma)), math.Sqrt(Dot(mb, mb))
	if an > 0 && bn > 0 {
		ab := Dot(ma, mb)
		sim += ab / (an * bn)
		for i := range gMean {
			gMean[i] = mb[i]/(an*bn) - ab*ma[i]/(an*an*an*bn)
		}
	}
	ta, tb := Trace(a, d), Trace(sb, d)
	if s := math.Sqrt(ta * tb); s > 0 {
		t, err := TransportMap(a, sb, d)
		if err != nil {
			return 0, nil, nil, fmt.Errorf("mixture cosine gradient: %w", err)
		}
		x := CrossTrace(a, sb, d)
		sim += rho * x / s
		tl := MatMul(t, la, d, d, k)
		for i := range gL {
			gL[i] = rho * (tl[i]/s - x*la[i]/(ta*s))
		}
	}
	return sim, gMean, gL, nil
}
