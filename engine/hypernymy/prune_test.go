package hypernymy

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"burescope/engine"
)

// TestPrunedEvaluationMatchesFull compares the pruned evaluation with the
// full one (every score computed, evaluateGraphs, itself checked against
// brute force) on random embeddings and relations under both protocols,
// including embeddings where the cross-term bounds are attained (all
// scales proportional; isotropic scales) and tied scores (repeated
// measures), for d = 1 to 10. The mean rank and MAP must be equal, not
// close: the pruned evaluation counts the same candidates.
func TestPrunedEvaluationMatchesFull(t *testing.T) {
	for _, tc := range []struct {
		d            int
		proportional bool
		repeated     bool
		isotropic    bool
	}{{1, false, false, false}, {2, false, false, false}, {3, false, true, false}, {5, false, false, false},
		{3, true, false, false}, {2, true, true, false}, {10, false, false, false}, {10, false, true, false},
		{10, true, true, false}, {4, false, true, true}} {
		t.Run(fmt.Sprintf("d=%d proportional=%v repeated=%v isotropic=%v", tc.d, tc.proportional, tc.repeated, tc.isotropic), func(t *testing.T) {
			const n = 160
			d := tc.d
			rng := rand.New(rand.NewPCG(uint64(d), 11))
			pairs := hypBenchTree(n)
			e := &engine.Embedding{Family: engine.Gaussian(), Dim: d, Labels: make([]string, n),
				Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
			base := hypRandFactor(rng, d, 1)
			for i := 0; i < n; i++ {
				e.Labels[i] = fmt.Sprint(i)
				src := i
				if tc.repeated && i%3 == 1 {
					src = i - 1 // same measure as the previous item
				}
				r := rand.New(rand.NewPCG(uint64(src), 5))
				for k := 0; k < d; k++ {
					e.Means[i*d+k] = 0.5 * r.NormFloat64()
				}
				l := hypRandFactor(r, d, 0.7)
				if tc.proportional {
					s := 0.2 + r.Float64()
					for k := range l {
						l[k] = s * base[k]
					}
				}
				if tc.isotropic {
					clear(l)
					s := 0.2 + r.Float64()
					for k := 0; k < d; k++ {
						l[k*d+k] = s
					}
				}
				copy(e.Scales[i*d*d:(i+1)*d*d], engine.FactorProduct(l, d, d, 0.01))
			}
			for _, protocol := range []string{Directed, Undirected} {
				got, st, err := EvaluateEmbeddingEvery(context.Background(), e, pairs, protocol, 2, 1)
				if err != nil {
					t.Fatal(err)
				}
				rows, err := DotProductRows(e)
				if err != nil {
					t.Fatal(err)
				}
				want, err := EvaluateProtocol(context.Background(), n, pairs, rows, 1, protocol)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("%s: pruned %+v, full %+v", protocol, got, want)
				}
				if !(st.Ambiguous <= st.Exact) || !(st.Exact <= int64(st.Rows)*n) || st.Rows != want.Items {
					t.Errorf("%s: work %+v for %d rows of %d", protocol, st, want.Items, n)
				}
				t.Logf("%s: mean rank %.3f MAP %.4f; %d exact scores (%d ambiguous) for %d rows (full: %d)", protocol, got.MeanRank, got.MAP, st.Exact, st.Ambiguous, st.Rows, st.Rows*n)
			}
		})
	}
}

// TestTrainerPrunedEvaluation checks that the trainer's evaluation above
// the dense size (pruned) equals the full evaluation of its snapshot.
func TestTrainerPrunedEvaluation(t *testing.T) {
	defer func(m int) { hypDenseRowsMax = m }(hypDenseRowsMax)
	hypDenseRowsMax = 100
	const n = 300
	pairs := hypBenchTree(n)
	p, rows := trainedRows(t, n, pairs, Config{Dim: 3, Negatives: 5, BatchSize: 500, Seed: 1, Epochs: 3, EvalEvery: -1}, 3)
	for _, tc := range []struct {
		protocol  string
		rank, mAP float64
	}{{Directed, p.MeanRank, p.MAP}, {Undirected, p.UndirMeanRank, p.UndirMAP}} {
		want, err := EvaluateProtocol(context.Background(), n, pairs, rows, 2, tc.protocol)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(tc.rank-want.MeanRank) <= 1e-9*want.MeanRank) || !(math.Abs(tc.mAP-want.MAP) <= 1e-9) {
			t.Errorf("%s: trainer %v, %v; full evaluation %v, %v", tc.protocol, tc.rank, tc.mAP, want.MeanRank, want.MAP)
		}
	}
}

// TestEvaluateEmbeddingEvery checks the sampled evaluation against the
// full evaluation (every score computed) of the same rows: those of the
// items 0, K, 2K, ... under both protocols.
func TestEvaluateEmbeddingEvery(t *testing.T) {
	const n, d, every = 150, 3, 4
	rng := rand.New(rand.NewPCG(3, 4))
	pairs := hypBenchTree(n)
	e := &engine.Embedding{Family: engine.Gaussian(), Dim: d, Labels: make([]string, n),
		Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
	for i := 0; i < n; i++ {
		for k := 0; k < d; k++ {
			e.Means[i*d+k] = rng.NormFloat64()
		}
		copy(e.Scales[i*d*d:(i+1)*d*d], engine.FactorProduct(hypRandFactor(rng, d, 0.5), d, d, 0.01))
	}
	rows, err := DotProductRows(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, protocol := range []string{Directed, Undirected} {
		t.Run(protocol, func(t *testing.T) {
			got, st, err := EvaluateEmbeddingEvery(context.Background(), e, pairs, protocol, 2, every)
			if err != nil {
				t.Fatal(err)
			}
			g, err := protocolGraph(n, pairs, protocol)
			if err != nil {
				t.Fatal(err)
			}
			q := make([]bool, n)
			for u := range q {
				q[u] = u%every == 0 && (g.queries == nil || g.queries[u])
			}
			g.queries = q
			want, err := evaluateGraphs(context.Background(), []*hypGraph{g}, rows, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got != want[0] || st.Rows != want[0].Items {
				t.Errorf("every %d: %+v (%d rows), full evaluation of those rows %+v", every, got, st.Rows, want[0])
			}
		})
	}
	if _, _, err := EvaluateEmbeddingEvery(context.Background(), e, pairs, Directed, 1, 0); err == nil {
		t.Error("every = 0 accepted")
	}
}

// TestEvaluateEmbeddingCancelled checks that a cancelled context stops the
// pruned evaluation with its error and no scores.
func TestEvaluateEmbeddingCancelled(t *testing.T) {
	const n, d = 60, 3
	rng := rand.New(rand.NewPCG(5, 6))
	e := &engine.Embedding{Family: engine.Gaussian(), Dim: d, Labels: make([]string, n),
		Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
	for i := 0; i < n; i++ {
		for k := 0; k < d; k++ {
			e.Means[i*d+k] = rng.NormFloat64()
		}
		copy(e.Scales[i*d*d:(i+1)*d*d], engine.FactorProduct(hypRandFactor(rng, d, 0.5), d, d, 0.01))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, _, err := EvaluateEmbeddingEvery(ctx, e, hypBenchTree(n), Directed, 2, 1)
	if !errors.Is(err, context.Canceled) || r != (Reconstruction{}) {
		t.Errorf("cancelled: %+v, %v", r, err)
	}
}

// TestTrainerEvalRows checks the trainer's sampled evaluation
// (Config.EvalRows): on the dense path and on the pruned one, the scores
// equal the full evaluation of the rows of the items 0, k, 2k, ... of the
// same state (k = EvalStride), under both protocols, and Rows / Queries
// count those rows and all query rows.
func TestTrainerEvalRows(t *testing.T) {
	defer func(m int) { hypDenseRowsMax = m }(hypDenseRowsMax)
	const n, evalRows = 300, 40
	k := EvalStride(n, evalRows)
	if k != 8 || (n+k-1)/k > evalRows {
		t.Fatalf("EvalStride(%d, %d) = %d", n, evalRows, k)
	}
	pairs := hypBenchTree(n)
	for _, dense := range []int{4096, 100} {
		hypDenseRowsMax = dense
		p, rows := trainedRows(t, n, pairs, Config{Dim: 3, Negatives: 5, BatchSize: 500, Seed: 1, Epochs: 2, EvalEvery: -1, EvalRows: evalRows}, 2)
		for _, tc := range []struct {
			protocol  string
			rank, mAP float64
		}{{Directed, p.MeanRank, p.MAP}, {Undirected, p.UndirMeanRank, p.UndirMAP}} {
			g, err := protocolGraph(n, pairs, tc.protocol)
			if err != nil {
				t.Fatal(err)
			}
			all := g.queryCount()
			q := make([]bool, n)
			for u := range q {
				q[u] = u%k == 0 && (g.queries == nil || g.queries[u])
			}
			g.queries = q
			want, err := evaluateGraphs(context.Background(), []*hypGraph{g}, rows, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !(math.Abs(tc.rank-want[0].MeanRank) <= 1e-9*want[0].MeanRank) || !(math.Abs(tc.mAP-want[0].MAP) <= 1e-9) {
				t.Errorf("dense max %d, %s: trainer %v, %v; those rows in full %v, %v", dense, tc.protocol, tc.rank, tc.mAP, want[0].MeanRank, want[0].MAP)
			}
			if tc.protocol == Directed && (p.EvalRows != want[0].Items || p.EvalQueries != all || p.EvalRows >= all) {
				t.Errorf("dense max %d: rows %d of %d, want %d of %d", dense, p.EvalRows, p.EvalQueries, want[0].Items, all)
			}
		}
	}
	if _, err := NewTrainer(n, pairs, Config{Dim: 2, EvalRows: -1}); err == nil {
		t.Error("EvalRows -1 accepted")
	}
}

// trainedRows trains a trainer on the relations for epochs and returns its
// snapshot and the brute-force score rows of that snapshot (DotProductRows,
// every score computed): the reference the trainer's own evaluations are
// compared with.
func trainedRows(t *testing.T, n int, pairs [][2]int, cfg Config, epochs int) (*Progress, RowScorer) {
	t.Helper()
	tr, err := NewTrainer(n, pairs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := tr.Step(context.Background(), epochs)
	if err != nil {
		t.Fatal(err)
	}
	e, err := p.Embedding(make([]string, n))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := DotProductRows(e)
	if err != nil {
		t.Fatal(err)
	}
	return p, rows
}

// TestEvaluationBytesBoundsAllocation checks the memory plan of the
// pruned evaluation against what it allocates (all its allocations,
// garbage included, so above its peak; with 64 bytes a relation for the
// graphs, as eval-relations plans them): EvaluateEmbeddingEvery on 5,000
// random items at d = 2, 6 and 10 with 2 workers, and an embedding whose
// bounds let every candidate through (isotropic scales, means zero: the
// prefilter keeps all, the bitmaps are full).
func TestEvaluationBytesBoundsAllocation(t *testing.T) {
	const n = 5000
	pairs := hypBenchTree(n)
	for _, tc := range []struct {
		d    int
		flat bool
	}{{2, false}, {6, false}, {10, false}, {6, true}} {
		rng := rand.New(rand.NewPCG(uint64(tc.d), 7))
		d := tc.d
		e := &engine.Embedding{Family: engine.Gaussian(), Dim: d, Labels: make([]string, n),
			Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
		for i := 0; i < n; i++ {
			if tc.flat {
				for k := 0; k < d; k++ {
					e.Scales[i*d*d+k*d+k] = 1
				}
				continue
			}
			for k := 0; k < d; k++ {
				e.Means[i*d+k] = rng.NormFloat64()
			}
			copy(e.Scales[i*d*d:(i+1)*d*d], engine.FactorProduct(hypRandFactor(rng, d, 0.5), d, d, 0.01))
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, st, err := EvaluateEmbeddingEvery(context.Background(), e, pairs, Directed, 2, 50)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		got, plan := float64(after.TotalAlloc-before.TotalAlloc), EvaluationBytes(n, d, 2)+64*float64(len(pairs))
		if got > plan {
			t.Errorf("d=%d flat=%v: allocated %.0f bytes, plan %.0f", d, tc.flat, got, plan)
		}
		t.Logf("d=%d flat=%v: allocated %.1f MB of a plan of %.1f MB; %d item bounds", d, tc.flat, got/1e6, plan/1e6, st.Bound)
	}
}
