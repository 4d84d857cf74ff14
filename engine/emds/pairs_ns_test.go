package emds_test

import (
	"context"
	"math"
	"testing"

	"burescope/engine"
	"burescope/engine/backendtest"
	"burescope/engine/emds"
)

// TestCPUBackendNewtonSchulzConformance runs the shared backend suite
// (gonum eigendecomposition reference, finite differences) on the
// Newton-Schulz pair kernel with the default options, whose documented
// accuracy (docs/newton-schulz.md) is about 1e-10 on Bures^2 and T^AB.
func TestCPUBackendNewtonSchulzConformance(t *testing.T) {
	var cases []backendtest.Case
	for _, c := range backendtest.Cases {
		if c.N <= 500 { // the n = 1030 case costs 15 s with Newton-Schulz
			cases = append(cases, c)
		}
	}
	conformance(t, func() (emds.Backend, error) {
		return emds.NewCPUBackendWith(emds.CPUOptions{Threads: 2, Roots: emds.RootsNewtonSchulz})
	}, 1e-8, cases)
}

// evalCPU evaluates stress and the full gradient of a case on a backend.
func evalCPU(t *testing.T, b emds.Backend, c backendtest.Case) (float64, emds.Gradient) {
	t.Helper()
	p, s := backendtest.Make(c)
	if err := b.Load(p); err != nil {
		t.Fatal(err)
	}
	g := emds.Gradient{Means: make([]float64, p.N*p.Dim), Scales: make([]float64, p.N*p.Dim*p.Dim), PerPoint: make([]float64, p.N)}
	v, err := b.Evaluate(context.Background(), s, &g)
	if err != nil {
		t.Fatal(err)
	}
	return v, g
}

func vecRelErr(got, want []float64) float64 {
	var num, den float64
	for k := range want {
		num = math.Max(num, math.Abs(got[k]-want[k]))
		den = math.Max(den, math.Abs(want[k]))
	}
	return num / math.Max(den, 1e-300)
}

// TestCPUBackendRootsChangePath: the Newton-Schulz kernel agrees with the
// eigen kernel (closed forms for d = 2, 3, Jacobi otherwise) to its
// stated tolerance with the defaults, and a fixed 3-iteration run (far
// from converged, docs/newton-schulz.md: ~1e-1 error) gives a visibly
// different stress, so the option really changes the computation.
func TestCPUBackendRootsChangePath(t *testing.T) {
	for _, c := range []backendtest.Case{
		{Name: "d2", N: 40, Dim: 2, Tau: 1, Seed: 21},
		{Name: "d3-weighted", N: 30, Dim: 3, Tau: 0.2, Weighted: true, Seed: 22},
		{Name: "d5", N: 20, Dim: 5, Tau: 1, Seed: 23},
		{Name: "d12", N: 12, Dim: 12, Tau: 1, Seed: 24},
	} {
		t.Run(c.Name, func(t *testing.T) {
			eig, err := emds.NewCPUBackendWith(emds.CPUOptions{Threads: 2})
			if err != nil {
				t.Fatal(err)
			}
			if eig.Roots() != emds.RootsEigen {
				t.Errorf("default roots %q, want eigen", eig.Roots())
			}
			ns, _ := emds.NewCPUBackendWith(emds.CPUOptions{Threads: 2, Roots: emds.RootsNewtonSchulz})
			crude, _ := emds.NewCPUBackendWith(emds.CPUOptions{Threads: 2, Roots: emds.RootsNewtonSchulz,
				NS: engine.NSOptions{MaxIter: 3, Tol: -1}})
			want, wg := evalCPU(t, eig, c)
			got, gg := evalCPU(t, ns, c)
			if e := math.Abs(got-want) / want; !(e <= 1e-9) {
				t.Errorf("stress: newton-schulz %.15g, eigen %.15g (rel %.2g)", got, want, e)
			}
			for _, x := range []struct {
				name      string
				got, want []float64
			}{{"grad means", gg.Means, wg.Means}, {"grad scales", gg.Scales, wg.Scales}, {"per-point", gg.PerPoint, wg.PerPoint}} {
				if e := vecRelErr(x.got, x.want); !(e <= 1e-8) {
					t.Errorf("%s: rel err %.2g", x.name, e)
				}
			}
			bad, _ := evalCPU(t, crude, c)
			if e := math.Abs(bad-want) / want; !(e >= 1e-4) {
				t.Errorf("3 Newton-Schulz iterations: stress %.15g within %.2g of eigen %.15g; the option did not change the kernel", bad, e, want)
			}
		})
	}
	if _, err := emds.NewCPUBackendWith(emds.CPUOptions{Roots: "cholesky"}); err == nil {
		t.Error("unknown root method accepted")
	}
}

// TestDistanceMatrixRoots: Newton-Schulz W2 distances agree with the
// exact ones to the documented tolerance.
func TestDistanceMatrixRoots(t *testing.T) {
	for _, d := range []int{2, 4, 9} {
		_, s := backendtest.Make(backendtest.Case{N: 15, Dim: d, Tau: 1, Seed: uint64(30 + d)})
		e := &engine.Embedding{Family: engine.Gaussian(), Dim: d, Means: s.Means, Scales: s.Scales, Labels: make([]string, 15)}
		want := engine.DistanceMatrix(e)
		got, err := emds.DistanceMatrixRoots(e, emds.RootsNewtonSchulz, engine.NSOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := vecRelErr(got, want); !(err <= 1e-9) {
			t.Errorf("d=%d: rel err %.2g", d, err)
		}
	}
	if _, err := emds.DistanceMatrixRoots(&engine.Embedding{}, "qr", engine.NSOptions{}); err == nil {
		t.Error("unknown root method accepted")
	}
}
