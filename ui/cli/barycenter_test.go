package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// The items a and b of diagEmbedding have commuting (diagonal) covariances,
// so their barycenter covariance is (sum_i w_i sqrt(cov_i))^2 entrywise on
// the diagonal, whatever the family's tau.
func TestBarycenterCommand(t *testing.T) {
	emb := writeTemp(t, "emb.json", diagEmbedding)
	data := writeTemp(t, "d.csv", "name,kind,x\na,p,1\n\"b, with comma\",p,2\ndirac,q,3\n")
	cases := []struct {
		name     string
		args     []string
		mean     [2]float64
		cov      [2]float64
		nItems   int
		wantCode int
	}{
		{"class", []string{emb, "--class", "p", "--data", data, "--class-column", "kind"}, [2]float64{1.5, 2}, [2]float64{2.25, 4}, 2, 0},
		{"two items", []string{emb, "--items", "a,dirac"}, [2]float64{0.5, -0.5}, [2]float64{1, 0.25}, 2, 0},
		{"weighted", []string{emb, "--items", "a,dirac", "--weights", "1,3"}, [2]float64{0.75, -0.75}, [2]float64{0.25, 0.0625}, 2, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(append([]string{"barycenter"}, tc.args...), &out, &errb)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", code, tc.wantCode, errb.String())
			}
			if code != 0 {
				return
			}
			var r struct {
				Mean       []float64
				Covariance [][]float64
				Iterations int
				Residual   float64
				Items      int
			}
			if err := json.Unmarshal(out.Bytes(), &r); err != nil || strings.Count(out.String(), "\n") != 1 {
				t.Fatalf("not one JSON line: %v\n%s", err, out.String())
			}
			if r.Items != tc.nItems {
				t.Errorf("items %d, want %d", r.Items, tc.nItems)
			}
			for k := 0; k < 2; k++ {
				if e := math.Abs(r.Mean[k] - tc.mean[k]); !(e <= 1e-12) {
					t.Errorf("mean[%d] = %g, want %g", k, r.Mean[k], tc.mean[k])
				}
				if e := math.Abs(r.Covariance[k][k] - tc.cov[k]); !(e <= 1e-12) {
					t.Errorf("cov[%d][%d] = %g, want %g", k, k, r.Covariance[k][k], tc.cov[k])
				}
			}
			if !(math.Abs(r.Covariance[0][1]) <= 1e-12) || !(r.Residual <= 1e-12) {
				t.Errorf("off-diagonal %g, residual %g", r.Covariance[0][1], r.Residual)
			}
		})
	}
}

func TestBarycenterCommandAllItemsDiagonal(t *testing.T) {
	emb := writeTemp(t, "emb.json", diagEmbedding)
	var out, errb bytes.Buffer
	if code := Main([]string{"barycenter", emb}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r struct{ Covariance [][]float64 }
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	// sqrt(cov) of a, b, dirac: (2, 1), (1, 3), (0, 0).
	want := [2]float64{1, 16.0 / 9}
	for k := 0; k < 2; k++ {
		if e := math.Abs(r.Covariance[k][k] - want[k]); !(e <= 1e-12) {
			t.Errorf("cov[%d][%d] = %g, want %g", k, k, r.Covariance[k][k], want[k])
		}
	}
}

func TestBarycenterCommandErrors(t *testing.T) {
	emb := writeTemp(t, "emb.json", diagEmbedding)
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown item", []string{emb, "--items", "a,zz"}, 1, `no item labelled "zz"`},
		{"weights count", []string{emb, "--items", "a,dirac", "--weights", "1"}, 2, "1 weights for 2 items"},
		{"bad weight", []string{emb, "--weights", "1,x,1"}, 2, "weight 2"},
		{"zero weights", []string{emb, "--weights", "0,0,0"}, 2, "--weights: every weight is 0"},
		{"class without data", []string{emb, "--class", "x"}, 2, "--class needs --data"},
		{"both", []string{emb, "--class", "x", "--items", "a", "--data", "d"}, 2, "exclude each other"},
		{"missing file", []string{emb + ".nope"}, 1, ".nope"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(append([]string{"barycenter"}, tc.args...), &out, &errb)
			if code != tc.code || !strings.Contains(errb.String(), tc.msg) {
				t.Errorf("exit %d (want %d), stderr %q (want %q)", code, tc.code, errb.String(), tc.msg)
			}
		})
	}
}

// Weights at the top of the float64 range are normalised without
// overflow: 1e308,1e308 is the equal-weight barycenter, not mean 0.
func TestBarycenterHugeWeights(t *testing.T) {
	emb := writeTemp(t, "emb.json", diagEmbedding)
	var equal, huge bytes.Buffer
	if code := Main([]string{"barycenter", emb, "--items", "a,dirac"}, &equal, &bytes.Buffer{}); code != 0 {
		t.Fatal("equal weights failed")
	}
	var errb bytes.Buffer
	if code := Main([]string{"barycenter", emb, "--items", "a,dirac", "--weights", "1e308,1e308"}, &huge, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if equal.String() != huge.String() {
		t.Errorf("weights 1e308,1e308 give %s, equal weights %s", huge.String(), equal.String())
	}
	if code, _, se := run("barycenter", emb, "--items", "a,dirac", "--weights", "0,0"); code != 2 || !strings.Contains(se, "--weights") {
		t.Errorf("all-zero weights: exit %d, %s", code, se)
	}
}

// --data must be the dataset the embedding was fitted to: another
// dataset (more items, other labels) is refused naming --data, and --data
// or --class-column without --class is refused before loading.
func TestBarycenterDataOfAnotherDataset(t *testing.T) {
	emb := writeTemp(t, "emb.json", diagEmbedding)
	more := writeTemp(t, "more.csv", "name,kind,x\na,p,1\n\"b, with comma\",p,2\ndirac,q,3\nextra,q,4\n")
	other := writeTemp(t, "other.csv", "name,kind,x\nx,p,1\ny,p,2\nz,q,3\n")
	for _, data := range []string{more, other} {
		code, _, se := run("barycenter", emb, "--class", "p", "--data", data, "--class-column", "kind")
		if code == 0 || !strings.Contains(se, "--data") || !strings.Contains(se, "not the dataset") {
			t.Errorf("--data %s: exit %d, %s", data, code, se)
		}
	}
	for _, args := range [][]string{{"--data", more}, {"--class-column", "kind"}} {
		code, _, se := run(append([]string{"barycenter", "/nonexistent/emb.json"}, args...)...)
		if code != 2 || !strings.Contains(se, args[0]) {
			t.Errorf("%v without --class: exit %d, %s", args, code, se)
		}
	}
}
