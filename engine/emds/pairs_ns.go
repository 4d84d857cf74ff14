package emds

import (
	"burescope/engine"
	"fmt"
	"math"
)

// RootMethod names how matrix square roots are computed where a choice
// exists: the CPU backend's pair kernels (CPUOptions.Roots) and
// DistanceMatrixRoots. It is a fidelity knob: the exact
// eigendecomposition is the reference, Newton-Schulz is the paper's own
// algorithm (Algorithm 1, docs/newton-schulz.md).
type RootMethod string

const (
	// RootsEigen uses closed forms for d <= 3 and exact symmetric
	// eigendecompositions (engine/pairkernel) otherwise. It is the default.
	RootsEigen RootMethod = "eigen"
	// RootsNewtonSchulz uses the coupled Newton-Schulz iteration and the
	// two-run trick (docs/math.md, Newton-Schulz) for every dimension, with the
	// iteration count and tolerance of an NSOptions.
	RootsNewtonSchulz RootMethod = "newton-schulz"
)

// RootMethods lists the accepted RootMethod names, for help texts.
var RootMethods = []RootMethod{RootsEigen, RootsNewtonSchulz}

// ParseRootMethod returns the RootMethod called s ("" means RootsEigen).
func ParseRootMethod(s string) (RootMethod, error) {
	switch RootMethod(s) {
	case "", RootsEigen:
		return RootsEigen, nil
	case RootsNewtonSchulz:
		return RootsNewtonSchulz, nil
	}
	return "", fmt.Errorf("unknown root method %q (want eigen or newton-schulz)", s)
}

// CPUOptions configure NewCPUBackendWith.
type CPUOptions struct {
	// Threads is the number of goroutines (<= 0: runtime.GOMAXPROCS(0)).
	Threads int
	// Roots picks the pair kernel for measures with scales: RootsEigen
	// ("" too) keeps the closed forms (d = 2, 3) and the exact
	// eigendecompositions (other d); RootsNewtonSchulz replaces them, in
	// every dimension, by Newton-Schulz with the options NS. Point MDS
	// (State.Scales nil) needs no roots and is unaffected.
	Roots RootMethod
	// NS controls the Newton-Schulz runs (zero value: DefaultNSIters and
	// DefaultNSTol); unused with RootsEigen.
	NS engine.NSOptions
}

// NewCPUBackendWith returns a CPU backend configured by o. An unknown
// o.Roots is an error.
func NewCPUBackendWith(o CPUOptions) (*CPUBackend, error) {
	m, err := ParseRootMethod(string(o.Roots))
	if err != nil {
		return nil, fmt.Errorf("engine: cpu backend: %w", err)
	}
	b := NewCPUBackend(o.Threads)
	b.roots, b.ns = m, o.NS
	return b, nil
}

// Roots returns the root method of the backend's pair kernels.
func (b *CPUBackend) Roots() RootMethod {
	if b.roots == "" {
		return RootsEigen
	}
	return b.roots
}

// nsKernel is the pair kernel of RootsNewtonSchulz, for any d: per point
// (Y1, Z1) = NS(A); per pair (Y2, Z2) = NS(Y1 B Y1), then
// tr (A^{1/2} B A^{1/2})^{1/2} = tr Y2, T^{AB} = Z1 Y2 Z1 and
// T^{BA} = Y1 Z2 Y1 (the two-run trick, docs/math.md Newton-Schulz), with A, B
// the tau-scaled scales. The accumulator is point-major: d*d matrix
// entries (full), d mean entries, the per-point stress.
type nsKernel struct {
	d, dd   int
	tau     float64
	means   []float64
	a       []float64 // n*d*d tau-scaled scales
	root    []float64 // n*d*d Newton-Schulz A^{1/2}
	iroot   []float64 // n*d*d Newton-Schulz A^{-1/2}
	trace   []float64 // n traces
	strideN int
	opt     engine.NSOptions
}

func (k *nsKernel) soa() bool { return false }

func (k *nsKernel) stride() int { return k.strideN }

// finish turns point i's accumulator (full matrices) into gradients.
func (k *nsKernel) finish(i int, a []float64, g *Gradient) {
	finishMatrix(i, a, g, k.d, k.tau, false)
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

func (k *nsKernel) prepare(p *Problem, s State) {
	d, n := p.Dim, p.N
	k.d, k.dd, k.tau = d, d*d, p.Tau
	k.strideN = d*d + d + 1
	k.means = s.Means
	k.a = growF64(k.a, n*d*d)
	k.trace = growF64(k.trace, n)
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
	}
	// (Y1, Z1) = NS(A_i) for every point, in parallel.
	k.root, k.iroot, _ = engine.NewtonSchulzBatch(k.a, n, d, k.opt)
}

func (k *nsKernel) row(i, j0, j1 int, dist, wts, acc []float64, off int, cws *cpuWorkspace) float64 {
	d, dd, st := k.d, k.dd, k.strideN
	if cws.ns == nil || cws.ns.Dim() != d {
		cws.ns = engine.NewNSWorkspace(d)
	}
	need := 5 * dd
	if len(cws.buf) < need {
		cws.buf = make([]float64, need)
	}
	w := cws.ns
	m, y2, z2, t1, t2 := cws.buf[0:dd], cws.buf[dd:2*dd], cws.buf[2*dd:3*dd], cws.buf[3*dd:4*dd], cws.buf[4*dd:5*dd]
	ri := k.root[i*dd : (i+1)*dd]
	iri := k.iroot[i*dd : (i+1)*dd]
	ai := k.means[i*d : (i+1)*d]
	bi := acc[(i-off)*st : (i-off+1)*st]
	var sum float64
	for j := j0; j < j1; j++ {
		q := j - j0
		aj := k.means[j*d : (j+1)*d]
		bj := acc[(j-off)*st : (j-off+1)*st]
		symMulInto(m, ri, k.a[j*dd:(j+1)*dd], ri, t1, d)
		engine.Symmetrize(m, d)
		w.Roots(y2, z2, m, k.opt)
		var t float64
		for c := 0; c < d; c++ {
			t += y2[c*d+c]
		}
		wt := 1.0
		if wts != nil {
			wt = wts[q]
		}
		r2, g := pairResidual(ai, aj, bi[dd:], bj[dd:], k.trace[i]+k.trace[j]-2*t, dist[q], wt)
		sum += r2
		if g == 0 {
			continue
		}
		symMulInto(t2, iri, y2, iri, t1, d) // T^{AB} = Z1 Y2 Z1
		for c := 0; c < dd; c++ {
			bi[c] -= g * t2[c]
		}
		symMulInto(t2, ri, z2, ri, t1, d) // T^{BA} = Y1 Z2 Y1
		for c := 0; c < dd; c++ {
			bj[c] -= g * t2[c]
		}
		for c := 0; c < d; c++ {
			bi[c*d+c] += g
			bj[c*d+c] += g
		}
	}
	return sum
}

// DistanceMatrixRoots is DistanceMatrix with a choice of root method:
// RootsEigen is DistanceMatrix itself; RootsNewtonSchulz computes every
// Bures^2 by Bures2NS with the options o (square roots only, so it stays
// accurate for singular scales). An unknown method is an error.
func DistanceMatrixRoots(e *engine.Embedding, m RootMethod, o engine.NSOptions) ([]float64, error) {
	m, err := ParseRootMethod(string(m))
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	if m == RootsEigen {
		return engine.DistanceMatrix(e), nil
	}
	n, d := e.Len(), e.Dim
	out := make([]float64, n*n)
	engine.ParallelRanges(n, func(lo, hi int) {
		w := engine.NewNSWorkspace(d)
		for i := lo; i < hi; i++ {
			for j := i + 1; j < n; j++ {
				b2 := engine.Bures2NS(e.Scale(i), e.Scale(j), d, o, w)
				v := math.Sqrt(engine.SqDist(e.Mean(i), e.Mean(j)) + e.Family.Tau*b2)
				out[i*n+j] = v
				out[j*n+i] = v
			}
		}
	})
	return out, nil
}
