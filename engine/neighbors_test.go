package engine

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// randomEmbedding returns n random measures in R^d: standard normal means
// and scales L L^T with L a d x k standard normal factor (rank <= k), so
// k < d gives rank-deficient scales.
func randomEmbedding(rnd *rand.Rand, n, d, k int, f Family) *Embedding {
	e := &Embedding{Family: f, Dim: d, Labels: make([]string, n), Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
	for i := 0; i < n; i++ {
		e.Labels[i] = string(rune('a'+i%26)) + string(rune('0'+i/26%10)) + string(rune('0'+i/260))
		for j := range e.Mean(i) {
			e.Mean(i)[j] = rnd.NormFloat64()
		}
		copy(e.Scale(i), RandomPSD(rnd, d, k, 1/math.Sqrt(float64(k)), 0))
	}
	return e
}

// bruteScore is the reference score of measures i and j of e: the
// exact engine functions (W2, DotProduct, BuresCosine, MixtureCosine in
// bures.go and similarity.go, each with two full eigendecompositions), not
// the eigenvalue-only fast path under test.
func bruteScore(e *Embedding, i, j int, by Similarity, rho float64) float64 {
	d := e.Dim
	a, b := e.Mean(i), e.Mean(j)
	A, B := e.Scale(i), e.Scale(j)
	switch by {
	case ByW2:
		return e.W2(i, j)
	case ByDot:
		return PseudoDot(e.Family, a, A, b, B, d, rho)
	case ByCosine:
		return BuresCosine(a, A, b, B, d, rho*e.Family.Tau)
	case ByMixture:
		return MixtureCosine(a, A, b, B, d, rho)
	}
	panic("unknown similarity")
}

// bruteNeighbors ranks every j != item by bruteScore with a full sort.
func bruteNeighbors(e *Embedding, item int, by Similarity, rho float64) []Neighbor {
	var all []Neighbor
	for j := 0; j < e.Len(); j++ {
		if j != item {
			all = append(all, Neighbor{Index: j, Score: bruteScore(e, item, j, by, rho)})
		}
	}
	sort.SliceStable(all, func(x, y int) bool {
		if by.Ascending() {
			return all[x].Score < all[y].Score
		}
		return all[x].Score > all[y].Score
	})
	return all
}

func TestNearestNeighborsAgainstBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name string
		n, d int
		k    int // factor columns
		f    Family
		rho  float64
		tol  float64 // relative
	}{
		// Full rank: both paths are backward stable, agreement to 1e-9.
		{"d1", 60, 1, 1, Gaussian(), 1, 1e-9},
		{"d2", 80, 2, 2, Gaussian(), 1, 1e-9},
		{"d3", 80, 3, 3, Gaussian(), 1, 1e-9},
		{"d12", 120, 12, 12, Gaussian(), 1, 1e-9},
		// Rank-deficient: A^{1/2} B A^{1/2} has zero eigenvalues that any
		// eigensolver returns as +-1e-16 |M|; their square roots add up to
		// d sqrt(machine eps) |M|^{1/2} (about 2e-7 for d = 12) of noise in
		// either computation.
		{"d2-rank1", 80, 2, 1, Uniform(2), 0.5, 2e-7},
		{"d5-rank2", 80, 5, 2, CustomFamily(0.3), 2, 2e-7},
		{"d12-rank4", 120, 12, 4, Gaussian(), 1, 2e-7},
	} {
		rnd := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.d*100+tc.k)))
		e := randomEmbedding(rnd, tc.n, tc.d, tc.k, tc.f)
		for _, by := range []Similarity{ByW2, ByDot, ByCosine, ByMixture} {
			// Every score of the batch, not only the top ones.
			all, err := SimilarityScores(context.Background(), e, 1, NeighborOptions{By: by, Rho: tc.rho, Workers: 2})
			if err != nil {
				t.Fatalf("%s %s: %v", tc.name, by, err)
			}
			for j, got := range all {
				want := bruteScore(e, 1, j, by, tc.rho)
				if by == ByW2 {
					// Compare W2^2: the square root amplifies round-off
					// near W2 = 0 (j = 1 itself).
					got, want = got*got, want*want
				}
				if !(math.Abs(got-want) <= tc.tol*(1+math.Abs(want))) {
					t.Errorf("%s %s: score(1, %d) = %v, brute force %v", tc.name, by, j, got, want)
				}
			}
			for _, item := range []int{0, tc.n / 2, tc.n - 1} {
				got, err := NearestNeighbors(context.Background(), e, item, NeighborOptions{By: by, K: 15, Rho: tc.rho, Workers: 3})
				if err != nil {
					t.Fatalf("%s %s: %v", tc.name, by, err)
				}
				want := bruteNeighbors(e, item, by, tc.rho)[:15]
				for r := range want {
					if !(math.Abs(got[r].Score-want[r].Score) <= tc.tol*(1+math.Abs(want[r].Score))) {
						t.Errorf("%s %s item %d rank %d: score %v, brute force %v", tc.name, by, item, r, got[r].Score, want[r].Score)
					}
					// Indices must agree unless two brute-force scores are
					// within round-off of each other.
					if got[r].Index != want[r].Index {
						if !(math.Abs(bruteScore(e, item, got[r].Index, by, tc.rho)-want[r].Score) <= tc.tol*(1+math.Abs(want[r].Score))) {
							t.Errorf("%s %s item %d rank %d: index %d, brute force %d", tc.name, by, item, r, got[r].Index, want[r].Index)
						}
					}
					if got[r].Index == item {
						t.Errorf("%s %s: item itself returned", tc.name, by)
					}
				}
			}
		}
	}
}

func TestSimilarityScoresIdentities(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 7))
	e := randomEmbedding(rnd, 40, 6, 6, Gaussian())
	ctx := context.Background()
	// W2 of a measure to itself is 0; the Bures cosine of a measure with
	// itself is 1 and the mixture cosine is 1 + rho (tr A^{1/2} A A^{1/2})^{1/2} = tr A).
	for _, tc := range []struct {
		by   Similarity
		rho  float64
		self float64
	}{
		{ByW2, 1, 0},
		{ByCosine, 1, 1},
		{ByCosine, 3, 1},
		{ByMixture, 1, 2},
		{ByMixture, 0.5, 1.5},
	} {
		s, err := SimilarityScores(ctx, e, 5, NeighborOptions{By: tc.by, Rho: tc.rho})
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(s[5]-tc.self) <= 1e-6) {
			t.Errorf("%s rho %v: self score %v, want %v", tc.by, tc.rho, s[5], tc.self)
		}
	}
	// [mu : mu] = |a|^2 + tr A (docs/math.md: polarisation against the Dirac at 0).
	s, err := SimilarityScores(ctx, e, 3, NeighborOptions{By: ByDot, Rho: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := Dot(e.Mean(3), e.Mean(3)) + Trace(e.Scale(3), 6); !(math.Abs(s[3]-want) <= 1e-9*want) {
		t.Errorf("[mu:mu] = %v, want %v", s[3], want)
	}
	// Polarisation: W2^2(mu,nu) = [mu:mu] + [nu:nu] - 2 [mu:nu].
	w, _ := SimilarityScores(ctx, e, 3, NeighborOptions{By: ByW2})
	for j := 0; j < e.Len(); j++ {
		nn := Dot(e.Mean(j), e.Mean(j)) + Trace(e.Scale(j), 6)
		if got := s[3] + nn - 2*s[j]; !(math.Abs(got-w[j]*w[j]) <= 1e-8*(1+got)) {
			t.Errorf("polarisation j=%d: %v vs W2^2 %v", j, got, w[j]*w[j])
		}
	}
}

func TestNearestNeighborsTiesAndK(t *testing.T) {
	// Five identical Diracs at the origin-free point (1,0) around a query
	// Dirac at (0,0): all W2 scores tie at 1, so the order is by index.
	e := &Embedding{Family: Gaussian(), Dim: 2, Labels: []string{"q", "a", "b", "c", "d", "e"},
		Means: []float64{0, 0, 1, 0, 0, 1, -1, 0, 0, -1, 1, 0}, Scales: make([]float64, 6*4)}
	got, err := NearestNeighbors(context.Background(), e, 0, NeighborOptions{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	for r, want := range []int{1, 2, 3} {
		if got[r].Index != want || got[r].Score != 1 {
			t.Errorf("rank %d: %+v, want index %d score 1", r, got[r], want)
		}
	}
	// K larger than n-1 gives all the others.
	got, _ = NearestNeighbors(context.Background(), e, 2, NeighborOptions{K: 100})
	if len(got) != 5 {
		t.Errorf("K=100 on n=6: %d neighbours, want 5", len(got))
	}
	for _, nb := range got {
		if nb.Index == 2 {
			t.Error("item itself returned")
		}
	}
}

// fullRanking is the reference for NearestNeighbors' pruned search: every
// score from SimilarityScores (no pruning), sorted by RankBefore.
func fullRanking(t *testing.T, e *Embedding, item int, opt NeighborOptions) []Neighbor {
	t.Helper()
	s, err := SimilarityScores(context.Background(), e, item, opt)
	if err != nil {
		t.Fatal(err)
	}
	by := opt.By
	if by == "" {
		by = ByW2
	}
	var all []Neighbor
	for j, v := range s {
		if j != item {
			all = append(all, Neighbor{j, v})
		}
	}
	sort.SliceStable(all, func(x, y int) bool {
		return RankBefore(all[x].Score, all[x].Index, all[y].Score, all[y].Index, by.Ascending())
	})
	return all
}

func TestNearestNeighborsPruningIsExact(t *testing.T) {
	rnd := rand.New(rand.NewPCG(21, 22))
	big := randomEmbedding(rnd, 5000, 2, 2, Gaussian())
	same := randomEmbedding(rnd, 300, 4, 4, Gaussian()) // equal means: weak W2 bound
	for i := 1; i < same.Len(); i++ {
		copy(same.Mean(i), same.Mean(0))
	}
	// Isotropic scales c_j I: the W2, dot and cosine bounds are attained
	// (tr (A^{1/2} B A^{1/2})^{1/2} = sqrt(tr A tr B) for proportional
	// scales), so pruning works right at its round-off slack.
	iso := randomEmbedding(rnd, 300, 3, 3, Gaussian())
	for i := 0; i < iso.Len(); i++ {
		c := rnd.Float64() * 4
		copy(iso.Scale(i), []float64{c, 0, 0, 0, c, 0, 0, 0, c})
	}
	dup := randomEmbedding(rnd, 200, 3, 2, Gaussian()) // exact ties
	for i := 100; i < 200; i++ {
		copy(dup.Mean(i), dup.Mean(i-100))
		copy(dup.Scale(i), dup.Scale(i-100))
	}
	nan := randomEmbedding(rnd, 50, 3, 3, Gaussian())
	nan.Scale(7)[4] = math.NaN()
	// All distances ~1e-4: the pruning slack must be relative to the
	// scores (1e-9 (1 + |kth|)), not an absolute margin of their size.
	tiny := randomEmbedding(rnd, 400, 2, 2, Gaussian())
	for i := 0; i < tiny.Len(); i++ {
		for k, m := range tiny.Mean(i) {
			tiny.Mean(i)[k] = 1e-4 * m
		}
		for k, c := range tiny.Scale(i) {
			tiny.Scale(i)[k] = 1e-8 * c
		}
	}
	// Small first batches, so that the small embeddings are pruned too.
	defer func(b int) { neighborFirstBatch = b }(neighborFirstBatch)
	neighborFirstBatch = 8
	for _, tc := range []struct {
		name string
		e    *Embedding
		item int
		ks   []int
	}{
		{"big", big, 123, []int{1, 10, 500}},
		{"equal means", same, 5, []int{1, 10, 299}},
		{"isotropic", iso, 9, []int{1, 10, 299}},
		{"duplicates", dup, 42, []int{1, 2, 7, 199}},
		{"NaN scale", nan, 3, []int{5, 49}},
		{"tiny scale", tiny, 11, []int{1, 10, 399}},
	} {
		for _, by := range []Similarity{ByW2, ByDot, ByCosine, ByMixture} {
			opt := NeighborOptions{By: by, Rho: 0.7}
			ref := fullRanking(t, tc.e, tc.item, opt)
			for _, k := range tc.ks {
				opt.K = k
				got, err := NearestNeighbors(context.Background(), tc.e, tc.item, opt)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != k {
					t.Fatalf("%s %s k=%d: %d neighbours", tc.name, by, k, len(got))
				}
				for r := range got {
					same := got[r].Index == ref[r].Index && (got[r].Score == ref[r].Score || math.IsNaN(got[r].Score) && math.IsNaN(ref[r].Score))
					if !same {
						t.Fatalf("%s %s k=%d rank %d: %+v, full ranking %+v", tc.name, by, k, r, got[r], ref[r])
					}
				}
			}
		}
	}
}

func TestNeighborBounds(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 32))
	gen := randomEmbedding(rnd, 200, 4, 2, CustomFamily(0.5))
	// Isotropic scales c_j I attain the Cauchy-Schwarz bound
	// tr (A^{1/2} B A^{1/2})^{1/2} = d sqrt(c_a c_b) = sqrt(tr A tr B).
	iso := randomEmbedding(rnd, 200, 4, 4, CustomFamily(0.5))
	for i := 0; i < iso.Len(); i++ {
		c := rnd.Float64() * 3
		s := iso.Scale(i)
		for j := range s {
			s[j] = 0
		}
		for a := 0; a < 4; a++ {
			s[a*5] = c
		}
	}
	for _, by := range []Similarity{ByW2, ByDot, ByCosine} {
		for _, e := range []*Embedding{gen, iso} {
			opt := NeighborOptions{By: by, Rho: 0.8}
			st, err := newNeighborSetup(e, 3, opt)
			if err != nil {
				t.Fatal(err)
			}
			b := st.bounds(3)
			for j := 0; j < e.Len(); j++ {
				s := bruteScore(e, 3, j, by, 0.8)
				tol := 1e-9 * (1 + math.Abs(s))
				if by.Ascending() && b[j] > s+tol || !by.Ascending() && b[j] < s-tol {
					t.Fatalf("%s j=%d: bound %v beats score %v", by, j, b[j], s)
				}
				if e == iso && !(math.Abs(b[j]-s) <= 1e-6*(1+math.Abs(s))) {
					t.Fatalf("%s j=%d isotropic: bound %v, score %v, want equal", by, j, b[j], s)
				}
			}
		}
	}
}

func TestNeighborsErrorsAndCancel(t *testing.T) {
	e := randomEmbedding(rand.New(rand.NewPCG(3, 3)), 5000, 4, 4, Gaussian())
	ctx := context.Background()
	for _, tc := range []struct {
		item int
		opt  NeighborOptions
		want string
	}{
		{-1, NeighborOptions{}, "out of range"},
		{5000, NeighborOptions{}, "out of range"},
		{0, NeighborOptions{By: "l1"}, "unknown similarity"},
		{0, NeighborOptions{By: ByCosine, Rho: -1}, "rho"},
		{0, NeighborOptions{By: ByCosine, Rho: math.NaN()}, "rho"},
	} {
		_, err := NearestNeighbors(ctx, e, tc.item, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("item %d %+v: error %v, want %q", tc.item, tc.opt, err, tc.want)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := NearestNeighbors(cctx, e, 0, NeighborOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// BenchmarkNearestNeighbors measures the k-NN target: k-NN (k = 10) of one item
// over n = 100,000 measures in d = 12 on the CPU path (< 1 s per op), for
// each ranking, and the unpruned batch of all n scores (SimilarityScores)
// that bounds the worst case.
func BenchmarkNearestNeighbors(b *testing.B) {
	e := randomEmbedding(rand.New(rand.NewPCG(1, 1)), 100000, 12, 12, Gaussian())
	for _, by := range []Similarity{ByW2, ByDot, ByCosine, ByMixture} {
		b.Run(string(by), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := NearestNeighbors(context.Background(), e, i%e.Len(), NeighborOptions{By: by, K: 10, Rho: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("all-scores", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := SimilarityScores(context.Background(), e, i%e.Len(), NeighborOptions{By: ByW2}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
