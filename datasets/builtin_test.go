package datasets

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"strings"
	"testing"

	"burescope/assets"
)

// TestBuiltinFilesMatchAttribution checks every embedded file against the
// SHA-256 listed in assets/ATTRIBUTION.md, so the built-ins are exactly the
// documented data.
func TestBuiltinFilesMatchAttribution(t *testing.T) {
	attr, err := fs.ReadFile(assets.FS(), assets.Attribution)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(attr)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && len(f[0]) == 64 {
			want[f[1]] = f[0]
		}
	}
	for _, b := range builtins {
		data, err := b.read()
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != want[b.file] {
			t.Errorf("%s: sha256 %s, ATTRIBUTION.md says %q", b.file, got, want[b.file])
		}
	}
}

// TestBuiltinsLoad loads every built-in and checks n, kind and class
// column against the counts stated in assets/ATTRIBUTION.md.
func TestBuiltinsLoad(t *testing.T) {
	// Source: assets/ATTRIBUTION.md ("data rows" table; mammals: "1,182
	// distinct nodes"; iris and wine: the class column).
	tests := []struct {
		name      string
		n         int
		kind      Kind
		class     string
		nClasses  int
		nFeatures int
	}{
		{"pisa2015", 35, KindFeatures, "", 0, 9},
		{"iris", 150, KindFeatures, "class", 3, 4},
		{"wine", 178, KindFeatures, "class", 3, 13},
		{"mammals", 1182, KindRelations, "", 0, 0},
	}
	if got := Builtins(); len(got) != len(tests) || got[0].Name != DefaultBuiltin {
		t.Fatalf("Builtins() = %v, want %d entries starting with %s", got, len(tests), DefaultBuiltin)
	}
	for _, test := range tests {
		info, ok := builtinByName(test.name)
		if !ok {
			t.Fatalf("no built-in %s", test.name)
		}
		if info.info.N != test.n || info.info.Kind != test.kind || info.info.Source == "" {
			t.Errorf("%s: BuiltinInfo %+v", test.name, info.info)
		}
		ds, err := Load(BuiltinPrefix+test.name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if ds.Len() != test.n || ds.Kind != test.kind || len(ds.Dist) != test.n*(test.n-1)/2 {
			t.Errorf("%s: n=%d kind=%s len(Dist)=%d", test.name, ds.Len(), ds.Kind, len(ds.Dist))
		}
		if ds.ClassColumn != test.class || countDistinct(ds.Classes) != test.nClasses {
			t.Errorf("%s: class column %q with %d classes, want %q with %d", test.name, ds.ClassColumn, countDistinct(ds.Classes), test.class, test.nClasses)
		}
		if len(ds.FeatureNames) != test.nFeatures {
			t.Errorf("%s: %d features %v, want %d", test.name, len(ds.FeatureNames), ds.FeatureNames, test.nFeatures)
		}
		if ds.Source != info.info.Source || ds.Name != BuiltinPrefix+test.name {
			t.Errorf("%s: Name %q Source %q", test.name, ds.Name, ds.Source)
		}
		k, err := Detect(BuiltinPrefix + test.name)
		if err != nil || k != test.kind {
			t.Errorf("Detect(%s) = %v, %v", test.name, k, err)
		}
	}
	if _, err := Load("builtin:nope", Options{}); err == nil || !strings.Contains(err.Error(), "pisa2015") {
		t.Errorf("unknown built-in: error %v should list the built-ins", err)
	}
}

func countDistinct(s []string) int {
	m := map[string]bool{}
	for _, v := range s {
		m[v] = true
	}
	return len(m)
}
