package emds

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// GraphSource is an undirected, unweighted, connected graph whose target
// distances are shortest-path lengths (number of edges), kept as a sparse
// adjacency (compressed rows): memory O(n + edges), never n^2. The
// sampled fit (FitSampled) draws its pairs by breadth-first searches from
// random pivots (docs/scale.md, "Relation graphs").
type GraphSource struct {
	n     int
	start []int32 // n+1 row starts into adj
	adj   []int32 // sorted neighbours of each node
}

// NewGraphSource builds the graph of n nodes with the given undirected
// edges (node indices in 0..n-1; self-loops and repeated edges are
// dropped). A disconnected graph is an error, as on the exact path: two
// nodes with no path between them have no finite target distance.
func NewGraphSource(n int, edges [][2]int) (*GraphSource, error) {
	if n < 2 {
		return nil, fmt.Errorf("engine: a graph of %d nodes (want at least 2)", n)
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("engine: a graph of %d nodes is too large", n)
	}
	cnt := make([]int32, n+1)
	for k, e := range edges {
		u, v := e[0], e[1]
		if u < 0 || u >= n || v < 0 || v >= n {
			return nil, fmt.Errorf("engine: edge %d (%d, %d) names a node outside 0..%d", k, u, v, n-1)
		}
		if u == v {
			continue
		}
		cnt[u+1]++
		cnt[v+1]++
	}
	for i := 0; i < n; i++ {
		cnt[i+1] += cnt[i]
	}
	adj := make([]int32, cnt[n])
	fill := slices.Clone(cnt[:n])
	for _, e := range edges {
		u, v := e[0], e[1]
		if u == v {
			continue
		}
		adj[fill[u]] = int32(v)
		fill[u]++
		adj[fill[v]] = int32(u)
		fill[v]++
	}
	// Sort and drop repeated edges, compacting the rows.
	start := make([]int32, n+1)
	w := int32(0)
	for i := 0; i < n; i++ {
		row := adj[cnt[i]:cnt[i+1]]
		slices.Sort(row)
		row = slices.Compact(row)
		start[i] = w
		w += int32(copy(adj[w:], row))
	}
	start[n] = w
	g := &GraphSource{n: n, start: start, adj: adj[:w:w]}
	depth := make([]int32, n)
	queue := make([]int32, 0, n)
	if reached := g.bfs(0, depth, queue); reached < n {
		for v := 0; v < n; v++ {
			if depth[v] < 0 {
				return nil, fmt.Errorf("engine: the graph is not connected: no path links node 0 and node %d", v)
			}
		}
	}
	return g, nil
}

// Len is the number of nodes.
func (g *GraphSource) Len() int { return g.n }

// Edges is the number of distinct undirected edges.
func (g *GraphSource) Edges() int { return len(g.adj) / 2 }

// bfs fills depth with the number of edges from s to every node (-1 where
// unreachable) and returns the number of nodes reached. queue must have
// capacity n.
func (g *GraphSource) bfs(s int, depth []int32, queue []int32) int {
	for i := range depth {
		depth[i] = -1
	}
	depth[s] = 0
	queue = append(queue[:0], int32(s))
	for k := 0; k < len(queue); k++ {
		u := queue[k]
		du := depth[u] + 1
		for _, v := range g.adj[g.start[u]:g.start[u+1]] {
			if depth[v] < 0 {
				depth[v] = du
				queue = append(queue, v)
			}
		}
	}
	return len(queue)
}

// Dist is the shortest-path length between i and j, by a breadth-first
// search from i (O(n + edges) per call: the sampled fit does not call it,
// it reads whole searches from pivots instead).
func (g *GraphSource) Dist(i, j int) float64 {
	if i == j {
		return 0
	}
	depth := make([]int32, g.n)
	g.bfs(i, depth, make([]int32, 0, g.n))
	return float64(depth[j])
}

// BFS returns the shortest-path lengths from s to every node.
func (g *GraphSource) BFS(s int) []float64 {
	depth := make([]int32, g.n)
	g.bfs(s, depth, make([]int32, 0, g.n))
	out := make([]float64, g.n)
	for i, v := range depth {
		out[i] = float64(v)
	}
	return out
}

// epochSampler draws the pairs of one epoch of a sampled fit.
// ownSampler is a PairSource that draws its own pair samples instead of
// the generic neighbour and random strata: a relation graph, whose edges
// are the neighbour stratum and whose evaluation pairs come in blocks of
// one breadth-first search each (a clustered standard error).
type ownSampler interface {
	// evalSample returns up to m evaluation pairs and their block ends
	// (nil: independent pairs).
	evalSample(m int, seed uint64) (*PairSet, []int)
	// epochSampler returns the sampler of the epochs, with random
	// partners (for a graph, breadth-first search pivots) per epoch.
	epochSampler(random int, seed uint64) epochSampler
}

func (g *GraphSource) evalSample(m int, seed uint64) (*PairSet, []int) {
	return g.graphEvalSample(m, seed)
}

func (g *GraphSource) epochSampler(random int, seed uint64) epochSampler {
	return g.sampler(random, seed)
}

type epochSampler interface {
	epoch(e int, ps *PairSet, parts []PairSet)
	neighborPairs() int
}

// graphSampler is the sampling scheme of a GraphSource: a fixed stratum of
// all graph edges (distance 1, weight 1) and, each epoch, P pivots drawn
// uniformly without replacement whose breadth-first searches give every
// pair with at least one pivot end (each such pair once), except the
// edges. A pair is in that set with probability
// pi = 1 - (n-P)(n-P-1) / (n(n-1)), the same for every pair, so weight
// 1/pi makes every non-edge pair's expected weight 1: the epoch's weighted
// stress and gradient are unbiased estimates of the full ones.
type graphSampler struct {
	g    *GraphSource
	p    int
	w    float64
	seed uint64
	nbr  PairSet
	// per-worker breadth-first search buffers
	depth, queue [][]int32
	rank         []int32 // pivot rank of each node in this epoch, -1 if none
	parts        []PairSet
}

func (g *GraphSource) sampler(pivots int, seed uint64) *graphSampler {
	n := g.n
	p := min(pivots, n)
	s := &graphSampler{g: g, p: p, seed: seed, rank: make([]int32, n)}
	s.w = 1 / (1 - float64(n-p)*float64(n-p-1)/(float64(n)*float64(n-1)))
	for u := 0; u < n; u++ {
		for _, v := range g.adj[g.start[u]:g.start[u+1]] {
			if int(v) > u {
				s.nbr.add(u, int(v), 1, 1)
			}
		}
	}
	workers := runtime.GOMAXPROCS(0)
	s.depth = make([][]int32, workers)
	s.queue = make([][]int32, workers)
	for k := range s.depth {
		s.depth[k] = make([]int32, n)
		s.queue[k] = make([]int32, 0, n)
	}
	s.parts = make([]PairSet, p)
	return s
}

func (s *graphSampler) neighborPairs() int { return s.nbr.Len() }

// pivots draws the P pivots of epoch e (a partial Fisher-Yates shuffle).
func (s *graphSampler) pivots(e int) []int32 {
	n := s.g.n
	rng := rand.New(rand.NewPCG(s.seed^0x7069766f7473, uint64(e)))
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	for k := 0; k < s.p; k++ {
		r := k + rng.IntN(n-k)
		perm[k], perm[r] = perm[r], perm[k]
	}
	return perm[:s.p]
}

func (s *graphSampler) epoch(e int, ps *PairSet, _ []PairSet) {
	piv := s.pivots(e)
	for i := range s.rank {
		s.rank[i] = -1
	}
	for k, v := range piv {
		s.rank[v] = int32(k)
	}
	var wg sync.WaitGroup
	next := make(chan int, len(piv))
	for k := range piv {
		next <- k
	}
	close(next)
	for wk := range s.depth {
		wg.Add(1)
		go func() {
			defer wg.Done()
			depth, queue := s.depth[wk], s.queue[wk]
			for k := range next {
				p := int(piv[k])
				part := &s.parts[k]
				part.reset()
				s.g.bfs(p, depth, queue)
				for j, dj := range depth {
					// Skip the pivot itself, the edges (in the fixed
					// stratum) and pivot-pivot pairs kept by the other
					// pivot (the one of lower rank).
					if dj <= 1 || (s.rank[j] >= 0 && int(s.rank[j]) < k) {
						continue
					}
					part.add(p, j, float64(dj), s.w)
				}
			}
		}()
	}
	wg.Wait()
	ps.reset()
	ps.I = append(ps.I, s.nbr.I...)
	ps.J = append(ps.J, s.nbr.J...)
	ps.D = append(ps.D, s.nbr.D...)
	ps.W = append(ps.W, s.nbr.W...)
	for k := range s.parts {
		ps.I = append(ps.I, s.parts[k].I...)
		ps.J = append(ps.J, s.parts[k].J...)
		ps.D = append(ps.D, s.parts[k].D...)
		ps.W = append(ps.W, s.parts[k].W...)
	}
}

// graphEvalSample is the fixed evaluation sample of a GraphSource: every
// pair when there are at most m, else all pairs (s, j) from S sources s
// drawn without replacement, S = max(ceil(m/(n-1)), min(n, 32)), one
// breadth-first search each. It returns the pairs and the start of each
// source's block (the clusters of the standard error).
func (g *GraphSource) graphEvalSample(m int, seed uint64) (*PairSet, []int) {
	n := g.n
	ps := &PairSet{}
	depth := make([]int32, n)
	queue := make([]int32, 0, n)
	if n*(n-1)/2 <= m {
		for i := 0; i < n; i++ {
			g.bfs(i, depth, queue)
			for j := i + 1; j < n; j++ {
				ps.add(i, j, float64(depth[j]), 1)
			}
		}
		return ps, nil
	}
	S := max((m+n-2)/(n-1), min(n, 32))
	S = min(S, n)
	rng := rand.New(rand.NewPCG(seed^0x6576616c, 11))
	perm := rng.Perm(n)[:S]
	blocks := make([]int, 0, S+1)
	for _, s := range perm {
		blocks = append(blocks, ps.Len())
		g.bfs(s, depth, queue)
		for j := 0; j < n; j++ {
			if j != s {
				ps.add(s, j, float64(depth[j]), 1)
			}
		}
	}
	blocks = append(blocks, ps.Len())
	return ps, blocks
}

// clusterStress1 is ratioStress1 for a cluster sample: the pairs come in
// blocks (one per breadth-first search source), and the standard error
// uses the blocks' totals, which are independent draws.
func clusterStress1(a, b []float64, blocks []int) (s1, se float64) {
	var sa, sb float64
	for q := range a {
		sa += a[q]
		sb += b[q]
	}
	if !(sb > 0) {
		return 0, 0
	}
	r := sa / sb
	s1 = math.Sqrt(r)
	c := len(blocks) - 1
	if c < 2 || s1 == 0 {
		return s1, 0
	}
	var v float64
	for k := 0; k < c; k++ {
		var ta, tb float64
		for q := blocks[k]; q < blocks[k+1]; q++ {
			ta += a[q]
			tb += b[q]
		}
		z := ta - r*tb
		v += z * z
	}
	seR := math.Sqrt(v*float64(c)/float64(c-1)) / sb
	return s1, seR / (2 * s1)
}

// InitMeans proposes initial means by pivot MDS (Brandes & Pich): the
// double-centred squared distances from k = min(n, 50) evenly spread
// pivots (each a breadth-first search; the first is node 0, each next
// pivot the node farthest from those chosen) projected on the top d
// eigenvectors of their k x k Gram matrix, then scaled by least squares
// to the pivot distances. Memory O(n k).
func (g *GraphSource) InitMeans(d int) ([]float64, error) {
	n := g.n
	k := min(n, 50)
	if d > k {
		return nil, fmt.Errorf("engine: %d dimensions from %d pivots", d, k)
	}
	dist := make([]float64, n*k) // row-major n x k
	depth := make([]int32, n)
	queue := make([]int32, 0, n)
	near := make([]int32, n) // distance to the nearest chosen pivot
	for i := range near {
		near[i] = math.MaxInt32
	}
	p := 0
	for c := 0; c < k; c++ {
		g.bfs(p, depth, queue)
		next, far := 0, int32(-1)
		for i, v := range depth {
			dist[i*k+c] = float64(v) * float64(v)
			near[i] = min(near[i], v)
			if near[i] > far {
				next, far = i, near[i]
			}
		}
		p = next
	}
	// Double centring of the squared distances.
	rowMean := make([]float64, n)
	colMean := make([]float64, k)
	var all float64
	for i := 0; i < n; i++ {
		for c := 0; c < k; c++ {
			v := dist[i*k+c]
			rowMean[i] += v / float64(k)
			colMean[c] += v / float64(n)
			all += v / float64(n*k)
		}
	}
	cm := mat.NewDense(n, k, nil)
	for i := 0; i < n; i++ {
		for c := 0; c < k; c++ {
			cm.Set(i, c, -0.5*(dist[i*k+c]-rowMean[i]-colMean[c]+all))
		}
	}
	var gram mat.SymDense
	gram.SymOuterK(1, cm.T())
	var eig mat.EigenSym
	if !eig.Factorize(&gram, true) {
		return nil, fmt.Errorf("engine: pivot MDS eigendecomposition failed")
	}
	var vec mat.Dense
	eig.VectorsTo(&vec)
	// Eigenvalues ascend: the last d columns are the top ones.
	var proj mat.Dense
	proj.Mul(cm, vec.Slice(0, k, k-d, k))
	out := make([]float64, n*d)
	for i := 0; i < n; i++ {
		for a := 0; a < d; a++ {
			out[i*d+a] = proj.At(i, d-1-a)
		}
	}
	// Least-squares scale to the pivots' (unsquared) distances.
	var num, den float64
	for c := 0; c < k; c++ {
		// The pivot's own row is the node at distance 0 in column c.
		pc := -1
		for i := 0; i < n; i++ {
			if dist[i*k+c] == 0 {
				pc = i
				break
			}
		}
		for i := 0; i < n; i++ {
			var e2 float64
			for a := 0; a < d; a++ {
				v := out[i*d+a] - out[pc*d+a]
				e2 += v * v
			}
			e := math.Sqrt(e2)
			num += math.Sqrt(dist[i*k+c]) * e
			den += e * e
		}
	}
	if den > 0 {
		for q := range out {
			out[q] *= num / den
		}
	}
	return out, nil
}
