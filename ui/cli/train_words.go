package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"burescope/datasets"
	"burescope/engine/words"
)

func init() {
	Register(Command{
		Name:    "train-words",
		Summary: "train elliptical skipgram word embeddings on text corpora (last stdout line: JSON)",
		Run:     runTrainWords,
	})
}

const trainWordsUsage = "CORPUS... --out WORDS.npz|.json [--dim 12] [--rank k] [--diagonal] [--window 5] " +
	"[--min-count 5] [--subsample 1e-5] [--negatives 1] [--margin 10] [--lr 0.01] [--epochs 5] [--batch 256] " +
	"[--reset-adagrad] [--threads N] [--seed 1] [--resume WORDS.npz] [--json-set context|input] [--progress]"

// trainWordsResult is the last stdout line of `burescope train-words`.
type trainWordsResult struct {
	Words        int     `json:"words"`
	Tokens       int64   `json:"tokens"`
	InVocab      int     `json:"tokens_in_vocabulary"`
	Dim          int     `json:"dim"`
	Rank         int     `json:"rank"`
	Diagonal     bool    `json:"diagonal"`
	Epochs       int     `json:"epochs"`
	Seconds      float64 `json:"seconds"`
	TokensPerSec float64 `json:"tokens_per_sec"`
	Loss         float64 `json:"loss"`
	Out          string  `json:"out"`
	Interrupted  bool    `json:"interrupted"`
}

// runTrainWords implements `burescope train-words CORPUS... --out FILE`:
// read and tokenise the corpora (datasets.ReadCorpus), train with
// words.Train and save: .npz in the authors' layout plus the training
// state (datasets.SaveWordModel), .json one set as a Burescope embedding.
// Ctrl-C stops after the current step and still saves (.npz only).
func runTrainWords(env Env) error {
	def := words.DefaultConfig()
	fs := NewFlagSet(env, "train-words", trainWordsUsage)
	dim := fs.Int("dim", 12, "embedding dimension d")
	rank := fs.Int("rank", 0, "columns k of the factors L (d x k; 0: k = d)")
	diagonal := fs.Bool("diagonal", false, "diagonal covariances diag(l^2) + 0.01 I (Vilnis & McCallum's comparison point)")
	window := fs.Int("window", def.Window, "context words on each side (fixed, as the authors)")
	minCount := fs.Int64("min-count", 5, "keep words seen at least this many times")
	subsample := fs.Float64("subsample", def.Subsample, "frequent-word subsampling threshold (0: off)")
	negatives := fs.Int("negatives", def.Negatives, "negative contexts per positive pair")
	margin := fs.Float64("margin", def.Margin, "hinge margin M")
	lr := fs.Float64("lr", def.LR, "Adagrad learning rate")
	epochs := fs.Int("epochs", def.Epochs, "epochs to run (after the resumed ones)")
	batch := fs.Int("batch", def.Batch, "center words per Adagrad step")
	reset := fs.Bool("reset-adagrad", false, "zero the Adagrad accumulators every epoch (the authors' code)")
	threads := fs.Int("threads", 0, "worker goroutines (0: all cores; results do not depend on it)")
	seed := fs.Uint64("seed", def.Seed, "random seed (initialisation, subsampling, negatives)")
	out := fs.String("out", "", "output: .npz (authors' layout + training state) or .json (one set)")
	resume := fs.String("resume", "", "continue training a model saved as .npz by train-words (its vocabulary and shape)")
	jsonSet := fs.String("json-set", "context", "set written to a .json output: context (the paper's evaluation) or input")
	showProgress := fs.Bool("progress", false, "progress lines on stderr even when it is not a terminal")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	usage := func(format string, a ...any) error {
		fmt.Fprintf(env.Stderr, "burescope train-words: "+format+"\n", a...)
		fs.Usage()
		return ErrUsage
	}
	ext := strings.ToLower(filepath.Ext(*out))
	set, setErr := words.ParseSet(*jsonSet)
	switch {
	case len(pos) == 0:
		return usage("want at least one CORPUS file")
	case *out == "":
		return usage("--out is required")
	case ext != ".npz" && ext != ".json":
		return usage("--out %s: want .npz or .json", *out)
	case setErr != nil:
		return usage("--json-set: %v", setErr)
	case *dim < 1 || *dim > words.MaxDim:
		return usage("--dim %d out of range 1..%d", *dim, words.MaxDim)
	case *rank < 0 || *rank > *dim:
		return usage("--rank %d out of range 0..%d", *rank, *dim)
	case *minCount < 1:
		return usage("--min-count %d: want at least 1", *minCount)
	case *threads < 0:
		return usage("--threads %d: want 0 or more", *threads)
	case math.IsNaN(*lr) || math.IsNaN(*margin) || math.IsNaN(*subsample):
		return usage("NaN is not a setting")
	}
	cfg := words.Config{Window: *window, Subsample: *subsample, Negatives: *negatives, Margin: *margin, LR: *lr,
		AdagradEps: def.AdagradEps, Epochs: *epochs, Threads: *threads, Batch: *batch, Seed: *seed, ResetAdagrad: *reset}
	if cfg.Threads == 0 {
		cfg.Threads = runtime.GOMAXPROCS(0)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var m *words.Model
	var vocab []string
	var counts []int64
	if *resume != "" {
		if m, err = datasets.LoadWordModel(*resume); err != nil {
			return err
		}
		vocab, counts = m.Words, m.Counts
	}
	t0 := time.Now()
	corpus, err := datasets.ReadCorpus(ctx, pos, *minCount, vocab, counts, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "read %d tokens, %d words seen at least %d times (%d tokens kept) in %.1fs\n",
		corpus.RawTokens, len(corpus.Words), *minCount, len(corpus.Tokens), time.Since(t0).Seconds())
	if m == nil {
		k := *rank
		if k == 0 {
			k = *dim
		}
		if m, err = words.NewModel(corpus.Words, corpus.Counts, *dim, k, *diagonal, *seed); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(env.Stderr, "resuming %s after epoch %d (d=%d, rank %d, diagonal %v)\n", *resume, m.Epochs, m.Dim, m.Rank, m.Diagonal)
	}
	live := *showProgress || isTerminal(env.Stderr)
	var last words.Progress
	lastShown := time.Time{}
	progress := func(p words.Progress) {
		last = p
		if live && time.Since(lastShown) > time.Second {
			lastShown = time.Now()
			fmt.Fprintf(env.Stderr, "epoch %d/%d  %5.1f%%  loss %.4f  %.0f tokens/s\n", p.Epoch, p.Epochs,
				100*float64(p.Done)/float64(max(p.Total, 1)), p.Loss, p.TokensPerSec)
		}
	}
	start := time.Now()
	runErr := words.Train(ctx, m, corpus.Tokens, cfg, progress)
	seconds := time.Since(start).Seconds()
	interrupted := errors.Is(runErr, context.Canceled)
	if runErr != nil && !interrupted {
		return runErr
	}
	if ext == ".npz" {
		err = datasets.SaveWordModel(*out, m)
	} else {
		err = datasets.SaveEmbedding(*out, m.Embedding(set))
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %d words (d=%d) to %s\n", len(m.Words), m.Dim, *out)
	res := trainWordsResult{Words: len(m.Words), Tokens: corpus.RawTokens, InVocab: len(corpus.Tokens), Dim: m.Dim, Rank: m.Rank,
		Diagonal: m.Diagonal, Epochs: m.Epochs, Seconds: seconds, TokensPerSec: last.TokensPerSec, Loss: last.Loss,
		Out: *out, Interrupted: interrupted}
	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(line))
	if interrupted {
		return fmt.Errorf("interrupted in epoch %d; saved the state reached to %s (resume with --resume)", m.Epochs+1, *out)
	}
	return nil
}
