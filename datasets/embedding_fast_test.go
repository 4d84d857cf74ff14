package datasets

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"burescope/engine"
)

// sameEmbedding reports whether a and b are equal bit for bit.
func sameEmbedding(a, b *engine.Embedding) bool {
	if a.Family != b.Family || a.Dim != b.Dim || !reflect.DeepEqual(a.Labels, b.Labels) ||
		len(a.Means) != len(b.Means) || len(a.Scales) != len(b.Scales) {
		return false
	}
	for i := range a.Means {
		if math.Float64bits(a.Means[i]) != math.Float64bits(b.Means[i]) {
			return false
		}
	}
	for i := range a.Scales {
		if math.Float64bits(a.Scales[i]) != math.Float64bits(b.Scales[i]) {
			return false
		}
	}
	return true
}

// TestEmbeddingFastParse checks that the fast reader of embedding files
// takes the files WriteEmbeddingJSON writes (also compacted, re-indented,
// with escaped labels, keys in another order) and gives the same
// embedding, bit for bit, as the encoding/json path; and that it declines
// everything it does not handle, so that the decoder reads it (and gives
// any error its message): factors, unknown or duplicated keys, null,
// non-finite or non-JSON numbers, ragged rows, trailing data.
func TestEmbeddingFastParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{1, 4} {
		for _, fam := range []engine.Family{engine.Gaussian(), engine.Uniform(d), engine.CustomFamily(0.7)} {
			e := randomEmbedding(rng, fam, 12, d)
			e.Labels[3] = "quote \" backslash \\ slash / é"
			e.Means[2] = 1e-310 // subnormal
			var buf bytes.Buffer
			if err := WriteEmbeddingJSON(&buf, e); err != nil {
				t.Fatal(err)
			}
			var compact, indented bytes.Buffer
			if err := json.Compact(&compact, buf.Bytes()); err != nil {
				t.Fatal(err)
			}
			if err := json.Indent(&indented, buf.Bytes(), "", "\t"); err != nil {
				t.Fatal(err)
			}
			var m map[string]any // keys sorted by encoding/json
			if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
				t.Fatal(err)
			}
			reordered, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			for name, data := range map[string][]byte{"written": buf.Bytes(), "compact": compact.Bytes(), "indented": indented.Bytes(), "reordered": reordered} {
				slow, err := parseEmbeddingSlow("e.json", data, MaxItems)
				if err != nil {
					t.Fatalf("%s %s d=%d: %v", fam.Name, name, d, err)
				}
				fast, ok := parseEmbeddingFast("e.json", data, MaxItems)
				if !ok {
					t.Fatalf("%s %s d=%d: fast reader declined", fam.Name, name, d)
				}
				if !sameEmbedding(fast, slow) {
					t.Fatalf("%s %s d=%d: fast and encoding/json readers differ", fam.Name, name, d)
				}
			}
		}
	}
	base := `{"format": "burescope-embedding/1", "family": "gaussian", "tau": 1, "dim": 2, "labels": ["a", "b"], "means": [[1, 2], [3, 4]], "covariances": [[[1, 0], [0, 1]], [[2, 0.5], [0.5, 1]]]}`
	if _, ok := parseEmbeddingFast("e.json", []byte(base), MaxItems); !ok {
		t.Fatal("fast reader declined the base file")
	}
	for _, bad := range []struct{ from, to string }{
		{`"covariances": [[[1, 0], [0, 1]], [[2, 0.5], [0.5, 1]]]`, `"factors": [[[1], [0]], [[2], [0.5]]]`},
		{`"tau": 1`, `"tau": 1, "note": "x"`},
		{`"tau": 1`, `"tau": 1, "tau": 1`},
		{`"means"`, `"Means"`},
		{`[[1, 2], [3, 4]]`, `[[1, 2], [3, null]]`},
		{`[[1, 2], [3, 4]]`, `[[1, 2], [3, 1e999]]`},
		{`[[1, 2], [3, 4]]`, `[[1, 2], [3, 04]]`},
		{`[[1, 2], [3, 4]]`, `[[1, 2], [3, .4]]`},
		{`[[1, 2], [3, 4]]`, `[[1, 2], [3, 4.]]`},
		{`[[1, 2], [3, 4]]`, `[[1, 2], [3, +4]]`},
		{`[[1, 2], [3, 4]]`, `[[1, 2], [3, NaN]]`},
		{`[[1, 2], [3, 4]]`, `[[1, 2], [3, 4, 5]]`},
		{`[[1, 2], [3, 4]]`, `[[1, 2]]`},
		{`[[[1, 0], [0, 1]], [[2, 0.5], [0.5, 1]]]`, `[[[1, 0], [0, 1]], [[2, 0.5, 1], [0.5, 1, 1]]]`},
		{`[[[1, 0], [0, 1]], [[2, 0.5], [0.5, 1]]]`, `[[[1, 0], [0, 1]], [[-2, 0.5], [0.5, 1]]]`},
		{`"dim": 2`, `"dim": 2.0`},
		{`"dim": 2`, `"dim": 3`},
		{`["a", "b"]`, `["a", "a"]`},
		{`"gaussian"`, `"gaussian\u0001"`},
		{`}`, `} x`},
	} {
		data := strings.Replace(base, bad.from, bad.to, 1)
		if _, ok := parseEmbeddingFast("e.json", []byte(data), MaxItems); ok {
			t.Errorf("fast reader took %s", data)
		}
	}
}

// FuzzEmbeddingFastMatchesDecoder: whatever the fast reader accepts, the
// encoding/json path accepts too and reads as the same embedding, bit
// for bit.
func FuzzEmbeddingFastMatchesDecoder(f *testing.F) {
	var buf bytes.Buffer
	if err := WriteEmbeddingJSON(&buf, randomEmbedding(rand.New(rand.NewPCG(7, 8)), engine.Gaussian(), 3, 2)); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"burescope-embedding/1","family":"uniform","dim":2,"labels":["a"],"means":[[1,2]],"covariances":[[[1,0.5],[0.5,2]]]}`))
	f.Add([]byte(`{"dim":1,"covariances":[[[2]]],"format":"burescope-embedding/1","family":"gaussian","labels":["a\u00e9"],"means":[[-0.5e-3]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		text, err := checkText("fuzz.json", data)
		if err != nil {
			return
		}
		fast, ok := parseEmbeddingFast("fuzz.json", text, MaxItems)
		if !ok {
			return
		}
		slow, err := parseEmbeddingSlow("fuzz.json", text, MaxItems)
		if err != nil {
			t.Fatalf("fast reader accepted what the decoder rejects (%v): %q", err, data)
		}
		if !sameEmbedding(fast, slow) {
			t.Fatalf("fast reader and decoder differ on %q", data)
		}
	})
}
