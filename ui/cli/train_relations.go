package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"burescope/datasets"
	"burescope/engine/hypernymy"
	"burescope/gpucompute"
	"burescope/internal/cputime"
	"burescope/ui/fit"
)

func init() {
	Register(Command{
		Name:    "train-relations",
		Summary: "train elliptical embeddings from (child, ancestor) relations; mean rank and MAP (last stdout line: JSON)",
		Run:     runTrainRelations,
	})
}

// trainRelationsResult is the last stdout line of `burescope
// train-relations`. MeanRank and MAP are the reconstruction scores on the
// input relations (hypernymy.EvaluateReconstruction, the Poincaré embeddings
// protocol); SymMeanRank and SymMAP those on the input relations with the
// self pairs (u, u); UndirMeanRank and UndirMAP those of the Undirected
// protocol (the paper's authors' evaluation). Protocol is the training
// protocol.
type trainRelationsResult struct {
	N               int     `json:"n"`
	Pairs           int     `json:"pairs"`
	Dim             int     `json:"dim"`
	Epochs          int     `json:"epochs"`
	Seconds         float64 `json:"seconds"`
	MeanRank        float64 `json:"mean_rank"`
	MAP             float64 `json:"map"`
	SymMeanRank     float64 `json:"sym_mean_rank"`
	SymMAP          float64 `json:"sym_map"`
	TrainPairs      int     `json:"train_pairs"`
	Loss            float64 `json:"loss"`
	Optimizer       string  `json:"optimizer"`
	LR              float64 `json:"lr"`
	SecondsPerEpoch float64 `json:"seconds_per_epoch"`
	Protocol        string  `json:"protocol"`
	UndirMeanRank   float64 `json:"undir_mean_rank"`
	UndirMAP        float64 `json:"undir_map"`
	// EvalRows is the number of query rows the last evaluation ranked
	// (all of them, EvalQueries, unless --eval-rows sampled them).
	EvalRows    int `json:"eval_rows"`
	EvalQueries int `json:"eval_queries"`
	// CPUSeconds is the process CPU time (all threads) of the whole
	// command, loading included: on a busy shared machine wall time
	// overstates the cost.
	CPUSeconds float64 `json:"cpu_seconds"`
	// Backend runs the training steps:
	// "cpu", or the GL backend with its renderer and precision.
	Backend string `json:"backend"`
}

const trainRelationsUsage = "INPUT [--dim 2..32] [--epochs N] [--negatives 50] [--batch 1000] [--lr X] " +
	"[--optimizer adam|sgd] [--protocol directed|undirected] [--seed S] [--eps 0.01] [--eval-every K] [--eval-rows R] [--no-self-pairs] [--workers W] " +
	"[--root SYNSET] [--no-eval] [--out EMB.json] [--progress] [--backend cpu|gl|gl64|auto]"

// runTrainRelations implements `burescope train-relations INPUT ...`: load
// the (child, ancestor) pairs of INPUT (a file or builtin:NAME) with
// datasets.Load, train with hypernymy.Trainer, print the
// reconstruction scores on stderr as they are evaluated, optionally save
// the embedding (gaussian family) and print one JSON summary line.
func runTrainRelations(env Env) error {
	fs := NewFlagSet(env, "train-relations", trainRelationsUsage)
	def := fit.RelationDefaults() // the app's defaults
	dim := fs.Int("dim", def.Dim, "embedding dimension (2..32)")
	epochs := fs.Int("epochs", def.Epochs, "number of epochs (passes over the relations)")
	negatives := fs.Int("negatives", def.Negatives, "negative samples per relation")
	batch := fs.Int("batch", def.BatchSize, "relations per batch")
	lr := fs.Float64("lr", def.LR, "learning rate (0: adam 0.03; sgd 0.02 for d <= 4, 0.01 above as in the paper)")
	optName := fs.String("optimizer", def.Optimizer, "optimiser: adam or sgd")
	protocol := fs.String("protocol", def.Protocol, "training protocol: directed (Poincaré reference) or undirected (the paper's authors' code); both are evaluated")
	seed := fs.Uint64("seed", def.Seed, "random seed (initialisation, order, negatives)")
	eps := fs.Float64("eps", def.Eps, "regularisation added to the diagonal of every scale L L^T")
	evalEvery := fs.Int("eval-every", def.EvalEvery, "evaluate mean rank and MAP every K epochs (and after the last; 0: only after the last)")
	evalRows := fs.Int("eval-rows", def.EvalRows, "rank only the rows of about R evenly spaced items in each evaluation (an estimate at R/n of the cost; 0: all rows)")
	noSelf := fs.Bool("no-self-pairs", false, "do not add the self pairs (u, u) to the training relations")
	workers := fs.Int("workers", 0, "goroutines (0: all cores; results do not depend on it)")
	out := fs.String("out", "", "write the trained embedding (JSON, gaussian family) to this file")
	root := fs.String("root", datasets.DefaultWordNetRoot, "root synset of a wordnet:DIR input (NLTK name)")
	noEval := fs.Bool("no-eval", false, "do not evaluate (to time the training alone); the scores are then 0")
	progress := fs.Bool("progress", false, "draw a progress bar on stderr even when it is not a terminal")
	backendName := fs.String("backend", "cpu", "where training runs: cpu, gl, gl64 (float64) or auto (gl on a GPU, else cpu); on gl the parameters stay on the GPU and the whole step runs there")
	pos, err := ParseInterspersed(fs, env.Args)
	if err != nil {
		return err
	}
	usage := func(format string, a ...any) error {
		fmt.Fprintf(env.Stderr, "burescope train-relations: "+format+"\n", a...)
		fs.Usage()
		return ErrUsage
	}
	if len(pos) != 1 {
		return usage("want exactly one INPUT (a relations file, builtin:NAME or wordnet:DIR), got %d arguments", len(pos))
	}
	switch {
	case *dim < 2 || *dim > 32:
		return usage("--dim %d out of range 2..32", *dim)
	case *epochs < 1:
		return usage("--epochs %d: want at least 1", *epochs)
	case *negatives < 1:
		return usage("--negatives %d: want at least 1", *negatives)
	case *batch < 1:
		return usage("--batch %d: want at least 1", *batch)
	case *lr < 0 || math.IsNaN(*lr) || math.IsInf(*lr, 0):
		return usage("--lr %v: want a positive number (or 0 for the default)", *lr)
	case *optName != hypernymy.SGD && *optName != hypernymy.Adam:
		return usage("--optimizer %q: want adam or sgd", *optName)
	case *protocol != hypernymy.Directed && *protocol != hypernymy.Undirected:
		return usage("--protocol %q: want directed or undirected", *protocol)
	case !(*eps > 0) || math.IsInf(*eps, 0):
		return usage("--eps %v: want a positive number", *eps)
	case *evalEvery < 0:
		return usage("--eval-every %d: want 0 or more", *evalEvery)
	case *evalRows < 0:
		return usage("--eval-rows %d: want 0 (all rows) or more", *evalRows)
	}
	if err := checkFlags(env, "train-relations",
		intRange("negatives", *negatives, 1, maxNegatives),
		intRange("batch", *batch, 1, maxBatch),
		intRange("epochs", *epochs, 1, maxEpochs),
		intRange("workers", *workers, 0, maxWorkers),
		memoryFlag(fmt.Sprintf("--batch %d with --negatives %d", *batch, *negatives), negativesBytes(*batch, *negatives)),
		memoryFlag(fmt.Sprintf("--backend %s with --batch %d, --negatives %d and --dim %d", *backendName, *batch, *negatives, *dim),
			fit.ResidentBatchBytes(*backendName, *batch, *negatives, *dim)),
		wordNetRoot(fs, *root, pos[0]),
		oneOf("backend", *backendName, backendList()...),
	); err != nil {
		return err
	}
	if (*backendName == "gl" || *backendName == "gl64") && *dim > gpucompute.MaxDim {
		return usage("--backend %s: the GL kernels take d <= %d, --dim is %d", *backendName, gpucompute.MaxDim, *dim)
	}
	if err := checkIO(env, "train-relations", pos, output{"out", *out}); err != nil {
		return err
	}
	ds, err := datasets.Load(pos[0], datasets.Options{Kind: datasets.KindRelations, WordNetRoot: *root})
	if err != nil {
		return err
	}
	if len(ds.Relations) == 0 {
		return fmt.Errorf("%s: no relations to train on", pos[0])
	}
	if err := fit.CheckRelationTraining(pos[0], ds.Len(), len(ds.Relations), hypernymy.Config{Dim: *dim, BatchSize: *batch, Negatives: *negatives}); err != nil {
		return err
	}
	ee := *evalEvery
	if ee == 0 {
		ee = -1
	}
	cfg := hypernymy.Config{Dim: *dim, Negatives: *negatives, BatchSize: *batch, Optimizer: *optName,
		LR: *lr, Eps: *eps, Seed: *seed, Workers: *workers, Epochs: *epochs, EvalEvery: ee, NoSelfPairs: *noSelf,
		Protocol: *protocol, NoEval: *noEval, EvalRows: *evalRows}
	backendDesc := "cpu"
	if *backendName == "auto" && *dim > gpucompute.MaxDim {
		fmt.Fprintf(env.Stderr, "burescope train-relations: training on the CPU (the GL kernels take d <= %d)\n", gpucompute.MaxDim)
	}
	if *backendName != "cpu" && *dim <= gpucompute.MaxDim {
		gb, why, err := fit.OpenGL(*backendName, fit.BackendOptions{})
		if err != nil {
			return err
		}
		if gb == nil {
			fmt.Fprintf(env.Stderr, "burescope train-relations: training on the CPU (%s)\n", why)
		} else {
			defer gb.Close()
			if err := checkFlags(env, "train-relations", memoryFlag(
				fmt.Sprintf("--backend %s with --dim %d and --optimizer %s on %d items", *backendName, *dim, *optName, ds.Len()),
				fit.ResidentBytes(*backendName, ds.Len(), *dim, *optName == hypernymy.Adam))); err != nil {
				return err
			}
			cfg.Resident = gb
			backendDesc = fit.Describe(gb)
		}
	}
	if !*noEval {
		w := *workers
		if w <= 0 {
			w = runtime.GOMAXPROCS(0)
		}
		if err := datasets.CheckMemory(fmt.Sprintf("%s: evaluating %d items at --dim %d", pos[0], ds.Len(), *dim),
			hypernymy.EvaluationBytes(ds.Len(), *dim, w)); err != nil {
			return fmt.Errorf("%w (--no-eval trains without it)", err)
		}
	}
	tr, err := hypernymy.NewTrainer(ds.Len(), ds.Relations, cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	cfg = tr.Config()
	fmt.Fprintf(env.Stderr, "%s: %d items, %d relations (%d training relations, %s protocol); d=%d, %s lr %g, %d negatives, batches of %d, %d epochs\n",
		pos[0], ds.Len(), relationsCountDistinct(ds.Relations), len(tr.Relations()), cfg.Protocol, cfg.Dim, cfg.Optimizer, cfg.LR,
		cfg.Negatives, cfg.BatchSize, cfg.Epochs)

	ctx, stop := stopContext()
	defer stop()
	var bar *trainBar
	if *progress || isTerminal(env.Stderr) {
		bar = &trainBar{w: env.Stderr, total: cfg.Epochs}
	}
	start := time.Now()
	shown := 0
	var lastFinite *hypernymy.Progress // kept when the training diverges
	publish := func(p *hypernymy.Progress) {
		if finiteProgress(p) {
			lastFinite = p
		}
		if len(p.Evals) > shown {
			bar.clear()
			for _, e := range p.Evals[shown:] {
				sample := ""
				if e.Rows < e.Queries {
					sample = fmt.Sprintf("  (rows of %d of the %d items, a sample)", e.Rows, e.Queries)
				}
				fmt.Fprintf(env.Stderr, "epoch %d/%d  loss %.4f  mean rank %.3f  MAP %.4f  (undirected: %.3f, %.4f; with self pairs: %.3f, %.4f)  %.2fs/epoch%s\n",
					e.Epoch, cfg.Epochs, e.Loss, e.MeanRank, e.MAP, e.UndirMeanRank, e.UndirMAP, e.SymMeanRank, e.SymMAP, e.TrainSeconds/float64(max(e.Epoch, 1)), sample)
			}
			shown = len(p.Evals)
		}
		bar.update(p)
	}
	stopPoll := make(chan struct{})
	polled := make(chan struct{})
	go func() { // progress within long epochs
		defer close(polled)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stopPoll:
				return
			case <-tick.C:
				done, total := tr.EpochProgress()
				bar.within(done, total)
			}
		}
	}()
	runErr := tr.Run(ctx, 200*time.Millisecond, publish)
	close(stopPoll)
	<-polled
	bar.done()
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		if *out != "" && lastFinite != nil && lastFinite.Epoch > 0 {
			// Keep what the run had: the last state whose values were all
			// finite.
			if e, err := lastFinite.Embedding(ds.Labels); err == nil {
				if err := datasets.SaveEmbedding(*out, e); err == nil {
					fmt.Fprintf(env.Stderr, "training stopped at the first non-finite value; wrote the last finite state (epoch %d) to %s\n", lastFinite.Epoch, *out)
				}
			}
		}
		return fmt.Errorf("%s: %w", pos[0], runErr)
	}
	seconds := time.Since(start).Seconds()
	p := tr.Latest()
	if !p.Evaluated && p.Epoch > 0 && !*noEval {
		// Interrupted between evaluations: score the state reached.
		if q, err := tr.Evaluate(context.Background()); err == nil {
			p = q
		}
	}
	if *out != "" {
		e, err := p.Embedding(ds.Labels)
		if err != nil {
			return err
		}
		if err := datasets.SaveEmbedding(*out, e); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "wrote %d gaussian measures in dimension %d to %s\n", ds.Len(), cfg.Dim, *out)
	}
	res := trainRelationsResult{
		N: ds.Len(), Pairs: relationsCountDistinct(ds.Relations), Dim: cfg.Dim, Epochs: p.Epoch, Seconds: seconds, Backend: backendDesc,
		MeanRank: p.MeanRank, MAP: p.MAP, SymMeanRank: p.SymMeanRank, SymMAP: p.SymMAP,
		TrainPairs: len(tr.Relations()), Loss: p.Loss, Optimizer: cfg.Optimizer, LR: cfg.LR,
		Protocol: cfg.Protocol, UndirMeanRank: p.UndirMeanRank, UndirMAP: p.UndirMAP,
		CPUSeconds: cputime.Process().Seconds(), EvalRows: p.EvalRows, EvalQueries: p.EvalQueries,
	}
	if p.Epoch > 0 {
		res.SecondsPerEpoch = p.TrainSeconds / float64(p.Epoch)
	}
	for _, v := range []*float64{&res.MeanRank, &res.MAP, &res.SymMeanRank, &res.SymMAP, &res.UndirMeanRank, &res.UndirMAP, &res.Loss} {
		if math.IsNaN(*v) {
			*v = 0 // JSON has no NaN: nothing was evaluated (interrupted in the first epoch)
		}
	}
	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, string(line))
	if runErr != nil {
		return fmt.Errorf("interrupted after epoch %d", p.Epoch)
	}
	return nil
}

// finiteProgress reports whether a training snapshot's loss, means and
// scales are all finite.
func finiteProgress(p *hypernymy.Progress) bool {
	if math.IsNaN(p.Loss) || math.IsInf(p.Loss, 0) {
		return false
	}
	for _, v := range p.Means {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	for _, v := range p.Scales {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// relationsCountDistinct returns the number of distinct pairs (on a
// sorted copy: 16 bytes a pair, where a map took several times that).
func relationsCountDistinct(pairs [][2]int) int {
	s := slices.Clone(pairs)
	slices.SortFunc(s, func(a, b [2]int) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	return len(slices.Compact(s))
}

// trainBar is the progress bar of train-relations: epochs done and the
// latest loss, mean rank and MAP, redrawn in place at most five times a
// second. A nil *trainBar draws nothing.
type trainBar struct {
	mu        sync.Mutex
	w         io.Writer
	total     int
	drawn     bool
	last      time.Time
	lastEpoch int
}

func (b *trainBar) update(p *hypernymy.Progress) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn && (p.Epoch == b.lastEpoch || (time.Since(b.last) < 200*time.Millisecond && !p.Done)) {
		return
	}
	b.lastEpoch = p.Epoch
	const width = 30
	frac := float64(p.Epoch) / float64(max(b.total, 1))
	fill := int(math.Min(frac, 1) * width)
	s := fmt.Sprintf("\r[%s%s] epoch %d/%d  loss %.4f", strings.Repeat("#", fill), strings.Repeat(".", width-fill), p.Epoch, b.total, p.Loss)
	if !math.IsNaN(p.MAP) {
		s += fmt.Sprintf("  mean rank %.3f  MAP %.4f", p.MeanRank, p.MAP)
	}
	fmt.Fprint(b.w, s+"  ")
	b.drawn, b.last = true, time.Now()
}

// within shows the progress inside the current epoch (relations done of
// total) after the epoch count.
func (b *trainBar) within(done, total int) {
	if b == nil || done == 0 || total == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	fmt.Fprintf(b.w, "\r[epoch %d/%d: %5.1f%% of %d relations]  ", b.lastEpoch+1, b.total, 100*float64(done)/float64(total), total)
	b.drawn, b.last = true, time.Now()
}

// clear ends the bar's line so that a full line can be printed.
func (b *trainBar) clear() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn {
		fmt.Fprintln(b.w)
		b.drawn = false
	}
}

func (b *trainBar) done() { b.clear() }
