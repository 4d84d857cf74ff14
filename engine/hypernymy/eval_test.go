package hypernymy

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"burescope/engine"
)

// hypBruteReconstruction computes mean rank and MAP directly from the
// definitions with plain O(n^2) loops per item, independently of the
// sorting and binary search of EvaluateReconstruction:
//
//	rank(u, v) = 1 + #{w non-neighbour of u : s(u, w) > s(u, v)}
//	AP(u) = mean over neighbours v of (position of v among neighbours) /
//	        (position of v in the full list),
//
// positions counting the items strictly above v (neighbours tied with v
// are ordered by index, as any order gives the same sum).
func hypBruteReconstruction(n int, rel map[[2]int]bool, score func(u, w int) float64) (meanRank, mapScore float64) {
	var rankSum, apSum float64
	var pairs, items int
	for u := 0; u < n; u++ {
		isNbr := func(w int) bool { return rel[[2]int{u, w}] }
		var ap float64
		m := 0
		for v := 0; v < n; v++ {
			if !isNbr(v) {
				continue
			}
			m++
			sv := score(u, v)
			nonAbove, nbrAbove := 0, 0
			for w := 0; w < n; w++ {
				sw := score(u, w)
				switch {
				case isNbr(w):
					if sw > sv || (sw == sv && w < v) {
						nbrAbove++
					}
				case w != u:
					if sw > sv {
						nonAbove++
					}
				}
			}
			rankSum += float64(1 + nonAbove)
			ap += float64(nbrAbove+1) / float64(nbrAbove+1+nonAbove)
		}
		if m > 0 {
			pairs += m
			items++
			apSum += ap / float64(m)
		}
	}
	return rankSum / float64(pairs), apSum / float64(items)
}

// TestEvaluateReconstructionBruteForce compares EvaluateReconstruction with
// the brute-force definition on random relation sets and random scores,
// including heavy ties (integer scores), self pairs, duplicate pairs and
// items without relations.
func TestEvaluateReconstructionBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		density float64
		levels  int // scores are integers in [0, levels) (ties); 0: continuous
		workers int
	}{
		{"continuous sparse", 30, 0.1, 0, 1},
		{"continuous dense", 25, 0.5, 0, 3},
		{"ties", 40, 0.15, 4, 2},
		{"all tied", 12, 0.3, 1, 2},
		{"few items", 3, 0.5, 0, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.levels)))
			n := tc.n
			s := make([]float64, n*n)
			for i := range s {
				if tc.levels > 0 {
					s[i] = float64(rng.IntN(tc.levels))
				} else {
					s[i] = rng.NormFloat64()
				}
			}
			rel := map[[2]int]bool{}
			var pairs [][2]int
			for u := 0; u < n; u++ {
				for v := 0; v < n; v++ {
					if rng.Float64() < tc.density {
						pairs = append(pairs, [2]int{u, v})
						rel[[2]int{u, v}] = true
					}
				}
			}
			pairs = append(pairs, pairs[0]) // a duplicate
			rows := func() func(int, []float64) {
				return func(u int, out []float64) { copy(out, s[u*n:(u+1)*n]) }
			}
			got, err := EvaluateProtocol(context.Background(), n, pairs, rows, tc.workers, Directed)
			if err != nil {
				t.Fatal(err)
			}
			wantRank, wantMAP := hypBruteReconstruction(n, rel, func(u, w int) float64 { return s[u*n+w] })
			if !(math.Abs(got.MeanRank-wantRank) <= 1e-12*wantRank) || !(math.Abs(got.MAP-wantMAP) <= 1e-12) {
				t.Errorf("mean rank %v, MAP %v; brute force %v, %v", got.MeanRank, got.MAP, wantRank, wantMAP)
			}
			if got.Pairs != len(rel) {
				t.Errorf("%d pairs, want %d distinct", got.Pairs, len(rel))
			}
		})
	}
}

// TestEvaluateReconstructionKnown checks hand-computed values on a
// 4-item example: scores of row 0 are (-, 3, 2, 1) for items 1, 2, 3 and
// the relations of 0 are {2, 3}. Non-neighbours of 0: {1}, scoring 3, so
// rank(0,2) = rank(0,3) = 2; the full list is 1, 2, 3 so
// AP(0) = (1/2)(1/2 + 2/3) = 7/12. Row 1 has the relation {0} with no
// non-neighbour above it (scores 0 for all): rank 1, AP 1.
func TestEvaluateReconstructionKnown(t *testing.T) {
	s := [][]float64{{0, 3, 2, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}
	rows := func() func(int, []float64) {
		return func(u int, out []float64) { copy(out, s[u]) }
	}
	r, err := EvaluateProtocol(context.Background(), 4, [][2]int{{0, 2}, {0, 3}, {1, 0}}, rows, 1, Directed)
	if err != nil {
		t.Fatal(err)
	}
	wantRank := (2.0 + 2 + 1) / 3
	wantMAP := (7.0/12 + 1) / 2
	if !(math.Abs(r.MeanRank-wantRank) <= 1e-15) || !(math.Abs(r.MAP-wantMAP) <= 1e-15) || r.Pairs != 3 || r.Items != 2 {
		t.Errorf("got %+v, want mean rank %v, MAP %v, 3 pairs, 2 items", r, wantRank, wantMAP)
	}
}

// TestDotProductRows checks the row scorer of an embedding against the engine's
// engine.DotProduct (exact eigendecomposition) for every pair, and that the
// trainer's dense evaluation path equals the row-by-row one.
func TestDotProductRows(t *testing.T) {
	for _, d := range []int{2, 3, 5} {
		rng := rand.New(rand.NewPCG(21, uint64(d)))
		const n = 9
		e := &engine.Embedding{Family: engine.Gaussian(), Dim: d, Labels: make([]string, n), Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
		for i := 0; i < n; i++ {
			e.Labels[i] = string(rune('a' + i))
			for j := range e.Mean(i) {
				e.Mean(i)[j] = rng.NormFloat64()
			}
			copy(e.Scale(i), engine.FactorProduct(hypRandFactor(rng, d, 1), d, d, 0.01))
		}
		rows, err := DotProductRows(e)
		if err != nil {
			t.Fatal(err)
		}
		f := rows()
		out := make([]float64, n)
		for u := 0; u < n; u++ {
			f(u, out)
			for w := 0; w < n; w++ {
				want := engine.DotProduct(e.Mean(u), e.Scale(u), e.Mean(w), e.Scale(w), d)
				if !(math.Abs(out[w]-want) <= 1e-10*math.Max(1, math.Abs(want))) {
					t.Errorf("d=%d: score(%d,%d) = %v, engine.DotProduct %v", d, u, w, out[w], want)
				}
			}
		}
	}
	bad := &engine.Embedding{Dim: 2, Labels: []string{"x"}, Means: []float64{0, 0}, Scales: []float64{math.NaN(), 0, 0, 1}}
	if _, err := DotProductRows(bad); err == nil {
		t.Error("no error for a NaN scale")
	}
}

// TestHypernymyDenseEvalMatchesRows checks that the trainer's evaluation
// (dense symmetric score matrix) equals EvaluateReconstruction over
// DotProductRows of its own snapshot.
func TestHypernymyDenseEvalMatchesRows(t *testing.T) {
	n, pairs := hypTinyTree()
	p, rows := trainedRows(t, n, pairs, Config{Dim: 3, Negatives: 3, BatchSize: 5, Seed: 2, Epochs: 3, EvalEvery: -1}, 3)
	r, err := EvaluateProtocol(context.Background(), n, pairs, rows, 2, Directed)
	if err != nil {
		t.Fatal(err)
	}
	if !(math.Abs(r.MeanRank-p.MeanRank) <= 1e-12) || !(math.Abs(r.MAP-p.MAP) <= 1e-12) {
		t.Errorf("trainer: mean rank %v MAP %v; from the snapshot %v %v", p.MeanRank, p.MAP, r.MeanRank, r.MAP)
	}
}
