package emds

import (
	"burescope/engine"
	"burescope/engine/iterate"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// PairSet is a list of weighted pairs with their target distances: the
// unit of work of the sampled fit. Pair q is (I[q], J[q]) with I != J,
// target D[q] and weight W[q].
type PairSet struct {
	I, J []int32
	D, W []float64
}

// Len returns the number of pairs.
func (ps *PairSet) Len() int { return len(ps.I) }

func (ps *PairSet) reset() {
	ps.I, ps.J, ps.D, ps.W = ps.I[:0], ps.J[:0], ps.D[:0], ps.W[:0]
}

// sortByJ reorders the pairs by J >> jBucketShift (stable counting sort,
// O(len + n >> shift)), using tmp as scratch: a block's objects I are a
// short range, so after the sort both ends of consecutive pairs are near
// in memory and the kernels' per-point reads stay in cache.
func (ps *PairSet) sortByJ(n int, tmp *PairSet, cnt []int32) []int32 {
	nb := n>>jBucketShift + 1
	if cap(cnt) < nb+1 {
		cnt = make([]int32, nb+1)
	}
	cnt = cnt[:nb+1]
	clear(cnt)
	for _, j := range ps.J {
		cnt[int(j)>>jBucketShift+1]++
	}
	for b := 0; b < nb; b++ {
		cnt[b+1] += cnt[b]
	}
	m := ps.Len()
	tmp.I, tmp.J = growI32s(tmp.I, m), growI32s(tmp.J, m)
	tmp.D, tmp.W = growF64(tmp.D, m), growF64(tmp.W, m)
	for q, j := range ps.J {
		b := int(j) >> jBucketShift
		k := cnt[b]
		cnt[b]++
		tmp.I[k], tmp.J[k], tmp.D[k], tmp.W[k] = ps.I[q], j, ps.D[q], ps.W[q]
	}
	ps.I, tmp.I = tmp.I, ps.I
	ps.J, tmp.J = tmp.J, ps.J
	ps.D, tmp.D = tmp.D, ps.D
	ps.W, tmp.W = tmp.W, ps.W
	return cnt
}

// jBucketShift: pairs are sorted by J in buckets of 256 objects.
const jBucketShift = 8

func growI32s(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

func (ps *PairSet) add(i, j int, d, w float64) {
	ps.I = append(ps.I, int32(i))
	ps.J = append(ps.J, int32(j))
	ps.D = append(ps.D, d)
	ps.W = append(ps.W, w)
}

// PairEvaluator evaluates the weighted elliptical stress
// sum_q W_q (D_q - W2(mu_I, mu_J))^2 and its gradient on an explicit pair
// list with the CPU backend's own pair kernels (the same closed forms and
// eigendecompositions as the exact path, one pair at a time), in O(n)
// memory per block. Pairs are split into a fixed number of blocks that
// depends only on the list length, each with its own accumulators, summed
// in block order: results do not depend on the thread count.
type PairEvaluator struct {
	p       Problem // N, Dim, Tau only (no distances)
	threads int
	k2      *d2Kernel
	k3      *d3Kernel
	kg      *generalKernel
	kp      *pointKernel
	acc     [][]float64
}

// pairBlocks is the number of accumulator blocks for a large pair list.
const pairBlocks = 8

// NewPairEvaluator returns an evaluator for n objects in dimension dim of
// family tau, using threads goroutines (<= 0: all cores).
func NewPairEvaluator(n, dim int, tau float64, threads int) (*PairEvaluator, error) {
	if n < 2 {
		return nil, fmt.Errorf("engine: need at least 2 objects, got %d", n)
	}
	if dim < 1 || dim > MaxDim {
		return nil, fmt.Errorf("engine: dimension %d out of range 1..%d", dim, MaxDim)
	}
	if !(tau > 0) || math.IsInf(tau, 0) {
		return nil, fmt.Errorf("engine: tau must be finite and > 0, got %v", tau)
	}
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	return &PairEvaluator{p: Problem{N: n, Dim: dim, Tau: tau}, threads: threads}, nil
}

func (e *PairEvaluator) kernel(s State) cpuKernel {
	p := &e.p
	switch {
	case s.Scales == nil:
		if e.kp == nil {
			e.kp = &pointKernel{}
		}
		e.kp.prepare(p, s)
		return e.kp
	case p.Dim == 2:
		if e.k2 == nil {
			e.k2 = &d2Kernel{}
		}
		e.k2.prepare(p, s)
		return e.k2
	case p.Dim == 3:
		if e.k3 == nil {
			e.k3 = &d3Kernel{}
		}
		e.k3.prepare(p, s)
		return e.k3
	default:
		if e.kg == nil {
			e.kg = &generalKernel{}
		}
		e.kg.prepare(p, s)
		return e.kg
	}
}

// Evaluate returns the weighted stress of the pairs at s and fills the
// non-nil slices of g (overwritten, as Backend.Evaluate does). With W the
// packed weights of an exact Problem restricted to ps (0 elsewhere) the
// result equals that Problem's on the CPU backend.
func (e *PairEvaluator) Evaluate(ctx context.Context, s State, ps *PairSet, g *Gradient) (float64, error) {
	n, d := e.p.N, e.p.Dim
	if len(s.Means) != n*d {
		return 0, fmt.Errorf("engine: state has %d mean values, want %d", len(s.Means), n*d)
	}
	if s.Scales != nil && len(s.Scales) != n*d*d {
		return 0, fmt.Errorf("engine: state has %d scale values, want %d", len(s.Scales), n*d*d)
	}
	m := ps.Len()
	if len(ps.J) != m || len(ps.D) != m || len(ps.W) != m {
		return 0, errors.New("engine: pair set slices differ in length")
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	k := e.kernel(s)
	st := k.stride()
	nb := pairBlocks
	if m < 4096*pairBlocks {
		nb = 1 + m/4096
	}
	for len(e.acc) < nb {
		e.acc = append(e.acc, nil)
	}
	stress := make([]float64, nb)
	errs := make([]error, nb)
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := min(e.threads, nb)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := &cpuWorkspace{}
			for {
				b := int(next.Add(1)) - 1
				if b >= nb {
					return
				}
				e.acc[b] = growF64(e.acc[b], soaStride(n)*st)
				acc := e.acc[b]
				clear(acc)
				q0, q1 := m*b/nb, m*(b+1)/nb
				var sum float64
				for q := q0; q < q1; q++ {
					if (q-q0)&8191 == 0 {
						if err := ctx.Err(); err != nil {
							errs[b] = err
							return
						}
					}
					i, j := int(ps.I[q]), int(ps.J[q])
					if i == j || i < 0 || j < 0 || i >= n || j >= n {
						errs[b] = fmt.Errorf("engine: pair %d is (%d, %d) for %d objects", q, i, j, n)
						return
					}
					sum += k.row(i, j, j+1, ps.D[q:q+1], ps.W[q:q+1], acc, 0, ws)
				}
				stress[b] = sum
			}
		}()
	}
	wg.Wait()
	var total float64
	for b := 0; b < nb; b++ {
		if errs[b] != nil {
			return 0, errs[b]
		}
		total += stress[b]
	}
	if g == nil || (g.Means == nil && g.Scales == nil && g.PerPoint == nil) {
		return total, nil
	}
	soa := k.soa()
	sn := soaStride(n)
	engine.ParallelRanges(n, func(lo, hi int) {
		sum := make([]float64, st)
		for i := lo; i < hi; i++ {
			clear(sum)
			for b := 0; b < nb; b++ {
				a := e.acc[b]
				for c := range sum {
					if soa {
						sum[c] += a[c*sn+i]
					} else {
						sum[c] += a[i*st+c]
					}
				}
			}
			k.finish(i, sum, g)
		}
	})
	return total, nil
}

// SampledOptions configures a sampled-pair fit (FitSampled).
type SampledOptions struct {
	Dim    int           // embedding dimension (default 2)
	Family engine.Family // zero value: Gaussian
	// Eps regularises every scale as in Options (relative to the squared
	// RMS distance; < 0: the default 0.01).
	Eps       float64
	Optimizer string  // "adam" (default), "gd" or "adagrad"
	LR        float64 // initial learning rate (0: the optimiser's default)
	// FinalLR is the learning rate of the last epoch as a fraction of LR;
	// the rate decays geometrically in between (0: the default 0.02).
	FinalLR float64
	// Epochs is the number of epochs, each one step on a fresh sample;
	// 0 means 600 up to 20,000 objects and 300 above (docs/scale.md).
	Epochs int
	Seed   int64 // seeds the samples, the neighbour search and the initial scales
	Init   string
	Points bool // fit Diracs instead of ellipses
	// K is the number of nearest neighbours per object whose pairs are in
	// every epoch's sample (default 10; 0 with a source that cannot list
	// neighbours).
	K int
	// Random is the number of random partners drawn per object and epoch
	// (default 20).
	Random int
	// EvalPairs is the size of the fixed uniform sample on which stress-1
	// is estimated (default 200,000, at most all pairs).
	EvalPairs int
	// EvalEvery evaluates the stress-1 estimate every so many epochs
	// (default 25; the last epoch is always evaluated).
	EvalEvery int
	Threads   int // goroutines (<= 0: all cores)
	// Publish, if not nil, receives a new immutable snapshot after every
	// evaluation of the stress-1 estimate (for a live view); it runs on
	// the fitting goroutine.
	Publish func(*Snapshot)
}

// DefaultSampledOptions returns the defaults of the sampled fit.
func DefaultSampledOptions() SampledOptions {
	return SampledOptions{Dim: 2, Family: engine.Gaussian(), Eps: -1, Optimizer: OptAdam, Seed: 1,
		Init: "mds", K: 10, Random: 20, EvalPairs: 200000, EvalEvery: 25}
}

// SampledAutoMin is the number of objects above which callers should fit
// a feature table or an embedding with FitSampled rather than the exact
// path: at n = 5000 the packed distances take 100 MB and an exact
// iteration evaluates 12.5 M pairs, and both grow as n^2 (docs/scale.md).
const SampledAutoMin = 5000

// DefaultSampledEpochs is the number of epochs of a sampled fit of n
// objects when SampledOptions.Epochs is 0: 600, or 300 above 200,000
// objects (each epoch costs O(n); docs/scale.md has the measurements: at
// n = 100,000 the step-size schedule of 300 epochs stalls at stress-1 0.18
// where 600 epochs settle at 0.114).
func DefaultSampledEpochs(n int) int {
	if n > 200000 {
		return 300
	}
	return 600
}

// SampledResult is the outcome of a sampled fit.
type SampledResult struct {
	// Snapshot holds the fitted means and scales (input units); its
	// Stress1 and History are estimates on the evaluation sample, its
	// ClassicalStress1 that of the initial means, PointStress1 is NaN.
	Snapshot *Snapshot
	// Stress1SE is the standard error of Snapshot.Stress1 due to the
	// evaluation sample (delta method on the ratio estimator).
	Stress1SE float64
	// EvalPairs is the number of pairs in the evaluation sample.
	EvalPairs int
	// PairsPerEpoch is the mean number of pairs evaluated per epoch.
	PairsPerEpoch float64
	// NeighborPairs is the number of distinct neighbour pairs (in every
	// epoch's sample).
	NeighborPairs int
	// Scale is the estimated RMS distance (input units).
	Scale float64
	// NeighborTime is the wall time of the neighbour search.
	NeighborTime time.Duration
	// EvalEpochs are the epochs at which History was recorded.
	EvalEpochs []int
	// HistorySE are the standard errors of History.
	HistorySE []float64
}

// sampler draws the pairs of one epoch: the fixed neighbour stratum (all
// pairs (i, j) with j among i's K nearest neighbours or i among j's,
// weight 1) plus a random stratum (each object draws Random partners
// uniformly among the others; a draw that falls in the neighbour stratum
// is dropped; weight (n-1)/(2 Random)). Every pair's expected weight is 1,
// so the epoch's weighted stress and gradient are unbiased estimates of
// the full stress and gradient (a stratified sample).
type sampler struct {
	src  PairSource
	n, r int
	knn  []int32 // n*k
	k    int
	// adj lists, for each object i, every j with (i, j) in the neighbour
	// stratum (i's neighbours and the objects listing i), sorted: the
	// rejection test of a random draw reads only i's own short list.
	adj, adjStart []int32
	tmp           []PairSet // per-block sort scratch
	cnt           [][]int32
	nbr           PairSet // neighbour stratum (fixed)
	nbStart       []int   // nbr pairs of block b: [nbStart[b], nbStart[b+1])
	seed          uint64
}

// sampleBlocks splits the objects into this many ranges for parallel,
// thread-count-independent sampling.
const sampleBlocks = 16

func (s *sampler) inKNN(i, j int) bool {
	if s.k == 0 {
		return false
	}
	for _, m := range s.adj[s.adjStart[i]:s.adjStart[i+1]] {
		if int(m) == j {
			return true
		}
	}
	return false
}

// buildAdj fills adj/adjStart from the neighbour lists.
func (s *sampler) buildAdj() {
	n, k := s.n, s.k
	cnt := make([]int32, n+1)
	for i := 0; i < n; i++ {
		for _, j := range s.knn[i*k : (i+1)*k] {
			cnt[i+1]++
			cnt[j+1]++
		}
	}
	for i := 0; i < n; i++ {
		cnt[i+1] += cnt[i]
	}
	s.adjStart = slices.Clone(cnt)
	s.adj = make([]int32, cnt[n])
	fill := cnt[:n]
	for i := 0; i < n; i++ {
		for _, j := range s.knn[i*k : (i+1)*k] {
			s.adj[fill[i]] = j
			fill[i]++
			s.adj[fill[j]] = int32(i)
			fill[j]++
		}
	}
	for i := 0; i < n; i++ {
		slices.Sort(s.adj[s.adjStart[i]:s.adjStart[i+1]])
	}
}

// epoch fills ps with the sample of epoch e (deterministic in seed, e).
func (s *sampler) epoch(e int, ps *PairSet, parts []PairSet) {
	n := s.n
	nb := min(sampleBlocks, n)
	w := float64(n-1) / (2 * float64(s.r))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for b := 0; b < nb; b++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			part := &parts[b]
			part.reset()
			for q := s.nbStart[b]; q < s.nbStart[b+1]; q++ {
				part.add(int(s.nbr.I[q]), int(s.nbr.J[q]), s.nbr.D[q], 1)
			}
			rng := rand.New(rand.NewPCG(s.seed^0x73616d706c6564, uint64(e)<<20|uint64(b)))
			lo, hi := n*b/nb, n*(b+1)/nb
			for i := lo; i < hi; i++ {
				for t := 0; t < s.r; t++ {
					j := rng.IntN(n - 1)
					if j >= i {
						j++
					}
					if s.inKNN(i, j) {
						continue
					}
					part.add(i, j, -1, w) // distance filled in below
				}
			}
			s.cnt[b] = part.sortByJ(n, &s.tmp[b], s.cnt[b])
			// Distances after the sort: rows j are read in memory order.
			for q, v := range part.D {
				if v < 0 {
					part.D[q] = s.src.Dist(int(part.I[q]), int(part.J[q]))
				}
			}
		}()
	}
	wg.Wait()
	ps.reset()
	for b := 0; b < nb; b++ {
		ps.I = append(ps.I, parts[b].I...)
		ps.J = append(ps.J, parts[b].J...)
		ps.D = append(ps.D, parts[b].D...)
		ps.W = append(ps.W, parts[b].W...)
	}
}

// newSampler builds the neighbour stratum of src.
func (s *sampler) neighborPairs() int { return s.nbr.Len() }

func newSampler(ctx context.Context, src PairSource, k, r int, seed uint64) (*sampler, error) {
	n := src.Len()
	s := &sampler{src: src, n: n, r: r, seed: seed, tmp: make([]PairSet, sampleBlocks), cnt: make([][]int32, sampleBlocks)}
	if k > 0 {
		nb, ok := src.(Neighborer)
		if !ok {
			return nil, errors.New("engine: the pair source cannot list neighbours (set K = 0)")
		}
		idx, dist, err := nb.Neighbors(ctx, k, seed)
		if err != nil {
			return nil, err
		}
		s.knn, s.k = idx, k
		s.buildAdj()
		nbk := min(sampleBlocks, n)
		s.nbStart = make([]int, nbk+1)
		for b := 0; b < nbk; b++ {
			s.nbStart[b] = s.nbr.Len()
			for i := n * b / nbk; i < n*(b+1)/nbk; i++ {
				for c := 0; c < k; c++ {
					j := int(idx[i*k+c])
					// Keep (i, j) once: from i's list unless j also lists i
					// and j < i (then j's list keeps it).
					if j < i && s.listed(j, i) {
						continue
					}
					s.nbr.add(i, j, dist[i*k+c], 1)
				}
			}
		}
		s.nbStart[nbk] = s.nbr.Len()
	} else {
		s.nbStart = make([]int, min(sampleBlocks, n)+1)
	}
	return s, nil
}

func (s *sampler) listed(i, j int) bool {
	for _, m := range s.knn[i*s.k : (i+1)*s.k] {
		if int(m) == j {
			return true
		}
	}
	return false
}

// evalSample draws m uniform random pairs (with replacement, i != j).
func evalSample(src PairSource, m int, seed uint64) *PairSet {
	n := src.Len()
	total := n * (n - 1) / 2
	ps := &PairSet{}
	if total <= m {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				ps.add(i, j, 0, 1)
			}
		}
	} else {
		rng := rand.New(rand.NewPCG(seed^0x6576616c, 7))
		for q := 0; q < m; q++ {
			i := rng.IntN(n)
			j := rng.IntN(n - 1)
			if j >= i {
				j++
			}
			ps.add(i, j, 0, 1)
		}
	}
	engine.ParallelRanges(ps.Len(), func(lo, hi int) {
		for q := lo; q < hi; q++ {
			ps.D[q] = src.Dist(int(ps.I[q]), int(ps.J[q]))
		}
	})
	return ps
}

// ratioStress1 returns the stress-1 estimate sqrt(sum r^2 / sum D^2) of
// per-pair squared residuals a and squared targets b, and its standard
// error by the delta method (zero when the sample is all pairs).
func ratioStress1(a, b []float64, exhaustive bool) (s1, se float64) {
	m := float64(len(a))
	var sa, sb float64
	for q := range a {
		sa += a[q]
		sb += b[q]
	}
	if !(sb > 0) {
		return 0, 0
	}
	r := sa / sb
	s1 = math.Sqrt(r)
	if exhaustive || len(a) < 2 || s1 == 0 {
		return s1, 0
	}
	var v float64
	for q := range a {
		z := a[q] - r*b[q]
		v += z * z
	}
	v /= m - 1
	seR := math.Sqrt(v/m) / (sb / m)
	return s1, seR / (2 * s1)
}

// FitSampled fits an elliptical (or point) MDS embedding of the pair
// source by stochastic, sampled-pair optimisation (docs/scale.md): each
// epoch draws a fresh stratified sample of pairs whose weighted stress is
// an unbiased estimate of the full stress, evaluates it and its gradient
// with the exact path's pair kernels, and takes one optimiser step with a
// geometrically decaying learning rate. Memory is O(n d^2 + sample); the
// n(n-1)/2 distances are never stored. progress, if not nil, is called
// after each evaluation of the stress-1 estimate (epoch, estimate, SE).
// The result is deterministic for a seed and independent of Threads.
func FitSampled(ctx context.Context, src PairSource, opt SampledOptions, progress func(epoch int, s1, se float64)) (*SampledResult, error) {
	if src == nil || src.Len() < 2 {
		return nil, errors.New("engine: sampled fit needs a pair source with at least 2 objects")
	}
	n := src.Len()
	opt, err := opt.withDefaults(n)
	if err != nil {
		return nil, err
	}
	seed := uint64(opt.Seed)
	own, ownSampling := src.(ownSampler)
	var ev *PairSet
	var evBlocks []int
	if ownSampling {
		ev, evBlocks = own.evalSample(opt.EvalPairs, seed)
	} else {
		ev = evalSample(src, opt.EvalPairs, seed)
	}
	exhaustive := ev.Len() == n*(n-1)/2 && opt.EvalPairs >= n*(n-1)/2
	var sd2 float64
	for _, v := range ev.D {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return nil, fmt.Errorf("engine: pair source distance %v (want finite, >= 0)", v)
		}
		sd2 += v * v
	}
	scale := math.Sqrt(sd2 / float64(ev.Len()))
	if !(scale > 0) {
		scale = 1
	}
	t0 := time.Now()
	var smp epochSampler
	if ownSampling {
		smp = own.epochSampler(opt.Random, seed)
	} else {
		s, err := newSampler(ctx, src, opt.K, opt.Random, seed)
		if err != nil {
			return nil, err
		}
		smp = s
	}
	knnTime := time.Since(t0)
	pe, err := NewPairEvaluator(n, opt.Dim, opt.Family.Tau, opt.Threads)
	if err != nil {
		return nil, err
	}
	d := opt.Dim
	nd := n * d
	size := nd
	if !opt.Points {
		size += n * d * d
	}
	x := make([]float64, size)
	rng := rand.New(rand.NewPCG(seed, 0x6275726573636f70))
	var init []float64
	if ini, ok := src.(Initializer); ok && opt.Init != "random" {
		if init, err = ini.InitMeans(d); err != nil {
			return nil, err
		}
		for k := range init {
			x[k] = init[k] / scale
		}
	} else {
		copy(x, randomMeans(rng, n, d))
	}
	if !opt.Points {
		dof := WishartDOF(d)
		for i := 0; i < n; i++ {
			wishartFactor(rng, x[nd+i*d*d:nd+(i+1)*d*d], d, dof, initScale)
		}
	}
	unit := 1.0
	if sc, ok := src.(Scaled); ok {
		unit = sc.Unit()
	}
	f := &sampledFit{n: n, d: d, scale: scale, unit: unit, eps: opt.Eps, points: opt.Points, x: x, pe: pe}
	f.alloc()
	// Objective normalisation as in the exact path: stress * n / (2 N)
	// with N = n(n-1)/2 pairs of unit weight.
	fs := 1 / float64(n-1)
	upd, err := newUpdater(opt.Optimizer, size)
	if err != nil {
		return nil, err
	}
	res := &SampledResult{EvalPairs: ev.Len(), NeighborPairs: smp.neighborPairs(), Scale: scale * unit, NeighborTime: knnTime}
	a := make([]float64, ev.Len())
	b := make([]float64, ev.Len())
	var hist []float64
	evalNow := func(epoch int) (float64, float64, error) {
		f.state()
		if err := f.residuals(ctx, ev, a); err != nil {
			return 0, 0, err
		}
		for q, v := range ev.D {
			b[q] = v * v
		}
		s1, se := ratioStress1(a, b, exhaustive)
		if evBlocks != nil {
			s1, se = clusterStress1(a, b, evBlocks)
		}
		res.EvalEpochs = append(res.EvalEpochs, epoch)
		res.HistorySE = append(res.HistorySE, se)
		if progress != nil {
			progress(epoch, s1, se)
		}
		if opt.Publish != nil {
			h := append(hist[:len(hist):len(hist)], s1)
			c1 := s1
			if len(hist) > 0 {
				c1 = hist[0]
			}
			if opt.Init == "random" {
				c1 = math.NaN()
			}
			opt.Publish(f.snapshot(opt, epoch, h, c1))
		}
		return s1, se, nil
	}
	s1, _, err := evalNow(0)
	if err != nil {
		return nil, err
	}
	classical1 := s1
	if opt.Init == "random" {
		classical1 = math.NaN()
	}
	hist = append(hist, s1)
	m := &sampledMethod{f: f, opt: opt, smp: smp, upd: upd, fs: fs, ps: &PairSet{},
		parts: make([]PairSet, sampleBlocks), good: make([]float64, size), lrScale: 1,
		hist: hist, classical1: classical1}
	m.eval = func(epoch int) (float64, error) {
		hist = m.hist
		s1, _, err := evalNow(epoch)
		return s1, err
	}
	// Snapshots after evaluations only: a sampled state between two
	// evaluations has no stress-1 of its own, and the run's last epoch is
	// always evaluated (iterate.Run's closing snapshot repeats it).
	var publish func(*Snapshot)
	userPublish := opt.Publish
	if userPublish != nil {
		opt.Publish = nil // evalNow published the initial state; iterate.Run the rest
		m.opt.Publish = nil
		published := len(hist)
		publish = func(sn *Snapshot) {
			if len(sn.History) > published {
				published = len(sn.History)
				userPublish(sn)
			}
		}
	}
	runErr := iterate.Run[*Snapshot](ctx, m, time.Duration(math.MaxInt64), publish)
	opt.Publish = userPublish // a closing evaluation after a cancellation is published
	hist, epochs, pairsTotal := m.hist, m.epochs, m.pairsTotal
	if runErr != nil && !errors.Is(runErr, context.Canceled) && !errors.Is(runErr, context.DeadlineExceeded) {
		return nil, runErr
	}
	if epochs > 0 && res.EvalEpochs[len(res.EvalEpochs)-1] != epochs {
		if s1, _, err = evalNow(epochs); err == nil {
			hist = append(hist, s1)
		}
	}
	if len(res.HistorySE) > len(hist) { // a failed final evaluation
		res.HistorySE = res.HistorySE[:len(hist)]
		res.EvalEpochs = res.EvalEpochs[:len(hist)]
	}
	if epochs > 0 {
		res.PairsPerEpoch = pairsTotal / float64(epochs)
	}
	res.Stress1SE = res.HistorySE[len(res.HistorySE)-1]
	res.Snapshot = f.snapshot(opt, epochs, hist, classical1)
	return res, runErr
}

// sampledMethod is the epoch loop of FitSampled as an iterate.Method:
// one epoch a step (a fresh pair sample, one gradient step; a step whose
// stress or gradient is not finite is undone and the learning rate
// halved), with a stress-1 evaluation every EvalEvery epochs and at the
// last.
type sampledMethod struct {
	sync.Mutex
	f          *sampledFit
	opt        SampledOptions
	smp        epochSampler
	upd        *updater
	fs         float64
	ps         *PairSet
	parts      []PairSet
	good       []float64
	lrScale    float64
	e, epochs  int // next epoch; epochs whose step was kept or undone
	pairsTotal float64
	hist       []float64
	classical1 float64
	eval       func(epoch int) (float64, error)
}

func (m *sampledMethod) Step(ctx context.Context) (done, evaluated bool, err error) {
	f, opt, e := m.f, m.opt, m.e
	if e >= opt.Epochs {
		return true, false, nil
	}
	m.e++
	m.smp.epoch(e, m.ps, m.parts)
	m.pairsTotal += float64(m.ps.Len())
	f.state()
	v, err := f.pe.Evaluate(ctx, f.st, m.ps, &f.grad)
	if err != nil {
		return false, false, err
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || !engine.Finite(f.grad.Means) || (f.grad.Scales != nil && !engine.Finite(f.grad.Scales)) {
		copy(f.x, m.good)
		m.lrScale *= 0.5
		return false, false, nil
	}
	copy(m.good, f.x)
	f.paramGradient(m.fs)
	lr := opt.LR * m.lrScale * math.Pow(opt.FinalLR, float64(e)/float64(max(1, opt.Epochs-1)))
	m.upd.step(f.x, f.pg, lr)
	m.epochs = e + 1
	if m.epochs%opt.EvalEvery == 0 || m.epochs == opt.Epochs {
		s1, err := m.eval(m.epochs)
		if err != nil {
			return false, false, err
		}
		m.hist = append(m.hist, s1)
		return false, true, nil
	}
	return false, false, nil
}

func (m *sampledMethod) Snapshot() *Snapshot {
	return m.f.snapshot(m.opt, m.epochs, m.hist, m.classical1)
}

// sampledFit holds the parameters and buffers of a sampled fit.
type sampledFit struct {
	n, d   int
	scale  float64 // RMS distance, in the source's units
	unit   float64 // true units per source unit (Scaled)
	eps    float64
	points bool
	x, pg  []float64
	st     State
	grad   Gradient
	pe     *PairEvaluator
}

func (f *sampledFit) alloc() {
	n, d := f.n, f.d
	f.pg = make([]float64, len(f.x))
	f.st.Means = make([]float64, n*d)
	f.grad.Means = make([]float64, n*d)
	f.grad.PerPoint = make([]float64, n)
	if !f.points {
		f.st.Scales = make([]float64, n*d*d)
		f.grad.Scales = make([]float64, n*d*d)
	}
}

// state converts the parameters (internal units, factors L) to the
// evaluator's state in input units: means x s, scales (L L^T + eps I) s^2.
func (f *sampledFit) state() {
	n, d := f.n, f.d
	sc := f.scale
	s2 := sc * sc
	for k := range f.st.Means {
		f.st.Means[k] = f.x[k] * sc
	}
	if f.points {
		return
	}
	dd := d * d
	for i := 0; i < n; i++ {
		scaleFromFactor(f.st.Scales[i*dd:(i+1)*dd], f.x[n*d+i*dd:n*d+(i+1)*dd], d, StructureFull, f.eps, s2)
	}
}

// paramGradient converts the evaluator's gradient (input units) into the
// gradient of fs * stress_internal with respect to the parameters, as the
// exact optimiser does.
func (f *sampledFit) paramGradient(fs float64) {
	n, d := f.n, f.d
	nd := n * d
	s := f.scale
	for k := 0; k < nd; k++ {
		f.pg[k] = fs / s * f.grad.Means[k]
	}
	if f.points {
		return
	}
	dd := d * d
	// Internal stress = stress / s^2 and C_input = s^2 C_internal, so the
	// scale gradient in internal units equals the input-unit one.
	for i := 0; i < n; i++ {
		l := f.x[nd+i*dd : nd+(i+1)*dd]
		gc := f.grad.Scales[i*dd : (i+1)*dd]
		gl := f.pg[nd+i*dd : nd+(i+1)*dd]
		for r := 0; r < d; r++ {
			for q := 0; q < d; q++ {
				var v float64
				for k := 0; k < d; k++ {
					v += gc[r*d+k] * l[k*d+q]
				}
				gl[r*d+q] = 2 * fs * v
			}
		}
	}
}

// residuals fills a[q] with the squared residual (D_q - W_q)^2 of every
// pair of ps at the current state (f.state() must have run), evaluated by
// the same pair kernel as the fit (unit weight; the accumulators it also
// fills are scratch).
func (f *sampledFit) residuals(ctx context.Context, ps *PairSet, a []float64) error {
	k := f.pe.kernel(f.st)
	st := k.stride()
	one := []float64{1}
	var errMu sync.Mutex
	var firstErr error
	engine.ParallelRanges(ps.Len(), func(lo, hi int) {
		ws := &cpuWorkspace{}
		acc := make([]float64, soaStride(f.n)*st)
		for q := lo; q < hi; q++ {
			if (q-lo)&8191 == 0 && ctx.Err() != nil {
				errMu.Lock()
				firstErr = ctx.Err()
				errMu.Unlock()
				return
			}
			a[q] = k.row(int(ps.I[q]), int(ps.J[q]), int(ps.J[q])+1, ps.D[q:q+1], one, acc, 0, ws)
		}
	})
	return firstErr
}

// snapshot builds the result snapshot (input units).
func (f *sampledFit) snapshot(opt SampledOptions, epochs int, hist []float64, classical1 float64) *Snapshot {
	n, d := f.n, f.d
	s := f.scale
	last := hist[len(hist)-1]
	f.state()
	sn := &Snapshot{
		Iter: epochs, N: n, Dim: d, Family: opt.Family,
		Means:            append([]float64(nil), f.st.Means...),
		Stress1:          last,
		RawRatio:         last * last,
		Stress:           last * last * s * s * float64(n) * float64(n-1) / 2,
		PerPoint:         append([]float64(nil), f.grad.PerPoint...),
		History:          hist,
		Converged:        false,
		Backend:          "cpu-sampled",
		ClassicalStress1: classical1,
		PointStress1:     math.NaN(),
	}
	if !f.points {
		sn.Scales = append([]float64(nil), f.st.Scales...)
	} else {
		sn.PointStress1 = last
	}
	return RescaleSnapshot(sn, f.unit)
}

// withDefaults returns opt for a source of n objects with every zero
// value replaced by its default, or an error naming the first setting out
// of range: the one place the sampled fit's options are checked (the
// settings it shares with the exact fit by modelDefaults).
func (opt SampledOptions) withDefaults(n int) (SampledOptions, error) {
	if err := modelDefaults(&opt.Dim, &opt.Family, &opt.Optimizer, &opt.Eps, &opt.LR, opt.Init); err != nil {
		return opt, err
	}
	if opt.FinalLR == 0 {
		opt.FinalLR = 0.02
	}
	if !(opt.FinalLR > 0 && opt.FinalLR <= 1) {
		return opt, fmt.Errorf("engine: final learning-rate fraction %v (want in (0, 1])", opt.FinalLR)
	}
	if opt.Epochs < 0 {
		return opt, fmt.Errorf("engine: %d epochs (want >= 0)", opt.Epochs)
	}
	if opt.Epochs == 0 {
		opt.Epochs = DefaultSampledEpochs(n)
	}
	if opt.K < 0 || opt.K >= n {
		return opt, fmt.Errorf("engine: %d neighbours for %d objects (want 0..%d)", opt.K, n, n-1)
	}
	if opt.Random < 1 {
		return opt, fmt.Errorf("engine: %d random partners per object (want >= 1)", opt.Random)
	}
	if opt.EvalPairs <= 0 {
		opt.EvalPairs = 200000
	}
	if opt.EvalEvery <= 0 {
		opt.EvalEvery = 25
	}
	return opt, nil
}
