package cli

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// diagEmbedding is a 2-d embedding with diagonal covariances, for which
// W2^2 = |a - b|^2 + sum_k (sqrt(cov_a,kk) - sqrt(cov_b,kk))^2 in any family
// (tau * Bures^2(cov_a/tau, cov_b/tau) = Bures^2(cov_a, cov_b); Hellinger
// for diagonal matrices, docs/math.md).
const diagEmbedding = `{
  "format": "burescope-embedding/1",
  "family": "uniform",
  "dim": 2,
  "labels": ["a", "b, with comma", "dirac"],
  "means": [[0, 0], [3, 4], [1, -1]],
  "covariances": [
    [[4, 0], [0, 1]],
    [[1, 0], [0, 9]],
    [[0, 0], [0, 0]]
  ]
}`

// diagW2 is the hand formula above for the items of diagEmbedding.
func diagW2(i, j int) float64 {
	means := [][2]float64{{0, 0}, {3, 4}, {1, -1}}
	covs := [][2]float64{{4, 1}, {1, 9}, {0, 0}}
	var s float64
	for k := 0; k < 2; k++ {
		dm := means[i][k] - means[j][k]
		dc := math.Sqrt(covs[i][k]) - math.Sqrt(covs[j][k])
		s += dm*dm + dc*dc
	}
	return math.Sqrt(s)
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func checkDistanceCSV(t *testing.T, data []byte) {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("output is not CSV: %v\n%s", err, data)
	}
	labels := []string{"a", "b, with comma", "dirac"}
	if len(recs) != 4 || recs[0][0] != "" || strings.Join(recs[0][1:], "|") != strings.Join(labels, "|") {
		t.Fatalf("header/shape wrong: %q", recs)
	}
	for i := 0; i < 3; i++ {
		if recs[i+1][0] != labels[i] {
			t.Errorf("row %d label %q, want %q", i, recs[i+1][0], labels[i])
		}
		for j := 0; j < 3; j++ {
			got, err := strconv.ParseFloat(recs[i+1][j+1], 64)
			if err != nil {
				t.Fatalf("cell (%d,%d) %q: %v", i, j, recs[i+1][j+1], err)
			}
			want := 0.0
			if i != j {
				want = diagW2(i, j)
			}
			if !(math.Abs(got-want) <= 1e-12*math.Max(1, want)) {
				t.Errorf("D[%d][%d] = %v, want %v", i, j, got, want)
			}
		}
	}
}

func TestDistanceStdout(t *testing.T) {
	p := writeTemp(t, "emb.json", diagEmbedding)
	var out, errOut bytes.Buffer
	if code := Main([]string{"distance", p}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	checkDistanceCSV(t, out.Bytes())
	// Full precision: a non-trivial distance is printed with more than 10
	// significant digits (shortest round-trip form).
	if !strings.Contains(out.String(), strconv.FormatFloat(diagW2(0, 1), 'g', -1, 64)[:12]) {
		t.Errorf("distance not printed at full precision:\n%s", out.String())
	}
}

func TestDistanceOutFile(t *testing.T) {
	p := writeTemp(t, "emb.json", diagEmbedding)
	dir := t.TempDir()
	dst := filepath.Join(dir, "D.csv")
	var out, errOut bytes.Buffer
	if code := Main([]string{"distance", p, "--out", dst}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if out.Len() != 0 {
		t.Errorf("stdout not empty with --out: %q", out.String())
	}
	data, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	checkDistanceCSV(t, data)
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("temporary files left next to the output: %v", ents)
	}
}

func TestDistanceErrors(t *testing.T) {
	bad := writeTemp(t, "bad.json", `{"format": "burescope-embedding/1", "family": "gaussian", "dim": 2,
  "labels": ["a"], "means": [[0, 0]], "covariances": [[[1, 2], [2, 1]]]}`)
	good := writeTemp(t, "emb.json", diagEmbedding)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // substring of stderr
	}{
		{"no file", []string{"distance"}, 2, "exactly one"},
		{"missing file", []string{"distance", "/nonexistent/x.json"}, 1, "x.json"},
		{"not PSD", []string{"distance", bad}, 1, "bad.json"},
		{"unknown flag", []string{"distance", good, "--bogus"}, 2, "bogus"},
		{"bad out dir", []string{"distance", good, "--out", "/nonexistent/dir/D.csv"}, 2, "--out /nonexistent/dir/D.csv"},
	} {
		var out, errOut bytes.Buffer
		code := Main(tc.args, &out, &errOut)
		if code != tc.code || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%s: exit %d (want %d), stderr %q (want %q)", tc.name, code, tc.code, errOut.String(), tc.want)
		}
	}
}
