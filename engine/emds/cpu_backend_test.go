package emds_test

import (
	"fmt"
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
