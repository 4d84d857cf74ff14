package datasets

import (
	"compress/gzip"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"burescope/engine"
	"burescope/engine/words"
)

func writeWordsFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTokenize checks lower-casing, punctuation removal and splitting.
func TestTokenize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"The jury, said ``no''.", []string{"the", "jury", "said", "no"}},
		{"Atlanta's term-end   presentments\t$5", []string{"atlantas", "termend", "presentments", "5"}},
		{"Élan Œuvre — naïve!", []string{"élan", "œuvre", "naïve"}},
		{"  ... ", nil},
	} {
		t.Run(c.in, func(t *testing.T) {
			if got, _ := tokenize(nil, c.in); !reflect.DeepEqual(got, c.want) {
				t.Errorf("tokenize(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestReadCorpus checks the vocabulary (min count, frequency order, ties
// by bytes), the token stream without rare words, .gz input and a fixed
// vocabulary.
func TestReadCorpus(t *testing.T) {
	a := writeWordsFile(t, "a.txt", "b a c a\nb a d\n")
	gzPath := filepath.Join(t.TempDir(), "b.txt.gz")
	f, _ := os.Create(gzPath)
	zw := gzip.NewWriter(f)
	zw.Write([]byte("c b e\n"))
	zw.Close()
	f.Close()
	c, err := ReadCorpus(context.Background(), []string{a, gzPath}, 2, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Counts: a 3, b 3, c 2, d 1, e 1.
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(c.Words, want) {
		t.Errorf("words %q, want %q", c.Words, want)
	}
	if want := []int64{3, 3, 2}; !reflect.DeepEqual(c.Counts, want) {
		t.Errorf("counts %v, want %v", c.Counts, want)
	}
	if want := []int32{1, 0, 2, 0, 1, 0, 2, 1}; !reflect.DeepEqual(c.Tokens, want) {
		t.Errorf("tokens %v, want %v", c.Tokens, want)
	}
	if c.RawTokens != 10 {
		t.Errorf("raw tokens %d, want 10", c.RawTokens)
	}
	fixed, err := ReadCorpus(context.Background(), []string{a}, 1, []string{"d", "a"}, []int64{7, 9}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{1, 1, 1, 0}; !reflect.DeepEqual(fixed.Tokens, want) {
		t.Errorf("fixed-vocabulary tokens %v, want %v", fixed.Tokens, want)
	}
}

// TestReadCorpusErrors checks that bad input is reported with file and
// line, and that cancellation returns the context's error.
func TestReadCorpusErrors(t *testing.T) {
	bad := writeWordsFile(t, "bad.txt", "fine line\nbad \xff byte\n")
	_, err := ReadCorpus(context.Background(), []string{bad}, 1, nil, nil, nil)
	var de *Error
	if !errors.As(err, &de) || de.Line != 2 || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("error %v, want a UTF-8 error on line 2", err)
	}
	notGz := writeWordsFile(t, "x.gz", "plain")
	if _, err := ReadCorpus(context.Background(), []string{notGz}, 1, nil, nil, nil); err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("error %v, want a gzip error", err)
	}
	rare := writeWordsFile(t, "rare.txt", "a b c\n")
	if _, err := ReadCorpus(context.Background(), []string{rare}, 5, nil, nil, nil); err == nil {
		t.Error("no error for an empty vocabulary")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadCorpus(ctx, []string{rare}, 1, nil, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// TestReadSimilarityPairs checks the benchmark layouts.
func TestReadSimilarityPairs(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []WordPair
	}{
		{"wordsim csv", "Word 1,Word 2,Human (mean)\nlove,sex,6.77\nTiger,cat,7.35\n",
			[]WordPair{{"love", "sex", 6.77, 2}, {"tiger", "cat", 7.35, 3}}},
		{"simlex tsv", "word1\tword2\tPOS\tSimLex999\tconc(w1)\nold\tnew\tA\t1.58\t2.72\n",
			[]WordPair{{"old", "new", 1.58, 2}}},
		{"men space", "sun sunlight 50.000000\nautomobile car 50.000000\n",
			[]WordPair{{"sun", "sunlight", 50, 1}, {"automobile", "car", 50, 2}}},
		{"rw tsv", "squishing\tsquirt\t5.88\t7\t7\t6\n", []WordPair{{"squishing", "squirt", 5.88, 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadSimilarityPairs(writeWordsFile(t, "p.txt", c.text))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
	for _, c := range []struct{ name, text, msg string }{
		{"short line", "a b 1\nc d\n", "2 fields"},
		{"no score", "a b 1\nc d x\n", "no numeric score"},
		{"empty", "\n", "no word pairs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadSimilarityPairs(writeWordsFile(t, "p.txt", c.text))
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %v, want one containing %q", err, c.msg)
			}
		})
	}
}

// TestReadEntailmentPairs checks labels, a header and a bad label.
func TestReadEntailmentPairs(t *testing.T) {
	got, err := ReadEntailmentPairs(writeWordsFile(t, "e.txt", "w1\tw2\tlabel\ndog-n\tanimal-n\tTrue\nanimal\tdog\t0\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []WordPair{{"dog-n", "animal-n", 1, 2}, {"animal", "dog", 0, 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	_, err = ReadEntailmentPairs(writeWordsFile(t, "e.txt", "a b 1\nc d maybe\n"))
	var de *Error
	if !errors.As(err, &de) || de.Line != 2 {
		t.Errorf("error %v, want one on line 2", err)
	}
	if s, ok := StripPOS("dog-n"); s != "dog" || !ok {
		t.Errorf("StripPOS(dog-n) = %q, %v", s, ok)
	}
}

// TestWordModelNPZ saves a model and reads it back twice: with LoadNPY
// (the reader of Explore and neighbors: means, covariances L L^T + 0.01 I
// and labels of both sets) and with LoadWordModel (bit-identical training
// state).
func TestWordModelNPZ(t *testing.T) {
	for _, diagonal := range []bool{false, true} {
		t.Run(map[bool]string{false: "full", true: "diagonal"}[diagonal], func(t *testing.T) {
			m, err := words.NewModel([]string{"the", "cat", "naïve"}, []int64{5, 3, 2}, 3, 2, diagonal, 1)
			if err != nil {
				t.Fatal(err)
			}
			m.Epochs = 4
			m.AccFactors[1] = 0.25
			path := filepath.Join(t.TempDir(), "w.npz")
			if err := SaveWordModel(path, m); err != nil {
				t.Fatal(err)
			}
			for _, s := range []struct {
				prefix string
				set    words.Set
			}{{"", words.Input}, {"c", words.Context}} {
				e, err := LoadNPY(path, NPYOptions{Set: s.prefix})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(e.Labels, m.Words) {
					t.Errorf("labels %q, want %q", e.Labels, m.Words)
				}
				for i := range m.Words {
					means := m.Means
					if s.set == words.Context {
						means = m.CMeans
					}
					if d := maxDiff(e.Mean(i), means[i*m.Dim:(i+1)*m.Dim]); d != 0 {
						t.Errorf("set %q word %d: means differ by %g", s.prefix, i, d)
					}
					// Independent covariance: L L^T + 0.01 I from the factor.
					want := m.Covariance(s.set, i)
					if d := maxDiff(e.Scale(i), want); !(d <= 1e-12) {
						t.Errorf("set %q word %d: covariance differs by %g", s.prefix, i, d)
					}
				}
			}
			back, err := LoadWordModel(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, m) {
				t.Errorf("LoadWordModel differs from the saved model")
			}
		})
	}
}

// TestWordModelCovarianceIsFactorProduct checks Model.Covariance against
// engine.FactorProduct computed here from the stored factor.
func TestWordModelCovarianceIsFactorProduct(t *testing.T) {
	m, _ := words.NewModel([]string{"a", "b"}, []int64{2, 1}, 4, 3, false, 2)
	got := m.Covariance(words.Context, 1)
	want := engine.FactorProduct(m.CFactors[12:24], 4, 3, 0.01)
	if d := maxDiff(got, want); !(d <= 1e-15) {
		t.Errorf("covariance differs by %g", d)
	}
}

// TestLoadWordModelErrors checks files that are not resumable models.
func TestLoadWordModelErrors(t *testing.T) {
	if _, err := LoadWordModel(writeWordsFile(t, "x.npz", "not a zip")); err == nil {
		t.Error("no error for a non-zip file")
	}
	m, _ := words.NewModel([]string{"a"}, []int64{1}, 2, 2, false, 1)
	e := m.Embedding(words.Input)
	p := filepath.Join(t.TempDir(), "e.json")
	if err := SaveEmbedding(p, e); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadWordModel(p); err == nil {
		t.Error("no error for a JSON embedding")
	}
}

func maxDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}
