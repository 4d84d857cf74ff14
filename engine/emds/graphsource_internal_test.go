package emds

import (
	"burescope/engine"
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// floydWarshall returns the n x n shortest-path lengths of an undirected
// graph (Inf where unreachable), independently of the BFS code.
func floydWarshall(n int, edges [][2]int) []float64 {
	d := make([]float64, n*n)
	for i := range d {
		d[i] = math.Inf(1)
	}
	for i := 0; i < n; i++ {
		d[i*n+i] = 0
	}
	for _, e := range edges {
		if e[0] != e[1] {
			d[e[0]*n+e[1]], d[e[1]*n+e[0]] = 1, 1
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if v := d[i*n+k] + d[k*n+j]; v < d[i*n+j] {
					d[i*n+j] = v
				}
			}
		}
	}
	return d
}

// randomTreeGraph is a random tree on n nodes plus extra random edges.
func randomTreeGraph(n, extra int, seed uint64) [][2]int {
	rng := rand.New(rand.NewPCG(seed, 3))
	var edges [][2]int
	for i := 1; i < n; i++ {
		edges = append(edges, [2]int{i, rng.IntN(i)})
	}
	for k := 0; k < extra; k++ {
		edges = append(edges, [2]int{rng.IntN(n), rng.IntN(n)})
	}
	return edges
}

// Every epoch's pairs: exact shortest-path distances (Floyd-Warshall);
// each graph edge once with weight 1; each other pair once if one end is
// a pivot, never otherwise, with weight 1 / P(pair drawn), the probability
// counted here by enumerating every pivot set.
func TestGraphSamplerPairsAndWeights(t *testing.T) {
	const n, P = 9, 3
	edges := randomTreeGraph(n, 3, 1)
	g, err := NewGraphSource(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	fw := floydWarshall(n, edges)
	// Probability that a pair has a pivot end: count the P-subsets of the
	// n nodes that contain node 0 or node 1.
	hit, total := 0, 0
	for mask := 0; mask < 1<<n; mask++ {
		bits := 0
		for v := 0; v < n; v++ {
			bits += mask >> v & 1
		}
		if bits != P {
			continue
		}
		total++
		if mask&3 != 0 {
			hit++
		}
	}
	wantW := float64(total) / float64(hit)
	s := g.sampler(P, 7)
	ps := &PairSet{}
	for e := 0; e < 5; e++ {
		s.epoch(e, ps, nil)
		piv := map[int]bool{}
		for _, v := range s.pivots(e) {
			piv[int(v)] = true
		}
		seen := map[[2]int]float64{}
		for q := 0; q < ps.Len(); q++ {
			i, j := int(ps.I[q]), int(ps.J[q])
			key := [2]int{min(i, j), max(i, j)}
			if _, dup := seen[key]; dup || i == j {
				t.Fatalf("epoch %d: pair %v twice or a self-pair", e, key)
			}
			seen[key] = ps.W[q]
			if ps.D[q] != fw[i*n+j] {
				t.Errorf("epoch %d: pair %v distance %v, Floyd-Warshall %v", e, key, ps.D[q], fw[i*n+j])
			}
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				w, in := seen[[2]int{i, j}]
				switch {
				case fw[i*n+j] == 1:
					if !in || w != 1 {
						t.Errorf("epoch %d: edge (%d, %d) weight %v in %v, want 1", e, i, j, w, in)
					}
				case piv[i] || piv[j]:
					if !in || !(math.Abs(w-wantW) <= 1e-12) {
						t.Errorf("epoch %d: pivot pair (%d, %d) weight %v in %v, want %v", e, i, j, w, in, wantW)
					}
				default:
					if in {
						t.Errorf("epoch %d: pair (%d, %d) with no pivot end drawn", e, i, j)
					}
				}
			}
		}
	}
	// Deterministic for a seed.
	a, b := &PairSet{}, &PairSet{}
	g.sampler(P, 9).epoch(3, a, nil)
	g.sampler(P, 9).epoch(3, b, nil)
	if a.Len() != b.Len() {
		t.Fatalf("same seed, %d and %d pairs", a.Len(), b.Len())
	}
	for q := range a.I {
		if a.I[q] != b.I[q] || a.J[q] != b.J[q] || a.W[q] != b.W[q] {
			t.Fatalf("same seed, pair %d differs", q)
		}
	}
}

// The sampled gradient on one epoch's pairs of a graph equals the exact
// path's (CPU backend, Floyd-Warshall distances) with the epoch's weights
// on those pairs and zero elsewhere.
func TestGraphEpochGradientMatchesExactRestricted(t *testing.T) {
	const n, d = 40, 2
	edges := randomTreeGraph(n, 10, 2)
	g, err := NewGraphSource(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	fw := floydWarshall(n, edges)
	ps := &PairSet{}
	g.sampler(4, 3).epoch(0, ps, nil)
	dist := make([]float64, n*(n-1)/2)
	weights := make([]float64, len(dist))
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dist[engine.PairIndex(n, i, j)] = fw[i*n+j]
		}
	}
	for q := range ps.I {
		i, j := int(ps.I[q]), int(ps.J[q])
		weights[engine.PairIndex(n, min(i, j), max(i, j))] = ps.W[q]
	}
	rng := rand.New(rand.NewPCG(5, 5))
	st := State{Means: make([]float64, n*d), Scales: make([]float64, n*d*d)}
	for k := range st.Means {
		st.Means[k] = 3 * rng.NormFloat64()
	}
	for i := 0; i < n; i++ {
		a, b, c := 0.3+rng.Float64(), 0.3*rng.NormFloat64(), 0.3+rng.Float64()
		// (a b; 0 c)(a 0; b c) is positive definite.
		st.Scales[i*4+0], st.Scales[i*4+1], st.Scales[i*4+2], st.Scales[i*4+3] = a*a+b*b, b*c, b*c, c*c
	}
	cpu := NewCPUBackend(2)
	if err := cpu.Load(&Problem{N: n, Dim: d, Tau: engine.Gaussian().Tau, Dist: dist, Weights: weights}); err != nil {
		t.Fatal(err)
	}
	want := Gradient{Means: make([]float64, n*d), Scales: make([]float64, n*d*d), PerPoint: make([]float64, n)}
	got := Gradient{Means: make([]float64, n*d), Scales: make([]float64, n*d*d), PerPoint: make([]float64, n)}
	ws, err := cpu.Evaluate(context.Background(), st, &want)
	if err != nil {
		t.Fatal(err)
	}
	pe, err := NewPairEvaluator(n, d, engine.Gaussian().Tau, 2)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := pe.Evaluate(context.Background(), st, ps, &got)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(a, b []float64) float64 {
		var m, s float64
		for k := range a {
			m = max(m, math.Abs(a[k]-b[k]))
			s = max(s, math.Abs(b[k]))
		}
		return m / s
	}
	const tol = 1e-10
	if e := math.Abs(gs-ws) / ws; !(e <= tol) {
		t.Errorf("stress %v, exact restricted %v", gs, ws)
	}
	if e := rel(got.Means, want.Means); !(e <= tol) {
		t.Errorf("mean gradient rel err %.3g", e)
	}
	if e := rel(got.Scales, want.Scales); !(e <= tol) {
		t.Errorf("scale gradient rel err %.3g", e)
	}
}

// A sampled fit of a graph is the same, bit for bit, for a seed whatever
// the thread count, and differs for another seed.
func TestFitSampledGraphDeterministic(t *testing.T) {
	const n = 150
	g, err := NewGraphSource(n, randomTreeGraph(n, 20, 4))
	if err != nil {
		t.Fatal(err)
	}
	fit := func(threads int, seed int64) []float64 {
		opt := DefaultSampledOptions()
		opt.K, opt.Epochs, opt.Random, opt.Threads, opt.Seed = 0, 15, 5, threads, seed
		res, err := FitSampled(context.Background(), g, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		return append(res.Snapshot.Means, res.Snapshot.Scales...)
	}
	a, b, c := fit(1, 1), fit(3, 1), fit(2, 2)
	same := func(x, y []float64) bool {
		for k := range x {
			if x[k] != y[k] {
				return false
			}
		}
		return len(x) == len(y)
	}
	if !same(a, b) {
		t.Errorf("1 and 3 threads give different fits")
	}
	if same(a, c) {
		t.Errorf("seeds 1 and 2 give the same fit")
	}
}
