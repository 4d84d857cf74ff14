package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine"
)

// plantedText writes a corpus of sentences each drawn from one of three
// topics (words tKwJ) and returns its path.
func plantedText(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for s := 0; s < 400; s++ {
		tp := rng.IntN(3)
		for i := 0; i < 8; i++ {
			fmt.Fprintf(&b, "T%dw%d, ", tp, rng.IntN(5))
		}
		b.WriteString("\n")
	}
	p := filepath.Join(t.TempDir(), "planted.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func lastWordsJSON(t *testing.T, stdout string, v any) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), v); err != nil {
		t.Fatalf("last stdout line %q: %v", lines[len(lines)-1], err)
	}
}

// TestTrainWordsCLI trains on a generated corpus, checks the summary,
// that neighbors reads the .npz (context set) and finds same-topic
// words, that --resume continues the epoch count, and that a .json
// output loads as an embedding.
func TestTrainWordsCLI(t *testing.T) {
	corpus := plantedText(t)
	out := filepath.Join(t.TempDir(), "w.npz")
	code, stdout, stderr := runCLI("train-words", corpus, "--dim", "3", "--epochs", "2", "--subsample", "0", "--batch", "16",
		"--window", "3", "--threads", "2", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res trainWordsResult
	lastWordsJSON(t, stdout, &res)
	if res.Words != 15 || res.Tokens != 3200 || res.Epochs != 2 || res.Dim != 3 {
		t.Errorf("summary %+v, want 15 words, 3200 tokens, 2 epochs, d = 3", res)
	}
	code, stdout, stderr = runCLI("neighbors", out, "--set", "c", "--item", "t0w0", "--k", "4", "--by", "mixture")
	if code != 0 {
		t.Fatalf("neighbors: exit %d: %s", code, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var nb neighborLine
		if err := json.Unmarshal([]byte(line), &nb); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(nb.Label, "t0") {
			t.Errorf("neighbour %q of t0w0 is not of topic t0", nb.Label)
		}
	}
	code, stdout, stderr = runCLI("train-words", corpus, "--resume", out, "--epochs", "1", "--subsample", "0", "--batch", "16", "--out", out)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	lastWordsJSON(t, stdout, &res)
	if res.Epochs != 3 {
		t.Errorf("resumed epochs %d, want 3", res.Epochs)
	}
	js := filepath.Join(t.TempDir(), "w.json")
	if code, _, stderr = runCLI("train-words", corpus, "--dim", "2", "--epochs", "1", "--out", js); code != 0 {
		t.Fatalf("json: exit %d: %s", code, stderr)
	}
	e, err := datasets.LoadEmbedding(js)
	if err != nil || e.Len() != 15 || e.Dim != 2 {
		t.Fatalf("json output: %v", err)
	}
}

// TestTrainWordsCLIErrors checks usage errors and a missing corpus.
func TestTrainWordsCLIErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no out", []string{"train-words", "x.txt"}, 2, "--out"},
		{"bad extension", []string{"train-words", "x.txt", "--out", "w.csv"}, 2, ".npz or .json"},
		{"missing corpus", []string{"train-words", "/nonexistent/corpus.txt", "--out", filepath.Join(t.TempDir(), "w.npz")}, 1, "/nonexistent/corpus.txt"},
		{"rank", []string{"train-words", "x.txt", "--dim", "3", "--rank", "4", "--out", "w.npz"}, 2, "--rank"},
		{"factor-lr zero", []string{"train-words", "x.txt", "--factor-lr", "0", "--out", "w.npz"}, 2, "--factor-lr"},
		{"factor-lr nan", []string{"train-words", "x.txt", "--factor-lr", "NaN", "--out", "w.npz"}, 2, "--factor-lr"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCLI(c.args...)
			if code != c.code || !strings.Contains(stderr, c.msg) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr, c.code, c.msg)
			}
		})
	}
}

// handEmbedding saves four words in d = 2 with identity covariances and
// means a = (1,0), b = (1,1), c = (0,1), d = (-1,0): the mixture cosine
// is cos(means) + 1 (the covariance term of equal scales is 1).
func handEmbedding(t *testing.T) string {
	t.Helper()
	e := &engine.Embedding{Family: engine.Gaussian(), Dim: 2, Labels: []string{"a", "b", "c", "d"},
		Means:  []float64{1, 0, 1, 1, 0, 1, -1, 0},
		Scales: []float64{1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1}}
	p := filepath.Join(t.TempDir(), "hand.json")
	if err := datasets.SaveEmbedding(p, e); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEvalSimilarityHandComputed: pairs (a,b,10), (a,c,5), (a,d,1),
// (b,c,8) and an out-of-vocabulary pair. Model scores 1.707, 1, 0, 1.707
// rank (3.5, 2, 1, 3.5), benchmark ranks (4, 2, 1, 3); centred
// (1, -0.5, -1.5, 1) and (1.5, -0.5, -1.5, 0.5): rho = 4.5/sqrt(4.5*5).
func TestEvalSimilarityHandComputed(t *testing.T) {
	emb := handEmbedding(t)
	pairs := filepath.Join(t.TempDir(), "sim.csv")
	os.WriteFile(pairs, []byte("Word 1,Word 2,Human (mean)\na,b,10\na,c,5\na,d,1\nB,c,8\na,zzz,3\n"), 0o644)
	code, stdout, stderr := runCLI("eval-similarity", emb, "--pairs", pairs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r evalSimilarityResult
	lastWordsJSON(t, stdout, &r)
	if want := 100 * 4.5 / math.Sqrt(4.5*5); !(math.Abs(r.Spearman-want) <= 1e-9) || r.Pairs != 4 || r.Skipped != 1 {
		t.Errorf("got %+v, want spearman %v on 4 pairs, 1 skipped", r, want)
	}
}

// TestEvalEntailmentHandComputed: labels (a,b,1), (b,c,0), (a,c,1),
// (a,d,0) with scores 1.707, 1.707, 1, 0. Thresholds: 1.707 (tp 1 of 2
// predicted: recall 1/2, precision 1/2), 1 (tp 2 of 3: recall 1,
// precision 2/3): AP = 1/4 + 1/3 = 7/12; F1 = 2 tp/(predicted + 2) is
// 1/2, 4/5, 2/3: best 4/5 at threshold 1.
func TestEvalEntailmentHandComputed(t *testing.T) {
	emb := handEmbedding(t)
	pairs := filepath.Join(t.TempDir(), "ent.txt")
	os.WriteFile(pairs, []byte("a\tb\tTrue\nb\tc\tFalse\na\tc\t1\na\td\t0\nq\tb\t1\n"), 0o644)
	code, stdout, stderr := runCLI("eval-entailment", emb, "--pairs", pairs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r evalEntailmentResult
	lastWordsJSON(t, stdout, &r)
	if !(math.Abs(r.AP-7.0/12) <= 1e-9) || !(math.Abs(r.F1-0.8) <= 1e-9) || !(math.Abs(r.Threshold-1) <= 1e-9) || r.Pairs != 4 || r.Skipped != 1 || r.Positives != 2 {
		t.Errorf("got %+v, want AP 7/12, F1 0.8 at 1, 4 pairs (2 positive), 1 skipped", r)
	}
}

// TestTrainWordsShrinkWindowCLI: --shrink-window reaches the trainer (the
// same seed gives another run than the fixed window: a different loss)
// and the model it trains still places same-topic words nearest.
func TestTrainWordsShrinkWindowCLI(t *testing.T) {
	corpus := plantedText(t)
	dir := t.TempDir()
	losses := map[bool]float64{}
	for _, shrink := range []bool{false, true} {
		out := filepath.Join(dir, fmt.Sprintf("w%v.npz", shrink))
		args := []string{"train-words", corpus, "--dim", "3", "--epochs", "2", "--subsample", "0", "--batch", "16",
			"--window", "3", "--threads", "2", "--out", out}
		if shrink {
			args = append(args, "--shrink-window")
		}
		code, stdout, stderr := runCLI(args...)
		if code != 0 {
			t.Fatalf("shrink %v: exit %d: %s", shrink, code, stderr)
		}
		var res trainWordsResult
		lastWordsJSON(t, stdout, &res)
		losses[shrink] = res.Loss
		if !shrink {
			continue
		}
		code, stdout, stderr = runCLI("neighbors", out, "--set", "c", "--item", "t0w0", "--k", "4", "--by", "mixture")
		if code != 0 {
			t.Fatalf("neighbors: exit %d: %s", code, stderr)
		}
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			var nb neighborLine
			if err := json.Unmarshal([]byte(line), &nb); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(nb.Label, "t0") {
				t.Errorf("--shrink-window: neighbour %q of t0w0 is not of topic t0", nb.Label)
			}
		}
	}
	if losses[true] == losses[false] {
		t.Errorf("--shrink-window gave the fixed window's loss %v: the flag did not reach the trainer", losses[true])
	}
}

// TestWordCommandsDefaultToInputSet checks that the word commands read
// the input set unless told otherwise (the set neighbors and the app's
// Explore read): eval-similarity and eval-entailment without --set give
// --set input's result (and --set context another one, so the test can
// tell them apart), and train-words' .json output holds the input means
// of the .npz trained with the same settings.
func TestWordCommandsDefaultToInputSet(t *testing.T) {
	corpus := plantedText(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "w.npz")
	args := []string{corpus, "--dim", "3", "--epochs", "1", "--subsample", "0", "--batch", "16", "--window", "3", "--threads", "2"}
	if code, _, stderr := runCLI(append([]string{"train-words"}, append(args, "--out", out)...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sim := filepath.Join(dir, "sim.tsv")
	ent := filepath.Join(dir, "ent.tsv")
	var sb, eb strings.Builder
	for i := 0; i < 5; i++ {
		for j := i + 1; j < 5; j++ {
			fmt.Fprintf(&sb, "t0w%d\tt%dw%d\t%d\n", i, j%3, j, i+j)
			fmt.Fprintf(&eb, "t0w%d\tt%dw%d\t%d\n", i, j%3, j, (i+j)%2)
		}
	}
	os.WriteFile(sim, []byte(sb.String()), 0o644)
	os.WriteFile(ent, []byte(eb.String()), 0o644)
	for _, cmd := range [][]string{{"eval-similarity", out, "--pairs", sim}, {"eval-entailment", out, "--pairs", ent}} {
		res := map[string]string{}
		for _, set := range []string{"", "input", "context"} {
			a := cmd
			if set != "" {
				a = append(append([]string(nil), cmd...), "--set", set)
			}
			code, stdout, stderr := runCLI(a...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", a, code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			res[set] = lines[len(lines)-1]
		}
		if res[""] != res["input"] {
			t.Errorf("%s: default %s, --set input %s", cmd[0], res[""], res["input"])
		}
		if res["input"] == res["context"] {
			t.Errorf("%s: input and context sets give the same result %s: the test cannot tell them apart", cmd[0], res["input"])
		}
	}
	js := filepath.Join(dir, "w.json")
	if code, _, stderr := runCLI(append([]string{"train-words"}, append(args, "--out", js)...)...); code != 0 {
		t.Fatalf("json: exit %d: %s", code, stderr)
	}
	e, err := datasets.LoadEmbedding(js)
	if err != nil {
		t.Fatal(err)
	}
	in, err := datasets.LoadNPY(out, datasets.NPYOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Means, in.Means) {
		t.Errorf(".json means %v, the .npz input means %v", e.Means[:6], in.Means[:6])
	}
}
