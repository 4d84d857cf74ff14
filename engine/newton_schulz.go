package engine

import (
	"math"
)

// Defaults for the Newton-Schulz iteration, chosen from the measured
// accuracy table in docs/newton-schulz.md (regenerate it with
// `go test ./engine -run TestNSTable -nstable`).
//
// The iteration count is a cap: iterations stop as soon as the residual
// |I - Z Y|_F falls below DefaultNSTol, which for a matrix of condition
// number kappa takes about log(kappa)/log(2.25) + 5 iterations. The cap
// covers kappa up to about 1e6, i.e. eps = 1e-6 relative to the largest
// eigenvalue of L L^T + eps I; the paper's 6 iterations only reach about
// 1e-1 relative error at kappa = 1e3 (eps = 1e-3).
const (
	DefaultNSIters = 30
	DefaultNSTol   = 1e-10
)

// NSOptions controls a Newton-Schulz run: at most MaxIter iterations, fewer
// when the residual |I - Z Y|_F reaches Tol. Zero values mean the defaults
// (DefaultNSIters, DefaultNSTol); a negative Tol disables the early stop so
// that exactly MaxIter iterations run (as in the paper's fixed-count setup).
type NSOptions struct {
	MaxIter int
	Tol     float64
}

func (o NSOptions) norm() NSOptions {
	if o.MaxIter <= 0 {
		o.MaxIter = DefaultNSIters
	}
	if o.Tol == 0 {
		o.Tol = DefaultNSTol
	}
	return o
}

// NSResult is the outcome of one Newton-Schulz run on a d x d matrix A.
type NSResult struct {
	Sqrt     []float64 // Y ~ A^{1/2}
	InvSqrt  []float64 // Z ~ A^{-1/2} (meaningless for singular A)
	Iters    int       // iterations performed
	Residual float64   // |I - Z Y|_F of the scaled iterates at the end
}

// NSWorkspace holds the scratch matrices of Newton-Schulz runs of one
// dimension, so that repeated runs do not allocate. A workspace is used by
// one goroutine at a time.
type NSWorkspace struct {
	d                   int
	zy, t, tmp, m, y, z []float64
}

// Dim returns the matrix size d the workspace was made for.
func (w *NSWorkspace) Dim() int { return w.d }

// NewNSWorkspace returns a workspace for d x d runs.
func NewNSWorkspace(d int) *NSWorkspace {
	return &NSWorkspace{d: d, zy: make([]float64, d*d), t: make([]float64, d*d),
		tmp: make([]float64, d*d), m: make([]float64, d*d),
		y: make([]float64, d*d), z: make([]float64, d*d)}
}

// Roots runs Algorithm 1 of the paper (docs/math.md, Newton-Schulz) on the
// symmetric PSD matrix a and writes A^{1/2} into y and A^{-1/2} into z
// (both d*d, not aliasing a). It returns the iterations performed and the
// final residual |I - Z Y|_F. A is scaled by its Frobenius norm, which
// bounds the spectral norm, so that the iteration converges for every SPD
// A; for a singular A, Y still converges to A^{1/2} but Z grows without
// bound on ker A and the residual never falls below 1. The zero matrix
// gives Y = Z = 0.
func (w *NSWorkspace) Roots(y, z, a []float64, o NSOptions) (iters int, residual float64) {
	o = o.norm()
	d := w.d
	nrm := FrobNorm(a[:d*d])
	if !(nrm > 0) || math.IsInf(nrm, 0) {
		for i := range y[:d*d] {
			y[i], z[i] = 0, 0
		}
		if nrm != 0 {
			for i := range y[:d*d] {
				y[i], z[i] = math.NaN(), math.NaN()
			}
		}
		return 0, math.NaN()
	}
	// The paper's (1 + epsilon) margin; the Frobenius norm already bounds
	// the spectral norm, so a small margin suffices.
	c := (1 + 1e-9) * nrm
	for i := range y[:d*d] {
		y[i] = a[i] / c
		z[i] = 0
	}
	for i := 0; i < d; i++ {
		z[i*d+i] = 1
	}
	residual = math.Inf(1)
	for iters = 0; ; iters++ {
		matMulInto(w.zy, z, y, d, d, d)
		var r float64
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				v := -w.zy[i*d+j]
				if i == j {
					v++
				}
				r += v * v
				w.t[i*d+j] = 0.5 * v // (3I - ZY)/2 = I + (I - ZY)/2
			}
			w.t[i*d+i]++
		}
		residual = math.Sqrt(r)
		if iters >= o.MaxIter || residual <= o.Tol || math.IsNaN(residual) {
			break
		}
		matMulInto(w.tmp, y, w.t, d, d, d)
		copy(y, w.tmp)
		matMulInto(w.tmp, w.t, z, d, d, d)
		copy(z, w.tmp)
	}
	sc := math.Sqrt(c)
	for i := range y[:d*d] {
		y[i] *= sc
		z[i] /= sc
	}
	return iters, residual
}

// NewtonSchulzBatch runs Algorithm 1 on n stacked d x d matrices (as holds
// n*d*d values) in parallel over GOMAXPROCS goroutines, and returns the
// stacked square roots, inverse square roots and per-matrix iteration
// counts.
func NewtonSchulzBatch(as []float64, n, d int, o NSOptions) (ys, zs []float64, iters []int) {
	dd := d * d
	ys = make([]float64, n*dd)
	zs = make([]float64, n*dd)
	iters = make([]int, n)
	ParallelRanges(n, func(lo, hi int) {
		w := NewNSWorkspace(d)
		for i := lo; i < hi; i++ {
			iters[i], _ = w.Roots(ys[i*dd:(i+1)*dd], zs[i*dd:(i+1)*dd], as[i*dd:(i+1)*dd], o)
		}
	})
	return ys, zs, iters
}

// Bures2NS returns Bures^2(A, B) from two Newton-Schulz square roots,
// tr A + tr B - 2 tr (Y1 B Y1)^{1/2} with Y1 ~ A^{1/2}. It is valid for any
// PSD A and B (only square roots are used). With a workspace of
// dimension d it does not allocate; w may be nil.
func Bures2NS(a, b []float64, d int, o NSOptions, w *NSWorkspace) float64 {
	if w == nil || w.d != d {
		w = NewNSWorkspace(d)
	}
	y, z := w.y, w.z
	w.Roots(y, z, a, o)
	matMulInto(w.tmp, y, b, d, d, d)
	matMulInto(w.m, w.tmp, y, d, d, d)
	Symmetrize(w.m, d)
	w.Roots(y, z, w.m, o)
	return math.Max(Trace(a, d)+Trace(b, d)-2*Trace(y, d), 0)
}
