package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine"
)

// lastJSON decodes the last non-empty line of out into v.
func lastJSON(t *testing.T, out string, v any) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), v); err != nil {
		t.Fatalf("last stdout line %q is not JSON: %v", lines[len(lines)-1], err)
	}
}

// TestFitPisa fits builtin:pisa2015, saves the embedding and checks the
// reported stress-1 against an independent recomputation: the saved
// file's exact W2 distances (engine.DistanceMatrix, eigendecompositions)
// against the loaded data's distances.
func TestFitPisa(t *testing.T) {
	out := filepath.Join(t.TempDir(), "pisa.json")
	var so, se bytes.Buffer
	args := []string{"fit", "builtin:pisa2015", "--iters", "300", "--backend", "cpu", "--family", "uniform", "--out", out}
	if code := Main(args, &so, &se); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, se.String())
	}
	var r fitResult
	lastJSON(t, so.String(), &r)
	if r.N != 35 || r.Dim != 2 || r.Family != "uniform" || r.Tau != 0.25 || r.Backend != "cpu" || r.Iters != 300 {
		t.Errorf("summary %+v", r)
	}
	if r.PointsStress1 == nil || !(r.Stress1 < *r.PointsStress1) || !(*r.PointsStress1 <= r.MDSStress1) {
		t.Errorf("want stress1 %v < points %v <= classical %v", r.Stress1, r.PointsStress1, r.MDSStress1)
	}
	ds, err := datasets.Load("builtin:pisa2015", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	emb, err := datasets.LoadEmbedding(out)
	if err != nil {
		t.Fatal(err)
	}
	if emb.Len() != 35 || emb.Labels[0] != ds.Labels[0] {
		t.Fatalf("saved embedding: %d items, first %q", emb.Len(), emb.Labels[0])
	}
	w := engine.DistanceMatrix(emb)
	var num, den float64
	for i := 0; i < 35; i++ {
		for j := i + 1; j < 35; j++ {
			d := ds.Dist[engine.PairIndex(35, i, j)]
			num += (d - w[i*35+j]) * (d - w[i*35+j])
			den += d * d
		}
	}
	if got := math.Sqrt(num / den); !(math.Abs(got-r.Stress1) <= 1e-6*r.Stress1+1e-9) {
		t.Errorf("reported stress-1 %.10g, recomputed from the saved file %.10g", r.Stress1, got)
	}
	if !(math.Abs(num-r.Stress) <= 1e-5*r.Stress) {
		t.Errorf("reported stress %.10g, recomputed %.10g", r.Stress, num)
	}

	// Restart from the saved file: the initial state reproduces its stress.
	so.Reset()
	se.Reset()
	args = []string{"fit", "builtin:pisa2015", "--iters", "0", "--backend", "cpu", "--family", "uniform", "--init", out, "--baseline=false"}
	if code := Main(args, &so, &se); code != 0 {
		t.Fatalf("restart: exit %d, stderr %s", code, se.String())
	}
	var r2 fitResult
	lastJSON(t, so.String(), &r2)
	if r2.PointsStress1 != nil || r2.Iters != 0 || !(math.Abs(r2.Stress1-r.Stress1) <= 1e-6*r.Stress1) {
		t.Errorf("restart from file: stress-1 %v (saved %v), points %v", r2.Stress1, r.Stress1, r2.PointsStress1)
	}
}

func TestFitPointsDistancesFile(t *testing.T) {
	// A distance matrix in kilometres (4 points on a line: 0, 300, 700, 1000).
	dir := t.TempDir()
	path := filepath.Join(dir, "km.csv")
	csv := ",a,b,c,d\na,0,300,700,1000\nb,300,0,400,700\nc,700,400,0,300\nd,1000,700,300,0\n"
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	var so, se bytes.Buffer
	if code := Main([]string{"fit", path, "--points", "--backend", "cpu", "--iters", "500"}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	var r fitResult
	lastJSON(t, so.String(), &r)
	// Collinear points are exactly Euclidean: classical MDS is exact.
	if r.MDSStress1 > 1e-9 || r.Stress1 > 1e-6 || r.PointsStress1 == nil || *r.PointsStress1 != r.Stress1 {
		t.Errorf("collinear km data: %+v", r)
	}
}

func TestFitErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte(",a,b\na,0,x\nb,1,0\n"), 0o644)
	wrongInit := filepath.Join(dir, "init.json")
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no input", []string{"fit"}, 2, "want exactly one INPUT"},
		{"two inputs", []string{"fit", "a", "b"}, 2, "want exactly one INPUT"},
		{"family", []string{"fit", "builtin:iris", "--family", "cauchy"}, 2, "--family"},
		{"custom tau", []string{"fit", "builtin:iris", "--family", "custom"}, 2, "tau"},
		{"dim", []string{"fit", "builtin:iris", "--dim", "17"}, 2, "--dim 17"},
		{"iters", []string{"fit", "builtin:iris", "--iters", "-1"}, 2, "--iters"},
		{"missing file", []string{"fit", filepath.Join(dir, "nope.csv"), "--backend", "cpu"}, 1, "nope.csv"},
		{"bad cell", []string{"fit", bad, "--backend", "cpu"}, 1, "bad.csv"},
		{"optimizer", []string{"fit", "builtin:pisa2015", "--backend", "cpu", "--optimizer", "sgd"}, 2, "--optimizer \"sgd\""},
		{"backend", []string{"fit", "builtin:pisa2015", "--backend", "tpu"}, 2, "--backend \"tpu\""},
		{"init file", []string{"fit", "builtin:pisa2015", "--backend", "cpu", "--init", wrongInit}, 1, "init.json"},
	} {
		var so, se bytes.Buffer
		code := Main(tc.args, &so, &se)
		if code != tc.code || !strings.Contains(se.String(), tc.msg) {
			t.Errorf("%s: exit %d (want %d), stderr %q (want it to mention %q)", tc.name, code, tc.code, se.String(), tc.msg)
		}
	}
}

func TestProgressBarLine(t *testing.T) {
	p := newProgressBar(&bytes.Buffer{}, 200)
	got := p.line(50, 0.0123, 0)
	want := "\r[#######.......................]  25% iter 50/200  stress-1 0.0123  0.0s"
	if got != want {
		t.Errorf("line = %q, want %q", got, want)
	}
	if isTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is not a terminal")
	}
}
