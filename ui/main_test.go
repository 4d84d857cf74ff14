package ui

import (
	"os"
	"testing"
)

// TestMain turns the optimiser's convergence stop off for the whole
// package (see stopTol): app tests count iterations across Step, Space
// and Reset, and a fit that converged in between would make them flaky.
// Iteration budgets (Settings.Iterations) still end runs.
func TestMain(m *testing.M) {
	stopTol = 0
	os.Exit(m.Run())
}
