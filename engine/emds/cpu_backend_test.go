package emds_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"burescope/engine/backendtest"
	"burescope/engine/emds"
)

// conformance runs the shared backend suite (backendtest.Suite) on the
// backends open makes and reports each check as a subtest (the n > 500
// case is skipped with -short).
func conformance(t *testing.T, open func() (emds.Backend, error), tol float64, cases []backendtest.Case) {
	t.Helper()
	for _, r := range backendtest.Suite(open, tol, cases, testing.Short()) {
		t.Run(r.Case, func(t *testing.T) {
			if r.Skipped {
				t.Skip("large case in -short mode")
			}
			for _, f := range r.Failures {
				t.Error(f)
			}
			if !r.Passed && len(r.Failures) == 0 {
				t.Error("failed without a message")
			}
		})
	}
}

func TestCPUBackendConformance(t *testing.T) {
	for _, threads := range []int{1, 3} {
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
			conformance(t, func() (emds.Backend, error) { return emds.NewCPUBackend(threads), nil }, 1e-9, backendtest.Cases)
		})
	}
}

// TestCPUBackendConformanceGeneral runs the suite on the pair kernel of
// engine/pairkernel (pairs_general.go) at more dimensions than the
// shared table.
func TestCPUBackendConformanceGeneral(t *testing.T) {
	cases := []backendtest.Case{
		{Name: "d4-many-weighted", N: 40, Dim: 4, Tau: 1, Weighted: true, Seed: 20},
		{Name: "d5-many-weighted", N: 40, Dim: 5, Tau: 1, Weighted: true, Seed: 21},
		{Name: "d10", N: 12, Dim: 10, Tau: 1.0 / 12, Seed: 22},
		{Name: "d16", N: 8, Dim: 16, Tau: 1, Seed: 23},
		{Name: "d13-weighted", N: 6, Dim: 13, Tau: 1, Weighted: true, Seed: 24},
	}
	for _, threads := range []int{1, 2} {
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
			conformance(t, func() (emds.Backend, error) { return emds.NewCPUBackend(threads), nil }, 1e-9, cases)
		})
	}
}

// TestCPUBackendGeneralThreads checks that the pair kernel's results are
// bit for bit the same for any thread count (several accumulator blocks).
func TestCPUBackendGeneralThreads(t *testing.T) {
	for _, c := range []struct{ n, d int }{{300, 4}, {300, 5}, {100, 12}} {
		p, s := backendtest.Make(backendtest.Case{N: c.n, Dim: c.d, Tau: 1, Weighted: true, Seed: uint64(c.d)})
		var ref emds.Gradient
		var refStress float64
		for _, threads := range []int{1, 2, 3} {
			b := emds.NewCPUBackend(threads)
			if err := b.Load(p); err != nil {
				t.Fatal(err)
			}
			g := emds.Gradient{Means: make([]float64, c.n*c.d), Scales: make([]float64, c.n*c.d*c.d), PerPoint: make([]float64, c.n)}
			stress, err := b.Evaluate(context.Background(), s, &g)
			if err != nil {
				t.Fatal(err)
			}
			if threads == 1 {
				ref, refStress = g, stress
				continue
			}
			if math.Float64bits(stress) != math.Float64bits(refStress) {
				t.Errorf("n=%d d=%d threads=%d: stress %.17g, 1 thread %.17g", c.n, c.d, threads, stress, refStress)
			}
			for _, x := range []struct {
				name string
				a, b []float64
			}{{"means", g.Means, ref.Means}, {"scales", g.Scales, ref.Scales}, {"per-point", g.PerPoint, ref.PerPoint}} {
				for k := range x.a {
					if math.Float64bits(x.a[k]) != math.Float64bits(x.b[k]) {
						t.Errorf("n=%d d=%d threads=%d %s[%d]: %.17g, 1 thread %.17g", c.n, c.d, threads, x.name, k, x.a[k], x.b[k])
						break
					}
				}
			}
		}
	}
}
