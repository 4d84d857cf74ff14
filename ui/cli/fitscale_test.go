package cli

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"burescope/datasets"
)

// scaledMatrix writes the distance matrix of five points on a bent line
// multiplied by s, written from the formula here.
func scaledMatrix(t *testing.T, s float64) string {
	t.Helper()
	pts := [][2]float64{{0, 0}, {1, 0}, {2, 0.5}, {2.5, 1.5}, {2, 3}}
	var b strings.Builder
	b.WriteString(",a,b,c,d,e\n")
	for i, p := range pts {
		b.WriteString(string(rune('a' + i)))
		for _, q := range pts {
			d := math.Hypot(p[0]-q[0], p[1]-q[1]) * s
			b.WriteString("," + strconv.FormatFloat(d, 'g', -1, 64))
		}
		b.WriteString("\n")
	}
	return writeTemp(t, "d.csv", b.String())
}

// TestFitAnyScale: a matrix fits at any positive scale exactly like its
// unit-scale copy (stress-1 is scale-free): the same iterations and
// stress-1, for scales whose squares underflow (1e-200, 1e-308, the
// subnormal 1e-310) or overflow (1e200, 1e300) in float64; the raw stress
// is finite in its reported unit.
func TestFitAnyScale(t *testing.T) {
	fit := func(t *testing.T, path string) fitResult {
		code, so, se := run("fit", path, "--iters", "200", "--backend", "cpu", "--baseline=false")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, se)
		}
		var r fitResult
		lastJSON(t, so, &r)
		return r
	}
	ref := fit(t, scaledMatrix(t, 1))
	if !(ref.Stress1 < 0.05) || ref.Iters < 10 {
		t.Fatalf("unit-scale fit: %+v", ref)
	}
	for _, s := range []float64{1e-200, 1e-308, 1e-310, 1e200, 1e300} {
		t.Run(strconv.FormatFloat(s, 'g', -1, 64), func(t *testing.T) {
			r := fit(t, scaledMatrix(t, s))
			if math.IsNaN(r.Stress) || math.IsInf(r.Stress, 0) || (s > 1 && r.StressUnit == 0 && r.Stress > 0 && r.Stress < 1) {
				t.Errorf("raw stress %v (unit %v)", r.Stress, r.StressUnit)
			}
			if r.Iters != ref.Iters || !(math.Abs(r.Stress1-ref.Stress1) <= 1e-6*ref.Stress1+1e-12) {
				t.Errorf("scale %g: %d iterations, stress-1 %v; unit scale: %d, %v", s, r.Iters, r.Stress1, ref.Iters, ref.Stress1)
			}
		})
	}
}

// TestInitMatchedByLabel: --init FILE.json takes each item's start from
// the entry with its label whatever the order in the file, and refuses a
// file with other labels even when it has as many items.
func TestInitMatchedByLabel(t *testing.T) {
	data := scaledMatrix(t, 1)
	dir := t.TempDir()
	first := filepath.Join(dir, "first.json")
	if code, _, se := run("fit", data, "--iters", "50", "--backend", "cpu", "--baseline=false", "--out", first); code != 0 {
		t.Fatal(se)
	}
	emb, err := datasets.LoadEmbedding(first)
	if err != nil {
		t.Fatal(err)
	}
	// Reverse the items in the file: matching by label must undo it.
	rev := *emb
	n, d := emb.Len(), emb.Dim
	rev.Labels = make([]string, n)
	rev.Means = make([]float64, len(emb.Means))
	rev.Scales = make([]float64, len(emb.Scales))
	for i := 0; i < n; i++ {
		j := n - 1 - i
		rev.Labels[j] = emb.Labels[i]
		copy(rev.Means[j*d:(j+1)*d], emb.Mean(i))
		copy(rev.Scales[j*d*d:(j+1)*d*d], emb.Scale(i))
	}
	revPath := filepath.Join(dir, "rev.json")
	if err := datasets.SaveEmbedding(revPath, &rev); err != nil {
		t.Fatal(err)
	}
	var got [2]fitResult
	for k, init := range []string{first, revPath} {
		code, so, se := run("fit", data, "--iters", "0", "--backend", "cpu", "--init", init)
		if code != 0 {
			t.Fatalf("--init %s: %s", init, se)
		}
		lastJSON(t, so, &got[k])
	}
	if !(math.Abs(got[0].Stress1-got[1].Stress1) <= 1e-12) {
		t.Errorf("reversed file starts at stress-1 %v, original at %v", got[1].Stress1, got[0].Stress1)
	}
	// Same count, other labels: refused.
	other := rev
	other.Labels = []string{"p", "q", "r", "s", "t"}
	otherPath := filepath.Join(dir, "other.json")
	if err := datasets.SaveEmbedding(otherPath, &other); err != nil {
		t.Fatal(err)
	}
	code, _, se := run("fit", data, "--iters", "0", "--backend", "cpu", "--init", otherPath)
	if code != 1 || !strings.Contains(se, "not in the embedding") {
		t.Errorf("other labels: exit %d, stderr %q", code, se)
	}
}

// TestFitNotices: fit prints what auto-detection chose and why (one line),
// and the symmetrisation notice with the largest asymmetry.
func TestFitNotices(t *testing.T) {
	nonzero := writeTemp(t, "n.csv", ",a,b,c\na,1,1,2\nb,1,0,3\nc,2,3,0\n")
	code, _, se := run("fit", nonzero, "--iters", "1", "--backend", "cpu", "--baseline=false")
	if code == 0 && !strings.Contains(se, "diagonal is not 0") {
		t.Errorf("stderr %q does not explain the feature-table reading", se)
	}
	if code != 0 && !strings.Contains(se, "diagonal") {
		t.Errorf("exit %d, stderr %q does not say diagonal", code, se)
	}
	asym := writeTemp(t, "a.csv", ",a,b,c\na,0,1,2\nb,1.5,0,3\nc,2,3,0\n")
	code, _, se = run("fit", asym, "--iters", "1", "--backend", "cpu", "--symmetrize", "--baseline=false")
	if code != 0 || !strings.Contains(se, "averaged D and its transpose") || !strings.Contains(se, "= 0.5") {
		t.Errorf("exit %d, stderr %q", code, se)
	}
	_ = os.Remove
}
