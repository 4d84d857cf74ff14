package words

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	"burescope/engine/pairkernel"
)

// Config holds the training hyperparameters (defaults: DefaultConfig).
type Config struct {
	Window int // context words on each side of the center (see ShrinkWindow)
	// ShrinkWindow draws each center's window uniformly from 1..Window
	// words on each side (word2vec's and gensim's reduced window: nearer
	// contexts weigh more, and a center costs on average (Window + 1) /
	// (2 Window) of the fixed window's pairs); otherwise every center
	// has the full Window, as the authors' code.
	ShrinkWindow bool
	Subsample    float64 // frequent-word subsampling threshold t; 0 disables
	Negatives    int     // negative contexts per positive pair
	Margin       float64 // hinge margin M (the hinge losses only)
	LR           float64 // learning rate (at the start of the schedule)
	// FactorLR scales the learning rate of the covariance factors
	// against LR (the means' rate): 1 (or 0) is one rate for every
	// parameter, as the paper. Below 1 the covariances move more slowly
	// than the means (docs/words.md, "Defaults").
	FactorLR   float64
	AdagradEps float64 // added to the accumulator under the square root
	Epochs     int     // epochs to run in this call
	// Loss is the objective per positive pair (LossHinge: the paper's).
	Loss Loss
	// Optimizer is the update rule (OptAdagrad: the paper's).
	Optimizer Optimizer
	// Decay lowers the learning rate linearly from LR at the start of
	// the schedule to LR x MinLRFraction at its end, as word2vec does;
	// the schedule spans TotalEpochs epochs counting resumed ones, so a
	// run split by resuming follows the same rates as one call.
	Decay bool
	// TotalEpochs is the length of the decay schedule in epochs,
	// counting the model's completed ones; 0 means the completed epochs
	// plus Epochs (the schedule ends with this call).
	TotalEpochs int
	Threads     int    // worker goroutines (results do not depend on it)
	Batch       int    // center words per step
	Seed        uint64 // fixes subsampling and negatives
	// ResetAdagrad zeroes the Adagrad accumulators at the start of every
	// epoch, as the authors' code does.
	ResetAdagrad bool
	// SharedNegatives draws the negatives once per center word and uses
	// them for every context of its window (2 Window + Negatives pair
	// kernels per center instead of 2 Window (1 + Negatives)); otherwise
	// every (center, context) pair draws its own, as the paper. Faster
	// per epoch, but it learns less per second of training (measured in
	// docs/words.md), so it is off by default.
	SharedNegatives bool
}

// Loss selects the training objective. s+ is the pseudo dot product
// [mu_w : nu_c] of a positive pair and s-_k those of its negatives.
type Loss int

// The losses Train offers.
const (
	// LossHinge is the paper's [M - s+ + (1/n) sum_k s-_k]_+ (the hinge
	// on the mean of the negatives).
	LossHinge Loss = iota
	// LossHingeEach is sum_k [M - s+ + s-_k]_+ (one hinge per negative).
	LossHingeEach
	// LossLogistic is word2vec's -log sigmoid(s+) - sum_k log sigmoid(-s-_k)
	// on the pseudo dot product.
	LossLogistic
)

// lossNames are the names ParseLoss reads and String writes.
var lossNames = []string{"hinge", "hinge-each", "logistic"}

// String returns the loss's name (as ParseLoss reads it).
func (l Loss) String() string {
	if l >= 0 && int(l) < len(lossNames) {
		return lossNames[l]
	}
	return fmt.Sprintf("Loss(%d)", int(l))
}

// ParseLoss reads "hinge", "hinge-each" or "logistic".
func ParseLoss(s string) (Loss, error) {
	for i, n := range lossNames {
		if s == n {
			return Loss(i), nil
		}
	}
	return 0, fmt.Errorf("unknown loss %q (want hinge, hinge-each or logistic)", s)
}

// Optimizer selects the update rule of a step.
type Optimizer int

// The update rules Train offers.
const (
	// OptAdagrad is x -= lr g / sqrt(G + eps) with G += g^2 (the paper's).
	OptAdagrad Optimizer = iota
	// OptSGD is x -= lr g (word2vec's).
	OptSGD
)

// String returns the optimizer's name (as ParseOptimizer reads it).
func (o Optimizer) String() string {
	switch o {
	case OptAdagrad:
		return "adagrad"
	case OptSGD:
		return "sgd"
	}
	return fmt.Sprintf("Optimizer(%d)", int(o))
}

// ParseOptimizer reads "adagrad" or "sgd".
func ParseOptimizer(s string) (Optimizer, error) {
	switch s {
	case "adagrad":
		return OptAdagrad, nil
	case "sgd":
		return OptSGD, nil
	}
	return 0, fmt.Errorf("unknown optimizer %q (want adagrad or sgd)", s)
}

// MinLRFraction is the fraction of LR a decaying schedule ends at
// (word2vec's min_alpha 0.0001 x alpha).
const MinLRFraction = 1e-4

// ChanceLoss is the smallest mean loss per positive pair of a model that
// scores positive and negative pairs alike (s+ = s-_k = x for every pair,
// the best x): the margin M for LossHinge, n M for LossHingeEach and
// log(1 + n) + n log((1 + n)/n) for LossLogistic (at sigmoid(x) =
// 1/(1 + n)), with n negatives. A loss not below it learns nothing.
func (c Config) ChanceLoss() float64 {
	n := float64(c.Negatives)
	switch c.Loss {
	case LossHingeEach:
		return n * c.Margin
	case LossLogistic:
		return math.Log1p(n) + n*math.Log((1+n)/n)
	}
	return c.Margin
}

// PaperConfig returns the paper's settings (supplementary, word
// embeddings), chosen for a corpus of 3 billion tokens: window 5 each
// side, subsampling 1e-5, one negative, margin 10, Adagrad with learning
// rate 0.01 and epsilon 1e-8, 5 epochs.
func PaperConfig() Config {
	return Config{Window: 5, Subsample: 1e-5, Negatives: 1, Margin: 10, LR: 0.01, FactorLR: 1, AdagradEps: 1e-8,
		Epochs: 5, Threads: 1, Batch: 256, Seed: 1}
}

// DefaultConfig returns settings that learn on small corpora, chosen by
// measurement on a planted-similarity corpus of 100 thousand tokens
// (docs/words.md, "Defaults"): the paper's window and margin 10 with a
// hinge per negative (LossHingeEach), word2vec's subsampling threshold
// 1e-3 (a relative frequency), 5 negatives per pair, and word2vec's
// optimiser: SGD with the learning rate decaying linearly from 0.005 over
// 5 epochs.
func DefaultConfig() Config {
	c := PaperConfig()
	c.Subsample, c.Negatives, c.Epochs = 1e-3, 5, 5
	c.Loss, c.Optimizer, c.LR, c.Decay = LossHingeEach, OptSGD, 0.005, true
	return c
}

// Bounds of the size settings Train accepts (the memory of a step grows
// with Batch x Window x Negatives; see StepBytes).
const (
	MaxWindow    = 1000
	MaxNegatives = 1000
	MaxBatch     = 1 << 20
)

func (c Config) check() error {
	switch {
	case c.Window < 1 || c.Window > MaxWindow:
		return fmt.Errorf("window %d, want 1..%d", c.Window, MaxWindow)
	case !(c.Subsample >= 0):
		return fmt.Errorf("subsample %v, want >= 0", c.Subsample)
	case c.Negatives < 1 || c.Negatives > MaxNegatives:
		return fmt.Errorf("negatives %d, want 1..%d", c.Negatives, MaxNegatives)
	case !(c.Margin >= 0) || math.IsInf(c.Margin, 0):
		return fmt.Errorf("margin %v, want a finite number >= 0", c.Margin)
	case !(c.LR > 0) || math.IsInf(c.LR, 0):
		return fmt.Errorf("learning rate %v, want a finite number > 0", c.LR)
	case !(c.AdagradEps >= 0):
		return fmt.Errorf("Adagrad epsilon %v, want >= 0", c.AdagradEps)
	case c.Epochs < 0:
		return fmt.Errorf("epochs %d, want >= 0", c.Epochs)
	case c.Batch < 1 || c.Batch > MaxBatch:
		return fmt.Errorf("batch %d, want 1..%d", c.Batch, MaxBatch)
	case c.Loss < LossHinge || c.Loss > LossLogistic:
		return fmt.Errorf("loss %v, want hinge, hinge-each or logistic", c.Loss)
	case c.Optimizer != OptAdagrad && c.Optimizer != OptSGD:
		return fmt.Errorf("optimizer %v, want adagrad or sgd", c.Optimizer)
	case c.TotalEpochs < 0:
		return fmt.Errorf("total epochs %d, want >= 0", c.TotalEpochs)
	case !(c.FactorLR >= 0) || math.IsInf(c.FactorLR, 0):
		return fmt.Errorf("factor learning-rate scale %v, want a finite number >= 0 (0: 1)", c.FactorLR)
	}
	return nil
}

// factorLR returns the scale of the covariance factors' learning rate
// (FactorLR, with 0 read as 1).
func (c Config) factorLR() float64 {
	if c.FactorLR == 0 {
		return 1
	}
	return c.FactorLR
}

// Progress is reported after every step.
type Progress struct {
	Epoch, Epochs int     // current epoch (1-based, counting resumed ones) and last epoch
	Done, Total   int     // centers processed in this epoch and centers it has (after subsampling)
	Fraction      float64 // of this call's work done, 0..1
	CorpusTokens  float64 // corpus tokens (before subsampling) covered since the call began
	TokensPerSec  float64 // CorpusTokens per wall-clock second
	Loss          float64 // mean loss per positive pair in this epoch so far
	LR            float64 // learning rate of the last step
	Elapsed       time.Duration
	// EpochEnd is set on the last report of an epoch (Loss is then the
	// epoch's mean loss).
	EpochEnd bool
}

// Remaining estimates the wall-clock time left in this call from the
// rate so far (0 before any work is done).
func (p Progress) Remaining() time.Duration {
	if !(p.Fraction > 0) {
		return 0
	}
	return time.Duration(float64(p.Elapsed) * (1 - p.Fraction) / p.Fraction)
}

// DivergedError is returned by Train when a step would have produced a
// non-finite loss, gradient or parameter. The step is not applied: the
// model holds the last finite state, after the previous step.
type DivergedError struct {
	Epoch int    // 1-based, counting resumed epochs
	Step  int    // 1-based step within the epoch
	What  string // the first non-finite quantity
}

// Error says where training diverged and what was not finite.
func (e *DivergedError) Error() string {
	return fmt.Sprintf("training diverged in epoch %d, step %d: %s is not finite (the learning rate is too large for these settings)",
		e.Epoch, e.Step, e.What)
}

// NoPairsError is returned by Train when an epoch has no training pair:
// subsampling left fewer than two tokens.
type NoPairsError struct {
	Epoch        int // 1-based
	Kept, Tokens int // tokens kept by subsampling, tokens in the stream
}

// Error says how many tokens subsampling kept and what to change.
func (e *NoPairsError) Error() string {
	return fmt.Sprintf("epoch %d: subsampling kept %d of %d tokens, no training pair; lower the subsampling (a larger threshold, or 0 for none)",
		e.Epoch, e.Kept, e.Tokens)
}

// ExpectedKept returns the expected number of tokens that subsampling at
// threshold t keeps of a corpus with these word counts (t = 0: all).
func ExpectedKept(counts []int64, t float64) float64 {
	var total float64
	for _, c := range counts {
		total += float64(c)
	}
	if t == 0 || !(total > 0) {
		return total
	}
	var kept float64
	for _, c := range counts {
		kept += float64(c) * keepProb(float64(c)/total, t)
	}
	return kept
}

// keepProb is the subsampling keep probability (sqrt(f/t) + 1) t/f of a
// word of relative frequency f (Mikolov et al.; the authors' code).
func keepProb(f, t float64) float64 {
	if t == 0 || !(f > 0) {
		return 1
	}
	return math.Min(1, (math.Sqrt(f/t)+1)*t/f)
}

// StepBytes is the memory one step's gradient records may take:
// every pair of a batch of centers with its negatives, d + factor values
// each (the per-step part of the memory plan; ModelBytes is the rest).
func StepBytes(cfg Config, dim, rank int, diagonal bool) float64 {
	fl := float64(dim) * float64(rank)
	if diagonal {
		fl = float64(dim)
	}
	return 8 * float64(cfg.Batch) * 2 * float64(cfg.Window) * (1 + float64(cfg.Negatives)) * (float64(dim) + fl + 2)
}

// ModelBytes is the memory of training a model of n words: parameters and
// Adagrad accumulators of both sets, the trainer's dense gradients, and
// the save's transient arrays: each set's n x d x d covariances and their
// encoding, and the factors' encodings, which the collector may not have
// returned before the next is made; 6 n d^2 values bound them (measured:
// 20,000 words at d = 64 peaked at 7.48e9 bytes, maximum resident set,
// where the parameters and one covariance array come to 5.0e9).
func ModelBytes(n, dim, rank int, diagonal bool) float64 {
	fl := float64(dim) * float64(rank)
	cov := 6 * float64(dim) * float64(dim)
	if diagonal {
		fl = float64(dim)
		cov = 6 * float64(dim)
	}
	per := 6*float64(dim) + 6*fl + cov + 32
	return 8 * float64(n) * per
}

// chunkCenters is the number of centers per unit of parallel work; chunks
// are seeded by their index, so results do not depend on Threads.
const chunkCenters = 32

// Train runs cfg.Epochs epochs of skipgram training on tokens (vocabulary
// ids of m; several documents may be concatenated) and updates m in place,
// Epochs included. Each step processes cfg.Batch centers: gradients are
// computed in parallel from the parameters as they were at the start of
// the step, summed per word in a fixed order and applied with the
// optimizer (cfg.Optimizer, at the learning rate of the schedule's
// position at the start of the step), so a seed gives bit-identical
// models for any number of threads.
//
// ctx is checked between steps and between centers; on cancellation m
// holds the parameters after the last complete step (Epochs not
// advanced) and ctx.Err() is returned. A step whose loss, gradients or
// updated parameters would not be finite is not applied: Train returns a
// *DivergedError and m holds the last finite state. An epoch left with no
// training pair by subsampling is a *NoPairsError. progress, if not nil,
// is called from the calling goroutine.
func Train(ctx context.Context, m *Model, tokens []int32, cfg Config, progress func(Progress)) error {
	if err := cfg.check(); err != nil {
		return err
	}
	if err := m.Check(); err != nil {
		return err
	}
	n := len(m.Words)
	for i, t := range tokens {
		if t < 0 || int(t) >= n {
			return fmt.Errorf("token %d: id %d outside the vocabulary of %d words", i, t, n)
		}
	}
	threads := max(cfg.Threads, 1)
	tr := newTrainer(m, cfg, threads)
	start := time.Now()
	first := m.Epochs
	total := cfg.TotalEpochs
	if total == 0 {
		total = first + cfg.Epochs
	}
	var corpus float64
	for e := 0; e < cfg.Epochs; e++ {
		epoch := first + e
		if cfg.ResetAdagrad {
			for _, a := range [][]float64{m.AccMeans, m.AccFactors, m.AccCMeans, m.AccCFactors} {
				clear(a)
			}
		}
		kept := tr.subsample(tokens, epoch)
		if len(kept) < 2 {
			return &NoPairsError{Epoch: epoch + 1, Kept: len(kept), Tokens: len(tokens)}
		}
		var lossSum float64
		var pairs int
		for b, step := 0, 1; b < len(kept); b, step = b+cfg.Batch, step+1 {
			if err := ctx.Err(); err != nil {
				return err
			}
			end := min(b+cfg.Batch, len(kept))
			tr.lr = cfg.LR
			if cfg.Decay {
				// The position in the schedule at the start of the step,
				// counting resumed epochs.
				pos := (float64(epoch) + float64(b)/float64(len(kept))) / float64(max(total, 1))
				tr.lr = cfg.LR * math.Max(1-pos, MinLRFraction)
			}
			l, p, err := tr.step(ctx, kept, b, end, epoch)
			if err != nil {
				if d, ok := err.(*DivergedError); ok {
					d.Epoch, d.Step = epoch+1, step
				}
				return err
			}
			lossSum += l
			pairs += p
			corpus += float64(end-b) / float64(max(len(kept), 1)) * float64(len(tokens))
			if progress != nil {
				el := time.Since(start)
				pr := Progress{Epoch: epoch + 1, Epochs: first + cfg.Epochs, Done: end, Total: len(kept),
					Fraction:     (float64(e) + float64(end)/float64(len(kept))) / float64(cfg.Epochs),
					CorpusTokens: corpus, Elapsed: el, EpochEnd: end == len(kept), LR: tr.lr}
				if s := el.Seconds(); s > 0 {
					pr.TokensPerSec = corpus / s
				}
				if pairs > 0 {
					pr.Loss = lossSum / float64(pairs)
				}
				progress(pr)
			}
		}
		m.Epochs = epoch + 1
	}
	return nil
}

// trainer is the state of one Train call.
type trainer struct {
	m       *Model
	cfg     Config
	threads int
	keep    []float64 // subsampling keep probability per word
	cum     []float64 // cumulative f^(3/4) negative distribution
	// drawIndex's table (negTable).
	negScale     float64
	negLo, negHi []int32
	fl           int
	lr           float64 // learning rate of the current step

	// Dense gradient accumulators and the words touched in this step
	// (by part: step).
	gMeans, gFac, gCMeans, gCFac []float64
	inTouched, ctxTouched        []bool
	parts                        []part

	chunks []*chunk
	ws     []*pairWS
	// eager makes runChunk compute every pair's gradients before its
	// loss (the reference runChunkLazy is tested against).
	eager bool
}

// record is one word's gradient contribution from one chunk.
type record struct {
	word int32
	off  int // offset of its d mean then fl factor values in chunk.vals
}

// chunk is the output of one unit of parallel work.
type chunk struct {
	in, ctx []record
	vals    []float64
	loss    float64
	pairs   int
}

func newTrainer(m *Model, cfg Config, threads int) *trainer {
	n := len(m.Words)
	t := &trainer{m: m, cfg: cfg, threads: threads, fl: m.factorLen()}
	var total float64
	for _, c := range m.Counts {
		total += float64(c)
	}
	t.keep = make([]float64, n)
	t.cum = make([]float64, n)
	var acc float64
	for i, c := range m.Counts {
		t.keep[i] = keepProb(float64(c)/total, cfg.Subsample)
		acc += math.Pow(math.Max(float64(c), 0), 0.75)
		t.cum[i] = acc
	}
	if !(acc > 0) { // all counts zero: uniform negatives
		for i := range t.cum {
			t.cum[i] = float64(i + 1)
		}
	}
	if n > 0 {
		t.negTable()
	}
	d := m.Dim
	t.gMeans, t.gCMeans = make([]float64, n*d), make([]float64, n*d)
	t.gFac, t.gCFac = make([]float64, n*t.fl), make([]float64, n*t.fl)
	t.inTouched, t.ctxTouched = make([]bool, n), make([]bool, n)
	t.parts = make([]part, threads)
	nch := (cfg.Batch + chunkCenters - 1) / chunkCenters
	t.chunks = make([]*chunk, nch)
	for i := range t.chunks {
		t.chunks[i] = &chunk{}
	}
	t.ws = make([]*pairWS, threads)
	for i := range t.ws {
		t.ws[i] = newPairWS(d, m.Rank)
	}
	return t
}

// subsample returns the tokens kept in epoch (Mikolov et al.'s rule
// keep = (sqrt(f/t) + 1) t/f, the authors' code), drawn afresh each epoch.
func (t *trainer) subsample(tokens []int32, epoch int) []int32 {
	if t.cfg.Subsample == 0 {
		return tokens
	}
	rng := rand.New(rand.NewPCG(t.cfg.Seed, uint64(epoch)<<32|0xfffffff))
	kept := make([]int32, 0, len(tokens)/2)
	for _, w := range tokens {
		if k := t.keep[w]; k >= 1 || rng.Float64() < k {
			kept = append(kept, w)
		}
	}
	return kept
}

// negative draws a word from the f^(3/4) distribution.
func (t *trainer) negative(rng *rand.Rand) int32 {
	return int32(t.drawIndex(rng.Float64() * t.cum[len(t.cum)-1]))
}

// drawIndex returns the first i with cum[i] >= u (sort.SearchFloat64s's
// answer), searched among the indices the table gives u's bucket.
func (t *trainer) drawIndex(u float64) int {
	b := min(max(int(u*t.negScale), 0), len(t.negLo)-1)
	lo, hi := int(t.negLo[b]), int(t.negHi[b])
	return lo + sort.Search(hi-lo, func(i int) bool { return t.cum[lo+i] >= u })
}

// negTable fills drawIndex's table: nb buckets of width total / nb, and
// for bucket b the indices [negLo[b], negHi[b]) that hold the answer for
// every u with int(u negScale) = b (the bounds widened by 1e-9 of the
// bucket's ends, far beyond the rounding of u negScale).
func (t *trainer) negTable() {
	n := len(t.cum)
	total := t.cum[n-1]
	nb := 2 * n
	t.negScale = float64(nb) / total
	t.negLo, t.negHi = make([]int32, nb), make([]int32, nb)
	for b := range nb {
		lo := sort.SearchFloat64s(t.cum, float64(b)/t.negScale*(1-1e-9))
		hi := sort.SearchFloat64s(t.cum, float64(b+1)/t.negScale*(1+1e-9)) + 1
		t.negLo[b], t.negHi[b] = int32(lo), int32(min(hi, n))
	}
}

// step processes the centers kept[lo:hi] as one step and returns
// the summed loss and the number of positive pairs. On cancellation
// (checked between centers) or a non-finite value nothing is applied.
func (t *trainer) step(ctx context.Context, kept []int32, lo, hi, epoch int) (float64, int, error) {
	nch := (hi - lo + chunkCenters - 1) / chunkCenters
	var wg sync.WaitGroup
	next := make(chan int, nch)
	for c := 0; c < nch; c++ {
		next <- c
	}
	close(next)
	for w := 0; w < min(t.threads, nch); w++ {
		wg.Add(1)
		go func(ws *pairWS) {
			defer wg.Done()
			for c := range next {
				a := lo + c*chunkCenters
				b := min(a+chunkCenters, hi)
				// The chunk's seed is its global center position.
				rng := rand.New(rand.NewPCG(t.cfg.Seed^0x5851f42d4c957f2d, uint64(epoch)<<40|uint64(a)))
				t.runChunk(ctx, t.chunks[c], ws, kept, a, b, rng)
			}
		}(t.ws[w])
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	var loss float64
	var pairs int
	for c := 0; c < nch; c++ {
		loss += t.chunks[c].loss
		pairs += t.chunks[c].pairs
	}
	// The records are summed, checked and applied by word: part g of P
	// takes the words w with w mod P = g, each word's records in the
	// serial order (chunks, then records), so the sums do not depend on
	// P.
	P := min(t.threads, len(t.parts))
	t.parallel(P, func(g int) { t.sumPart(g, P, nch) })
	what := ""
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		what = "the loss"
	}
	if what == "" {
		// The first word, in the serial order of first records, whose
		// update is not finite: input words before context words.
		t.parallel(P, func(g int) { t.checkPart(g) })
		for _, in := range []bool{true, false} {
			first := -1
			for g := 0; g < P; g++ {
				pt := &t.parts[g]
				seq, w := pt.badCtx, pt.whatCtx
				if in {
					seq, w = pt.badIn, pt.whatIn
				}
				if w != "" && (first < 0 || seq < first) {
					first, what = seq, w
				}
			}
			if what != "" {
				break
			}
		}
	}
	apply := what == ""
	t.parallel(P, func(g int) { t.applyPart(g, apply) })
	if what != "" {
		return 0, 0, &DivergedError{What: what}
	}
	return loss, pairs, nil
}

// part is one goroutine's share of a step's words (sumPart).
type part struct {
	tIn, tCtx       []int32   // the words touched, in the order of their first records
	seqIn, seqCtx   []int     // those records' positions in the serial order
	full            []float64 // d x d scratch of ctxFactorGrad
	badIn, badCtx   int       // checkPart: the position of the first word not finite
	whatIn, whatCtx string    // and what is not ("": none)
}

// parallel runs f(0..P-1) on P goroutines (inline for P = 1).
func (t *trainer) parallel(P int, f func(g int)) {
	if P <= 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for g := 0; g < P; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(g)
		}()
	}
	wg.Wait()
}

// sumPart adds the records of the words w with w mod P = g of the first
// nch chunks into the dense gradients, in the serial order.
func (t *trainer) sumPart(g, P, nch int) {
	d, fl := t.m.Dim, t.fl
	cl := fl // a context record's factor part
	lazy := t.lazy()
	if lazy {
		cl = triLen(d)
	}
	pt := &t.parts[g]
	pt.tIn, pt.tCtx, pt.seqIn, pt.seqCtx = pt.tIn[:0], pt.tCtx[:0], pt.seqIn[:0], pt.seqCtx[:0]
	seqIn, seqCtx := 0, 0
	for c := 0; c < nch; c++ {
		ch := t.chunks[c]
		for _, r := range ch.in {
			if int(r.word)%P == g {
				if !t.inTouched[r.word] {
					t.inTouched[r.word] = true
					pt.tIn = append(pt.tIn, r.word)
					pt.seqIn = append(pt.seqIn, seqIn)
				}
				addTo(t.gMeans[int(r.word)*d:], ch.vals[r.off:r.off+d])
				addTo(t.gFac[int(r.word)*fl:], ch.vals[r.off+d:r.off+d+fl])
			}
			seqIn++
		}
		for _, r := range ch.ctx {
			if int(r.word)%P == g {
				if !t.ctxTouched[r.word] {
					t.ctxTouched[r.word] = true
					pt.tCtx = append(pt.tCtx, r.word)
					pt.seqCtx = append(pt.seqCtx, seqCtx)
				}
				addTo(t.gCMeans[int(r.word)*d:], ch.vals[r.off:r.off+d])
				addTo(t.gCFac[int(r.word)*fl:], ch.vals[r.off+d:r.off+d+cl])
			}
			seqCtx++
		}
	}
	if lazy {
		if len(pt.full) != d*d {
			pt.full = make([]float64, d*d)
		}
		for _, w := range pt.tCtx {
			t.ctxFactorGrad(int(w), pt.full)
		}
	}
}

// ctxFactorGrad turns context word w's summed sum_k c_k T^{BA}_k (upper
// triangle, at the start of its block of gCFac; lazy records) into its
// factor's gradient (sum_k c_k T^{BA}_k) M_w, by Gemm; full is d x d
// scratch.
func (t *trainer) ctxFactorGrad(w int, full []float64) {
	d, fl := t.m.Dim, t.fl
	g := t.gCFac[w*fl : (w+1)*fl]
	x := 0
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			full[i*d+j], full[j*d+i] = g[x], g[x]
			x++
		}
	}
	pairkernel.Gemm(g, full, t.m.CFactors[w*fl:(w+1)*fl], d, d, 1, 0)
}

// checkPart finds part g's first input word and first context word
// (in the order of their first records) whose update would not be
// finite.
func (t *trainer) checkPart(g int) {
	m := t.m
	d, fl := m.Dim, t.fl
	flr := t.lr * t.cfg.factorLR()
	pt := &t.parts[g]
	pt.whatIn, pt.whatCtx = "", ""
	for i, w := range pt.tIn {
		what := t.nonFinite(m.Means, m.AccMeans, t.gMeans, int(w), d, t.lr, "a mean")
		if what == "" {
			what = t.nonFinite(m.Factors, m.AccFactors, t.gFac, int(w), fl, flr, "a covariance factor")
		}
		if what != "" {
			pt.whatIn, pt.badIn = what, pt.seqIn[i]
			break
		}
	}
	for i, w := range pt.tCtx {
		what := t.nonFinite(m.CMeans, m.AccCMeans, t.gCMeans, int(w), d, t.lr, "a context mean")
		if what == "" {
			what = t.nonFinite(m.CFactors, m.AccCFactors, t.gCFac, int(w), fl, flr, "a context covariance factor")
		}
		if what != "" {
			pt.whatCtx, pt.badCtx = what, pt.seqCtx[i]
			break
		}
	}
}

// applyPart applies (with apply) part g's updates and clears its words'
// gradients and marks.
func (t *trainer) applyPart(g int, apply bool) {
	m := t.m
	d, fl := m.Dim, t.fl
	flr := t.lr * t.cfg.factorLR()
	pt := &t.parts[g]
	for _, w := range pt.tIn {
		if apply {
			t.update(m.Means, m.AccMeans, t.gMeans, int(w), d, t.lr)
			t.update(m.Factors, m.AccFactors, t.gFac, int(w), fl, flr)
		}
		clear(t.gMeans[int(w)*d : (int(w)+1)*d])
		clear(t.gFac[int(w)*fl : (int(w)+1)*fl])
		t.inTouched[w] = false
	}
	for _, w := range pt.tCtx {
		if apply {
			t.update(m.CMeans, m.AccCMeans, t.gCMeans, int(w), d, t.lr)
			t.update(m.CFactors, m.AccCFactors, t.gCFac, int(w), fl, flr)
		}
		clear(t.gCMeans[int(w)*d : (int(w)+1)*d])
		clear(t.gCFac[int(w)*fl : (int(w)+1)*fl])
		t.ctxTouched[w] = false
	}
	pt.tIn, pt.tCtx = pt.tIn[:0], pt.tCtx[:0]
}

func addTo(dst, src []float64) {
	dst = dst[:len(src)]
	i := 0
	for ; i+4 <= len(src); i += 4 {
		d, s := dst[i:i+4:i+4], src[i:i+4:i+4]
		d[0] += s[0]
		d[1] += s[1]
		d[2] += s[2]
		d[3] += s[3]
	}
	for ; i < len(src); i++ {
		dst[i] += src[i]
	}
}

// nonFinite returns what (with the word's index) when the update of
// block w would make a gradient, an accumulator or a parameter not
// finite, and "" otherwise; it changes nothing.
func (t *trainer) nonFinite(x, acc, g []float64, w, per int, lr float64, what string) string {
	eps := t.cfg.AdagradEps
	sgd := t.cfg.Optimizer == OptSGD
	xs, as, gs := x[w*per:(w+1)*per], acc[w*per:(w+1)*per], g[w*per:(w+1)*per]
	// A quick pass first: z stays zero unless some updated value or
	// accumulator is not finite (0 times it is NaN), or a parameter left
	// alone by a zero gradient is not (the pass below tells).
	var z float64
	if sgd {
		for i, gi := range gs {
			z += (xs[i] - lr*gi) * 0
		}
	} else {
		for i, gi := range gs {
			a := as[i] + gi*gi
			z += (xs[i]-lr*gi/math.Sqrt(a+eps))*0 + a*0
		}
	}
	if z == 0 {
		return ""
	}
	for i, gi := range gs {
		if gi == 0 {
			continue
		}
		var a, v float64
		if sgd {
			v = xs[i] - lr*gi
		} else {
			a = as[i] + gi*gi
			v = xs[i] - lr*gi/math.Sqrt(a+eps)
		}
		if math.IsNaN(gi) || math.IsNaN(v) || math.IsInf(v, 0) || math.IsInf(a, 0) {
			return fmt.Sprintf("%s of %q", what, t.m.Words[w])
		}
	}
	return ""
}

// update applies the optimizer's step to the per-word block w (length
// per): Adagrad x -= lr g / sqrt(G + eps) with G += g^2, or SGD x -= lr g
// (the accumulator untouched).
func (t *trainer) update(x, acc, g []float64, w, per int, lr float64) {
	eps := t.cfg.AdagradEps
	xs, as, gs := x[w*per:(w+1)*per], acc[w*per:(w+1)*per], g[w*per:(w+1)*per]
	if t.cfg.Optimizer == OptSGD {
		for i, gi := range gs {
			xs[i] -= lr * gi
		}
		return
	}
	for i, gi := range gs {
		if gi == 0 {
			continue
		}
		as[i] += gi * gi
		xs[i] -= lr * gi / math.Sqrt(as[i]+eps)
	}
}

// contexts appends to dst the context words of the center at position c
// of kept: the words up to win positions away on each side, or with
// Config.ShrinkWindow up to a window drawn from 1..win (one draw of rng).
func (t *trainer) contexts(dst []int32, kept []int32, c, win int, rng *rand.Rand) []int32 {
	cw := win
	if t.cfg.ShrinkWindow {
		cw = 1 + rng.IntN(win)
	}
	for p := max(c-cw, 0); p <= min(c+cw, len(kept)-1); p++ {
		if p != c {
			dst = append(dst, kept[p])
		}
	}
	return dst
}

// runChunk computes the gradient records of the centers kept[a:b]. Every
// positive pair's loss depends on its score s+ and its negatives' s-_k
// only, so its gradient is cp grad s+ + sum_k cn_k grad s-_k with the
// loss's derivatives cp and cn_k (pairLoss) and the kernel's gradients of
// the scores. A center's pairs (its contexts, each followed by the
// negatives drawn for it) go to the kernel in blocks of up to
// blockPairs, so that their eigendecompositions fill the kernel's lanes;
// the negatives are drawn in the order of one pair at a time and every
// pair's numbers are the kernel's for that pair alone.
func (t *trainer) runChunk(ctx context.Context, ch *chunk, ws *pairWS, kept []int32, a, b int, rng *rand.Rand) {
	if t.lazy() {
		t.runChunkLazy(ctx, ch, ws, kept, a, b, rng)
		return
	}
	m := t.m
	d, fl := m.Dim, t.fl
	ch.in, ch.ctx, ch.vals = ch.in[:0], ch.ctx[:0], ch.vals[:0]
	ch.loss, ch.pairs = 0, 0
	nneg := t.cfg.Negatives
	win := t.cfg.Window
	shared := t.cfg.SharedNegatives
	// per: the pairs of one context (its positive, then its negatives
	// unless they are shared); blk contexts per kernel block.
	per := 1 + nneg
	if shared {
		per = 1
	}
	blk := max(1, blockPairs/per)
	pw := make([]int32, 0, blk*per) // a block's context-set words
	px := make([]float64, blk*per)  // their cross terms
	pgl := make([]float64, blk*per*fl)
	pgm := make([]float64, blk*per*fl)
	ctxs := make([]int32, 0, 2*win)
	negX := make([]float64, nneg)
	cn := make([]float64, nneg)    // the loss's derivative in each negative's score
	cnSum := make([]float64, nneg) // shared negatives: cn summed over the window
	// Shared negatives: drawn once per center, their terms kept here.
	var sNegs []int32
	var sX, sGL, sGM []float64
	if shared {
		sNegs = make([]int32, nneg)
		sX, sGL, sGM = make([]float64, nneg), make([]float64, nneg*fl), make([]float64, nneg*fl)
	}
	// negRecords adds sum_k w_k grad_{mu_w} s-_k to the center's
	// gradient and records w_k grad_{nu_c'} s-_k for every negative with
	// w_k != 0 (negs the negatives, negGL and negGM their cross-term
	// gradients, fl each).
	negRecords := func(mw []float64, inOff int, w []float64, negs []int32, negGL, negGM []float64) {
		gin := ch.vals[inOff : inOff+d+fl]
		for k, nw := range negs {
			if w[k] == 0 {
				continue
			}
			mn := m.CMeans[int(nw)*d : (int(nw)+1)*d]
			for i := 0; i < d; i++ {
				gin[i] += w[k] * mn[i]
			}
			g := negGL[k*fl : (k+1)*fl]
			for i := 0; i < fl; i++ {
				gin[d+i] += w[k] * g[i]
			}
		}
		for k, nw := range negs {
			if w[k] == 0 {
				continue
			}
			off := len(ch.vals)
			ch.vals = append(ch.vals, make([]float64, d+fl)...)
			gn := ch.vals[off:]
			for i := 0; i < d; i++ {
				gn[i] = w[k] * mw[i]
			}
			g := negGM[k*fl : (k+1)*fl]
			for i := 0; i < fl; i++ {
				gn[d+i] = w[k] * g[i]
			}
			ch.ctx = append(ch.ctx, record{word: nw, off: off})
		}
	}
	for c := a; c < b; c++ {
		if ctx.Err() != nil {
			return
		}
		w := int(kept[c])
		mw := m.Means[w*d : (w+1)*d]
		lw := m.Factors[w*fl : (w+1)*fl]
		if !m.Diagonal && !ws.setCenter(lw, Eps) {
			continue
		}
		inOff := len(ch.vals)
		ch.vals = append(ch.vals, make([]float64, d+fl)...)
		active := 0
		if shared {
			for k := range sNegs {
				sNegs[k] = t.negative(rng)
			}
			t.crossTerms(ws, lw, sNegs, sX, sGL, sGM)
			for k, nw := range sNegs {
				negX[k] = dot(mw, m.CMeans[int(nw)*d:(int(nw)+1)*d]) + sX[k]
			}
			clear(cnSum)
		}
		ctxs = t.contexts(ctxs[:0], kept, c, win, rng)
		for j0 := 0; j0 < len(ctxs); j0 += blk {
			j1 := min(j0+blk, len(ctxs))
			pw = pw[:0]
			for j := j0; j < j1; j++ {
				pw = append(pw, ctxs[j])
				if !shared {
					for k := 0; k < nneg; k++ {
						pw = append(pw, t.negative(rng))
					}
				}
			}
			t.crossTerms(ws, lw, pw, px, pgl, pgm)
			for j := j0; j < j1; j++ {
				q := (j - j0) * per // the positive's index in the block
				ctx := int(ctxs[j])
				// Positive pair.
				mc := m.CMeans[ctx*d : (ctx+1)*d]
				pos := dot(mw, mc) + px[q]
				posGL, posGM := pgl[q*fl:(q+1)*fl], pgm[q*fl:(q+1)*fl]
				negs, negGL, negGM := sNegs, sGL, sGM
				if !shared {
					negs = pw[q+1 : q+1+nneg]
					negGL, negGM = pgl[(q+1)*fl:(q+1+nneg)*fl], pgm[(q+1)*fl:(q+1+nneg)*fl]
					for k, nw := range negs {
						negX[k] = dot(mw, m.CMeans[int(nw)*d:(int(nw)+1)*d]) + px[q+1+k]
					}
				}
				ch.pairs++
				loss, cp := t.pairLoss(pos, negX, cn)
				if cp == 0 && allZero(cn) {
					continue
				}
				ch.loss += loss
				active++
				gin := ch.vals[inOff : inOff+d+fl]
				// Center: cp (b_c, T^{AB} L); context: cp (a, T^{BA} M).
				for i := 0; i < d; i++ {
					gin[i] += cp * mc[i]
				}
				for i := 0; i < fl; i++ {
					gin[d+i] += cp * posGL[i]
				}
				if cp != 0 {
					off := len(ch.vals)
					ch.vals = append(ch.vals, make([]float64, d+fl)...)
					gc := ch.vals[off:]
					for i := 0; i < d; i++ {
						gc[i] = cp * mw[i]
					}
					for i := 0; i < fl; i++ {
						gc[d+i] = cp * posGM[i]
					}
					ch.ctx = append(ch.ctx, record{word: int32(ctx), off: off})
				}
				if shared {
					addTo(cnSum, cn)
				} else {
					negRecords(mw, inOff, cn, negs, negGL, negGM)
				}
			}
		}
		if shared && active > 0 {
			// Every pair of this center has the same negatives.
			negRecords(mw, inOff, cnSum, sNegs, sGL, sGM)
		}
		if active > 0 {
			ch.in = append(ch.in, record{word: int32(w), off: inOff})
		} else {
			ch.vals = ch.vals[:inOff]
		}
	}
}

// lazy reports whether runChunk runs runChunkLazy: square factors on the
// kernel's lanes (pairWS.crossLanesOK), a draw of negatives per pair, and
// not eager. Its context records then hold c T^{BA} (upper triangle)
// instead of c T^{BA} M (ctxFactorGrad).
func (t *trainer) lazy() bool {
	m := t.m
	return !t.eager && !m.Diagonal && !t.cfg.SharedNegatives && m.Rank == m.Dim && m.Dim > eigJacobiMaxDim && pairkernel.GemmAccelerated()
}

// triLen is the length of a d x d symmetric matrix's upper triangle.
func triLen(d int) int { return d * (d + 1) / 2 }

// runChunkLazy is runChunk for square factors on the kernel's lanes
// (crossLanesOK) with a draw of negatives per pair: a block's cross terms
// first (crossBlock: the eigendecompositions, no gradients), then the
// losses, then the gradients only of the scores whose derivative is not
// zero (a hinge per negative at the defaults: an inactive hinge needs
// none, a positive none when all its hinges are inactive). The context
// factors' gradients T^{BA} M are crossGemm's, bit for bit; the center's
// T^{AB} L = R^{-T} S^{1/2} P are summed as R^{-T} (sum_k c_k S_k^{1/2}) P
// once per center (addRoot, centerGrad), which rounds differently from
// summing them pair by pair. A context record holds c mu_w and c T^{BA}
// (its upper triangle, gradT) instead of c T^{BA} M: the step sums them
// per word and multiplies by the word's M once (ctxFactorGrad), which
// again rounds differently. The random draws, the losses and the means'
// gradients are runChunk's.
func (t *trainer) runChunkLazy(ctx context.Context, ch *chunk, ws *pairWS, kept []int32, a, b int, rng *rand.Rand) {
	m := t.m
	d, fl := m.Dim, t.fl
	ch.in, ch.ctx, ch.vals = ch.in[:0], ch.ctx[:0], ch.vals[:0]
	ch.loss, ch.pairs = 0, 0
	nneg := t.cfg.Negatives
	win := t.cfg.Window
	per := 1 + nneg
	blk := max(1, blockPairs/per)
	pw := make([]int32, 0, blk*per)
	px, ux := make([]float64, blk*per), make([]float64, blk*per)
	at := make([]int32, blk*per)
	if len(ws.mark) != len(m.Words) {
		ws.mark, ws.slot = make([]uint64, len(m.Words)), make([]int32, len(m.Words))
	}
	ctxs := make([]int32, 0, 2*win)
	negX := make([]float64, nneg)
	cn := make([]float64, nneg)
	tl := triLen(d)
	// addCtx appends a context record c mw, c T^{BA} (upper triangle)
	// for the block's pair q with context word nw.
	addCtx := func(mw []float64, q int, nw int32, c float64) {
		off := len(ch.vals)
		ch.vals = append(ch.vals, make([]float64, d+tl)...)
		g := ch.vals[off : off+d+tl]
		for i := 0; i < d; i++ {
			g[i] = c * mw[i]
		}
		ws.gradT(q, g[d:], c)
		ch.ctx = append(ch.ctx, record{word: nw, off: off})
	}
	for c := a; c < b; c++ {
		if ctx.Err() != nil {
			return
		}
		w := int(kept[c])
		mw := m.Means[w*d : (w+1)*d]
		lw := m.Factors[w*fl : (w+1)*fl]
		if !ws.setCenter(lw, Eps) {
			continue
		}
		inOff := len(ch.vals)
		ch.vals = append(ch.vals, make([]float64, d+fl)...)
		active := 0
		ctxs = t.contexts(ctxs[:0], kept, c, win, rng)
		for j0 := 0; j0 < len(ctxs); j0 += blk {
			j1 := min(j0+blk, len(ctxs))
			pw = pw[:0]
			for j := j0; j < j1; j++ {
				pw = append(pw, ctxs[j])
				for k := 0; k < nneg; k++ {
					pw = append(pw, t.negative(rng))
				}
			}
			// A word drawn twice in the block is decomposed once (the
			// same inputs give the same bits): pair k is the kernel's
			// pair at[k].
			ws.stamp++
			nu := 0
			for k, nw := range pw {
				if ws.mark[nw] == ws.stamp {
					at[k] = ws.slot[nw]
					continue
				}
				ws.mark[nw], ws.slot[nw] = ws.stamp, int32(nu)
				at[k] = int32(nu)
				ws.bms[nu] = m.CFactors[int(nw)*fl : (int(nw)+1)*fl]
				nu++
			}
			ws.crossBlock(ws.bms[:nu], Eps, ux[:nu])
			for k := range pw {
				px[k] = ux[at[k]]
			}
			for j := j0; j < j1; j++ {
				q := (j - j0) * per // the positive's index in the block
				ctx := int(ctxs[j])
				mc := m.CMeans[ctx*d : (ctx+1)*d]
				pos := dot(mw, mc) + px[q]
				negs := pw[q+1 : q+1+nneg]
				for k, nw := range negs {
					negX[k] = dot(mw, m.CMeans[int(nw)*d:(int(nw)+1)*d]) + px[q+1+k]
				}
				ch.pairs++
				loss, cp := t.pairLoss(pos, negX, cn)
				if cp == 0 && allZero(cn) {
					continue
				}
				ch.loss += loss
				active++
				// The center's terms first (addCtx may move ch.vals).
				gin := ch.vals[inOff : inOff+d]
				for i := 0; i < d; i++ {
					gin[i] += cp * mc[i]
				}
				for k, nw := range negs {
					if cn[k] == 0 {
						continue
					}
					mn := m.CMeans[int(nw)*d : (int(nw)+1)*d]
					for i := 0; i < d; i++ {
						gin[i] += cn[k] * mn[i]
					}
					ws.addRoot(int(at[q+1+k]), cn[k])
				}
				if cp != 0 {
					ws.addRoot(int(at[q]), cp)
					addCtx(mw, int(at[q]), int32(ctx), cp)
				}
				for k, nw := range negs {
					if cn[k] != 0 {
						addCtx(mw, int(at[q+1+k]), nw, cn[k])
					}
				}
			}
		}
		if active > 0 {
			ws.centerGrad(ch.vals[inOff+d : inOff+d+fl])
			ch.in = append(ch.in, record{word: int32(w), off: inOff})
		} else {
			ch.vals = ch.vals[:inOff]
		}
	}
}

// blockPairs is the most pairs runChunk hands the kernel at once (a
// center's window at the defaults: 10 contexts of 1 + 5 pairs).
const blockPairs = 64

// crossTerms writes the cross terms tr (A^{1/2} B A^{1/2})^{1/2} of the
// current center (factor lw, set in ws) against the context measures of
// words into x, and their gradients in the center's and the context's
// factor into gl and gm (fl each, in the order of words): by the
// kernel's lanes where it has them, else one pair at a time, the same
// numbers either way.
func (t *trainer) crossTerms(ws *pairWS, lw []float64, words []int32, x, gl, gm []float64) {
	m, fl := t.m, t.fl
	if !m.Diagonal && ws.crossLanesOK() {
		nl := ws.lanes()
		for k0 := 0; k0 < len(words); k0 += nl {
			n := min(nl, len(words)-k0)
			var ms, gls, gms [pairkernel.WideLanes][]float64
			for q := 0; q < n; q++ {
				nw, k := int(words[k0+q]), k0+q
				ms[q] = m.CFactors[nw*fl : (nw+1)*fl]
				gls[q], gms[q] = gl[k*fl:(k+1)*fl], gm[k*fl:(k+1)*fl]
			}
			xs := ws.crossLanes(&ms, n, Eps, &gls, &gms)
			copy(x[k0:k0+n], xs[:n])
		}
		return
	}
	for k, nw := range words {
		x[k] = t.cross(ws, lw, m.CFactors[int(nw)*fl:(int(nw)+1)*fl], gl[k*fl:(k+1)*fl], gm[k*fl:(k+1)*fl])
	}
}

// pairLoss returns the loss of one positive pair with score pos and
// negatives' scores neg, the loss's derivative cp in pos and (into cn)
// its derivatives in every neg[k]. A hinge that is not active gives loss
// 0 and zero derivatives.
func (t *trainer) pairLoss(pos float64, neg, cn []float64) (loss, cp float64) {
	switch t.cfg.Loss {
	case LossHingeEach:
		for k, x := range neg {
			cn[k] = 0
			if h := t.cfg.Margin - pos + x; h > 0 {
				loss += h
				cp--
				cn[k] = 1
			}
		}
		return loss, cp
	case LossLogistic:
		// -log sigmoid(pos) = softplus(-pos), -log sigmoid(-x) = softplus(x).
		loss = softplus(-pos)
		cp = -sigmoid(-pos)
		for k, x := range neg {
			loss += softplus(x)
			cn[k] = sigmoid(x)
		}
		return loss, cp
	}
	inv := 1 / float64(len(neg))
	var mean float64
	for _, x := range neg {
		mean += x
	}
	h := t.cfg.Margin - pos + inv*mean
	if !(h > 0) {
		clear(cn)
		return 0, 0
	}
	for k := range cn {
		cn[k] = inv
	}
	return h, -1
}

// softplus returns log(1 + e^x) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// sigmoid returns 1 / (1 + e^-x) without overflow.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

func allZero(x []float64) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}

// cross returns the covariance part of [mu_w : nu_c] and fills its
// gradients with respect to the center's factor (gl) and the context's
// (gm).
func (t *trainer) cross(ws *pairWS, lw, lc, gl, gm []float64) float64 {
	if t.m.Diagonal {
		return crossDiag(lw, lc, Eps, gl, gm)
	}
	x := ws.cross(lc, Eps, true)
	copy(gl, ws.gl)
	copy(gm, ws.gm)
	return x
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}
