package datasets

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"burescope/engine"
)

// TestEmbeddingClassesRoundTrip: an embedding's classes are written as
// "classes" and read back by both parsers (the fast one and encoding/json,
// reached here by a key order the fast one does not take), and by Load as
// the dataset's class column; a wrong count is an error.
func TestEmbeddingClassesRoundTrip(t *testing.T) {
	e := &engine.Embedding{Family: engine.Gaussian(), Dim: 2, Labels: []string{"a", "b", "c"},
		Classes: []string{"x", "y", "x"}, Means: []float64{0, 0, 1, 0, 0, 1},
		Scales: []float64{1, 0, 0, 1, 2, 0, 0, 2, 1, 0.5, 0.5, 1}}
	var buf bytes.Buffer
	if err := WriteEmbeddingJSON(&buf, e); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"classes": [`) {
		t.Fatalf("no classes written:\n%s", buf.String())
	}
	fast, ok := parseEmbeddingFast("f.json", buf.Bytes(), MaxItems)
	if !ok {
		t.Fatal("the fast parser refused its own writer's file")
	}
	slow, err := parseEmbeddingSlow("f.json", buf.Bytes(), MaxItems)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []*engine.Embedding{fast, slow} {
		if strings.Join(got.Classes, ",") != "x,y,x" {
			t.Errorf("classes read back %q", got.Classes)
		}
	}
	path := filepath.Join(t.TempDir(), "e.json")
	if err := SaveEmbedding(path, e); err != nil {
		t.Fatal(err)
	}
	ds, err := Load(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ds.Classes, ",") != "x,y,x" {
		t.Errorf("Load: classes %q", ds.Classes)
	}
	bad := strings.Replace(buf.String(), `"x",`, ``, 1)
	if _, err := parseEmbeddingSlow("f.json", []byte(bad), MaxItems); err == nil || !strings.Contains(err.Error(), "classes") {
		t.Errorf("2 classes for 3 items: %v", err)
	}
	if _, ok := parseEmbeddingFast("f.json", []byte(bad), MaxItems); ok {
		t.Error("fast parser took 2 classes for 3 items")
	}
	e.Classes = e.Classes[:2]
	if err := WriteEmbeddingJSON(&buf, e); err == nil {
		t.Error("wrote 2 classes for 3 items")
	}
}
