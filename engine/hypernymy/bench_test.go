package hypernymy

import (
	"burescope/engine"
	"burescope/internal/cputime"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// hypBenchTree returns the transitive closure of a random tree on n nodes
// (node i > 0 hangs under a uniform earlier node), a stand-in of the
// mammal closure's size for benchmarks (n = 1182 gives a few thousand
// pairs).
func hypBenchTree(n int) [][2]int {
	rng := rand.New(rand.NewPCG(1, 1))
	parent := make([]int, n)
	parent[0] = -1
	var pairs [][2]int
	for i := 1; i < n; i++ {
		parent[i] = rng.IntN(i)
		for a := parent[i]; a >= 0; a = parent[a] {
			pairs = append(pairs, [2]int{i, a})
		}
	}
	return pairs
}

// BenchmarkHypernymyEpoch times one training epoch (negatives 50, batches
// of 1000, all cores) on a 1,182-node random tree closure.
func BenchmarkHypernymyEpoch(b *testing.B) {
	const n = 1182
	pairs := hypBenchTree(n)
	for _, d := range []int{2, 3, 5, 10} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			tr, err := NewTrainer(n, pairs, Config{Dim: d, Seed: 1, Epochs: 1 << 30, EvalEvery: -1})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tr.Step(context.Background(), 1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(tr.Relations())), "pairs")
		})
	}
}

// BenchmarkHypPairLoss times the loss kernel of one positive relation with
// 50 negatives (scores, softmax and all T-map gradients) on one core.
func BenchmarkHypPairLoss(b *testing.B) {
	for _, d := range []int{2, 3, 4, 5, 10, 16} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			const n = 64
			dd := d * d
			rng := rand.New(rand.NewPCG(2, 3))
			means := make([]float64, n*d)
			for i := range means {
				means[i] = rng.NormFloat64()
			}
			fact := make([]float64, n*dd)
			for i := range fact {
				fact[i] = 0.3 * rng.NormFloat64()
			}
			c := newHypItemCache(n, d)
			cws := newHypCacheWS(d)
			for i := 0; i < n; i++ {
				c.setFromFactor(cws, i, fact[i*dd:(i+1)*dd], 0.01)
			}
			cand := make([]int32, 51)
			for i := range cand {
				cand[i] = int32(1 + i%(n-1))
			}
			ws := newHypPairWS(d, len(cand))
			acc := newHypGradAcc(n, d)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				hypPairLoss(ws, c, means, fact, 0.01, 0, cand, acc)
				acc.reset()
			}
		})
	}
}

// BenchmarkHypernymyEvaluate times one reconstruction evaluation (all
// n^2/2 scores and the ranking) on the 1,182-node random tree, then the
// pruned and brute-force evaluations of eval-relations.
func BenchmarkHypernymyEvaluate(b *testing.B) {
	const n = 1182
	pairs := hypBenchTree(n)
	for _, d := range []int{2, 5, 10} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			tr, err := NewTrainer(n, pairs, Config{Dim: d, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tr.EvaluateOn(context.Background(), pairs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The pruned evaluation (EvaluateEmbedding, as eval-relations runs
	// it) of the same tree after 3 training epochs, and the brute-force
	// one (every pair scored by DotProductRows) it must equal.
	for _, d := range []int{2, 5, 10} {
		tr, err := NewTrainer(n, pairs, Config{Dim: d, Seed: 1, EvalEvery: -1})
		if err != nil {
			b.Fatal(err)
		}
		p, err := tr.Step(context.Background(), 3)
		if err != nil {
			b.Fatal(err)
		}
		e, err := p.Embedding(make([]string, n))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("pruned/d=%d", d), func(b *testing.B) {
			var st PruneStats
			for i := 0; i < b.N; i++ {
				if _, st, err = EvaluateEmbeddingEvery(context.Background(), e, pairs, Directed, 0, 1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(st.Ambiguous)/float64(st.Rows), "ambiguous/row")
			b.ReportMetric(float64(st.Exact)/float64(st.Rows), "exact/row")
		})
		b.Run(fmt.Sprintf("brute/d=%d", d), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				rows, err := DotProductRows(e)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := EvaluateProtocol(context.Background(), n, pairs, rows, 0, Directed); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHypEigen compares the kernel's eigensolver with vectors
// (engine/pairkernel's tred2 + tql2) with LAPACK's Dsyev (gonum) and Jacobi on
// one random positive definite matrix.
func BenchmarkHypEigen(b *testing.B) {
	for _, d := range []int{5, 10, 16} {
		rng := rand.New(rand.NewPCG(1, uint64(d)))
		m0 := engine.FactorProduct(hypRandFactor(rng, d, 1), d, d, 0.01)
		m, v, lam := make([]float64, d*d), make([]float64, d*d), make([]float64, d)
		h := newHypEig(d)
		b.Run(fmt.Sprintf("tql2/d=%d", d), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				copy(m, m0)
				h.vectors(m, v, lam)
			}
		})
		b.Run(fmt.Sprintf("dsyev/d=%d", d), func(b *testing.B) {
			var impl gonum.Implementation
			work := make([]float64, 64*d)
			for i := 0; i < b.N; i++ {
				copy(v, m0)
				impl.Dsyev(lapack.EVCompute, blas.Upper, d, v, d, lam, work, len(work))
			}
		})
		b.Run(fmt.Sprintf("jacobi/d=%d", d), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				copy(m, m0)
				engine.JacobiEigen(m, d, v, lam)
			}
		})
	}
}

// BenchmarkHypernymyNounsBatch times one training batch (1,000 relations,
// 50 negatives each, the optimiser step included) on a random tree of the
// WordNet nouns' size (82,115 items; its closure has about as many pairs
// as the nouns' 743,241), so that an epoch of the nouns costs about
// 826 batches (with the self pairs). Report ns/op x 826 as the epoch;
// cpu-ns/op is the process's CPU time per batch (all workers), the
// steadier figure on a shared machine.
func BenchmarkHypernymyNounsBatch(b *testing.B) {
	const n = 82115
	pairs := hypBenchTree(n)
	for _, d := range []int{2, 5, 10} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			tr, err := NewTrainer(n, pairs, Config{Dim: d, Seed: 1, NoEval: true})
			if err != nil {
				b.Fatal(err)
			}
			batch := make([]int, 1000)
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				for k := range batch {
					batch[k] = (i*1000 + k) * 7919 % len(tr.pos)
				}
				if _, err := tr.batch(batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(len(tr.pos)), "pairs")
		})
	}
}
