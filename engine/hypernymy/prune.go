package hypernymy

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"

	"burescope/engine"
)

// Pruned reconstruction evaluation for large n (the WordNet nouns: 82,115
// items, 6.7e9 scores). The rank of a positive v of u needs only the
// number of candidates w with s(u, w) > s(u, v), and the pseudo dot
// product has cheap lower and upper bounds (evaltree.go) that hold over
// whole nodes of a ball tree of the items. Per query u: the exact scores
// of its positives, sorted, p_1 <= ... <= p_m; then a walk down the tree
// where a node whose bounds [L, U] contain no p_j (L <= p_j < U) adds
// all its candidates to the count of the positives below L at once
// (nothing when that is none), other nodes are opened, and in the leaves
// the same test is made per item with the item's bounds; only the items
// whose interval still contains a positive score are scored exactly
// (eigenvalues of M), by the same function as the brute-force rows
// (rowScorer), so the counts, ties included (ties count in v's favour),
// are those of evaluateGraphs on the full score rows (tested).

// PruneStats counts the work of a pruned evaluation.
type PruneStats struct {
	Rows  int   // query rows evaluated
	Exact int64 // exact scores computed (positives included)
	Bound int64 // item bounds computed (in the leaves of the tree)
	// Nodes is the number of tree nodes whose bounds were computed.
	Nodes int64
	// Full is the number of node and item bounds tightened by the
	// Frobenius products of the S and A features.
	Full int64
	// EigenBound is the number of items given the tighter bound in the
	// query's eigenbasis (those the first bounds left ambiguous).
	EigenBound int64
	// Ambiguous is the number of exact scores of candidates (not
	// positives): those whose bounds could not place them.
	Ambiguous int64
}

// evaluatePruned evaluates graphs (sharing n) by bound pruning on the
// cache (A current) and means; it returns the scores and the work done.
func (c *hypItemCache) evaluatePruned(ctx context.Context, means []float64, graphs []*hypGraph, workers int) ([]Reconstruction, PruneStats, error) {
	n, d := graphs[0].n, c.d
	if workers <= 0 {
		workers = 1
	}
	tree := newHypEvalTree(c, means, workers)
	ng := len(graphs)
	rankSum := make([]float64, n*ng)
	apRow := make([]float64, n*ng)
	type ws struct {
		ews  *hypEvalWS
		memo map[int32]float64
		pos  []float64
		cnt  []int64
		tws  hypTreeWS
		st   PruneStats
	}
	wss := make([]*ws, workers)
	var cancelled atomic.Bool
	row := func(wk, u int) {
		query := false
		for _, g := range graphs {
			query = query || g.isQuery(u)
		}
		if !query || cancelled.Load() {
			return
		}
		if ctx.Err() != nil { // every row: a row can take 0.1 s at d = 10
			cancelled.Store(true)
			return
		}
		w := wss[wk]
		if w == nil {
			w = &ws{ews: newHypEvalWS(d), memo: map[int32]float64{}}
			w.tws.stamp = make([]uint32, n)
			wss[wk] = w
		}
		w.st.Rows++
		clear(w.memo)
		tree.setQuery(&w.tws, c, u)
		score := func(x int) float64 {
			if s, ok := w.memo[int32(x)]; ok {
				return s
			}
			w.st.Exact++
			s := c.evalScore(w.ews, means, u, x)
			w.memo[int32(x)] = s
			return s
		}
		pre := func(x int) {
			hypPrefetch(c.a[x*d*d : (x+1)*d*d])
			hypPrefetch(means[x*d : (x+1)*d])
		}
		for k, g := range graphs {
			if !g.isQuery(u) {
				continue
			}
			row := g.row(u)
			p := w.pos[:0]
			tw := &w.tws
			tw.cur++
			if tw.cur == 0 { // wrapped: reset the stamps
				clear(tw.stamp)
				tw.cur = 1
			}
			tw.marks = tw.marks[:0]
			for _, v := range row {
				p = append(p, score(int(v)))
				tw.marks = append(tw.marks, tree.pos[v])
			}
			if !g.selfCand && !g.has(u, u) {
				tw.marks = append(tw.marks, tree.pos[u])
			}
			for _, q := range tw.marks {
				tw.stamp[q] = tw.cur
			}
			slices.Sort(tw.marks)
			sort.Float64s(p)
			m := len(p)
			if cap(w.cnt) < m+1 {
				w.cnt = make([]int64, m+1)
			}
			cnt := w.cnt[:m+1]
			clear(cnt)
			ex0 := w.st.Exact
			nodes, items, full, eig := tree.countAbove(tw, u, c.a[u*d*d:(u+1)*d*d], p, cnt, score, pre)
			w.st.Full += full
			w.st.Nodes += nodes
			w.st.Bound += items
			w.st.EigenBound += eig
			w.st.Ambiguous += w.st.Exact - ex0
			// above[j] = sum_{k > j} cnt[k]; positive j (ascending) is
			// the (m-j)-th best.
			var above int64
			var rs, ap float64
			for j := m - 1; j >= 0; j-- {
				above += cnt[j+1]
				i := m - j
				rs += float64(1 + above)
				ap += float64(i) / float64(int64(i)+above)
			}
			rankSum[u*ng+k] = rs
			apRow[u*ng+k] = ap / float64(m)
			w.pos = p
		}
	}
	// The queries in tree order, in blocks of consecutive tree
	// positions per task: neighbouring queries walk much the same nodes
	// and leaves, which then are still in the core's caches. The sums
	// below run over the items in index order, so the result does not
	// depend on the order the rows are done in.
	const block = 64
	hypParallel(workers, (n+block-1)/block, func(wk, b int) {
		for k := b * block; k < min(n, (b+1)*block); k++ {
			row(wk, int(tree.order[k]))
		}
	})
	var st PruneStats
	for _, w := range wss {
		if w != nil {
			st.Rows += w.st.Rows
			st.Exact += w.st.Exact
			st.Bound += w.st.Bound
			st.Nodes += w.st.Nodes
			st.Ambiguous += w.st.Ambiguous
			st.EigenBound += w.st.EigenBound
			st.Full += w.st.Full
		}
	}
	if err := ctx.Err(); err != nil || cancelled.Load() {
		if err == nil {
			err = context.Canceled
		}
		return nil, st, err
	}
	out := make([]Reconstruction, ng)
	for k, g := range graphs {
		r := &out[k]
		var rs, ap float64
		for u := 0; u < n; u++ {
			if !g.isQuery(u) {
				continue
			}
			r.Items++
			r.Pairs += len(g.row(u))
			rs += rankSum[u*ng+k]
			ap += apRow[u*ng+k]
		}
		if r.Pairs == 0 {
			return nil, st, fmt.Errorf("reconstruction: no relations")
		}
		r.MeanRank = rs / float64(r.Pairs)
		r.MAP = ap / float64(r.Items)
	}
	return out, st, nil
}

// EvaluateEmbeddingEvery is EvaluateEmbedding restricted to the query
// rows of the items 0, every, 2 every, ... (every >= 1): each of their
// ranks is exact, all candidates counted, and the mean rank and MAP over
// them estimate those over all rows at 1/every of the cost.
func EvaluateEmbeddingEvery(ctx context.Context, e *engine.Embedding, relations [][2]int, protocol string, workers, every int) (Reconstruction, PruneStats, error) {
	n, d := e.Len(), e.Dim
	if d < 1 || len(e.Means) != n*d || len(e.Scales) != n*d*d {
		return Reconstruction{}, PruneStats{}, fmt.Errorf("reconstruction: embedding of %d labels has %d mean and %d scale entries for dimension %d", n, len(e.Means), len(e.Scales), d)
	}
	if every < 1 {
		return Reconstruction{}, PruneStats{}, fmt.Errorf("reconstruction: every = %d, want >= 1", every)
	}
	g, err := protocolGraph(n, relations, protocol)
	if err != nil {
		return Reconstruction{}, PruneStats{}, err
	}
	g = g.everyKth(every)
	c := newHypItemCache(n, d)
	cws := make([]*hypCacheWS, max(workers, 1))
	var bad atomic.Int64
	bad.Store(-1)
	hypParallel(len(cws), n, func(w, i int) {
		if cws[w] == nil {
			cws[w] = newHypCacheWS(d)
		}
		if !engine.Finite(e.Scale(i)) || !engine.Finite(e.Mean(i)) {
			bad.CompareAndSwap(-1, int64(i))
			return
		}
		c.setFromScale(cws[w], i, e.Scale(i))
	})
	if i := bad.Load(); i >= 0 {
		return Reconstruction{}, PruneStats{}, fmt.Errorf("reconstruction: measure of %q has a non-finite entry", e.Labels[i])
	}
	r, st, err := c.evaluatePruned(ctx, e.Means, []*hypGraph{g}, workers)
	if err != nil {
		return Reconstruction{}, st, err
	}
	return r[0], st, nil
}
