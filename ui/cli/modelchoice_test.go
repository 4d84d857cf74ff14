package cli

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"burescope/datasets"
)

// fit --structure/--scale-budget: the saved scales have the structure,
// the summary reports it with the means' share and the silhouette, and a
// budget raises the means' share.
func TestFitStructureAndBudget(t *testing.T) {
	dir := t.TempDir()
	var prevShare float64 = -1
	for _, tc := range []struct {
		name, structure, budget string
	}{
		{"diagonal", "diagonal", "0"},
		{"diagonal budget", "diagonal", "0.03"},
		{"spherical", "spherical", "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.name+".json")
			var so, se bytes.Buffer
			args := []string{"fit", "builtin:iris", "--structure", tc.structure, "--scale-budget", tc.budget,
				"--iters", "200", "--baseline=false", "--backend", "cpu", "--out", out}
			if code := Main(args, &so, &se); code != 0 {
				t.Fatalf("exit %d: %s", code, se.String())
			}
			var res fitResult
			lastJSON(t, so.String(), &res)
			if res.Structure != tc.structure || res.Silhouette == nil || !(*res.Silhouette > 0.3) || !(res.MeanShare > 0 && res.MeanShare <= 1) {
				t.Errorf("summary %+v", res)
			}
			if tc.name == "diagonal budget" && !(res.MeanShare > prevShare) {
				t.Errorf("budget: mean share %g, without %g", res.MeanShare, prevShare)
			}
			prevShare = res.MeanShare
			emb, err := datasets.LoadEmbedding(out)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < emb.Len(); i++ {
				c := emb.Scale(i)
				if c[1] != 0 || c[2] != 0 || tc.structure == "spherical" && !(math.Abs(c[0]-c[3]) <= 1e-12*c[0]) {
					t.Fatalf("item %d scale %v is not %s", i, c, tc.structure)
				}
			}
		})
	}
	var so, se bytes.Buffer
	if code := Main([]string{"fit", "builtin:iris", "--structure", "cubic"}, &so, &se); code == 0 || !strings.Contains(se.String(), "cubic") {
		t.Errorf("unknown structure: exit %d, %s", code, se.String())
	}
}
