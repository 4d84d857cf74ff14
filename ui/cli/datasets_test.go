package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// attributionCounts are the item counts stated in assets/ATTRIBUTION.md
// (data rows of each file; mammals: "1,182 distinct nodes"), an
// independent source for what the command must print.
var attributionCounts = map[string]struct {
	n    int
	kind string
}{
	"pisa2015": {35, "features"},
	"iris":     {150, "features"},
	"wine":     {178, "features"},
	"mammals":  {1182, "relations"},
}

func TestDatasetsJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"datasets", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit code %d, stderr %q", code, errOut.String())
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var l datasetLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		want, ok := attributionCounts[l.Name]
		if !ok {
			t.Errorf("unexpected dataset %q", l.Name)
			continue
		}
		seen[l.Name] = true
		if l.N != want.n || l.Kind != want.kind {
			t.Errorf("%s: n=%d kind=%s, want n=%d kind=%s", l.Name, l.N, l.Kind, want.n, want.kind)
		}
		if l.Ref != "builtin:"+l.Name {
			t.Errorf("%s: ref %q", l.Name, l.Ref)
		}
		if l.Source == "" || l.Description == "" {
			t.Errorf("%s: empty source or description", l.Name)
		}
		if l.Default != (l.Name == "pisa2015") {
			t.Errorf("%s: default = %v", l.Name, l.Default)
		}
	}
	if len(seen) != len(attributionCounts) {
		t.Errorf("listed %v, want all of %v", seen, attributionCounts)
	}
}

func TestDatasetsTable(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"datasets"}, &out, &errOut); code != 0 {
		t.Fatalf("exit code %d, stderr %q", code, errOut.String())
	}
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[0], "NAME") || !strings.Contains(lines[0], "SOURCE") {
		t.Fatalf("header line %q", lines[0])
	}
	for name, want := range attributionCounts {
		found := false
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			if len(f) > 0 && f[0] == name {
				found = true
				i := 1
				if f[1] == "(default)" {
					i = 2
				}
				if f[i] != strconv.Itoa(want.n) || f[i+1] != want.kind {
					t.Errorf("row %q: want n %d kind %s", l, want.n, want.kind)
				}
			}
		}
		if !found {
			t.Errorf("no row for %s in\n%s", name, out.String())
		}
	}
}

func TestDatasetsUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"datasets", "extra"}, &out, &errOut); code != 2 {
		t.Errorf("exit code %d for a stray argument, want 2", code)
	}
	if code := Main([]string{"datasets", "--nope"}, &out, &errOut); code != 2 {
		t.Errorf("exit code %d for an unknown flag, want 2", code)
	}
}
