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
// items, 6.7e9 scores). Only the non-neighbours scoring above u's lowest
// positive change a rank, and the pseudo dot product has the admissible
// upper bound (Cauchy-Schwarz on the singular values of B^{1/2} A^{1/2})
//
//	[u : w] = <a_u, a_w> + tr (A_u^{1/2} A_w A_u^{1/2})^{1/2}
//	       <= <a_u, a_w> + sqrt(tr A_u tr A_w),
//
// which costs d + 1 multiplications against an eigenvalue problem. Per
// query u: the exact scores of its positives give the threshold t (their
// minimum over the graphs evaluated); every w whose bound exceeds t is
// scored exactly, the others cannot rank above any positive. The counts
// are exact: the result equals evaluateGraphs on the full score rows
// (tested), and the bound carries a relative margin of 1e-9 against
// rounding in the eigenvalues.

// hypPruneMargin is the relative safety margin on the cross-term bound.
const hypPruneMargin = 1e-9

// PruneStats counts the work of a pruned evaluation.
type PruneStats struct {
	Rows  int   // query rows evaluated
	Exact int64 // exact scores computed (positives included)
	Bound int64 // bounds computed
}

// evaluatePruned evaluates graphs (sharing n) by bound pruning on the
// cache (A, S current) and means; it returns the scores and the work
// done.
func (c *hypItemCache) evaluatePruned(ctx context.Context, means []float64, graphs []*hypGraph, workers int) ([]Reconstruction, PruneStats, error) {
	n, d := graphs[0].n, c.d
	dd := d * d
	if workers <= 0 {
		workers = 1
	}
	sqrtTr := make([]float64, n)
	for i := 0; i < n; i++ {
		sqrtTr[i] = math.Sqrt(math.Max(engine.Trace(c.a[i*dd:(i+1)*dd], d), 0))
	}
	ng := len(graphs)
	rankSum := make([]float64, n*ng)
	apRow := make([]float64, n*ng)
	type ws struct {
		m, tmp, lam []float64
		eig         *hypEig
		pos         [][]float64 // per graph: positive scores, ascending
		cnt         []int64
		candW       []int32
		candS       []float64
		exact, bnd  int64
	}
	wss := make([]*ws, workers)
	var cancelled atomic.Bool
	var rows atomic.Int64
	hypParallel(workers, n, func(wk, u int) {
		query := false
		for _, g := range graphs {
			query = query || g.isQuery(u)
		}
		if !query || cancelled.Load() {
			return
		}
		if u%256 == 0 && ctx.Err() != nil {
			cancelled.Store(true)
			return
		}
		w := wss[wk]
		if w == nil {
			w = &ws{m: make([]float64, dd), tmp: make([]float64, dd), lam: make([]float64, d),
				eig: newHypEig(d), pos: make([][]float64, ng)}
			wss[wk] = w
		}
		rows.Add(1)
		mu := means[u*d : (u+1)*d]
		score := func(x int) float64 {
			mx := means[x*d : (x+1)*d]
			var dot float64
			for i := range mu {
				dot += mu[i] * mx[i]
			}
			w.exact++
			return dot + c.crossTrace(w.eig, w.m, w.tmp, w.lam, u, x)
		}
		t := math.Inf(1)
		for k, g := range graphs {
			p := w.pos[k][:0]
			if g.isQuery(u) {
				for _, v := range g.row(u) {
					p = append(p, score(int(v)))
				}
				sort.Float64s(p)
				t = math.Min(t, p[0])
			}
			w.pos[k] = p
		}
		// Candidates: every w whose bound exceeds t, with its exact score.
		w.candW, w.candS = w.candW[:0], w.candS[:0]
		su := sqrtTr[u] * (1 + hypPruneMargin)
		for x := 0; x < n; x++ {
			mx := means[x*d : (x+1)*d]
			var dot float64
			for i := range mu {
				dot += mu[i] * mx[i]
			}
			if dot+su*sqrtTr[x] <= t {
				continue
			}
			w.candW = append(w.candW, int32(x))
			w.candS = append(w.candS, score(x))
		}
		w.bnd += int64(n)
		for k, g := range graphs {
			if !g.isQuery(u) {
				continue
			}
			p := w.pos[k]
			m := len(p)
			if cap(w.cnt) < m+1 {
				w.cnt = make([]int64, m+1)
			}
			cnt := w.cnt[:m+1]
			clear(cnt)
			row := g.row(u)
			for ci, x := range w.candW {
				s := w.candS[ci]
				if !(s > p[0]) {
					continue
				}
				if int(x) == u && !g.selfCand {
					continue
				}
				if j := sort.Search(len(row), func(i int) bool { return row[i] >= x }); j < len(row) && row[j] == x {
					continue
				}
				// s ranks above the positives p[0..idx-1].
				cnt[sort.SearchFloat64s(p, s)]++
			}
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
		}
	})
	var st PruneStats
	st.Rows = int(rows.Load())
	for _, w := range wss {
		if w != nil {
			st.Exact += w.exact
			st.Bound += w.bnd
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

// EvaluateEmbedding returns the reconstruction scores of the pseudo dot
// product [mu_u : mu_w] = <a_u, a_w> + tr (A_u^{1/2} A_w A_u^{1/2})^{1/2}
// between the measures of e (scales A = e.Scales) on the relations under
// protocol (Directed or Undirected), by the pruned evaluation above
// (exact; the work it did is returned), parallel over workers
// goroutines.
func EvaluateEmbedding(ctx context.Context, e *engine.Embedding, relations [][2]int, protocol string, workers int) (Reconstruction, PruneStats, error) {
	n, d := e.Len(), e.Dim
	if d < 1 || len(e.Means) != n*d || len(e.Scales) != n*d*d {
		return Reconstruction{}, PruneStats{}, fmt.Errorf("reconstruction: embedding of %d labels has %d mean and %d scale entries for dimension %d", n, len(e.Means), len(e.Scales), d)
	}
	g, err := protocolGraph(n, relations, protocol)
	if err != nil {
		return Reconstruction{}, PruneStats{}, err
	}
	c := newHypItemCache(n, d)
	cws := make([]*hypCacheWS, max(workers, 1))
	var bad atomic.Int64
	bad.Store(-1)
	hypParallel(len(cws), n, func(w, i int) {
		if cws[w] == nil {
			cws[w] = newHypCacheWS(d)
		}
		if !isFinite(e.Scale(i)) || !isFinite(e.Mean(i)) {
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
