package datasets

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text string
		want       Kind
	}{
		{"e.json", `{"format":"burescope-embedding/1"}`, KindEmbedding},
		{"e.txt", "\ufeff  \n{}", KindEmbedding},
		{"r.tsv", "child\tancestor\ndog\tanimal\n", KindRelations},
		{"d.csv", ",a,b\na,0,1\nb,1,0\n", KindDistances},
		{"d.tsv", "0\t1e-20\t1\n1e-20\t1e-12\t2\n1\t2\t0\n", KindDistances},
		{"asym.csv", "0,1\n2,0\n", KindDistances},
		{"f.csv", "name,x,y\na,1,2\nb,3,4\n", KindFeatures},
		{"square-features.csv", "1,2\n3,4\n", KindFeatures},
	}
	for _, test := range tests {
		p := writeTemp(t, dir, test.name, test.text)
		got, err := Detect(p)
		if err != nil || got != test.want {
			t.Errorf("Detect(%s) = %v, %v; want %v", test.name, got, err, test.want)
		}
	}
	if _, err := Detect(filepath.Join(dir, "nope.csv")); err == nil || !strings.Contains(err.Error(), "nope.csv") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Load(dir, Options{}); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("directory: %v", err)
	}
}

func TestParseKind(t *testing.T) {
	for in, want := range map[string]Kind{"": "", "auto": "", "Distances": KindDistances, "features": KindFeatures, "relations": KindRelations, "embedding": KindEmbedding} {
		if got, err := ParseKind(in); err != nil || got != want {
			t.Errorf("ParseKind(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseKind("points"); err == nil {
		t.Error("ParseKind accepted points")
	}
}

func TestLoadReader(t *testing.T) {
	ds, err := LoadReader(strings.NewReader("0,3\n3,0\n"), "stdin", Options{})
	if err != nil || ds.Kind != KindDistances || ds.Dist[0] != 3 || ds.Source != "stdin" || ds.Name != "stdin" {
		t.Errorf("LoadReader: %+v, %v", ds, err)
	}
}

// LoadReader is Load for data already open, through the same guarded
// reader as Load (at most MaxFileSize bytes, NUL bytes and endless lines
// refused early); name is used in messages and to recognise a .json file.
func LoadReader(r io.Reader, name string, opt Options) (*Dataset, error) {
	data, err := readAllGuarded(r, name, fileLimit)
	if err != nil {
		return nil, err
	}
	ds, err := LoadBytes(data, name, opt)
	if err != nil {
		return nil, err
	}
	ds.Source = name
	return ds, nil
}

// Detect says what kind of input a file (or builtin:NAME) holds, without
// fully validating it; Load reports any problem in detail.
func Detect(name string) (Kind, error) {
	if strings.HasPrefix(name, BuiltinPrefix) {
		b, ok := builtinByName(strings.TrimPrefix(name, BuiltinPrefix))
		if !ok {
			return "", fmt.Errorf("%s: unknown built-in dataset (have %s)", name, builtinNames())
		}
		return b.info.Kind, nil
	}
	if strings.HasPrefix(name, WordNetPrefix) {
		return KindRelations, nil
	}
	if IsNumPyPath(name) {
		return KindEmbedding, nil
	}
	data, err := readInput(name)
	if err != nil {
		return "", err
	}
	return detectBytes(name, data)
}
