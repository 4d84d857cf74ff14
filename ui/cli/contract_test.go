package cli

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/datasets"
)

// tinyWordNet writes a three-synset WordNet directory (entity > animal >
// dog) and returns it.
func tinyWordNet(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	data := "00001000 03 n 01 entity 0 000 | x\n" +
		"00001001 03 n 01 animal 0 001 @ 00001000 n 0000 | x\n" +
		"00001002 03 n 01 dog 0 001 @ 00001001 n 0000 | x\n"
	index := "animal n 1 0 1 0 00001001\ndog n 1 0 1 0 00001002\nentity n 1 0 1 0 00001000\n"
	os.WriteFile(filepath.Join(dir, "data.noun"), []byte(data), 0o644)
	os.WriteFile(filepath.Join(dir, "index.noun"), []byte(index), 0o644)
	return dir
}

// bigFeatures writes a feature table of n rows (above the sampled-pairs
// threshold when n > 5000).
func bigFeatures(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,%d\n", i%97, i%89)
	}
	return writeTemp(t, "big.csv", b.String())
}

// TestFlagsThatDoNotApplyRefused: a flag value out of its set, or a flag
// that has no effect on the path the command takes, is refused with exit
// 2 naming the flag, before the input is read (the inputs named
// /nonexistent would otherwise fail with exit 1).
func TestFlagsThatDoNotApplyRefused(t *testing.T) {
	small := writeTemp(t, "small.csv", "x,y\n0,0\n1,0\n0,1\n1,1\n2,2\n")
	big := bigFeatures(t, 5100)
	emb := writeTemp(t, "e.json", diagEmbedding)
	wn := tinyWordNet(t)
	const missing = "/nonexistent/in.csv"
	for _, c := range []struct {
		name string
		args []string
		flag string
	}{
		{"structure value", []string{"fit", missing, "--structure", "bogus"}, "--structure"},
		{"scale-budget negative", []string{"fit", missing, "--scale-budget", "-1"}, "--scale-budget"},
		{"scale-budget NaN", []string{"fit", missing, "--scale-budget", "NaN"}, "--scale-budget"},
		{"pairs value", []string{"fit", missing, "--pairs", "some"}, "--pairs"},
		{"epochs negative", []string{"fit", missing, "--epochs", "-1"}, "--epochs"},
		{"epochs on exact", []string{"fit", missing, "--pairs", "exact", "--epochs", "5"}, "--epochs"},
		{"iters on sampled", []string{"fit", missing, "--pairs", "sampled", "--iters", "0"}, "--iters"},
		{"structure on sampled", []string{"fit", missing, "--pairs", "sampled", "--structure", "diagonal"}, "--structure"},
		{"scale-budget on sampled", []string{"fit", missing, "--pairs", "sampled", "--scale-budget", "0.1"}, "--scale-budget"},
		{"tol on sampled", []string{"fit", missing, "--pairs", "sampled", "--tol", "0.1"}, "--tol"},
		{"backend on sampled", []string{"fit", missing, "--pairs", "sampled", "--backend", "gl"}, "--backend"},
		{"stress-figure on sampled", []string{"fit", missing, "--pairs", "sampled", "--stress-figure", "s.png"}, "--stress-figure"},
		{"init file on sampled", []string{"fit", missing, "--pairs", "sampled", "--init", "e.json"}, "--init"},
		{"points with diagonal", []string{"fit", missing, "--points", "--structure", "diagonal"}, "--points"},
		{"epochs on auto exact", []string{"fit", small, "--epochs", "5"}, "--epochs"},
		{"structure on auto sampled", []string{"fit", big, "--structure", "spherical"}, "--structure"},
		{"scale-budget on auto sampled", []string{"fit", big, "--scale-budget", "0.01"}, "--scale-budget"},
		{"iters on auto sampled", []string{"fit", big, "--iters", "0"}, "--iters"},
		{"root on a file", []string{"relations", missing, "--root", "mammal.n.01", "--out", filepath.Join(t.TempDir(), "r.tsv")}, "--root"},
		{"root malformed", []string{"relations", "wordnet:" + wn, "--root", "mammal", "--out", filepath.Join(t.TempDir(), "r.tsv")}, "--root"},
		{"root on builtin", []string{"train-relations", "builtin:mammals", "--root", "dog.n.01"}, "--root"},
		{"root on eval file", []string{"eval-relations", emb, missing, "--root", "dog.n.01"}, "--root"},
		{"by value", []string{"eval-entailment", "/nonexistent/m.npz", "--pairs", missing, "--by", "bogus"}, "--by"},
		{"set value", []string{"eval-similarity", "/nonexistent/m.npz", "--pairs", missing, "--set", "both"}, "--set"},
		{"set on JSON", []string{"eval-entailment", "/nonexistent/m.json", "--pairs", missing, "--set", "input"}, "--set"},
		{"labels on JSON", []string{"project", "/nonexistent/m.json", "--labels", "l.txt", "--out", filepath.Join(t.TempDir(), "p.json")}, "--labels"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, se := run(c.args...)
			if code != 2 || !strings.Contains(se, c.flag) {
				t.Errorf("exit %d, stderr %q; want exit 2 naming %s", code, se, c.flag)
			}
		})
	}
	// The same flags where they apply are accepted.
	for _, args := range [][]string{
		{"fit", small, "--pairs", "exact", "--iters", "5", "--baseline=false"},
		{"fit", small, "--structure", "diagonal", "--scale-budget", "0.01", "--iters", "5", "--baseline=false"},
		{"relations", "wordnet:" + wn, "--root", "animal.n.01", "--out", filepath.Join(t.TempDir(), "r.tsv")},
	} {
		if code, _, se := run(args...); code != 0 {
			t.Errorf("%v: exit %d, %s", args, code, se)
		}
	}
}

// TestOutputThatIsAnInputRefused: an output naming one of the command's
// inputs (also a WordNet file, an --init file or a --data file) is
// refused with exit 2 naming the flag, and the input is left intact.
func TestOutputThatIsAnInputRefused(t *testing.T) {
	in := writeTemp(t, "in.csv", "x,y\n0,0\n1,0\n0,1\n1,1\n")
	emb := writeTemp(t, "e.json", diagEmbedding)
	wn := tinyWordNet(t)
	link := filepath.Join(t.TempDir(), "link.csv")
	os.Symlink(in, link)
	for _, c := range []struct {
		name string
		args []string
		keep string
	}{
		{"fit --out", []string{"fit", in, "--out", in}, in},
		{"fit --out through a link", []string{"fit", in, "--out", link}, in},
		{"fit --figure", []string{"fit", in, "--figure", emb + ".png", "--out", emb, "--init", emb}, emb},
		{"relations into data.noun", []string{"relations", "wordnet:" + wn, "--out", filepath.Join(wn, "data.noun")}, filepath.Join(wn, "data.noun")},
		{"distance", []string{"distance", emb, "--out", emb}, emb},
		{"project", []string{"project", emb, "--out", emb}, emb},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, _ := os.ReadFile(c.keep)
			code, _, se := run(c.args...)
			if code != 2 || !strings.Contains(se, "is the input") {
				t.Errorf("exit %d, stderr %q; want exit 2 and \"is the input\"", code, se)
			}
			if after, _ := os.ReadFile(c.keep); string(after) != string(before) {
				t.Errorf("%s was changed", c.keep)
			}
		})
	}
}

// A feature table at 1e-300 is not "fitted" with every distance 0: the
// exact and the sampled fit reach the stress of its copy at scale 1.
func TestTinyFeatureTableNotFittedAsZero(t *testing.T) {
	var one, tiny strings.Builder
	one.WriteString("x,y\n")
	tiny.WriteString("x,y\n")
	for i := 0; i < 40; i++ {
		x, y := float64(i%7), float64((i*i)%11)
		fmt.Fprintf(&one, "%g,%g\n", x, y)
		fmt.Fprintf(&tiny, "%g,%g\n", x*1e-300, y*1e-300)
	}
	a, b := writeTemp(t, "one.csv", one.String()), writeTemp(t, "tiny.csv", tiny.String())
	var ra, rb fitResult
	for _, c := range []struct {
		in string
		r  *fitResult
	}{{a, &ra}, {b, &rb}} {
		code, so, se := run("fit", c.in, "--iters", "300", "--baseline=false", "--standardize=false")
		if code != 0 {
			t.Fatalf("%s: exit %d, %s", c.in, code, se)
		}
		lastJSON(t, so, c.r)
	}
	if !(math.Abs(rb.Stress1-ra.Stress1) <= 1e-6) || ra.Stress1 == 0 {
		t.Errorf("stress-1 at 1e-300 %v (classical %v), at 1: %v (classical %v)", rb.Stress1, rb.MDSStress1, ra.Stress1, ra.MDSStress1)
	}
	for _, c := range []struct {
		in string
		r  *fitResult
	}{{a, &ra}, {b, &rb}} {
		code, so, se := run("fit", c.in, "--pairs", "sampled", "--epochs", "60", "--standardize=false")
		if code != 0 {
			t.Fatalf("sampled %s: exit %d, %s", c.in, code, se)
		}
		lastJSON(t, so, c.r)
	}
	if !(math.Abs(rb.Stress1-ra.Stress1) <= 0.02*ra.Stress1) || ra.Stress1 == 0 {
		t.Errorf("sampled stress-1 at 1e-300 %v, at 1: %v", rb.Stress1, ra.Stress1)
	}
}

// A diverging train-relations run stops at the first non-finite value,
// says so, and keeps the last finite state in --out.
func TestDivergingTrainingKeepsLastFiniteState(t *testing.T) {
	out := filepath.Join(t.TempDir(), "emb.json")
	code, _, se := run("train-relations", "builtin:mammals", "--lr", "20", "--optimizer", "sgd", "--epochs", "10",
		"--eval-every", "1", "--eval-rows", "50", "--workers", "1", "--out", out)
	if code != 1 || !strings.Contains(se, "not finite") || !strings.Contains(se, "last finite state") {
		t.Fatalf("exit %d, stderr %s", code, se)
	}
	e, err := datasets.LoadEmbedding(out)
	if err != nil {
		t.Fatalf("the saved state does not load: %v", err)
	}
	for _, v := range append(append([]float64{}, e.Means...), e.Scales...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatal("non-finite value saved")
		}
	}
}

// fit wordnet:DIR on a closure above datasets.MaxItems items fits (on
// sampled pairs) like the same closure written as a TSV by `relations`,
// instead of calling the graph not connected.
func TestFitWordNetLikeItsTSV(t *testing.T) {
	dir := t.TempDir()
	n := datasets.MaxItems + 100
	var data, index strings.Builder
	for i := 0; i < n; i++ {
		lemma := fmt.Sprintf("s%d", i)
		if i == 0 {
			lemma = "entity" // fit's root (it has no --root)
		}
		fmt.Fprintf(&data, "%08d 03 n 01 %s 0 ", 1000+i, lemma)
		if i == 0 {
			data.WriteString("000 | g\n")
		} else {
			fmt.Fprintf(&data, "001 @ %08d n 0000 | g\n", 1000+(i-1)/4)
		}
		fmt.Fprintf(&index, "%s n 1 0 1 0 %08d\n", lemma, 1000+i)
	}
	os.WriteFile(filepath.Join(dir, "data.noun"), []byte(data.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "index.noun"), []byte(index.String()), 0o644)
	tsv := filepath.Join(t.TempDir(), "closure.tsv")
	if code, _, se := run("relations", "wordnet:"+dir, "--out", tsv); code != 0 {
		t.Fatalf("relations: exit %d, %s", code, se)
	}
	for _, in := range []string{"wordnet:" + dir, tsv} {
		code, so, se := run("fit", in, "--epochs", "2")
		if code != 0 {
			t.Fatalf("fit %s: exit %d, %s", in, code, se)
		}
		var r fitResult
		lastJSON(t, so, &r)
		if r.N != n || r.Pairs != "sampled" {
			t.Errorf("fit %s: %+v", in, r)
		}
	}
}
