package datasets

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"burescope/engine"
)

// TestLoadLargeEmbedding checks that an embedding file of more than
// MaxItems items is refused by LoadEmbedding (naming the limit) and read
// back whole by LoadLargeEmbedding.
func TestLoadLargeEmbedding(t *testing.T) {
	const n = MaxItems + 1
	e := &engine.Embedding{Family: engine.Gaussian(), Dim: 1, Labels: make([]string, n),
		Means: make([]float64, n), Scales: make([]float64, n)}
	for i := 0; i < n; i++ {
		e.Labels[i] = fmt.Sprint("w", i)
		e.Means[i] = float64(i)
		e.Scales[i] = 1 + float64(i%7)
	}
	path := filepath.Join(t.TempDir(), "large.json")
	if err := SaveEmbedding(path, e); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadEmbedding(path); err == nil || !strings.Contains(err.Error(), fmt.Sprint(MaxItems)) {
		t.Errorf("LoadEmbedding: %v, want the %d-item limit", err, MaxItems)
	}
	got, err := LoadLargeEmbedding(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != n || got.Labels[n-1] != e.Labels[n-1] || got.Means[n-1] != e.Means[n-1] || got.Scales[n-1] != e.Scales[n-1] {
		t.Errorf("read back %d items, last %q %v %v", got.Len(), got.Labels[n-1], got.Means[n-1], got.Scales[n-1])
	}
}
