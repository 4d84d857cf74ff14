package cli

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine/hypernymy"
)

// TestEvalRelations trains a small embedding on the tree, evaluates it
// with eval-relations under both protocols and compares with the full
// (unpruned) evaluation of the saved file.
func TestEvalRelations(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "tree.tsv")
	if err := os.WriteFile(in, []byte(trTree), 0o644); err != nil {
		t.Fatal(err)
	}
	emb := filepath.Join(dir, "emb.json")
	if code, _, stderr := trRun("train-relations", in, "--dim", "3", "--epochs", "5", "--negatives", "3", "--batch", "8", "--out", emb); code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	e, err := datasets.LoadEmbedding(emb)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := datasets.Load(in, datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	for i, l := range e.Labels {
		index[l] = i
	}
	var pairs [][2]int
	for _, p := range ds.Relations {
		pairs = append(pairs, [2]int{index[ds.Labels[p[0]]], index[ds.Labels[p[1]]]})
	}
	rows, err := hypernymy.DotProductRows(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, protocol := range []string{hypernymy.Directed, hypernymy.Undirected} {
		t.Run(protocol, func(t *testing.T) {
			code, stdout, stderr := trRun("eval-relations", emb, in, "--protocol", protocol)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			var r evalRelationsResult
			dec := json.NewDecoder(strings.NewReader(lines[len(lines)-1]))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil {
				t.Fatal(err)
			}
			want, err := hypernymy.EvaluateProtocol(context.Background(), e.Len(), pairs, rows, 1, protocol)
			if err != nil {
				t.Fatal(err)
			}
			if r.Protocol != protocol || r.N != 10 || r.Pairs != want.Pairs ||
				!(math.Abs(r.MeanRank-want.MeanRank) <= 1e-12*want.MeanRank) || !(math.Abs(r.MAP-want.MAP) <= 1e-12) {
				t.Errorf("eval-relations %+v; full evaluation %+v", r, want)
			}
			// --brute scores every pair and must give the same ranks.
			code, stdout, stderr = trRun("eval-relations", emb, in, "--protocol", protocol, "--brute")
			if code != 0 {
				t.Fatalf("--brute: exit %d: %s", code, stderr)
			}
			lines = strings.Split(strings.TrimSpace(stdout), "\n")
			var b evalRelationsResult
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &b); err != nil {
				t.Fatal(err)
			}
			if b.Pairs != want.Pairs || b.MeanRank != r.MeanRank || b.MAP != r.MAP || b.ExactScores != 0 {
				t.Errorf("--brute %+v; pruned %+v", b, r)
			}
		})
	}
	t.Run("errors", func(t *testing.T) {
		other := filepath.Join(dir, "other.tsv")
		os.WriteFile(other, []byte("child\tancestor\nzebra\tanimal\n"), 0o644)
		for _, tc := range []struct {
			args []string
			code int
			want string
		}{
			{[]string{"eval-relations", emb}, 2, "want an embedding file"},
			{[]string{"eval-relations", emb, in, "--protocol", "x"}, 2, "--protocol"},
			{[]string{"eval-relations", emb, other}, 1, `"zebra"`},
			{[]string{"eval-relations", emb, in, "--every", "0"}, 2, "--every 0"},
			{[]string{"eval-relations", emb, in, "--every", "2", "--brute"}, 2, "--brute"},
		} {
			code, _, stderr := trRun(tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.want)
			}
		}
	})
}

// TestEvalRelationsMammalsPrunedEqualsBrute trains a short d = 3 run on
// the mammal closure (1,182 nouns) and checks that eval-relations gives
// exactly the mean rank and MAP of --brute (every pair scored) under
// both protocols, and that it scored exactly fewer pairs than all.
func TestEvalRelationsMammalsPrunedEqualsBrute(t *testing.T) {
	emb := filepath.Join(t.TempDir(), "mammals3.json")
	if code, _, stderr := trRun("train-relations", "builtin:mammals", "--dim", "3", "--epochs", "2", "--negatives", "10", "--eval-every", "0", "--no-eval", "--out", emb); code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	last := func(stdout string) evalRelationsResult {
		t.Helper()
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		var r evalRelationsResult
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, protocol := range []string{hypernymy.Directed, hypernymy.Undirected} {
		t.Run(protocol, func(t *testing.T) {
			code, stdout, stderr := trRun("eval-relations", emb, "builtin:mammals", "--protocol", protocol)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			r := last(stdout)
			code, stdout, stderr = trRun("eval-relations", emb, "builtin:mammals", "--protocol", protocol, "--brute")
			if code != 0 {
				t.Fatalf("--brute: exit %d: %s", code, stderr)
			}
			b := last(stdout)
			if r.N != 1182 || r.Pairs != b.Pairs || r.MeanRank != b.MeanRank || r.MAP != b.MAP {
				t.Errorf("pruned %+v; brute %+v", r, b)
			}
			if !(r.Ambiguous <= r.ExactScores) || !(r.ExactScores < int64(r.Rows)*int64(r.N)) {
				t.Errorf("work: %+v", r)
			}
			t.Logf("mean rank %.4f MAP %.4f; %d exact scores (%d ambiguous) for %d rows", r.MeanRank, r.MAP, r.ExactScores, r.Ambiguous, r.Rows)
		})
	}
}
