package emds

import (
	"burescope/engine"
	"math"
)

// generalKernel is the pair kernel for any d (1 <= d <= MaxDim) with exact
// symmetric eigendecompositions (cyclic Jacobi, allocation-free):
//
//	R = A^{1/2}, M = R B R = V diag(l) V^T,
//	tr M^{1/2} = sum sqrt(l),
//	T^{AB} = R^{-1} M^{1/2} R^{-1},  T^{BA} = R M^{-1/2} R,
//
// with A, B the tau-scaled scales; dW^2/dA = I - T^{AB}. A and B must be
// positive definite for the maps to exist (eps > 0 ensures it); a zero
// eigenvalue of A gives a zero inverse root (the gradient is then that of a
// nearby definite matrix, not exact).
type generalKernel struct {
	d, dd   int
	tau     float64
	means   []float64
	a       []float64 // n*d*d tau-scaled scales
	root    []float64 // n*d*d A^{1/2}
	iroot   []float64 // n*d*d A^{-1/2}
	trace   []float64 // n traces
	strideN int
}

func (k *generalKernel) soa() bool { return false }

func (k *generalKernel) stride() int { return k.strideN }

func (k *generalKernel) prepare(p *Problem, s State) {
	d := p.Dim
	n := p.N
	k.d, k.dd, k.tau = d, d*d, p.Tau
	k.strideN = d*d + d + 1
	k.means = s.Means
	k.a = growF64(k.a, n*d*d)
	k.root = growF64(k.root, n*d*d)
	k.iroot = growF64(k.iroot, n*d*d)
	k.trace = growF64(k.trace, n)
	ws := newJacobiWork(d)
	for i := 0; i < n; i++ {
		c := s.Scales[i*d*d : (i+1)*d*d]
		a := k.a[i*d*d : (i+1)*d*d]
		var tr float64
		for r := 0; r < d; r++ {
			for q := 0; q < d; q++ {
				a[r*d+q] = p.Tau * 0.5 * (c[r*d+q] + c[q*d+r])
			}
			tr += a[r*d+r]
		}
		k.trace[i] = tr
		copy(ws.m, a)
		engine.JacobiEigen(ws.m, d, ws.v, ws.l)
		for q := range ws.l {
			l := ws.l[q]
			if l > 0 {
				ws.f[q] = math.Sqrt(l)
				ws.h[q] = 1 / ws.f[q]
			} else {
				ws.f[q], ws.h[q] = 0, 0
			}
		}
		spectralInto(k.root[i*d*d:(i+1)*d*d], ws.v, ws.f, d)
		spectralInto(k.iroot[i*d*d:(i+1)*d*d], ws.v, ws.h, d)
	}
}

// jacobiWork is scratch memory for one d x d pair evaluation.
type jacobiWork struct {
	m, v, t1, t2, sq, isq []float64
	l, f, h               []float64
}

func newJacobiWork(d int) *jacobiWork {
	dd := d * d
	buf := make([]float64, 6*dd+3*d)
	return &jacobiWork{
		m: buf[0:dd], v: buf[dd : 2*dd], t1: buf[2*dd : 3*dd], t2: buf[3*dd : 4*dd],
		sq: buf[4*dd : 5*dd], isq: buf[5*dd : 6*dd],
		l: buf[6*dd : 6*dd+d], f: buf[6*dd+d : 6*dd+2*d], h: buf[6*dd+2*d : 6*dd+3*d],
	}
}

// spectralInto writes V diag(f) V^T into out.
func spectralInto(out, v, f []float64, d int) {
	for r := 0; r < d; r++ {
		for c := r; c < d; c++ {
			var s float64
			for k := 0; k < d; k++ {
				s += v[r*d+k] * f[k] * v[c*d+k]
			}
			out[r*d+c] = s
			out[c*d+r] = s
		}
	}
}

// symMulInto writes x y z into out (all d x d); t is scratch.
func symMulInto(out, x, y, z, t []float64, d int) {
	for r := 0; r < d; r++ {
		for c := 0; c < d; c++ {
			var s float64
			for k := 0; k < d; k++ {
				s += x[r*d+k] * y[k*d+c]
			}
			t[r*d+c] = s
		}
	}
	for r := 0; r < d; r++ {
		for c := 0; c < d; c++ {
			var s float64
			for k := 0; k < d; k++ {
				s += t[r*d+k] * z[k*d+c]
			}
			out[r*d+c] = s
		}
	}
}

func (k *generalKernel) row(i, j0, j1 int, dist, wts, acc []float64, off int, cws *cpuWorkspace) float64 {
	d, dd, st := k.d, k.dd, k.strideN
	need := 6*dd + 3*d
	if len(cws.buf) < need {
		cws.buf = make([]float64, need)
	}
	buf := cws.buf
	ws := &jacobiWork{
		m: buf[0:dd], v: buf[dd : 2*dd], t1: buf[2*dd : 3*dd], t2: buf[3*dd : 4*dd],
		sq: buf[4*dd : 5*dd], isq: buf[5*dd : 6*dd],
		l: buf[6*dd : 6*dd+d], f: buf[6*dd+d : 6*dd+2*d], h: buf[6*dd+2*d : 6*dd+3*d],
	}
	ri := k.root[i*dd : (i+1)*dd]
	iri := k.iroot[i*dd : (i+1)*dd]
	ai := k.means[i*d : (i+1)*d]
	bi := acc[(i-off)*st : (i-off+1)*st]
	var sum float64
	for j := j0; j < j1; j++ {
		q := j - j0
		aj := k.means[j*d : (j+1)*d]
		bj := acc[(j-off)*st : (j-off+1)*st]
		b := k.a[j*dd : (j+1)*dd]
		symMulInto(ws.m, ri, b, ri, ws.t1, d)
		engine.JacobiEigen(ws.m, d, ws.v, ws.l)
		var t float64
		for c := range ws.l {
			l := ws.l[c]
			if l > 0 {
				ws.f[c] = math.Sqrt(l)
				ws.h[c] = 1 / ws.f[c]
			} else {
				ws.f[c], ws.h[c] = 0, 0
			}
			t += ws.f[c]
		}
		var m2 float64
		for c := range ai {
			v := ai[c] - aj[c]
			m2 += v * v
		}
		w2 := m2 + k.trace[i] + k.trace[j] - 2*t
		if w2 < 0 {
			w2 = 0
		}
		w := math.Sqrt(w2)
		r := dist[q] - w
		wt := 1.0
		if wts != nil {
			wt = wts[q]
		}
		r2 := wt * r * r
		sum += r2
		bi[dd+d] += 0.5 * r2
		bj[dd+d] += 0.5 * r2
		if !(w > 0) {
			continue
		}
		g := -wt * r / w
		for c := range ai {
			v := g * (ai[c] - aj[c])
			bi[dd+c] += v
			bj[dd+c] -= v
		}
		// T^{AB} = R^{-1} M^{1/2} R^{-1}; T^{BA} = R M^{-1/2} R.
		spectralInto(ws.sq, ws.v, ws.f, d)
		spectralInto(ws.isq, ws.v, ws.h, d)
		symMulInto(ws.t2, iri, ws.sq, iri, ws.t1, d)
		for c := 0; c < dd; c++ {
			bi[c] -= g * ws.t2[c]
		}
		symMulInto(ws.t2, ri, ws.isq, ri, ws.t1, d)
		for c := 0; c < dd; c++ {
			bj[c] -= g * ws.t2[c]
		}
		for c := 0; c < d; c++ {
			bi[c*d+c] += g
			bj[c*d+c] += g
		}
	}
	return sum
}

func (k *generalKernel) finish(i int, a []float64, g *Gradient) {
	d, dd := k.d, k.dd
	if g.Means != nil {
		for c := 0; c < d; c++ {
			g.Means[i*d+c] = 2 * a[dd+c]
		}
	}
	if g.Scales != nil {
		gs := g.Scales[i*dd : (i+1)*dd]
		for r := 0; r < d; r++ {
			for c := 0; c < d; c++ {
				gs[r*d+c] = k.tau * 0.5 * (a[r*d+c] + a[c*d+r])
			}
		}
	}
	if g.PerPoint != nil {
		g.PerPoint[i] = a[dd+d]
	}
}
