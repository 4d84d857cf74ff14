package hypernymy

import (
	"burescope/engine"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"testing"
)

// hypBruteUndirected is the authors' evaluation (wordnet_evaluation.py)
// written out: for every item u that is a child in some pair (u != v),
// the positives are its ancestors and descendants, every other item
// (u included) is a negative, rank = 1 + #{negatives scoring above},
// AP = mean_i i / (sorted rank_i + i - 1).
func hypBruteUndirected(n int, pairs [][2]int, score func(u, w int) float64) (meanRank, mapScore float64) {
	pos := make([]map[int]bool, n)
	child := map[int]bool{}
	for u := range pos {
		pos[u] = map[int]bool{}
	}
	for _, p := range pairs {
		if p[0] == p[1] {
			continue
		}
		pos[p[0]][p[1]] = true
		pos[p[1]][p[0]] = true
		child[p[0]] = true
	}
	var ranks []float64
	var aps []float64
	for u := 0; u < n; u++ {
		if !child[u] {
			continue
		}
		var rs []int
		for v := range pos[u] {
			r := 1
			for w := 0; w < n; w++ {
				if !pos[u][w] && score(u, w) > score(u, v) {
					r++
				}
			}
			rs = append(rs, r)
			ranks = append(ranks, float64(r))
		}
		sort.Ints(rs)
		var ap float64
		for i, r := range rs {
			ap += float64(i+1) / float64(r+i)
		}
		aps = append(aps, ap/float64(len(rs)))
	}
	for _, r := range ranks {
		meanRank += r
	}
	for _, a := range aps {
		mapScore += a
	}
	return meanRank / float64(len(ranks)), mapScore / float64(len(aps))
}

// TestEvaluateUndirectedBruteForce compares EvaluateProtocol(Undirected)
// with the authors' evaluation on random DAG relations and scores (with
// ties and self pairs in the input, which that protocol ignores).
func TestEvaluateUndirectedBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		levels  int
		workers int
	}{
		{"continuous", 30, 0, 1},
		{"ties", 35, 3, 2},
		{"small", 4, 0, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.n), 7))
			n := tc.n
			s := make([]float64, n*n)
			for i := range s {
				if tc.levels > 0 {
					s[i] = float64(rng.IntN(tc.levels))
				} else {
					s[i] = rng.NormFloat64()
				}
			}
			var pairs [][2]int
			for u := 1; u < n; u++ {
				for v := 0; v < u; v++ {
					if rng.Float64() < 0.2 {
						pairs = append(pairs, [2]int{u, v})
					}
				}
			}
			pairs = append(pairs, [2]int{1, 0}, [2]int{2, 2})
			rows := func() func(int, []float64) {
				return func(u int, out []float64) { copy(out, s[u*n:(u+1)*n]) }
			}
			got, err := EvaluateProtocol(context.Background(), n, pairs, rows, tc.workers, Undirected)
			if err != nil {
				t.Fatal(err)
			}
			wr, wm := hypBruteUndirected(n, pairs, func(u, w int) float64 { return s[u*n+w] })
			if !(math.Abs(got.MeanRank-wr) <= 1e-12*wr) || !(math.Abs(got.MAP-wm) <= 1e-12) {
				t.Errorf("mean rank %v, MAP %v; authors' protocol %v, %v", got.MeanRank, got.MAP, wr, wm)
			}
		})
	}
	if _, err := EvaluateProtocol(context.Background(), 3, [][2]int{{1, 0}}, nil, 1, "sideways"); err == nil {
		t.Error("unknown protocol accepted")
	}
}

// TestUndirectedNegatives checks the Undirected sampler: negatives are
// never ancestors or descendants of u (u itself is allowed without the
// self pairs, never with them), and their
// frequencies follow the degrees (a star: the hub has degree n-1, each
// leaf 1; for a pair of leaves (a, b) under a chain, see below).
func TestUndirectedNegatives(t *testing.T) {
	// Item 0 is the root of a star over 1..m; item m+1 hangs under 1 only.
	const m = 20
	n := m + 2
	var pairs [][2]int
	for v := 1; v <= m; v++ {
		pairs = append(pairs, [2]int{v, 0})
	}
	pairs = append(pairs, [2]int{m + 1, 1}, [2]int{m + 1, 0})
	const k = 200
	// The authors' sampler as published (no self pairs): u may be drawn.
	tr, err := NewTrainer(n, pairs, Config{Dim: 2, Negatives: k, BatchSize: 10000, Seed: 4, Protocol: Undirected, NoSelfPairs: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.pos) != 2*len(pairs) {
		t.Fatalf("%d training relations, want each pair and its reverse: %d", len(tr.pos), 2*len(pairs))
	}
	batch := make([]int, len(tr.pos))
	for i := range batch {
		batch[i] = i
	}
	count := make([]int, n)
	total := 0
	for rep := 0; rep < 20; rep++ {
		tr.sampleNegatives(batch)
		for b, pi := range batch {
			u := tr.pos[pi][0]
			for _, w := range tr.negs[b*k : (b+1)*k] {
				if w < 0 {
					if u != 0 { // 0 is related to everything
						t.Fatalf("item %d got no negative", u)
					}
					continue
				}
				if tr.graph.has(u, int(w)) {
					t.Fatalf("negative %d of %d is an ancestor or descendant", w, u)
				}
				if u == 2 {
					count[w]++
					total++
				}
			}
		}
	}
	// For u = 2 (neighbour: 0 only) the candidates are every item but 0,
	// with degrees: item 1 has 2 (0 and m+1), items 2..m have 1, item m+1
	// has 2. Expected frequency of w: deg(w) / (sum of those degrees).
	sum := 2 + (m - 1) + 2
	for w := 1; w < n; w++ {
		deg := 1.0
		if w == 1 || w == m+1 {
			deg = 2
		}
		want := deg / float64(sum)
		got := float64(count[w]) / float64(total)
		if !(math.Abs(got-want) <= 5*math.Sqrt(want*(1-want)/float64(total))) {
			t.Errorf("negative %d drawn with frequency %.4f, want %.4f (degree %v)", w, got, want, deg)
		}
	}
	if count[2] == 0 {
		t.Error("u was never drawn as its own negative")
	}

	// With the self pairs (the default): (u, u) is a training relation
	// and u is never its own negative.
	tr, err = NewTrainer(n, pairs, Config{Dim: 2, Negatives: k, BatchSize: 10000, Seed: 4, Protocol: Undirected})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.pos) != 2*len(pairs)+n {
		t.Fatalf("%d training relations, want each pair, its reverse and the %d self pairs: %d", len(tr.pos), n, 2*len(pairs)+n)
	}
	batch = batch[:0]
	for i := range tr.pos {
		batch = append(batch, i)
	}
	for rep := 0; rep < 5; rep++ {
		tr.sampleNegatives(batch)
		for b, pi := range batch {
			u := tr.pos[pi][0]
			for _, w := range tr.negs[b*k : (b+1)*k] {
				if int(w) == u || (w >= 0 && tr.graph.has(u, int(w))) {
					t.Fatalf("negative %d of %d: u itself or a relation", w, u)
				}
			}
		}
	}
}

// TestUndirectedTrainsAndReproduces trains the tiny tree under the
// Undirected protocol: the loss falls (perfect reconstruction is not
// possible under that protocol's ranking, where u is its own candidate:
// [u:v] <= sqrt([u:u][v:v]), so of two related items at least one ranks
// itself above the other), and the run is the same for 1 and 3 workers.
func TestUndirectedTrainsAndReproduces(t *testing.T) {
	n, pairs := hypTinyTree()
	run := func(workers int) *Progress {
		tr, err := NewTrainer(n, pairs, Config{Dim: 3, Negatives: 5, BatchSize: 8, LR: 0.05, Seed: 2,
			Workers: workers, Protocol: Undirected, Epochs: 100, EvalEvery: -1})
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Run(context.Background(), 0, nil); err != nil {
			t.Fatal(err)
		}
		return tr.Latest()
	}
	a, b := run(1), run(3)
	if !(a.Losses[len(a.Losses)-1] < 0.8*a.Losses[0]) {
		t.Errorf("loss went from %v to %v", a.Losses[0], a.Losses[len(a.Losses)-1])
	}
	if math.IsNaN(a.UndirMAP) || math.IsNaN(a.MAP) {
		t.Errorf("scores not evaluated: %+v", a)
	}
	for i := range a.Means {
		if a.Means[i] != b.Means[i] {
			t.Fatalf("1 and 3 workers differ at mean entry %d", i)
		}
	}
}

// TestEpochProgressAndCancel watches EpochProgress from another goroutine
// during an epoch, cancels once it moved, and checks that Step stopped
// inside the epoch with ctx's error and that the trainer goes on from
// there.
func TestEpochProgressAndCancel(t *testing.T) {
	const n = 1182
	tr, err := NewTrainer(n, hypBenchTree(n), Config{Dim: 2, Negatives: 5, BatchSize: 50, Seed: 1, Epochs: 3, NoEval: true})
	if err != nil {
		t.Fatal(err)
	}
	if done, total := tr.EpochProgress(); done != 0 || total != len(tr.Relations()) {
		t.Fatalf("before training: %d of %d", done, total)
	}
	ctx, cancel := context.WithCancel(context.Background())
	seen := make(chan int)
	go func() {
		for {
			if done, _ := tr.EpochProgress(); done > 0 {
				cancel()
				seen <- done
				return
			}
			runtime.Gosched()
		}
	}()
	_, err = tr.Step(ctx, 1)
	done := <-seen
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Step returned %v, want context.Canceled", err)
	}
	now, total := tr.EpochProgress()
	if tr.Epoch() != 0 || now < done || now >= total {
		t.Fatalf("after cancel: epoch %d, %d of %d relations (seen %d)", tr.Epoch(), now, total, done)
	}
	if _, err := tr.Step(context.Background(), 1); err != nil || tr.Epoch() != 1 {
		t.Fatalf("resumed: epoch %d, %v", tr.Epoch(), err)
	}
}

// TestHypTridiagDegenerate checks the tred2/tql2 eigensolver on the
// matrices where QL iterations are delicate: multiples of the identity,
// diagonal, zero, rank one, and eigenvalues spread over 12 orders of
// magnitude: eigenvalues against gonum (engine.EigenvaluesPSD), V diag V^T
// = M and V^T V = I.
func TestHypTridiagDegenerate(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, d := range []int{5, 10} {
		x := make([]float64, d)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		spread := make([]float64, d*d)
		q := engine.MatMul(hypRandFactor(rng, d, 1), identity(d), d, d, d)
		for k := 0; k < d; k++ {
			w := math.Pow(10, -12+12*float64(k)/float64(d-1))
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					spread[i*d+j] += w * q[i*d+k] * q[j*d+k]
				}
			}
		}
		cases := map[string][]float64{
			"3I":       engine.FactorProduct(identity(d), d, d, 2),
			"diagonal": make([]float64, d*d),
			"zero":     make([]float64, d*d),
			"rank one": engine.FactorProduct(x, d, 1, 0),
			"spread":   spread,
		}
		for i := 0; i < d; i++ {
			cases["diagonal"][i*d+i] = float64(i%3) + 0.5
		}
		for name, m0 := range cases {
			t.Run(fmt.Sprintf("d=%d/%s", d, name), func(t *testing.T) {
				m, v, lam := append([]float64(nil), m0...), make([]float64, d*d), make([]float64, d)
				newHypEig(d).vectors(m, v, lam)
				want := engine.EigenvaluesPSD(m0, d)
				got := append([]float64(nil), lam...)
				sort.Float64s(got)
				scale := 1 + math.Abs(want[d-1])
				for i := range got {
					if !(math.Abs(got[i]-want[i]) <= 1e-12*scale) {
						t.Errorf("eigenvalue %d = %v, want %v", i, got[i], want[i])
					}
				}
				rec := make([]float64, d*d)
				hypSpectral(rec, v, lam, d)
				if e := engine.FrobDist(rec, m0); !(e <= 1e-12*scale) {
					t.Errorf("V diag V^T differs from M by %g", e)
				}
				if e := engine.FrobDist(engine.MatMul(engine.Transpose(v, d, d), v, d, d, d), identity(d)); !(e <= 1e-12) {
					t.Errorf("V^T V differs from I by %g", e)
				}
			})
		}
	}
}
