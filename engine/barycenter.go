package engine

import (
	"fmt"
	"math"

	"burescope/engine/pairkernel"
)

// BarycenterOptions bounds the fixed-point iteration of Barycenter.
type BarycenterOptions struct {
	// Tol is the stopping tolerance on the relative fixed-point residual
	// |S - sum_i w_i (S^1/2 C_i S^1/2)^1/2|_F / |S|_F; <= 0 means
	// DefaultBarycenterTol.
	Tol float64
	// MaxIter bounds the iterations; <= 0 means DefaultBarycenterMaxIter.
	MaxIter int
}

// Defaults of BarycenterOptions.
const (
	DefaultBarycenterTol     = 1e-12
	DefaultBarycenterMaxIter = 1000
)

// BarycenterResult is the 2-Wasserstein barycenter of weighted elliptical
// measures of one family.
type BarycenterResult struct {
	Mean       []float64 // d: the weighted mean of the means
	Scale      []float64 // d*d: the scale S (covariance = tau S)
	Iterations int       // fixed-point iterations taken
	Residual   float64   // relative fixed-point residual at Scale
}

// Barycenter returns the 2-Wasserstein barycenter of the measures with
// means ms[i] and scales cs[i] (d and d*d each) under weights w (nil
// means equal weights; otherwise non-negative with a positive sum, and
// normalised here). For measures of one elliptical family the barycenter
// is of that family (Agueh & Carlier 2011; Alvarez-Esteban et al. 2016):
// its mean is sum_i w_i m_i and its scale S solves
//
//	S = sum_i w_i (S^1/2 C_i S^1/2)^1/2.
//
// S is found by the iteration of Alvarez-Esteban et al. (2016, Theorem
// 4.2), S <- S^-1/2 (sum_i w_i (S^1/2 C_i S^1/2)^1/2)^2 S^-1/2, started at
// (sum_i w_i C_i^1/2)^2, which is already the barycenter when the C_i
// commute (so commuting scales, Diracs included, take zero iterations).
// It stops when the relative residual of the fixed-point equation is at
// most opt.Tol. Scales are used through their symmetric part; the tau of
// the family does not change the barycenter of the scales (docs/mds.md,
// Barycenters).
func Barycenter(ms, cs [][]float64, w []float64, d int, opt BarycenterOptions) (*BarycenterResult, error) {
	n := len(ms)
	if d < 1 {
		return nil, fmt.Errorf("barycenter: dimension %d < 1", d)
	}
	if n == 0 {
		return nil, fmt.Errorf("barycenter: no measures")
	}
	if len(cs) != n {
		return nil, fmt.Errorf("barycenter: %d means but %d scales", n, len(cs))
	}
	wts, err := barycenterWeights(w, n)
	if err != nil {
		return nil, err
	}
	tol := opt.Tol
	if tol <= 0 {
		tol = DefaultBarycenterTol
	}
	maxIter := opt.MaxIter
	if maxIter <= 0 {
		maxIter = DefaultBarycenterMaxIter
	}
	mean := make([]float64, d)
	roots := make([][]float64, n)
	start := make([]float64, d*d)
	for i := 0; i < n; i++ {
		if len(ms[i]) != d || len(cs[i]) != d*d {
			return nil, fmt.Errorf("barycenter: measure %d has %d mean and %d scale values (want %d and %d)", i, len(ms[i]), len(cs[i]), d, d*d)
		}
		if !Finite(ms[i]) || !Finite(cs[i]) {
			return nil, fmt.Errorf("barycenter: measure %d has a non-finite entry", i)
		}
		for k, v := range ms[i] {
			mean[k] += wts[i] * v
		}
		roots[i] = SqrtPSD(cs[i], d)
		for k, v := range roots[i] {
			start[k] += wts[i] * v
		}
	}
	res := &BarycenterResult{Mean: mean}
	s := Symmetrize(MatMul(start, start, d, d, d), d)
	sym := make([][]float64, n)
	for i, c := range cs {
		sym[i] = Symmetrize(append([]float64(nil), c...), d)
	}
	bw := newBarycenterWork(d)
	var r float64
	for it := 0; ; it++ {
		var sum []float64
		r, sum = bw.residual(s, sym, wts)
		if r <= tol || it >= maxIter {
			res.Iterations = it
			break
		}
		_, inv, _ := RootsPSD(s, d, 0)
		sum2 := Symmetrize(MatMul(sum, sum, d, d, d), d)
		next := Symmetrize(mul3(inv, sum2, inv, d), d)
		if !Finite(next) {
			return nil, fmt.Errorf("barycenter: iteration %d is not finite", it)
		}
		s = next
	}
	res.Scale, res.Residual = s, r
	return res, nil
}

// barycenterWeights validates w and returns it normalised to sum 1.
func barycenterWeights(w []float64, n int) ([]float64, error) {
	out := make([]float64, n)
	if w == nil {
		for i := range out {
			out[i] = 1 / float64(n)
		}
		return out, nil
	}
	if len(w) != n {
		return nil, fmt.Errorf("barycenter: %d weights for %d measures", len(w), n)
	}
	// In units of the largest weight first, so that the sum neither
	// overflows (1e308 twice) nor loses subnormal weights.
	var top float64
	for i, v := range w {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("barycenter: weight %d is %v (want finite and >= 0)", i, v)
		}
		top = math.Max(top, v)
	}
	if !(top > 0) {
		return nil, fmt.Errorf("barycenter: every weight is 0 (want at least one > 0)")
	}
	var sum float64
	for i, v := range w {
		out[i] = v / top
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out, nil
}

// barycenterWork is the scratch memory of the fixed-point residual.
type barycenterWork struct {
	d        int
	ws       *pairkernel.Workspace
	root, gi []float64 // S^{1/2} and its pseudo-inverse
}

func newBarycenterWork(d int) *barycenterWork {
	return &barycenterWork{d: d, ws: pairkernel.NewWorkspace(d), root: make([]float64, d*d), gi: make([]float64, d*d)}
}

// residual returns the relative residual
// |S - sum_i w_i (S^1/2 C_i S^1/2)^1/2|_F / |S|_F of the fixed-point
// equation at s (0 when both are zero) and the sum itself (a new slice).
// The C_i (cs) must be symmetric; the roots are the pair kernel's
// (engine/pairkernel: S^{1/2} once, then one eigendecomposition of
// S^{1/2} C_i S^{1/2} per measure).
func (b *barycenterWork) residual(s []float64, cs [][]float64, w []float64) (float64, []float64) {
	d := b.d
	sh := b.ws.RootFactor(s, b.root, b.gi)
	sum := make([]float64, d*d)
	for i, c := range cs {
		if w[i] == 0 {
			continue
		}
		b.ws.Eigen(b.root, sh, c)
		b.ws.AddRoot(sum, w[i])
	}
	pairkernel.Mirror(sum, d)
	num, den := FrobDist(s, sum), FrobNorm(s)
	if den == 0 {
		if num == 0 {
			return 0, sum
		}
		return math.Inf(1), sum
	}
	return num / den, sum
}

// BarycenterOf returns the barycenter of the measures idx of e under
// weights w (nil: equal); see Barycenter.
func (e *Embedding) BarycenterOf(idx []int, w []float64, opt BarycenterOptions) (*BarycenterResult, error) {
	ms := make([][]float64, len(idx))
	cs := make([][]float64, len(idx))
	for k, i := range idx {
		if i < 0 || i >= e.Len() {
			return nil, fmt.Errorf("barycenter: item index %d out of range [0, %d)", i, e.Len())
		}
		ms[k], cs[k] = e.Mean(i), e.Scale(i)
	}
	return Barycenter(ms, cs, w, e.Dim, opt)
}
