package emds

import (
	"burescope/engine"
	"strings"
	"testing"
)

// TestNonFiniteInitialStressNamesItem: an initial embedding whose stress
// overflows (a mean near the float64 limit) is refused with a message that
// names the stress value and the item whose per-point stress is not
// finite, not only "not finite".
func TestNonFiniteInitialStressNamesItem(t *testing.T) {
	n := 4
	dist := make([]float64, n*(n-1)/2)
	for k := range dist {
		dist[k] = 1
	}
	e := &engine.Embedding{Family: engine.Gaussian(), Dim: 2, Labels: []string{"a", "b", "c", "d"},
		Means: []float64{0, 0, 1, 0, 0, 1, 1.5e308, 1.5e308}, Scales: make([]float64, 4*4)}
	for i := 0; i < n; i++ {
		e.Scales[i*4], e.Scales[i*4+3] = 1, 1
	}
	opt := DefaultOptions()
	opt.InitEmbedding = e
	opt.MaxIter = 1
	_, err := NewOptimizer(n, dist, opt, NewCPUBackend(1))
	if err == nil {
		t.Fatal("an overflowing initial state was accepted")
	}
	msg := err.Error()
	if !strings.Contains(msg, "item 3") || !strings.Contains(msg, "data scale") {
		t.Errorf("error %q does not name item 3 and the data scale", msg)
	}
}
