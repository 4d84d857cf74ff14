package cli

import (
	"encoding/json"
	"fmt"

	"burescope/datasets"
	"burescope/engine/words"
)

func init() {
	Register(Command{
		Name:    "eval-entailment",
		Summary: "average precision and best-threshold F1 of a word embedding on entailment pairs (last stdout line: JSON)",
		Run:     runEvalEntailment,
	})
}

// evalEntailmentResult is the last stdout line of `burescope
// eval-entailment`. Threshold is the score cut giving F1; it is chosen on
// the evaluated pairs themselves (at test time, as in the paper).
type evalEntailmentResult struct {
	AP        float64 `json:"ap"`
	F1        float64 `json:"f1"`
	Threshold float64 `json:"threshold"`
	Pairs     int     `json:"pairs"`
	Positives int     `json:"positives"`
	Skipped   int     `json:"skipped"`
}

// runEvalEntailment implements `burescope eval-entailment EMB --pairs FILE
// [--by mixture|cosine|dot|w2] [--set input|context]`: pairs are ranked
// by the model's similarity; AP and the best F1 over all thresholds
// (chosen at test time) against the labels.
func runEvalEntailment(env Env) error {
	fs := NewFlagSet(env, "eval-entailment", "EMB --pairs FILE [--by mixture|cosine|dot|w2] [--set input|context]")
	file := fs.String("pairs", "", "entailment file: word1 word2 label (1/0, true/false) per line")
	by := fs.String("by", "mixture", "similarity: mixture (the paper's), cosine, dot or w2")
	set := fs.String("set", "input", "measures compared: input (as eval-similarity, neighbors and the app) or context (the paper's)")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *file == "" {
		fmt.Fprintln(env.Stderr, "burescope eval-entailment: want one EMB and --pairs FILE")
		fs.Usage()
		return ErrUsage
	}
	if err := checkFlags(env, "eval-entailment", wordSetFlags(fs, pos[0], *by, *set)...); err != nil {
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
	pairs, err := datasets.ReadEntailmentPairs(*file)
	if err != nil {
		return err
	}
	model, bench, skipped, err := scorePairs(*file, e, pairs, score)
	if err != nil {
		return err
	}
	labels := make([]bool, len(bench))
	npos := 0
	for i, b := range bench {
		labels[i] = b == 1
		if labels[i] {
			npos++
		}
	}
	ap, err := words.AveragePrecision(model, labels)
	if err != nil {
		return fmt.Errorf("%s: %w", *file, err)
	}
	f1, thr, err := words.BestF1(model, labels)
	if err != nil {
		return fmt.Errorf("%s: %w", *file, err)
	}
	fmt.Fprintf(env.Stderr, "%s: AP %.4f, best F1 %.4f at threshold %.4g (chosen on these pairs, at test time); %d pairs (%d positive), %d skipped (out of vocabulary)\n",
		*file, ap, f1, thr, len(model), npos, skipped)
	line, err := json.Marshal(evalEntailmentResult{AP: ap, F1: f1, Threshold: thr, Pairs: len(model), Positives: npos, Skipped: skipped})
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(line))
	return nil
}
