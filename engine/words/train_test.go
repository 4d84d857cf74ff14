package words

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"burescope/engine"
)

// testModel returns a small model over n words with counts n..1.
func testModel(t *testing.T, n, d, k int, diagonal bool, seed uint64) *Model {
	t.Helper()
	ws := make([]string, n)
	cs := make([]int64, n)
	for i := range ws {
		ws[i] = fmt.Sprintf("w%d", i)
		cs[i] = int64(n - i)
	}
	m, err := NewModel(ws, cs, d, k, diagonal, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// chunkLossGrad runs the trainer's chunk kernel over all tokens as one
// chunk and returns the summed hinge loss and the dense gradient of every
// parameter (means, factors, context means, context factors in that
// order, as laid out in the model).
func chunkLossGrad(m *Model, tokens []int32, cfg Config) (float64, [4][]float64) {
	tr := newTrainer(m, cfg, 1)
	ch := &chunk{}
	rng := rand.New(rand.NewPCG(7, 8))
	tr.runChunk(context.Background(), ch, tr.ws[0], tokens, 0, len(tokens), rng)
	d, fl := m.Dim, tr.fl
	var g [4][]float64
	g[0], g[1] = make([]float64, len(m.Means)), make([]float64, len(m.Factors))
	g[2], g[3] = make([]float64, len(m.CMeans)), make([]float64, len(m.CFactors))
	for _, r := range ch.in {
		addTo(g[0][int(r.word)*d:], ch.vals[r.off:r.off+d])
		addTo(g[1][int(r.word)*fl:], ch.vals[r.off+d:r.off+d+fl])
	}
	for _, r := range ch.ctx {
		addTo(g[2][int(r.word)*d:], ch.vals[r.off:r.off+d])
	}
	ctxFactorGrads(tr, ch, g[3])
	return ch.loss, g
}

// ctxFactorGrads adds the context factors' gradients of ch's records to
// g (fl per word), by plain loops: a record's c T^{BA} M, or, for
// runChunkLazy's records, its c T^{BA} (upper triangle) summed per word
// and then multiplied by the word's factor M.
func ctxFactorGrads(tr *trainer, ch *chunk, g []float64) {
	m := tr.m
	d, fl := m.Dim, tr.fl
	if !tr.lazy() {
		for _, r := range ch.ctx {
			addTo(g[int(r.word)*fl:], ch.vals[r.off+d:r.off+d+fl])
		}
		return
	}
	tl := triLen(d)
	sum := map[int32][]float64{}
	for _, r := range ch.ctx {
		if sum[r.word] == nil {
			sum[r.word] = make([]float64, tl)
		}
		addTo(sum[r.word], ch.vals[r.off+d:r.off+d+tl])
	}
	for w, u := range sum {
		full := make([]float64, d*d)
		x := 0
		for i := 0; i < d; i++ {
			for j := i; j < d; j++ {
				full[i*d+j], full[j*d+i] = u[x], u[x]
				x++
			}
		}
		mw := m.CFactors[int(w)*fl : (int(w)+1)*fl]
		gw := g[int(w)*fl : (int(w)+1)*fl]
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				var v float64
				for p := 0; p < d; p++ {
					v += full[i*d+p] * mw[p*d+j]
				}
				gw[i*d+j] += v
			}
		}
	}
}

// TestGradientFiniteDifferences compares the trainer's gradient of the
// summed loss with central finite differences of the loss, for every
// loss, the full and the diagonal model, on every parameter of a tiny
// model.
func TestGradientFiniteDifferences(t *testing.T) {
	tokens := []int32{0, 1, 2, 3, 1, 4, 0, 2, 3, 4, 1, 0}
	type tc struct {
		name     string
		d, k     int
		diagonal bool
		negs     int
		shared   bool
		loss     Loss
	}
	base := []tc{{"full_d3", 3, 3, false, 1, false, 0}, {"rank2_d4", 4, 2, false, 2, false, 0}, {"full_d6", 6, 6, false, 1, false, 0}, {"diagonal_d4", 4, 4, true, 2, false, 0},
		{"full_d3_shared_negatives", 3, 3, false, 3, true, 0}, {"full_d6_shared_negatives", 6, 6, false, 5, true, 0}, {"diagonal_d4_shared_negatives", 4, 4, true, 2, true, 0}}
	var cases []tc
	for _, l := range []Loss{LossHinge, LossHingeEach, LossLogistic} {
		for _, c := range base {
			c.name, c.loss = l.String()+"_"+c.name, l
			cases = append(cases, c)
		}
	}
	// The reduced window (drawn from the chunk's generator, the same
	// draws for every evaluation below) with a fixed and a shared draw
	// of negatives.
	for _, c := range []tc{{"full_d6", 6, 6, false, 2, false, LossHingeEach}, {"full_d4_shared_negatives", 4, 4, false, 2, true, LossHingeEach}} {
		c.name = "shrink_window_" + c.loss.String() + "_" + c.name
		cases = append(cases, c)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := testModel(t, 5, c.d, c.k, c.diagonal, 11)
			cfg := PaperConfig()
			cfg.Window, cfg.Negatives, cfg.Margin, cfg.SharedNegatives, cfg.Loss = 2, c.negs, 50, c.shared, c.loss // every hinge active: no kinks
			if strings.HasPrefix(c.name, "shrink_window_") {
				cfg.Window, cfg.ShrinkWindow = 3, true
			}
			if c.loss == LossLogistic {
				// Smaller covariances and larger means: scores of both
				// signs, so that no sigmoid is saturated.
				for _, x := range [][]float64{m.Factors, m.CFactors} {
					for i := range x {
						x[i] *= 0.3
					}
				}
				for _, x := range [][]float64{m.Means, m.CMeans} {
					for i := range x {
						x[i] *= 3
					}
				}
				var lo, hi float64
				for i := range m.Words {
					for j := range m.Words {
						s := m.PairScore(i, j)
						lo, hi = math.Min(lo, s), math.Max(hi, s)
					}
				}
				if !(lo < -0.5 && hi > 0.5) {
					t.Fatalf("pair scores in [%.3g, %.3g], want both signs", lo, hi)
				}
			}
			loss0, g := chunkLossGrad(m, tokens, cfg)
			if !(loss0 > 0) {
				t.Fatalf("loss %v, want > 0", loss0)
			}
			params := [4][]float64{m.Means, m.Factors, m.CMeans, m.CFactors}
			const h = 1e-6
			for p, x := range params {
				for i := range x {
					old := x[i]
					x[i] = old + h
					lp, _ := chunkLossGrad(m, tokens, cfg)
					x[i] = old - h
					lm, _ := chunkLossGrad(m, tokens, cfg)
					x[i] = old
					fd := (lp - lm) / (2 * h)
					if !(math.Abs(fd-g[p][i]) <= 1e-5*math.Max(1, math.Abs(fd))) {
						t.Errorf("parameter block %d, entry %d: gradient %v, finite difference %v", p, i, g[p][i], fd)
					}
				}
			}
		})
	}
}

// TestPairScoreIsPseudoDotProduct checks the model's pair score against
// engine.DotProduct on the covariances the model reports.
func TestPairScoreIsPseudoDotProduct(t *testing.T) {
	for _, diagonal := range []bool{false, true} {
		t.Run(fmt.Sprintf("diagonal=%v", diagonal), func(t *testing.T) {
			m := testModel(t, 4, 5, 5, diagonal, 2)
			for i := 0; i < 4; i++ {
				for j := 0; j < 4; j++ {
					want := engine.DotProduct(m.Means[i*m.Dim:(i+1)*m.Dim], m.Covariance(Input, i), m.CMeans[j*m.Dim:(j+1)*m.Dim], m.Covariance(Context, j), 5)
					if got := m.PairScore(i, j); !(math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))) {
						t.Errorf("(%d,%d): %v, DotProduct %v", i, j, got, want)
					}
				}
			}
		})
	}
}

// plantedCorpus generates sentences of topics: word w belongs to topic
// w % topics and every sentence of length 8 draws its words from one
// topic.
func plantedCorpus(topics, perTopic, sentences int, seed uint64) (tokens []int32, words []string, counts []int64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	n := topics * perTopic
	counts = make([]int64, n)
	for s := 0; s < sentences; s++ {
		tp := rng.IntN(topics)
		for i := 0; i < 8; i++ {
			w := int32(tp + topics*rng.IntN(perTopic))
			tokens = append(tokens, w)
			counts[w]++
		}
	}
	for i := 0; i < n; i++ {
		words = append(words, fmt.Sprintf("t%dw%d", i%topics, i/topics))
	}
	return tokens, words, counts
}

// TestPlantedTopicsRecovered trains on a corpus with planted topics and
// checks that the nearest neighbours of words (mixture cosine on the
// context set, as the paper evaluates) are mostly words of the same topic.
func TestPlantedTopicsRecovered(t *testing.T) {
	const topics, perTopic = 4, 6
	tokens, ws, counts := plantedCorpus(topics, perTopic, 1500, 9)
	for _, diagonal := range []bool{false, true} {
		t.Run(fmt.Sprintf("diagonal=%v", diagonal), func(t *testing.T) {
			m, err := NewModel(ws, counts, 4, 4, diagonal, 3)
			if err != nil {
				t.Fatal(err)
			}
			cfg := PaperConfig()
			cfg.Window, cfg.Subsample, cfg.LR, cfg.Epochs, cfg.Threads, cfg.Batch = 3, 0, 0.05, 3, 2, 64
			if err := Train(context.Background(), m, tokens, cfg, nil); err != nil {
				t.Fatal(err)
			}
			e := m.Embedding(Context)
			n := e.Len()
			const k = perTopic - 1
			same := 0
			for i := 0; i < n; i++ {
				type nb struct {
					j int
					s float64
				}
				var best []nb
				for j := 0; j < n; j++ {
					if j != i {
						best = append(best, nb{j, engine.MixtureCosine(e.Mean(i), e.Scale(i), e.Mean(j), e.Scale(j), e.Dim, 1)})
					}
				}
				for a := 0; a < k; a++ { // partial selection sort
					for b := a + 1; b < len(best); b++ {
						if best[b].s > best[a].s {
							best[a], best[b] = best[b], best[a]
						}
					}
					if best[a].j%topics == i%topics {
						same++
					}
				}
			}
			frac := float64(same) / float64(n*k)
			t.Logf("same-topic fraction of the %d nearest neighbours: %.3f (chance %.3f)", k, frac, float64(perTopic-1)/float64(n-1))
			if !(frac >= 0.9) {
				t.Errorf("same-topic neighbour fraction %.3f, want >= 0.9", frac)
			}
		})
	}
}

// TestTrainReproducibleAcrossThreads checks that a seed gives bit-identical
// models for 1 and 3 worker goroutines, and that another seed differs,
// for the paper's loss and optimizer and for the logistic loss with SGD
// and a linear schedule.
func TestTrainReproducibleAcrossThreads(t *testing.T) {
	for _, c := range []struct {
		loss  Loss
		opt   Optimizer
		decay bool
		lr    float64
	}{{LossHinge, OptAdagrad, false, 0.01}, {LossHingeEach, OptAdagrad, true, 0.1}, {LossLogistic, OptSGD, true, 0.05}} {
		t.Run(fmt.Sprintf("%v_%v_decay=%v", c.loss, c.opt, c.decay), func(t *testing.T) {
			reproducible(t, c.loss, c.opt, c.decay, c.lr)
		})
	}
}

func reproducible(t *testing.T, loss Loss, opt Optimizer, decay bool, lr float64) {
	tokens, ws, counts := plantedCorpus(3, 5, 150, 4)
	run := func(threads int, seed uint64) *Model {
		m, err := NewModel(ws, counts, 3, 3, false, seed)
		if err != nil {
			t.Fatal(err)
		}
		cfg := PaperConfig()
		cfg.Threads, cfg.Seed, cfg.Epochs, cfg.Batch, cfg.Subsample = threads, seed, 2, 100, 0.01
		cfg.Loss, cfg.Optimizer, cfg.Decay, cfg.LR = loss, opt, decay, lr
		if err := Train(context.Background(), m, tokens, cfg, nil); err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b, c := run(1, 5), run(3, 5), run(1, 6)
	for p, pair := range [][2][]float64{{a.Means, b.Means}, {a.Factors, b.Factors}, {a.CMeans, b.CMeans}, {a.CFactors, b.CFactors}, {a.AccFactors, b.AccFactors}} {
		for i := range pair[0] {
			if pair[0][i] != pair[1][i] {
				t.Fatalf("block %d entry %d: %v with 1 thread, %v with 3", p, i, pair[0][i], pair[1][i])
			}
		}
	}
	if maxAbsDiff(a.Means, c.Means) == 0 {
		t.Error("seeds 5 and 6 gave the same means")
	}
}

// TestTrainResumeMatchesStraightRun checks that 1 + 1 epochs (training
// state carried over, as a saved file does) equal 2 epochs in one call,
// also with a linear learning-rate schedule (the resumed calls told the
// schedule's length), and that the schedule changes the result.
func TestTrainResumeMatchesStraightRun(t *testing.T) {
	tokens, ws, counts := plantedCorpus(3, 5, 100, 5)
	var constant *Model
	for _, c := range []struct {
		name  string
		mod   func(*Config)
		decay bool
	}{
		{"adagrad_constant", func(*Config) {}, false},
		{"adagrad_linear", func(c *Config) { c.Decay = true }, true},
		{"sgd_logistic_linear", func(c *Config) { c.Decay, c.Optimizer, c.Loss, c.LR = true, OptSGD, LossLogistic, 0.05 }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := PaperConfig()
			cfg.Subsample, cfg.Batch, cfg.Epochs = 0.02, 50, 2
			c.mod(&cfg)
			straight, _ := NewModel(ws, counts, 3, 2, false, 1)
			if err := Train(context.Background(), straight, tokens, cfg, nil); err != nil {
				t.Fatal(err)
			}
			resumed, _ := NewModel(ws, counts, 3, 2, false, 1)
			cfg.Epochs = 1
			if c.decay {
				cfg.TotalEpochs = 2
			}
			var lrs []float64
			for i := 0; i < 2; i++ {
				if err := Train(context.Background(), resumed, tokens, cfg, func(p Progress) { lrs = append(lrs, p.LR) }); err != nil {
					t.Fatal(err)
				}
			}
			if resumed.Epochs != 2 {
				t.Errorf("Epochs = %d, want 2", resumed.Epochs)
			}
			if e := maxAbsDiff(straight.CFactors, resumed.CFactors) + maxAbsDiff(straight.Means, resumed.Means); e != 0 {
				t.Errorf("resumed run differs from the straight run by %g", e)
			}
			first, last := lrs[0], lrs[len(lrs)-1]
			switch {
			case !c.decay && (first != cfg.LR || last != cfg.LR):
				t.Errorf("constant schedule: learning rates %v ... %v, want %v", first, last, cfg.LR)
			case c.decay && (first != cfg.LR || !(last < 0.1*cfg.LR) || !(last >= MinLRFraction*cfg.LR)):
				t.Errorf("linear schedule: learning rates %v ... %v, want %v down to below a tenth of it", first, last, cfg.LR)
			}
			if c.name == "adagrad_constant" {
				constant = straight
			} else if c.name == "adagrad_linear" && maxAbsDiff(constant.Means, straight.Means) == 0 {
				t.Error("the linear schedule gave the constant schedule's model")
			}
		})
	}
}

// TestChanceLoss checks ChanceLoss against the smallest loss over a grid
// of common scores x (s+ = s-_k = x) computed by pairLoss.
func TestChanceLoss(t *testing.T) {
	for _, loss := range []Loss{LossHinge, LossHingeEach, LossLogistic} {
		cfg := PaperConfig()
		cfg.Loss, cfg.Negatives, cfg.Margin = loss, 5, 10
		tr := &trainer{cfg: cfg}
		neg, cn := make([]float64, 5), make([]float64, 5)
		best := math.Inf(1)
		for x := -20.0; x <= 20; x += 0.001 {
			for k := range neg {
				neg[k] = x
			}
			l, _ := tr.pairLoss(x, neg, cn)
			best = math.Min(best, l)
		}
		want := map[Loss]float64{LossHinge: 10, LossHingeEach: 50, LossLogistic: math.Log(6) + 5*math.Log(1.2)}[loss]
		if got := cfg.ChanceLoss(); math.Abs(got-want) > 1e-12 || math.Abs(best-want) > 1e-6 {
			t.Errorf("%v: ChanceLoss %v, grid minimum %v, want %v", loss, got, best, want)
		}
	}
}

// TestTrainCancel checks that a cancelled context stops training with its
// error and leaves Epochs unchanged.
func TestTrainCancel(t *testing.T) {
	tokens, ws, counts := plantedCorpus(3, 5, 100, 5)
	m, _ := NewModel(ws, counts, 3, 3, false, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cfg := PaperConfig()
	cfg.Batch, cfg.Subsample = 10, 0
	steps := 0
	err := Train(ctx, m, tokens, cfg, func(p Progress) {
		steps++
		if steps == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if steps != 3 || m.Epochs != 0 {
		t.Errorf("%d steps, Epochs %d; want 3 steps and 0 epochs", steps, m.Epochs)
	}
}

// TestTrainRejectsBadInput checks the configuration and token checks.
func TestTrainRejectsBadInput(t *testing.T) {
	m := testModel(t, 3, 2, 2, false, 1)
	for _, c := range []struct {
		name   string
		mod    func(*Config)
		tokens []int32
	}{
		{"window", func(c *Config) { c.Window = 0 }, []int32{0, 1}},
		{"negatives", func(c *Config) { c.Negatives = 0 }, []int32{0, 1}},
		{"lr NaN", func(c *Config) { c.LR = math.NaN() }, []int32{0, 1}},
		{"margin", func(c *Config) { c.Margin = -1 }, []int32{0, 1}},
		{"token out of vocabulary", func(c *Config) {}, []int32{0, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := PaperConfig()
			c.mod(&cfg)
			if err := Train(context.Background(), m, c.tokens, cfg, nil); err == nil {
				t.Error("no error")
			}
		})
	}
}

// ModelBytes covers the save's peak: 20,000 words at d = 64 peaked at
// 7.48e9 bytes (maximum resident set, /usr/bin/time, --epochs 0); and a
// diagonal model needs far less than a full one.
func TestModelBytesCoversTheSave(t *testing.T) {
	if got := ModelBytes(20000, 64, 64, false); got < 7.48e9 {
		t.Errorf("ModelBytes(20000, 64, full) = %.3g, below the measured peak 7.48e9", got)
	}
	if full, diag := ModelBytes(1000, 32, 32, false), ModelBytes(1000, 32, 32, true); !(diag < full/10) {
		t.Errorf("diagonal %.3g against full %.3g", diag, full)
	}
}

// TestFactorLRScalesOnlyTheFactors checks Config.FactorLR on one SGD step
// (the whole corpus in one batch, a constant rate): from the same start,
// the means move exactly as with FactorLR 1 and every factor moves by
// FactorLR times its step at FactorLR 1; the gradient is the same in both
// runs because one batch is computed from the parameters at its start.
func TestFactorLRScalesOnlyTheFactors(t *testing.T) {
	tokens, ws, counts := plantedCorpus(3, 5, 40, 7)
	run := func(flr float64) (start, end *Model) {
		m, err := NewModel(ws, counts, 3, 3, false, 11)
		if err != nil {
			t.Fatal(err)
		}
		start, _ = NewModel(ws, counts, 3, 3, false, 11)
		cfg := DefaultConfig()
		cfg.Threads, cfg.Epochs, cfg.Batch, cfg.Subsample, cfg.Decay = 2, 1, len(tokens), 0, false
		cfg.LR, cfg.FactorLR = 0.01, flr
		if err := Train(context.Background(), m, tokens, cfg, nil); err != nil {
			t.Fatal(err)
		}
		return start, m
	}
	s, one := run(1)
	_, quarter := run(0.25)
	_, zero := run(0) // 0 reads as 1
	for _, p := range [][3][]float64{{s.Means, one.Means, quarter.Means}, {s.CMeans, one.CMeans, quarter.CMeans}} {
		if maxAbsDiff(p[1], p[2]) != 0 {
			t.Fatalf("means differ between FactorLR 1 and 0.25 by %g", maxAbsDiff(p[1], p[2]))
		}
		if maxAbsDiff(p[0], p[1]) == 0 {
			t.Fatal("the step did not move the means")
		}
	}
	moved := 0
	for _, p := range [][3][]float64{{s.Factors, one.Factors, quarter.Factors}, {s.CFactors, one.CFactors, quarter.CFactors}} {
		for i := range p[0] {
			full, part := p[1][i]-p[0][i], p[2][i]-p[0][i]
			if full != 0 {
				moved++
			}
			if math.Abs(part-0.25*full) > 1e-12*(1+math.Abs(p[0][i])) {
				t.Fatalf("factor entry %d moved %g at FactorLR 0.25, want 0.25 x %g", i, part, full)
			}
		}
	}
	if moved == 0 {
		t.Fatal("the step did not move the factors")
	}
	if maxAbsDiff(one.Factors, zero.Factors) != 0 || maxAbsDiff(one.CFactors, zero.CFactors) != 0 {
		t.Error("FactorLR 0 did not train as 1")
	}
}

// TestShrinkWindowPairs counts the positive pairs of one pass over a
// corpus: with the fixed window every center has all its neighbours
// within Window (exactly, at the corpus's ends too), with ShrinkWindow
// each center's window is drawn uniformly from 1..Window, so a center
// away from the ends has Window + 1 contexts on average (within 4
// standard deviations of that over 3,000 centers), and every draw stays
// within 1..Window (never more pairs than the fixed window's).
func TestShrinkWindowPairs(t *testing.T) {
	const n, win = 3000, 5
	m := testModel(t, 50, 2, 2, true, 3)
	rng := rand.New(rand.NewPCG(1, 1))
	tokens := make([]int32, n)
	for i := range tokens {
		tokens[i] = int32(rng.IntN(50))
	}
	cfg := PaperConfig()
	cfg.Window, cfg.Negatives = win, 1
	count := func(shrink bool) int {
		cfg.ShrinkWindow = shrink
		tr := newTrainer(m, cfg, 1)
		ch := &chunk{}
		tr.runChunk(context.Background(), ch, tr.ws[0], tokens, 0, n, rand.New(rand.NewPCG(5, 6)))
		return ch.pairs
	}
	want := 0
	for c := 0; c < n; c++ {
		want += min(c+win, n-1) - max(c-win, 0)
	}
	if got := count(false); got != want {
		t.Fatalf("fixed window: %d pairs, want %d", got, want)
	}
	got := count(true)
	mean := float64(n * (win + 1))
	sd := math.Sqrt(float64(n) * 4 * float64(win*win-1) / 12) // 2 U{1..win}
	if math.Abs(float64(got)-mean) > 4*sd+2*win*win {
		t.Errorf("shrunk window: %d pairs, want about %.0f (sd %.0f)", got, mean, sd)
	}
	if got >= want {
		t.Errorf("shrunk window: %d pairs, not fewer than the fixed window's %d", got, want)
	}
}

// TestLazyChunkMatchesEager checks runChunkLazy (gradients only where the
// loss's derivative is not zero, the center's factor gradient summed as
// one product per center, the context records' c T^{BA} summed per word
// before the product with its factor) against runChunk computing every
// pair's gradients first (eager): the same loss, pair count and records
// (words, order) bit for bit, the means' values bit for bit, the center
// factors' gradients within rounding (1e-10 of the record's largest
// entry, or of 1, the size of the terms at this initialisation, where
// they cancel) and every context word's summed factor gradient within
// 1e-10 of its largest term (or of 1). The margins leave part of the
// hinges inactive, so the skipped pairs are exercised.
func TestLazyChunkMatchesEager(t *testing.T) {
	tokens, words, counts := plantedCorpus(4, 10, 40, 3)
	for _, c := range []struct {
		d      int
		loss   Loss
		margin float64
		shrink bool
	}{{12, LossHingeEach, 1, false}, {12, LossHingeEach, 0.5, true}, {12, LossHinge, 1, false}, {6, LossLogistic, 1, false}, {5, LossHingeEach, 2, false}} {
		name := fmt.Sprintf("d%d_%v_margin%v_shrink=%v", c.d, c.loss, c.margin, c.shrink)
		t.Run(name, func(t *testing.T) {
			m, err := NewModel(words, counts, c.d, c.d, false, 9)
			if err != nil {
				t.Fatal(err)
			}
			cfg := DefaultConfig()
			cfg.Loss, cfg.Margin, cfg.ShrinkWindow = c.loss, c.margin, c.shrink
			run := func(eager bool) (*trainer, *chunk) {
				tr := newTrainer(m, cfg, 1)
				tr.eager = eager
				if !eager && !tr.lazy() {
					t.Skip("no lanes kernel on this machine")
				}
				ch := &chunk{}
				rng := rand.New(rand.NewPCG(7, 8))
				tr.runChunk(context.Background(), ch, tr.ws[0], tokens, 0, len(tokens), rng)
				return tr, ch
			}
			wtr, want := run(true)
			gtr, got := run(false)
			if got.loss != want.loss || got.pairs != want.pairs {
				t.Fatalf("loss %v over %d pairs, eager %v over %d", got.loss, got.pairs, want.loss, want.pairs)
			}
			if len(got.in) != len(want.in) || len(got.ctx) != len(want.ctx) {
				t.Fatalf("%d center and %d context records, eager %d and %d", len(got.in), len(got.ctx), len(want.in), len(want.ctx))
			}
			if c.loss != LossLogistic && !(len(want.ctx) < got.pairs*(1+cfg.Negatives) && len(want.ctx) > 0) {
				t.Fatalf("%d context records of %d scores: want some hinges active and some not", len(want.ctx), got.pairs*(1+cfg.Negatives))
			}
			d, fl := c.d, c.d*c.d
			check := func(kind string, g, w []record, factors bool) {
				for i := range g {
					if g[i].word != w[i].word {
						t.Fatalf("%s record %d: word %d, eager %d", kind, i, g[i].word, w[i].word)
					}
					gv, wv := got.vals[g[i].off:g[i].off+d], want.vals[w[i].off:w[i].off+d+fl]
					for j := 0; j < d; j++ {
						if gv[j] != wv[j] {
							t.Fatalf("%s record %d: mean gradient %d = %v, eager %v", kind, i, j, gv[j], wv[j])
						}
					}
					if !factors {
						continue
					}
					gv = got.vals[g[i].off : g[i].off+d+fl]
					scale := 1.0 // the terms' size where they cancel (a negative drawn equal to the context)
					for _, v := range wv[d:] {
						scale = math.Max(scale, math.Abs(v))
					}
					for j := d; j < d+fl; j++ {
						if e := math.Abs(gv[j] - wv[j]); !(e <= 1e-10*scale) {
							t.Fatalf("%s record %d: factor gradient %d = %v, eager %v (error %.3g of %.3g)", kind, i, j-d, gv[j], wv[j], e, scale)
						}
					}
				}
			}
			check("center", got.in, want.in, true)
			check("context", got.ctx, want.ctx, false)
			gs, ws := make([]float64, len(m.CFactors)), make([]float64, len(m.CFactors))
			ctxFactorGrads(gtr, got, gs)
			ctxFactorGrads(wtr, want, ws)
			size := make([]float64, len(m.Words))
			for _, r := range want.ctx {
				for _, v := range want.vals[r.off+d : r.off+d+fl] {
					size[r.word] = math.Max(size[r.word], math.Abs(v))
				}
			}
			for i := range gs {
				if e := math.Abs(gs[i] - ws[i]); !(e <= 1e-10*math.Max(1, size[i/fl])) {
					t.Fatalf("context factor gradient of word %d, entry %d: %v, eager %v", i/fl, i%fl, gs[i], ws[i])
				}
			}
		})
	}
}

// TestTrainReproducibleAcrossThreadsDefaults is TestTrainReproducibleAcrossThreads
// at the defaults with d = 12 (the lanes kernel and runChunkLazy where
// the machine has them): 1 and 3 threads give the same model bit for bit.
func TestTrainReproducibleAcrossThreadsDefaults(t *testing.T) {
	tokens, ws, counts := plantedCorpus(3, 5, 60, 4)
	run := func(threads int) *Model {
		m, err := NewModel(ws, counts, 12, 12, false, 5)
		if err != nil {
			t.Fatal(err)
		}
		cfg := DefaultConfig()
		cfg.Threads, cfg.Epochs, cfg.Batch, cfg.Subsample, cfg.Margin = threads, 2, 100, 0.01, 2
		if err := Train(context.Background(), m, tokens, cfg, nil); err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b := run(1), run(3)
	for p, pair := range [][2][]float64{{a.Means, b.Means}, {a.Factors, b.Factors}, {a.CMeans, b.CMeans}, {a.CFactors, b.CFactors}} {
		for i := range pair[0] {
			if pair[0][i] != pair[1][i] {
				t.Fatalf("block %d entry %d: %v with 1 thread, %v with 3", p, i, pair[0][i], pair[1][i])
			}
		}
	}
}

// TestNonFinite checks the trainer's check of an update (a quick pass,
// then the exact one) for both optimizers: finite updates pass, a NaN or
// infinite gradient or an update that overflows is reported, and a
// non-finite parameter whose gradient is zero is left alone.
func TestNonFinite(t *testing.T) {
	m := testModel(t, 3, 2, 2, false, 1)
	for _, opt := range []Optimizer{OptSGD, OptAdagrad} {
		cfg := PaperConfig()
		cfg.Optimizer = opt
		tr := newTrainer(m, cfg, 1)
		x, acc := []float64{1, 2, 3, 4}, []float64{0.5, 0.5, 0.5, 0.5}
		for _, c := range []struct {
			x0, g0, g1 float64
			bad        bool
		}{{1, 0.5, -2, false}, {1, math.NaN(), 0, true}, {1, 0, math.Inf(-1), true}, {1, 1e308, 0, true}, {math.Inf(1), 0, 1, false}} {
			x[0] = c.x0
			g := []float64{c.g0, 0, c.g1, 0}
			got := tr.nonFinite(x, acc, g, 0, 4, 1e10, "a mean")
			if (got != "") != c.bad {
				t.Errorf("%v: x0 %v, gradient %v: %q, want bad=%v", opt, c.x0, g, got, c.bad)
			}
		}
	}
}

// TestDrawIndexMatchesSearch checks the negatives' table lookup against
// sort.SearchFloat64s on the cumulative distribution, for random draws
// and for every cumulative value and its neighbours (the bucket edges
// and zero-count words, whose cumulative values repeat, included).
func TestDrawIndexMatchesSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 7, 300} {
		ws := make([]string, n)
		cs := make([]int64, n)
		for i := range ws {
			ws[i] = fmt.Sprintf("w%d", i)
			cs[i] = int64(1e6 / float64(i+1))
			if i%5 == 3 {
				cs[i] = 0
			}
		}
		m, err := NewModel(ws, cs, 2, 2, false, 1)
		if err != nil {
			t.Fatal(err)
		}
		tr := newTrainer(m, DefaultConfig(), 1)
		total := tr.cum[n-1]
		us := []float64{0, total, math.Nextafter(total, 0)}
		for _, c := range tr.cum {
			us = append(us, c, math.Nextafter(c, 0), math.Nextafter(c, math.Inf(1)))
		}
		for b := 0; b <= len(tr.negLo); b++ {
			e := float64(b) / tr.negScale
			us = append(us, e, math.Nextafter(e, 0), math.Nextafter(e, math.Inf(1)))
		}
		for i := 0; i < 20000; i++ {
			us = append(us, rng.Float64()*total)
		}
		for _, u := range us {
			if u < 0 || u > total {
				continue
			}
			if got, want := tr.drawIndex(u), sort.SearchFloat64s(tr.cum, u); got != want {
				t.Fatalf("n=%d u=%v: index %d, sort.SearchFloat64s %d", n, u, got, want)
			}
		}
	}
}
