package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/hypernymy"
)

// trRun runs the burescope command line and returns the exit code,
// stdout and stderr.
func trRun(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

// trTree is a (child, ancestor) closure of a 10-node hand-made tree:
// animal > {mammal > {dog > puppy, cat}, bird > {eagle, owl > barn_owl, crow}}.
const trTree = `child	ancestor
mammal	animal
bird	animal
dog	mammal
dog	animal
cat	mammal
cat	animal
puppy	dog
puppy	mammal
puppy	animal
eagle	bird
eagle	animal
owl	bird
owl	animal
barn_owl	owl
barn_owl	bird
barn_owl	animal
crow	bird
crow	animal
`

// trLastJSON decodes the last stdout line into a trainRelationsResult,
// rejecting unknown fields.
func trLastJSON(t *testing.T, stdout string) trainRelationsResult {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var r trainRelationsResult
	dec := json.NewDecoder(strings.NewReader(lines[len(lines)-1]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("last stdout line %q: %v", lines[len(lines)-1], err)
	}
	return r
}

// TestTrainRelationsTree trains on the tiny tree, expects perfect
// reconstruction, and checks the JSON summary against an independent
// re-evaluation of the saved embedding file.
func TestTrainRelationsTree(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "tree.tsv")
	if err := os.WriteFile(in, []byte(trTree), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "emb.json")
	code, stdout, stderr := trRun("train-relations", in, "--dim", "3", "--epochs", "300", "--negatives", "5",
		"--batch", "8", "--optimizer", "adam", "--lr", "0.05", "--seed", "3", "--eval-every", "100", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	r := trLastJSON(t, stdout)
	if r.N != 10 || r.Pairs != 18 || r.TrainPairs != 28 || r.Dim != 3 || r.Epochs != 300 || r.Optimizer != "adam" || r.LR != 0.05 {
		t.Errorf("summary %+v: want n 10, pairs 18, train_pairs 28, dim 3, 300 epochs, adam 0.05", r)
	}
	if r.MAP != 1 || r.MeanRank != 1 || r.SymMAP != 1 || r.SymMeanRank != 1 {
		t.Errorf("summary %+v: want perfect reconstruction", r)
	}
	if !(r.Seconds > 0 && r.SecondsPerEpoch > 0 && r.Loss > 0) {
		t.Errorf("summary %+v: want positive seconds and loss", r)
	}
	// Progress lines: evaluations at epochs 100, 200, 300.
	for _, want := range []string{"epoch 100/300", "epoch 200/300", "epoch 300/300", "wrote 10 gaussian measures"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	e, err := datasets.LoadEmbedding(out)
	if err != nil {
		t.Fatal(err)
	}
	if e.Family.Name != "gaussian" || e.Dim != 3 || e.Len() != 10 || e.Labels[0] != "mammal" {
		t.Fatalf("saved embedding: family %s, dim %d, %d labels starting %q", e.Family.Name, e.Dim, e.Len(), e.Labels[0])
	}
	// Re-evaluate the saved file: relations by label, scores by DotProduct.
	idx := map[string]int{}
	for i, l := range e.Labels {
		idx[l] = i
	}
	var pairs [][2]int
	for _, line := range strings.Split(strings.TrimSpace(trTree), "\n")[1:] {
		f := strings.Split(line, "\t")
		pairs = append(pairs, [2]int{idx[f[0]], idx[f[1]]})
	}
	rows := func() func(int, []float64) {
		return func(u int, o []float64) {
			for w := range o {
				o[w] = engine.DotProduct(e.Mean(u), e.Scale(u), e.Mean(w), e.Scale(w), e.Dim)
			}
		}
	}
	rec, err := hypernymy.EvaluateProtocol(context.Background(), e.Len(), pairs, rows, 1, hypernymy.Directed)
	if err != nil {
		t.Fatal(err)
	}
	if rec.MAP != 1 || rec.MeanRank != 1 {
		t.Errorf("saved embedding re-evaluated: %+v, want MAP 1 and mean rank 1", rec)
	}
}

// TestTrainRelationsReproducible checks that the same seed gives the same
// scores and the same embedding file, whatever the number of workers.
func TestTrainRelationsReproducible(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "tree.tsv")
	if err := os.WriteFile(in, []byte(trTree), 0o644); err != nil {
		t.Fatal(err)
	}
	var files [2][]byte
	var res [2]trainRelationsResult
	for i, w := range []string{"1", "3"} {
		out := filepath.Join(dir, "e"+w+".json")
		code, stdout, stderr := trRun("train-relations", in, "--epochs", "7", "--negatives", "4", "--batch", "5", "--seed", "11", "--workers", w, "--out", out)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		res[i] = trLastJSON(t, stdout)
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = b
	}
	if res[0].MAP != res[1].MAP || res[0].MeanRank != res[1].MeanRank || res[0].Loss != res[1].Loss {
		t.Errorf("1 and 3 workers: %+v vs %+v", res[0], res[1])
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("1 and 3 workers wrote different embeddings")
	}
	if res[0].Optimizer != "adam" || res[0].LR != 0.03 || res[0].Dim != 2 || res[0].Protocol != "directed" {
		t.Errorf("defaults: %+v, want adam with lr 0.03 at d = 2, directed protocol", res[0])
	}
}

// TestTrainRelationsErrors checks usage errors (exit 2) and input errors
// (exit 1, naming the file).
func TestTrainRelationsErrors(t *testing.T) {
	dir := t.TempDir()
	cycle := filepath.Join(dir, "cycle.tsv")
	if err := os.WriteFile(cycle, []byte("child\tancestor\na\tb\nb\ta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{}, 2, "exactly one INPUT"},
		{[]string{"builtin:mammals", "--dim", "1"}, 2, "--dim 1 out of range"},
		{[]string{"builtin:mammals", "--dim", "33"}, 2, "--dim 33 out of range"},
		{[]string{"builtin:mammals", "--epochs", "0"}, 2, "--epochs 0"},
		{[]string{"builtin:mammals", "--optimizer", "lbfgs"}, 2, "--optimizer"},
		{[]string{"builtin:mammals", "--lr", "-1"}, 2, "--lr -1"},
		{[]string{"builtin:mammals", "--eps", "0"}, 2, "--eps 0"},
		{[]string{"builtin:mammals", "--eval-rows", "-3"}, 2, "--eval-rows -3"},
		{[]string{filepath.Join(dir, "missing.tsv")}, 1, "missing.tsv"},
		{[]string{cycle}, 1, "cycle.tsv"},
	} {
		code, stdout, stderr := trRun(append([]string{"train-relations"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, stdout, stderr, tc.code, tc.want)
		}
	}
}

// TestTrainRelationsMammalsSmoke runs two epochs on the built-in mammal
// closure (1,182 nouns, 6,542 pairs) and checks the counts and that the
// scores are valid.
func TestTrainRelationsMammalsSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on 7,724 relations")
	}
	code, stdout, stderr := trRun("train-relations", "builtin:mammals", "--dim", "2", "--epochs", "1", "--negatives", "10")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := trLastJSON(t, stdout)
	if r.N != 1182 || r.Pairs != 6542 || r.TrainPairs != 6542+1182 || r.Epochs != 1 {
		t.Errorf("summary %+v: want n 1182, 6542 pairs, 7724 training pairs, 1 epoch", r)
	}
	// Worst possible mean rank: all non-neighbours of an item above it.
	if !(r.MeanRank >= 1 && r.MeanRank < 1182 && r.MAP > 0 && r.MAP <= 1) || math.IsNaN(r.Loss) {
		t.Errorf("summary %+v: scores out of range", r)
	}
}

// TestTrainRelationsEvalRows checks --eval-rows: the summary says how many
// rows were ranked, and its scores are those `eval-relations --every K`
// gives on the saved embedding for the same rows (K = the stride the
// trainer chose), not those of all rows.
func TestTrainRelationsEvalRows(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on the mammal closure")
	}
	out := filepath.Join(t.TempDir(), "emb.json")
	code, stdout, stderr := trRun("train-relations", "builtin:mammals", "--dim", "2", "--epochs", "1", "--negatives", "5",
		"--eval-rows", "100", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := trLastJSON(t, stdout)
	if r.EvalQueries != 1181 || r.EvalRows == 0 || r.EvalRows > 100 || !strings.Contains(stderr, "a sample") {
		t.Fatalf("ranked %d of %d rows; stderr %q", r.EvalRows, r.EvalQueries, stderr)
	}
	k := hypernymy.EvalStride(r.N, 100)
	code, evOut, evErr := trRun("eval-relations", out, "builtin:mammals", "--every", strconv.Itoa(k))
	if code != 0 {
		t.Fatalf("eval-relations: exit %d: %s", code, evErr)
	}
	var ev struct {
		MeanRank float64 `json:"mean_rank"`
		MAP      float64 `json:"map"`
	}
	lines := strings.Split(strings.TrimSpace(evOut), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &ev); err != nil {
		t.Fatal(err)
	}
	if math.Abs(ev.MeanRank-r.MeanRank) > 1e-9*ev.MeanRank || math.Abs(ev.MAP-r.MAP) > 1e-9 {
		t.Errorf("trainer's sample %v / %v, eval-relations --every %d %v / %v", r.MeanRank, r.MAP, k, ev.MeanRank, ev.MAP)
	}
	code, stdout, stderr = trRun("train-relations", "builtin:mammals", "--dim", "2", "--epochs", "1", "--negatives", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if all := trLastJSON(t, stdout); all.EvalRows != all.EvalQueries || all.MeanRank == r.MeanRank {
		t.Errorf("without --eval-rows: %d of %d rows, mean rank %v (sampled %v)", all.EvalRows, all.EvalQueries, all.MeanRank, r.MeanRank)
	}
}
