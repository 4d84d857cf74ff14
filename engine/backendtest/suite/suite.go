// Package suite adapts the backend conformance suite of engine/backendtest
// to package testing: one subtest per case, the core's failures reported
// as test errors. It is imported by tests only; the core stays free of
// package testing so that `burescope selftest` can run it.
package suite

import (
	"testing"

	"burescope/engine"
	"burescope/engine/backendtest"
)

// Run checks a backend against the reference with tolerance 1e-9 (float64
// backends). newBackend is called once per case.
func Run(t *testing.T, newBackend func() engine.Backend) {
	RunWithTolerance(t, newBackend, 1e-9)
}

// RunWithTolerance is Run with a relative tolerance tol for stress and
// gradients (e.g. 1e-4 for float32 backends); the finite-difference
// checks adapt to it (backendtest.Tolerances).
func RunWithTolerance(t *testing.T, newBackend func() engine.Backend, tol float64) {
	RunCases(t, newBackend, tol, backendtest.Cases)
}

// RunCases is RunWithTolerance on a chosen table (e.g. only the d = 2 and
// d = 3 rows of Cases for a backend limited to those dimensions): one
// subtest per case (large ones skipped with -short), then "cancelled" and
// "bad-state", each reporting the core's failures (backendtest.CheckCase,
// CheckCancel, CheckBadState) as test errors.
func RunCases(t *testing.T, newBackend func() engine.Backend, tol float64, cases []backendtest.Case) {
	sub := func(name string, check func(engine.Backend) backendtest.Result) {
		t.Run(name, func(t *testing.T) {
			b := newBackend()
			defer b.Close()
			report(t, check(b))
		})
	}
	for _, c := range cases {
		if c.N > 500 && testing.Short() {
			t.Run(c.Name, func(t *testing.T) { t.Skip("large case in -short mode") })
			continue
		}
		sub(c.Name, func(b engine.Backend) backendtest.Result { return backendtest.CheckCase(b, c, tol) })
	}
	sub("cancelled", backendtest.CheckCancel)
	sub("bad-state", backendtest.CheckBadState)
}

// report turns a Result into test errors.
func report(t *testing.T, r backendtest.Result) {
	t.Helper()
	for _, f := range r.Failures {
		t.Error(f)
	}
	if !r.Passed && len(r.Failures) == 0 {
		t.Error("failed without a message")
	}
}
