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

// The similarity files' headers (WordSim-353, SimLex-999) are skipped; a
// first data line without a score is an error, not a header.
func TestSimilarityHeaderDetection(t *testing.T) {
	write := func(content string) string {
		p := filepath.Join(t.TempDir(), "s.txt")
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	for _, h := range []string{"Word 1,Word 2,Human (mean)\n", "word1\tword2\tPOS\tSimLex999\tconc(w1)\n", "w1 w2 score\n"} {
		row := "dog,cat,7.5\n"
		if strings.Contains(h, "\t") {
			row = "dog\tcat\tN\t7.5\t4.1\n"
		} else if !strings.Contains(h, ",") {
			row = "dog cat 7.5\n"
		}
		got, err := ReadSimilarityPairs(write(h + row))
		if err != nil || len(got) != 1 || got[0].Score != 7.5 {
			t.Errorf("header %q: %v, %v", h, got, err)
		}
	}
	_, err := ReadSimilarityPairs(write("dog cat x\ncat mouse 3\n"))
	if err == nil || !strings.Contains(err.Error(), ":1:") {
		t.Errorf("bad first line: %v", err)
	}
}

// The proxy pair files of docs/experiments/data, as words_proxies.py
// writes them (header word1 word2 wup_proxy or entails), read with their
// 1000 pairs.
func TestProxyPairFilesRead(t *testing.T) {
	for _, c := range []struct {
		file string
		read func(string) ([]WordPair, error)
	}{
		{"brown-wup-proxy.tsv", ReadSimilarityPairs}, {"austen-wup-proxy.tsv", ReadSimilarityPairs},
		{"brown-entail-proxy.tsv", ReadEntailmentPairs}, {"austen-entail-proxy.tsv", ReadEntailmentPairs},
	} {
		got, err := c.read(filepath.Join("..", "docs", "experiments", "data", c.file))
		if err != nil || len(got) != 1000 {
			t.Errorf("%s: %d pairs, %v; want 1000", c.file, len(got), err)
		}
	}
}
