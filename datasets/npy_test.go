package datasets

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npy"
	"gonum.org/v1/gonum/mat"

	"burescope/engine"
)

// npyBytes encodes one array in the .npy format version 1.0 exactly as
// numpy.lib.format.write_array does (written here from the format's
// specification, independently of the loader and of npyio): magic, version,
// little-endian uint16 header length, then the header dictionary padded
// with spaces and a final newline so that the data starts at a multiple of
// 64 bytes. data is []float64, []float32, []int64 or []string (dtype
// <U or |S); dtype may say big-endian ('>f8').
func npyBytes(dtype string, fortran bool, shape []int, data any) []byte {
	var sh string
	switch len(shape) {
	case 1:
		sh = fmt.Sprintf("(%d,)", shape[0])
	default:
		parts := make([]string, len(shape))
		for i, s := range shape {
			parts[i] = fmt.Sprint(s)
		}
		sh = "(" + strings.Join(parts, ", ") + ")"
	}
	f := "False"
	if fortran {
		f = "True"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", dtype, f, sh)
	total := 10 + len(dict) + 1
	pad := (64 - total%64) % 64
	hdr := dict + strings.Repeat(" ", pad) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(hdr)))
	b.WriteString(hdr)
	var order binary.ByteOrder = binary.LittleEndian
	if strings.HasPrefix(dtype, ">") {
		order = binary.BigEndian
	}
	switch v := data.(type) {
	case []string:
		var width int
		fmt.Sscanf(dtype[2:], "%d", &width)
		for _, s := range v {
			if dtype[1] == 'U' {
				rs := []rune(s)
				for i := 0; i < width; i++ {
					var r uint32
					if i < len(rs) {
						r = uint32(rs[i])
					}
					binary.Write(&b, order, r)
				}
			} else {
				buf := make([]byte, width)
				copy(buf, s)
				b.Write(buf)
			}
		}
	default:
		binary.Write(&b, order, v)
	}
	return b.Bytes()
}

// writeFile writes data to dir/name and returns the path.
func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// npzBytes zips the given arrays (name -> .npy bytes) as numpy.savez
// (stored) or savez_compressed (deflated) does: one member "name.npy" each.
func npzBytes(arrays map[string][]byte, compressed bool) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	names := make([]string, 0, len(arrays))
	for n := range arrays {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		m := zip.Store
		if compressed {
			m = zip.Deflate
		}
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: n + ".npy", Method: m})
		w.Write(arrays[n])
	}
	zw.Close()
	return b.Bytes()
}

// testEmbedding is a random embedding's raw arrays: means n x d, factors
// n x d x k and covariances F F^T computed with gonum (the reference).
type testEmbedding struct {
	n, d, k int
	means   []float64
	factors []float64
	covs    []float64
}

func newTestEmbedding(rnd *rand.Rand, n, d, k int) *testEmbedding {
	te := &testEmbedding{n: n, d: d, k: k, means: make([]float64, n*d), factors: make([]float64, n*d*k), covs: make([]float64, n*d*d)}
	for i := range te.means {
		te.means[i] = rnd.NormFloat64()
	}
	for i := range te.factors {
		te.factors[i] = rnd.NormFloat64()
	}
	for i := 0; i < n; i++ {
		f := mat.NewDense(d, k, te.factors[i*d*k:(i+1)*d*k])
		var c mat.Dense
		c.Mul(f, f.T())
		for a := 0; a < d; a++ {
			for b := 0; b < d; b++ {
				te.covs[i*d*d+a*d+b] = c.At(a, b)
			}
		}
	}
	return te
}

func f32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// checkClose fails unless got and want agree within tol (relative to 1 +
// |want|).
func checkClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if !(math.Abs(got[i]-want[i]) <= tol*(1+math.Abs(want[i]))) {
			t.Fatalf("%s[%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
}

func TestLoadNPZAuthorsLayout(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	in := newTestEmbedding(rnd, 7, 4, 4)
	ctx := newTestEmbedding(rnd, 7, 4, 4)
	labels := []string{"Bach", "Mozart", "Händel", "fugue", "sonata", "piano", "音楽"}
	n, d := 7, 4
	arrays := map[string][]byte{
		"means":   npyBytes("<f4", false, []int{n, d}, f32(in.means)),
		"vars":    npyBytes("<f4", false, []int{n, d, d}, f32(in.covs)),
		"c_means": npyBytes("<f8", false, []int{n, d}, ctx.means),
		"c_vars":  npyBytes("<f8", false, []int{n, d, d}, ctx.covs),
		"labels":  npyBytes("<U6", false, []int{n}, labels),
	}
	for _, compressed := range []bool{false, true} {
		path := writeFile(t, dir, fmt.Sprintf("emb%v.npz", compressed), npzBytes(arrays, compressed))
		for _, tc := range []struct {
			set  string
			fam  engine.Family
			want *testEmbedding
			tol  float64 // float32 storage: relative rounding 6e-8
		}{
			{"", engine.Family{}, in, 1e-6},
			{"c", engine.Gaussian(), ctx, 0},
			{"c", engine.CustomFamily(2), ctx, 0},
			{"", engine.Family{Name: "uniform"}, in, 1e-6},
		} {
			e, err := LoadNPY(path, NPYOptions{Set: tc.set, Family: tc.fam})
			if err != nil {
				t.Fatalf("set %q: %v", tc.set, err)
			}
			if e.Len() != n || e.Dim != d {
				t.Fatalf("set %q: n=%d d=%d", tc.set, e.Len(), e.Dim)
			}
			for i, l := range labels {
				if e.Labels[i] != l {
					t.Errorf("label %d = %q, want %q", i, e.Labels[i], l)
				}
			}
			wantFam := tc.fam
			switch {
			case tc.fam.Tau == 0 && tc.fam.Name == "":
				wantFam = engine.Gaussian()
			case tc.fam.Name == "uniform":
				wantFam = engine.Uniform(d) // tau = 1/(d+2) for the loaded d
			}
			if e.Family != wantFam {
				t.Errorf("family %+v, want %+v", e.Family, wantFam)
			}
			checkClose(t, "means", e.Means, tc.want.means, tc.tol)
			// Scales are the covariances divided by tau, as for LoadEmbedding.
			scaled := make([]float64, len(tc.want.covs))
			for i, c := range tc.want.covs {
				scaled[i] = c / wantFam.Tau
			}
			checkClose(t, "scales", e.Scales, scaled, tc.tol+1e-15)
		}
	}
}

func TestLoadNPYFilesFactorsAndOrders(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	n, d, k := 5, 3, 2
	te := newTestEmbedding(rnd, n, d, k)
	lab := writeFile(t, dir, "words.txt", []byte("alpha\r\nbeta\ngamma\ndelta\nepsilon\n"))
	wantLabels := []string{"alpha", "beta", "gamma", "delta", "epsilon"}

	// Fortran order: element (i, a, b) at i + n*(a + d*b).
	fortranCovs := make([]float64, n*d*d)
	for i := 0; i < n; i++ {
		for a := 0; a < d; a++ {
			for b := 0; b < d; b++ {
				fortranCovs[i+n*(a+d*b)] = te.covs[i*d*d+a*d+b]
			}
		}
	}
	fortranMeans := make([]float64, n*d)
	for i := 0; i < n; i++ {
		for a := 0; a < d; a++ {
			fortranMeans[i+n*a] = te.means[i*d+a]
		}
	}
	// Diagonal variances: the diagonals of the covariances.
	diag := make([]float64, n*d)
	diagCovs := make([]float64, n*d*d)
	for i := 0; i < n; i++ {
		for a := 0; a < d; a++ {
			diag[i*d+a] = te.covs[i*d*d+a*d+a]
			diagCovs[i*d*d+a*d+a] = diag[i*d+a]
		}
	}
	// The means written by npyio's own writer (a *mat.Dense is saved as a
	// 2-D float64 array), to check against the library's idea of the format.
	var libMeans bytes.Buffer
	if err := npy.Write(&libMeans, mat.NewDense(n, d, te.means)); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name  string
		files map[string][]byte
		load  string
		set   string
		want  []float64 // covariances
	}{
		{"pair", map[string][]byte{
			"means.npy": npyBytes("<f8", false, []int{n, d}, te.means),
			"vars.npy":  npyBytes("<f8", false, []int{n, d, d}, te.covs),
		}, "means.npy", "", te.covs},
		{"big-endian fortran", map[string][]byte{
			"x_means.npy":       npyBytes(">f8", true, []int{n, d}, fortranMeans),
			"x_covariances.npy": npyBytes(">f8", true, []int{n, d, d}, fortranCovs),
		}, "x_means.npy", "", te.covs},
		{"context set", map[string][]byte{
			"means.npy":   npyBytes("<f8", false, []int{n, d}, make([]float64, n*d)),
			"c_means.npy": npyBytes("<f8", false, []int{n, d}, te.means),
			"c_vars.npy":  npyBytes("<f8", false, []int{n, d, d}, te.covs),
		}, "means.npy", "c", te.covs},
		{"factors", map[string][]byte{
			"means.npy":   libMeans.Bytes(),
			"factors.npy": npyBytes("<f8", false, []int{n, d, k}, te.factors),
		}, "means.npy", "", te.covs},
		{"diagonal", map[string][]byte{
			"means.npy": npyBytes("<f8", false, []int{n, d}, te.means),
			"vars.npy":  npyBytes("<f8", false, []int{n, d}, diag),
		}, "means.npy", "", diagCovs},
	} {
		sub := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
		os.Mkdir(sub, 0o755)
		for name, data := range tc.files {
			writeFile(t, sub, name, data)
		}
		e, err := LoadNPY(filepath.Join(sub, tc.load), NPYOptions{Labels: lab, Set: tc.set})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i, l := range wantLabels {
			if e.Labels[i] != l {
				t.Errorf("%s: label %d = %q, want %q", tc.name, i, e.Labels[i], l)
			}
		}
		checkClose(t, tc.name+" means", e.Means, te.means, 0)
		checkClose(t, tc.name+" scales", e.Scales, tc.want, 1e-14)
	}
	// No labels anywhere: items are numbered 1..n.
	sub := filepath.Join(dir, "nolabels")
	os.Mkdir(sub, 0o755)
	writeFile(t, sub, "means.npy", npyBytes("<f8", false, []int{n, d}, te.means))
	writeFile(t, sub, "vars.npy", npyBytes("<f8", false, []int{n, d}, diag))
	e, err := LoadNPY(filepath.Join(sub, "means.npy"), NPYOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Labels[0] != "1" || e.Labels[n-1] != fmt.Sprint(n) {
		t.Errorf("default labels %v, want 1..%d", e.Labels, n)
	}
}

func TestLoadNPYRepairsRoundOff(t *testing.T) {
	// A rank-1 covariance v v^T perturbed by 1e-9 relative asymmetry and a
	// -1e-9 eigenvalue is within CovarianceTol: it loads, symmetric and with
	// no eigenvalue below 0 (as LoadEmbedding's repair does).
	dir := t.TempDir()
	v := []float64{1, 2, 3}
	cov := make([]float64, 9)
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			cov[a*3+b] = v[a] * v[b]
		}
	}
	cov[1] += 1e-9
	cov[8] -= 1e-8 // pushes the smallest eigenvalue slightly below 0
	p := writeFile(t, dir, "r.npz", npzBytes(map[string][]byte{
		"means": npyBytes("<f8", false, []int{1, 3}, []float64{0, 0, 0}),
		"vars":  npyBytes("<f8", false, []int{1, 3, 3}, cov),
	}, false))
	e, err := LoadNPY(p, NPYOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := e.Scale(0)
	if s[1] != s[3] {
		t.Errorf("not symmetrised: %v vs %v", s[1], s[3])
	}
	// Before the repair the smallest eigenvalue is about -1e-8 (14 * 1e-8
	// relative); after it only eigensolver round-off (1e-16 * 14) is left.
	vals := engine.EigenvaluesPSD(s, 3)
	for _, l := range vals {
		if l < -1e-14 {
			t.Errorf("eigenvalue %v < 0 after repair", l)
		}
	}
}

func TestLoadNPYErrors(t *testing.T) {
	dir := t.TempDir()
	n, d := 3, 2
	means := []float64{1, 2, 3, 4, 5, 6}
	covs := []float64{2, 1, 1, 2, 1, 0, 0, 1, 3, -1, -1, 3}
	good := func(m map[string][]byte) map[string][]byte {
		base := map[string][]byte{
			"means": npyBytes("<f8", false, []int{n, d}, means),
			"vars":  npyBytes("<f8", false, []int{n, d, d}, covs),
		}
		for k, v := range m {
			if v == nil {
				delete(base, k)
			} else {
				base[k] = v
			}
		}
		return base
	}
	withCov := func(i int, v float64) []float64 {
		c := append([]float64(nil), covs...)
		c[i] = v
		return c
	}
	valid := npyBytes("<f8", false, []int{n, d}, means)
	full := npyBytes("<f8", false, []int{n, d, d}, covs)
	truncated := full[:len(full)-56] // 96 data bytes, 40 left
	for _, tc := range []struct {
		name   string
		arrays map[string][]byte // .npz members; nil entries remove
		raw    []byte            // whole file instead of arrays
		ext    string
		opt    NPYOptions
		want   []string // substrings of the error
	}{
		{name: "vars shape", arrays: good(map[string][]byte{"vars": npyBytes("<f8", false, []int{n, d, d + 1}, make([]float64, n*d*(d+1)))}),
			want: []string{`array "vars"`, "shape (3, 2, 3) does not match", "want (3, 2, 2)"}},
		{name: "vars rows", arrays: good(map[string][]byte{"vars": npyBytes("<f8", false, []int{n + 1, d, d}, make([]float64, (n+1)*d*d))}),
			want: []string{`array "vars"`, "does not match"}},
		{name: "means 1-D", arrays: good(map[string][]byte{"means": npyBytes("<f8", false, []int{6}, means)}),
			want: []string{`array "means"`, "shape (6,), want (n, d)"}},
		{name: "NaN mean", arrays: good(map[string][]byte{"means": npyBytes("<f8", false, []int{n, d}, []float64{1, 2, math.NaN(), 4, 5, 6})}),
			want: []string{`array "means"`, "row 1, column 0", "NaN is not a finite number"}},
		{name: "Inf cov", arrays: good(map[string][]byte{"vars": npyBytes("<f8", false, []int{n, d, d}, withCov(5, math.Inf(1)))}),
			want: []string{`array "vars"`, `item 1 ("2")`, "not a finite number"}},
		{name: "asymmetric", arrays: good(map[string][]byte{"vars": npyBytes("<f8", false, []int{n, d, d}, withCov(9, 0.5))}),
			want: []string{`array "vars"`, `item 2 ("3")`, "not symmetric", "[0][1] = 0.5 but [1][0] = -1"}},
		{name: "not PSD", arrays: good(map[string][]byte{"vars": npyBytes("<f8", false, []int{n, d, d}, []float64{1, 2, 2, 1, 1, 0, 0, 1, 1, 0, 0, 1})}),
			want: []string{`array "vars"`, `item 0 ("1")`, "not positive semi-definite: eigenvalue -1"}},
		{name: "negative variance", arrays: good(map[string][]byte{"vars": npyBytes("<f8", false, []int{n, d}, []float64{1, 1, 1, -2, 1, 1})}),
			want: []string{`array "vars"`, "item 1", "variance 1 is -2 < 0"}},
		{name: "truncated", arrays: good(map[string][]byte{"vars": truncated}),
			want: []string{`array "vars"`, "truncated", "needs 96 data bytes, the file has 40"}},
		{name: "extra bytes", arrays: good(map[string][]byte{"vars": append(npyBytes("<f8", false, []int{n, d, d}, covs), 0, 0, 0)}),
			want: []string{`array "vars"`, "3 bytes after the data"}},
		{name: "bad magic", arrays: good(map[string][]byte{"vars": []byte("PK\x03\x04 not numpy at all")}),
			want: []string{`array "vars"`, "not an .npy array"}},
		{name: "short header", arrays: good(map[string][]byte{"vars": []byte("\x93NUMPY\x01")}),
			want: []string{`array "vars"`, "truncated .npy header"}},
		{name: "huge header length", arrays: good(map[string][]byte{"vars": []byte("\x93NUMPY\x02\x00\xff\xff\xff\x7f{")}),
			want: []string{`array "vars"`, "corrupt .npy header"}},
		{name: "malformed dict", arrays: good(map[string][]byte{"vars": append([]byte("\x93NUMPY\x01\x00\x08\x00"), "{'x': 1}"...)}),
			want: []string{`array "vars"`, "bad .npy header"}},
		{name: "version", arrays: good(map[string][]byte{"vars": append([]byte("\x93NUMPY\x09\x00\x08\x00"), "{'x': 1}"...)}),
			want: []string{`array "vars"`, "unsupported .npy format version 9.0"}},
		{name: "int dtype", arrays: good(map[string][]byte{"means": npyBytes("<i8", false, []int{n, d}, []int64{1, 2, 3, 4, 5, 6})}),
			want: []string{`array "means"`, `dtype "<i8": want float32 or float64`}},
		{name: "pickled labels", arrays: good(map[string][]byte{"labels": npyBytes("|O", false, []int{n}, []int64{0, 0, 0})}),
			want: []string{`array "labels"`, "pickled object array"}},
		{name: "labels count", arrays: good(map[string][]byte{"labels": npyBytes("<U2", false, []int{2}, []string{"a", "b"})}),
			want: []string{`array "labels"`, "shape (2,), want (3,)"}},
		{name: "duplicate label", arrays: good(map[string][]byte{"labels": npyBytes("|S2", false, []int{3}, []string{"a", "b", "a"})}),
			want: []string{`array "labels"`, `label 2 ("a") is a duplicate of label 0`}},
		{name: "no vars", arrays: good(map[string][]byte{"vars": nil}),
			want: []string{"no covariances", `"vars"`, "arrays: means"}},
		{name: "no means", arrays: good(map[string][]byte{"means": nil}),
			want: []string{`no array "means"`, "arrays: vars"}},
		{name: "no context set", arrays: good(nil), opt: NPYOptions{Set: "c"},
			want: []string{`no array "c_means"`}},
		{name: "both", arrays: good(map[string][]byte{"factors": npyBytes("<f8", false, []int{n, d, 1}, means)}),
			want: []string{`both "vars" and "factors"`}},
		{name: "factor NaN", arrays: good(map[string][]byte{"vars": nil, "factors": npyBytes("<f8", false, []int{n, d, 1}, []float64{1, 2, 3, math.NaN(), 5, 6})}),
			want: []string{`array "factors"`, "item 1", "not a finite number"}},
		{name: "bad set", arrays: good(nil), opt: NPYOptions{Set: "ctx"},
			want: []string{`unknown set "ctx"`}},
		{name: "not zip", raw: []byte("hello"), ext: ".npz",
			want: []string{"not a valid .npz"}},
		{name: "not numpy", raw: valid, ext: ".bin",
			want: []string{"not a NumPy file"}},
		{name: "npy no m", raw: valid, ext: ".npy",
			want: []string{"holds one array"}},
		{name: "bad family", arrays: good(nil), opt: NPYOptions{Family: engine.CustomFamily(-1)},
			want: []string{"tau -1"}},
	} {
		ext := tc.ext
		if ext == "" {
			ext = ".npz"
		}
		data := tc.raw
		if data == nil {
			data = npzBytes(tc.arrays, false)
		}
		name := strings.ReplaceAll(tc.name, " ", "_") + ext
		path := writeFile(t, dir, name, data)
		_, err := LoadNPY(path, tc.opt)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, name) {
			t.Errorf("%s: error %q does not name the file", tc.name, msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q, want it to contain %q", tc.name, msg, w)
			}
		}
	}
}

func TestLoadNPYLabelFileErrors(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "e.npz", npzBytes(map[string][]byte{
		"means": npyBytes("<f8", false, []int{3, 1}, []float64{1, 2, 3}),
		"vars":  npyBytes("<f8", false, []int{3, 1, 1}, []float64{1, 2, 3}),
	}, false))
	for _, tc := range []struct {
		text string
		want string
	}{
		{"a\nb\n", "words.txt: 2 labels, want 3"},
		{"a\nb\nc\nd\n", "words.txt: 4 labels, want 3"},
		{"a\nb\na\n", "words.txt:3: duplicate label \"a\" (also on line 1)"},
		{"a\n \nc\n", "words.txt:2: empty label"},
		{"a\nb\xff\nc\n", "words.txt:2: invalid UTF-8"},
	} {
		lab := writeFile(t, dir, "words.txt", []byte(tc.text))
		_, err := LoadNPY(p, NPYOptions{Labels: lab})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("labels %q: error %v, want %q", tc.text, err, tc.want)
		}
	}
	if _, err := LoadNPY(p, NPYOptions{Labels: filepath.Join(dir, "missing.txt")}); err == nil || !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("missing label file: %v", err)
	}
}

func TestLoadNPYProgressAndCancel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	n, d := 3000, 5
	te := newTestEmbedding(rnd, n, d, d)
	p := writeFile(t, t.TempDir(), "big.npz", npzBytes(map[string][]byte{
		"means": npyBytes("<f8", false, []int{n, d}, te.means),
		"vars":  npyBytes("<f8", false, []int{n, d, d}, te.covs),
	}, true))
	var calls, last, total int
	_, err := LoadNPYContext(context.Background(), p, NPYOptions{}, func(done, tot int) {
		if done < last {
			t.Errorf("progress went back: %d after %d", done, last)
		}
		calls++
		last, total = done, tot
	})
	if err != nil {
		t.Fatal(err)
	}
	// Values read (means + covariances) plus one check per matrix.
	if want := n*d + n*d*d + n; total != want || last != total || calls < 3 {
		t.Errorf("progress: %d calls, last %d of %d; want ending at %d", calls, last, total, want)
	}
	// Cancelled from the progress callback part-way through.
	ctx, cancel := context.WithCancel(context.Background())
	_, err = LoadNPYContext(ctx, p, NPYOptions{}, func(done, tot int) {
		if done > tot/4 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled load: %v, want context.Canceled", err)
	}
}

// memSource is an npySource over in-memory .npy streams (for fuzzing).
type memSource map[string][]byte

func (m memSource) names() []string {
	var out []string
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (m memSource) open(name string) (io.ReadCloser, int64, string, error) {
	b := m[name]
	return io.NopCloser(bytes.NewReader(b)), int64(len(b)), "fuzz.npz", nil
}

// FuzzLoadNPY feeds arbitrary bytes to the .npy reader (as one array and as
// the covariances of a valid means array) and to the .npz loader: any input
// must give a result or an error, never a panic or a hang.
func FuzzLoadNPY(f *testing.F) {
	f.Add(npyBytes("<f8", false, []int{2, 2}, []float64{1, 2, 3, 4}))
	f.Add(npyBytes("<f4", true, []int{2, 2, 2}, []float32{1, 0, 0, 1, 2, 0, 0, 2}))
	f.Add(npyBytes(">f8", false, []int{2, 2}, []float64{1, 2, 3, 4}))
	f.Add(npyBytes("<U3", false, []int{2}, []string{"ab", "é"}))
	f.Add(npyBytes("<f8", false, []int{2}, []float64{1, 2})[:70])
	f.Add(npzBytes(map[string][]byte{
		"means": npyBytes("<f8", false, []int{2, 2}, []float64{1, 2, 3, 4}),
		"vars":  npyBytes("<f8", false, []int{2, 2, 2}, []float64{1, 0, 0, 1, 2, 0, 0, 2}),
	}, true))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) { fuzzNPY(t, data, dir) })
}

// fuzzNPY is FuzzLoadNPY's body: data as one array, as the covariances
// of a valid 2 x 2 means array, and (if it looks like a zip) as an .npz
// file in dir.
func fuzzNPY(t *testing.T, data []byte, dir string) {
	means := npyBytes("<f8", false, []int{2, 2}, []float64{1, 2, 3, 4})
	src := memSource{"x": data}
	if a, err := openArray(src, "x"); err == nil {
		if a.kind == reflect.TypeOf("") {
			if s, err := a.readStrings(); err == nil && len(s) != a.len() {
				t.Fatalf("%d strings for shape %v", len(s), a.shape)
			}
		} else {
			dst := make([]float64, a.len())
			_ = a.readFloats(context.Background(), dst, func(int) {})
		}
	}
	l := &npyLoad{ctx: context.Background(), src: memSource{"means": means, "vars": data}}
	if e, err := l.load("fuzz.npz", "", NPYOptions{}); err == nil {
		if len(e.Scales) != e.Len()*e.Dim*e.Dim {
			t.Fatalf("scales %d for n=%d d=%d", len(e.Scales), e.Len(), e.Dim)
		}
	}
	if bytes.HasPrefix(data, []byte("PK")) {
		p := filepath.Join(dir, "f.npz")
		if os.WriteFile(p, data, 0o644) == nil {
			LoadNPY(p, NPYOptions{})
		}
	}
}

// writeBenchEmbedding writes a random n x d embedding (means + full
// covariances, float64) as an .npz (stored, like numpy.savez) and as a
// means.npy/vars.npy pair in dir.
func writeBenchEmbedding(b *testing.B, dir string, n, d int) (npz, npyPath string) {
	rnd := rand.New(rand.NewPCG(9, 9))
	means := make([]float64, n*d)
	covs := make([]float64, n*d*d)
	l := make([]float64, d*d)
	for i := range means {
		means[i] = rnd.NormFloat64()
	}
	for i := 0; i < n; i++ {
		for j := range l {
			l[j] = rnd.NormFloat64()
		}
		c := covs[i*d*d : (i+1)*d*d]
		for a := 0; a < d; a++ {
			for bb := 0; bb <= a; bb++ {
				var s float64
				for k := 0; k < d; k++ {
					s += l[a*d+k] * l[bb*d+k]
				}
				c[a*d+bb], c[bb*d+a] = s, s
			}
		}
	}
	m := npyBytes("<f8", false, []int{n, d}, means)
	v := npyBytes("<f8", false, []int{n, d, d}, covs)
	npz = writeFile(b, dir, "emb.npz", npzBytes(map[string][]byte{"means": m, "vars": v}, false))
	writeFile(b, dir, "vars.npy", v)
	return npz, writeFile(b, dir, "means.npy", m)
}

// BenchmarkLoadNPY measures loading a 100,000 x 12 embedding
// (means + full covariances) in under 2 s per op.
func BenchmarkLoadNPY(b *testing.B) {
	npz, npyPath := writeBenchEmbedding(b, b.TempDir(), 100000, 12)
	for _, p := range []string{npz, npyPath} {
		b.Run(filepath.Ext(p)[1:], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				e, err := LoadNPY(p, NPYOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if e.Len() != 100000 {
					b.Fatal(e.Len())
				}
			}
		})
	}
}

// authorsLayout is the content of testdata/npy/authors.npz: the layout
// the paper's authors save (float32 arrays means, vars, c_means, c_vars
// with full covariances) plus a labels array (NumPy <U dtype).
var authorsLayout = struct {
	labels                 []string
	means, vars            []float64
	contextMeans, contextV []float64
}{
	labels: []string{"bach", "mozart", "jazz"},
	means:  []float64{1, 0, 0, 0.9, 0.1, 0, -1, 0.5, 0.2},
	vars: []float64{
		2, 0.5, 0, 0.5, 1, 0, 0, 0, 0.25,
		1.5, 0.2, 0.1, 0.2, 1, 0, 0.1, 0, 0.5,
		0.5, 0, 0, 0, 3, 1, 0, 1, 1,
	},
	contextMeans: []float64{0, 1, 0, 0, 0, 1, 1, 1, 1},
	contextV: []float64{
		1, 0, 0, 0, 2, 0, 0, 0, 3,
		4, 2, 0, 2, 4, 0, 0, 0, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, // rank 1
	},
}

// TestWriteNPYTestdata regenerates testdata/npy when
// BURESCOPE_UPDATE_TESTDATA=1 (with npyBytes, the specification-based
// writer above).
func TestWriteNPYTestdata(t *testing.T) {
	if os.Getenv("BURESCOPE_UPDATE_TESTDATA") != "1" {
		t.Skip("set BURESCOPE_UPDATE_TESTDATA=1 to regenerate testdata/npy")
	}
	a := authorsLayout
	data := npzBytes(map[string][]byte{
		"means":   npyBytes("<f4", false, []int{3, 3}, f32(a.means)),
		"vars":    npyBytes("<f4", false, []int{3, 3, 3}, f32(a.vars)),
		"c_means": npyBytes("<f4", false, []int{3, 3}, f32(a.contextMeans)),
		"c_vars":  npyBytes("<f4", false, []int{3, 3, 3}, f32(a.contextV)),
	}, false)
	os.MkdirAll(filepath.Join("testdata", "npy"), 0o755)
	writeFile(t, filepath.Join("testdata", "npy"), "authors.npz", data)
	writeFile(t, filepath.Join("testdata", "npy"), "authors_labels.txt", []byte(strings.Join(a.labels, "\n")+"\n"))
}

func TestLoadNPYTestdata(t *testing.T) {
	a := authorsLayout
	p := filepath.Join("testdata", "npy", "authors.npz")
	lab := filepath.Join("testdata", "npy", "authors_labels.txt")
	for _, tc := range []struct {
		set         string
		means, vars []float64
	}{{"", a.means, a.vars}, {"c", a.contextMeans, a.contextV}} {
		e, err := LoadNPY(p, NPYOptions{Labels: lab, Set: tc.set})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(e.Labels, ",") != strings.Join(a.labels, ",") {
			t.Errorf("labels %v", e.Labels)
		}
		// float32 storage: relative rounding up to 6e-8.
		checkClose(t, "means "+tc.set, e.Means, tc.means, 1e-7)
		checkClose(t, "scales "+tc.set, e.Scales, tc.vars, 1e-7)
	}
}

func TestLoadNPYDataset(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{{"a.npy", true}, {"dir/B.NPZ", true}, {"a.json", false}, {"npz", false}, {"a.npy.txt", false}} {
		if got := IsNumPyPath(tc.name); got != tc.want {
			t.Errorf("IsNumPyPath(%q) = %v", tc.name, got)
		}
	}
	p := filepath.Join("testdata", "npy", "authors.npz")
	ds, err := LoadNPYDataset(context.Background(), p, NPYOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// No labels file and no labels array: items numbered 1..n.
	if ds.Kind != KindEmbedding || ds.Len() != 3 || ds.Embedding.Dim != 3 || ds.Name != p || ds.Labels[2] != "3" {
		t.Errorf("dataset %+v", ds)
	}
}

func TestCholeskyOKAgainstGonum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(41, 42))
	for trial := 0; trial < 200; trial++ {
		d := 1 + rnd.IntN(12)
		// Q diag(l) Q^T with l clearly positive (PD) or one clearly
		// negative eigenvalue (indefinite).
		l := make([]float64, d)
		for i := range l {
			l[i] = 0.1 + rnd.Float64()
		}
		if trial%2 == 1 {
			l[rnd.IntN(d)] = -0.1 - rnd.Float64()
		}
		g := mat.NewDense(d, d, nil)
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				g.Set(i, j, rnd.NormFloat64())
			}
		}
		var qr mat.QR
		qr.Factorize(g)
		var q mat.Dense
		qr.QTo(&q)
		m := make([]float64, d*d)
		sym := mat.NewSymDense(d, nil)
		for i := 0; i < d; i++ {
			for j := i; j < d; j++ {
				var s float64
				for k := 0; k < d; k++ {
					s += q.At(i, k) * l[k] * q.At(j, k)
				}
				m[i*d+j], m[j*d+i] = s, s
				sym.SetSym(i, j, s)
			}
		}
		var ch mat.Cholesky
		want := ch.Factorize(sym)
		if got := choleskyOK(m, d); got != want {
			t.Fatalf("trial %d d=%d eigenvalues %v: choleskyOK %v, gonum %v", trial, d, l, got, want)
		}
		if want {
			// The factor matches gonum's: L = U^T.
			var u mat.TriDense
			ch.UTo(&u)
			for i := 0; i < d; i++ {
				for j := 0; j <= i; j++ {
					if !(math.Abs(m[i*d+j]-u.At(j, i)) <= 1e-12) {
						t.Fatalf("L[%d][%d] = %v, gonum %v", i, j, m[i*d+j], u.At(j, i))
					}
				}
			}
		}
	}
}
