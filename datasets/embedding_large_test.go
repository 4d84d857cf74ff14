package datasets

import (
	"fmt"
	"os"
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

// TestLoadLargeEmbeddingFileSize checks the byte limits (lowered here, as
// the real ones are 512 MiB and 4 GiB): a file above the usual limit is
// refused by LoadEmbedding with a message naming it and read back whole by
// LoadLargeEmbedding (the 82,115 WordNet nouns at d = 20 make a 705 MB
// file that train-relations writes and eval-relations must read); above
// the large limit LoadLargeEmbedding refuses it too.
func TestLoadLargeEmbeddingFileSize(t *testing.T) {
	const n = 500
	e := &engine.Embedding{Family: engine.Gaussian(), Dim: 1, Labels: make([]string, n),
		Means: make([]float64, n), Scales: make([]float64, n)}
	for i := 0; i < n; i++ {
		e.Labels[i] = fmt.Sprint("w", i)
		e.Means[i] = float64(i) / 3
		e.Scales[i] = 1 + float64(i%7)
	}
	path := filepath.Join(t.TempDir(), "big.json")
	if err := SaveEmbedding(path, e); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func(a, b int64) { fileLimit, largeFileLimit = a, b }(fileLimit, largeFileLimit)
	fileLimit, largeFileLimit = st.Size()/2, 2*st.Size()
	if _, err := LoadEmbedding(path); err == nil || !strings.Contains(err.Error(), "file is larger than") {
		t.Errorf("LoadEmbedding above the usual limit: %v", err)
	}
	got, err := LoadLargeEmbedding(path)
	if err != nil {
		t.Fatalf("LoadLargeEmbedding: %v", err)
	}
	if got.Len() != n || got.Means[n-1] != e.Means[n-1] {
		t.Errorf("read back %d items, last mean %v", got.Len(), got.Means[n-1])
	}
	largeFileLimit = st.Size() / 2
	if _, err := LoadLargeEmbedding(path); err == nil || !strings.Contains(err.Error(), "file is larger than") {
		t.Errorf("LoadLargeEmbedding above its limit: %v", err)
	}
}
