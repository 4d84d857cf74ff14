package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A first line is a header only when its fields are column names: a bad
// first data line (a wrong label) is an error naming it, not a header
// that silently drops a pair.
func TestEntailmentHeaderDetection(t *testing.T) {
	write := func(content string) string {
		p := filepath.Join(t.TempDir(), "e.tsv")
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	for _, h := range []string{"word1\tword2\tlabel\n", "hyponym,hypernym,class\n", "w1 w2 entails\n", "Word 1\tWord 2\tIs A\n"} {
		got, err := ReadEntailmentPairs(write(h + "dog\tanimal\t1\n"))
		if err != nil || len(got) != 1 {
			t.Errorf("header %q: %v, %d pairs", h, err, len(got))
		}
	}
	for _, bad := range []string{"dog\tanimal\tmaybe\ncat\tanimal\t1\n", "dog animal 2\ncat animal 1\n", "word1\tword2\tmaybe\ncat\tanimal\t1\n"} {
		_, err := ReadEntailmentPairs(write(bad))
		if err == nil || !strings.Contains(err.Error(), ":1:") || !strings.Contains(err.Error(), "label") {
			t.Errorf("bad first line %q: %v", bad, err)
		}
	}
}
