package datasets

import (
	"context"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// This file reads word-pair benchmark files: similarity files (word1
// word2 score, the layouts of WordSim-353, SimLex-999, MEN and RW) and
// entailment files (word1 word2 label).

// WordPair is one line of a word-pair benchmark file.
type WordPair struct {
	W1, W2 string
	Score  float64 // human score, or 1/0 for an entailment label
	Line   int     // line in the file, for messages
}

// maxPairLines bounds a pair file (benchmarks have a few thousand lines).
const maxPairLines = 10_000_000

// splitPairLine splits a line on tabs if it has any, else on commas if it
// has any, else on runs of white space.
func splitPairLine(s string) []string {
	var f []string
	switch {
	case strings.Contains(s, "\t"):
		f = strings.Split(s, "\t")
	case strings.Contains(s, ","):
		f = strings.Split(s, ",")
	default:
		return strings.Fields(s)
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f
}

// ReadSimilarityPairs reads a similarity benchmark: per line two words
// and a score, separated by tabs, commas or spaces. The score is the first
// numeric field after the two words (SimLex-999's fourth column after the
// part of speech, RW's mean before the ten individual ratings). A first
// line whose fields after the words are not numeric and whose first three
// fields are column names (word1 word2 score, Word 1,Word 2,Human (mean),
// word1 word2 POS ...) is a header and skipped; if it names a column
// "SimLex999", that column is the score. Any other line without a score
// is an error naming it.
// Words are lower-cased. Errors name the file and line.
func ReadSimilarityPairs(path string) ([]WordPair, error) {
	scoreCol := -1
	header := false
	var out []WordPair
	err := readLines(context.Background(), path, func(line int, s string) error {
		if strings.TrimSpace(s) == "" || strings.HasPrefix(strings.TrimSpace(s), "#") {
			return nil
		}
		if line > maxPairLines {
			return lineErrf(path, line, "more than %d lines", maxPairLines)
		}
		f := splitPairLine(s)
		if len(f) < 3 {
			return lineErrf(path, line, "%d fields, want word1 word2 score", len(f))
		}
		col := scoreCol
		if col < 0 {
			for c := 2; c < len(f); c++ {
				if _, err := strconv.ParseFloat(f[c], 64); err == nil {
					col = c
					break
				}
			}
		}
		if len(out) == 0 && col < 0 && !header && pairHeader(f, similarityColumnWords) {
			// A header line.
			header = true
			for c, name := range f {
				if strings.EqualFold(name, "SimLex999") {
					scoreCol = c
				}
			}
			return nil
		}
		if col < 0 || col >= len(f) {
			return lineErrf(path, line, "no numeric score after the words %q and %q", f[0], f[1])
		}
		v, err := strconv.ParseFloat(f[col], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return lineErrf(path, line, "score %q is not a finite number", f[col])
		}
		out = append(out, WordPair{W1: strings.ToLower(f[0]), W2: strings.ToLower(f[1]), Score: v, Line: line})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errf(path, "no word pairs")
	}
	return out, nil
}

// entailmentColumnWords are the words of the column names of an
// entailment file's header (word1 word2 label, hyponym hypernym class, ...).
var entailmentColumnWords = map[string]bool{
	"word": true, "words": true, "w": true, "word1": true, "word2": true, "w1": true, "w2": true,
	"hyponym": true, "hypernym": true, "premise": true, "hypothesis": true, "left": true, "right": true,
	"first": true, "second": true, "x": true, "y": true, "term": true, "term1": true, "term2": true,
	"label": true, "labels": true, "entailment": true, "entails": true, "entail": true, "class": true,
	"gold": true, "is": true, "isa": true, "a": true, "relation": true, "rel": true, "answer": true,
	"truth": true, "target": true, "value": true, "1": true, "2": true,
}

// similarityColumnWords are the words of the first three column names of
// a similarity file's header (WordSim-353's "Word 1,Word 2,Human (mean)",
// SimLex-999's "word1 word2 POS SimLex999 ...", the WordNet proxies'
// "word1 word2 wup_proxy").
var similarityColumnWords = map[string]bool{
	"word": true, "words": true, "w": true, "word1": true, "word2": true, "w1": true, "w2": true,
	"term": true, "term1": true, "term2": true, "first": true, "second": true, "x": true, "y": true,
	"1": true, "2": true, "pos": true, "score": true, "scores": true, "similarity": true, "sim": true,
	"relatedness": true, "rating": true, "ratings": true, "gold": true, "human": true, "mean": true,
	"simlex999": true, "value": true, "label": true, "avg": true, "average": true,
	"wup": true, "proxy": true, // docs/experiments/data/*-wup-proxy.tsv: word1 word2 wup_proxy
}

// entailmentHeader reports whether the first three fields of a first line
// are column names (made of entailmentColumnWords only), so that a first
// line with a bad label is an error, not a silently skipped "header".
func entailmentHeader(f []string) bool { return pairHeader(f, entailmentColumnWords) }

// pairHeader reports whether the first three fields of f are made of the
// given column words only (split at anything but letters and digits).
func pairHeader(f []string, columnWords map[string]bool) bool {
	for _, c := range f[:3] {
		words := strings.FieldsFunc(strings.ToLower(c), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		})
		if len(words) == 0 {
			return false
		}
		for _, w := range words {
			if !columnWords[w] {
				return false
			}
		}
	}
	return true
}

// ReadEntailmentPairs reads an entailment benchmark: per line two words
// and a label, 1/0, true/false, yes/no or t/f (any case), separated by
// tabs, commas or spaces. A first line whose three fields are column
// names (entailmentHeader: word1 word2 label, hyponym hypernym class, ...)
// is a header; any other line without a label is an error naming it.
// Score is 1 for entailment, 0 otherwise.
func ReadEntailmentPairs(path string) ([]WordPair, error) {
	var out []WordPair
	first := true
	err := readLines(context.Background(), path, func(line int, s string) error {
		if strings.TrimSpace(s) == "" || strings.HasPrefix(strings.TrimSpace(s), "#") {
			return nil
		}
		if line > maxPairLines {
			return lineErrf(path, line, "more than %d lines", maxPairLines)
		}
		f := splitPairLine(s)
		wasFirst := first
		first = false
		if len(f) < 3 {
			return lineErrf(path, line, "%d fields, want word1 word2 label", len(f))
		}
		v, ok := parseLabel(f[2])
		if !ok {
			if wasFirst && entailmentHeader(f) {
				return nil // header
			}
			return lineErrf(path, line, "label %s, want 1/0, true/false, yes/no (a header line names its columns, such as word1 word2 label)", quoteCell(f[2]))
		}
		out = append(out, WordPair{W1: strings.ToLower(f[0]), W2: strings.ToLower(f[1]), Score: v, Line: line})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errf(path, "no word pairs")
	}
	return out, nil
}

func parseLabel(s string) (float64, bool) {
	switch strings.ToLower(s) {
	case "1", "true", "t", "yes", "y", "1.0":
		return 1, true
	case "0", "false", "f", "no", "n", "0.0", "-1":
		return 0, true
	}
	return 0, false
}

// StripPOS returns w without a trailing part-of-speech tag of the form
// "-n", "-v", "-j", "-a" or "-r" (MEN's lemma layout, BLESS-style
// entailment files), and whether it had one.
func StripPOS(w string) (string, bool) {
	if n := len(w); n > 2 && w[n-2] == '-' && strings.ContainsRune("nvjar", rune(w[n-1])) {
		return w[:n-2], true
	}
	return w, false
}
