package emds

import (
	"burescope/engine"
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

// Options configures an elliptical-MDS fit. DefaultOptions gives values
// that fit data of any scale and size without tuning.
type Options struct {
	Dim    int           // embedding dimension d, 1..16 (default 2)
	Family engine.Family // elliptical family; the zero value means Gaussian
	// Eps regularises every scale: C = L L^T + Eps*s^2 I, where s is the
	// RMS of the input distances, so Eps is relative to the data's scale
	// (0.01: the smallest ellipse has a standard deviation of 10% of the
	// RMS distance under the Gaussian family). It keeps every scale
	// definite, so the transport maps and gradients exist. Eps < 0 means
	// the default 0.01; 0 disables it.
	Eps       float64
	Optimizer string  // "adam" (default), "gd" or "adagrad"
	LR        float64 // learning rate; 0 = the optimiser's default
	MaxIter   int     // iterations for Run; <= 0 means no limit
	// Tol stops when the stress improved by less than this fraction over
	// the last 20 iterations (0 disables the rule).
	Tol           float64
	Seed          int64             // seeds the initial scales (and random means)
	Init          string            // "mds" (classical MDS means, default) or "random"
	InitEmbedding *engine.Embedding // initial state in input units (covariances kept across families); overrides Init
	Points        bool              // fit Diracs (point MDS) instead of ellipses
	Weights       []float64         // packed pair weights, nil = all 1
	// Structure restricts the scales: StructureFull ("" or "full": any
	// PSD matrix), StructureDiagonal (axis-aligned ellipses),
	// StructureSpherical (circles, C = c I) or StructurePoints (the same
	// as Points). The eps regularisation is added in every case.
	Structure string
	// ScaleBudget is lambda >= 0 in the penalty
	// lambda * (2 W / n) * sum_i tr(C_i) added to the stress, where W is
	// the sum of the pair weights (W = n(n-1)/2 without weights, so the
	// penalty is lambda (n-1) sum_i tr(C_i) = lambda sum_{i<j} (tr C_i +
	// tr C_j), the trace part of sum_{i<j} W2_ij^2). C is in input units
	// squared, so lambda is unit-free, and the factor makes it comparable
	// across n: useful values are about 0.001 to 0.1. Larger values shrink
	// the scales and let the means carry more of the distances. 0
	// (default) is plain elliptical MDS.
	ScaleBudget float64
}

// Covariance structures of Options.Structure.
const (
	StructureFull      = "full"
	StructureDiagonal  = "diagonal"
	StructureSpherical = "spherical"
	StructurePoints    = "points"
)

// Structures lists the accepted Options.Structure values.
var Structures = []string{StructureFull, StructureDiagonal, StructureSpherical, StructurePoints}

// DefaultEps is the default regularisation relative to the squared RMS
// distance of the data.
const DefaultEps = 0.01

// initScale is the expected initial scale kappa*s^2*I: the Wishart(4)
// scales start small next to the data so the classical-MDS means, not
// the random shapes, dominate the first iterations.
const initScale = 0.01

// tolWindow is the number of iterations the tolerance rule looks back.
const tolWindow = 20

// DefaultOptions returns the defaults: d = 2, Gaussian, eps 0.01, Adam with
// its default rate, 1000 iterations, tolerance 1e-7, seed 1, classical-MDS
// initialisation.
func DefaultOptions() Options {
	return Options{Dim: 2, Family: engine.Gaussian(), Eps: -1, Optimizer: OptAdam, MaxIter: 1000, Tol: 1e-7, Seed: 1, Init: "mds"}
}

// Optimizer fits an elliptical (or point) MDS embedding step by step.
// Step and Run may be called from one goroutine at a time; Latest may be
// called from any goroutine at any time (it never blocks). Reset and
// Jitter may be called from another goroutine: they wait for the current
// iteration to finish.
type Optimizer struct {
	mu   sync.Mutex
	opt  Options
	prob *NormalizedProblem
	b    Backend
	n, d int
	eps  float64 // internal units
	fs   float64 // objective scale: optimisers see fs * stress
	unit float64 // input units per stored unit of prob (NormalizeDistances)

	classical []float64 // classical MDS means (internal units)
	x, xGood  []float64 // parameters: n*d means then n*d*d factors
	pg        []float64 // parameter gradient
	inMeans   []float64 // means in input units (the backend's state)
	st        State
	grad      Gradient
	upd       *updater
	updGood   *updater
	lrScale   float64
	lr        float64

	iter      int
	fGood     float64 // objective (stress + budget penalty), internal units
	stress    float64 // stress of the last evaluation, internal units
	sGood     float64 // stress at xGood, internal units
	perPoint  []float64
	history   []float64
	converged bool
	rollbacks int
	rng       *rand.Rand

	classical1 float64 // NaN until ensureClassical
	// classicalSet says that classical1 was computed.
	classicalSet bool
	point1       atomic.Uint64 // math.Float64bits of PointStress1 (NaN = not computed)
	pointMeans   []float64     // the point-MDS baseline's means, input units (nil = not computed)
	latest       atomic.Pointer[Snapshot]
	budget       atomic.Int64 // MaxIter, changeable while running (SetMaxIter)
}

// NewOptimizer prepares a fit of n objects with packed distances dist (in
// the input's units) on backend b, evaluates the initial state and
// publishes it as the first snapshot.
func NewOptimizer(n int, dist []float64, opt Options, b Backend) (*Optimizer, error) {
	return newOptimizer(n, dist, opt, b, nil)
}

// Prepared is a fit made ready up to its backend: options checked and
// defaulted, distances normalised and the classical-MDS start computed.
// It needs no backend, so an app can prepare the fit while it opens one
// (a GL probe waits for its UI loop); NewOptimizer finishes it.
type Prepared struct {
	n         int
	opt       Options
	prob      *NormalizedProblem
	classical []float64
	unit      float64 // input units per stored unit (NormalizeDistances)
}

// Prepare checks opt and does the backend-free part of NewOptimizer for
// n objects with packed distances dist: normalisation and classical MDS.
func Prepare(n int, dist []float64, opt Options) (*Prepared, error) {
	return prepare(n, dist, opt, nil)
}

// NewOptimizer finishes a prepared fit on backend b (as the package's
// NewOptimizer does with the same arguments). A Prepared is used once.
func (p *Prepared) NewOptimizer(b Backend) (*Optimizer, error) {
	if b == nil {
		return nil, errors.New("engine: nil backend")
	}
	return p.build(b)
}

// newOptimizer is NewOptimizer with the classical-MDS means (internal
// units) already known, or nil to compute them.
func newOptimizer(n int, dist []float64, opt Options, b Backend, classical []float64) (*Optimizer, error) {
	if b == nil {
		return nil, errors.New("engine: nil backend")
	}
	p, err := prepare(n, dist, opt, classical)
	if err != nil {
		return nil, err
	}
	return p.build(b)
}

// prepare is Prepare with the classical-MDS means (internal units)
// already known, or nil to compute them.
func prepare(n int, dist []float64, opt Options, classical []float64) (*Prepared, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if n < 2 {
		return nil, fmt.Errorf("engine: need at least 2 objects, got %d", n)
	}
	// Distances near the float64 limits are fitted in units of their
	// largest value, so that no square or sum of squares on the way under-
	// or overflows; snapshots are published in the input's units. Every
	// entrance (app, command line, exact, sampled) comes through here.
	dist, unit := NormalizeDistances(dist)
	if unit != 1 && opt.InitEmbedding != nil {
		opt.InitEmbedding = ScaleEmbedding(opt.InitEmbedding, 1/unit)
	}
	prob, err := NewProblem(n, opt.Dim, dist, opt.Weights, opt.Family)
	if err != nil {
		return nil, err
	}
	if classical == nil {
		classical, err = ClassicalMDS(n, opt.Dim, prob.Dist)
		if err != nil {
			return nil, err
		}
		for k := range classical {
			classical[k] /= prob.Scale
		}
	}
	return &Prepared{n: n, opt: opt, prob: prob, classical: classical, unit: unit}, nil
}

// build loads the prepared problem on b, evaluates the initial state and
// publishes it as the first snapshot.
func (p *Prepared) build(b Backend) (*Optimizer, error) {
	n, opt, prob := p.n, p.opt, p.prob
	var err error
	if err := b.Load(prob.Problem); err != nil {
		return nil, fmt.Errorf("engine: backend %s: %w", b.Name(), err)
	}
	d := opt.Dim
	o := &Optimizer{opt: opt, prob: prob, b: b, n: n, d: d, eps: opt.Eps, unit: p.unit}
	o.budget.Store(int64(opt.MaxIter))
	o.point1.Store(math.Float64bits(math.NaN()))
	var sw float64
	if opt.Weights == nil {
		sw = float64(n * (n - 1) / 2)
	} else {
		for _, w := range opt.Weights {
			sw += w
		}
	}
	o.fs = 1
	if sw > 0 {
		o.fs = float64(n) / (2 * sw)
	}
	size := n * d
	if !opt.Points {
		size += n * d * d
		o.st.Scales = make([]float64, n*d*d)
		o.grad.Scales = make([]float64, n*d*d)
	}
	o.x = make([]float64, size)
	o.xGood = make([]float64, size)
	o.pg = make([]float64, size)
	o.inMeans = make([]float64, n*d)
	o.st.Means = o.inMeans
	o.grad.Means = make([]float64, n*d)
	o.grad.PerPoint = make([]float64, n)
	o.perPoint = make([]float64, n)
	if o.upd, err = newUpdater(opt.Optimizer, size); err != nil {
		return nil, err
	}
	o.updGood, _ = newUpdater(opt.Optimizer, size)
	o.classical = p.classical
	// The classical-MDS reference stress costs one more evaluation of all
	// pairs: it is left to the first Step or Run (ensureClassical), so
	// that the first snapshot (an app's first frame) does not wait for it.
	o.classical1 = math.NaN()
	if err := o.reset(opt.Seed); err != nil {
		return nil, err
	}
	return o, nil
}

// Problem returns the normalised problem the optimiser fits.
func (o *Optimizer) Problem() *NormalizedProblem { return o.prob }

// Options returns the options in effect (defaults filled in; Seed is the
// seed of the last Reset). It waits for the current iteration.
func (o *Optimizer) Options() Options {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.opt
}

// Rollbacks returns how many times a diverging step was undone.
func (o *Optimizer) Rollbacks() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.rollbacks
}

// Latest returns the most recently published snapshot (never nil after
// NewOptimizer). It does not block.
func (o *Optimizer) Latest() *Snapshot { return o.latest.Load() }

// Reset starts the fit again from a fresh initial state drawn with seed,
// clearing the history, and publishes the initial snapshot.
func (o *Optimizer) Reset(seed int64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.reset(seed)
}

func (o *Optimizer) reset(seed int64) error {
	n, d := o.n, o.d
	o.opt.Seed = seed
	o.rng = rand.New(rand.NewPCG(uint64(seed), 0x6275726573636f70))
	means := o.x[:n*d]
	if o.opt.InitEmbedding != nil {
		e := o.opt.InitEmbedding
		if e.Len() != n || e.Dim != d || len(e.Means) != n*d || len(e.Scales) != n*d*d {
			return fmt.Errorf("engine: initial embedding has %d items in dimension %d, want %d in dimension %d", e.Len(), e.Dim, n, d)
		}
		s := o.prob.Scale
		for k := range means {
			means[k] = e.Means[k] / s
		}
		if !o.opt.Points {
			// Keep the covariances tau * scale: an embedding of another
			// family (e.g. gaussian into a uniform fit) starts from the
			// same measures' covariances, not from the same numbers.
			ratio := 1.0
			if e.Family.Tau > 0 && o.opt.Family.Tau > 0 {
				ratio = e.Family.Tau / o.opt.Family.Tau
			}
			c := make([]float64, d*d)
			for i := 0; i < n; i++ {
				for k := range c {
					c[k] = ratio * e.Scales[i*d*d+k] / (s * s)
				}
				if err := factorFromScale(o.x[n*d+i*d*d:n*d+(i+1)*d*d], c, d, o.eps); err != nil {
					return fmt.Errorf("engine: initial embedding item %d: %w", i, err)
				}
			}
		}
	} else {
		if o.opt.Init == "random" {
			copy(means, randomMeans(o.rng, n, d))
		} else {
			copy(means, o.classical)
		}
		if !o.opt.Points {
			dof := WishartDOF(d)
			for i := 0; i < n; i++ {
				wishartFactor(o.rng, o.x[n*d+i*d*d:n*d+(i+1)*d*d], d, dof, initScale)
			}
		}
	}
	if !o.opt.Points {
		for i := 0; i < n; i++ {
			projectFactor(o.x[n*d+i*d*d:n*d+(i+1)*d*d], d, o.opt.Structure)
		}
	}
	for k, v := range o.x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return o.nonFiniteState(k, v)
		}
	}
	o.upd.reset()
	o.updGood.reset()
	o.lr = o.opt.LR
	o.lrScale = 1
	o.iter = 0
	o.history = nil
	o.converged = false
	o.fGood = math.Inf(1)
	f, err := o.evaluate(context.Background())
	if err != nil {
		return err
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		// Name the item furthest out: its distances are the likeliest
		// to overflow.
		far, farNorm := -1, 0.0
		for i := 0; i < o.n; i++ {
			var m float64
			for _, v := range o.inMeans[i*o.d : (i+1)*o.d] {
				m = math.Max(m, math.Abs(v))
			}
			if far < 0 || !(m <= farNorm) {
				far, farNorm = i, m
			}
		}
		if far >= 0 {
			return fmt.Errorf("engine: stress of the initial state is %v: item %d has the largest mean (max |coordinate| %g; data scale %g): distances or an initial embedding too large or too small for float64", f, far, farNorm, o.prob.Scale)
		}
		return fmt.Errorf("engine: stress of the initial state is %v (data scale %g; distances or an initial embedding too large or too small for float64)", f, o.prob.Scale)
	}
	o.accept(f)
	o.converged = o.checkConverged()
	o.latest.Store(o.snapshot())
	return nil
}

// Jitter perturbs the current state: means by scale times the RMS
// distance times N(0, 1) noise, factors by a tenth of that. It resets the
// optimiser's moments and the convergence flag, evaluates the new state
// (appending it to the history) and publishes it. A perturbation whose
// stress is not finite is undone.
func (o *Optimizer) Jitter(scale float64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !(scale > 0) || math.IsInf(scale, 0) {
		return
	}
	nd := o.n * o.d
	for k := range o.x {
		f := scale
		if k >= nd {
			f = 0.1 * scale
		}
		o.x[k] = o.xGood[k] + f*o.rng.NormFloat64()
	}
	f, err := o.evaluate(context.Background())
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		copy(o.x, o.xGood) // pg and perPoint still belong to xGood
		return
	}
	o.upd.reset()
	o.lrScale = 1
	o.converged = false
	o.accept(f)
	o.latest.Store(o.snapshot())
}

// nonFiniteState describes a non-finite initial parameter k (a mean
// coordinate or a scale factor entry) with its item.
func (o *Optimizer) nonFiniteState(k int, v float64) error {
	n, d := o.n, o.d
	if k < n*d {
		return fmt.Errorf("engine: initial state is not finite: item %d's mean coordinate %d is %v (data scale %g)", k/d, k%d, v, o.prob.Scale)
	}
	k -= n * d
	return fmt.Errorf("engine: initial state is not finite: item %d's scale entry %d is %v (data scale %g)", k/(d*d), k%(d*d), v, o.prob.Scale)
}

// evaluate computes the stress and gradient at o.x into o.grad. The
// backend works in input units: the state is scaled up by s (means) and
// s^2 (scales) and the returned stress is converted back to internal
// units (divided by s^2). o.grad stays in input units.
func (o *Optimizer) evaluate(ctx context.Context) (float64, error) {
	n, d := o.n, o.d
	sc := o.prob.Scale
	s2 := sc * sc
	for k := range o.inMeans {
		o.inMeans[k] = o.x[k] * sc
	}
	var trace float64
	if !o.opt.Points {
		dd := d * d
		for i := 0; i < n; i++ {
			c := o.st.Scales[i*dd : (i+1)*dd]
			scaleFromFactor(c, o.x[n*d+i*dd:n*d+(i+1)*dd], d, o.opt.Structure, o.eps, s2)
			trace += engine.Trace(c, d)
		}
	}
	v, err := o.b.Evaluate(ctx, o.st, &o.grad)
	o.stress = v / s2
	if o.opt.ScaleBudget > 0 && !o.opt.Points {
		// Penalty (lambda / fs) sum_i tr(C_i) in input units, i.e.
		// lambda sum_{i<j} w_ij (tr C_i + tr C_j) unweighted-equivalent:
		// (n-1) lambda sum_i tr C_i without weights. Its gradient with
		// respect to every C_i is (lambda / fs) I.
		lam := o.opt.ScaleBudget / o.fs
		v += lam * trace
		for i := 0; i < n; i++ {
			for r := 0; r < d; r++ {
				o.grad.Scales[i*d*d+r*d+r] += lam
			}
		}
	}
	return v / s2, err
}

// scaleFromFactor writes s2 * (C(L) + eps I) into c, where C(L) is L L^T
// for the full structure, diag(L_rr^2) for the diagonal one and L_00^2 I
// for the spherical one.
func scaleFromFactor(c, l []float64, d int, structure string, eps, s2 float64) {
	switch structure {
	case StructureDiagonal, StructureSpherical:
		clear(c[:d*d])
		for r := 0; r < d; r++ {
			v := l[r*d+r]
			if structure == StructureSpherical {
				v = l[0]
			}
			c[r*d+r] = (v*v + eps) * s2
		}
		return
	}
	for r := 0; r < d; r++ {
		for q := r; q < d; q++ {
			var s float64
			for k := 0; k < d; k++ {
				s += l[r*d+k] * l[q*d+k]
			}
			c[r*d+q] = s * s2
			c[q*d+r] = s * s2
		}
		c[r*d+r] += eps * s2
	}
}

// projectFactor makes the factor l fit a structure, keeping its scale:
// diagonal keeps the root of each diagonal entry of L L^T, spherical puts
// the root of the mean diagonal entry in L_00; other entries become 0.
func projectFactor(l []float64, d int, structure string) {
	if structure != StructureDiagonal && structure != StructureSpherical {
		return
	}
	diag := make([]float64, d)
	var mean float64
	for r := 0; r < d; r++ {
		for k := 0; k < d; k++ {
			diag[r] += l[r*d+k] * l[r*d+k]
		}
		mean += diag[r] / float64(d)
	}
	clear(l[:d*d])
	if structure == StructureSpherical {
		l[0] = math.Sqrt(mean)
		return
	}
	for r := 0; r < d; r++ {
		l[r*d+r] = math.Sqrt(diag[r])
	}
}

// accept records the evaluated state x as the last good one.
func (o *Optimizer) accept(f float64) {
	o.fGood = f
	o.sGood = o.stress
	copy(o.xGood, o.x)
	o.updGood.copyFrom(o.upd)
	copy(o.perPoint, o.grad.PerPoint)
	o.paramGradient()
	o.history = append(o.history, NewStressReport(o.prob, o.stress).Stress1)
}

// divergence factor: a step that multiplies the stress by more than this
// (or makes it NaN/Inf) is undone. Plain GD undoes any increase.
const divergeFactor = 1.5

// iterate performs one attempt: step from the last accepted state with
// the gradient computed there, evaluate the new state, then accept it (a
// new iteration) or roll back to the accepted state with half the step.
// Invariant between calls: x == xGood, pg is the gradient at xGood and
// updGood the optimiser state that produced it.
func (o *Optimizer) iterate(ctx context.Context) error {
	o.upd.step(o.x, o.pg, o.lr*o.lrScale)
	f, err := o.evaluate(ctx)
	if err != nil {
		copy(o.x, o.xGood)
		o.upd.copyFrom(o.updGood)
		return err
	}
	limit := divergeFactor * o.fGood
	if o.opt.Optimizer == OptGD {
		limit = o.fGood * (1 + 1e-12)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f > limit || !engine.Finite(o.grad.Means) || (o.grad.Scales != nil && !engine.Finite(o.grad.Scales)) {
		o.rollbacks++
		copy(o.x, o.xGood)
		o.upd.copyFrom(o.updGood)
		o.lrScale *= 0.5
		if o.lrScale < 1e-12 {
			o.converged = true // no step size makes progress
		}
		return nil
	}
	o.iter++
	o.accept(f)
	if o.opt.Optimizer == OptGD && o.lrScale < 1 {
		o.lrScale = math.Min(1, o.lrScale*1.1)
	}
	if o.checkConverged() {
		o.converged = true
	}
	return nil
}

// paramGradient converts the backend's gradient at o.x (input units) into
// the gradient of the normalised objective fs*stress_internal with respect
// to the parameters. With stress_internal(x) = stress(s x) / s^2, the mean
// gradient is G_mean / s and the scale gradient is unchanged (C scales by
// s^2); factors follow by the chain rule G_L = 2 G_C L (G_C symmetric).
func (o *Optimizer) paramGradient() {
	n, d := o.n, o.d
	nd := n * d
	f := o.fs / o.prob.Scale
	for k := 0; k < nd; k++ {
		o.pg[k] = f * o.grad.Means[k]
	}
	if !o.opt.Points {
		dd := d * d
		for i := 0; i < n; i++ {
			l := o.x[nd+i*dd : nd+(i+1)*dd]
			gc := o.grad.Scales[i*dd : (i+1)*dd]
			gl := o.pg[nd+i*dd : nd+(i+1)*dd]
			switch o.opt.Structure {
			case StructureDiagonal:
				// C_rr = L_rr^2 + eps: dF/dL_rr = 2 G_rr L_rr.
				clear(gl)
				for r := 0; r < d; r++ {
					gl[r*d+r] = 2 * o.fs * gc[r*d+r] * l[r*d+r]
				}
				continue
			case StructureSpherical:
				// C = (L_00^2 + eps) I: dF/dL_00 = 2 tr(G) L_00.
				clear(gl)
				gl[0] = 2 * o.fs * engine.Trace(gc, d) * l[0]
				continue
			}
			for r := 0; r < d; r++ {
				for q := 0; q < d; q++ {
					var s float64
					for k := 0; k < d; k++ {
						s += gc[r*d+k] * l[k*d+q]
					}
					gl[r*d+q] = 2 * o.fs * s
				}
			}
		}
	}
}

// checkConverged applies the stopping rule to the history.
func (o *Optimizer) checkConverged() bool {
	h := o.history
	last := h[len(h)-1]
	if last < 1e-7 {
		return true
	}
	if o.opt.Tol <= 0 || len(h) <= tolWindow {
		return false
	}
	// History holds stress-1; compare raw stress (its square).
	old := h[len(h)-1-tolWindow]
	return (old*old-last*last)/(old*old) < o.opt.Tol && last <= old
}

// snapshot builds an immutable snapshot of the last good state.
func (o *Optimizer) snapshot() *Snapshot {
	n, d := o.n, o.d
	s := o.prob.Scale
	rep := NewStressReport(o.prob, o.sGood)
	sn := &Snapshot{
		Iter: o.iter, N: n, Dim: d, Family: o.opt.Family,
		Means:            make([]float64, n*d),
		Stress:           rep.Stress,
		Stress1:          rep.Stress1,
		RawRatio:         rep.RawRatio,
		PerPoint:         make([]float64, n),
		History:          o.history[:len(o.history):len(o.history)],
		Converged:        o.converged,
		Backend:          o.b.Name(),
		ClassicalStress1: o.classical1,
		PointStress1:     math.Float64frombits(o.point1.Load()),
	}
	for k := range sn.Means {
		sn.Means[k] = o.xGood[k] * s
	}
	if o.pointMeans != nil && !o.opt.Points {
		sn.PointMeans = alignProcrustes(n, d, o.pointMeans, sn.Means)
	}
	copy(sn.PerPoint, o.perPoint) // input units already
	if o.opt.Points {
		sn.PointStress1 = rep.Stress1
	} else {
		dd := d * d
		sn.Scales = make([]float64, n*dd)
		for i := 0; i < n; i++ {
			scaleFromFactor(sn.Scales[i*dd:(i+1)*dd], o.xGood[n*d+i*dd:n*d+(i+1)*dd], d, o.opt.Structure, o.eps, s*s)
		}
	}
	sn.MeanShare = MeanShare(sn.Means, sn.Scales, n, d, o.opt.Family.Tau, o.opt.Weights)
	return RescaleSnapshot(sn, o.unit)
}

// SetMaxIter changes the iteration budget of the run in progress without
// touching the embedding; a budget at or below the iterations taken makes
// Run stop after the current iteration. It does not wait for the
// optimiser's lock, so it is safe to call while a run is in progress.
func (o *Optimizer) SetMaxIter(n int) { o.budget.Store(int64(n)) }

// Extend lets a finished run go on from where it is for k more
// iterations: the budget becomes the iterations taken plus k and the
// convergence flag is cleared (the stopping rule is checked again on the
// next iteration).
func (o *Optimizer) Extend(k int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.budget.Store(int64(o.iter + k))
	o.converged = false
}

// done reports whether Run should stop.
func (o *Optimizer) done() bool {
	m := int(o.budget.Load())
	return o.converged || (m > 0 && o.iter >= m)
}

// Step runs k iterations (fewer if the fit converges or reaches
// MaxIter), then publishes and returns the new snapshot. A step that
// raised the stress is rolled back with a halved learning rate and does
// not count: Step k always advances Iter by k unless the fit ends (a
// rollback streak ends it: the rate falls below 1e-12 of its start). On
// cancellation it publishes the progress made and returns ctx's error.
func (o *Optimizer) Step(ctx context.Context, k int) (*Snapshot, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	err := o.ensureClassical(ctx)
	for start := o.iter; o.iter-start < k && !o.done() && err == nil; {
		err = o.iterate(ctx)
	}
	sn := o.publishSnapshot()
	return sn, err
}

// Run iterates until MaxIter, convergence or cancellation, calling
// publish (if not nil) with a new snapshot at most every `every` and once
// at the end (iterate.Run). It returns ctx's error when cancelled, nil
// otherwise.
func (o *Optimizer) Run(ctx context.Context, every time.Duration, publish func(*Snapshot)) error {
	return iterate.Run[*Snapshot](ctx, iterate.Funcs[*Snapshot]{Locker: &o.mu, StepFunc: o.runStep, SnapshotFunc: o.publishSnapshot}, every, publish)
}

// runStep is one step of Run (o.mu held): one iteration unless done.
func (o *Optimizer) runStep(ctx context.Context) (done, evaluated bool, err error) {
	if err := o.ensureClassical(ctx); err != nil {
		return false, false, err
	}
	if o.done() {
		return true, false, nil
	}
	return false, false, o.iterate(ctx)
}

// publishSnapshot builds the snapshot of the last good state and makes it
// the latest (o.mu held).
func (o *Optimizer) publishSnapshot() *Snapshot {
	sn := o.snapshot()
	o.latest.Store(sn)
	return sn
}

// ensureClassical computes ClassicalStress1 (the stress-1 of the
// classical-MDS points) the first time it is needed: one point
// evaluation on the optimiser's backend, which holds its problem. The
// caller holds o.mu.
func (o *Optimizer) ensureClassical(ctx context.Context) error {
	if o.classicalSet {
		return nil
	}
	c1, err := pointStress1(ctx, o.prob, o.b, o.classical)
	if err != nil {
		return err
	}
	o.classical1, o.classicalSet = c1, true
	return nil
}

// PointBaseline fits the point-MDS baseline (Diracs, same options, same
// backend, classical-MDS start) for iters iterations and returns its
// stress-1; later snapshots carry it as PointStress1 and its means,
// aligned to theirs, as PointMeans.
func (o *Optimizer) PointBaseline(ctx context.Context, iters int) (float64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.opt.Points {
		return o.history[len(o.history)-1], nil
	}
	po := o.opt
	po.Points = true
	po.Structure = StructurePoints
	po.MaxIter = iters
	po.InitEmbedding = nil
	po.Init = "mds"
	sub, err := newOptimizer(o.n, o.prob.Dist, po, o.b, o.classical)
	if err != nil {
		return 0, err
	}
	runErr := sub.Run(ctx, time.Hour, nil)
	// Restore the backend to this optimiser's problem.
	if err := o.b.Load(o.prob.Problem); err != nil {
		return 0, err
	}
	if runErr != nil {
		return 0, runErr
	}
	ps := sub.Latest()
	o.pointMeans = ps.Means // a snapshot's slices are never written again
	o.point1.Store(math.Float64bits(ps.Stress1))
	return ps.Stress1, nil
}

// Unit returns the input units per unit of the stored problem: 1, or the
// largest distance when the distances lay outside [SafeScaleLow,
// SafeScaleHigh] and were fitted in units of it (snapshots are always in
// input units).
func (o *Optimizer) Unit() float64 { return o.unit }

// PointBaselineMeans returns the point-MDS baseline's means (n*d, input
// units) aligned to the latest snapshot's means by an orthogonal
// Procrustes rotation (or reflection) and translation: the latest
// snapshot's PointMeans. It is nil before PointBaseline has run and for a
// Points fit. The slice must not be modified. It does not block.
func (o *Optimizer) PointBaselineMeans() []float64 { return o.Latest().PointMeans }

// alignProcrustes returns x aligned to y by Procrustes, or nil when the
// alignment fails (non-finite input).
func alignProcrustes(n, d int, x, y []float64) []float64 {
	r, t, err := engine.Procrustes(n, d, x, y)
	if err != nil {
		return nil
	}
	return engine.ApplyRigid(n, d, x, r, t)
}

// withDefaults returns opt with every zero value replaced by its default,
// or an error naming the first setting out of range: the one place the
// exact fit's options are checked.
func (opt Options) withDefaults() (Options, error) {
	if err := modelDefaults(&opt.Dim, &opt.Family, &opt.Optimizer, &opt.Eps, &opt.LR, opt.Init); err != nil {
		return opt, err
	}
	switch opt.Structure {
	case "":
		opt.Structure = StructureFull
		if opt.Points {
			opt.Structure = StructurePoints
		}
	case StructureFull, StructureDiagonal, StructureSpherical:
		if opt.Points {
			return opt, fmt.Errorf("engine: structure %q contradicts Points", opt.Structure)
		}
	case StructurePoints:
		opt.Points = true
	default:
		return opt, fmt.Errorf("engine: unknown covariance structure %q (want full, diagonal, spherical or points)", opt.Structure)
	}
	if !(opt.ScaleBudget >= 0) || math.IsInf(opt.ScaleBudget, 0) {
		return opt, fmt.Errorf("engine: scale budget %v (want finite and >= 0)", opt.ScaleBudget)
	}
	if opt.Tol < 0 || math.IsNaN(opt.Tol) {
		return opt, fmt.Errorf("engine: tolerance %v (want >= 0)", opt.Tol)
	}
	return opt, nil
}

// modelDefaults fills in and checks the settings the exact and the
// sampled fit share: dimension, family, optimiser, eps, learning rate and
// initialisation.
func modelDefaults(dim *int, fam *engine.Family, optimizer *string, eps, lr *float64, init string) error {
	if *dim == 0 {
		*dim = 2
	}
	if *dim < 1 || *dim > MaxDim {
		return fmt.Errorf("engine: dimension %d out of range 1..%d", *dim, MaxDim)
	}
	if *fam == (engine.Family{}) {
		*fam = engine.Gaussian()
	}
	if !(fam.Tau > 0) || math.IsInf(fam.Tau, 0) {
		return fmt.Errorf("engine: family %q has tau %v (want > 0)", fam.Name, fam.Tau)
	}
	if *optimizer == "" {
		*optimizer = OptAdam
	}
	if *eps < 0 {
		*eps = DefaultEps
	}
	if math.IsNaN(*eps) || math.IsInf(*eps, 0) {
		return fmt.Errorf("engine: eps %v is not finite", *eps)
	}
	if *lr < 0 || math.IsNaN(*lr) || math.IsInf(*lr, 0) {
		return fmt.Errorf("engine: learning rate %v (want > 0, or 0 for the default)", *lr)
	}
	if *lr == 0 {
		*lr = defaultLR(*optimizer)
	}
	switch init {
	case "", "mds", "random":
	default:
		return fmt.Errorf("engine: unknown init %q (want mds or random)", init)
	}
	return nil
}
