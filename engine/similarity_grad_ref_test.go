package engine

import (
	"fmt"
	"math"
)

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
