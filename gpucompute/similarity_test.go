package gpucompute

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"burescope/engine"
)

// simEmbedding is a random embedding of n measures in R^d (means N(0,1),
// scales L L^T + eps I from randomState; degen: L of rank ceil(d/2)).
func simEmbedding(n, d int, tau float64, degen bool, eps float64, seed uint64) *engine.Embedding {
	rng := rand.New(rand.NewPCG(seed, 11))
	s := randomState(rng, problemCase{n: n, d: d, degen: degen, eps: eps})
	labels := make([]string, n)
	for i := range labels {
		labels[i] = fmt.Sprint("m", i)
	}
	return &engine.Embedding{Family: engine.CustomFamily(tau), Dim: d, Labels: labels, Means: s.Means, Scales: s.Scales}
}

// termScale is the size of the terms a score of item against j sums
// (engine's definitions, docs/math.md "Pseudo dot product and similarities"):
// W2 itself; |a||b| + sqrt(tr A tr B) for the dot product (X <= sqrt(tr A
// tr B) by Cauchy-Schwarz); the cosines' numerator terms over their
// denominators. A score that cancels to near zero carries no relative
// accuracy of its own, so errors are measured against
// max(|score|, termScale).
func termScale(e *engine.Embedding, item, j int, by engine.Similarity, rho float64) float64 {
	d := e.Dim
	a, b := e.Mean(item), e.Mean(j)
	na, nb := math.Sqrt(engine.Dot(a, a)), math.Sqrt(engine.Dot(b, b))
	ta, tb := engine.Trace(e.Scale(item), d), engine.Trace(e.Scale(j), d)
	x := math.Sqrt(ta * tb)
	switch by {
	case engine.ByDot:
		return na*nb + x
	case engine.ByCosine:
		den := math.Sqrt(na*na+rho*ta) * math.Sqrt(nb*nb+rho*tb)
		if den == 0 {
			return 0
		}
		return (na*nb + rho*x) / den
	case engine.ByMixture:
		return 1 + rho
	}
	return 0
}

// TestSimilarityScoresMatchEngine compares the GL scores of every measure
// with engine.SimilarityScores (the independent CPU computation: LAPACK
// tridiagonal eigenvalues in float64) for every similarity, d = 2, 3, 5, 8,
// rho = 1 and 0.5, on well-conditioned and near-degenerate scales. The
// item against itself must be the CPU's value exactly.
func TestSimilarityScoresMatchEngine(t *testing.T) {
	type bcase struct {
		name string
		b    *Backend
		tol  float64
	}
	backends := []bcase{
		// float32 buffers: inputs rounded to 2^-24 relative.
		{"float32", newBackend(t, Options{}), 1e-5},
	}
	if b64, err := New(Options{FP64: true}); err == nil {
		t.Cleanup(func() { b64.Close() })
		backends = append(backends, bcase{"float64", b64, 1e-9})
	}
	ctx := context.Background()
	for _, d := range []int{1, 2, 3, 5, 8} {
		for _, c := range []struct {
			name  string
			tau   float64
			degen bool
			eps   float64
		}{
			{"wellcond", 1, false, 0.1},
			{"near-degenerate", 0.3, true, 1e-3},
		} {
			n := 1000
			if d == 1 {
				n = 200
			}
			e := simEmbedding(n, d, c.tau, c.degen, c.eps, uint64(100*d+len(c.name)))
			item := 17
			for _, by := range []engine.Similarity{engine.ByW2, engine.ByDot, engine.ByCosine, engine.ByMixture} {
				for _, rho := range []float64{1, 0.5} {
					want, err := engine.SimilarityScores(ctx, e, item, engine.NeighborOptions{By: by, Rho: rho})
					if err != nil {
						t.Fatal(err)
					}
					for _, bc := range backends {
						name := fmt.Sprintf("%s/d=%d/%s/%s/rho=%g", bc.name, d, c.name, by, rho)
						got, err := bc.b.SimilarityScores(ctx, e, item, by, rho)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if len(got) != n {
							t.Fatalf("%s: %d scores, want %d", name, len(got), n)
						}
						if got[item] != want[item] {
							t.Errorf("%s: self score %v, CPU %v", name, got[item], want[item])
						}
						var worst float64
						worstJ := -1
						for j := range want {
							den := math.Max(math.Abs(want[j]), termScale(e, item, j, by, rho))
							err := math.Abs(got[j] - want[j])
							if den > 0 {
								err /= den
							}
							if !(err <= worst) {
								worst, worstJ = err, j
							}
						}
						t.Logf("%s: worst relative error %.2g", name, worst)
						if !(worst <= bc.tol) {
							t.Errorf("%s: relative error %.3g at j=%d (GL %v, CPU %v), want <= %g", name, worst, worstJ, got[worstJ], want[worstJ], bc.tol)
						}
					}
				}
			}
		}
	}
}

// TestSimilarityScoresManyDispatches covers a cancellable context (one
// dispatch per similarityStep measures, offsets through the uniform base)
// and a non-cancellable one on more measures than one step.
func TestSimilarityScoresManyDispatches(t *testing.T) {
	b := newBackend(t, Options{})
	n := 2*similarityStep + 123
	e := simEmbedding(n, 2, 1, false, 0.1, 5)
	want, err := engine.SimilarityScores(context.Background(), e, 3, engine.NeighborOptions{By: engine.ByCosine, Rho: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for name, c := range map[string]context.Context{"background": context.Background(), "cancellable": ctx} {
		got, err := b.SimilarityScores(c, e, 3, engine.ByCosine, 0.5)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for j := range want {
			if rel := math.Abs(got[j]-want[j]) / math.Max(math.Abs(want[j]), termScale(e, 3, j, engine.ByCosine, 0.5)); !(rel <= 1e-5) {
				t.Fatalf("%s: j=%d: GL %v, CPU %v", name, j, got[j], want[j])
			}
		}
	}
}

// TestSimilarityScoresRanking checks that RankScores of the GL scores gives
// engine.NearestNeighbors' top 10 on a case whose top-11 CPU scores are
// separated by far more than the float32 error.
func TestSimilarityScoresRanking(t *testing.T) {
	b := newBackend(t, Options{})
	ctx := context.Background()
	for _, d := range []int{2, 3, 8} {
		e := simEmbedding(400, d, 1, false, 0.1, uint64(d))
		for _, by := range []engine.Similarity{engine.ByW2, engine.ByDot, engine.ByCosine, engine.ByMixture} {
			want, err := engine.NearestNeighbors(ctx, e, 0, engine.NeighborOptions{By: by, K: 11, Rho: 1})
			if err != nil {
				t.Fatal(err)
			}
			for r := 1; r < len(want); r++ {
				if gap := math.Abs(want[r].Score - want[r-1].Score); !(gap > 1e-4*math.Abs(want[r].Score)) {
					t.Fatalf("d=%d %s: test case not well separated at rank %d (%v, %v)", d, by, r, want[r-1].Score, want[r].Score)
				}
			}
			scores, err := b.SimilarityScores(ctx, e, 0, by, 1)
			if err != nil {
				t.Fatal(err)
			}
			got := RankScores(scores, 0, 10, by.Ascending())
			for r := range got {
				if got[r].Index != want[r].Index {
					t.Errorf("d=%d %s: rank %d is %d, engine.NearestNeighbors has %d", d, by, r+1, got[r].Index, want[r].Index)
				}
			}
		}
	}
}

// TestRankScores checks ties (by index), NaN last, the excluded item and
// both directions on hand-made scores.
func TestRankScores(t *testing.T) {
	nan := math.NaN()
	scores := []float64{3, 1, nan, 1, 2, 5}
	for _, c := range []struct {
		asc  bool
		item int
		k    int
		want []int
	}{
		{true, 0, 10, []int{1, 3, 4, 5, 2}},
		{false, 0, 10, []int{5, 4, 1, 3, 2}},
		{false, -1, 3, []int{5, 0, 4}},
		{true, 3, 2, []int{1, 4}},
	} {
		got := RankScores(scores, c.item, c.k, c.asc)
		if len(got) != len(c.want) {
			t.Fatalf("%+v: got %v", c, got)
		}
		for r := range got {
			if got[r].Index != c.want[r] {
				t.Errorf("%+v: rank %d is %d, want %d", c, r, got[r].Index, c.want[r])
			}
		}
	}
}

// TestSimilarityScoresErrors: d = 9 wraps ErrUnsupported, a cancelled or
// expired context returns its error, bad arguments are errors.
func TestSimilarityScoresErrors(t *testing.T) {
	b := newBackend(t, Options{})
	ctx := context.Background()
	if _, err := b.SimilarityScores(ctx, simEmbedding(5, 9, 1, false, 0.1, 1), 0, engine.ByW2, 1); !errors.Is(err, ErrUnsupported) {
		t.Errorf("d=9: error %v, want one wrapping ErrUnsupported", err)
	}
	e := simEmbedding(50, 3, 1, false, 0.1, 2)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.SimilarityScores(cancelled, e, 0, engine.ByW2, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v, want context.Canceled", err)
	}
	expired, cancel2 := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel2()
	if _, err := b.SimilarityScores(expired, e, 0, engine.ByW2, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("expired context: error %v, want context.DeadlineExceeded", err)
	}
	for name, f := range map[string]func() error{
		"item -1": func() error { _, err := b.SimilarityScores(ctx, e, -1, engine.ByW2, 1); return err },
		"item n":  func() error { _, err := b.SimilarityScores(ctx, e, 50, engine.ByW2, 1); return err },
		"bad by":  func() error { _, err := b.SimilarityScores(ctx, e, 0, "l1", 1); return err },
		"rho < 0": func() error { _, err := b.SimilarityScores(ctx, e, 0, engine.ByCosine, -1); return err },
		"rho NaN": func() error { _, err := b.SimilarityScores(ctx, e, 0, engine.ByCosine, math.NaN()); return err },
		"nil":     func() error { _, err := b.SimilarityScores(ctx, nil, 0, engine.ByW2, 1); return err },
		"short": func() error {
			_, err := b.SimilarityScores(ctx, &engine.Embedding{Dim: 3, Labels: []string{"a"}}, 0, engine.ByW2, 1)
			return err
		},
	} {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// BenchmarkSimilarityScores times the scores of one item against n =
// 100,000 measures (d = 2 and d = 8; the paper's word embeddings' d = 12 is above MaxDim)
// on the GL backend (float32 buffers, transfers included) and with
// engine.SimilarityScores on the same data.
func BenchmarkSimilarityScores(b *testing.B) {
	const n = 100000
	for _, d := range []int{2, 8} {
		e := simEmbedding(n, d, 1, false, 0.1, 9)
		for _, which := range []string{"cpu", "gl"} {
			for _, by := range []engine.Similarity{engine.ByW2, engine.ByCosine} {
				b.Run(fmt.Sprintf("n=%d/d=%d/%s/%s", n, d, by, which), func(b *testing.B) {
					ctx := context.Background()
					var gl *Backend
					if which == "gl" {
						gl = newBackend(b, Options{})
						if _, err := gl.SimilarityScores(ctx, e, 0, by, 1); err != nil { // compile the kernel
							b.Fatal(err)
						}
					}
					b.ResetTimer()
					for b.Loop() {
						var err error
						if gl != nil {
							_, err = gl.SimilarityScores(ctx, e, 0, by, 1)
						} else {
							_, err = engine.SimilarityScores(ctx, e, 0, engine.NeighborOptions{By: by, Rho: 1})
						}
						if err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
