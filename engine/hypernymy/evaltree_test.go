package hypernymy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"burescope/engine"
)

// TestEvalTreeBoundsContainScores checks every item bound of the pruned
// evaluation against the exact score s(u, w) (evalScore) for all pairs
// of random items, d = 1 to 12: the first item bounds, both eigenbasis
// upper bounds (in the query's and in the item's eigenbasis) and the
// S-product lower bound (the prefilter's bound: prefilter_test.go).
// Scales are generic, of low rank plus 0.01 I (the lifted embeddings of
// docs/hypernymy.md), or isotropic (where the spectral bounds are
// attained).
func TestEvalTreeBoundsContainScores(t *testing.T) {
	for _, tc := range []struct {
		d    int
		kind string
	}{{1, "generic"}, {2, "generic"}, {3, "lowrank"}, {5, "generic"}, {7, "isotropic"}, {10, "generic"}, {10, "lowrank"}, {12, "generic"}} {
		t.Run(fmt.Sprintf("d=%d %s", tc.d, tc.kind), func(t *testing.T) {
			const n = 120
			d := tc.d
			rng := rand.New(rand.NewPCG(uint64(d), 21))
			means, c := hypTestItems(rng, n, d, tc.kind, 1)
			tree := newHypEvalTree(c, means, 2)
			ews := newHypEvalWS(d)
			var ws hypTreeWS
			const tol = 1e-9
			for u := 0; u < n; u += 7 {
				tree.setQuery(&ws, u)
				au := c.a[u*d*d : (u+1)*d*d]
				pu := int(tree.pos[u])
				fu := tree.feat[pu*tree.nf : (pu+1)*tree.nf]
				nmu, nsu := tree.nm[pu], tree.ns[pu]
				for q := 0; q < n; q++ {
					w := int(tree.order[q])
					s := c.evalScore(ews, means, u, w)
					lo, hi, dm, margin := tree.itemBounds(q, pu, fu, nmu, nsu)
					check := func(what string, lo, hi float64) {
						t.Helper()
						if !(lo <= s+tol && s <= hi+tol) {
							t.Fatalf("u=%d w=%d %s: score %v outside [%v, %v]", u, w, what, s, lo, hi)
						}
					}
					check("first", lo, hi)
					check("query eigenbasis", lo, dm+tree.eigenUpper(q, ws.sl, ws.proj)+margin)
					check("item eigenbasis", lo, dm+tree.itemEigenUpper(q, au)+margin)
					check("S product", tree.itemBoundsS(q, fu, lo, dm, margin), hi)
				}
			}
		})
	}
}

// hypTestItems returns the means and the cache of n random items at
// dimension d: means 2 N(0, 1) and scales of the given kind, both times
// the scale of the measures (means by its root): "generic" (a random
// factor's product plus 0.01 I), "lowrank" (rank 2 plus 0.01 I),
// "singular" (as lowrank, every third item with 1e-15 I) or "isotropic".
func hypTestItems(rng *rand.Rand, n, d int, kind string, scale float64) ([]float64, *hypItemCache) {
	means := make([]float64, n*d)
	c := newHypItemCache(n, d)
	cws := newHypCacheWS(d)
	for i := 0; i < n; i++ {
		for k := 0; k < d; k++ {
			means[i*d+k] = 2 * rng.NormFloat64() * math.Sqrt(scale)
		}
		var a []float64
		switch kind {
		case "generic":
			a = engine.FactorProduct(hypRandFactor(rng, d, 1), d, d, 0.01)
		case "lowrank", "singular":
			eps := 0.01
			if kind == "singular" && i%3 == 0 {
				eps = 1e-15
			}
			l := hypRandFactor(rng, d, 1)
			for r := 0; r < d; r++ {
				for k := min(2, d); k < d; k++ {
					l[r*d+k] = 0 // rank 2
				}
			}
			a = engine.FactorProduct(l, d, d, eps)
		case "isotropic":
			a = make([]float64, d*d)
			s := 0.1 + rng.Float64()
			for k := 0; k < d; k++ {
				a[k*d+k] = s
			}
		}
		for k := range a {
			a[k] *= scale
		}
		c.setFromScale(cws, i, a)
	}
	return means, c
}
