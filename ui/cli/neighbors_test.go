package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sbinet/npyio/npz"

	"burescope/datasets"
	"burescope/engine"
	"burescope/gpucompute"
)

// trainedEmbedding returns a random n x d Gaussian embedding with full-rank
// scales L L^T + 0.1 I and labels w0, w1, ...
func trainedEmbedding(seed uint64, n, d int) *engine.Embedding {
	rnd := rand.New(rand.NewPCG(seed, seed+1))
	e := &engine.Embedding{Family: engine.Gaussian(), Dim: d, Labels: make([]string, n), Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
	l := make([]float64, d*d)
	for i := 0; i < n; i++ {
		e.Labels[i] = "w" + strconv.Itoa(i)
		for j := range e.Mean(i) {
			e.Mean(i)[j] = rnd.NormFloat64()
		}
		for j := range l {
			l[j] = rnd.NormFloat64() / 2
		}
		copy(e.Scale(i), engine.FactorProduct(l, d, d, 0.1))
	}
	return e
}

// runCLI runs the burescope command line and returns the exit code, stdout
// and stderr.
func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

// parseNeighborLines decodes the JSON lines of `burescope neighbors`.
func parseNeighborLines(t *testing.T, s string) []neighborLine {
	t.Helper()
	var out []neighborLine
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		var nl neighborLine
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&nl); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, nl)
	}
	return out
}

func TestNeighborsCommandAgainstBruteForce(t *testing.T) {
	e := trainedEmbedding(1, 40, 4)
	path := filepath.Join(t.TempDir(), "emb.json")
	if err := datasets.SaveEmbedding(path, e); err != nil {
		t.Fatal(err)
	}
	d := e.Dim
	q := 17
	for _, tc := range []struct {
		by  string
		rho float64
		// ref is the brute-force score from the engine's exact functions
		// (bures.go, similarity.go).
		ref       func(j int) float64
		ascending bool
	}{
		{"w2", 1, func(j int) float64 { return e.W2(q, j) }, true},
		{"dot", 1, func(j int) float64 { return engine.DotProduct(e.Mean(q), e.Scale(q), e.Mean(j), e.Scale(j), d) }, false},
		{"cosine", 0.5, func(j int) float64 {
			return engine.BuresCosine(e.Mean(q), e.Scale(q), e.Mean(j), e.Scale(j), d, 0.5)
		}, false},
		{"mixture", 2, func(j int) float64 {
			return engine.MixtureCosine(e.Mean(q), e.Scale(q), e.Mean(j), e.Scale(j), d, 2)
		}, false},
	} {
		code, out, errs := runCLI("neighbors", path, "--item", "w17", "--k", "6", "--by", tc.by, "--rho", strconv.FormatFloat(tc.rho, 'g', -1, 64))
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.by, code, errs)
		}
		got := parseNeighborLines(t, out)
		var want []int
		for j := 0; j < e.Len(); j++ {
			if j != q {
				want = append(want, j)
			}
		}
		sort.SliceStable(want, func(a, b int) bool {
			if tc.ascending {
				return tc.ref(want[a]) < tc.ref(want[b])
			}
			return tc.ref(want[a]) > tc.ref(want[b])
		})
		if len(got) != 6 {
			t.Fatalf("%s: %d lines, want 6:\n%s", tc.by, len(got), out)
		}
		for r, nl := range got {
			j := want[r]
			if nl.Rank != r+1 || nl.Label != e.Labels[j] || !(math.Abs(nl.Score-tc.ref(j)) <= 1e-9*(1+math.Abs(tc.ref(j)))) {
				t.Errorf("%s rank %d: %+v, want label %s score %v", tc.by, r+1, nl, e.Labels[j], tc.ref(j))
			}
		}
	}
}

func TestNeighborsCommandNPZ(t *testing.T) {
	// An .npz written by npyio's own writer: means (n x d) and diagonal
	// variances (n x d), labels from a text file. With diagonal scales
	// W2^2 = |a-b|^2 + |sqrt(va) - sqrt(vb)|^2 (docs/math.md, Hellinger).
	n, d := 6, 2
	means := []float64{0, 0, 1, 0, 0, 3, -2, 0, 5, 5, 0.5, 0.5}
	vars := []float64{1, 1, 4, 1, 1, 1, 1, 9, 1, 1, 1, 1}
	dir := t.TempDir()
	p := filepath.Join(dir, "emb.npz")
	if err := npz.Write(p, map[string]any{"means": mat.NewDense(n, d, means), "vars": mat.NewDense(n, d, vars)}); err != nil {
		t.Fatal(err)
	}
	labels := []string{"bach", "handel", "mozart", "liszt", "far", "near"}
	lab := writeTemp(t, "words.txt", strings.Join(labels, "\n")+"\n")
	code, out, errs := runCLI("neighbors", p, "--item", "bach", "--k", "10", "--labels", lab)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	w2 := func(j int) float64 {
		var s float64
		for k := 0; k < d; k++ {
			dm := means[k] - means[j*d+k]
			dv := math.Sqrt(vars[k]) - math.Sqrt(vars[j*d+k])
			s += dm*dm + dv*dv
		}
		return math.Sqrt(s)
	}
	got := parseNeighborLines(t, out)
	if len(got) != n-1 {
		t.Fatalf("%d lines, want %d (k larger than n-1)", len(got), n-1)
	}
	for r, nl := range got {
		j := -1
		for i, l := range labels {
			if l == nl.Label {
				j = i
			}
		}
		if j <= 0 || !(math.Abs(nl.Score-w2(j)) <= 1e-12) {
			t.Errorf("rank %d: %+v, want W2 %v", r+1, nl, w2(j))
		}
		if r > 0 && got[r-1].Score > nl.Score {
			t.Errorf("not smallest first: %v then %v", got[r-1].Score, nl.Score)
		}
	}
}

func TestNeighborsCommandErrors(t *testing.T) {
	e := trainedEmbedding(2, 5, 2)
	path := filepath.Join(t.TempDir(), "emb.json")
	if err := datasets.SaveEmbedding(path, e); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"neighbors", path}, 2, "--item LABEL is required"},
		{[]string{"neighbors", "--item", "w1"}, 2, "want exactly one embedding file"},
		{[]string{"neighbors", path, "--item", "w1", "--by", "l1"}, 2, `unknown similarity "l1"`},
		{[]string{"neighbors", path, "--item", "w1", "--k", "0"}, 2, "--k must be >= 1"},
		{[]string{"neighbors", path, "--item", "w1", "--rho", "-1"}, 2, "--rho"},
		{[]string{"neighbors", path, "--item", "w1", "--backend", "gl64"}, 2, "--backend must be cpu, gl or auto"},
		{[]string{"neighbors", path, "--item", "nope"}, 1, `no item labelled "nope"`},
		{[]string{"neighbors", path, "--item", "w1", "--set", "c"}, 2, "--set applies only to NumPy files (.npy, .npz)"},
		{[]string{"neighbors", path + ".missing", "--item", "w1"}, 1, "emb.json.missing"},
	} {
		code, _, errs := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

// TestNeighborsCommandGLBackend checks that --backend gl (scores from
// gpucompute.Backend.SimilarityScores, ranked by gpucompute.RankScores)
// prints exactly the JSON lines of --backend cpu (engine.NearestNeighbors)
// for every similarity, in d = 2 and d = 4. It skips only when no OpenGL
// 4.3 compute context comes up at all.
func TestNeighborsCommandGLBackend(t *testing.T) {
	b, err := gpucompute.New(gpucompute.Options{})
	if errors.Is(err, gpucompute.ErrNoContext) {
		t.Skipf("no OpenGL 4.3 compute context: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	for _, d := range []int{2, 4} {
		e := trainedEmbedding(uint64(10+d), 60, d)
		path := filepath.Join(t.TempDir(), "emb.json")
		if err := datasets.SaveEmbedding(path, e); err != nil {
			t.Fatal(err)
		}
		for _, by := range []string{"w2", "dot", "cosine", "mixture"} {
			args := []string{"neighbors", path, "--item", "w7", "--k", "12", "--by", by, "--rho", "0.5"}
			code, want, errs := runCLI(append(args, "--backend", "cpu")...)
			if code != 0 {
				t.Fatalf("d=%d %s cpu: exit %d: %s", d, by, code, errs)
			}
			if n := len(parseNeighborLines(t, want)); n != 12 {
				t.Fatalf("d=%d %s cpu: %d lines, want 12", d, by, n)
			}
			code, got, errs := runCLI(append(args, "--backend", "gl")...)
			if code != 0 || errs != "" {
				t.Fatalf("d=%d %s gl: exit %d, stderr %q", d, by, code, errs)
			}
			if got != want {
				t.Errorf("d=%d %s: --backend gl printed\n%s\n--backend cpu printed\n%s", d, by, got, want)
			}
		}
	}
}

// TestNeighborsCommandGLFallback: above gpucompute.JacobiMaxDim, --backend gl
// and auto print the CPU's lines and one line on stderr saying why (no GL
// context is needed to reach that decision).
func TestNeighborsCommandGLFallback(t *testing.T) {
	e := trainedEmbedding(3, 30, gpucompute.JacobiMaxDim+1)
	path := filepath.Join(t.TempDir(), "emb.json")
	if err := datasets.SaveEmbedding(path, e); err != nil {
		t.Fatal(err)
	}
	args := []string{"neighbors", path, "--item", "w3", "--k", "5", "--by", "cosine"}
	_, want, _ := runCLI(args...)
	for _, be := range []string{"gl", "auto"} {
		code, got, errs := runCLI(append(args, "--backend", be)...)
		if code != 0 || got != want {
			t.Errorf("--backend %s: exit %d, printed\n%s\nwant\n%s", be, code, got, want)
		}
		if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "using the CPU") {
			t.Errorf("--backend %s: stderr %q, want one line saying the CPU is used", be, errs)
		}
	}
}
