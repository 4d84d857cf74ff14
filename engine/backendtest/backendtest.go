// Package backendtest is the shared conformance suite for emds.Backend
// implementations. Every backend (the CPU reference in engine, the GL
// backend in gpucompute) runs the same table: stress, per-point stress and
// gradients are compared with a slow, independent reference built on
// gonum's symmetric eigendecomposition, and the gradient is checked against
// central finite differences of the backend's own stress.
//
// It returns results instead of using package testing (Suite, CheckCase,
// CheckCancel, CheckBadState), so that `burescope selftest` runs the same
// suite at run time; each test package turns the Results into subtests.
package backendtest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"burescope/engine"
	"burescope/engine/emds"

	"gonum.org/v1/gonum/mat"
)

// Case is one conformance problem: n random measures in dimension Dim.
type Case struct {
	Name     string  // subtest name
	N, Dim   int     // number of measures and dimension
	Tau      float64 // family constant
	Weighted bool    // random weights in [0, 2)
	Points   bool    // Scales nil (point MDS)
	Seed     uint64  // PCG seed of the random state and distances
}

// Cases is the default table used by Run.
var Cases = []Case{
	{Name: "d2-gauss", N: 9, Dim: 2, Tau: 1, Seed: 1},
	{Name: "d2-uniform-weighted", N: 13, Dim: 2, Tau: 0.25, Weighted: true, Seed: 2},
	{Name: "d2-many", N: 1030, Dim: 2, Tau: 1, Seed: 3},
	{Name: "d3-gauss", N: 8, Dim: 3, Tau: 1, Seed: 4},
	{Name: "d3-uniform-weighted", N: 11, Dim: 3, Tau: 0.2, Weighted: true, Seed: 5},
	{Name: "d3-many", N: 300, Dim: 3, Tau: 1, Seed: 9},
	{Name: "d1", N: 6, Dim: 1, Tau: 1, Seed: 6},
	{Name: "d4", N: 7, Dim: 4, Tau: 1.0 / 6, Seed: 7},
	{Name: "d6-weighted", N: 6, Dim: 6, Tau: 1, Weighted: true, Seed: 8},
	{Name: "points-d2", N: 10, Dim: 2, Tau: 1, Points: true, Seed: 10},
	{Name: "points-d3-weighted", N: 12, Dim: 3, Tau: 1, Points: true, Weighted: true, Seed: 11},
}

// Make returns the problem and state of a case: means N(0,1), scales
// L L^T + 0.1 I with L entries N(0, 0.49), target distances those between
// the means of a second random state plus U(0, 0.5) (so residuals are of
// order one).
func Make(c Case) (*emds.Problem, emds.State) {
	rng := rand.New(rand.NewPCG(c.Seed, 99))
	st := RandomState(rng, c.N, c.Dim, c.Points)
	other := RandomState(rng, c.N, c.Dim, true)
	p := &emds.Problem{N: c.N, Dim: c.Dim, Tau: c.Tau}
	m := c.N * (c.N - 1) / 2
	p.Dist = make([]float64, m)
	for i := 0; i < c.N; i++ {
		for j := i + 1; j < c.N; j++ {
			var m2 float64
			for k := 0; k < c.Dim; k++ {
				v := other.Means[i*c.Dim+k] - other.Means[j*c.Dim+k]
				m2 += v * v
			}
			p.Dist[engine.PairIndex(c.N, i, j)] = math.Sqrt(m2) + 0.5*rng.Float64()
		}
	}
	if c.Weighted {
		p.Weights = make([]float64, m)
		for k := range p.Weights {
			p.Weights[k] = 2 * rng.Float64()
		}
	}
	return p, st
}

// RandomState draws n measures: means N(0, 1), scales L L^T + 0.1 I.
func RandomState(rng *rand.Rand, n, d int, points bool) emds.State {
	s := emds.State{Means: make([]float64, n*d)}
	for k := range s.Means {
		s.Means[k] = rng.NormFloat64()
	}
	if points {
		return s
	}
	s.Scales = make([]float64, n*d*d)
	l := make([]float64, d*d)
	for i := 0; i < n; i++ {
		for k := range l {
			l[k] = rng.NormFloat64() * 0.7
		}
		c := s.Scales[i*d*d : (i+1)*d*d]
		for r := 0; r < d; r++ {
			for q := 0; q < d; q++ {
				var v float64
				for k := 0; k < d; k++ {
					v += l[r*d+k] * l[q*d+k]
				}
				c[r*d+q] = v
			}
			c[r*d+r] += 0.1
		}
	}
	return s
}

// eigSym returns the eigenvalues and eigenvectors (columns) of a symmetric
// matrix with gonum.
func eigSym(a []float64, d int) ([]float64, *mat.Dense) {
	var e mat.EigenSym
	if !e.Factorize(mat.NewSymDense(d, append([]float64(nil), a...)), true) {
		panic("backendtest: eigendecomposition failed")
	}
	var v mat.Dense
	e.VectorsTo(&v)
	return e.Values(nil), &v
}

// spectral returns V diag(f(l)) V^T.
func spectral(l []float64, v *mat.Dense, f func(float64) float64) *mat.Dense {
	d := len(l)
	out := mat.NewDense(d, d, nil)
	for r := 0; r < d; r++ {
		for c := 0; c < d; c++ {
			var s float64
			for k := 0; k < d; k++ {
				s += v.At(r, k) * f(l[k]) * v.At(c, k)
			}
			out.Set(r, c, s)
		}
	}
	return out
}

// scaled returns tau times the scale of measure i of s.
func scaled(s emds.State, d int, tau float64, i int) []float64 {
	c := s.Scales[i*d*d : (i+1)*d*d]
	out := make([]float64, d*d)
	for k := range c {
		out[k] = tau * c[k]
	}
	return out
}

// Reference computes the stress, its gradient and the per-point stress of
// p at s, pair by pair, with exact eigendecompositions: R = A^{1/2} by
// gonum per point, then for each pair M = R B R = V diag(l) V^T,
// tr M^{1/2} = sum sqrt(l), T^{AB} = R^{-1} M^{1/2} R^{-1} and
// T^{BA} = (T^{AB})^{-1} = R M^{-1/2} R (docs/math.md).
func Reference(p *emds.Problem, s emds.State) (float64, emds.Gradient) {
	n, d := p.N, p.Dim
	g := emds.Gradient{Means: make([]float64, n*d), PerPoint: make([]float64, n)}
	var roots, iroots []*mat.Dense
	var traces []float64
	if s.Scales != nil {
		g.Scales = make([]float64, n*d*d)
		for i := 0; i < n; i++ {
			a := scaled(s, d, p.Tau, i)
			l, v := eigSym(a, d)
			roots = append(roots, spectral(l, v, math.Sqrt))
			iroots = append(iroots, spectral(l, v, func(x float64) float64 { return 1 / math.Sqrt(x) }))
			var tr float64
			for c := 0; c < d; c++ {
				tr += a[c*d+c]
			}
			traces = append(traces, tr)
		}
	}
	var stress float64
	var m, tab, tba mat.Dense
	ms := make([]float64, d*d)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			k := engine.PairIndex(n, i, j)
			w := 1.0
			if p.Weights != nil {
				w = p.Weights[k]
			}
			var m2 float64
			for c := 0; c < d; c++ {
				v := s.Means[i*d+c] - s.Means[j*d+c]
				m2 += v * v
			}
			var tr float64
			if s.Scales != nil {
				m.Product(roots[i], mat.NewDense(d, d, scaled(s, d, p.Tau, j)), roots[i])
				for r := 0; r < d; r++ {
					for c := 0; c < d; c++ {
						ms[r*d+c] = 0.5 * (m.At(r, c) + m.At(c, r))
					}
				}
				lm, vm := eigSym(ms, d)
				for _, x := range lm {
					tr += math.Sqrt(math.Max(x, 0))
				}
				tab.Product(iroots[i], spectral(lm, vm, func(x float64) float64 { return math.Sqrt(math.Max(x, 0)) }), iroots[i])
				tba.Product(roots[i], spectral(lm, vm, func(x float64) float64 { return 1 / math.Sqrt(x) }), roots[i])
				m2 += traces[i] + traces[j] - 2*tr
			}
			wd := math.Sqrt(math.Max(m2, 0))
			r := p.Dist[k] - wd
			stress += w * r * r
			g.PerPoint[i] += w * r * r / 2
			g.PerPoint[j] += w * r * r / 2
			// dStress/dW^2 = -w r / W.
			gg := -w * r / wd
			for c := 0; c < d; c++ {
				v := 2 * gg * (s.Means[i*d+c] - s.Means[j*d+c])
				g.Means[i*d+c] += v
				g.Means[j*d+c] -= v
			}
			if s.Scales == nil {
				continue
			}
			// dW^2/dC_i = tau (I - T^{ij}), dW^2/dC_j = tau (I - T^{ji}).
			for r := 0; r < d; r++ {
				for c := 0; c < d; c++ {
					id := 0.0
					if r == c {
						id = 1
					}
					g.Scales[i*d*d+r*d+c] += gg * p.Tau * (id - 0.5*(tab.At(r, c)+tab.At(c, r)))
					g.Scales[j*d*d+r*d+c] += gg * p.Tau * (id - 0.5*(tba.At(r, c)+tba.At(c, r)))
				}
			}
		}
	}
	return stress, g
}

// relErr is |got - want| / max(|want|, scale).
func relErr(got, want, scale float64) float64 {
	return math.Abs(got-want) / math.Max(math.Abs(want), scale)
}

// maxAbs is the largest absolute entry of x (at least tiny).
func maxAbs(x []float64) float64 {
	m := 1e-300
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// Result is the outcome of one conformance case on one backend.
type Result struct {
	Case   string // Case.Name, "cancelled" or "bad-state"
	Passed bool
	// Skipped is set when the case was not run (Suite with skipLarge);
	// a skipped case counts as passed.
	Skipped bool
	// WorstRelErr is the largest relative error of the stress, the
	// gradients and the per-point stress against Reference (0 for the
	// cases without a reference).
	WorstRelErr float64
	// Failures describe what went wrong, at most a few per check.
	Failures []string
}

// fail records a failure.
func (r *Result) fail(format string, a ...any) {
	r.Passed = false
	r.Failures = append(r.Failures, fmt.Sprintf(format, a...))
}

// Tolerances returns the finite-difference step and tolerance used with a
// reference tolerance tol: h = max(1e-6, tol^(1/3)/20) (rounding error of
// the stress over h stays small) and max(30 tol, 1e-6): the strict check
// is the comparison with the reference.
func Tolerances(tol float64) (h, fdTol float64) {
	return math.Max(1e-6, math.Cbrt(tol)/20), math.Max(30*tol, 1e-6)
}

// CheckCase loads case c into b and compares stress, gradients and
// per-point stress with Reference (relative tolerance tol); for n <= 20
// it also compares the gradient with central finite differences of b's
// own stress (Tolerances). b is not closed.
func CheckCase(b emds.Backend, c Case, tol float64) Result {
	r := Result{Case: c.Name, Passed: true}
	p, s := Make(c)
	if err := b.Load(p); err != nil {
		r.fail("Load: %v", err)
		return r
	}
	if !checkAgainstReference(&r, b, c, p, s, tol) {
		return r
	}
	if c.N <= 20 {
		h, fdTol := Tolerances(tol)
		checkFiniteDifferences(&r, b, p, s, h, fdTol)
	}
	return r
}

// CheckCancel checks that Evaluate with a cancelled context returns an
// error wrapping context.Canceled.
func CheckCancel(b emds.Backend) Result {
	r := Result{Case: "cancelled", Passed: true}
	p, s := Make(Cases[0])
	if err := b.Load(p); err != nil {
		r.fail("Load: %v", err)
		return r
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := b.Evaluate(ctx, s, &emds.Gradient{Means: make([]float64, p.N*p.Dim)})
	if !errors.Is(err, context.Canceled) {
		r.fail("Evaluate with a cancelled context: err = %v, want context.Canceled", err)
	}
	return r
}

// CheckBadState checks that Evaluate rejects a state of the wrong size.
func CheckBadState(b emds.Backend) Result {
	r := Result{Case: "bad-state", Passed: true}
	p, s := Make(Cases[0])
	if err := b.Load(p); err != nil {
		r.fail("Load: %v", err)
		return r
	}
	s.Means = s.Means[:len(s.Means)-1]
	if _, err := b.Evaluate(context.Background(), s, nil); err == nil {
		r.fail("Evaluate with a short Means slice: no error")
	}
	return r
}

// Suite runs every case of cases, then the cancellation and bad-state
// checks, each on a fresh backend from newBackend (closed afterwards),
// and returns one Result per check. Cases with N > 500 are skipped when
// skipLarge is set. An error from newBackend fails that check.
func Suite(newBackend func() (emds.Backend, error), tol float64, cases []Case, skipLarge bool) []Result {
	var out []Result
	run := func(name string, f func(emds.Backend) Result) {
		b, err := newBackend()
		if err != nil {
			r := Result{Case: name}
			r.fail("creating the backend: %v", err)
			out = append(out, r)
			return
		}
		defer b.Close()
		out = append(out, f(b))
	}
	for _, c := range cases {
		if c.N > 500 && skipLarge {
			out = append(out, Result{Case: c.Name, Passed: true, Skipped: true})
			continue
		}
		run(c.Name, func(b emds.Backend) Result { return CheckCase(b, c, tol) })
	}
	run("cancelled", CheckCancel)
	run("bad-state", CheckBadState)
	return out
}

// refCache keeps the reference result of each case: it is deterministic
// and costly (gonum eigendecompositions for every pair), and a test may
// run the table several times (e.g. for several thread counts).
var refCache sync.Map // Case -> refResult

type refResult struct {
	stress float64
	grad   emds.Gradient
}

// checkAgainstReference fills r; it returns false when Evaluate failed
// (nothing more can be checked).
func checkAgainstReference(r *Result, b emds.Backend, c Case, p *emds.Problem, s emds.State, tol float64) bool {
	n, d := p.N, p.Dim
	var want float64
	var wg emds.Gradient
	if v, ok := refCache.Load(c); ok {
		ref := v.(refResult)
		want, wg = ref.stress, ref.grad
	} else {
		want, wg = Reference(p, s)
		refCache.Store(c, refResult{want, wg})
	}
	g := emds.Gradient{Means: make([]float64, n*d), PerPoint: make([]float64, n)}
	if s.Scales != nil {
		g.Scales = make([]float64, n*d*d)
	}
	// Fill with garbage: the contract is overwrite, not accumulate.
	for k := range g.Means {
		g.Means[k] = 7
	}
	worst := func(e float64) {
		if !(e <= r.WorstRelErr) {
			r.WorstRelErr = e // NaN sticks
		}
	}
	got, err := b.Evaluate(context.Background(), s, &g)
	if err != nil {
		r.fail("Evaluate: %v", err)
		return false
	}
	e := relErr(got, want, 1e-12)
	worst(e)
	if !(e <= tol) {
		r.fail("stress = %.15g, reference %.15g (rel err %.2g)", got, want, e)
	}
	only, err := b.Evaluate(context.Background(), s, nil)
	if err != nil {
		r.fail("Evaluate (stress only): %v", err)
		return false
	}
	e = relErr(only, want, 1e-12)
	worst(e)
	if !(e <= tol) {
		r.fail("stress without gradient = %.15g, reference %.15g", only, want)
	}
	check := func(name string, got, want []float64) {
		scale := maxAbs(want)
		bad := 0
		for k := range want {
			e := relErr(got[k], want[k], scale)
			worst(e)
			if !(e <= tol) {
				if bad < 5 {
					r.fail("%s[%d] = %.12g, reference %.12g (rel err %.2g)", name, k, got[k], want[k], e)
				}
				bad++
			}
		}
		if bad > 5 {
			r.fail("%s: %d entries off", name, bad)
		}
	}
	check("grad means", g.Means, wg.Means)
	check("per-point", g.PerPoint, wg.PerPoint)
	if s.Scales != nil {
		check("grad scales", g.Scales, wg.Scales)
	}
	return true
}

// checkFiniteDifferences compares the gradient with central differences of
// the backend's stress (symmetric perturbations of scale entries).
func checkFiniteDifferences(r *Result, b emds.Backend, p *emds.Problem, s emds.State, h, tol float64) {
	n, d := p.N, p.Dim
	g := emds.Gradient{Means: make([]float64, n*d)}
	if s.Scales != nil {
		g.Scales = make([]float64, n*d*d)
	}
	ctx := context.Background()
	if _, err := b.Evaluate(ctx, s, &g); err != nil {
		r.fail("Evaluate: %v", err)
		return
	}
	var evalErr error
	f := func() float64 {
		v, err := b.Evaluate(ctx, s, nil)
		if err != nil && evalErr == nil {
			evalErr = err
		}
		return v
	}
	bad := 0
	report := func(format string, a ...any) {
		if bad < 5 {
			r.fail(format, a...)
		}
		bad++
	}
	scale := math.Max(maxAbs(g.Means), 1e-3)
	for k := range s.Means {
		old := s.Means[k]
		s.Means[k] = old + h
		fp := f()
		s.Means[k] = old - h
		fm := f()
		s.Means[k] = old
		fd := (fp - fm) / (2 * h)
		if e := relErr(g.Means[k], fd, scale); !(e <= tol) {
			report("d stress / d mean[%d] = %.10g, finite difference %.10g", k, g.Means[k], fd)
		}
	}
	if s.Scales != nil {
		scale = math.Max(maxAbs(g.Scales), 1e-3)
		for i := 0; i < n; i++ {
			for rr := 0; rr < d; rr++ {
				for c := rr; c < d; c++ {
					// Perturb C_rc and C_cr together: the directional
					// derivative is G_rc + G_cr (or G_rr on the diagonal).
					k1, k2 := i*d*d+rr*d+c, i*d*d+c*d+rr
					o1, o2 := s.Scales[k1], s.Scales[k2]
					s.Scales[k1] += h
					if k2 != k1 {
						s.Scales[k2] += h
					}
					fp := f()
					s.Scales[k1], s.Scales[k2] = o1-h, o2-h
					if k2 == k1 {
						s.Scales[k1] = o1 - h
					}
					fm := f()
					s.Scales[k1], s.Scales[k2] = o1, o2
					fd := (fp - fm) / (2 * h)
					want := g.Scales[k1]
					if k2 != k1 {
						want += g.Scales[k2]
					}
					if e := relErr(want, fd, scale); !(e <= tol) {
						report("d stress / d C_%d[%d,%d] (symmetric) = %.10g, finite difference %.10g", i, rr, c, want, fd)
					}
				}
			}
		}
	}
	if bad > 5 {
		r.fail("finite differences: %d entries off", bad)
	}
	if evalErr != nil {
		r.fail("Evaluate (finite differences): %v", evalErr)
	}
}

// String describes a case (for failure messages).
func (c Case) String() string {
	return fmt.Sprintf("%s(n=%d, d=%d, tau=%g)", c.Name, c.N, c.Dim, c.Tau)
}
