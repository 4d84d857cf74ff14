package datasets

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
)

func writeTemp(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProjector(t *testing.T) {
	dir := t.TempDir()
	vec := writeTemp(t, dir, "vectors.tsv", "1\t2\t3\n4\t6\t3\n0.5\t0.5\t0.5\n1\t1\t1\n")
	tests := []struct {
		name, meta string
		opt        Options
		labels     []string
		classes    []string
		classCol   string
	}{
		{"one column, commas in labels", "Korea, Rep.\nb\n\"c\"\nd\n", Options{}, []string{"Korea, Rep.", "b", "c", "d"}, nil, ""},
		{"header and class", "word\tpos\tcount\nw1\tnoun\t3\nw2\tverb\t1\nw3\tnoun\t2\nw4\tverb\t2\n", Options{}, []string{"w1", "w2", "w3", "w4"}, []string{"noun", "verb", "noun", "verb"}, "pos"},
		{"explicit columns", "word\tpos\tcount\nw1\tnoun\t3\nw2\tverb\t1\nw3\tnoun\t2\nw4\tverb\t5\n", Options{LabelColumn: "count", ClassColumn: "pos"}, []string{"3", "1", "2", "5"}, []string{"noun", "verb", "noun", "verb"}, "pos"},
	}
	rows := [][]float64{{1, 2, 3}, {4, 6, 3}, {0.5, 0.5, 0.5}, {1, 1, 1}}
	for _, test := range tests {
		opt := test.opt
		opt.Metadata = writeTemp(t, dir, "metadata.tsv", test.meta)
		ds, err := Load(vec, opt)
		if err != nil {
			t.Errorf("%s: %v", test.name, err)
			continue
		}
		if ds.Kind != KindFeatures || !reflect.DeepEqual(ds.Labels, test.labels) || !reflect.DeepEqual(ds.Classes, test.classes) || ds.ClassColumn != test.classCol {
			t.Errorf("%s: kind %s labels %q classes %q (%q)", test.name, ds.Kind, ds.Labels, ds.Classes, ds.ClassColumn)
		}
		// D(0,1) = |(1,2,3) - (4,6,3)| = 5 (a 3-4-5 triangle).
		if ds.Dist[0] != 5 {
			t.Errorf("%s: D(0,1) = %v, want 5", test.name, ds.Dist[0])
		}
		k := 0
		for i := range rows {
			for j := i + 1; j < len(rows); j++ {
				if want := floats.Distance(rows[i], rows[j], 2); !(math.Abs(ds.Dist[k]-want) <= 1e-15*want) {
					t.Errorf("%s: D(%d,%d) = %v, want %v", test.name, i, j, ds.Dist[k], want)
				}
				k++
			}
		}
	}

	bad := []struct {
		name, vectors, meta string
		want                string
	}{
		{"count mismatch", "1\t2\n3\t4\n", "a\nb\nc\n", "metadata.tsv: 3 labels but"},
		{"text in vectors", "1\t2\n3\tx\n", "a\nb\n", `vectors.tsv:2: column 2: "x" is not a number`},
		{"ragged vectors", "1\t2\n3\n", "a\nb\n", "vectors.tsv:2: 1 values, want 2"},
		{"duplicate labels", "1\t2\n3\t4\n", "a\na\n", `metadata.tsv:2: column 1: duplicate label "a" (also on line 1)`},
		{"ragged metadata", "1\t2\n3\t4\n", "w\tc\na\tx\nb\n", "metadata.tsv:3: 1 fields, want 2"},
		{"one vector", "1\t2\n", "a\n", "vectors.tsv: needs at least 2 vectors"},
	}
	for _, test := range bad {
		v := writeTemp(t, dir, "vectors.tsv", test.vectors)
		m := writeTemp(t, dir, "metadata.tsv", test.meta)
		_, err := Load(v, Options{Metadata: m})
		if err == nil || !strings.Contains(err.Error(), test.want) {
			t.Errorf("%s: error %v, want %q", test.name, err, test.want)
		}
	}
	if _, err := Load(vec, Options{Metadata: filepath.Join(dir, "missing.tsv")}); err == nil || !strings.Contains(err.Error(), "missing.tsv") {
		t.Errorf("missing metadata file: %v", err)
	}
}
