package cli

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine"
)

// renderEmbeddingFile writes a 2D gaussian embedding of the built-in PISA
// labels (means on a spiral, rotated ellipses) and returns its path.
func renderEmbeddingFile(t *testing.T) string {
	t.Helper()
	ds, err := datasets.Load("builtin:pisa2015", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := ds.Len()
	means := make([][]float64, n)
	covs := make([][][]float64, n)
	for i := range means {
		a := 0.5 * float64(i)
		means[i] = []float64{(1 + 0.2*a) * math.Cos(a), (1 + 0.2*a) * math.Sin(a)}
		c, s := math.Cos(a), math.Sin(a)
		l1, l2 := 0.09, 0.02
		covs[i] = [][]float64{{l1*c*c + l2*s*s, (l1 - l2) * c * s}, {(l1 - l2) * c * s, l1*s*s + l2*c*c}}
	}
	b, err := json.Marshal(map[string]any{
		"format": "burescope-embedding/1", "family": "gaussian", "tau": 1, "dim": 2,
		"labels": ds.Labels, "means": means, "covariances": covs,
	})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "emb.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRenderPNG(t *testing.T) {
	emb := renderEmbeddingFile(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "fig.png")
	var so, se bytes.Buffer
	args := []string{"render", emb, "--out", out, "--width", "400px", "--height", "300px", "--dpi", "100", "--labels", "--view", "precision"}
	if code := Main(args, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 400 || b.Dy() != 300 {
		t.Errorf("PNG is %v, want 400 x 300", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the output directory, want 1 (no temporary left)", len(entries))
	}
}

func TestRenderSVGColoredByStressAndClass(t *testing.T) {
	emb := renderEmbeddingFile(t)
	for _, colorBy := range []string{"stress", "none"} {
		out := filepath.Join(t.TempDir(), "fig.svg")
		var so, se bytes.Buffer
		args := []string{"render", emb, "--out", out, "--color-by", colorBy, "--data", "builtin:pisa2015", "--title", "PISA"}
		if code := Main(args, &so, &se); code != 0 {
			t.Fatalf("%s: exit %d: %s", colorBy, code, se.String())
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if has := bytes.Contains(b, []byte("% of stress")); has != (colorBy == "stress") { // the share, as the tooltip
			t.Errorf("%s: stress legend present = %v", colorBy, has)
		}
		if !bytes.Contains(b, []byte(">PISA<")) {
			t.Errorf("%s: title missing", colorBy)
		}
	}
}

// TestPerPointStress: Diracs on a line reproduce |x_i - x_j| exactly, so
// every per-point stress is 0, except that perturbing one target distance
// by e adds e^2/2 to both ends of that pair (engine's definition).
func TestPerPointStress(t *testing.T) {
	xs := []float64{0, 1, 3, 7}
	n := len(xs)
	emb := &engine.Embedding{Family: engine.Gaussian(), Dim: 1, Labels: []string{"a", "b", "c", "d"}, Means: xs, Scales: make([]float64, n)}
	// Dataset order is reversed: embedding item i is dataset item n-1-i.
	at := []int{3, 2, 1, 0}
	dist := make([]float64, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dist[engine.PairIndex(n, at[j], at[i])] = math.Abs(xs[i] - xs[j])
		}
	}
	pp := PerPointStress(emb, dist, n, at)
	for i, v := range pp {
		if !(math.Abs(v) <= 1e-24) {
			t.Errorf("exact distances: item %d stress %v", i, v)
		}
	}
	const e = 0.5
	dist[engine.PairIndex(n, at[2], at[1])] += e // embedding pair (1, 2)
	pp = PerPointStress(emb, dist, n, at)
	want := []float64{0, e * e / 2, e * e / 2, 0}
	for i := range pp {
		if !(math.Abs(pp[i]-want[i]) <= 1e-12) {
			t.Errorf("item %d stress %v, want %v", i, pp[i], want[i])
		}
	}
}

func TestRenderErrors(t *testing.T) {
	emb := renderEmbeddingFile(t)
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no out", []string{emb}, 2, "--out is required"},
		{"format", []string{emb, "--out", filepath.Join(dir, "f.gif")}, 2, "unknown format"},
		{"view", []string{emb, "--out", filepath.Join(dir, "f.png"), "--view", "sideways"}, 2, "sideways"},
		{"level", []string{emb, "--out", filepath.Join(dir, "f.png"), "--level", "-1"}, 2, "--level"},
		{"width", []string{emb, "--out", filepath.Join(dir, "f.png"), "--width", "wide"}, 2, "--width"},
		{"dpi", []string{emb, "--out", filepath.Join(dir, "f.png"), "--dpi", "0"}, 2, "--dpi"},
		{"stress without data", []string{emb, "--out", filepath.Join(dir, "f.png"), "--color-by", "stress"}, 2, "--data"},
		{"plane", []string{emb, "--out", filepath.Join(dir, "f.png"), "--plane", "axes:Atlantis"}, 2, "Atlantis"},
		{"missing file", []string{filepath.Join(dir, "nope.json"), "--out", filepath.Join(dir, "f.png")}, 1, "nope.json"},
		{"two inputs", []string{emb, emb, "--out", filepath.Join(dir, "f.png")}, 2, "exactly one"},
		{"missing class column", []string{emb, "--out", filepath.Join(dir, "f.png"), "--color-by", "continent", "--data", "builtin:pisa2015"}, 1, "continent"},
	}
	for _, c := range cases {
		var so, se bytes.Buffer
		code := Main(append([]string{"render"}, c.args...), &so, &se)
		if code != c.code || !strings.Contains(se.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d mentioning %q", c.name, code, se.String(), c.code, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed renders left %d files", len(entries))
	}
}
