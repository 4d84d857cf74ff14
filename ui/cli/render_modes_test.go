package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// render's readability flags reach the figure: its caption names the
// mode; bad values are usage errors.
func TestRenderModeFlags(t *testing.T) {
	emb := writeTemp(t, "emb.json", diagEmbedding)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"glyph on", []string{"--glyph", "on", "--glyph-factor", "0.25"}, 0, "glyphs: ellipses at 0.25x"},
		{"outline only", []string{"--outline-only"}, 0, "outline only"},
		{"defaults", nil, 0, "full-size ellipses"},
		{"bad glyph", []string{"--glyph", "maybe"}, 2, ""},
		{"bad factor", []string{"--glyph-factor", "2"}, 2, ""},
		{"bad order", []string{"--order", "random"}, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "f.svg")
			var so, se bytes.Buffer
			code := Main(append([]string{"render", emb, "--out", out}, tc.args...), &so, &se)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, se.String())
			}
			if code != 0 {
				return
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tc.want) {
				t.Errorf("figure lacks %q", tc.want)
			}
		})
	}
}
