package datasets

import (
	"bytes"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"burescope/assets"
	"burescope/engine"
)

// Fuzz targets, one per parser. Each checks that no input panics and that
// what is accepted satisfies the package's contracts. Seeds are valid and
// invalid samples; crashers that were fixed live in testdata/fuzz.

// tableSeeds are delimited-text samples shared by the table fuzzers.
var tableSeeds = []string{
	",a,b,c\na,0,1,2\nb,1,0,1.5\nc,2,1.5,0\n",
	"0\t1\t2\r\n1\t0\t3\r\n2\t3\t0\r\n",
	"1,2,3\n0,1,2\n1,0,1.5\n2,1.5,0\n",
	"7,0,1,2\n8,1,0,1.5\n9,2,1.5,0\n",
	"\ufeff;\"a\";\"b\"\n\"a\";0;1\n\"b\";1;0\n",
	"0,NaN\nNaN,0\n",
	"0,-1\n-1,0\n",
	"0,1\n2,0\n",
	"name,kind,a,b\nw,p,1,2\nx,p,3,4\ny,q,5,6\nz,q,7,8\n",
	"country,code,math\nA,AAA,1\nB,BBB,abc\nC,CCC,3\n",
	"v\n1e300\n-1e300\n",
	"child\tancestor\nc\ta\nc\tr\na\tr\nb\tr\n",
	"a\tb\nb\tc\nc\ta\n",
	"a\tb\nc\td\n",
	"\"a,\"b\"\"\n\"",
	"\x89PNG\r\n\x1a\n\x00",
	"",
	",a,b\na,0,1\nb\x1b,1,0\n",
	"0,1e-310,2e-310\n1e-310,0,1e-310\n2e-310,1e-310,0\n",
	"0,1e300,1e300\n1e300,0,1e300\n1e300,1e300,0\n",
	",a,b,c\na,1,1,2\nb,1,0,3\nc,2,3,0\n",
}

// tooBig skips fuzz inputs of more than 1000 lines: a legitimate table of
// n lines costs O(n^2) time and memory for its distances (seconds at
// n = MaxItems), which only slows the fuzzer down.
func tooBig(data ...[]byte) bool {
	for _, d := range data {
		if bytes.Count(d, []byte{'\n'})+bytes.Count(d, []byte{'\r'}) > 1000 {
			return true
		}
	}
	return false
}

// checkDataset verifies the invariants every loaded Dataset has.
func checkDataset(t *testing.T, ds *Dataset) {
	t.Helper()
	n := ds.Len()
	if n < 2 || n > MaxItems {
		t.Fatalf("n = %d", n)
	}
	if len(ds.Dist) != n*(n-1)/2 {
		t.Fatalf("len(Dist) = %d for n = %d", len(ds.Dist), n)
	}
	for k, d := range ds.Dist {
		if !(d >= 0) || math.IsInf(d, 0) {
			t.Fatalf("Dist[%d] = %v", k, d)
		}
	}
	seen := map[string]bool{}
	for _, l := range ds.Labels {
		if l == "" || seen[l] {
			t.Fatalf("label %q empty or repeated in %q", l, ds.Labels)
		}
		if labelControl(l) != "" {
			t.Fatalf("label %q has a control character", l)
		}
		seen[l] = true
	}
	if strings.Contains(ds.Detected, "\n") {
		t.Fatalf("detection notice %q is more than one line", ds.Detected)
	}
	if ds.Classes != nil && len(ds.Classes) != n {
		t.Fatalf("%d classes for %d items", len(ds.Classes), n)
	}
	if ds.Features != nil && len(ds.Features) != n*len(ds.FeatureNames) {
		t.Fatalf("%d feature values for %d x %d", len(ds.Features), n, len(ds.FeatureNames))
	}
	for _, v := range ds.Features {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("feature value %v", v)
		}
	}
}

func FuzzDistances(f *testing.F) {
	for _, s := range tableSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, symmetrize bool) {
		if tooBig(data) {
			return
		}
		ds, err := LoadBytes(data, "fuzz.csv", Options{Kind: KindDistances, Symmetrize: symmetrize})
		if err != nil {
			return
		}
		checkDataset(t, ds)
		// What was read must survive a write and a re-read, with detection.
		var buf bytes.Buffer
		if err := WriteDistancesCSV(&buf, ds.Labels, ds.Dist); err != nil {
			t.Fatal(err)
		}
		back, err := LoadBytes(buf.Bytes(), "back.csv", Options{})
		if err != nil {
			t.Fatalf("re-reading written matrix: %v\n%s", err, buf.String())
		}
		if back.Kind != KindDistances || !reflect.DeepEqual(back.Labels, ds.Labels) || !reflect.DeepEqual(back.Dist, ds.Dist) {
			t.Fatalf("round trip changed the data: %s %q %v vs %q %v\n%s", back.Kind, back.Labels, back.Dist, ds.Labels, ds.Dist, buf.String())
		}
	})
}

func FuzzFeatures(f *testing.F) {
	for _, s := range tableSeeds {
		f.Add([]byte(s), uint8(0))
	}
	for _, name := range []string{assets.PISA2015, assets.Iris} {
		data, err := fs.ReadFile(assets.FS(), name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 600)], uint8(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		if tooBig(data) {
			return
		}
		opt := Options{Kind: KindFeatures}
		on, off := true, false
		switch mode % 3 {
		case 1:
			opt.Standardize = &on
		case 2:
			opt.Standardize = &off
		}
		ds, err := LoadBytes(data, "fuzz.csv", opt)
		if err != nil {
			return
		}
		checkDataset(t, ds)
		if ds.Standardized && (len(ds.FeatureMeans) != len(ds.FeatureNames) || len(ds.FeatureSDs) != len(ds.FeatureNames)) {
			t.Fatal("standardised without means and sds")
		}
	})
}

func FuzzRelations(f *testing.F) {
	for _, s := range tableSeeds {
		f.Add([]byte(s))
	}
	data, err := fs.ReadFile(assets.FS(), assets.Mammals)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data[:400])
	f.Fuzz(func(t *testing.T, data []byte) {
		if tooBig(data) {
			return
		}
		ds, err := LoadBytes(data, "fuzz.tsv", Options{Kind: KindRelations})
		if err != nil {
			return
		}
		checkDataset(t, ds)
		n := ds.Len()
		for _, d := range ds.Dist {
			if d < 1 || d != math.Trunc(d) || d >= float64(n) {
				t.Fatalf("path length %v between distinct items of %d", d, n)
			}
		}
		for _, e := range ds.Edges {
			i, j := min(e[0], e[1]), max(e[0], e[1])
			if i == j || ds.Dist[engine.PairIndex(n, i, j)] != 1 {
				t.Fatalf("edge %v is not at distance 1", e)
			}
		}
		for _, p := range ds.Relations {
			if p[0] < 0 || p[0] >= n || p[1] < 0 || p[1] >= n {
				t.Fatalf("relation %v out of range", p)
			}
		}
	})
}

func FuzzEmbeddingJSON(f *testing.F) {
	var buf bytes.Buffer
	if err := WriteEmbeddingJSON(&buf, randomEmbedding(rand.New(rand.NewPCG(5, 6)), engine.Uniform(2), 3, 2)); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	for _, s := range []string{
		`{"format":"burescope-embedding/1","family":"uniform","dim":2,"labels":["a"],"means":[[1,2]],"covariances":[[[1,0.5],[0.5,2]]]}`,
		`{"format":"burescope-embedding/1","family":"custom","tau":0.3,"dim":1,"labels":["a","b"],"means":[[1],[2]],"factors":[[[1,2]],[[]]]}`,
		`{"format":"burescope-embedding/1","family":"gaussian","dim":2,"labels":["a","b"],"means":[[0,0],[1,1]],"covariances":[[[1,2],[2,1]],[[1,0],[0,1]]]}`,
		`{"format":"burescope-embedding/1","dim":2,"family":"gaussian","labels":["a","b"],"means":[[0,null],[1,2]]}`,
		`{"format":"burescope-embedding/1","dim":1e3}`,
		`[1,2]`, `{`, `{"dim": "two"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := parseEmbedding("fuzz.json", data)
		if err != nil {
			return
		}
		n, d := e.Len(), e.Dim
		if n < 1 || d < 1 || len(e.Means) != n*d || len(e.Scales) != n*d*d {
			t.Fatalf("shapes n=%d d=%d means %d scales %d", n, d, len(e.Means), len(e.Scales))
		}
		var out bytes.Buffer
		if err := WriteEmbeddingJSON(&out, e); err != nil {
			t.Fatalf("an accepted embedding cannot be written: %v", err)
		}
		back, err := parseEmbedding("back.json", out.Bytes())
		if err != nil {
			t.Fatalf("re-reading a written embedding: %v\n%s", err, out.String())
		}
		if back.Family != e.Family || !reflect.DeepEqual(back.Labels, e.Labels) || !reflect.DeepEqual(back.Means, e.Means) {
			t.Fatalf("round trip changed family, labels or means")
		}
		for k, v := range e.Scales {
			m := 0.0
			for _, w := range e.Scale(k / (d * d)) {
				m = math.Max(m, math.Abs(w))
			}
			if !(math.Abs(back.Scales[k]-v) <= 1e-9*m) {
				t.Fatalf("scale value %d: %v became %v", k, v, back.Scales[k])
			}
		}
	})
}

func FuzzProjector(f *testing.F) {
	f.Add([]byte("1\t2\t3\n4\t6\t3\n"), []byte("a\nb\n"))
	f.Add([]byte("1\t2\n3\t4\n5\t6\n"), []byte("w\tc\nx\tp\ny\tq\nz\tp\n"))
	f.Add([]byte("1\t2\n3\tx\n"), []byte("a\na\n"))
	f.Add([]byte("1e308\t-1e308\n-1e308\t1e308\n"), []byte("\"a\"\n\"b\"\"\"\n"))
	f.Fuzz(func(t *testing.T, vectors, meta []byte) {
		if tooBig(vectors, meta) {
			return
		}
		ds, err := parseProjector("vectors.tsv", vectors, "metadata.tsv", meta, Options{})
		if err != nil {
			return
		}
		checkDataset(t, ds)
	})
}

// FuzzLoad runs the whole automatic path (detection then parsing).
func FuzzLoad(f *testing.F) {
	for _, s := range tableSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"format":"burescope-embedding/1","family":"uniform","dim":2,"labels":["a"],"means":[[1,2]],"covariances":[[[1,0.5],[0.5,2]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if tooBig(data) {
			return
		}
		ds, err := LoadBytes(data, "fuzz", Options{})
		if err != nil {
			return
		}
		if ds.Kind == KindEmbedding {
			if ds.Embedding == nil || len(ds.Labels) != ds.Embedding.Len() {
				t.Fatal("embedding dataset without its embedding")
			}
			return
		}
		checkDataset(t, ds)
	})
}

// FuzzStreamedDistances writes each input to a file and loads it twice,
// streamed row by row into the triangle and read whole: both readings
// accept the same files (auto-detection and --kind distances), and what
// they accept is identical (kind, labels, distances, asymmetry, notice).
func FuzzStreamedDistances(f *testing.F) {
	for _, s := range tableSeeds {
		f.Add([]byte(s), false, false)
		f.Add([]byte(s), true, true)
	}
	f.Add([]byte("0,1,2\n1,0,3\n2,3,x\n"), false, false)
	f.Add([]byte("0,1,2,3\n1,0,4,5\n2,4,0,6\n3,5,6,7\n"), false, false)
	f.Add([]byte(",a,b\na,0,1\nb\x07,1,0\n"), false, false)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, forced, symmetrize bool) {
		if tooBig(data) {
			return
		}
		path := filepath.Join(dir, "s.csv")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		opt := Options{Symmetrize: symmetrize}
		if forced {
			opt.Kind = KindDistances
		}
		whole, werr := Load(path, opt)
		saved := streamMin
		streamMin = 0
		streamed, serr := Load(path, opt)
		streamMin = saved
		if (werr == nil) != (serr == nil) {
			t.Fatalf("whole-file error %v, streamed error %v", werr, serr)
		}
		if werr != nil {
			return
		}
		checkDataset(t, streamed)
		if whole.Kind != streamed.Kind || !reflect.DeepEqual(whole.Labels, streamed.Labels) ||
			!reflect.DeepEqual(whole.Dist, streamed.Dist) || whole.Asymmetry != streamed.Asymmetry ||
			(whole.Kind == KindDistances && whole.Detected != streamed.Detected) {
			t.Fatalf("whole %s %q %v %q, streamed %s %q %v %q", whole.Kind, whole.Labels, whole.Dist, whole.Detected, streamed.Kind, streamed.Labels, streamed.Dist, streamed.Detected)
		}
	})
}
