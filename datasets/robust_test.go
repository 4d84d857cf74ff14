package datasets

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// countingReader counts how many bytes were taken from an endless source.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// endless repeats a pattern forever.
type endless struct {
	pat []byte
	off int
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.pat[e.off%len(e.pat)]
		e.off++
	}
	return len(p), nil
}

// TestReadsStopEarly: a stream of zeros (as /dev/zero) and one endless
// line are refused after a few MB, with the line named, not after
// MaxFileSize bytes; /dev/zero itself is refused the same way through
// Load.
func TestReadsStopEarly(t *testing.T) {
	const fewMB = 8 << 20
	cases := []struct {
		name string
		src  io.Reader
		want string
	}{
		{"zeros", &endless{pat: []byte{0}}, "x.csv:1: binary data (a NUL byte at byte 0)"},
		{"one endless line", &endless{pat: []byte("1,")}, "x.csv:1: line longer than 4 MiB"},
		{"zeros after text", io.MultiReader(strings.NewReader("a,b\n1,2\n"), &endless{pat: []byte{0}}), "x.csv:3: binary data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cr := &countingReader{r: c.src}
			_, err := LoadReader(cr, "x.csv", Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
			if cr.n > fewMB {
				t.Errorf("read %d bytes before refusing, want at most %d", cr.n, fewMB)
			}
		})
	}
	t.Run("/dev/zero", func(t *testing.T) {
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero")
		}
		_, err := Load("/dev/zero", Options{})
		if err == nil || !strings.Contains(err.Error(), "/dev/zero:1: binary data") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("long JSON line allowed", func(t *testing.T) {
		// An embedding file may be one long line: the limit is for tables.
		var b bytes.Buffer
		b.WriteString(`{"format":"burescope-embedding/1","dim":1,"family":"gaussian","labels":[`)
		n := 20000
		pad := strings.Repeat("x", 250)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"item` + itoa(i) + pad + `"`)
		}
		b.WriteString(`],"means":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("[" + itoa(i) + "]")
		}
		b.WriteString(`],"covariances":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("[[1]]")
		}
		b.WriteString("]}")
		if b.Len() <= MaxLineBytes {
			t.Fatalf("test line only %d bytes", b.Len())
		}
		ds, err := LoadReader(&b, "e.json", Options{})
		if err != nil || ds.Len() != n {
			t.Errorf("%v", err)
		}
	})
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestDetectionSaysWhy: auto-detection records what it chose and why in
// one line; a square block of numbers with a non-zero diagonal says
// "diagonal" and where, so that "2 items" or a silent feature fit is
// explained.
func TestDetectionSaysWhy(t *testing.T) {
	cases := []struct {
		name, file, text string
		kind             Kind
		want             []string
	}{
		{"distances", "d.csv", ",a,b,c\na,0,1,2\nb,1,0,3\nc,2,3,0\n", KindDistances, []string{"d.csv: read as a distance matrix (3 x 3"}},
		{"labelled nonzero diagonal", "d.csv", ",a,b,c\na,1,1,2\nb,1,0,3\nc,2,3,0\n", KindFeatures, []string{"read as a feature table", "diagonal is not 0", "line 2, column 2: 1"}},
		{"bare nonzero diagonal", "d.csv", "0,1,2\n1,0,3\n2,3,5\n", KindFeatures, []string{"diagonal is not 0"}},
		{"features", "f.csv", "name,x,y\na,1,2\nb,3,4\nc,5,7\nd,1,1\n", KindFeatures, []string{"f.csv: read as a feature table (5 rows"}},
		{"relations", "r.tsv", "a\tb\nb\tc\n", KindRelations, []string{"r.tsv: read as a relation list"}},
		{"embedding", "e.json", `{"format":"burescope-embedding/1","dim":1,"family":"gaussian","labels":["a","b"],"means":[[0],[1]],"covariances":[[[1]],[[1]]]}`, KindEmbedding, []string{"e.json: read as an embedding"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds, err := LoadBytes([]byte(c.text), c.file, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if ds.Kind != c.kind {
				t.Errorf("kind %s, want %s", ds.Kind, c.kind)
			}
			if strings.Contains(ds.Detected, "\n") {
				t.Errorf("notice %q is more than one line", ds.Detected)
			}
			for _, w := range c.want {
				if !strings.Contains(ds.Detected, w) {
					t.Errorf("notice %q lacks %q", ds.Detected, w)
				}
			}
			forced, err := LoadBytes([]byte(c.text), c.file, Options{Kind: c.kind})
			if err == nil && forced.Detected != "" {
				t.Errorf("a given kind gets the notice %q", forced.Detected)
			}
		})
	}
}

// TestAsymmetryRule is the one rule for asymmetric matrices that the CLI
// and the app share: refused by default; with Symmetrize averaged, and the
// largest asymmetry (found here by brute force over the file's numbers)
// reported in a notice naming the pair.
func TestAsymmetryRule(t *testing.T) {
	m := [][]float64{
		{0, 1, 2, 3},
		{1.2, 0, 4, 5},
		{2, 4, 0, 6.5},
		{3, 5, 6, 0},
	}
	labels := []string{"w", "x", "y", "z"}
	var b strings.Builder
	b.WriteString("," + strings.Join(labels, ",") + "\n")
	for i, r := range m {
		b.WriteString(labels[i])
		for _, v := range r {
			b.WriteString("," + fmtG(v))
		}
		b.WriteString("\n")
	}
	text := []byte(b.String())
	if _, err := LoadBytes(text, "a.csv", Options{}); err == nil || !strings.Contains(err.Error(), "not symmetric") {
		t.Fatalf("default: error %v, want a refusal", err)
	}
	ds, err := LoadBytes(text, "a.csv", Options{Symmetrize: true})
	if err != nil {
		t.Fatal(err)
	}
	var best float64
	var bi, bj int
	for i := range m {
		for j := 0; j < i; j++ {
			if d := math.Abs(m[i][j] - m[j][i]); d > best {
				best, bi, bj = d, i, j
			}
		}
	}
	a := ds.Asymmetry
	if !(math.Abs(a.Abs-best) <= 1e-12) || a.I != bi || a.J != bj {
		t.Errorf("asymmetry %+v, want %v at (%d, %d)", a, best, bi, bj)
	}
	note := ds.SymmetrizeNotice()
	for _, w := range []string{"averaged", "D(" + labels[bi] + ", " + labels[bj] + ")", "0.5"} {
		if !strings.Contains(note, w) {
			t.Errorf("notice %q lacks %q", note, w)
		}
	}
	if len(ds.Notices()) != 2 {
		t.Errorf("notices %q, want the detection and the symmetrisation", ds.Notices())
	}
	sym, _ := LoadBytes([]byte("0,1\n1,0\n"), "s.csv", Options{Symmetrize: true})
	if sym.SymmetrizeNotice() != "" {
		t.Errorf("a symmetric matrix gets the notice %q", sym.SymmetrizeNotice())
	}
}

// TestStreamedLoadFromDisk: a distance matrix file above the streaming
// threshold, written here from a formula, loads through Load (the
// streaming path) to exactly the formula's values.
func TestStreamedLoadFromDisk(t *testing.T) {
	saved := streamMin
	streamMin = 1
	defer func() { streamMin = saved }()
	n := 60
	var b strings.Builder
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if j > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(fmtG(math.Abs(float64(i-j)) * 0.5))
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), "d.tsv")
	os.WriteFile(p, []byte(b.String()), 0o644)
	ds, err := Load(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Kind != KindDistances || ds.Len() != n || !strings.Contains(ds.Detected, "distance matrix") {
		t.Fatalf("kind %s n %d notice %q", ds.Kind, ds.Len(), ds.Detected)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if got, want := ds.Dist[pairIndex(n, i, j)], float64(j-i)*0.5; got != want {
				t.Fatalf("D(%d, %d) = %v, want %v", i, j, got, want)
			}
		}
	}
}

// fmtG formats like %g.
func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// pairIndex is the packed index of (i, j), i < j, written out from the
// layout (row i holds j = i+1..n-1 after all earlier rows).
func pairIndex(n, i, j int) int { return i*n - i*(i+1)/2 + j - i - 1 }
