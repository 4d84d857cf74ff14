package cli

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// run calls Main and returns the exit code, stdout and stderr.
func run(args ...string) (int, string, string) {
	var so, se bytes.Buffer
	code := Main(args, &so, &se)
	return code, so.String(), se.String()
}

// TestFlagsCheckedFirst: every bad flag value is refused with exit 2 and a
// message naming the flag and its range before the input is even opened
// (the input below does not exist, so reading it first would exit 1
// blaming the file), and before anything is allocated.
func TestFlagsCheckedFirst(t *testing.T) {
	const missing = "/nonexistent-burescope/data.csv"
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"lr NaN", []string{"fit", missing, "--lr", "NaN"}, "--lr NaN"},
		{"lr negative", []string{"fit", missing, "--lr", "-1"}, "--lr -1"},
		{"eps NaN", []string{"fit", missing, "--eps", "NaN"}, "--eps NaN"},
		{"tol negative", []string{"fit", missing, "--tol", "-1"}, "--tol -1 out of range [0, 1]"},
		{"optimizer", []string{"fit", missing, "--optimizer", "bogus"}, `--optimizer "bogus": want one of adam, gd, adagrad`},
		{"backend", []string{"fit", missing, "--backend", "vulkan"}, `--backend "vulkan"`},
		{"tau Inf", []string{"fit", missing, "--tau", "+Inf"}, "--tau +Inf"},
		{"iters", []string{"fit", missing, "--iters", "2000000000"}, "--iters 2000000000 out of range 0..10000000"},
		{"negatives", []string{"train-relations", missing, "--negatives", "1000000000"}, "--negatives 1000000000 out of range 1..1000000"},
		{"batch", []string{"train-relations", missing, "--batch", "1000000000"}, "--batch 1000000000 out of range 1..10000000"},
		{"batch times negatives", []string{"train-relations", missing, "--batch", "10000000", "--negatives", "1000000"}, "would need"},
		{"bench n", []string{"bench", "--n", "1048576"}, "--n 1048576 --dim 2 would need"},
		{"bench backend", []string{"bench", "--backend", "bogus"}, `--backend "bogus"`},
		{"geodesic t", []string{"geodesic", missing, "--from", "a", "--to", "b", "--t", "0,1e308"}, `value 2 ("1e308") out of range`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, se := run(c.args...)
			if code != 2 || !strings.Contains(se, c.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, se, c.want)
			}
			if strings.Contains(se, "nonexistent-burescope") {
				t.Errorf("stderr %q blames the input file", se)
			}
		})
	}
}

// TestOutputsCheckedFirst: an output that cannot be written is reported
// before the computation starts (no progress bar or summary with a
// stress-1 on stderr, no attempt to open the input), a
// directory is "is a directory", and of two outputs neither is written
// when one cannot be.
func TestOutputsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "emb.json")
	figDir := filepath.Join(t.TempDir(), "fig.png")
	if err := os.Mkdir(figDir, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"missing directory", []string{"fit", "builtin:pisa2015", "--iters", "3000", "--progress", "--out", "/nonexistent-burescope/x.json"}, "/nonexistent-burescope/x.json: no such file or directory"},
		{"directory", []string{"fit", "builtin:pisa2015", "--iters", "3000", "--progress", "--out", dir + "/"}, "is a directory"},
		{"figure fails, out not written", []string{"fit", "builtin:pisa2015", "--iters", "3000", "--progress", "--out", good, "--figure", "/nonexistent-burescope/f.png"}, "/nonexistent-burescope/f.png"},
		{"same file twice", []string{"fit", "builtin:pisa2015", "--out", good, "--figure", good}, ""},
		{"render", []string{"render", "x.json", "--out", figDir}, "is a directory"},
		{"distance", []string{"distance", "x.json", "--out", "/nonexistent-burescope/d.csv"}, "/nonexistent-burescope/d.csv"},
		{"project", []string{"project", "x.json", "--out", dir}, "is a directory"},
		{"train-relations", []string{"train-relations", "builtin:mammals", "--out", dir}, "is a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, se := run(c.args...)
			if code == 0 || !strings.Contains(se, c.want) {
				t.Errorf("exit %d, stderr %q; want a failure naming %q", code, se, c.want)
			}
			if strings.Contains(se, "stress-1") || strings.Contains(se, "x.json: open") {
				t.Errorf("work was done before the output was checked: %q", se)
			}
			if _, err := os.Stat(good); err == nil {
				t.Errorf("%s was written", good)
			}
			if es, _ := os.ReadDir(dir); len(es) != 0 {
				t.Errorf("directory holds %d entries", len(es))
			}
		})
	}
}

// failWriter fails every write, as stdout redirected to /dev/full does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestStdoutWriteFailure: a command whose results cannot be written to
// stdout exits 1 and says so.
func TestStdoutWriteFailure(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"fit", []string{"fit", "builtin:pisa2015", "--iters", "5", "--backend", "cpu", "--baseline=false"}},
		{"bench", []string{"bench", "--n", "20", "--iters", "1"}},
		{"train-relations", []string{"train-relations", "builtin:mammals", "--epochs", "1", "--eval-every", "0"}},
		{"datasets", []string{"datasets"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var se bytes.Buffer
			code := Main(c.args, failWriter{}, &se)
			if code != 1 || !strings.Contains(se.String(), "no space left on device") {
				t.Errorf("exit %d, stderr %q; want exit 1 naming the write error", code, se.String())
			}
		})
	}
}

// TestDistanceExtremeScales: W2 of finite measures near the float64 limits
// is computed in a scaled form. For 1-D measures W2^2 = (m1 - m2)^2 +
// (sqrt(c1) - sqrt(c2))^2 (the hand formula, via math.Hypot so nothing
// overflows here either); a distance larger than the largest float64 is
// an error naming the items, and no file is written.
func TestDistanceExtremeScales(t *testing.T) {
	emb := func(m, c [3]float64) string {
		f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
		return `{"format": "burescope-embedding/1", "family": "gaussian", "dim": 1, "labels": ["a", "b", "c"],
  "means": [[` + f(m[0]) + `], [` + f(m[1]) + `], [` + f(m[2]) + `]],
  "covariances": [[[` + f(c[0]) + `]], [[` + f(c[1]) + `]], [[` + f(c[2]) + `]]]}`
	}
	cases := []struct {
		name string
		m, c [3]float64
	}{
		{"huge", [3]float64{1e307, -5e307, 0}, [3]float64{1e200, 4e200, 0}},
		{"huge covariances", [3]float64{0, 1, 2}, [3]float64{1e300, 4e300, 9e300}},
		{"tiny", [3]float64{1e-300, -2e-300, 0}, [3]float64{1e-310, 4e-310, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := writeTemp(t, "e.json", emb(c.m, c.c))
			out := filepath.Join(t.TempDir(), "d.csv")
			code, _, se := run("distance", in, "--out", out)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, se)
			}
			f, _ := os.Open(out)
			rows, err := csv.NewReader(f).ReadAll()
			f.Close()
			if err != nil || len(rows) != 4 {
				t.Fatalf("%d rows, %v", len(rows), err)
			}
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					got, _ := strconv.ParseFloat(rows[i+1][j+1], 64)
					want := math.Hypot(c.m[i]-c.m[j], math.Sqrt(c.c[i])-math.Sqrt(c.c[j]))
					if !(math.Abs(got-want) <= 1e-9*want) {
						t.Errorf("W2(%d, %d) = %v, want %v", i, j, got, want)
					}
				}
			}
		})
	}
	t.Run("beyond float64", func(t *testing.T) {
		in := writeTemp(t, "e.json", emb([3]float64{1.5e308, -1.5e308, 0}, [3]float64{1, 1, 1}))
		out := filepath.Join(t.TempDir(), "d.csv")
		code, _, se := run("distance", in, "--out", out)
		if code != 1 || !strings.Contains(se, `items 1 ("a") and 2 ("b")`) || !strings.Contains(se, "larger than the largest float64") {
			t.Errorf("exit %d, stderr %q", code, se)
		}
		if _, err := os.Stat(out); err == nil {
			t.Error("a file was written")
		}
	})
}

// TestOutputToDevice: `distance EMB --out /dev/null` writes through the
// device (exit 0) and /dev/null stays a character device, also through a
// symbolic link, which stays a link.
func TestOutputToDevice(t *testing.T) {
	in := writeTemp(t, "e.json", diagEmbedding)
	link := filepath.Join(t.TempDir(), "null.csv")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{"/dev/null", link} {
		code, _, se := run("distance", in, "--out", out)
		if code != 0 {
			t.Errorf("--out %s: exit %d, %s", out, code, se)
		}
		fi, err := os.Lstat("/dev/null")
		if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("/dev/null is now %v", fi.Mode())
		}
		if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link", link)
		}
	}
}
