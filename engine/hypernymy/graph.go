package hypernymy

import (
	"fmt"
	"sort"
)

// hypGraph is a directed relation graph in compressed sparse rows: the
// sorted, distinct neighbours of u are adj[start[u]:start[u+1]].
type hypGraph struct {
	n     int
	start []int
	adj   []int32
	// selfCand makes u a candidate (a negative unless (u, u) is a
	// relation) when ranking u's row; otherwise u is left out.
	selfCand bool
	// queries, if not nil, limits the evaluation to the rows u with
	// queries[u] (and a neighbour).
	queries []bool
}

// isQuery reports whether row u is evaluated.
func (g *hypGraph) isQuery(u int) bool {
	return len(g.row(u)) > 0 && (g.queries == nil || g.queries[u])
}

// everyKth returns g restricted to the query rows of the items 0, k,
// 2k, ... (k >= 1; a shallow copy sharing the adjacency; g itself when
// k <= 1).
func (g *hypGraph) everyKth(k int) *hypGraph {
	if k <= 1 {
		return g
	}
	h := *g
	h.queries = make([]bool, g.n)
	for u := 0; u < g.n; u += k {
		h.queries[u] = g.queries == nil || g.queries[u]
	}
	return &h
}

// queryCount returns the number of rows an evaluation of g ranks.
func (g *hypGraph) queryCount() int {
	c := 0
	for u := 0; u < g.n; u++ {
		if g.isQuery(u) {
			c++
		}
	}
	return c
}

// undirectedGraph returns the graph of the authors' protocol built from
// the input graph in: u's neighbours are its ancestors and descendants
// (self pairs dropped), u is a candidate of its own row, and only the
// items with an ancestor are queries.
func undirectedGraph(in *hypGraph) (*hypGraph, error) {
	var pairs [][2]int
	queries := make([]bool, in.n)
	for u := 0; u < in.n; u++ {
		for _, v := range in.row(u) {
			if int(v) != u {
				pairs = append(pairs, [2]int{u, int(v)}, [2]int{int(v), u})
				queries[u] = true
			}
		}
	}
	g, err := newHypGraph(in.n, pairs, false)
	if err != nil {
		return nil, err
	}
	g.selfCand, g.queries = true, queries
	return g, nil
}

// newHypGraph builds the graph of the pairs (u, v), adding (u, u) for
// every u when self is true; duplicates are dropped. It checks the range.
func newHypGraph(n int, pairs [][2]int, self bool) (*hypGraph, error) {
	if n < 1 {
		return nil, fmt.Errorf("hypernymy: %d items", n)
	}
	deg := make([]int, n+1)
	for k, p := range pairs {
		if p[0] < 0 || p[0] >= n || p[1] < 0 || p[1] >= n {
			return nil, fmt.Errorf("hypernymy: relation %d (%d, %d) out of range 0..%d", k, p[0], p[1], n-1)
		}
		deg[p[0]+1]++
	}
	if self {
		for u := 0; u < n; u++ {
			deg[u+1]++
		}
	}
	for u := 0; u < n; u++ {
		deg[u+1] += deg[u]
	}
	adj := make([]int32, deg[n])
	fill := append([]int(nil), deg[:n]...)
	for _, p := range pairs {
		adj[fill[p[0]]] = int32(p[1])
		fill[p[0]]++
	}
	if self {
		for u := 0; u < n; u++ {
			adj[fill[u]] = int32(u)
			fill[u]++
		}
	}
	g := &hypGraph{n: n, start: make([]int, n+1), adj: adj[:0]}
	for u := 0; u < n; u++ {
		row := adj[deg[u]:deg[u+1]]
		sort.Slice(row, func(i, j int) bool { return row[i] < row[j] })
		for i, v := range row {
			if i == 0 || v != row[i-1] {
				g.adj = append(g.adj, v)
			}
		}
		g.start[u+1] = len(g.adj)
	}
	return g, nil
}

// row returns the sorted neighbours of u.
func (g *hypGraph) row(u int) []int32 { return g.adj[g.start[u]:g.start[u+1]] }

// has reports whether (u, v) is a relation.
func (g *hypGraph) has(u, v int) bool {
	r := g.row(u)
	i := sort.Search(len(r), func(i int) bool { return int(r[i]) >= v })
	return i < len(r) && int(r[i]) == v
}

// pairs returns the relations (u, v) in (u, v) order.
func (g *hypGraph) pairs() [][2]int {
	out := make([][2]int, 0, len(g.adj))
	for u := 0; u < g.n; u++ {
		for _, v := range g.row(u) {
			out = append(out, [2]int{u, int(v)})
		}
	}
	return out
}
