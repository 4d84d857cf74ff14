package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/datasets"
)

// relWordNet returns the installed WordNet directory; absent, the test
// is skipped outside CI and fails in CI (CI=true), which installs
// wordnet-base.
func relWordNet(t *testing.T) string {
	t.Helper()
	const dir = "/usr/share/wordnet"
	if _, err := os.Stat(filepath.Join(dir, "data.noun")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("WordNet is not installed in %s (CI installs Debian's wordnet-base): %v", dir, err)
		}
		t.Skipf("WordNet is not installed in %s: apt-get install wordnet-base to run this test", dir)
	}
	return dir
}

// relLast decodes the last stdout line of `burescope relations`.
func relLast(t *testing.T, stdout string) relationsResult {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var r relationsResult
	dec := json.NewDecoder(strings.NewReader(lines[len(lines)-1]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("last stdout line %q: %v", lines[len(lines)-1], err)
	}
	return r
}

// TestRelationsWordNetMammals writes the mammal closure from WordNet and
// compares the file, read back as a relations file, with builtin:mammals.
func TestRelationsWordNetMammals(t *testing.T) {
	wn := relWordNet(t)
	out := filepath.Join(t.TempDir(), "mammals.tsv")
	code, stdout, stderr := trRun("relations", "wordnet:"+wn, "--root", "mammal.n.01", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if r := relLast(t, stdout); r.Nodes != 1182 || r.Pairs != 6542 {
		t.Fatalf("%+v, want 1182 nodes and 6542 pairs", r)
	}
	got, err := datasets.Load(out, datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := datasets.Load("builtin:mammals", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pairs := func(ds *datasets.Dataset) map[[2]string]bool {
		m := map[[2]string]bool{}
		for _, p := range ds.Relations {
			m[[2]string{ds.Labels[p[0]], ds.Labels[p[1]]}] = true
		}
		return m
	}
	g, w := pairs(got), pairs(want)
	if got.Kind != datasets.KindRelations || len(g) != len(w) || len(got.Relations) != len(g) {
		t.Fatalf("read back %s with %d pairs (%d distinct), builtin has %d", got.Kind, len(got.Relations), len(g), len(w))
	}
	for p := range w {
		if !g[p] {
			t.Fatalf("pair %v of builtin:mammals missing", p)
		}
	}
}

// TestRelationsWordNetNouns checks the counts of the full noun closure
// (the default root) and the file's line count.
func TestRelationsWordNetNouns(t *testing.T) {
	wn := relWordNet(t)
	out := filepath.Join(t.TempDir(), "nouns.tsv")
	code, stdout, stderr := trRun("relations", "wordnet:"+wn, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if r := relLast(t, stdout); r.Nodes != 82115 || r.Pairs != 743241 {
		t.Fatalf("%+v, want 82115 nodes and 743241 pairs", r)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 743242 || lines[0] != "child\tancestor" {
		t.Fatalf("%d lines, first %q", len(lines), lines[0])
	}
}

func TestRelationsErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no out", []string{"relations", "builtin:mammals"}, 2, "--out"},
		{"no input", []string{"relations", "--out", filepath.Join(dir, "x.tsv")}, 2, "INPUT"},
		{"missing WordNet", []string{"relations", "wordnet:" + filepath.Join(dir, "none"), "--out", filepath.Join(dir, "x.tsv")}, 1, "cannot open the WordNet directory"},
		{"WordNet without index", []string{"relations", "wordnet:" + dir, "--out", filepath.Join(dir, "x.tsv")}, 1, "data.noun"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := trRun(tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d (want %d), stderr %q does not mention %q", code, tc.code, stderr, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "x.tsv")); err == nil {
				t.Fatal("an output file was written")
			}
		})
	}
	t.Run("builtin input", func(t *testing.T) {
		out := filepath.Join(dir, "m.tsv")
		code, stdout, stderr := trRun("relations", "builtin:mammals", "--out", out)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if r := relLast(t, stdout); r.Nodes != 1182 || r.Pairs != 6542 {
			t.Fatalf("%+v", r)
		}
	})
}
