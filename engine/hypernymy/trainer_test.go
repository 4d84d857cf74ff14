package hypernymy

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"burescope/engine"
	"burescope/engine/emds"
)

// hypRandFactor returns a d x d factor with N(0, s^2) entries.
func hypRandFactor(rng *rand.Rand, d int, s float64) []float64 {
	l := make([]float64, d*d)
	for i := range l {
		l[i] = s * rng.NormFloat64()
	}
	return l
}

// hypDenseGrad returns the gradient held by acc as dense n*d and n*d*d
// arrays, and the items that have a row.
func hypDenseGrad(acc *hypGradAcc, n int) (gm, gf []float64, touched map[int]bool) {
	d, dd := acc.d, acc.dd
	gm, gf = make([]float64, n*d), make([]float64, n*dd)
	touched = map[int]bool{}
	for k, i32 := range acc.items {
		i := int(i32)
		if touched[i] || int(acc.slot[i]) != k {
			panic("hypDenseGrad: item listed twice or slot mismatch")
		}
		touched[i] = true
		copy(gm[i*d:(i+1)*d], acc.gm[k*d:(k+1)*d])
		copy(gf[i*dd:(i+1)*dd], acc.gf[k*dd:(k+1)*dd])
	}
	return gm, gf, touched
}

// TestHypCacheFactors checks the item cache against independent
// computations (engine.FactorProduct, gonum's eigendecomposition through
// engine.RootsPSD): from a factor (Cholesky), F F^T = A, F^{-T} F^T = I,
// K = F^T F and P = F^{-1} L; from a scale matrix, F = A^{1/2} and
// F^{-T} = A^{-1/2}.
func TestHypCacheFactors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int{1, 2, 3, 5, 10, 16} {
		for trial := 0; trial < 5; trial++ {
			l := hypRandFactor(rng, d, 1)
			eps := 0.01
			c := newHypItemCache(1, d)
			if !c.setFromFactor(newHypCacheWS(d), 0, l, eps) {
				t.Fatalf("d=%d: not positive definite", d)
			}
			a := engine.FactorProduct(l, d, d, eps)
			f := engine.Transpose(c.ft, d, d)
			if e := engine.FrobDist(c.a, a); e > 1e-12*engine.FrobNorm(a) {
				t.Errorf("d=%d: A differs by %g", d, e)
			}
			if e := engine.FrobDist(engine.MatMul(f, c.ft, d, d, d), a); e > 1e-12*engine.FrobNorm(a) {
				t.Errorf("d=%d: F F^T differs from A by %g", d, e)
			}
			if e := engine.FrobDist(engine.MatMul(c.fit, c.ft, d, d, d), identity(d)); e > 1e-9 {
				t.Errorf("d=%d: F^{-T} F^T differs from I by %g", d, e)
			}
			if e := engine.FrobDist(c.k, engine.MatMul(c.ft, f, d, d, d)); e > 1e-12*engine.FrobNorm(a) {
				t.Errorf("d=%d: K differs from F^T F by %g", d, e)
			}
			if e := engine.FrobDist(engine.MatMul(f, c.p, d, d, d), l); e > 1e-9*engine.FrobNorm(l) {
				t.Errorf("d=%d: F P differs from L by %g", d, e)
			}
			sq, isq, _ := engine.RootsPSD(a, d, 0)
			if !c.setFromScale(newHypCacheWS(d), 0, a) {
				t.Fatalf("d=%d: scale not positive definite", d)
			}
			if e := engine.FrobDist(c.ft, sq); e > 1e-11*engine.FrobNorm(sq) {
				t.Errorf("d=%d: A^{1/2} differs by %g", d, e)
			}
			if e := engine.FrobDist(c.fit, isq); e > 1e-9*engine.FrobNorm(isq) {
				t.Errorf("d=%d: A^{-1/2} differs by %g (norm %g)", d, e, engine.FrobNorm(isq))
			}
		}
	}
}

// TestHypCrossTrace checks the allocation-free cross term against the engine's
// engine.CrossTrace (exact eigendecomposition), including d = 1 and the d = 2
// closed form.
func TestHypCrossTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{1, 2, 3, 4, 7, 12} {
		c := newHypItemCache(2, d)
		ws := newHypCacheWS(d)
		la, lb := hypRandFactor(rng, d, 1), hypRandFactor(rng, d, 0.3)
		c.setFromFactor(ws, 0, la, 0.01)
		c.setFromFactor(ws, 1, lb, 0.01)
		m, tmp, lam := make([]float64, d*d), make([]float64, d*d), make([]float64, d)
		a, b := engine.FactorProduct(la, d, d, 0.01), engine.FactorProduct(lb, d, d, 0.01)
		for _, tc := range []struct{ u, w int }{{0, 1}, {1, 0}, {0, 0}} {
			got := c.crossTrace(newHypEig(d), m, tmp, lam, tc.u, tc.w)
			x, y := a, b
			if tc.u == 1 {
				x, y = b, a
			}
			if tc.w == tc.u {
				y = x
			}
			want := engine.CrossTrace(x, y, d)
			if !(math.Abs(got-want) <= 1e-11*math.Max(1, want)) {
				t.Errorf("d=%d (%d,%d): cross trace %v, want %v", d, tc.u, tc.w, got, want)
			}
		}
	}
}

// hypRefLoss is the loss of one positive pair computed plainly from the engine's
// engine.DotProduct on the scales L L^T + eps I:
// -log(e^{s_0} / sum_k e^{s_k}).
func hypRefLoss(means, fact []float64, d int, eps float64, u int, cand []int32) float64 {
	dd := d * d
	au := engine.FactorProduct(fact[u*dd:(u+1)*dd], d, d, eps)
	var z float64
	var s0 float64
	for k, v := range cand {
		av := engine.FactorProduct(fact[int(v)*dd:(int(v)+1)*dd], d, d, eps)
		s := engine.DotProduct(means[u*d:(u+1)*d], au, means[int(v)*d:(int(v)+1)*d], av, d)
		if k == 0 {
			s0 = s
		}
		z += math.Exp(s)
	}
	return math.Log(z) - s0
}

// TestHypPairLossGradient is a central finite-difference check of the loss
// kernel's gradient with respect to every mean and factor entry, for
// candidates including a repeated negative and the self pair (u, u).
func TestHypPairLossGradient(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    int
		u    int
		cand []int32
	}{
		{"d1", 1, 0, []int32{1, 2, 3}},
		{"d2", 2, 0, []int32{1, 2, 3, 2}},
		{"d3 self", 3, 2, []int32{2, 0, 1, 4}},
		{"d5", 5, 4, []int32{0, 1, 3, 3, 2}},
		{"d8 self", 8, 1, []int32{1, 0, 2, 3, 4}},
		{"d10", 10, 2, []int32{3, 0, 1, 4, 4, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n, eps = 5, 0.01
			d, dd := tc.d, tc.d*tc.d
			rng := rand.New(rand.NewPCG(uint64(d), 7))
			means := make([]float64, n*d)
			for i := range means {
				means[i] = 0.5 * rng.NormFloat64()
			}
			fact := hypRandFactor(rng, n*d, 0.5)[:n*dd]
			c := newHypItemCache(n, d)
			ws := newHypCacheWS(d)
			for i := 0; i < n; i++ {
				c.setFromFactor(ws, i, fact[i*dd:(i+1)*dd], eps)
			}
			acc := newHypGradAcc(n, d)
			loss := hypPairLoss(newHypPairWS(d, len(tc.cand)), c, means, fact, eps, tc.u, tc.cand, acc)
			gm, gf, touched := hypDenseGrad(acc, n)
			if ref := hypRefLoss(means, fact, d, eps, tc.u, tc.cand); !(math.Abs(loss-ref) <= 1e-10*math.Max(1, math.Abs(ref))) {
				t.Fatalf("loss %v, reference %v", loss, ref)
			}
			const h = 1e-6
			check := func(what string, x, g []float64) {
				for i := range x {
					old := x[i]
					x[i] = old + h
					lp := hypRefLoss(means, fact, d, eps, tc.u, tc.cand)
					x[i] = old - h
					lm := hypRefLoss(means, fact, d, eps, tc.u, tc.cand)
					x[i] = old
					fd := (lp - lm) / (2 * h)
					if !(math.Abs(fd-g[i]) <= 1e-6*math.Max(1, math.Abs(fd))) {
						t.Errorf("%s[%d]: gradient %v, finite difference %v", what, i, g[i], fd)
					}
				}
			}
			check("mean", means, gm)
			check("factor", fact, gf)
			// Exactly u and the candidates have a gradient row.
			want := map[int]bool{tc.u: true}
			for _, v := range tc.cand {
				want[int(v)] = true
			}
			for i := 0; i < n; i++ {
				if touched[i] != want[i] {
					t.Errorf("item %d: gradient row %v, want %v", i, touched[i], want[i])
				}
			}
		})
	}
}

// TestHypScoreGradientMatchesTransport checks, on a single score, that the
// kernel's factor gradients equal dotProductGrad (T^{AB} L through
// the exact TransportMap) for both roles of the pair.
func TestHypScoreGradientMatchesTransport(t *testing.T) {
	const eps = 0.01
	for _, d := range []int{2, 3, 6} {
		dd := d * d
		rng := rand.New(rand.NewPCG(11, uint64(d)))
		means := make([]float64, 2*d)
		for i := range means {
			means[i] = rng.NormFloat64()
		}
		fact := append(hypRandFactor(rng, d, 1), hypRandFactor(rng, d, 1)...)
		c := newHypItemCache(2, d)
		ws := newHypCacheWS(d)
		c.setFromFactor(ws, 0, fact[:dd], eps)
		c.setFromFactor(ws, 1, fact[dd:], eps)
		a0, a1 := engine.FactorProduct(fact[:dd], d, d, eps), engine.FactorProduct(fact[dd:], d, d, eps)
		_, gMu, gLu, err := dotProductGrad(means[:d], fact[:dd], d, eps, means[d:], a1, d)
		if err != nil {
			t.Fatal(err)
		}
		_, _, gLv, err := dotProductGrad(means[d:], fact[dd:], d, eps, means[:d], a0, d)
		if err != nil {
			t.Fatal(err)
		}
		// The kernel gives gradients of losses, not of single scores: the
		// loss of (u = 0; candidates 1, 0) is log(e^{s01} + e^{s00}) - s01,
		// with gradient (p01 - 1) grad s01 + p00 grad s00, and grad s00 is
		// known in closed form (2 a_0 and 2 L_0, since T^{AA} = I). Solve
		// for grad s01.
		pws := newHypPairWS(d, 2)
		acc := newHypGradAcc(2, d)
		hypPairLoss(pws, c, means, fact, eps, 0, []int32{1, 0}, acc)
		gm, gf, _ := hypDenseGrad(acc, 2)
		s01 := engine.DotProduct(means[:d], a0, means[d:], a1, d)
		s00 := engine.DotProduct(means[:d], a0, means[:d], a0, d)
		p01 := math.Exp(s01) / (math.Exp(s01) + math.Exp(s00))
		p00 := 1 - p01
		w := p01 - 1
		for i := 0; i < d; i++ {
			got := (gm[i] - p00*2*means[i]) / w
			if !(math.Abs(got-gMu[i]) <= 1e-9) {
				t.Errorf("d=%d: d s/d a_u[%d] = %v, want %v", d, i, got, gMu[i])
			}
		}
		for i := 0; i < dd; i++ {
			got := (gf[i] - p00*2*fact[i]) / w
			if !(math.Abs(got-gLu[i]) <= 1e-8*math.Max(1, math.Abs(gLu[i]))) {
				t.Errorf("d=%d: d s/d L_u[%d] = %v, want T^{A_u A_v} L_u = %v", d, i, got, gLu[i])
			}
			got = gf[dd+i] / w
			if !(math.Abs(got-gLv[i]) <= 1e-8*math.Max(1, math.Abs(gLv[i]))) {
				t.Errorf("d=%d: d s/d L_v[%d] = %v, want T^{A_v A_u} L_v = %v", d, i, got, gLv[i])
			}
		}
	}
}

// hypTinyTree is a hand-made hierarchy of 10 nodes (transitive closure of
// child -> parent edges):
//
//	0 animal
//	├─ 1 mammal ─ 3 dog ─ 6 puppy
//	│           └ 4 cat
//	└─ 2 bird ── 5 eagle
//	           ├ 7 owl ── 9 barn owl
//	           └ 8 crow
func hypTinyTree() (n int, pairs [][2]int) {
	parent := []int{-1, 0, 0, 1, 1, 2, 3, 2, 2, 7}
	for u := range parent {
		for a := parent[u]; a >= 0; a = parent[a] {
			pairs = append(pairs, [2]int{u, a})
		}
	}
	return len(parent), pairs
}

// TestHypernymyTinyTreeMAP trains on the tiny tree and expects perfect
// reconstruction (MAP 1, mean rank 1), with SGD and with Adam.
func TestHypernymyTinyTreeMAP(t *testing.T) {
	n, pairs := hypTinyTree()
	for _, tc := range []struct {
		opt    string
		d      int
		lr     float64
		epochs int
	}{
		{SGD, 2, 0.05, 600},
		{SGD, 3, 0.05, 600},
		{Adam, 3, 0.05, 300},
	} {
		tr, err := NewTrainer(n, pairs, Config{Dim: tc.d, Negatives: 5, BatchSize: 8,
			Optimizer: tc.opt, LR: tc.lr, Seed: 5, Epochs: tc.epochs, EvalEvery: -1})
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Run(context.Background(), time.Hour, nil); err != nil {
			t.Fatal(err)
		}
		p := tr.Latest()
		if !p.Evaluated || p.Epoch != tc.epochs || !p.Done || len(p.Evals) != 1 || len(p.Losses) != tc.epochs {
			t.Fatalf("%s d=%d: snapshot after the run: epoch %d, done %v, evaluated %v, %d evaluations, %d losses",
				tc.opt, tc.d, p.Epoch, p.Done, p.Evaluated, len(p.Evals), len(p.Losses))
		}
		for _, v := range []float64{p.MAP, p.MeanRank, p.SymMAP, p.SymMeanRank} {
			if v != 1 {
				t.Errorf("%s d=%d: after %d epochs MAP %v, mean rank %v, with self pairs %v, %v (loss %v), want all 1",
					tc.opt, tc.d, tc.epochs, p.MAP, p.MeanRank, p.SymMAP, p.SymMeanRank, p.Loss)
				break
			}
		}
		// The input closure alone (without self pairs) is reconstructed too.
		r, err := tr.EvaluateOn(context.Background(), pairs)
		if err != nil {
			t.Fatal(err)
		}
		if r.MAP != 1 || r.Pairs != len(pairs) {
			t.Errorf("%s d=%d: closure-only MAP %v over %d pairs, want 1 over %d", tc.opt, tc.d, r.MAP, r.Pairs, len(pairs))
		}
	}
}

// TestHypernymyReproducible checks that two runs with one seed agree bit
// for bit whatever the number of workers, and that another seed differs.
func TestHypernymyReproducible(t *testing.T) {
	n, pairs := hypTinyTree()
	run := func(seed uint64, workers int, opt string) *Progress {
		tr, err := NewTrainer(n, pairs, Config{Dim: 3, Negatives: 4, BatchSize: 7, Seed: seed,
			Workers: workers, Optimizer: opt, Epochs: 5})
		if err != nil {
			t.Fatal(err)
		}
		p, err := tr.Step(context.Background(), 10)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, opt := range []string{SGD, Adam} {
		a, b, c := run(9, 1, opt), run(9, 4, opt), run(10, 2, opt)
		same := func(x, y *Progress) bool {
			if x.Loss != y.Loss || x.MAP != y.MAP || x.MeanRank != y.MeanRank {
				return false
			}
			for i := range x.Means {
				if x.Means[i] != y.Means[i] {
					return false
				}
			}
			for i := range x.Scales {
				if x.Scales[i] != y.Scales[i] {
					return false
				}
			}
			return true
		}
		if !same(a, b) {
			t.Errorf("%s: seed 9 with 1 and 4 workers differ (loss %v vs %v)", opt, a.Loss, b.Loss)
		}
		if same(a, c) {
			t.Errorf("%s: seeds 9 and 10 gave the same run", opt)
		}
	}
}

// TestHypernymyNegatives checks that sampled negatives are never relations
// of u nor u itself, including for an item related to almost everything
// (the direct draw path) and one related to everything (no negatives).
func TestHypernymyNegatives(t *testing.T) {
	const n = 40
	var pairs [][2]int
	for v := 1; v < n-1; v++ {
		pairs = append(pairs, [2]int{0, v}) // 0 misses only n-1
	}
	for v := 0; v < n; v++ {
		pairs = append(pairs, [2]int{1, v}) // 1 is related to all
	}
	for u := 2; u < n; u++ {
		pairs = append(pairs, [2]int{u, (u + 1) % n})
	}
	tr, err := NewTrainer(n, pairs, Config{Dim: 2, Negatives: 6, BatchSize: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	batch := make([]int, len(tr.pos))
	for i := range batch {
		batch[i] = i
	}
	tr.sampleNegatives(batch)
	for b, pi := range batch {
		u := tr.pos[pi][0]
		for _, w := range tr.negs[b*6 : (b+1)*6] {
			switch {
			case u == 1 && w != -1:
				t.Fatalf("item 1 is related to all but got negative %d", w)
			case u == 0 && w != n-1:
				t.Fatalf("item 0 has the single negative %d, got %d", n-1, w)
			case u != 1 && (int(w) == u || tr.graph.has(u, int(w))):
				t.Fatalf("negative %d of %d is a relation", w, u)
			}
		}
	}
	if _, err := tr.Step(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
}

// TestHypernymyConfigErrors checks that bad configurations and relations
// are reported, not panicked on.
func TestHypernymyConfigErrors(t *testing.T) {
	n, pairs := hypTinyTree()
	for _, tc := range []struct {
		name  string
		n     int
		pairs [][2]int
		cfg   Config
	}{
		{"dim 0", n, pairs, Config{}},
		{"bad optimizer", n, pairs, Config{Dim: 2, Optimizer: "lbfgs"}},
		{"negative lr", n, pairs, Config{Dim: 2, LR: -1}},
		{"nan eps", n, pairs, Config{Dim: 2, Eps: math.NaN()}},
		{"out of range", n, [][2]int{{0, n}}, Config{Dim: 2}},
		{"one item", 1, nil, Config{Dim: 2}},
		{"no relations", n, nil, Config{Dim: 2, NoSelfPairs: true}},
	} {
		if _, err := NewTrainer(tc.n, tc.pairs, tc.cfg); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestHypernymyDivergenceReported checks that a huge learning rate ends
// in an error, not in NaN embeddings or a panic.
func TestHypernymyDivergenceReported(t *testing.T) {
	n, pairs := hypTinyTree()
	tr, err := NewTrainer(n, pairs, Config{Dim: 2, Optimizer: SGD, LR: 1e6, BatchSize: 4, Negatives: 5, Seed: 1, Epochs: 50})
	if err != nil {
		t.Fatal(err)
	}
	if err = tr.Run(context.Background(), 0, nil); err == nil {
		t.Fatal("no error after a diverging run")
	}
}

// TestHypernymySetEpochs checks that a finished run can be extended and
// that Step stops at Epochs.
func TestHypernymySetEpochs(t *testing.T) {
	n, pairs := hypTinyTree()
	tr, err := NewTrainer(n, pairs, Config{Dim: 2, BatchSize: 4, Seed: 1, Epochs: 2, EvalEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := tr.Step(context.Background(), 10)
	if err != nil || p.Epoch != 2 || !p.Done || !p.Evaluated {
		t.Fatalf("Step(10) with Epochs 2: epoch %d, done %v, evaluated %v, err %v", p.Epoch, p.Done, p.Evaluated, err)
	}
	if err := tr.SetEpochs(1); err == nil {
		t.Error("SetEpochs below the epochs done: no error")
	}
	if err := tr.SetEpochs(5); err != nil || tr.Latest().Done {
		t.Fatalf("SetEpochs(5): %v, done %v", err, tr.Latest().Done)
	}
	if err := tr.Run(context.Background(), 0, nil); err != nil {
		t.Fatal(err)
	}
	if p := tr.Latest(); p.Epoch != 5 || !p.Done || len(p.Losses) != 5 || len(p.Evals) != 2 {
		t.Errorf("after extending: epoch %d, done %v, %d losses, %d evaluations; want 5, true, 5, 2", p.Epoch, p.Done, len(p.Losses), len(p.Evals))
	}
}

// TestHypernymyCancel checks that Run stops on a cancelled context.
func TestHypernymyCancel(t *testing.T) {
	n, pairs := hypTinyTree()
	tr, err := NewTrainer(n, pairs, Config{Dim: 2, BatchSize: 2, Seed: 1, Epochs: 100, EvalEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err = tr.Run(ctx, time.Hour, func(p *Progress) {
		calls++
		if calls <= 3 && (!p.Evaluated || p.Epoch != calls || len(p.Evals) != calls) {
			t.Errorf("publish %d: epoch %d, evaluated %v, %d evaluations", calls, p.Epoch, p.Evaluated, len(p.Evals))
		}
		if calls == 3 {
			cancel()
		}
	})
	// The third publish cancels; the fourth epoch stops at its first batch
	// and publishes the state reached.
	if !errors.Is(err, context.Canceled) || calls != 4 || tr.Epoch() != 3 || tr.Latest().Epoch != 3 {
		t.Errorf("after cancel: err %v, %d publishes, epoch %d; want context.Canceled, 4 and 3", err, calls, tr.Epoch())
	}
}

// TestHypJacobi checks the Jacobi eigensolver (used for d <= 4 and as the
// fallback of hypEig) and hypEig itself against the engine's engine.EigenvaluesPSD (gonum
// EigenSym): eigenvalues, and the reconstruction V diag(lambda) V^T = M
// with orthonormal V.
func TestHypJacobi(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{1, 2, 3, 6, 11} {
		m0 := engine.FactorProduct(hypRandFactor(rng, d, 1), d, d, 0.01)
		want := engine.EigenvaluesPSD(m0, d)
		for _, solver := range []string{"jacobi", "eig"} {
			m, v, lam := append([]float64(nil), m0...), make([]float64, d*d), make([]float64, d)
			if solver == "jacobi" {
				engine.JacobiEigen(m, d, v, lam)
			} else {
				newHypEig(d).vectors(m, v, lam)
			}
			got := append([]float64(nil), lam...)
			sort.Float64s(got)
			for i := range got {
				if !(math.Abs(got[i]-want[i]) <= 1e-12*want[d-1]) {
					t.Errorf("%s d=%d: eigenvalue %d = %v, want %v", solver, d, i, got[i], want[i])
				}
			}
			rec := make([]float64, d*d)
			hypSpectral(rec, v, lam, d)
			if e := engine.FrobDist(rec, m0); e > 1e-12*engine.FrobNorm(m0) {
				t.Errorf("%s d=%d: V diag V^T differs from M by %g", solver, d, e)
			}
			vtv := engine.MatMul(engine.Transpose(v, d, d), v, d, d, d)
			if e := engine.FrobDist(vtv, identity(d)); e > 1e-12 {
				t.Errorf("%s d=%d: V^T V differs from I by %g", solver, d, e)
			}
			vals := append([]float64(nil), m0...)
			lv := make([]float64, d)
			newHypEig(d).values(vals, lv)
			sort.Float64s(lv)
			for i := range lv {
				if !(math.Abs(lv[i]-want[i]) <= 1e-12*want[d-1]) {
					t.Errorf("values d=%d: eigenvalue %d = %v, want %v", d, i, lv[i], want[i])
				}
			}
		}
	}
}

// TestHypernymyLatestConcurrent reads snapshots from another goroutine
// while Run trains (meaningful under -race): published snapshots must
// never change.
func TestHypernymyLatestConcurrent(t *testing.T) {
	n, pairs := hypTinyTree()
	tr, err := NewTrainer(n, pairs, Config{Dim: 3, BatchSize: 3, Negatives: 4, Seed: 4, Epochs: 40, EvalEvery: 5})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- tr.Run(context.Background(), 0, nil) }()
	var seen []*Progress
	var copies [][]float64
	for finished := false; !finished; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			finished = true
		default:
		}
		p := tr.Latest()
		if len(seen) == 0 || seen[len(seen)-1] != p {
			seen = append(seen, p)
			copies = append(copies, append(append(append([]float64(nil), p.Means...), p.Scales...), p.Losses...))
		}
	}
	for i, p := range seen {
		now := append(append(append([]float64(nil), p.Means...), p.Scales...), p.Losses...)
		for j := range now {
			if now[j] != copies[i][j] {
				t.Fatalf("snapshot %d (epoch %d) changed after it was published", i, p.Epoch)
			}
		}
	}
	if last := tr.Latest(); last.Epoch != 40 || len(last.Evals) != 8 {
		t.Errorf("final snapshot: epoch %d, %d evaluations; want 40 and 8", last.Epoch, len(last.Evals))
	}
}

// TestHypAdamUpdate drives Trainer.update directly with chosen gradient
// rows for three steps and compares means and factors with the textbook
// Adam recurrence written out here (Kingma & Ba 2015, Algorithm 1 with the
// bias corrections folded into the step size as in its final remark:
// b1 = 0.9, b2 = 0.999, eps = emds.AdamEps), applied lazily: an item
// without a gradient row in a step keeps its parameters and moments
// (LazyAdam / SparseAdam), so the bias corrections, the moments carried
// between steps and the sparse update are all checked.
func TestHypAdamUpdate(t *testing.T) {
	n, pairs := hypTinyTree()
	tr, err := NewTrainer(n, pairs, Config{Dim: 2, Negatives: 2, BatchSize: 4, Seed: 3, Optimizer: Adam, Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	d, dd := tr.d, tr.d*tr.d
	lr := tr.cfg.LR
	means0, fact0 := append([]float64(nil), tr.means...), append([]float64(nil), tr.fact...)
	// Flat reference vector: item i's mean then its factor.
	row := func(means, fact []float64, i int) []float64 {
		return append(append([]float64(nil), means[i*d:(i+1)*d]...), fact[i*dd:(i+1)*dd]...)
	}
	want := make([][]float64, n)
	m := make([][]float64, n)
	v := make([][]float64, n)
	for i := range want {
		want[i] = row(means0, fact0, i)
		m[i] = make([]float64, d+dd)
		v[i] = make([]float64, d+dd)
	}
	for step := 1; step <= 3; step++ {
		c1 := 1 - math.Pow(0.9, float64(step))
		c2 := 1 - math.Pow(0.999, float64(step))
		// Items 0, 3, 6, 9 get no row at step 1, then 1, 4, 7, then 2, 5, 8.
		// The gradient comes in two parts (as from two shards): even items
		// have rows in both, odd items in one of them.
		order := []int{9, 2, 7, 4, 5, 1, 8, 0, 6, 3}
		src := []*hypGradAcc{newHypGradAcc(n, d), newHypGradAcc(n, d)}
		src[0].reserve(n)
		src[1].reserve(n)
		for _, i := range order {
			if i%3 == step-1 {
				continue
			}
			g1 := make([]float64, d+dd)
			g2 := make([]float64, d+dd)
			for j := range g1 {
				g1[j] = math.Sin(float64(7*(i*(d+dd)+j)+3*step)) * float64(step)
				if i%2 == 0 {
					g2[j] = math.Cos(float64(5*j + i + step))
				}
			}
			gm, gf := src[i%2].rows(i)
			copy(gm, g1[:d])
			copy(gf, g1[d:])
			if i%2 == 0 {
				gm, gf := src[1].rows(i)
				copy(gm, g2[:d])
				copy(gf, g2[d:])
			}
			for j := range g1 {
				g := g1[j] + g2[j]
				m[i][j] = 0.9*m[i][j] + 0.1*g
				v[i][j] = 0.999*v[i][j] + 0.001*g*g
				want[i][j] -= lr * math.Sqrt(c2) / c1 * m[i][j] / (math.Sqrt(v[i][j]) + emds.AdamEps)
			}
		}
		tr.update(src)
		if len(src[0].items)+len(src[1].items) != 0 {
			t.Fatalf("step %d: the gradient was not cleared", step)
		}
		for i := 0; i < n; i++ {
			got := row(tr.means, tr.fact, i)
			for j := range got {
				if !(math.Abs(got[j]-want[i][j]) <= 1e-12*(1+math.Abs(want[i][j]))) {
					t.Fatalf("step %d: item %d parameter %d = %.16g, want %.16g", step, i, j, got[j], want[i][j])
				}
			}
		}
	}
}

// TestHypGradAcc checks the sparse gradient accumulator: a row is zero on
// first touch and the same memory on later touches, rows handed out after
// one reserve stay valid together (no reallocation in between), items are
// listed once in first-touch order, and reset forgets everything.
func TestHypGradAcc(t *testing.T) {
	const n, d = 50, 3
	acc := newHypGradAcc(n, d)
	for round := 0; round < 2; round++ {
		order := []int{7, 3, 7, 41, 0, 3, 49}
		acc.reserve(len(order))
		var held [][]float64
		for k, i := range order {
			gm, gf := acc.rows(i)
			if len(gm) != d || len(gf) != d*d {
				t.Fatalf("round %d: rows(%d) have lengths %d, %d", round, i, len(gm), len(gf))
			}
			for j := range gf {
				gf[j] += float64(k + 1)
			}
			gm[0] += float64(k + 1)
			held = append(held, gm)
		}
		// Item 7 was touched at positions 0 and 2 (adds 1 and 3), 3 at 1
		// and 5 (2 and 6); every handed-out slice still aliases its row.
		want := map[int]float64{7: 4, 3: 8, 41: 4, 0: 5, 49: 7}
		if got := acc.items; len(got) != 5 || got[0] != 7 || got[1] != 3 || got[2] != 41 || got[3] != 0 || got[4] != 49 {
			t.Fatalf("round %d: items %v, want [7 3 41 0 49]", round, got)
		}
		for k, i := range order {
			gm, gf := acc.rows(i)
			if gm[0] != want[i] || gf[d*d-1] != want[i] || &held[k][0] != &gm[0] {
				t.Errorf("round %d: item %d row (%v, %v), want %v in the memory handed out first", round, i, gm[0], gf[d*d-1], want[i])
			}
		}
		acc.reset()
		if len(acc.items) != 0 {
			t.Fatalf("round %d: reset left items %v", round, acc.items)
		}
		for i, s := range acc.slot {
			if s != -1 {
				t.Fatalf("round %d: reset left item %d at slot %d", round, i, s)
			}
		}
	}
}

// identity returns the d x d identity matrix (row-major), for tests.
func identity(d int) []float64 {
	m := make([]float64, d*d)
	for i := 0; i < d; i++ {
		m[i*d+i] = 1
	}
	return m
}

// dotProductGrad returns [mu_a : mu_b] for mu_a = mu(ma, L L^T + eps I)
// and its gradients d/dma = mb and d/dL = T^{A_eps B} L, from the
// engine's exact TransportMap (docs/math.md): the reference the kernel is
// checked against.
func dotProductGrad(ma, la []float64, k int, eps float64, mb, sb []float64, d int) (dot float64, gMean, gL []float64, err error) {
	a := engine.FactorProduct(la, d, k, eps)
	t, err := engine.TransportMap(a, sb, d)
	if err != nil {
		return 0, nil, nil, err
	}
	dot = engine.Dot(ma, mb) + engine.CrossTrace(a, sb, d)
	return dot, append([]float64(nil), mb...), engine.MatMul(t, la, d, d, k), nil
}

// TestInIndexOrder checks that both ways update orders its items (a sort
// for a few items, a pass over the marks for many) give every marked
// item once, in increasing order.
func TestInIndexOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 7, 100, 5000} {
		for _, frac := range []float64{0, 0.01, 0.05, 0.5, 1} {
			mark := make([]bool, n)
			var items []int32
			for len(items) < int(frac*float64(n)) {
				i := rng.IntN(n)
				if !mark[i] {
					mark[i] = true
					items = append(items, int32(i))
				}
			}
			var want []int32
			for i, m := range mark {
				if m {
					want = append(want, int32(i))
				}
			}
			got := inIndexOrder(append([]int32(nil), items...), mark)
			if len(got) != len(want) {
				t.Fatalf("n %d frac %g: %d items, want %d", n, frac, len(got), len(want))
			}
			for k := range want {
				if got[k] != want[k] {
					t.Fatalf("n %d frac %g: item %d is %d, want %d", n, frac, k, got[k], want[k])
				}
			}
		}
	}
}
