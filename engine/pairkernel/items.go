package pairkernel

// Items holds, for n symmetric positive semi-definite d x d matrices, what
// the pair functions read: each matrix (symmetrised and scaled), its
// factor F, G = F^{-1} (or pseudo-inverse root), the factor's shape and
// the trace. Set fills one item, so callers may fill items in parallel
// (distinct i, one Workspace per goroutine).
type Items struct {
	d     int
	mat   []float64 // n*d*d symmetric matrices
	f, g  []float64 // n*d*d factors and inverse factors
	shape []Shape
	trace []float64
}

// Reset sizes it for n items of dimension d, reusing its memory.
func (it *Items) Reset(n, d int) {
	it.d = d
	it.mat = grow(it.mat, n*d*d)
	it.f = grow(it.f, n*d*d)
	it.g = grow(it.g, n*d*d)
	it.trace = grow(it.trace, n)
	if cap(it.shape) < n {
		it.shape = make([]Shape, n)
	}
	it.shape = it.shape[:n]
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// Set stores item i as scale * (c + c^T) / 2 (c is d*d, row-major) and
// factors it with ws (of the same d).
func (it *Items) Set(ws *Workspace, i int, c []float64, scale float64) {
	d := it.d
	a := it.mat[i*d*d : (i+1)*d*d]
	c = c[:d*d]
	var tr float64
	for r := 0; r < d; r++ {
		for q := r; q < d; q++ {
			v := scale * 0.5 * (c[r*d+q] + c[q*d+r])
			a[r*d+q], a[q*d+r] = v, v
		}
		tr += a[r*d+r]
	}
	it.trace[i] = tr
	it.shape[i] = ws.Factor(a, it.f[i*d*d:(i+1)*d*d], it.g[i*d*d:(i+1)*d*d])
}

// Matrix returns item i's stored (symmetric, scaled) matrix.
func (it *Items) Matrix(i int) []float64 { return it.mat[i*it.d*it.d : (i+1)*it.d*it.d] }

// Factor returns item i's factor F, its inverse G and their shape.
func (it *Items) Factor(i int) (f, g []float64, shape Shape) {
	dd := it.d * it.d
	return it.f[i*dd : (i+1)*dd], it.g[i*dd : (i+1)*dd], it.shape[i]
}

// Trace returns the trace of item i's stored matrix.
func (it *Items) Trace(i int) float64 { return it.trace[i] }

// TraceRoot returns tr (A_i^{1/2} A_j^{1/2} A_i^{1/2})^{1/2} for items i
// and j (ws of the items' d).
func (it *Items) TraceRoot(ws *Workspace, i, j int) float64 {
	f, _, sh := it.Factor(i)
	return ws.TraceRoot(f, sh, it.Matrix(j))
}
