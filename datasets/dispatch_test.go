package datasets

import (
	"testing"
)

// TestNumPyDispatch checks that the generic entry points (Load, Detect,
// LoadEmbedding) hand .npz files to the NumPy loader and agree with it.
// Reference: LoadNPY on the same file (testdata/npy/authors.npz, written by
// npy_test.go's generator in the authors' layout).
func TestNumPyDispatch(t *testing.T) {
	const path = "testdata/npy/authors.npz"
	want, err := LoadNPY(path, NPYOptions{})
	if err != nil {
		t.Fatalf("LoadNPY: %v", err)
	}
	kind, err := Detect(path)
	if err != nil || kind != KindEmbedding {
		t.Fatalf("Detect = %q, %v; want %q", kind, err, KindEmbedding)
	}
	ds, err := Load(path, Options{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if ds.Kind != KindEmbedding || ds.Embedding == nil || ds.Len() != want.Len() {
		t.Fatalf("Load gave kind %q, n=%d; want embedding with n=%d", ds.Kind, ds.Len(), want.Len())
	}
	emb, err := LoadEmbedding(path)
	if err != nil {
		t.Fatalf("LoadEmbedding: %v", err)
	}
	for _, got := range [][]float64{ds.Embedding.Scales, emb.Scales} {
		if len(got) != len(want.Scales) {
			t.Fatalf("scales length %d, want %d", len(got), len(want.Scales))
		}
		for i := range got {
			if got[i] != want.Scales[i] {
				t.Fatalf("scale value %d = %v, want %v", i, got[i], want.Scales[i])
			}
		}
	}
	ctx, err := Load(path, Options{NPY: NPYOptions{Set: "c"}})
	if err != nil {
		t.Fatalf("Load context set: %v", err)
	}
	if ctx.Embedding.Means[0] == ds.Embedding.Means[0] && ctx.Embedding.Means[1] == ds.Embedding.Means[1] {
		t.Errorf("context set has the same means as the input set; Options.NPY.Set ignored?")
	}
}
