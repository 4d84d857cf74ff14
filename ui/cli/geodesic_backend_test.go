package cli

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine"
)

// geodesicOutput runs `burescope geodesic` and decodes its lines.
func geodesicOutput(t *testing.T, args ...string) []geodesicLine {
	t.Helper()
	code, out, errs := runCLI(append([]string{"geodesic"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var ls []geodesicLine
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var l geodesicLine
		if err := json.Unmarshal([]byte(sc.Text()), &l); err != nil {
			t.Fatalf("bad line %q: %v", sc.Text(), err)
		}
		ls = append(ls, l)
	}
	return ls
}

// d4Embedding is two random-ish definite measures in d = 4.
func d4Embedding(t *testing.T) string {
	d := 4
	e := &engine.Embedding{Family: engine.Uniform(d), Dim: d, Labels: []string{"p", "q"},
		Means: []float64{0, 1, 2, 3, 1, -1, 0, 2}, Scales: make([]float64, 2*d*d)}
	for i := 0; i < 2; i++ {
		for r := 0; r < d; r++ {
			for c := 0; c < d; c++ {
				v := 0.2 * math.Cos(float64(7*i+r+c))
				if r == c {
					v += 1 + 0.5*float64(i+r)
				}
				e.Scales[i*d*d+r*d+c] = v
			}
		}
	}
	path := filepath.Join(t.TempDir(), "d4.json")
	if err := datasets.SaveEmbedding(path, e); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestGeodesicBackendGL: the batched GL path (gpucompute.Backend.Geodesics)
// prints the same points as the CPU path (engine.Geodesic) to 1e-5 with
// float32 buffers and 1e-10 with float64, inside and outside [0, 1].
func TestGeodesicBackendGL(t *testing.T) {
	needGLCLI(t)
	path := d4Embedding(t)
	args := []string{path, "--from", "p", "--to", "q", "--t", "-1,0,0.3,1,2.5"}
	want := geodesicOutput(t, append(args, "--backend", "cpu")...)
	for _, c := range []struct {
		backend string
		tol     float64
	}{{"gl", 1e-5}, {"gl64", 1e-10}} {
		got := geodesicOutput(t, append(args, "--backend", c.backend)...)
		if len(got) != len(want) {
			t.Fatalf("%s: %d lines, cpu %d", c.backend, len(got), len(want))
		}
		for k := range want {
			var num, den float64
			for r := range want[k].Mean {
				num = math.Max(num, math.Abs(got[k].Mean[r]-want[k].Mean[r]))
				den = math.Max(den, math.Abs(want[k].Mean[r]))
				for q := range want[k].Covariance[r] {
					num = math.Max(num, math.Abs(got[k].Covariance[r][q]-want[k].Covariance[r][q]))
					den = math.Max(den, math.Abs(want[k].Covariance[r][q]))
				}
			}
			if e := num / den; !(e <= c.tol) || got[k].T != want[k].T {
				t.Errorf("%s t=%v: rel err %.2g > %g", c.backend, want[k].T, e, c.tol)
			}
		}
	}
}

// TestGeodesicFigureCLI: `geodesic --figure` writes the paper's figure 5
// (both plots, one label per --t time) for a d = 4 pair; a bad extension
// or a bad --backend is refused before any file is written.
func TestGeodesicFigureCLI(t *testing.T) {
	path := d4Embedding(t)
	fig := filepath.Join(t.TempDir(), "fig5.svg")
	ls := geodesicOutput(t, path, "--from", "p", "--to", "q", "--t", "-1,0,0.5,1,2", "--figure", fig, "--refs", "0,2")
	if len(ls) != 5 {
		t.Fatalf("%d lines", len(ls))
	}
	b, err := os.ReadFile(fig)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"W2 geodesic", "metric derivative", "t=-1", "t=2", "r = 0", "r = 2"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("figure lacks %q", want)
		}
	}
	for _, bad := range [][]string{{"--figure", filepath.Join(t.TempDir(), "x.bmp")}, {"--refs", "a"}} {
		if code, _, errs := runCLI(append([]string{"geodesic", path, "--from", "p", "--to", "q"}, bad...)...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errs)
		}
	}
	if code, _, _ := runCLI("geodesic", path, "--from", "p", "--to", "q", "--backend", "metal"); code != 1 {
		t.Errorf("--backend metal: exit %d, want 1", code)
	}
}

// TestFitStressFigure: `fit --stress-figure` writes the stress curve with
// its references (SVG text), and an unknown extension is a usage error.
func TestFitStressFigure(t *testing.T) {
	fig := filepath.Join(t.TempDir(), "stress.svg")
	code, _, errs := runCLI("fit", "builtin:pisa2015", "--iters", "30", "--backend", "cpu", "--stress-figure", fig)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(fig)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Stress-1 per iteration", "elliptical MDS", "point MDS", "classical MDS"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("stress figure lacks %q", want)
		}
	}
	if code, _, errs := runCLI("fit", "builtin:pisa2015", "--stress-figure", "x.gif"); code != 2 || errs == "" {
		t.Errorf("x.gif: exit %d, stderr %q", code, errs)
	}
}
