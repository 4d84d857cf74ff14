package cli

import (
	"encoding/json"
	"fmt"

	"burescope/datasets"
	"burescope/engine/words"
)

func init() {
	Register(Command{
		Name:    "eval-similarity",
		Summary: "Spearman correlation x 100 of a word embedding on word-similarity pairs (last stdout line: JSON)",
		Run:     runEvalSimilarity,
	})
}

// evalSimilarityResult is one stdout line of `burescope eval-similarity`.
type evalSimilarityResult struct {
	File     string  `json:"file,omitempty"`
	Spearman float64 `json:"spearman"`
	Pairs    int     `json:"pairs"`
	Skipped  int     `json:"skipped"`
}

// runEvalSimilarity implements `burescope eval-similarity EMB --pairs FILE
// [--pairs FILE2 ...] [--by mixture|cosine|dot|w2] [--set input|context]`:
// per file, Spearman's rho x 100 between the benchmark scores and the
// model's, over the pairs whose two words are in the vocabulary, with the
// numbers used and skipped; the last line sums up all files (pairs pooled).
func runEvalSimilarity(env Env) error {
	fs := NewFlagSet(env, "eval-similarity", "EMB --pairs FILE [--pairs FILE...] [--by mixture|cosine|dot|w2] [--set input|context]")
	var files stringList
	fs.Var(&files, "pairs", "similarity file: word1 word2 score per line (tab, comma or space); repeatable")
	by := fs.String("by", "mixture", "similarity: mixture (the paper's), cosine, dot or w2")
	set := fs.String("set", "input", "measures compared: input (the authors' code, gensim's vectors; better on every corpus measured here) or context (the paper's tables)")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || len(files) == 0 {
		fmt.Fprintln(env.Stderr, "burescope eval-similarity: want one EMB and at least one --pairs FILE")
		fs.Usage()
		return ErrUsage
	}
	if err := checkFlags(env, "eval-similarity", wordSetFlags(fs, pos[0], *by, *set)...); err != nil {
		return err
	}
	e, err := loadWordSet(pos[0], *set)
	if err != nil {
		return err
	}
	score, err := pairScorer(e, *by)
	if err != nil {
		return err
	}
	var allModel, allBench []float64
	total := evalSimilarityResult{}
	for _, f := range files {
		pairs, err := datasets.ReadSimilarityPairs(f)
		if err != nil {
			return err
		}
		model, bench, skipped, err := scorePairs(f, e, pairs, score)
		if err != nil {
			return err
		}
		rho, err := words.Spearman(model, bench)
		if err != nil {
			return fmt.Errorf("%s: %d pairs in the vocabulary (%d skipped): %w", f, len(model), skipped, err)
		}
		r := evalSimilarityResult{File: f, Spearman: 100 * rho, Pairs: len(model), Skipped: skipped}
		fmt.Fprintf(env.Stderr, "%s: Spearman x 100 = %.2f on %d pairs (%d skipped, out of vocabulary)\n", f, r.Spearman, r.Pairs, r.Skipped)
		if len(files) > 1 {
			line, _ := json.Marshal(r)
			fmt.Fprintln(env.Stdout, string(line))
		}
		allModel = append(allModel, model...)
		allBench = append(allBench, bench...)
		total.Skipped += skipped
	}
	total.Pairs = len(allModel)
	if len(files) == 1 {
		total.File = files[0]
	}
	rho, err := words.Spearman(allModel, allBench)
	if err != nil {
		return err
	}
	total.Spearman = 100 * rho
	line, err := json.Marshal(total)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(line))
	return nil
}
