package hypernymy

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync/atomic"

	"burescope/engine"
)

// Pruned reconstruction evaluation for large n (the WordNet nouns: 82,115
// items, 6.7e9 scores). The rank of a positive v of u needs only the
// number of candidates w with s(u, w) > s(u, v), and the pseudo dot
// product has cheap lower and upper bounds (evaltree.go, prefilter.go).
// Per query u: the exact scores of its positives, sorted,
// p_1 <= ... <= p_m; then the prefilter, an upper bound for all items
// as dense products, keeps the items that may reach p_1 (about 1 % on
// the nouns at d = 10; the others can be above no positive and count
// nowhere); on those, item bounds [L, U] of increasing cost, and an item
// whose interval contains no p_j (L <= p_j < U) counts for the
// positives below L; only the items whose interval still contains a
// positive score are scored exactly (eigenvalues of M), by the same
// function as the brute-force rows (rowScorer), so the counts, ties
// included (ties count in v's favour), are those of evaluateGraphs on
// the full score rows (tested).

// PruneStats counts the work of a pruned evaluation.
type PruneStats struct {
	Rows  int   // query rows evaluated
	Exact int64 // exact scores computed (positives included)
	Bound int64 // item bounds computed (for the items the prefilter kept)
	// Full is the number of item bounds tightened by the Frobenius
	// product of the S features.
	Full int64
	// EigenBound is the number of items given the tighter bound in the
	// query's eigenbasis (those the first bounds left ambiguous).
	EigenBound int64
	// Ambiguous is the number of exact scores of candidates (not
	// positives): those whose bounds could not place them.
	Ambiguous int64
	// Filtered is the number of candidates the prefilter bounded
	// (prefilter.go): all items for every query row.
	Filtered int64
}

// hypEvalBlock is the number of queries prefiltered together (a chunk of
// the prefilter's store is read once per block).
const hypEvalBlock = 256

// evaluatePruned evaluates graphs (sharing n) by bound pruning on the
// cache (A current) and means; it returns the scores and the work done.
func (c *hypItemCache) evaluatePruned(ctx context.Context, means []float64, graphs []*hypGraph, workers int) ([]Reconstruction, PruneStats, error) {
	n, d := graphs[0].n, c.d
	if workers <= 0 {
		workers = 1
	}
	tree := newHypEvalTree(c, means, workers)
	filt := newHypFilter(tree, c)
	ng := len(graphs)
	rankSum := make([]float64, n*ng)
	apRow := make([]float64, n*ng)
	type ws struct {
		ews   *hypEvalWS
		memo  map[int32]float64
		pos   []float64
		cnt   []int64
		tws   hypTreeWS
		fws   *hypFilterWS
		sc    *hypFilterScratch
		bufs  []hypFilterBuf
		live  []*hypFilterBuf
		gcoef []float32
		list  []int32
		st    PruneStats
	}
	ows := make([]*ws, workers)
	var cancelled atomic.Bool
	isQuery := func(u int) bool {
		for _, g := range graphs {
			if g.isQuery(u) {
				return true
			}
		}
		return false
	}
	// positives lists in bf u's positives over the graphs (with
	// repeats across graphs) and their exact scores, and sets bf.thr to
	// the lowest of them (+Inf without any).
	positives := func(w *ws, bf *hypFilterBuf) {
		u := bf.u
		bf.pos = bf.pos[:0]
		for _, g := range graphs {
			if g.isQuery(u) {
				for _, v := range g.row(u) {
					bf.pos = append(bf.pos, int(v))
				}
			}
		}
		if cap(bf.posScore) < len(bf.pos) {
			bf.posScore = make([]float64, len(bf.pos))
		}
		bf.posScore = bf.posScore[:len(bf.pos)]
		c.evalScores(w.ews, means, u, bf.pos, bf.posScore)
		bf.thr = math.Inf(1)
		for _, s := range bf.posScore {
			bf.thr = math.Min(bf.thr, s)
		}
	}
	row := func(w *ws, bf *hypFilterBuf) {
		u := bf.u
		w.list = hypBitList(w.list[:0], bf.bits, n)
		list := w.list
		w.st.Rows++
		clear(w.memo)
		for k, x := range bf.pos {
			if _, ok := w.memo[int32(x)]; !ok {
				w.st.Exact++
				w.memo[int32(x)] = bf.posScore[k]
			}
		}
		tree.setQuery(&w.tws, u)
		score := func(x int) float64 {
			return w.memo[int32(x)] // the positives'
		}
		scores := func(xs []int, out []float64) {
			w.st.Exact += int64(len(xs))
			c.evalScores(w.ews, means, u, xs, out)
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
			sort.Float64s(p)
			m := len(p)
			if cap(w.cnt) < m+1 {
				w.cnt = make([]int64, m+1)
			}
			cnt := w.cnt[:m+1]
			clear(cnt)
			ex0 := w.st.Exact
			items, full, eig := tree.countList(tw, u, c.a[u*d*d:(u+1)*d*d], p, cnt, scores, pre, list)
			w.st.Full += full
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
	// positions per task (neighbouring queries read much the same
	// items): per block, the prefilter's coefficients and threshold of
	// each query, then the prefilter chunk by chunk for all the block's
	// queries (a chunk is read once per block), then each query's rows
	// on the items its prefilter let through. The sums below run over the
	// items in index order, so the result does not depend on the order
	// the rows are done in.
	const block = hypEvalBlock
	hypParallel(workers, (n+block-1)/block, func(wk, b int) {
		if cancelled.Load() {
			return
		}
		if ctx.Err() != nil { // every block: a block can take a second at d = 10
			cancelled.Store(true)
			return
		}
		w := ows[wk]
		if w == nil {
			w = &ws{ews: newHypEvalWS(d), memo: map[int32]float64{}, fws: newHypFilterWS(d), sc: new(hypFilterScratch)}
			w.tws.stamp = make([]uint32, n)
			ows[wk] = w
		}
		bufs := w.bufs[:0]
		for k := b * block; k < min(n, (b+1)*block); k++ {
			u := int(tree.order[k])
			if !isQuery(u) {
				continue
			}
			if len(bufs) < cap(bufs) {
				bufs = bufs[:len(bufs)+1]
			} else {
				bufs = append(bufs, hypFilterBuf{})
			}
			bf := &bufs[len(bufs)-1]
			if bf.coef == nil {
				bf.coef = make([]float32, filt.nf)
			}
			bf.u = u
			positives(w, bf)
			if len(bf.bits) != filt.chunks*hypChunk/8 {
				bf.bits = make([]uint8, filt.chunks*hypChunk/8)
			}
			if math.IsInf(bf.thr, 1) { // no positive: nothing to let through
				clear(bf.bits)
			}
			pu := int(tree.pos[u])
			bf.k = filt.query(w.fws, c.a[u*d*d:(u+1)*d*d], tree.itemVec(pu), tree.mean[pu*d:(pu+1)*d], tree.nm[pu], tree.ns[pu], tree.spec[pu*d:(pu+1)*d], bf.coef)
			bf.thr32 = filt.threshold(bf.thr)
		}
		// groups of four queries with a threshold
		live := w.live[:0]
		for i := range bufs {
			if !math.IsInf(bufs[i].thr, 1) {
				live = append(live, &bufs[i])
			}
		}
		ngr := (len(live) + 3) / 4
		if cap(w.gcoef) < ngr*4*filt.nf {
			w.gcoef = make([]float32, ngr*4*filt.nf)
		}
		for g := 0; g < ngr; g++ {
			filt.interleave(live[4*g:min(len(live), 4*g+4)], w.gcoef[g*4*filt.nf:(g+1)*4*filt.nf])
		}
		for ch := 0; ch < filt.chunks; ch++ {
			for g := 0; g < ngr; g++ {
				filt.run(w.sc, live[4*g:min(len(live), 4*g+4)], w.gcoef[g*4*filt.nf:(g+1)*4*filt.nf], ch)
			}
		}
		w.live = live
		for i := range bufs {
			w.st.Filtered += int64(n)
			row(w, &bufs[i])
		}
		w.bufs = bufs
	})
	var st PruneStats
	for _, w := range ows {
		if w != nil {
			st.Filtered += w.st.Filtered
			st.Rows += w.st.Rows
			st.Exact += w.st.Exact
			st.Bound += w.st.Bound
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

// EvaluationBytes returns an upper bound on the memory the pruned
// evaluation of n items at dimension d with the given workers allocates
// (EvaluateEmbeddingEvery, and the trainer's evaluation above 4,096
// items), the embedding itself not included: the item cache (five d x d
// matrices per item), the items' features, eigenvectors and spectra and
// the split's scratch, the prefilter's float32 store, and per worker the
// block's bitmaps (hypEvalBlock queries of n bits), stamps and lists;
// a quarter more for the rest (ranks per row, scratch). The relations'
// graphs are not included (about 64 bytes a relation).
func EvaluationBytes(n, d, workers int) float64 {
	fn, fd := float64(n), float64(d)
	q := fd * (fd + 1) / 2
	cache := 5 * fn * fd * fd * 8
	tree := fn * 8 * (2*(fd+2*q) + 2*(fd*fd+fd) + 2*fd + (fd + q) + 12)
	filter := (fn + hypChunk) * (2*fd + q + 5) * 4
	worker := fn*(hypEvalBlock/8+4+4) + hypEvalBlock*(4*(2*fd+q+5)+64)
	return 1.25 * (cache + tree + filter + float64(max(workers, 1))*worker)
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
