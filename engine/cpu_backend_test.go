package engine_test

import (
	"testing"

	"burescope/engine"
	"burescope/engine/backendtest"
)

func TestCPUBackendConformance(t *testing.T) {
	for _, threads := range []int{1, 3} {
		backendtest.Run(t, func() engine.Backend { return engine.NewCPUBackend(threads) })
	}
}
