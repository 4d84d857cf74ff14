package cli

import (
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"burescope/datasets"
	"burescope/engine"
)

// This file holds what eval-similarity and eval-entailment share: loading
// one set of a trained word embedding and scoring word pairs.

// loadWordSet reads set ("input" or "context") of EMB: for .npz/.npy the
// authors' arrays (means/vars or c_means/c_vars) through datasets.LoadNPY,
// for a Burescope JSON embedding the one set it holds.
func loadWordSet(path, set string) (*engine.Embedding, error) {
	var prefix string
	switch set {
	case "input":
	case "context":
		prefix = "c"
	default:
		return nil, fmt.Errorf("--set %q: want input or context", set)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".npy", ".npz":
		return datasets.LoadNPY(path, datasets.NPYOptions{Set: prefix})
	}
	return datasets.LoadEmbedding(path)
}

// wordSetFlags are the flag checks of eval-similarity and eval-entailment,
// made before EMB is opened: --by and --set values, and --set only for a
// NumPy word model (a JSON embedding holds one set, which is used).
func wordSetFlags(fs *flag.FlagSet, path, by, set string) []error {
	return []error{
		oneOf("by", by, "mixture", "cosine", "dot", "w2"),
		oneOf("set", set, "input", "context"),
		appliesOnly(fs, "set", isNumPy(path), "to a .npz/.npy word model (a JSON embedding holds one set of measures)"),
	}
}

// isNumPy reports whether path names a NumPy file (.npy or .npz).
func isNumPy(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".npy", ".npz":
		return true
	}
	return false
}

// wordIndex maps the labels of e to their indices; a word missing as
// given is also looked up without a part-of-speech suffix ("-n").
type wordIndex map[string]int

func newWordIndex(e *engine.Embedding) wordIndex {
	ix := make(wordIndex, e.Len())
	for i, l := range e.Labels {
		ix[strings.ToLower(l)] = i
	}
	return ix
}

func (ix wordIndex) find(w string) (int, bool) {
	if i, ok := ix[w]; ok {
		return i, true
	}
	if s, had := datasets.StripPOS(w); had {
		i, ok := ix[s]
		return i, ok
	}
	return 0, false
}

// pairScorer returns the similarity function named by by: mixture (the
// paper's mixture of cosines S_B, rho = 1), cosine (Wasserstein-Bures
// cosine, rho = 1), dot (pseudo dot product) or w2 (minus the W2
// distance, so that larger is more similar).
func pairScorer(e *engine.Embedding, by string) (func(i, j int) float64, error) {
	d := e.Dim
	switch by {
	case "mixture":
		return func(i, j int) float64 {
			return engine.MixtureCosine(e.Mean(i), e.Scale(i), e.Mean(j), e.Scale(j), d, 1)
		}, nil
	case "cosine":
		return func(i, j int) float64 { return engine.BuresCosine(e.Mean(i), e.Scale(i), e.Mean(j), e.Scale(j), d, 1) }, nil
	case "dot":
		return func(i, j int) float64 { return engine.DotProduct(e.Mean(i), e.Scale(i), e.Mean(j), e.Scale(j), d) }, nil
	case "w2":
		return func(i, j int) float64 { return -engine.W2(e.Family, e.Mean(i), e.Scale(i), e.Mean(j), e.Scale(j), d) }, nil
	}
	return nil, fmt.Errorf("--by %q: want mixture, cosine, dot or w2", by)
}

// scorePairs scores the pairs whose two words are in e and returns their
// model scores, the benchmark values and the number skipped.
func scorePairs(path string, e *engine.Embedding, pairs []datasets.WordPair, score func(i, j int) float64) (model, bench []float64, skipped int, err error) {
	ix := newWordIndex(e)
	for _, p := range pairs {
		i, ok1 := ix.find(p.W1)
		j, ok2 := ix.find(p.W2)
		if !ok1 || !ok2 {
			skipped++
			continue
		}
		s := score(i, j)
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, nil, 0, fmt.Errorf("%s:%d: score of (%s, %s) is %v", path, p.Line, p.W1, p.W2, s)
		}
		model = append(model, s)
		bench = append(bench, p.Score)
	}
	return model, bench, skipped, nil
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	*s = append(*s, v)
	return nil
}
