package hypernymy

import (
	"burescope/engine/emds"
	"burescope/engine/iterate"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Hypernymy training (paper, section "Hypernymy" and its supplementary
// paragraph; docs/hypernymy.md): one elliptical embedding mu_u = (a_u, L_u) per noun, scale
// A_u = L_u L_u^T + eps I, score
//
//	[u : v] = <a_u, a_v> + tr (A_u^{1/2} A_v A_u^{1/2})^{1/2},
//
// and the loss, over the positive relations (u, v) with n negatives v'
// drawn among the items w with (u, w) not a relation,
//
//	sum -log( e^{[u:v]} / (e^{[u:v]} + sum_{v'} e^{[u:v']}) ).
//
// Gradients use the T maps: d[u:v]/da_u = a_v, d[u:v]/dL_u = T^{A_u A_v} L_u
// and d[u:v]/dL_v = T^{A_v A_u} L_v. With a factor A_u = F_u F_u^T
// (Cholesky) they are computed from one eigendecomposition of
// M = F_u^T A_v F_u = Q diag(lambda) Q^T: T^{A_u A_v} = F_u^{-T} M^{1/2} F_u^{-1}
// and T^{A_v A_u} = F_u M^{-1/2} F_u^T (docs/hypernymy.md, "Gradients").
// Which relations are trained and how negatives are drawn is the
// protocol's (config.go).

// Trainer fits elliptical embeddings to a relation list with the
// softmax loss above. Build one with NewTrainer, then call Step
// (k epochs) or Run (to Epochs). Step, Run, Evaluate, EvaluateOn and
// SetEpochs may be called from one goroutine at a time (they serialise on
// a mutex); Latest may be called from any goroutine and never blocks; the
// snapshots are immutable. The run is determined by the configuration
// and the relations alone (bit-for-bit reproducible for a seed, whatever
// the number of workers).
type Trainer struct {
	cfg   Config
	n, d  int
	graph *hypGraph // training relations (protocol: see Config.Protocol)
	input *hypGraph // input relations, deduplicated: the Directed ranking
	sym   *hypGraph // input relations with the self pairs (unless NoSelfPairs)
	undir *hypGraph // ancestors and descendants: the Undirected ranking
	// cumDeg[u] is the summed degree of the items before u (Undirected
	// negative sampling).
	cumDeg []int64
	pos    [][2]int // training relations as a sorted list
	order  []int    // shuffled positive indices of the current epoch

	means, fact []float64 // n*d, n*d*d
	params      []float64 // means then factors: means and fact are views of it
	// gradItems lists the items with a gradient in the current step
	// (marked in gradMark); gradBuf is one gradient row per worker.
	gradItems []int32
	gradMark  []bool
	gradBuf   [][]float64
	adam      *emds.Adam // the optimiser state when Optimizer is Adam

	rng       *rand.Rand
	cache     *hypItemCache
	cws       []*hypCacheWS
	shards    [hypShards]*hypShard
	shardAccs [hypShards]*hypGradAcc // the shards' accumulators
	negs      []int32                // BatchSize * Negatives
	// queryMark and queries list the distinct u of the current batch.
	queryMark []bool
	queries   []int32
	res       residentBufs // Config.Resident's batches

	mu        sync.Mutex   // held by Step, Run, Evaluate and EvaluateOn
	relDone   atomic.Int64 // relations done in the current epoch
	latest    atomic.Pointer[Progress]
	epoch     int
	lastLoss  float64
	lastEpoch float64
	trainSecs float64
	losses    []float64
	evals     []Eval
}

// NewTrainer prepares training on n items and the (child,
// ancestor) relations pairs (indices in 0..n-1; duplicates are ignored).
// Means and factor entries start as independent N(0, InitScale^2) draws.
func NewTrainer(n int, pairs [][2]int, cfg Config) (*Trainer, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if n < 2 {
		return nil, fmt.Errorf("hypernymy: need at least 2 items, got %d", n)
	}
	in, err := newHypGraph(n, pairs, false)
	if err != nil {
		return nil, err
	}
	sym, err := newHypGraph(n, pairs, !cfg.NoSelfPairs)
	if err != nil {
		return nil, err
	}
	undir, err := undirectedGraph(in)
	if err != nil {
		return nil, err
	}
	g := sym
	if cfg.Protocol == Undirected {
		// Ancestors and descendants, and u itself unless NoSelfPairs (a
		// training graph: no query restriction, u not a candidate of its
		// own when it is its own positive).
		if g, err = newHypGraph(n, undir.pairs(), !cfg.NoSelfPairs); err != nil {
			return nil, err
		}
	}
	if len(g.adj) == 0 {
		return nil, errors.New("hypernymy: no relations to train on")
	}
	d := cfg.Dim
	t := &Trainer{
		cfg: cfg, n: n, d: d, graph: g, input: in, sym: sym, undir: undir, pos: g.pairs(),
		params: make([]float64, n*(d+d*d)), gradMark: make([]bool, n),
		queryMark: make([]bool, n),
		rng:       rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		cache:     newHypItemCache(n, d),
		negs:      make([]int32, cfg.BatchSize*cfg.Negatives),
	}
	t.means, t.fact = t.params[:n*d], t.params[n*d:]
	t.order = make([]int, len(t.pos))
	for i := range t.order {
		t.order[i] = i
	}
	if cfg.Protocol == Undirected {
		// Negatives in proportion to degree: cumulative degrees.
		t.cumDeg = make([]int64, n+1)
		for u := 0; u < n; u++ {
			t.cumDeg[u+1] = t.cumDeg[u] + int64(len(g.row(u)))
		}
	}
	for i := range t.means {
		t.means[i] = cfg.InitScale * t.rng.NormFloat64()
	}
	for i := range t.fact {
		t.fact[i] = cfg.InitScale * t.rng.NormFloat64()
	}
	if cfg.Optimizer == Adam && cfg.Resident == nil {
		t.adam = emds.NewAdam(len(t.params))
	}
	t.cws = make([]*hypCacheWS, cfg.Workers)
	t.gradBuf = make([][]float64, cfg.Workers)
	for i := range t.cws {
		t.cws[i] = newHypCacheWS(d)
		t.gradBuf[i] = make([]float64, d+d*d)
	}
	for s := range t.shards {
		t.shards[s] = newHypShard(n, d, cfg.Negatives)
		t.shardAccs[s] = t.shards[s].acc
	}
	t.lastLoss = math.NaN()
	t.latest.Store(t.snapshot())
	return t, nil
}

// Config returns the configuration with its defaults filled in.
func (t *Trainer) Config() Config { return t.cfg }

// Len returns the number of items n.
func (t *Trainer) Len() int { return t.n }

// Relations returns the training relations (the input pairs,
// deduplicated, with their reverses under the Undirected protocol, plus
// (u, u) for every u unless NoSelfPairs), sorted.
func (t *Trainer) Relations() [][2]int {
	return append([][2]int(nil), t.pos...)
}

// Epoch returns the number of completed epochs.
func (t *Trainer) Epoch() int { return t.epoch }

// refreshCache recomputes the item cache of every item from the current
// factors.
func (t *Trainer) refreshCache() error {
	return t.refreshItems(nil)
}

// refreshItems recomputes the item cache of the given items (all when
// items is nil). The loss kernel reads the cache of the query items u
// only (the candidates enter through their factors), so a batch refreshes
// the u of its relations: O(batch d^3) instead of O(n d^3) per step.
func (t *Trainer) refreshItems(items []int32) error {
	const chunk = 64
	dd := t.d * t.d
	count := t.n
	if items != nil {
		count = len(items)
	}
	tasks := (count + chunk - 1) / chunk
	var bad atomic.Int64
	bad.Store(-1)
	hypParallel(t.cfg.Workers, tasks, func(w, task int) {
		for k := task * chunk; k < min((task+1)*chunk, count); k++ {
			i := k
			if items != nil {
				i = int(items[k])
			}
			if !t.cache.setFromFactor(t.cws[w], i, t.fact[i*dd:(i+1)*dd], t.cfg.Eps) {
				bad.CompareAndSwap(-1, int64(i))
			}
		}
	})
	if i := bad.Load(); i >= 0 {
		return fmt.Errorf("hypernymy: scale of item %d is not positive definite (diverged? try a smaller learning rate)", i)
	}
	return nil
}

// epochStep runs one epoch (every positive relation once, in a fresh
// random order, in batches). On cancellation it stops between batches.
func (t *Trainer) epochStep(ctx context.Context) (err error) {
	defer func() {
		// An epoch stopped early: the accelerator's parameters (and a
		// divergence among its queued batches, which the CPU would have
		// met before the cancellation) come back here.
		if e := t.pullResident(); e != nil && (err == nil || ctx.Err() != nil) {
			err = e
		}
	}()
	start := time.Now()
	t.rng.Shuffle(len(t.order), func(i, j int) { t.order[i], t.order[j] = t.order[j], t.order[i] })
	var total float64
	bs := t.cfg.BatchSize
	for b0 := 0; b0 < len(t.order); b0 += bs {
		if err := ctx.Err(); err != nil {
			t.trainSecs += time.Since(start).Seconds()
			return err
		}
		batch := t.order[b0:min(b0+bs, len(t.order))]
		loss, err := t.batch(batch)
		if err != nil {
			return err
		}
		total += loss
		t.relDone.Store(int64(b0 + len(batch)))
	}
	if t.cfg.Resident != nil {
		// The batches returned 0: the losses come back now, then the
		// parameters.
		if total, err = t.residentLosses(); err != nil {
			return err
		}
		if err = t.pullResident(); err != nil {
			return err
		}
	}
	t.relDone.Store(0)
	t.epoch++
	t.lastLoss = total / float64(len(t.order))
	t.losses = append(t.losses, t.lastLoss)
	t.lastEpoch = time.Since(start).Seconds()
	t.trainSecs += t.lastEpoch
	return nil
}

// evalDue reports whether the schedule asks for an evaluation now.
func (t *Trainer) evalDue() bool {
	if t.cfg.NoEval {
		return false
	}
	if t.epoch == t.cfg.Epochs {
		return true
	}
	return t.cfg.EvalEvery > 0 && t.epoch%t.cfg.EvalEvery == 0
}

// epochAndEval runs one epoch and, when due, an evaluation; it returns
// whether it evaluated.
func (t *Trainer) epochAndEval(ctx context.Context) (bool, error) {
	if err := t.epochStep(ctx); err != nil {
		return false, err
	}
	if !t.evalDue() {
		return false, nil
	}
	return true, t.evaluateNow(ctx)
}

// Step runs up to k epochs (fewer if Epochs is reached), evaluating on the
// EvalEvery schedule, then publishes and returns the new snapshot. On
// cancellation it stops between batches, publishes the state reached and
// returns ctx's error; the trainer stays usable.
func (t *Trainer) Step(ctx context.Context, k int) (*Progress, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var err error
	for a := 0; a < k && t.epoch < t.cfg.Epochs; a++ {
		if _, err = t.epochAndEval(ctx); err != nil {
			break
		}
	}
	return t.publishSnapshot(), err
}

// Run trains until Epochs or cancellation, calling publish (if not nil)
// from the calling goroutine with a new snapshot after every evaluation,
// otherwise at most every `every`, and once at the end (iterate.Run). It
// returns ctx's error when cancelled, a training error (divergence), or
// nil.
func (t *Trainer) Run(ctx context.Context, every time.Duration, publish func(*Progress)) error {
	return iterate.Run[*Progress](ctx, iterate.Funcs[*Progress]{Locker: &t.mu, StepFunc: t.runStep, SnapshotFunc: t.publishSnapshot}, every, publish)
}

// runStep is one step of Run (t.mu held): one epoch unless done.
func (t *Trainer) runStep(ctx context.Context) (done, evaluated bool, err error) {
	if t.epoch >= t.cfg.Epochs {
		return true, false, nil
	}
	evaluated, err = t.epochAndEval(ctx)
	return false, evaluated, err
}

// publishSnapshot builds the current snapshot and makes it the latest
// (t.mu held).
func (t *Trainer) publishSnapshot() *Progress {
	p := t.snapshot()
	t.latest.Store(p)
	return p
}

// SetEpochs changes where Run and Step stop (for example to train further
// after a finished run); it waits for the current epoch to finish. It
// fails for a total below the epochs already done.
func (t *Trainer) SetEpochs(total int) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if total < t.epoch {
		return fmt.Errorf("hypernymy: cannot stop at epoch %d, %d are done", total, t.epoch)
	}
	t.cfg.Epochs = total
	p := t.snapshot()
	t.latest.Store(p)
	return nil
}

// EpochProgress returns how many training relations the current epoch
// has done and how many it has: progress within an epoch, which takes
// minutes on the WordNet nouns. Any goroutine may call it; it does not
// block.
func (t *Trainer) EpochProgress() (done, total int) {
	return int(t.relDone.Load()), len(t.pos)
}

// Latest returns the most recently published snapshot (never nil after
// NewTrainer). It may be called from any goroutine; it does not
// block.
func (t *Trainer) Latest() *Progress { return t.latest.Load() }
