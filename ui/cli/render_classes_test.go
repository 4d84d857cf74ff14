package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderKeepsFittedClasses: `fit --out` keeps the dataset's classes
// in the embedding file, and `render` of that file alone (no --data)
// draws in the class colours with a class legend, as the app does;
// --color-by none still draws one colour.
func TestRenderKeepsFittedClasses(t *testing.T) {
	dir := t.TempDir()
	emb := filepath.Join(dir, "iris.json")
	var so, se bytes.Buffer
	if code := Main([]string{"fit", "builtin:iris", "--iters", "50", "--baseline=false", "--out", emb}, &so, &se); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, se.String())
	}
	for _, tc := range []struct {
		args  []string
		class bool
	}{{nil, true}, {[]string{"--color-by", "class"}, true}, {[]string{"--color-by", "none"}, false}} {
		out := filepath.Join(dir, "fig.svg")
		args := append([]string{"render", emb, "--out", out}, tc.args...)
		if code := Main(args, &so, &se); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, se.String())
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(string(b), ">setosa<") && strings.Contains(string(b), ">virginica<")
		if got != tc.class {
			t.Errorf("%v: class legend %v, want %v", tc.args, got, tc.class)
		}
	}
}
