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
	l := make([]float64, d*k)
	for i := 0; i < n; i++ {
		e.Labels[i] = string(rune('a'+i%26)) + string(rune('0'+i/26%10)) + string(rune('0'+i/260))
		for j := range e.Mean(i) {
			e.Mean(i)[j] = rnd.NormFloat64()
		}
		for j := range l {
			l[j] = rnd.NormFloat64() / math.Sqrt(float64(k))
		}
		copy(e.Scale(i), FactorProduct(l, d, k, 0))
	}
	return e
}

// bruteScore is the reference score of measures i and j of e: H1's
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
		return DotProduct(a, A, b, B, d)
	case ByCosine:
		return BuresCosine(a, A, b, B, d, rho)
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
				if math.Abs(got-want) > tc.tol*(1+math.Abs(want)) {
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
					if math.Abs(got[r].Score-want[r].Score) > tc.tol*(1+math.Abs(want[r].Score)) {
						t.Errorf("%s %s item %d rank %d: score %v, brute force %v", tc.name, by, item, r, got[r].Score, want[r].Score)
					}
					// Indices must agree unless two brute-force scores are
					// within round-off of each other.
					if got[r].Index != want[r].Index {
						if math.Abs(bruteScore(e, item, got[r].Index, by, tc.rho)-want[r].Score) > tc.tol*(1+math.Abs(want[r].Score)) {
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
		if math.Abs(s[5]-tc.self) > 1e-6 {
			t.Errorf("%s rho %v: self score %v, want %v", tc.by, tc.rho, s[5], tc.self)
		}
	}
	// [mu : mu] = |a|^2 + tr A (MATH.md: polarisation against the Dirac at 0).
	s, err := SimilarityScores(ctx, e, 3, NeighborOptions{By: ByDot})
	if err != nil {
		t.Fatal(err)
	}
	if want := Dot(e.Mean(3), e.Mean(3)) + Trace(e.Scale(3), 6); math.Abs(s[3]-want) > 1e-9*want {
		t.Errorf("[mu:mu] = %v, want %v", s[3], want)
	}
	// Polarisation: W2^2(mu,nu) = [mu:mu] + [nu:nu] - 2 [mu:nu].
	w, _ := SimilarityScores(ctx, e, 3, NeighborOptions{By: ByW2})
	for j := 0; j < e.Len(); j++ {
		nn := Dot(e.Mean(j), e.Mean(j)) + Trace(e.Scale(j), 6)
		if got := s[3] + nn - 2*s[j]; math.Abs(got-w[j]*w[j]) > 1e-8*(1+got) {
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

func TestTopKMatchesSort(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := 1 + rnd.IntN(200)
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(rnd.IntN(20)) // many ties
			if rnd.IntN(30) == 0 {
				s[i] = math.NaN()
			}
		}
		skip, k := rnd.IntN(n), 1+rnd.IntN(n)
		for _, asc := range []bool{true, false} {
			var want []Neighbor
			for i, v := range s {
				if i != skip {
					want = append(want, Neighbor{i, v})
				}
			}
			sort.SliceStable(want, func(x, y int) bool {
				return rankBefore(want[x].Score, want[x].Index, want[y].Score, want[y].Index, asc)
			})
			if k < len(want) {
				want = want[:k]
			}
			got := topK(s, skip, k, asc)
			if len(got) != len(want) {
				t.Fatalf("len %d want %d", len(got), len(want))
			}
			for r := range want {
				if got[r].Index != want[r].Index {
					t.Fatalf("trial %d asc %v rank %d: %v want %v", trial, asc, r, got[r], want[r])
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

// BenchmarkNearestNeighbors is issue 7's target: k-NN of one item over
// n = 100,000 measures in d = 12 on the CPU path (< 1 s per op).
func BenchmarkNearestNeighbors(b *testing.B) {
	e := randomEmbedding(rand.New(rand.NewPCG(1, 1)), 100000, 12, 12, Gaussian())
	for _, by := range []Similarity{ByW2, ByMixture} {
		b.Run(string(by), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := NearestNeighbors(context.Background(), e, i%e.Len(), NeighborOptions{By: by, K: 10, Rho: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
