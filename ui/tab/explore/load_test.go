package explore

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLabelsBeside(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"words_labels.txt", "labels.txt", "other.npz"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, meta string
		want       string
	}{
		{filepath.Join(dir, "words.npz"), "", filepath.Join(dir, "words_labels.txt")},
		{filepath.Join(dir, "other.npz"), "", filepath.Join(dir, "labels.txt")},
		{filepath.Join(dir, "words.npz"), "/m/meta.txt", "/m/meta.txt"},
		{filepath.Join(t.TempDir(), "x.npz"), "", ""},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.name)+"+"+tc.meta, func(t *testing.T) {
			if got := labelsBeside(tc.name, tc.meta); got != tc.want {
				t.Errorf("%q, %q: %q, want %q", tc.name, tc.meta, got, tc.want)
			}
		})
	}
}
