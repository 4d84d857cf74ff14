package datasets

import (
	"burescope/engine"
	"strings"
	"unicode"
)

// relationHeaderWords are the words of usual column names in a relations
// file (child, ancestor, from_node, id1, ...).
var relationHeaderWords = map[string]bool{
	"child": true, "children": true, "ancestor": true, "parent": true, "descendant": true,
	"hypernym": true, "hyponym": true, "source": true, "target": true, "src": true, "dst": true,
	"from": true, "to": true, "node": true, "node1": true, "node2": true, "id": true, "id1": true,
	"id2": true, "head": true, "tail": true, "subject": true, "object": true, "item": true,
	"word": true, "synset": true, "u": true, "v": true,
}

// parseRelations reads (child, ancestor) pairs, one per row in the first two
// columns (further columns are ignored), and turns them into shortest-path
// distances on the transitive reduction of the relation, taken as an
// undirected graph. See the package documentation. With noDist the
// distances are not computed (Dist is nil, PairSource gives them by
// breadth-first search), memory stays O(n + edges) and up to
// MaxFeatureRows items are read.
func parseRelations(t *table, noDist bool) (*Dataset, error) {
	file := t.file
	rows := t.rows
	for _, r := range rows {
		if len(r.cells) < 2 {
			return nil, lineErrf(file, r.line, "%d field, want 2 (child and ancestor)", len(r.cells))
		}
	}
	if isRelationHeader(rows) {
		rows = rows[1:]
	}
	index := make(map[string]int)
	var labels []string
	var firstLine []int
	node := func(name string, line, col int) (int, error) {
		if name == "" {
			return 0, cellErrf(file, line, col, "", "empty name")
		}
		if msg := labelControl(name); msg != "" {
			return 0, cellErrf(file, line, col, "", "name %s %s", quoteCell(name), msg)
		}
		if i, ok := index[name]; ok {
			return i, nil
		}
		if limit := maxRelationItems(noDist); len(labels) >= limit {
			return 0, lineErrf(file, line, "more than the %d items Burescope handles", limit)
		}
		index[name] = len(labels)
		labels = append(labels, name)
		firstLine = append(firstLine, line)
		return len(labels) - 1, nil
	}
	pairs := make([][2]int, 0, len(rows))
	lines := make([]int, 0, len(rows))
	for _, r := range rows {
		c, err := node(r.cells[0], r.line, 1)
		if err != nil {
			return nil, err
		}
		a, err := node(r.cells[1], r.line, 2)
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, [2]int{c, a})
		lines = append(lines, r.line)
	}
	n := len(labels)
	if n < 2 {
		return nil, errf(file, "the relations name %d distinct item(s); at least 2 are needed", n)
	}
	edges, err := hasse(file, n, pairs, lines, labels, noDist)
	if err != nil {
		return nil, err
	}
	if noDist {
		if err := connected(file, n, edges, labels, firstLine); err != nil {
			return nil, err
		}
		return &Dataset{Kind: KindRelations, Labels: labels, Relations: pairs, Edges: edges}, nil
	}
	dist, err := pathDistances(file, n, edges, labels, firstLine)
	if err != nil {
		return nil, err
	}
	return &Dataset{Kind: KindRelations, Labels: labels, Relations: pairs, Edges: edges, Dist: dist}, nil
}

// isRelationHeader reports whether the first row of a relations table is a
// header: both cells are made of usual column words (child, ancestor,
// from_node, ...) and neither occurs anywhere else in the first two
// columns. Anything else is data, so a file is never silently shortened.
func isRelationHeader(rows []row) bool {
	x, y := rows[0].cells[0], rows[0].cells[1]
	if !headerLike(x) || !headerLike(y) {
		return false
	}
	for _, r := range rows[1:] {
		for _, c := range r.cells[:2] {
			if c == x || c == y {
				return false
			}
		}
	}
	return true
}

// headerLike reports whether every word of s (split at anything but
// letters and digits) is a usual column word.
func headerLike(s string) bool {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		if !relationHeaderWords[w] {
			return false
		}
	}
	return true
}

// bitset is a fixed-size set of node indices.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) set(i int)      { b[i/64] |= 1 << (uint(i) % 64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(uint(i)%64)) != 0 }
func (b bitset) or(c bitset) {
	for k := range b {
		b[k] |= c[k]
	}
}

// hasse returns the transitive reduction of the directed relation
// child -> ancestor (self-pairs and repeated pairs dropped): the edges
// (u, v) such that v cannot be reached from u through another node. The
// relation must be acyclic; a cycle is an error naming one of its pairs.
// With sparse the reduction searches each node's ancestors depth first
// (memory O(n + pairs)) instead of keeping an n x n reachability bitset.
func hasse(file string, n int, pairs [][2]int, lines []int, labels []string, sparse bool) ([][2]int, error) {
	succ := make([][]int, n)
	seen := make(map[[2]int]bool, len(pairs))
	indeg := make([]int, n) // number of children pointing at a node
	for _, p := range pairs {
		if p[0] == p[1] || seen[p] {
			continue
		}
		seen[p] = true
		succ[p[0]] = append(succ[p[0]], p[1])
		indeg[p[1]]++
	}
	// Kahn's algorithm from the leaves (nodes nobody points at) upwards.
	order := make([]int, 0, n)
	for u := 0; u < n; u++ {
		if indeg[u] == 0 {
			order = append(order, u)
		}
	}
	for k := 0; k < len(order); k++ {
		for _, v := range succ[order[k]] {
			indeg[v]--
			if indeg[v] == 0 {
				order = append(order, v)
			}
		}
	}
	if len(order) < n {
		for k, p := range pairs {
			if p[0] != p[1] && indeg[p[0]] > 0 && indeg[p[1]] > 0 {
				return nil, lineErrf(file, lines[k], "the relations contain a cycle through %s and %s (an item is its own ancestor)", quoteCell(labels[p[0]]), quoteCell(labels[p[1]]))
			}
		}
		return nil, errf(file, "the relations contain a cycle")
	}
	if sparse {
		return hasseSparse(n, succ), nil
	}
	// reach[u] = every node strictly above u; ancestors come later in order.
	reach := make([]bitset, n)
	for k := n - 1; k >= 0; k-- {
		u := order[k]
		r := newBitset(n)
		for _, v := range succ[u] {
			r.set(v)
			r.or(reach[v])
		}
		reach[u] = r
	}
	var edges [][2]int
	above := newBitset(n)
	for u := 0; u < n; u++ {
		for k := range above {
			above[k] = 0
		}
		for _, w := range succ[u] {
			above.or(reach[w])
		}
		for _, v := range succ[u] {
			if !above.has(v) {
				edges = append(edges, [2]int{u, v})
			}
		}
	}
	return edges, nil
}

// pathDistances returns the packed shortest-path lengths (number of edges)
// between all nodes of the undirected graph with the given edges, by a
// breadth-first search from every node. A disconnected graph is an error.
func pathDistances(file string, n int, edges [][2]int, labels []string, firstLine []int) ([]float64, error) {
	adj := make([][]int, n)
	for _, e := range edges {
		adj[e[0]] = append(adj[e[0]], e[1])
		adj[e[1]] = append(adj[e[1]], e[0])
	}
	dist := make([]float64, n*(n-1)/2)
	depth := make([]int, n)
	queue := make([]int, 0, n)
	for s := 0; s < n; s++ {
		for i := range depth {
			depth[i] = -1
		}
		depth[s] = 0
		queue = append(queue[:0], s)
		for k := 0; k < len(queue); k++ {
			u := queue[k]
			for _, v := range adj[u] {
				if depth[v] < 0 {
					depth[v] = depth[u] + 1
					queue = append(queue, v)
				}
			}
		}
		if len(queue) < n {
			for v := 0; v < n; v++ {
				if depth[v] < 0 {
					return nil, errf(file, "the relation graph is not connected: no path links %s (line %d) and %s (line %d); Burescope needs one connected hierarchy (split the file into one file per component)",
						quoteCell(labels[s]), firstLine[s], quoteCell(labels[v]), firstLine[v])
				}
			}
		}
		for v := s + 1; v < n; v++ {
			dist[engine.PairIndex(n, s, v)] = float64(depth[v])
		}
	}
	return dist, nil
}

// maxRelationItems is the item limit of a relations file: MaxItems when
// the n^2 distances are built, MaxFeatureRows when they are not.
func maxRelationItems(noDist bool) int {
	if noDist {
		return MaxFeatureRows
	}
	return MaxItems
}

// hasseSparse is the transitive reduction of an acyclic relation given by
// its successor lists, in the order hasse gives it: edge (u, v) is kept
// unless v is reachable from another successor of u, found by a depth-first
// search from u's successors' successors (stamped, so memory is O(n)).
func hasseSparse(n int, succ [][]int) [][2]int {
	stamp := make([]int, n)
	for i := range stamp {
		stamp[i] = -1
	}
	var stack []int
	var edges [][2]int
	for u := 0; u < n; u++ {
		if len(succ[u]) > 1 {
			stack = stack[:0]
			for _, w := range succ[u] {
				for _, x := range succ[w] {
					if stamp[x] != u {
						stamp[x] = u
						stack = append(stack, x)
					}
				}
			}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, y := range succ[x] {
					if stamp[y] != u {
						stamp[y] = u
						stack = append(stack, y)
					}
				}
			}
		}
		for _, v := range succ[u] {
			if len(succ[u]) <= 1 || stamp[v] != u {
				edges = append(edges, [2]int{u, v})
			}
		}
	}
	return edges
}

// connected checks that the undirected graph with the given edges is
// connected, with the exact path's error (pathDistances) otherwise.
func connected(file string, n int, edges [][2]int, labels []string, firstLine []int) error {
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i)
	}
	var find func(int32) int32
	find = func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, e := range edges {
		a, b := find(int32(e[0])), find(int32(e[1]))
		if a != b {
			parent[a] = b
		}
	}
	r0 := find(0)
	for v := 1; v < n; v++ {
		if find(int32(v)) != r0 {
			return errf(file, "the relation graph is not connected: no path links %s (line %d) and %s (line %d); Burescope needs one connected hierarchy (split the file into one file per component)",
				quoteCell(labels[0]), firstLine[0], quoteCell(labels[v]), firstLine[v])
		}
	}
	return nil
}
