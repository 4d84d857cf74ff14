package emds

import (
	"burescope/engine"
	"math"
	"math/rand/v2"
)

// meanShareExactPairs is the largest pair count MeanShare sums exactly;
// above it, MeanShare sums a fixed pseudo-random sample of this many pairs.
// For d > 3 (no closed form) the limit is meanShareExactPairsEig.
const (
	meanShareExactPairs    = 20_000
	meanShareExactPairsEig = 2_000
)

// MeanShare returns the share of the squared 2-Wasserstein distances that
// the means carry:
//
//	sum_{i<j} w_ij |m_i - m_j|^2 / sum_{i<j} w_ij W2_ij^2,
//
// with W2_ij^2 = |m_i - m_j|^2 + tau Bures^2(C_i, C_j) (docs/mds.md, Model
// choices); 1 - MeanShare is the share of the scales. means is n*d,
// scales n*d*d (nil: points, share 1), w the packed pair weights (nil: all
// 1). Up to 20,000 pairs (2,000 for d > 3) are summed exactly; beyond, a
// fixed sample of that many pairs (the same for every call with the same
// n) estimates it.
// It returns NaN when every distance is zero.
func MeanShare(means, scales []float64, n, d int, tau float64, w []float64) float64 {
	if scales == nil {
		return 1
	}
	var num, den float64
	add := func(i, j int) {
		wt := 1.0
		if w != nil {
			wt = w[engine.PairIndex(n, i, j)]
		}
		if wt == 0 {
			return
		}
		m := engine.SqDist(means[i*d:(i+1)*d], means[j*d:(j+1)*d])
		a, b := scales[i*d*d:(i+1)*d*d], scales[j*d*d:(j+1)*d*d]
		br := engine.Bures2Fast(a, b, d)
		num += wt * m
		den += wt * (m + tau*br)
	}
	limit := meanShareExactPairs
	if d > 3 {
		limit = meanShareExactPairsEig // eigendecompositions: ~100x dearer
	}
	pairs := n * (n - 1) / 2
	if pairs <= limit {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				add(i, j)
			}
		}
	} else {
		rng := rand.New(rand.NewPCG(uint64(n), 0x6d65616e))
		for k := 0; k < limit; k++ {
			i := rng.IntN(n)
			j := rng.IntN(n - 1)
			if j >= i {
				j++
			}
			add(min(i, j), max(i, j))
		}
	}
	if !(den > 0) {
		return math.NaN()
	}
	return num / den
}
