package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
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

const trainWordsUsage = "CORPUS... --out WORDS.npz|.json [--preset default|paper] [--dim 12] [--rank k] [--diagonal] [--window 5] " +
	"[--shrink-window] [--min-count 5] [--subsample 1e-3] [--negatives 5] [--shared-negatives] [--loss hinge-each|hinge|logistic] [--margin 10] " +
	"[--optimizer sgd|adagrad] [--lr 0.005] [--lr-schedule linear|constant] [--epochs 5] [--total-epochs N] [--batch 256] " +
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
	Diverged     bool    `json:"diverged"`
}

// Bounds of train-words' flags checked before any input is opened (the
// size flags also go through the memory plan, words.StepBytes).
const (
	maxWordsEpochs  = 1_000_000
	maxWordsThreads = 4096
	maxWordsMargin  = 1e6
	maxWordsMin     = 1 << 40
)

// wordsPresets are the values of --preset.
var wordsPresets = map[string]func() words.Config{"default": words.DefaultConfig, "paper": words.PaperConfig}

// runTrainWords implements `burescope train-words CORPUS... --out FILE`:
// check the flags and the output, read and tokenise the corpora
// (datasets.ReadCorpus), check the memory plan, train with words.Train
// and save: .npz in the authors' layout plus the training state
// (datasets.SaveWordModel), .json one set as a Burescope embedding.
// Ctrl-C or SIGTERM stops within the current step and still saves
// (.npz only); a diverging run stops at the first non-finite value and
// saves the last finite state.
func runTrainWords(env Env) error {
	def := words.DefaultConfig()
	fs := NewFlagSet(env, "train-words", trainWordsUsage)
	preset := fs.String("preset", "default", "settings not given as flags: default (measured on corpora of 100 thousand and 1 million tokens, docs/words.md) or paper (the paper's, for 3 billion tokens)")
	dim := fs.Int("dim", 12, "embedding dimension d")
	rank := fs.Int("rank", 0, "columns k of the factors L (d x k; 0: k = d)")
	diagonal := fs.Bool("diagonal", false, "diagonal covariances diag(l^2) + 0.01 I (Vilnis & McCallum's comparison point)")
	window := fs.Int("window", def.Window, "context words on each side (the most, with --shrink-window)")
	shrink := fs.Bool("shrink-window", def.ShrinkWindow, "draw each center's window from 1..--window words on each side (word2vec, gensim); false: always --window (the authors)")
	minCount := fs.Int64("min-count", 5, "keep words seen at least this many times")
	subsample := fs.Float64("subsample", def.Subsample, "frequent-word subsampling threshold, a relative frequency (0: off)")
	negatives := fs.Int("negatives", def.Negatives, "negative contexts per positive pair")
	lossName := fs.String("loss", def.Loss.String(), "loss per positive pair: hinge (the paper's, on the mean of the negatives), hinge-each (a hinge per negative) or logistic (word2vec's, on the pseudo dot product)")
	margin := fs.Float64("margin", def.Margin, "hinge margin M (hinge losses)")
	optName := fs.String("optimizer", def.Optimizer.String(), "update rule: adagrad (the paper's) or sgd")
	lr := fs.Float64("lr", def.LR, "learning rate (at the start of the schedule)")
	factorLR := fs.Float64("factor-lr", def.FactorLR, "learning rate of the covariance factors as a fraction of --lr (the means'); 1: one rate for all (the paper)")
	schedule := fs.String("lr-schedule", scheduleName(def.Decay), "constant, or linear: decay the rate linearly to 1e-4 of --lr over the run's epochs (word2vec)")
	epochs := fs.Int("epochs", def.Epochs, "epochs to run (after the resumed ones)")
	totalEpochs := fs.Int("total-epochs", 0, "epochs the linear schedule spans, counting resumed ones (0: resumed epochs + --epochs); give the same value to every call of a run split by --resume")
	batch := fs.Int("batch", def.Batch, "center words per step")
	shared := fs.Bool("shared-negatives", def.SharedNegatives, "draw the negatives once per center word for its whole window (faster per epoch, learns less); default: per (center, context) pair, as the paper")
	reset := fs.Bool("reset-adagrad", false, "zero the Adagrad accumulators every epoch (the authors' code)")
	threads := fs.Int("threads", 0, "worker goroutines (0: all cores; results do not depend on it)")
	seed := fs.Uint64("seed", def.Seed, "random seed (initialisation, subsampling, negatives)")
	out := fs.String("out", "", "output: .npz (authors' layout + training state) or .json (one set)")
	resume := fs.String("resume", "", "continue training a model saved as .npz by train-words (its vocabulary and shape)")
	jsonSet := fs.String("json-set", "input", "set written to a .json output: input (what eval-similarity, neighbors and the app read by default) or context (the paper's evaluation)")
	showProgress := fs.Bool("progress", false, "progress lines on stderr even when it is not a terminal")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	usage := func(format string, a ...any) error {
		fmt.Fprintf(env.Stderr, "burescope train-words: "+format+"\n", a...)
		fs.Usage()
		return ErrUsage
	}
	ext := strings.ToLower(filepath.Ext(*out))
	set, setErr := words.ParseSet(*jsonSet)
	presetCfg, presetOK := wordsPresets[*preset]
	lossKind, lossErr := words.ParseLoss(*lossName)
	optKind, optErr := words.ParseOptimizer(*optName)
	switch {
	case len(pos) == 0:
		return usage("want at least one CORPUS file")
	case *out == "":
		return usage("--out is required")
	case ext != ".npz" && ext != ".json":
		return usage("--out %s: want .npz or .json", *out)
	case setErr != nil:
		return usage("--json-set: %v", setErr)
	case !presetOK:
		return usage("--preset %q: want default or paper", *preset)
	case lossErr != nil:
		return usage("--loss: %v", lossErr)
	case optErr != nil:
		return usage("--optimizer: %v", optErr)
	case *schedule != "constant" && *schedule != "linear":
		return usage("--lr-schedule %q: want constant or linear", *schedule)
	case *resume != "" && (given["dim"] || given["rank"] || given["diagonal"]):
		return usage("--dim, --rank and --diagonal cannot be used with --resume (the model's shape is the saved one)")
	case *dim < 1 || *dim > words.MaxDim:
		return usage("--dim %d out of range 1..%d", *dim, words.MaxDim)
	case *rank < 0 || *rank > *dim:
		return usage("--rank %d out of range 0..%d", *rank, *dim)
	case given["rank"] && *diagonal:
		return usage("--rank %d with --diagonal: a diagonal model has no factor rank (its covariances are diag(l^2) + 0.01 I)", *rank)
	}
	if *preset != "default" {
		// Settings not given as flags come from the preset.
		p := presetCfg()
		for name, apply := range map[string]func(){
			"window": func() { *window = p.Window }, "subsample": func() { *subsample = p.Subsample },
			"negatives": func() { *negatives = p.Negatives }, "margin": func() { *margin = p.Margin },
			"lr": func() { *lr = p.LR }, "factor-lr": func() { *factorLR = p.FactorLR }, "epochs": func() { *epochs = p.Epochs }, "batch": func() { *batch = p.Batch },
			"shared-negatives": func() { *shared = p.SharedNegatives }, "shrink-window": func() { *shrink = p.ShrinkWindow },
			"loss": func() { lossKind = p.Loss }, "optimizer": func() { optKind = p.Optimizer },
			"lr-schedule": func() { *schedule = scheduleName(p.Decay) },
		} {
			if !given[name] {
				apply()
			}
		}
	}
	k := *rank
	if k == 0 || *diagonal {
		k = *dim
	}
	cfg := words.Config{Window: *window, ShrinkWindow: *shrink, Subsample: *subsample, Negatives: *negatives, Margin: *margin, LR: *lr, FactorLR: *factorLR,
		AdagradEps: def.AdagradEps, Epochs: *epochs, Threads: *threads, Batch: *batch, Seed: *seed, ResetAdagrad: *reset, SharedNegatives: *shared,
		Loss: lossKind, Optimizer: optKind, Decay: *schedule == "linear", TotalEpochs: *totalEpochs}
	if err := checkFlags(env, "train-words",
		intRange("window", *window, 1, words.MaxWindow),
		intRange("negatives", *negatives, 1, words.MaxNegatives),
		intRange("batch", *batch, 1, words.MaxBatch),
		intRange("epochs", *epochs, 0, maxWordsEpochs),
		intRange("total-epochs", *totalEpochs, 0, maxWordsEpochs),
		intRange("threads", *threads, 0, maxWordsThreads),
		minCountRange(*minCount),
		subsampleRange(*subsample),
		floatRange("margin", *margin, 0, maxWordsMargin),
		positiveFinite("lr", *lr),
		positiveFinite("factor-lr", *factorLR),
		memoryFlag(fmt.Sprintf("--batch %d with --window %d, --negatives %d and --dim %d", *batch, *window, *negatives, *dim),
			words.StepBytes(cfg, *dim, k, *diagonal)),
	); err != nil {
		return err
	}
	if err := checkOutputs(*out); err != nil {
		fmt.Fprintf(env.Stderr, "burescope train-words: --out: %v\n", err)
		return ErrUsage
	}
	inputs := append([]string(nil), pos...)
	for _, in := range inputs {
		if sameFile(in, *out) {
			fmt.Fprintf(env.Stderr, "burescope train-words: --out %s is the input %s; it would be replaced\n", *out, in)
			return ErrUsage
		}
	}
	if cfg.Threads == 0 {
		cfg.Threads = runtime.GOMAXPROCS(0)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var m *words.Model
	var vocab []string
	var counts []int64
	if *resume != "" {
		if m, err = datasets.LoadWordModel(*resume); err != nil {
			return err
		}
		vocab, counts = m.Words, m.Counts
		if err := datasets.CheckMemory(fmt.Sprintf("--resume %s: a training step (--batch %d, --window %d, --negatives %d, d = %d)", *resume, *batch, *window, *negatives, m.Dim),
			words.StepBytes(cfg, m.Dim, m.Rank, m.Diagonal)); err != nil {
			return err
		}
	}
	t0 := time.Now()
	corpus, err := datasets.ReadCorpus(ctx, pos, *minCount, vocab, counts, nil)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted while reading the corpus; nothing trained or written")
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "read %d tokens, %d words seen at least %d times (%d tokens kept) in %.1fs\n",
		corpus.RawTokens, len(corpus.Words), *minCount, len(corpus.Tokens), time.Since(t0).Seconds())
	if corpus.Controls > 0 {
		fmt.Fprintf(env.Stderr, "note: %d control characters in the corpus were read as word separators\n", corpus.Controls)
	}
	if len(corpus.Tokens) < 2 {
		return fmt.Errorf("%d tokens of the corpus are in the vocabulary: nothing to train on", len(corpus.Tokens))
	}
	if kept := words.ExpectedKept(corpus.Counts, cfg.Subsample) / math.Max(float64(sumCounts(corpus.Counts)), 1) * float64(len(corpus.Tokens)); kept < 2 {
		return fmt.Errorf("--subsample %g keeps about %.1f of the %d tokens: nothing to train on; use a larger threshold (1e-3) or 0 for none",
			cfg.Subsample, kept, len(corpus.Tokens))
	}
	if m == nil {
		// The model, the corpus and one step's gradient records are live
		// together.
		need := words.ModelBytes(len(corpus.Words), *dim, k, *diagonal) + 16*float64(len(corpus.Tokens)) +
			words.StepBytes(cfg, *dim, k, *diagonal)
		if err := datasets.CheckMemory(fmt.Sprintf("training %d words (--min-count %d) at --dim %d, rank %d", len(corpus.Words), *minCount, *dim, k), need); err != nil {
			return fmt.Errorf("%v; use a smaller --dim or --rank, or a larger --min-count", err)
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
	warned := false
	progress := func(p words.Progress) {
		last = p
		if live && (time.Since(lastShown) > time.Second || p.EpochEnd) {
			lastShown = time.Now()
			fmt.Fprintf(env.Stderr, "epoch %d/%d  %5.1f%%  loss %.4f  %.0f tokens/s  %s left\n", p.Epoch, p.Epochs,
				100*float64(p.Done)/float64(max(p.Total, 1)), p.Loss, p.TokensPerSec, p.Remaining().Round(time.Second))
		}
		if p.EpochEnd && !warned && overshooting(p.Loss, cfg.ChanceLoss()) {
			warned = true
			fmt.Fprintf(env.Stderr, "warning: after epoch %d the loss %.4f is far above %.4f, %s: the steps overshoot "+
				"(a word's gradient is summed over its occurrences in a batch, so frequent words of a small vocabulary take large steps). "+
				"Try a smaller --lr (now %g) or --batch (now %d)\n",
				p.Epoch, p.Loss, cfg.ChanceLoss(), chanceWhat(cfg), cfg.LR, cfg.Batch)
		}
		if p.EpochEnd && !warned && notLearning(p.Loss, cfg.ChanceLoss()) {
			warned = true
			fmt.Fprintf(env.Stderr, "warning: after epoch %d the loss %.4f is not 1%% below %.4f, %s: the model is not learning. "+
				"Try a larger --lr (now %g), less subsampling (--subsample now %g; 1e-3 or 0), more --negatives (now %d) or more --epochs (now %d)\n",
				p.Epoch, p.Loss, cfg.ChanceLoss(), chanceWhat(cfg), cfg.LR, cfg.Subsample, cfg.Negatives, cfg.Epochs)
		}
	}
	start := time.Now()
	runErr := words.Train(ctx, m, corpus.Tokens, cfg, progress)
	seconds := time.Since(start).Seconds()
	interrupted := errors.Is(runErr, context.Canceled)
	var diverged *words.DivergedError
	isDiverged := errors.As(runErr, &diverged)
	if runErr != nil && !interrupted && !isDiverged {
		return runErr
	}
	if isDiverged {
		fmt.Fprintf(env.Stderr, "burescope train-words: %v; saving the last finite state\n", diverged)
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
		Out: *out, Interrupted: interrupted, Diverged: isDiverged}
	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(line))
	switch {
	case interrupted:
		return fmt.Errorf("interrupted in epoch %d; saved the state reached to %s (resume with --resume)", m.Epochs+1, *out)
	case isDiverged:
		return fmt.Errorf("%v; saved the last finite state (%d epochs complete) to %s; use a smaller --lr (now %g)", diverged, m.Epochs, *out, cfg.LR)
	}
	return nil
}

// notLearning reports a loss not 1% below chance, the loss of a model
// that scores positive and negative pairs alike (words.Config.ChanceLoss:
// for the paper's hinge, the margin).
func notLearning(loss, chance float64) bool {
	return chance > 0 && loss >= 0.99*chance
}

// overshooting reports a loss more than 1.5 times chance: the model
// scores negative pairs well above positive ones, which small steps
// never do from the initial model.
func overshooting(loss, chance float64) bool {
	return chance > 0 && loss > 1.5*chance
}

// chanceWhat names what the loss is compared with in the not-learning
// warning.
func chanceWhat(cfg words.Config) string {
	switch cfg.Loss {
	case words.LossHinge:
		return "the margin"
	case words.LossHingeEach:
		return "the margin times --negatives"
	}
	return "the logistic loss when positive and negative pairs score alike"
}

// scheduleName is the --lr-schedule value of a decay setting.
func scheduleName(decay bool) string {
	if decay {
		return "linear"
	}
	return "constant"
}

func sumCounts(c []int64) int64 {
	var s int64
	for _, v := range c {
		s += v
	}
	return s
}

// minCountRange checks --min-count.
func minCountRange(v int64) error {
	if v < 1 || v > maxWordsMin {
		return &flagErr{fmt.Sprintf("--min-count %d out of range 1..%d", v, int64(maxWordsMin))}
	}
	return nil
}

// subsampleRange checks --subsample: 0 (off) or a relative frequency in
// (0, 1].
func subsampleRange(v float64) error {
	if v == 0 || (v > 0 && v <= 1) {
		return nil
	}
	return &flagErr{fmt.Sprintf("--subsample %v: want 0 (off) or a relative frequency in (0, 1]", v)}
}

// positiveFinite checks that v is a finite number > 0.
func positiveFinite(name string, v float64) error {
	if v > 0 && !math.IsInf(v, 0) {
		return nil
	}
	return &flagErr{fmt.Sprintf("--%s %v: want a finite number > 0", name, v)}
}

// sameFile reports whether the paths name one file (the same path, or
// the same file through links).
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
