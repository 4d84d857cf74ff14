package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes a relations file: a complete binary tree of n nodes
// (node i's parent is (i-1)/2).
func writeTree(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "n%d\tn%d\n", i, (i-1)/2)
	}
	path := filepath.Join(t.TempDir(), "tree.tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fit --pairs sampled on a relations file fits by breadth-first search
// pivots and says so; --pairs auto below the threshold takes the exact
// path (the distances are then built).
func TestFitPairsSampledRelations(t *testing.T) {
	const n = 127
	in := writeTree(t, n)
	for _, c := range []struct{ mode, want, says string }{
		{"sampled", "sampled", "breadth-first searches"},
		{"auto", "exact", ""},
	} {
		t.Run(c.mode, func(t *testing.T) {
			var so, se bytes.Buffer
			args := []string{"fit", in, "--kind", "relations", "--pairs", c.mode, "--epochs", "60"}
			if c.mode == "auto" { // lengths for both paths; auto takes one
				args = append(args, "--iters", "30")
			}
			if code := Main(args, &so, &se); code != 0 {
				t.Fatalf("exit %d, stderr %s", code, se.String())
			}
			var r fitResult
			lastJSON(t, so.String(), &r)
			if r.Pairs != c.want || r.N != n {
				t.Fatalf("summary %+v, want pairs %q", r, c.want)
			}
			if c.says != "" && !strings.Contains(se.String(), c.says) {
				t.Errorf("stderr does not say %q: %s", c.says, se.String())
			}
			if !(r.Stress1 > 0 && r.Stress1 < 0.5) {
				t.Errorf("stress-1 %v", r.Stress1)
			}
		})
	}
}
