package datasets

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"burescope/engine"
)

// randomEmbedding returns n items in dimension d with random means and
// random PSD scales L L^T (L is d x d, some items rank-deficient).
func randomEmbedding(rng *rand.Rand, fam engine.Family, n, d int) *engine.Embedding {
	e := &engine.Embedding{Family: fam, Dim: d, Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
	for i := 0; i < n; i++ {
		e.Labels = append(e.Labels, "item "+string(rune('A'+i%26))+strings.Repeat("'", i/26))
		for a := 0; a < d; a++ {
			e.Means[i*d+a] = rng.NormFloat64() * 10
		}
		l := mat.NewDense(d, d, nil)
		for a := 0; a < d; a++ {
			for b := 0; b < d; b++ {
				if i%3 != 0 || b == 0 { // every third item has rank 1
					l.Set(a, b, rng.NormFloat64())
				}
			}
		}
		var c mat.Dense
		c.Mul(l, l.T())
		copy(e.Scale(i), c.RawMatrix().Data)
	}
	return e
}

func TestEmbeddingRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, fam := range []engine.Family{engine.Gaussian(), engine.Uniform(3), engine.CustomFamily(0.7)} {
		e := randomEmbedding(rng, fam, 30, 3)
		var buf bytes.Buffer
		if err := WriteEmbeddingJSON(&buf, e); err != nil {
			t.Fatal(err)
		}
		got, err := parseEmbedding("e.json", buf.Bytes())
		if err != nil {
			t.Fatalf("%s: %v\n%s", fam.Name, err, buf.String())
		}
		if got.Family != fam || got.Dim != 3 || !reflect.DeepEqual(got.Labels, e.Labels) || !reflect.DeepEqual(got.Means, e.Means) {
			t.Errorf("%s: family %+v dim %d labels/means differ", fam.Name, got.Family, got.Dim)
		}
		for k, v := range e.Scales {
			// The file holds tau * scale; dividing back costs at most a few ulps.
			if !(math.Abs(got.Scales[k]-v) <= 1e-14*math.Max(1, math.Abs(v))) {
				t.Fatalf("%s: scale value %d = %v, want %v", fam.Name, k, got.Scales[k], v)
			}
		}
	}
}

// TestEmbeddingCovarianceMeaning: "covariances" hold tau * scale, and
// "factors" F give covariance F F^T (doc.go).
func TestEmbeddingCovarianceMeaning(t *testing.T) {
	cov := `{"format":"burescope-embedding/1","family":"uniform","dim":2,"labels":["a"],"means":[[1,2]],"covariances":[[[1,0.5],[0.5,2]]]}`
	e, err := parseEmbedding("u.json", []byte(cov))
	if err != nil {
		t.Fatal(err)
	}
	// Uniform in d = 2: tau = 1/(2+2), so the scale is 4 * covariance.
	if want := []float64{4, 2, 2, 8}; !reflect.DeepEqual(e.Scales, want) || e.Family.Tau != 0.25 {
		t.Errorf("uniform scales %v tau %v, want %v and 0.25", e.Scales, e.Family.Tau, want)
	}
	fac := `{"format":"burescope-embedding/1","family":"gaussian","tau":1,"dim":2,"labels":["a","b"],"means":[[0,0],[1,1]],
	"factors":[[[1,2,0],[3,4,1]], [[],[]]]}`
	e, err = parseEmbedding("f.json", []byte(fac))
	if err != nil {
		t.Fatal(err)
	}
	// F F^T for F = [[1,2,0],[3,4,1]]: [[5, 11], [11, 26]]; k = 0 is a Dirac.
	if want := []float64{5, 11, 11, 26, 0, 0, 0, 0}; !reflect.DeepEqual(e.Scales, want) {
		t.Errorf("factor scales %v, want %v", e.Scales, want)
	}
}

// TestEmbeddingRepair: a covariance that is PSD only up to rounding is
// accepted and repaired to an exactly symmetric PSD matrix.
func TestEmbeddingRepair(t *testing.T) {
	// [[1, 1+1e-9], [1, 1]] has eigenvalues ~2 and ~-5e-10 (rounding noise).
	in := `{"format":"burescope-embedding/1","family":"gaussian","dim":2,"labels":["a"],"means":[[0,0]],"covariances":[[[1,1.000000001],[1,1]]]}`
	e, err := parseEmbedding("r.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	s := e.Scale(0)
	if s[1] != s[2] {
		t.Errorf("not symmetrised: %v", s)
	}
	var eig mat.EigenSym
	eig.Factorize(mat.NewSymDense(2, s), false)
	if v := eig.Values(nil); v[0] < -1e-15 || !(math.Abs(v[1]-2) <= 1e-8) {
		t.Errorf("repaired eigenvalues %v, want >= 0 and ~2", v)
	}
}

func TestSaveEmbeddingAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "emb.json")
	e := randomEmbedding(rand.New(rand.NewPCG(3, 4)), engine.Gaussian(), 5, 2)
	if err := SaveEmbedding(path, e); err != nil {
		t.Fatal(err)
	}
	got, err := LoadEmbedding(path)
	if err != nil || !reflect.DeepEqual(got.Labels, e.Labels) {
		t.Fatalf("reload: %v", err)
	}
	before, _ := os.ReadFile(path)
	bad := *e
	bad.Means = append([]float64(nil), e.Means...)
	bad.Means[3] = math.NaN()
	if err := SaveEmbedding(path, &bad); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("saving a NaN mean: error %v", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("a failed save changed the existing file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left in the directory: %v", entries)
	}
	ds, err := Load(path, Options{})
	if err != nil || ds.Kind != KindEmbedding || ds.Embedding == nil || ds.Len() != 5 {
		t.Errorf("Load of an embedding file: %v", err)
	}
}

// TestEmbeddingErrorLines: errors about an item give the line where the
// item starts in the file.
func TestEmbeddingErrorLines(t *testing.T) {
	text := `{
  "format": "burescope-embedding/1", "family": "gaussian", "dim": 1,
  "labels": [
    "a",
    "b",
    "a"
  ],
  "means": [[0], [1], [2]],
  "covariances": [
    [[1]],
    [[-1]],
    [[1]]
  ]
}`
	_, err := parseEmbedding("e.json", []byte(text))
	if err == nil || !strings.Contains(err.Error(), `e.json:6: labels[2] ("a"): duplicate label (also labels[0])`) {
		t.Errorf("duplicate label on line 6: %v", err)
	}
	text = strings.Replace(text, `    "a"
  ]`, `    "c"
  ]`, 1)
	_, err = parseEmbedding("e.json", []byte(text))
	if err == nil || !strings.Contains(err.Error(), `e.json:11: covariances[1] ("b"): not positive semi-definite`) {
		t.Errorf("negative covariance on line 11: %v", err)
	}
}
