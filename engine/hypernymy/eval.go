package hypernymy

import (
	"context"
	"fmt"
	"sort"
	"sync/atomic"

	"burescope/engine"
)

// Reconstruction evaluation of an embedding against a relation list, as in
// the paper's hypernymy experiment and Poincaré embeddings (Nickel & Kiela
// 2017, "reconstruction"): for every relation (u, v), the rank of v among
// the non-neighbours of u (the items w != u with (u, w) not a relation),
// ordered by decreasing score [u : .]:
//
//	rank(u, v) = 1 + #{w non-neighbour of u : s(u, w) > s(u, v)}
//
// (ties count in v's favour). The mean rank is the mean over relations. The
// average precision of u ranks all of u's neighbours and non-neighbours
// together: with the neighbours v_1, ..., v_m sorted by decreasing score,
// v_i sits at position i + rank(u, v_i) - 1 of the full list, so
//
//	AP(u) = (1/m) sum_i i / (i + rank(u, v_i) - 1),
//
// and MAP is the mean of AP(u) over the items u with a neighbour. u itself
// is a candidate only if (u, u) is a relation.

// Reconstruction holds the reconstruction scores of an embedding.
type Reconstruction struct {
	MeanRank float64 // mean over relations of the rank among non-neighbours (1 is best)
	MAP      float64 // mean over items with a relation of the average precision (1 is best)
	Pairs    int     // number of distinct relations evaluated
	Items    int     // number of items with at least one relation
}

// RowScorer makes score functions for EvaluateReconstruction, one per
// goroutine: the function it returns writes s(u, w) for every item w into
// out (len n) and may keep scratch space between calls.
type RowScorer func() func(u int, out []float64)

// protocolGraph returns the ranking graph of the relations under protocol.
func protocolGraph(n int, relations [][2]int, protocol string) (*hypGraph, error) {
	g, err := newHypGraph(n, relations, false)
	if err != nil {
		return nil, err
	}
	switch protocol {
	case Directed, "":
		return g, nil
	case Undirected:
		return undirectedGraph(g)
	}
	return nil, fmt.Errorf("reconstruction: unknown protocol %q (want directed or undirected)", protocol)
}

// EvaluateProtocol is EvaluateReconstruction under protocol: Directed
// (the Poincaré embeddings protocol above) or Undirected (the paper's
// authors' evaluation: the positives of u are its ancestors and its
// descendants, u itself is a candidate, and only the items with an
// ancestor are queries).
func EvaluateProtocol(ctx context.Context, n int, relations [][2]int, rows RowScorer, workers int, protocol string) (Reconstruction, error) {
	g, err := protocolGraph(n, relations, protocol)
	if err != nil {
		return Reconstruction{}, err
	}
	r, err := evaluateGraphs(ctx, []*hypGraph{g}, rows, workers)
	if err != nil {
		return Reconstruction{}, err
	}
	return r[0], nil
}

// evaluateGraphs evaluates the same scores against several relation graphs
// on one set of items, scoring each row once.
func evaluateGraphs(ctx context.Context, graphs []*hypGraph, rows RowScorer, workers int) ([]Reconstruction, error) {
	n := graphs[0].n
	if workers <= 0 {
		workers = 1
	}
	ng := len(graphs)
	// rankSum and ap of row u against graph k at index u*ng + k.
	rankSum := make([]float64, n*ng)
	apRow := make([]float64, n*ng)
	scorers := make([]func(int, []float64), workers)
	bufs := make([][]float64, workers)
	nonBufs := make([][]float64, workers)
	nbrBufs := make([][]float64, workers)
	var cancelled atomic.Bool
	hypParallel(workers, n, func(w, u int) {
		empty := true
		for _, g := range graphs {
			empty = empty && !g.isQuery(u)
		}
		if empty || cancelled.Load() {
			return
		}
		if ctx.Err() != nil {
			cancelled.Store(true)
			return
		}
		if scorers[w] == nil {
			scorers[w] = rows()
			bufs[w] = make([]float64, n)
		}
		s := bufs[w]
		scorers[w](u, s)
		for k, g := range graphs {
			if !g.isQuery(u) {
				continue
			}
			row := g.row(u)
			non := nonBufs[w][:0]
			nbr := nbrBufs[w][:0]
			ri := 0
			for x := 0; x < n; x++ {
				for ri < len(row) && int(row[ri]) < x {
					ri++
				}
				if ri < len(row) && int(row[ri]) == x {
					nbr = append(nbr, s[x])
					continue
				}
				if x != u || g.selfCand {
					non = append(non, s[x])
				}
			}
			sort.Float64s(non)
			sort.Sort(sort.Reverse(sort.Float64Slice(nbr)))
			var rs, ap float64
			for i, sv := range nbr {
				// Non-neighbours strictly above sv.
				above := len(non) - sort.Search(len(non), func(k int) bool { return non[k] > sv })
				rs += float64(1 + above)
				ap += float64(i+1) / float64(i+1+above)
			}
			rankSum[u*ng+k] = rs
			apRow[u*ng+k] = ap / float64(len(nbr))
			nonBufs[w], nbrBufs[w] = non, nbr
		}
	})
	if err := ctx.Err(); err != nil || cancelled.Load() {
		if err == nil {
			err = context.Canceled
		}
		return nil, err
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
			return nil, fmt.Errorf("reconstruction: no relations")
		}
		r.MeanRank = rs / float64(r.Pairs)
		r.MAP = ap / float64(r.Items)
	}
	return out, nil
}

// hypDenseRowsMax is the largest n for which the trainer's evaluation
// stores the whole symmetric score matrix (n^2 float64: 128 MiB at 4096)
// and so computes each unordered pair once; above, it prunes (prune.go).
// A variable so that tests can reach the pruned path on small data.
var hypDenseRowsMax = 4096

// denseRows computes all scores s(u, w) = s(w, u) once per unordered pair,
// parallel over rows, and returns a RowScorer that reads them.
func (c *hypItemCache) denseRows(ctx context.Context, means []float64, workers int) (RowScorer, error) {
	n, d := len(means)/c.d, c.d
	all := make([]float64, n*n)
	var cancelled atomic.Bool
	hypParallel(workers, n, func(_, u int) {
		if cancelled.Load() || ctx.Err() != nil {
			cancelled.Store(true)
			return
		}
		m, tmp, lam, eig := make([]float64, d*d), make([]float64, d*d), make([]float64, d), newHypEig(d)
		mu := means[u*d : (u+1)*d]
		for w := u; w < n; w++ {
			mw := means[w*d : (w+1)*d]
			var dot float64
			for i := range mu {
				dot += mu[i] * mw[i]
			}
			v := dot + c.crossTrace(eig, m, tmp, lam, u, w)
			all[u*n+w] = v
			all[w*n+u] = v
		}
	})
	if cancelled.Load() {
		return nil, context.Canceled
	}
	return func() func(int, []float64) {
		return func(u int, out []float64) { copy(out, all[u*n:(u+1)*n]) }
	}, nil
}

// rowScorer scores rows by the pseudo dot product from the cache (whose
// A and F must be current) and the means, with evalScore: the same
// arithmetic as the pruned evaluation's exact scores.
func (c *hypItemCache) rowScorer(means []float64) RowScorer {
	d := c.d
	return func() func(int, []float64) {
		ws := newHypEvalWS(d)
		var idx []int
		return func(u int, out []float64) {
			if len(idx) != len(out) {
				idx = make([]int, len(out))
				for w := range idx {
					idx[w] = w
				}
			}
			c.evalScores(ws, means, u, idx, out) // evalScore's bits
		}
	}
}

// DotProductRows returns a RowScorer for the pseudo dot product
// [mu_u : mu_w] = <a_u, a_w> + tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} between the
// measures of e (DotProduct, computed here without allocation per pair).
// It fails if a scale matrix has a non-finite entry.
func DotProductRows(e *engine.Embedding) (RowScorer, error) {
	n, d := e.Len(), e.Dim
	if d < 1 || len(e.Means) != n*d || len(e.Scales) != n*d*d {
		return nil, fmt.Errorf("reconstruction: embedding of %d labels has %d mean and %d scale entries for dimension %d", n, len(e.Means), len(e.Scales), d)
	}
	c := newHypItemCache(n, d)
	ws := newHypCacheWS(d)
	for i := 0; i < n; i++ {
		if !engine.Finite(e.Scale(i)) {
			return nil, fmt.Errorf("reconstruction: scale of %q has a non-finite entry", e.Labels[i])
		}
		c.setFromScale(ws, i, e.Scale(i))
	}
	return c.rowScorer(e.Means), nil
}
