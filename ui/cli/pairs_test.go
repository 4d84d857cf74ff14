package cli

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"burescope/datasets"
	"burescope/engine"
)

// writeTable writes a generated clustered table for the CLI tests.
func writeTable(t *testing.T, n, p int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := writeTableCSV(path, clusteredTable(n, p, 4, 3), n, p, 4); err != nil {
		t.Fatal(err)
	}
	return path
}

// fit --pairs sampled on a feature table: JSON says pairs "sampled" with a
// standard error, and the saved embedding's stress-1 recomputed on all
// pairs (datasets' own distances, engine.DistanceMatrix) is within a few
// standard errors of the reported estimate.
func TestFitPairsSampled(t *testing.T) {
	const n = 150
	in := writeTable(t, n, 6)
	out := filepath.Join(t.TempDir(), "e.json")
	var so, se bytes.Buffer
	args := []string{"fit", in, "--pairs", "sampled", "--epochs", "80", "--out", out}
	if code := Main(args, &so, &se); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, se.String())
	}
	var r fitResult
	lastJSON(t, so.String(), &r)
	if r.Pairs != "sampled" || r.N != n || r.Iters != 80 || r.Stress1SE == nil {
		t.Fatalf("summary %+v", r)
	}
	if r.Structure != "full" || r.Roots != "eigen" {
		t.Errorf("sampled summary says structure %q, roots %q; want full, eigen", r.Structure, r.Roots)
	}
	ds, err := datasets.Load(in, datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	emb, err := datasets.LoadEmbedding(out)
	if err != nil {
		t.Fatal(err)
	}
	w := engine.DistanceMatrix(emb)
	var num, den float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d := ds.Dist[engine.PairIndex(n, i, j)]
			num += (d - w[i*n+j]) * (d - w[i*n+j])
			den += d * d
		}
	}
	exact := math.Sqrt(num / den)
	// n(n-1)/2 < the evaluation sample: the estimate is over all pairs.
	if e := math.Abs(exact - r.Stress1); !(e <= 1e-6*exact) || *r.Stress1SE != 0 {
		t.Errorf("reported stress-1 %v +- %v, recomputed on all pairs %v", r.Stress1, *r.Stress1SE, exact)
	}
}

// --pairs auto picks exact at or below SampledAutoMin rows and on inputs
// that are not feature tables; --pairs sampled refuses distance matrices;
// a bad mode is a usage error.
func TestFitPairsModes(t *testing.T) {
	in := writeTable(t, 40, 3)
	dm := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(dm, []byte(",a,b,c\na,0,1,2\nb,1,0,1.5\nc,2,1.5,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"auto small table", []string{"fit", in, "--iters", "5", "--baseline=false"}, 0, "exact"},
		{"exact", []string{"fit", in, "--pairs", "exact", "--iters", "5", "--baseline=false"}, 0, "exact"},
		{"sampled", []string{"fit", in, "--pairs", "sampled", "--epochs", "5"}, 0, "sampled"},
		{"sampled distances", []string{"fit", dm, "--pairs", "sampled"}, 2, ""},
		{"bad mode", []string{"fit", in, "--pairs", "some"}, 2, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var so, se bytes.Buffer
			code := Main(c.args, &so, &se)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, c.code, se.String())
			}
			if c.code != 0 {
				return
			}
			var r fitResult
			lastJSON(t, so.String(), &r)
			if r.Pairs != c.want {
				t.Errorf("pairs %q, want %q", r.Pairs, c.want)
			}
		})
	}
	for _, c := range []struct {
		mode string
		kind datasets.Kind
		n    int
		want bool
	}{
		{"auto", datasets.KindFeatures, SampledAutoMin, false},
		{"auto", datasets.KindFeatures, SampledAutoMin + 1, true},
		{"auto", datasets.KindDistances, 10 * SampledAutoMin, false},
		{"exact", datasets.KindFeatures, 10 * SampledAutoMin, false},
		{"auto", datasets.KindRelations, SampledAutoMin, false},
		{"auto", datasets.KindRelations, SampledAutoMin + 1, true},
		{"sampled", datasets.KindRelations, 10, true},
	} {
		if got, err := usePairs(c.mode, c.kind, c.n); err != nil || got != c.want {
			t.Errorf("usePairs(%s, %s, %d) = %v, %v; want %v", c.mode, c.kind, c.n, got, err, c.want)
		}
	}
}

// bench-pairs prints both paths, both evaluated on all pairs, and their
// ratio; --write-table writes a loadable table.
func TestBenchPairsJSON(t *testing.T) {
	var so, se bytes.Buffer
	if code := Main([]string{"bench-pairs", "--n", "120", "--features", "5", "--iters", "30", "--epochs", "30"}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	var r benchPairsResult
	lastJSON(t, so.String(), &r)
	if r.N != 120 || r.Exact == nil || r.Sampled == nil || r.Exact.Stress1 == nil || r.Sampled.Stress1 == nil || r.Ratio == nil {
		t.Fatalf("result %s", so.String())
	}
	if e := math.Abs(*r.Ratio - *r.Sampled.Stress1 / *r.Exact.Stress1); !(e <= 1e-12) {
		t.Errorf("ratio %v, want %v", *r.Ratio, *r.Sampled.Stress1 / *r.Exact.Stress1)
	}
	path := filepath.Join(t.TempDir(), "b.csv")
	so.Reset()
	if code := Main([]string{"bench-pairs", "--n", "50", "--features", "3", "--write-table", path}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	ds, err := datasets.Load(path, datasets.Options{NoDistances: true})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Len() != 50 || len(ds.FeatureNames) != 3 || ds.Dist != nil || len(ds.Classes) != 50 {
		t.Errorf("table: %d rows, %d features, dist %v", ds.Len(), len(ds.FeatureNames), ds.Dist != nil)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm()&0o044 == 0 {
		t.Errorf("table not readable by others: %v %v", st.Mode(), err)
	}
}
