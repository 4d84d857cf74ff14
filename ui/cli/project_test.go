package cli

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npz"
	"gonum.org/v1/gonum/mat"

	"burescope/datasets"
	"burescope/engine"
)

// symEigen returns the eigenvalues (descending) and unit eigenvectors
// (columns) of the symmetric d x d matrix s, by gonum: the reference.
func symEigen(t *testing.T, s []float64, d int) ([]float64, *mat.Dense) {
	t.Helper()
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(d, append([]float64(nil), s...)), true) {
		t.Fatal("eigendecomposition failed")
	}
	vals := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	// Reverse to descending.
	out := make([]float64, d)
	vecs := mat.NewDense(d, d, nil)
	for c := 0; c < d; c++ {
		out[c] = vals[d-1-c]
		for r := 0; r < d; r++ {
			vecs.Set(r, c, v.At(r, d-1-c))
		}
	}
	return out, vecs
}

func TestProjectCommandItemPlane(t *testing.T) {
	e := trainedEmbedding(3, 25, 5)
	dir := t.TempDir()
	in := filepath.Join(dir, "emb.json")
	if err := datasets.SaveEmbedding(in, e); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "emb2d.json")
	code, stdout, errs := runCLI("project", in, "--plane", "item:w7", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var sum projectSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("stdout %q: %v", stdout, err)
	}
	p2, err := datasets.LoadEmbedding(out)
	if err != nil {
		t.Fatalf("output does not load: %v", err)
	}
	d := e.Dim
	if p2.Dim != 2 || p2.Len() != e.Len() || sum.N != e.Len() || sum.Dim != d || len(sum.Axes) != 2*d {
		t.Fatalf("output dim %d n %d, summary %+v", p2.Dim, p2.Len(), sum)
	}
	// The plane is spanned by the top two eigenvectors of w7's scale: the
	// projected scale of w7 has exactly eigenvalues l1 and l2 (gonum).
	vals, vecs := symEigen(t, e.Scale(7), d)
	s := p2.Scale(7)
	tr, det := s[0]+s[3], s[0]*s[3]-s[1]*s[2]
	if !(math.Abs(tr-(vals[0]+vals[1])) <= 1e-9) || !(math.Abs(det-vals[0]*vals[1]) <= 1e-9) {
		t.Errorf("projected scale %v: trace %v det %v, want %v and %v", s, tr, det, vals[0]+vals[1], vals[0]*vals[1])
	}
	var total float64
	for _, l := range vals {
		total += l
	}
	// Each axis lies in span(q1, q2).
	for a := 0; a < 2; a++ {
		ax := sum.Axes[a*d : (a+1)*d]
		var in2 float64
		for c := 0; c < 2; c++ {
			var dot float64
			for r := 0; r < d; r++ {
				dot += ax[r] * vecs.At(r, c)
			}
			in2 += dot * dot
		}
		if !(math.Abs(in2-1) <= 1e-9) {
			t.Errorf("axis %d has %v of its norm^2 in the top eigenspace, want 1", a, in2)
		}
	}
	// Means are P m, with P the printed axes.
	for i := 0; i < e.Len(); i++ {
		for a := 0; a < 2; a++ {
			var want float64
			for r := 0; r < d; r++ {
				want += sum.Axes[a*d+r] * e.Mean(i)[r]
			}
			if !(math.Abs(p2.Mean(i)[a]-want) <= 1e-12*(1+math.Abs(want))) {
				t.Errorf("item %d mean[%d] = %v, want %v", i, a, p2.Mean(i)[a], want)
			}
		}
	}
	if sum.VarianceKept.Max > 1+1e-12 || sum.VarianceKept.Min < 0 || sum.VarianceKept.Max < (vals[0]+vals[1])/total-1e-12 {
		t.Errorf("variance kept %+v; w7 alone keeps %v", sum.VarianceKept, (vals[0]+vals[1])/total)
	}
}

func TestProjectCommandPlanes(t *testing.T) {
	e := trainedEmbedding(4, 30, 3)
	dir := t.TempDir()
	in := filepath.Join(dir, "emb.json")
	if err := datasets.SaveEmbedding(in, e); err != nil {
		t.Fatal(err)
	}
	for _, plane := range []string{"pca", "diff:w2,w9"} {
		out := filepath.Join(dir, "p.json")
		code, stdout, errs := runCLI("project", in, "--plane", plane, "--out", out)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", plane, code, errs)
		}
		var sum projectSummary
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatal(err)
		}
		p2, err := datasets.LoadEmbedding(out)
		if err != nil {
			t.Fatal(err)
		}
		// Distances between projected means never exceed the originals
		// (P has orthonormal rows).
		for i := 1; i < e.Len(); i++ {
			if engine.SqDist(p2.Mean(i), p2.Mean(0)) > engine.SqDist(e.Mean(i), e.Mean(0))+1e-12 {
				t.Errorf("%s: projection lengthened a distance", plane)
			}
		}
		if plane == "diff:w2,w9" {
			// First axis = (m9 - m2)/|m9 - m2|: the projected difference
			// is (|m9 - m2|, 0).
			dx := p2.Mean(9)[0] - p2.Mean(2)[0]
			dy := p2.Mean(9)[1] - p2.Mean(2)[1]
			if want := math.Sqrt(engine.SqDist(e.Mean(9), e.Mean(2))); !(math.Abs(dx-want) <= 1e-12) || !(math.Abs(dy) <= 1e-12) {
				t.Errorf("diff plane: projected difference (%v, %v), want (%v, 0)", dx, dy, want)
			}
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"project", in}, 2, "--out EMB2D.json is required"},
		{[]string{"project", in, "--out", filepath.Join(dir, "x.json"), "--plane", "tsne"}, 1, `unknown --plane "tsne"`},
		{[]string{"project", in, "--out", filepath.Join(dir, "x.json"), "--plane", "item:zz"}, 1, `no item labelled "zz"`},
		{[]string{"project", in, "--out", filepath.Join(dir, "x.json"), "--plane", "diff:w1"}, 1, "want diff:A,B"},
		{[]string{"project", in, "--out", filepath.Join(dir, "x.json"), "--plane", "diff:w1,w1"}, 1, "same mean"},
		{[]string{"project", in, "--out", filepath.Join(dir, "nodir", "x.json")}, 2, "--out " + filepath.Join(dir, "nodir")},
	} {
		code, _, errs := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

func TestProjectCommandNPZContextSet(t *testing.T) {
	// Context set of an .npz (npyio's writer): c_means on a line along
	// (1, 1, 0)/sqrt2 plus a spread along z, c_vars diagonal. The PCA plane
	// of the means is then span((1,1,0), (0,0,1)) and projected distances
	// equal the original ones.
	n, d := 4, 3
	cm := []float64{0, 0, 0, 1, 1, 0.5, 2, 2, -1, 3, 3, 0.2}
	cv := []float64{1, 2, 3, 1, 1, 1, 2, 2, 2, 0.5, 0.5, 4}
	dir := t.TempDir()
	p := filepath.Join(dir, "w.npz")
	if err := npz.Write(p, map[string]any{
		"means": mat.NewDense(n, d, make([]float64, n*d)), "vars": mat.NewDense(n, d, cv),
		"c_means": mat.NewDense(n, d, cm), "c_vars": mat.NewDense(n, d, cv),
	}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "c2d.json")
	code, _, errs := runCLI("project", p, "--set", "c", "--plane", "pca", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	e2, err := datasets.LoadEmbedding(out)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			got := engine.SqDist(e2.Mean(i), e2.Mean(j))
			want := engine.SqDist(cm[i*d:(i+1)*d], cm[j*d:(j+1)*d])
			if !(math.Abs(got-want) <= 1e-9*(1+want)) {
				t.Errorf("|m%d - m%d|^2 = %v on the plane, want %v", i, j, got, want)
			}
		}
	}
}
