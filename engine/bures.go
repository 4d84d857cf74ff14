package engine

import (
	"math"
	"sync"

	"burescope/engine/pairkernel"
)

// CrossTrace returns tr (A^{1/2} B A^{1/2})^{1/2} for symmetric PSD d x d
// matrices a and b, exactly (two symmetric eigendecompositions). It is
// symmetric in a and b, finite for any PSD input (rank-deficient or zero
// included), and is the cross term of Bures^2 and of the pseudo dot
// product [mu : nu].
func CrossTrace(a, b []float64, d int) float64 {
	if d == 1 {
		return math.Sqrt(math.Max(a[0], 0) * math.Max(b[0], 0))
	}
	return crossTraceRoot(SqrtPSD(a, d), b, d)
}

// crossTraceRoot is CrossTrace given sa = A^{1/2}.
func crossTraceRoot(sa, b []float64, d int) float64 {
	m := Symmetrize(mul3(sa, b, sa, d), d)
	vals, _, ok := symEig(m, d)
	if !ok {
		return math.NaN()
	}
	// Eigenvalues at rounding level are the exact zeros of a rank-deficient
	// product; dropping them removes their ~1e-8 spurious square roots.
	cut := roundingCut * vals[d-1]
	var s float64
	for _, l := range vals {
		if l > cut && l > 0 {
			s += math.Sqrt(l)
		}
	}
	return s
}

// Bures2 returns the squared Bures distance
// tr(A + B - 2 (A^{1/2} B A^{1/2})^{1/2}) between symmetric PSD d x d
// matrices (docs/math.md, Distance), computed exactly by symmetric
// eigendecomposition. It is exact for rank-deficient and zero matrices;
// round-off below zero is clamped to 0.
func Bures2(a, b []float64, d int) float64 {
	v := Trace(a, d) + Trace(b, d) - 2*CrossTrace(a, b, d)
	return math.Max(v, 0)
}

// Bures2x2 returns Bures^2 between symmetric PSD 2 x 2 matrices in closed
// form without allocating: tr (A^{1/2} B A^{1/2})^{1/2} =
// sqrt(tr(AB) + 2 sqrt(det A det B)), the d = 2 square-root formula of
// docs/math.md applied to M = A^{1/2} B A^{1/2} (tr M = tr AB, det M = det A det B).
func Bures2x2(a, b []float64) float64 {
	a01 := 0.5 * (a[1] + a[2])
	b01 := 0.5 * (b[1] + b[2])
	trAB := a[0]*b[0] + 2*a01*b01 + a[3]*b[3]
	detA := math.Max(a[0]*a[3]-a01*a01, 0)
	detB := math.Max(b[0]*b[3]-b01*b01, 0)
	x := math.Sqrt(math.Max(trAB+2*math.Sqrt(detA*detB), 0))
	return math.Max(a[0]+a[3]+b[0]+b[3]-2*x, 0)
}

// Bures2x3 returns Bures^2 between symmetric PSD 3 x 3 matrices in closed
// form without allocating: A^{1/2} by sqrt3x3Into, then the eigenvalues
// of A^{1/2} B A^{1/2} by eig3 (the trigonometric solution of the
// characteristic cubic). Accuracy degrades for nearly rank-1 A; Bures2 is
// the exact reference.
func Bures2x3(a, b []float64) float64 {
	var ma, s [9]float64
	copy(ma[:], a[:9])
	for i := 0; i < 3; i++ {
		for j := 0; j < i; j++ {
			v := 0.5 * (ma[i*3+j] + ma[j*3+i])
			ma[i*3+j], ma[j*3+i] = v, v
		}
	}
	sqrt3x3Into(&s, &ma)
	// M = S B S (symmetric): compute SB then (SB) S.
	var sb, m [9]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			sb[i*3+j] = s[i*3]*b[j] + s[i*3+1]*b[3+j] + s[i*3+2]*b[6+j]
		}
	}
	for i := 0; i < 3; i++ {
		for j := i; j < 3; j++ {
			v := sb[i*3]*s[j] + sb[i*3+1]*s[3+j] + sb[i*3+2]*s[6+j]
			m[i*3+j], m[j*3+i] = v, v
		}
	}
	e := eig3(m[0], m[1], m[2], m[4], m[5], m[8])
	x := math.Sqrt(math.Max(e[0], 0)) + math.Sqrt(math.Max(e[1], 0)) + math.Sqrt(math.Max(e[2], 0))
	return math.Max(a[0]+a[4]+a[8]+b[0]+b[4]+b[8]-2*x, 0)
}

// Bures2Fast returns Bures^2 using the closed forms for d <= 3 (Bures2x2,
// Bures2x3) and the pair kernel (engine/pairkernel: a factor of A, then
// the eigenvalues of F^T B F) otherwise; Bures2 is the reference.
func Bures2Fast(a, b []float64, d int) float64 {
	switch d {
	case 1:
		x := math.Sqrt(math.Max(a[0], 0)) - math.Sqrt(math.Max(b[0], 0))
		return x * x
	case 2:
		return Bures2x2(a, b)
	case 3:
		return Bures2x3(a, b)
	}
	w, _ := bures2Pool.Get().(*bures2Work)
	if w == nil || w.ws.Dim() != d {
		w = &bures2Work{ws: pairkernel.NewWorkspace(d)}
		w.it.Reset(2, d)
	}
	w.it.Set(w.ws, 0, a, 1)
	w.it.Set(w.ws, 1, b, 1)
	v := math.Max(w.it.Trace(0)+w.it.Trace(1)-2*w.it.TraceRoot(w.ws, 0, 1), 0)
	bures2Pool.Put(w)
	return v
}

// bures2Work is Bures2Fast's scratch for d >= 4, reused through
// bures2Pool so that callers in pair loops (sampled pair sources, mean
// sharing) allocate nothing per pair.
type bures2Work struct {
	ws *pairkernel.Workspace
	it pairkernel.Items
}

var bures2Pool sync.Pool

// W2Squared returns the squared 2-Wasserstein distance between the
// elliptical measures mu(ma, sa) and mu(mb, sb) of family f in R^d:
// |ma - mb|^2 + tau * Bures^2(sa, sb) (docs/math.md, Distance). sa and sb are
// scales (not covariances); either may be rank-deficient or zero (Dirac).
func W2Squared(f Family, ma, sa, mb, sb []float64, d int) float64 {
	return SqDist(ma, mb) + f.Tau*Bures2(sa, sb, d)
}

// W2 returns the 2-Wasserstein distance sqrt(W2Squared(...)).
func W2(f Family, ma, sa, mb, sb []float64, d int) float64 {
	return math.Sqrt(W2Squared(f, ma, sa, mb, sb, d))
}

// W2 returns the 2-Wasserstein distance between measures i and j of e.
func (e *Embedding) W2(i, j int) float64 {
	return W2(e.Family, e.Mean(i), e.Scale(i), e.Mean(j), e.Scale(j), e.Dim)
}

// DistanceMatrix returns the n x n matrix (row-major) of W2 distances
// between all measures of e: symmetric with a zero diagonal. For d <= 3 it
// uses the closed forms (Bures2Fast), otherwise the pair kernel
// (engine/pairkernel: each scale factored once, then the eigenvalues of
// F_i^T C_j F_i per pair); rows are spread over GOMAXPROCS goroutines.
func DistanceMatrix(e *Embedding) []float64 {
	n, d := e.Len(), e.Dim
	var items *pairkernel.Items
	if d > 3 {
		items = &pairkernel.Items{}
		items.Reset(n, d)
		ws := pairkernel.NewWorkspace(d)
		for i := 0; i < n; i++ {
			items.Set(ws, i, e.Scale(i), 1)
		}
	}
	out := make([]float64, n*n)
	ParallelRanges(n, func(lo, hi int) {
		var ws *pairkernel.Workspace
		if items != nil {
			ws = pairkernel.NewWorkspace(d)
		}
		put := func(i, j int, b2 float64) {
			w := math.Sqrt(SqDist(e.Mean(i), e.Mean(j)) + e.Family.Tau*b2)
			out[i*n+j] = w
			out[j*n+i] = w
		}
		for i := lo; i < hi; i++ {
			if items == nil {
				for j := i + 1; j < n; j++ {
					put(i, j, Bures2Fast(e.Scale(i), e.Scale(j), d))
				}
				continue
			}
			// pairkernel.Lanes pairs at a time (QL iterations
			// interleaved, the same numbers as one by one).
			f, _, sh := items.Factor(i)
			for j := i + 1; j < n; j += pairkernel.Lanes {
				m := min(pairkernel.Lanes, n-j)
				var bs [pairkernel.Lanes][]float64
				for k := 0; k < m; k++ {
					bs[k] = items.Matrix(j + k)
				}
				xs := ws.TraceRootLanes(f, sh, &bs, m)
				for k := 0; k < m; k++ {
					put(i, j+k, math.Max(items.Trace(i)+items.Trace(j+k)-2*xs[k], 0))
				}
			}
		}
	})
	return out
}
