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
	Window     int     // context words on each side of the center (fixed, not shrunk)
	Subsample  float64 // frequent-word subsampling threshold t; 0 disables
	Negatives  int     // negative contexts per positive pair
	Margin     float64 // hinge margin M
	LR         float64 // Adagrad learning rate
	AdagradEps float64 // added to the accumulator under the square root
	Epochs     int     // epochs to run in this call
	Threads    int     // worker goroutines (results do not depend on it)
	Batch      int     // center words per Adagrad step
	Seed       uint64  // fixes subsampling and negatives
	// ResetAdagrad zeroes the Adagrad accumulators at the start of every
	// epoch, as the authors' code does.
	ResetAdagrad bool
}

// DefaultConfig returns the paper's settings (supplementary, word
// embeddings): window 5 each side, subsampling 1e-5, one negative,
// margin 10, Adagrad with learning rate 0.01 and epsilon 1e-8, 5 epochs.
func DefaultConfig() Config {
	return Config{Window: 5, Subsample: 1e-5, Negatives: 1, Margin: 10, LR: 0.01, AdagradEps: 1e-8,
		Epochs: 5, Threads: 1, Batch: 256, Seed: 1}
}

func (c Config) check() error {
	switch {
	case c.Window < 1:
		return fmt.Errorf("window %d, want >= 1", c.Window)
	case !(c.Subsample >= 0):
		return fmt.Errorf("subsample %v, want >= 0", c.Subsample)
	case c.Negatives < 1:
		return fmt.Errorf("negatives %d, want >= 1", c.Negatives)
	case !(c.Margin >= 0) || math.IsInf(c.Margin, 0):
		return fmt.Errorf("margin %v, want a finite number >= 0", c.Margin)
	case !(c.LR > 0) || math.IsInf(c.LR, 0):
		return fmt.Errorf("learning rate %v, want a finite number > 0", c.LR)
	case !(c.AdagradEps >= 0):
		return fmt.Errorf("Adagrad epsilon %v, want >= 0", c.AdagradEps)
	case c.Epochs < 0:
		return fmt.Errorf("epochs %d, want >= 0", c.Epochs)
	case c.Batch < 1:
		return fmt.Errorf("batch %d, want >= 1", c.Batch)
	}
	return nil
}

// Progress is reported after every Adagrad step.
type Progress struct {
	Epoch, Epochs int     // current epoch (1-based, counting resumed ones) and last epoch
	Done, Total   int     // centers processed in this epoch and centers it has (after subsampling)
	Fraction      float64 // of this call's work done, 0..1
	CorpusTokens  float64 // corpus tokens (before subsampling) covered since the call began
	TokensPerSec  float64 // CorpusTokens per wall-clock second
	Loss          float64 // mean hinge loss per positive pair in this epoch so far
	Elapsed       time.Duration
}

// chunkCenters is the number of centers per unit of parallel work; chunks
// are seeded by their index, so results do not depend on Threads.
const chunkCenters = 32

// Train runs cfg.Epochs epochs of skipgram training on tokens (vocabulary
// ids of m; several documents may be concatenated) and updates m in place,
// Epochs included. Each step processes cfg.Batch centers: gradients are
// computed in parallel from the parameters as they were at the start of
// the step, summed per word in a fixed order and applied with Adagrad, so
// a seed gives bit-identical models for any number of threads.
//
// ctx is checked between steps; on cancellation m holds the parameters
// after the last complete step (Epochs not advanced) and ctx.Err() is
// returned. progress, if not nil, is called from the calling goroutine.
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
	var corpus float64
	for e := 0; e < cfg.Epochs; e++ {
		epoch := first + e
		if cfg.ResetAdagrad {
			for _, a := range [][]float64{m.AccMeans, m.AccFactors, m.AccCMeans, m.AccCFactors} {
				clear(a)
			}
		}
		kept := tr.subsample(tokens, epoch)
		var lossSum float64
		var pairs int
		for b := 0; b < len(kept); b += cfg.Batch {
			if err := ctx.Err(); err != nil {
				return err
			}
			end := min(b+cfg.Batch, len(kept))
			l, p := tr.step(kept, b, end, epoch)
			lossSum += l
			pairs += p
			corpus += float64(end-b) / float64(max(len(kept), 1)) * float64(len(tokens))
			if progress != nil {
				el := time.Since(start)
				pr := Progress{Epoch: epoch + 1, Epochs: first + cfg.Epochs, Done: end, Total: len(kept),
					Fraction:     (float64(e) + float64(end)/float64(len(kept))) / float64(cfg.Epochs),
					CorpusTokens: corpus, Elapsed: el}
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
	fl      int

	// Dense gradient accumulators and the words touched in this step.
	gMeans, gFac, gCMeans, gCFac []float64
	tIn, tCtx                    []int32
	inTouched, ctxTouched        []bool

	chunks []*chunk
	ws     []*pairWS
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
		f := float64(c) / total
		t.keep[i] = 1
		if cfg.Subsample > 0 && f > 0 {
			t.keep[i] = math.Min(1, (math.Sqrt(f/cfg.Subsample)+1)*cfg.Subsample/f)
		}
		acc += math.Pow(math.Max(float64(c), 0), 0.75)
		t.cum[i] = acc
	}
	if !(acc > 0) { // all counts zero: uniform negatives
		for i := range t.cum {
			t.cum[i] = float64(i + 1)
		}
	}
	d := m.Dim
	t.gMeans, t.gCMeans = make([]float64, n*d), make([]float64, n*d)
	t.gFac, t.gCFac = make([]float64, n*t.fl), make([]float64, n*t.fl)
	t.inTouched, t.ctxTouched = make([]bool, n), make([]bool, n)
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
	u := rng.Float64() * t.cum[len(t.cum)-1]
	return int32(sort.SearchFloat64s(t.cum, u))
}

// step processes the centers kept[lo:hi] as one Adagrad step and returns
// the summed hinge loss and the number of positive pairs.
func (t *trainer) step(kept []int32, lo, hi, epoch int) (float64, int) {
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
				t.runChunk(t.chunks[c], ws, kept, a, b, rng)
			}
		}(t.ws[w])
	}
	wg.Wait()
	var loss float64
	var pairs int
	d, fl := t.m.Dim, t.fl
	for c := 0; c < nch; c++ {
		ch := t.chunks[c]
		loss += ch.loss
		pairs += ch.pairs
		for _, r := range ch.in {
			if !t.inTouched[r.word] {
				t.inTouched[r.word] = true
				t.tIn = append(t.tIn, r.word)
			}
			addTo(t.gMeans[int(r.word)*d:], ch.vals[r.off:r.off+d])
			addTo(t.gFac[int(r.word)*fl:], ch.vals[r.off+d:r.off+d+fl])
		}
		for _, r := range ch.ctx {
			if !t.ctxTouched[r.word] {
				t.ctxTouched[r.word] = true
				t.tCtx = append(t.tCtx, r.word)
			}
			addTo(t.gCMeans[int(r.word)*d:], ch.vals[r.off:r.off+d])
			addTo(t.gCFac[int(r.word)*fl:], ch.vals[r.off+d:r.off+d+fl])
		}
	}
	m := t.m
	for _, w := range t.tIn {
		t.adagrad(m.Means, m.AccMeans, t.gMeans, int(w), d)
		t.adagrad(m.Factors, m.AccFactors, t.gFac, int(w), fl)
		t.inTouched[w] = false
	}
	for _, w := range t.tCtx {
		t.adagrad(m.CMeans, m.AccCMeans, t.gCMeans, int(w), d)
		t.adagrad(m.CFactors, m.AccCFactors, t.gCFac, int(w), fl)
		t.ctxTouched[w] = false
	}
	t.tIn, t.tCtx = t.tIn[:0], t.tCtx[:0]
	return loss, pairs
}

func addTo(dst, src []float64) {
	for i, v := range src {
		dst[i] += v
	}
}

// adagrad applies x -= lr g / sqrt(G + eps) with G += g^2 to the per-word
// block w (length per) and zeroes the gradient block.
func (t *trainer) adagrad(x, acc, g []float64, w, per int) {
	lr, eps := t.cfg.LR, t.cfg.AdagradEps
	xs, as, gs := x[w*per:(w+1)*per], acc[w*per:(w+1)*per], g[w*per:(w+1)*per]
	for i, gi := range gs {
		if gi == 0 {
			continue
		}
		as[i] += gi * gi
		xs[i] -= lr * gi / math.Sqrt(as[i]+eps)
		gs[i] = 0
	}
}

// runChunk computes the gradient records of the centers kept[a:b].
func (t *trainer) runChunk(ch *chunk, ws *pairWS, kept []int32, a, b int, rng *rand.Rand) {
	m := t.m
	d, fl := m.Dim, t.fl
	ch.in, ch.ctx, ch.vals = ch.in[:0], ch.ctx[:0], ch.vals[:0]
	ch.loss, ch.pairs = 0, 0
	nneg := t.cfg.Negatives
	inv := 1 / float64(nneg)
	win := t.cfg.Window
	negs := make([]int32, nneg)
	negX := make([]float64, nneg)
	negGL := make([]float64, nneg*fl) // gradients of the negatives' cross terms, fl each
	negGM := make([]float64, nneg*fl)
	posGL := make([]float64, fl)
	posGM := make([]float64, fl)
	for c := a; c < b; c++ {
		w := int(kept[c])
		mw := m.Means[w*d : (w+1)*d]
		lw := m.Factors[w*fl : (w+1)*fl]
		if !m.Diagonal && !ws.setCenter(lw, Eps) {
			continue
		}
		inOff := len(ch.vals)
		ch.vals = append(ch.vals, make([]float64, d+fl)...)
		touched := false
		for p := c - win; p <= c+win; p++ {
			if p == c || p < 0 || p >= len(kept) {
				continue
			}
			ctx := int(kept[p])
			for k := range negs {
				negs[k] = t.negative(rng)
			}
			// Positive pair.
			mc := m.CMeans[ctx*d : (ctx+1)*d]
			lc := m.CFactors[ctx*fl : (ctx+1)*fl]
			pos := dot(mw, mc) + t.cross(ws, lw, lc, posGL, posGM)
			var neg float64
			if !m.Diagonal && ws.crossLanesOK() {
				// The negatives pairkernel.Lanes at a time, their
				// eigendecompositions interleaved (the same numbers as
				// one by one).
				for k0 := 0; k0 < len(negs); k0 += pairkernel.Lanes {
					n := min(pairkernel.Lanes, len(negs)-k0)
					var ms, gls, gms [pairkernel.Lanes][]float64
					for q := 0; q < n; q++ {
						nw, k := int(negs[k0+q]), k0+q
						ms[q] = m.CFactors[nw*fl : (nw+1)*fl]
						gls[q], gms[q] = negGL[k*fl:(k+1)*fl], negGM[k*fl:(k+1)*fl]
					}
					xs := ws.crossLanes(&ms, n, Eps, &gls, &gms)
					for q := 0; q < n; q++ {
						nw, k := int(negs[k0+q]), k0+q
						negX[k] = dot(mw, m.CMeans[nw*d:(nw+1)*d]) + xs[q]
						neg += negX[k]
					}
				}
			} else {
				for k, nw := range negs {
					mn := m.CMeans[int(nw)*d : (int(nw)+1)*d]
					ln := m.CFactors[int(nw)*fl : (int(nw)+1)*fl]
					negX[k] = dot(mw, mn) + t.cross(ws, lw, ln, negGL[k*fl:(k+1)*fl], negGM[k*fl:(k+1)*fl])
					neg += negX[k]
				}
			}
			h := t.cfg.Margin - pos + inv*neg
			ch.pairs++
			if !(h > 0) {
				continue
			}
			ch.loss += h
			touched = true
			gin := ch.vals[inOff : inOff+d+fl]
			// Center: -b_c + (1/n) sum b_c', -T L + (1/n) sum T' L.
			for i := 0; i < d; i++ {
				gin[i] -= mc[i]
			}
			for i := 0; i < fl; i++ {
				gin[d+i] -= posGL[i]
			}
			for k, nw := range negs {
				mn := m.CMeans[int(nw)*d : (int(nw)+1)*d]
				for i := 0; i < d; i++ {
					gin[i] += inv * mn[i]
				}
				g := negGL[k*fl : (k+1)*fl]
				for i := 0; i < fl; i++ {
					gin[d+i] += inv * g[i]
				}
			}
			// Context: -a, -T^{BA} M; negatives: a/n, T^{B'A} M'/n.
			off := len(ch.vals)
			ch.vals = append(ch.vals, make([]float64, d+fl)...)
			gc := ch.vals[off:]
			for i := 0; i < d; i++ {
				gc[i] = -mw[i]
			}
			for i := 0; i < fl; i++ {
				gc[d+i] = -posGM[i]
			}
			ch.ctx = append(ch.ctx, record{word: int32(ctx), off: off})
			for k, nw := range negs {
				off := len(ch.vals)
				ch.vals = append(ch.vals, make([]float64, d+fl)...)
				gn := ch.vals[off:]
				for i := 0; i < d; i++ {
					gn[i] = inv * mw[i]
				}
				g := negGM[k*fl : (k+1)*fl]
				for i := 0; i < fl; i++ {
					gn[d+i] = inv * g[i]
				}
				ch.ctx = append(ch.ctx, record{word: nw, off: off})
			}
		}
		if touched {
			ch.in = append(ch.in, record{word: int32(w), off: inOff})
		} else {
			ch.vals = ch.vals[:inOff]
		}
	}
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
