package engine_test

import (
	"testing"

	"burescope/engine"
	"burescope/engine/backendtest/suite"
)

func TestCPUBackendConformance(t *testing.T) {
	for _, threads := range []int{1, 3} {
		suite.Run(t, func() engine.Backend { return engine.NewCPUBackend(threads) })
	}
}
