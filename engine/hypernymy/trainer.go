package hypernymy

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"burescope/engine"
)

// Hypernymy training (paper, section "Hypernymy" and its supplementary
// paragraph; MATH.md, "Word embeddings and hypernymy" and "Pseudo dot
// product"): one elliptical embedding mu_u = (a_u, L_u) per noun, scale
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
// and d[u:v]/dL_v = T^{A_v A_u} L_v. They are computed from one
// eigendecomposition of M = A_u^{1/2} A_v A_u^{1/2} = Q diag(lambda) Q^T:
// T^{A_u A_v} = A_u^{-1/2} M^{1/2} A_u^{-1/2} and
// T^{A_v A_u} = A_u^{1/2} M^{-1/2} A_u^{1/2} (the second formula of MATH.md).

// Hypernymy optimisers.
const (
	SGD  = "sgd"  // plain stochastic gradient descent (the paper's choice)
	Adam = "adam" // Adam (Kingma & Ba 2015) with beta1 0.9, beta2 0.999, 1e-8
)

// hypShards is the fixed number of slices a batch is split into, each with
// its own gradient accumulator; the slices are summed in shard order, so a
// run is bit-for-bit the same for any number of worker goroutines.
const hypShards = 8

// Config configures a Trainer. The zero value of a field
// means the default given in its comment (the paper's settings).
type Config struct {
	Dim       int     // embedding dimension d >= 1 (required)
	Negatives int     // negatives per positive relation; 0 means 50
	BatchSize int     // positive relations per batch; 0 means 1000
	Optimizer string  // SGD or Adam; "" means SGD
	LR        float64 // learning rate; 0 means DefaultLR(Dim, Optimizer)
	Eps       float64 // added to the diagonal of every scale L L^T; 0 means 0.01
	Seed      uint64  // seeds initialisation, shuffling and negatives
	// Workers is the number of goroutines; <= 0 means GOMAXPROCS. Results
	// do not depend on it. A training batch is split into 8 fixed shards,
	// so training uses at most 8; evaluation uses all of them.
	Workers int
	// InitScale is the standard deviation of the initial mean and factor
	// entries; 0 means 0.1.
	InitScale float64
	// Epochs is where Run stops (Step stops there too); 0 means 50.
	Epochs int
	// EvalEvery evaluates the reconstruction every EvalEvery epochs during
	// Step and Run (always after the last one); 0 means every epoch, < 0
	// only after the last.
	EvalEvery int
	// NoSelfPairs disables the symmetrisation of the paper (each noun is
	// also its own hypernym: (u, u) is added to the relations).
	NoSelfPairs bool
}

// DefaultLR is the learning rate used when Config.LR is
// 0: for SGD the paper's 0.02 for d <= 4 and 0.01 above (the paper states
// 0.02 for d = 3, 4 and 0.01 for higher dimensions); for Adam 0.01.
func DefaultLR(d int, optimizer string) float64 {
	if optimizer == Adam {
		return 0.01
	}
	if d <= 4 {
		return 0.02
	}
	return 0.01
}

// withDefaults returns c with its zero fields replaced by the defaults, or
// an error naming the first invalid field.
func (c Config) withDefaults() (Config, error) {
	if c.Dim < 1 || c.Dim > 64 {
		return c, fmt.Errorf("hypernymy: dimension %d out of range 1..64", c.Dim)
	}
	if c.Negatives == 0 {
		c.Negatives = 50
	}
	if c.Negatives < 0 {
		return c, fmt.Errorf("hypernymy: negatives %d < 0", c.Negatives)
	}
	if c.BatchSize == 0 {
		c.BatchSize = 1000
	}
	if c.BatchSize < 0 {
		return c, fmt.Errorf("hypernymy: batch size %d < 0", c.BatchSize)
	}
	if c.Optimizer == "" {
		c.Optimizer = SGD
	}
	if c.Optimizer != SGD && c.Optimizer != Adam {
		return c, fmt.Errorf("hypernymy: unknown optimizer %q (want sgd or adam)", c.Optimizer)
	}
	if c.LR == 0 {
		c.LR = DefaultLR(c.Dim, c.Optimizer)
	}
	if !(c.LR > 0) || math.IsInf(c.LR, 0) {
		return c, fmt.Errorf("hypernymy: learning rate %v must be a positive number", c.LR)
	}
	if c.Eps == 0 {
		c.Eps = 0.01
	}
	if !(c.Eps > 0) || math.IsInf(c.Eps, 0) {
		return c, fmt.Errorf("hypernymy: eps %v must be a positive number", c.Eps)
	}
	if c.InitScale == 0 {
		c.InitScale = 0.1
	}
	if !(c.InitScale > 0) || math.IsInf(c.InitScale, 0) {
		return c, fmt.Errorf("hypernymy: init scale %v must be a positive number", c.InitScale)
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Epochs == 0 {
		c.Epochs = 50
	}
	if c.Epochs < 0 {
		return c, fmt.Errorf("hypernymy: epochs %d < 0", c.Epochs)
	}
	if c.EvalEvery == 0 {
		c.EvalEvery = 1
	}
	return c, nil
}

// hypGraph is a directed relation graph in compressed sparse rows: the
// sorted, distinct neighbours of u are adj[start[u]:start[u+1]].
type hypGraph struct {
	n     int
	start []int
	adj   []int32
}

// newHypGraph builds the graph of the pairs (u, v), adding (u, u) for
// every u when self is true; duplicates are dropped. It checks the range.
func newHypGraph(n int, pairs [][2]int, self bool) (*hypGraph, error) {
	if n < 1 {
		return nil, fmt.Errorf("hypernymy: %d items", n)
	}
	deg := make([]int, n+1)
	for k, p := range pairs {
		if p[0] < 0 || p[0] >= n || p[1] < 0 || p[1] >= n {
			return nil, fmt.Errorf("hypernymy: relation %d (%d, %d) out of range 0..%d", k, p[0], p[1], n-1)
		}
		deg[p[0]+1]++
	}
	if self {
		for u := 0; u < n; u++ {
			deg[u+1]++
		}
	}
	for u := 0; u < n; u++ {
		deg[u+1] += deg[u]
	}
	adj := make([]int32, deg[n])
	fill := append([]int(nil), deg[:n]...)
	for _, p := range pairs {
		adj[fill[p[0]]] = int32(p[1])
		fill[p[0]]++
	}
	if self {
		for u := 0; u < n; u++ {
			adj[fill[u]] = int32(u)
			fill[u]++
		}
	}
	g := &hypGraph{n: n, start: make([]int, n+1), adj: adj[:0]}
	for u := 0; u < n; u++ {
		row := adj[deg[u]:deg[u+1]]
		sort.Slice(row, func(i, j int) bool { return row[i] < row[j] })
		for i, v := range row {
			if i == 0 || v != row[i-1] {
				g.adj = append(g.adj, v)
			}
		}
		g.start[u+1] = len(g.adj)
	}
	return g, nil
}

// row returns the sorted neighbours of u.
func (g *hypGraph) row(u int) []int32 { return g.adj[g.start[u]:g.start[u+1]] }

// has reports whether (u, v) is a relation.
func (g *hypGraph) has(u, v int) bool {
	r := g.row(u)
	i := sort.Search(len(r), func(i int) bool { return int(r[i]) >= v })
	return i < len(r) && int(r[i]) == v
}

// pairs returns the relations (u, v) in (u, v) order.
func (g *hypGraph) pairs() [][2]int {
	out := make([][2]int, 0, len(g.adj))
	for u := 0; u < g.n; u++ {
		for _, v := range g.row(u) {
			out = append(out, [2]int{u, int(v)})
		}
	}
	return out
}

// Eval is one evaluation of a training run: a point of the live
// mean-rank / MAP curve.
type Eval struct {
	Epoch        int     // epochs completed when it was taken
	Loss         float64 // mean loss per positive relation of that epoch
	MeanRank     float64 // on the input relations (see Progress)
	MAP          float64
	SymMeanRank  float64 // on the training relations (with self pairs)
	SymMAP       float64
	TrainSeconds float64 // training wall time so far (evaluations excluded)
}

// Progress is an immutable snapshot of a Trainer: safe
// to hand to another goroutine (the GUI) as it is. Nothing in it is ever
// changed after it is published (Losses and Evals may share their backing
// arrays with later snapshots, whose extra elements they do not see).
type Progress struct {
	Epoch  int // epochs completed
	Epochs int // epochs Run trains for (Config.Epochs)
	Done   bool
	Loss   float64 // mean loss per positive relation of the last epoch (NaN before the first)
	// Evaluated says that the scores below were computed at this Epoch;
	// otherwise they are those of the latest evaluation (NaN if none).
	Evaluated bool
	// MeanRank and MAP are the reconstruction scores on the input
	// relations (deduplicated, no added self pairs: the Poincaré
	// embeddings protocol, u itself not a candidate); 1 is best for both.
	MeanRank, MAP float64
	// SymMeanRank and SymMAP are the same on the training relations (with
	// the self pairs (u, u) of the symmetrisation; equal to MeanRank and
	// MAP under NoSelfPairs).
	SymMeanRank, SymMAP float64
	// EpochSeconds is the wall time of the last epoch (evaluation excluded);
	// TrainSeconds the total over all epochs.
	EpochSeconds, TrainSeconds float64
	N, Dim                     int
	Means                      []float64 // n*Dim
	Scales                     []float64 // n*Dim*Dim scales A = L L^T + eps I
	Losses                     []float64 // mean loss of every epoch so far
	Evals                      []Eval
}

// Embedding returns the snapshot as a gaussian engine.Embedding with the given
// labels (len N); means and scales are copied.
func (p *Progress) Embedding(labels []string) (*engine.Embedding, error) {
	if len(labels) != p.N {
		return nil, fmt.Errorf("hypernymy: %d labels for %d items", len(labels), p.N)
	}
	return &engine.Embedding{Family: engine.Gaussian(), Dim: p.Dim, Labels: append([]string(nil), labels...),
		Means: append([]float64(nil), p.Means...), Scales: append([]float64(nil), p.Scales...)}, nil
}

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
	graph *hypGraph // training relations (with self pairs unless disabled)
	input *hypGraph // input relations, deduplicated
	pos   [][2]int  // training relations as a sorted list
	order []int     // shuffled positive indices of the current epoch

	means, fact []float64 // n*d, n*d*d
	gMean, gFac []float64 // batch gradient
	touched     []bool
	adamM       []float64 // Adam first moments, means then factors
	adamV       []float64 // Adam second moments
	adamT       int

	rng    *rand.Rand
	cache  *hypItemCache
	cws    []*hypCacheWS
	shards [hypShards]*hypShard
	negs   []int32 // BatchSize * Negatives

	mu        sync.Mutex // held by Step, Run, Evaluate and EvaluateOn
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
	g, err := newHypGraph(n, pairs, !cfg.NoSelfPairs)
	if err != nil {
		return nil, err
	}
	in, err := newHypGraph(n, pairs, false)
	if err != nil {
		return nil, err
	}
	if len(g.adj) == 0 {
		return nil, errors.New("hypernymy: no relations to train on")
	}
	d := cfg.Dim
	t := &Trainer{
		cfg: cfg, n: n, d: d, graph: g, input: in, pos: g.pairs(),
		means: make([]float64, n*d), fact: make([]float64, n*d*d),
		gMean: make([]float64, n*d), gFac: make([]float64, n*d*d),
		touched: make([]bool, n),
		rng:     rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		cache:   newHypItemCache(n, d),
		negs:    make([]int32, cfg.BatchSize*cfg.Negatives),
	}
	t.order = make([]int, len(t.pos))
	for i := range t.order {
		t.order[i] = i
	}
	for i := range t.means {
		t.means[i] = cfg.InitScale * t.rng.NormFloat64()
	}
	for i := range t.fact {
		t.fact[i] = cfg.InitScale * t.rng.NormFloat64()
	}
	if cfg.Optimizer == Adam {
		t.adamM = make([]float64, n*(d+d*d))
		t.adamV = make([]float64, n*(d+d*d))
	}
	t.cws = make([]*hypCacheWS, cfg.Workers)
	for i := range t.cws {
		t.cws[i] = newHypCacheWS(d)
	}
	for s := range t.shards {
		t.shards[s] = newHypShard(n, d, cfg.Negatives)
	}
	t.lastLoss = math.NaN()
	t.latest.Store(t.snapshot())
	return t, nil
}

// Config returns the configuration with its defaults filled in.
func (t *Trainer) Config() Config { return t.cfg }

// Len returns the number of items n.
func (t *Trainer) Len() int { return t.n }

// Relations returns the training relations (the input pairs, deduplicated,
// plus (u, u) for every u unless NoSelfPairs), sorted.
func (t *Trainer) Relations() [][2]int {
	return append([][2]int(nil), t.pos...)
}

// Epoch returns the number of completed epochs.
func (t *Trainer) Epoch() int { return t.epoch }

// hypShard is one slice of a batch: its gradient accumulator (dense, with
// the touched items listed so that only those are summed and cleared) and
// the kernel workspace.
type hypShard struct {
	gMean, gFac []float64
	mark        []bool
	touched     []int32
	loss        float64
	ws          *hypPairWS
}

func newHypShard(n, d, negs int) *hypShard {
	return &hypShard{gMean: make([]float64, n*d), gFac: make([]float64, n*d*d),
		mark: make([]bool, n), ws: newHypPairWS(d, negs+1)}
}

func (s *hypShard) touch(i int) {
	if !s.mark[i] {
		s.mark[i] = true
		s.touched = append(s.touched, int32(i))
	}
}

// hypPairWS is the per-goroutine workspace of the loss kernel: for each of
// the K = 1 + negatives candidates, Y = A_u^{1/2} L_v, the eigenvectors Q
// and eigenvalues of M = Y Y^T + eps A_u, and the score.
type hypPairWS struct {
	d            int
	y, q, lam    []float64
	score, wt    []float64
	m, g, t1, t2 []float64
	f            []float64
	eig          *hypEig
}

func newHypPairWS(d, k int) *hypPairWS {
	dd := d * d
	return &hypPairWS{d: d, y: make([]float64, k*dd), q: make([]float64, k*dd),
		lam: make([]float64, k*d), score: make([]float64, k), wt: make([]float64, k),
		m: make([]float64, dd), g: make([]float64, dd), t1: make([]float64, dd),
		t2: make([]float64, dd), f: make([]float64, d), eig: newHypEig(d)}
}

// hypPairLoss adds to the gradients gMean, gFac the gradient of the loss
//
//	-log( e^{s_0} / sum_k e^{s_k} ),  s_k = [u : cand_k],
//
// (cand[0] is the positive v, the rest the negatives) and returns the
// loss. means and fact are the parameters, c the item cache built from
// them with eps; touch is called for every item whose gradient changes.
func hypPairLoss(ws *hypPairWS, c *hypItemCache, means, fact []float64, eps float64,
	u int, cand []int32, gMean, gFac []float64, touch func(int)) float64 {
	d := ws.d
	dd := d * d
	su := c.s[u*dd : (u+1)*dd]
	au := c.a[u*dd : (u+1)*dd]
	mu := means[u*d : (u+1)*d]
	best := math.Inf(-1)
	for j, v := range cand {
		lv := fact[int(v)*dd : (int(v)+1)*dd]
		y := ws.y[j*dd : (j+1)*dd]
		hypMul(y, su, lv, d)
		m := ws.m
		for r := 0; r < d; r++ {
			for q := 0; q <= r; q++ {
				var s float64
				for p := 0; p < d; p++ {
					s += y[r*d+p] * y[q*d+p]
				}
				s += eps * 0.5 * (au[r*d+q] + au[q*d+r])
				m[r*d+q] = s
				m[q*d+r] = s
			}
		}
		lam := ws.lam[j*d : (j+1)*d]
		ws.eig.vectors(m, ws.q[j*dd:(j+1)*dd], lam)
		var tr float64
		for i, l := range lam {
			l = math.Max(l, 0)
			lam[i] = l
			tr += math.Sqrt(l)
		}
		mv := means[int(v)*d : (int(v)+1)*d]
		var dot float64
		for i := range mu {
			dot += mu[i] * mv[i]
		}
		ws.score[j] = dot + tr
		best = math.Max(best, ws.score[j])
	}
	var z float64
	for j := range cand {
		ws.wt[j] = math.Exp(ws.score[j] - best)
		z += ws.wt[j]
	}
	loss := math.Log(z) + best - ws.score[0]
	for j := range cand {
		ws.wt[j] /= z
	}
	ws.wt[0] -= 1

	touch(u)
	gmu := gMean[u*d : (u+1)*d]
	g := ws.g
	for i := range g {
		g[i] = 0
	}
	for j, v := range cand {
		w := ws.wt[j]
		if w == 0 {
			continue
		}
		vi := int(v)
		touch(vi)
		mv := means[vi*d : (vi+1)*d]
		gmv := gMean[vi*d : (vi+1)*d]
		for i := range gmu {
			gmu[i] += w * mv[i]
			gmv[i] += w * mu[i]
		}
		q := ws.q[j*dd : (j+1)*dd]
		lam := ws.lam[j*d : (j+1)*d]
		// G += w M^{1/2} = Q diag(w sqrt(lambda)) Q^T (lower triangle; G
		// is symmetric and mirrored below).
		for p := 0; p < d; p++ {
			ws.f[p] = w * math.Sqrt(lam[p])
		}
		for r := 0; r < d; r++ {
			qr := q[r*d : (r+1)*d]
			for s := 0; s <= r; s++ {
				qs := q[s*d : (s+1)*d]
				var acc float64
				for p, f := range ws.f {
					acc += qr[p] * f * qs[p]
				}
				g[r*d+s] += acc
			}
		}
		// grad L_v += w T^{A_v A_u} L_v = w S_u Q diag(1/sqrt(lambda)) Q^T Y.
		y := ws.y[j*dd : (j+1)*dd]
		for p := 0; p < d; p++ {
			ws.f[p] = 0
			if lam[p] > 0 {
				ws.f[p] = w / math.Sqrt(lam[p])
			}
		}
		t1 := ws.t1 // t1 = diag(f) Q^T Y
		for p := 0; p < d; p++ {
			for s := 0; s < d; s++ {
				var acc float64
				for r := 0; r < d; r++ {
					acc += q[r*d+p] * y[r*d+s]
				}
				t1[p*d+s] = ws.f[p] * acc
			}
		}
		hypMul(ws.t2, q, t1, d)
		gl := gFac[vi*dd : (vi+1)*dd]
		for r := 0; r < d; r++ {
			for s := 0; s < d; s++ {
				var acc float64
				for p := 0; p < d; p++ {
					acc += su[r*d+p] * ws.t2[p*d+s]
				}
				gl[r*d+s] += acc
			}
		}
	}
	// grad L_u += sum_j w_j T^{A_u A_vj} L_u = R_u G P_u, P_u = R_u L_u.
	for r := 0; r < d; r++ {
		for s := 0; s < r; s++ {
			g[s*d+r] = g[r*d+s]
		}
	}
	hypMul(ws.t1, g, c.p[u*dd:(u+1)*dd], d)
	hypMul(ws.t2, c.r[u*dd:(u+1)*dd], ws.t1, d)
	gl := gFac[u*dd : (u+1)*dd]
	for i, v := range ws.t2 {
		gl[i] += v
	}
	return loss
}

// hypParallel runs f(worker, task) for task in [0, tasks) on up to workers
// goroutines; which worker runs which task is not fixed, so f must write
// only to task-owned or worker-owned memory.
func hypParallel(workers, tasks int, f func(worker, task int)) {
	if workers > tasks {
		workers = tasks
	}
	if workers <= 1 {
		for i := 0; i < tasks; i++ {
			f(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= tasks {
					return
				}
				f(w, i)
			}
		}()
	}
	wg.Wait()
}

// refreshCache recomputes the item cache from the current factors.
func (t *Trainer) refreshCache() error {
	const chunk = 64
	dd := t.d * t.d
	tasks := (t.n + chunk - 1) / chunk
	var bad atomic.Int64
	bad.Store(-1)
	hypParallel(t.cfg.Workers, tasks, func(w, task int) {
		for i := task * chunk; i < min((task+1)*chunk, t.n); i++ {
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

// sampleNegatives draws, for every positive (u, v) of the batch, the
// configured number of items w with (u, w) not a relation and w != u,
// uniformly with replacement. A u related to every item gets none
// (marked -1).
func (t *Trainer) sampleNegatives(batch []int) {
	k := t.cfg.Negatives
	for b, pi := range batch {
		u := t.pos[pi][0]
		row := t.graph.row(u)
		free := t.n - len(row)
		if !t.graph.has(u, u) {
			free--
		}
		out := t.negs[b*k : (b+1)*k]
		for j := range out {
			if free <= 0 {
				out[j] = -1
				continue
			}
			if free*4 >= t.n {
				// Rejection sampling: at least a quarter of draws succeed.
				for {
					w := t.rng.IntN(t.n)
					if w != u && !t.graph.has(u, w) {
						out[j] = int32(w)
						break
					}
				}
				continue
			}
			// Few free items: draw the r-th free one directly.
			r := t.rng.IntN(free)
			out[j] = int32(t.nthFree(u, row, r))
		}
	}
}

// nthFree returns the r-th (0-based) item w != u not in row (sorted).
func (t *Trainer) nthFree(u int, row []int32, r int) int {
	ri := 0
	for w := 0; w < t.n; w++ {
		for ri < len(row) && int(row[ri]) < w {
			ri++
		}
		if w == u || (ri < len(row) && int(row[ri]) == w) {
			continue
		}
		if r == 0 {
			return w
		}
		r--
	}
	return -1
}

// epochStep runs one epoch (every positive relation once, in a fresh
// random order, in batches). On cancellation it stops between batches.
func (t *Trainer) epochStep(ctx context.Context) error {
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
	}
	t.epoch++
	t.lastLoss = total / float64(len(t.order))
	t.losses = append(t.losses, t.lastLoss)
	t.lastEpoch = time.Since(start).Seconds()
	t.trainSecs += t.lastEpoch
	return nil
}

// evalDue reports whether the schedule asks for an evaluation now.
func (t *Trainer) evalDue() bool {
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
	p := t.snapshot()
	t.latest.Store(p)
	return p, err
}

// Run trains until Epochs or cancellation, calling publish (if not nil)
// from the calling goroutine with a new snapshot after every evaluation,
// otherwise at most every `every`, and once at the end. It returns ctx's
// error when cancelled, a training error (divergence), or nil.
func (t *Trainer) Run(ctx context.Context, every time.Duration, publish func(*Progress)) error {
	last := time.Now()
	for {
		t.mu.Lock()
		stop := t.epoch >= t.cfg.Epochs
		var err error
		evaluated := false
		if !stop {
			evaluated, err = t.epochAndEval(ctx)
		}
		var p *Progress
		if stop || err != nil || evaluated || time.Since(last) >= every {
			p = t.snapshot()
			t.latest.Store(p)
			last = time.Now()
		}
		t.mu.Unlock()
		if p != nil && publish != nil {
			publish(p)
		}
		if err != nil {
			return err
		}
		if stop {
			return nil
		}
	}
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

// Latest returns the most recently published snapshot (never nil after
// NewTrainer). It may be called from any goroutine; it does not
// block.
func (t *Trainer) Latest() *Progress { return t.latest.Load() }

// batch does one optimisation step on the given positives and returns the
// summed loss.
func (t *Trainer) batch(batch []int) (float64, error) {
	if err := t.refreshCache(); err != nil {
		return 0, err
	}
	t.sampleNegatives(batch)
	k := t.cfg.Negatives
	hypParallel(t.cfg.Workers, hypShards, func(_, s int) {
		sh := t.shards[s]
		sh.loss = 0
		lo, hi := s*len(batch)/hypShards, (s+1)*len(batch)/hypShards
		cand := make([]int32, 0, k+1)
		for b := lo; b < hi; b++ {
			p := t.pos[batch[b]]
			cand = append(cand[:0], int32(p[1]))
			for _, w := range t.negs[b*k : (b+1)*k] {
				if w >= 0 {
					cand = append(cand, w)
				}
			}
			sh.loss += hypPairLoss(sh.ws, t.cache, t.means, t.fact, t.cfg.Eps, p[0], cand, sh.gMean, sh.gFac, sh.touch)
		}
	})
	// Reduce in shard order (fixed summation order per entry).
	d, dd := t.d, t.d*t.d
	var loss float64
	for _, sh := range t.shards {
		loss += sh.loss
		for _, i32 := range sh.touched {
			i := int(i32)
			t.touched[i] = true
			for j := i * d; j < (i+1)*d; j++ {
				t.gMean[j] += sh.gMean[j]
				sh.gMean[j] = 0
			}
			for j := i * dd; j < (i+1)*dd; j++ {
				t.gFac[j] += sh.gFac[j]
				sh.gFac[j] = 0
			}
			sh.mark[i] = false
		}
		sh.touched = sh.touched[:0]
	}
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return 0, errors.New("hypernymy: loss is not finite (diverged? try a smaller learning rate)")
	}
	t.update()
	return loss, nil
}

// update applies the optimiser to the batch gradient (the gradient of the
// summed loss of the batch) and clears it.
func (t *Trainer) update() {
	d, dd := t.d, t.d*t.d
	lr := t.cfg.LR
	if t.cfg.Optimizer == SGD {
		for i := 0; i < t.n; i++ {
			if !t.touched[i] {
				continue
			}
			t.touched[i] = false
			for j := i * d; j < (i+1)*d; j++ {
				t.means[j] -= lr * t.gMean[j]
				t.gMean[j] = 0
			}
			for j := i * dd; j < (i+1)*dd; j++ {
				t.fact[j] -= lr * t.gFac[j]
				t.gFac[j] = 0
			}
		}
		return
	}
	const b1, b2, e = 0.9, 0.999, 1e-8
	t.adamT++
	c1 := 1 - math.Pow(b1, float64(t.adamT))
	c2 := 1 - math.Pow(b2, float64(t.adamT))
	nm := len(t.means)
	step := func(x, g []float64, off int) {
		for j := range x {
			m := b1*t.adamM[off+j] + (1-b1)*g[j]
			v := b2*t.adamV[off+j] + (1-b2)*g[j]*g[j]
			t.adamM[off+j], t.adamV[off+j] = m, v
			x[j] -= lr * (m / c1) / (math.Sqrt(v/c2) + e)
			g[j] = 0
		}
	}
	step(t.means, t.gMean, 0)
	step(t.fact, t.gFac, nm)
	for i := range t.touched {
		t.touched[i] = false
	}
}

// snapshot copies the current state into a new Progress.
func (t *Trainer) snapshot() *Progress {
	p := &Progress{Epoch: t.epoch, Epochs: t.cfg.Epochs, Done: t.epoch >= t.cfg.Epochs,
		Loss: t.lastLoss, EpochSeconds: t.lastEpoch, TrainSeconds: t.trainSecs,
		N: t.n, Dim: t.d, Means: append([]float64(nil), t.means...),
		Losses: t.losses[:len(t.losses):len(t.losses)], Evals: t.evals[:len(t.evals):len(t.evals)],
		MeanRank: math.NaN(), MAP: math.NaN(), SymMeanRank: math.NaN(), SymMAP: math.NaN()}
	if len(t.evals) > 0 {
		e := t.evals[len(t.evals)-1]
		p.Evaluated = e.Epoch == t.epoch
		p.MeanRank, p.MAP, p.SymMeanRank, p.SymMAP = e.MeanRank, e.MAP, e.SymMeanRank, e.SymMAP
	}
	dd := t.d * t.d
	p.Scales = make([]float64, t.n*dd)
	for i := 0; i < t.n; i++ {
		copy(p.Scales[i*dd:(i+1)*dd], engine.FactorProduct(t.fact[i*dd:(i+1)*dd], t.d, t.d, t.cfg.Eps))
	}
	return p
}

// evaluateNow computes the reconstruction scores of the current state on
// the input and the training relations (one computation of the scores)
// and records them in the history, once per epoch.
func (t *Trainer) evaluateNow(ctx context.Context) error {
	if n := len(t.evals); n > 0 && t.evals[n-1].Epoch == t.epoch {
		return nil
	}
	r, err := t.evaluate(ctx, []*hypGraph{t.input, t.graph})
	if err != nil {
		return err
	}
	e := Eval{Epoch: t.epoch, Loss: t.lastLoss, MeanRank: r[0].MeanRank, MAP: r[0].MAP,
		SymMeanRank: r[1].MeanRank, SymMAP: r[1].MAP, TrainSeconds: t.trainSecs}
	if len(t.input.adj) == 0 { // only self pairs were given
		e.MeanRank, e.MAP = e.SymMeanRank, e.SymMAP
	}
	t.evals = append(t.evals, e)
	return nil
}

// Evaluate evaluates the current state now (if it was not yet at this
// epoch), publishes and returns the snapshot.
func (t *Trainer) Evaluate(ctx context.Context) (*Progress, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	err := t.evaluateNow(ctx)
	p := t.snapshot()
	t.latest.Store(p)
	return p, err
}

// EvaluateOn returns the reconstruction scores of the current embedding on
// other relations (pairs of item indices).
func (t *Trainer) EvaluateOn(ctx context.Context, relations [][2]int) (Reconstruction, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	g, err := newHypGraph(t.n, relations, false)
	if err != nil {
		return Reconstruction{}, err
	}
	r, err := t.evaluate(ctx, []*hypGraph{g})
	if err != nil {
		return Reconstruction{}, err
	}
	return r[0], nil
}

func (t *Trainer) evaluate(ctx context.Context, graphs []*hypGraph) ([]Reconstruction, error) {
	if err := t.refreshCache(); err != nil {
		return nil, err
	}
	rows := t.cache.rowScorer(t.means)
	if t.n <= hypDenseRowsMax {
		var err error
		if rows, err = t.cache.denseRows(ctx, t.means, t.cfg.Workers); err != nil {
			return nil, err
		}
	}
	var nonEmpty []*hypGraph
	for _, g := range graphs {
		if len(g.adj) > 0 {
			nonEmpty = append(nonEmpty, g)
		}
	}
	if len(nonEmpty) == 0 {
		return nil, errors.New("reconstruction: no relations")
	}
	r, err := evaluateGraphs(ctx, nonEmpty, rows, t.cfg.Workers)
	if err != nil {
		return nil, err
	}
	out := make([]Reconstruction, len(graphs))
	for i, k := 0, 0; i < len(graphs); i++ {
		if len(graphs[i].adj) > 0 {
			out[i] = r[k]
			k++
		}
	}
	return out, nil
}
