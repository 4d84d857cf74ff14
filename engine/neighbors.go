package engine

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sort"

	"burescope/engine/pairkernel"
)

// Similarity names how NearestNeighbors ranks the other measures of an
// embedding against one query measure mu_a = mu(a, A).
type Similarity string

// The neighbour rankings (docs/math.md, "Pseudo dot product and similarities"),
// the same values as W2, DotProduct, BuresCosine and MixtureCosine.
// X = tr (A^{1/2} B A^{1/2})^{1/2} is the Bures cross term and tau the
// family constant (covariance = tau * scale).
const (
	// ByW2 ranks by the 2-Wasserstein distance
	// sqrt(|a-b|^2 + tau (tr A + tr B - 2 X)), smallest first.
	ByW2 Similarity = "w2"
	// ByDot ranks by the pseudo dot product [mu_a : mu_b]_rho =
	// <a,b> + rho tau X (PseudoDot: with rho = 1 the polarisation of W2^2
	// against the Dirac at 0, for every family); largest first.
	ByDot Similarity = "dot"
	// ByCosine ranks by the Bures cosine built on that product,
	// (<a,b> + rho tau X) / sqrt(|a|^2 + rho tau tr A) / sqrt(|b|^2 + rho tau tr B),
	// largest first.
	ByCosine Similarity = "cosine"
	// ByMixture ranks by the mixture of cosines
	// S_B = <a,b>/(|a||b|) + rho X / sqrt(tr A tr B), largest first.
	ByMixture Similarity = "mixture"
)

// ParseSimilarity returns the Similarity named s (w2, dot, cosine or
// mixture).
func ParseSimilarity(s string) (Similarity, error) {
	switch Similarity(s) {
	case ByW2, ByDot, ByCosine, ByMixture:
		return Similarity(s), nil
	}
	return "", fmt.Errorf("unknown similarity %q (want w2, dot, cosine or mixture)", s)
}

// Ascending reports whether smaller scores rank first (true for ByW2 only).
func (s Similarity) Ascending() bool { return s == ByW2 }

// Neighbor is one entry of a nearest-neighbour list: the index of a
// measure in the embedding and its score against the query.
type Neighbor struct {
	Index int
	Score float64
}

// NeighborOptions configures NearestNeighbors and SimilarityScores.
type NeighborOptions struct {
	By      Similarity // ranking; "" means ByW2
	K       int        // number of neighbours wanted; <= 0 means 10
	Rho     float64    // weight of the covariance term for ByDot, ByCosine and ByMixture (docs/math.md); 0 is allowed
	Workers int        // goroutines; <= 0 means runtime.GOMAXPROCS(0)
}

// neighborChunk is how many measures a worker scores between two checks of
// the context.
const neighborChunk = 1024

// neighborFirstBatch is the size of NearestNeighbors' first batch of exact
// scores (later batches double); a variable so tests can force many small
// batches.
var neighborFirstBatch = 4 * neighborChunk

// neighborSetup is what SimilarityScores and NearestNeighbors share: the
// validated options and the query's precomputed root.
type neighborSetup struct {
	e        *Embedding
	q        *crossQuery
	by       Similarity
	tau, rho float64
	workers  int
}

func newNeighborSetup(e *Embedding, item int, opt NeighborOptions) (*neighborSetup, error) {
	n, d := e.Len(), e.Dim
	if item < 0 || item >= n {
		return nil, fmt.Errorf("neighbours: item %d out of range [0, %d)", item, n)
	}
	if len(e.Means) != n*d || len(e.Scales) != n*d*d {
		return nil, fmt.Errorf("neighbours: embedding has %d means and %d scale entries, want %d and %d", len(e.Means), len(e.Scales), n*d, n*d*d)
	}
	st := &neighborSetup{e: e, by: opt.By, tau: e.Family.Tau, rho: opt.Rho, workers: opt.Workers}
	if st.by == "" {
		st.by = ByW2
	}
	if _, err := ParseSimilarity(string(st.by)); err != nil {
		return nil, fmt.Errorf("neighbours: %v", err)
	}
	if math.IsNaN(opt.Rho) || math.IsInf(opt.Rho, 0) || opt.Rho < 0 {
		return nil, fmt.Errorf("neighbours: rho must be finite and >= 0, got %v", opt.Rho)
	}
	if st.tau == 0 {
		st.tau = 1
	}
	if st.workers <= 0 {
		st.workers = runtime.GOMAXPROCS(0)
	}
	st.q = newCrossQuery(e.Mean(item), e.Scale(item), d)
	return st, nil
}

// scoreRange writes the scores of measures idx[lo:hi] (or lo..hi-1 when
// idx is nil) into out[lo:hi], parallel over st.workers goroutines in
// chunks of neighborChunk, each worker with its own workspace. It returns
// ctx.Err() when cancelled.
func (st *neighborSetup) scoreRange(ctx context.Context, idx []int, lo, hi int, out []float64) error {
	nChunks := (hi - lo + neighborChunk - 1) / neighborChunk
	newWS := func() *crossWorkspace { return newCrossWorkspace(st.e.Dim) }
	Parallel(nChunks, st.workers, newWS, func(ws *crossWorkspace, c int) {
		if ctx.Err() != nil {
			return
		}
		a, b := lo+c*neighborChunk, min(lo+(c+1)*neighborChunk, hi)
		item := func(p int) int {
			if idx != nil {
				return idx[p]
			}
			return p
		}
		// Cross terms pairkernel.Lanes at a time (their QL iterations
		// interleaved, the same numbers as one by one) for d >= 3.
		for p := a; p < b; p += pairkernel.Lanes {
			n := min(pairkernel.Lanes, b-p)
			var xs [pairkernel.Lanes]float64
			if st.q.f != nil {
				var bs [pairkernel.Lanes][]float64
				for k := 0; k < n; k++ {
					bs[k] = st.e.Scale(item(p + k))
				}
				xs = ws.pk.TraceRootLanes(st.q.f, st.q.shape, &bs, n)
			} else {
				for k := 0; k < n; k++ {
					xs[k] = st.q.crossTrace(ws, st.e.Scale(item(p+k)))
				}
			}
			for k := 0; k < n; k++ {
				j := item(p + k)
				out[p+k] = st.q.score(st.by, st.tau, st.rho, st.e.Mean(j), st.e.Scale(j), xs[k])
			}
		}
	})
	return ctx.Err()
}

// SimilarityScores returns the scores (as defined by opt.By) of measure
// item of e against every measure of e, itself included, in one batch over
// all n measures, parallel over opt.Workers goroutines.
//
// The cross term X = tr (A^{1/2} B A^{1/2})^{1/2} is computed with a
// factor F of A (A = F F^T) taken once, then for each B only the
// eigenvalues of the d x d matrix F^T B F (engine/pairkernel's TraceRoot:
// Householder tridiagonalisation and the implicit QL iteration) with
// per-worker workspaces: no allocation per measure.
// It honours ctx between chunks of neighborChunk measures and returns
// ctx.Err() when cancelled.
func SimilarityScores(ctx context.Context, e *Embedding, item int, opt NeighborOptions) ([]float64, error) {
	st, err := newNeighborSetup(e, item, opt)
	if err != nil {
		return nil, err
	}
	scores := make([]float64, e.Len())
	if err := st.scoreRange(ctx, nil, 0, e.Len(), scores); err != nil {
		return nil, err
	}
	return scores, nil
}

// NearestNeighbors returns the opt.K best-ranked measures of e for measure
// item (fewer when e has fewer), best first, the item itself excluded:
// smallest W2 first for ByW2, largest score first otherwise. Equal scores
// are ordered by index; NaN scores (only from non-finite input) rank last.
// The result is exactly topK of SimilarityScores.
//
// It first computes, for every measure in O(d) from means and traces, a
// bound that no score can beat, from tr (A^{1/2} B A^{1/2})^{1/2} <=
// sqrt(tr A tr B) (Cauchy-Schwarz): W2^2 >= |a-b|^2 + tau (sqrt tr A -
// sqrt tr B)^2, and the dot product and cosines are at most their values
// with that cross term (the mixture cosine's covariance term at most rho).
// Measures are then scored exactly in parallel batches in order of their
// bounds, until the next bound cannot beat the k-th best score found: an
// exact search that usually scores a small part of the n measures. ctx is
// honoured between batches and chunks.
func NearestNeighbors(ctx context.Context, e *Embedding, item int, opt NeighborOptions) ([]Neighbor, error) {
	st, err := newNeighborSetup(e, item, opt)
	if err != nil {
		return nil, err
	}
	k := opt.K
	if k <= 0 {
		k = 10
	}
	n := e.Len()
	k = min(k, n-1)
	if k <= 0 {
		return []Neighbor{}, nil
	}
	asc := st.by.Ascending()
	bounds := st.bounds(item)
	order := make([]int, 0, n-1)
	for j := 0; j < n; j++ {
		if j != item {
			order = append(order, j)
		}
	}
	sort.Slice(order, func(x, y int) bool {
		return RankBefore(bounds[order[x]], order[x], bounds[order[y]], order[y], asc)
	})
	scores := make([]float64, len(order))
	best := make([]Neighbor, 0, 2*k)
	batch := max(4*k, neighborFirstBatch)
	for lo := 0; lo < len(order); {
		hi := min(lo+batch, len(order))
		if err := st.scoreRange(ctx, order, lo, hi, scores); err != nil {
			return nil, err
		}
		for p := lo; p < hi; p++ {
			best = append(best, Neighbor{Index: order[p], Score: scores[p]})
		}
		sort.Slice(best, func(x, y int) bool {
			return RankBefore(best[x].Score, best[x].Index, best[y].Score, best[y].Index, asc)
		})
		if len(best) > k {
			best = best[:k]
		}
		lo = hi
		if lo < len(order) && len(best) == k && !boundCanBeat(bounds[order[lo]], best[k-1].Score, asc) {
			break
		}
		batch *= 2
	}
	return best, nil
}

// boundCanBeat reports whether a measure whose score is bounded by bound
// could rank at or before kth (allowing 1e-9 relative for the round-off of
// the bound against the exact score). A NaN kth can always be beaten.
func boundCanBeat(bound, kth float64, ascending bool) bool {
	if math.IsNaN(kth) {
		return true
	}
	if math.IsNaN(bound) {
		return false
	}
	slack := 1e-9 * (1 + math.Abs(kth))
	if ascending {
		return bound <= kth+slack
	}
	return bound >= kth-slack
}

// bounds returns, for every measure j, the bound on its score that
// NearestNeighbors sorts by: a lower bound of W2 for ByW2, an upper bound
// of the similarity otherwise (see NearestNeighbors).
func (st *neighborSetup) bounds(item int) []float64 {
	e, q := st.e, st.q
	d, n := e.Dim, e.Len()
	out := make([]float64, n)
	for j := 0; j < n; j++ {
		mb := e.Mean(j)
		trB := Trace(e.Scale(j), d)
		xmax := math.Sqrt(math.Max(q.trA, 0) * math.Max(trB, 0))
		ab := Dot(q.mean, mb)
		switch st.by {
		case ByW2:
			r := math.Sqrt(math.Max(q.trA, 0)) - math.Sqrt(math.Max(trB, 0))
			out[j] = math.Sqrt(SqDist(q.mean, mb) + st.tau*r*r)
		case ByDot:
			out[j] = ab + st.rho*st.tau*xmax
		case ByCosine:
			rt := st.rho * st.tau
			na := q.normA*q.normA + rt*q.trA
			nb := Dot(mb, mb) + rt*trB
			den := math.Sqrt(na) * math.Sqrt(nb)
			if den == 0 {
				out[j] = 0
			} else {
				out[j] = (ab + rt*xmax) / den
			}
		case ByMixture:
			var v float64
			if den := q.normA * math.Sqrt(Dot(mb, mb)); den != 0 {
				v = ab / den
			}
			if q.trA*trB != 0 {
				v += st.rho
			}
			out[j] = v
		}
	}
	return out
}

// RankBefore reports whether item i with score si ranks strictly before
// item j with score sj in a neighbour list: better score first (smaller
// when ascending), NaN last, ties by index. NearestNeighbors and
// gpucompute.RankScores both rank with it.
func RankBefore(si float64, i int, sj float64, j int, ascending bool) bool {
	ni, nj := math.IsNaN(si), math.IsNaN(sj)
	switch {
	case ni && nj:
		return i < j
	case ni:
		return false
	case nj:
		return true
	}
	if si != sj {
		if ascending {
			return si < sj
		}
		return si > sj
	}
	return i < j
}

// crossQuery holds what is precomputed once for the query measure mu(a, A).
type crossQuery struct {
	d     int
	mean  []float64
	root  []float64 // A^{1/2} (d <= 2), d x d row-major
	f     []float64 // factor of A (d >= 3, pairkernel.Workspace.Factor)
	shape pairkernel.Shape
	trA   float64
	normA float64 // |a|
}

func newCrossQuery(mean, scale []float64, d int) *crossQuery {
	q := &crossQuery{d: d, mean: mean, trA: Trace(scale, d), normA: math.Sqrt(Dot(mean, mean))}
	if d <= 2 {
		q.root = SqrtPSD(scale, d)
		return q
	}
	a := Symmetrize(append([]float64(nil), scale...), d)
	q.f = make([]float64, d*d)
	q.shape = pairkernel.NewWorkspace(d).Factor(a, q.f, make([]float64, d*d))
	return q
}

// crossWorkspace is one worker's scratch memory for crossTrace.
type crossWorkspace struct {
	tmp, m []float64 // d x d (d = 2)
	pk     *pairkernel.Workspace
}

func newCrossWorkspace(d int) *crossWorkspace {
	return &crossWorkspace{tmp: make([]float64, d*d), m: make([]float64, d*d), pk: pairkernel.NewWorkspace(d)}
}

// crossTrace returns tr (A^{1/2} B A^{1/2})^{1/2} for the query's A and b:
// closed forms for d <= 2, the pair kernel's eigenvalues of F^T B F
// (pairkernel.Workspace.TraceRoot) otherwise.
func (q *crossQuery) crossTrace(ws *crossWorkspace, b []float64) float64 {
	d := q.d
	s := q.root
	switch d {
	case 1:
		return s[0] * math.Sqrt(math.Max(b[0], 0))
	case 2:
		// M = S B S is 2 x 2 and PSD: tr M^{1/2} = sqrt(tr M + 2 sqrt(det M)).
		m := ws.m
		mulSBS(m, ws.tmp, s, b, 2)
		det := math.Max(m[0]*m[3]-m[1]*m[2], 0)
		return math.Sqrt(math.Max(m[0]+m[3]+2*math.Sqrt(det), 0))
	}
	return ws.pk.TraceRoot(q.f, q.shape, b)
}

// mulSBS writes the upper triangle (and, for d = 2, all) of S B S into m,
// using tmp for S B; S is symmetric and only the symmetric part of B is
// used implicitly through the symmetric result.
func mulSBS(m, tmp, s, b []float64, d int) {
	// tmp = S B
	for i := 0; i < d; i++ {
		ti := tmp[i*d : (i+1)*d]
		for j := range ti {
			ti[j] = 0
		}
		si := s[i*d : (i+1)*d]
		for p, sip := range si {
			if sip == 0 {
				continue
			}
			bp := b[p*d : (p+1)*d]
			for j, v := range bp {
				ti[j] += sip * v
			}
		}
	}
	// m = tmp S (upper triangle, then symmetrised to remove round-off).
	for i := 0; i < d; i++ {
		ti := tmp[i*d : (i+1)*d]
		for j := i; j < d; j++ {
			sj := s[j*d : (j+1)*d] // S symmetric: column j of S = row j
			var v float64
			for p, t := range ti {
				v += t * sj[p]
			}
			m[i*d+j] = v
		}
	}
	for i := 0; i < d; i++ {
		for j := i + 1; j < d; j++ {
			m[j*d+i] = m[i*d+j]
		}
	}
}

// score returns the similarity by of the query against mu(mb, B), given
// their cross term x = tr (A^{1/2} B A^{1/2})^{1/2}.
func (q *crossQuery) score(by Similarity, tau, rho float64, mb, b []float64, x float64) float64 {
	d := q.d
	ab := Dot(q.mean, mb)
	switch by {
	case ByW2:
		v := SqDist(q.mean, mb) + tau*math.Max(q.trA+Trace(b, d)-2*x, 0)
		return math.Sqrt(v)
	case ByDot:
		return ab + rho*tau*x
	case ByCosine:
		rt := rho * tau
		na := q.normA*q.normA + rt*q.trA
		nb := Dot(mb, mb) + rt*Trace(b, d)
		den := math.Sqrt(na) * math.Sqrt(nb)
		if den == 0 {
			return 0
		}
		return (ab + rt*x) / den
	case ByMixture:
		var s float64
		if den := q.normA * math.Sqrt(Dot(mb, mb)); den != 0 {
			s = ab / den
		}
		if den := math.Sqrt(q.trA * Trace(b, d)); den != 0 {
			s += rho * x / den
		}
		return s
	}
	return math.NaN()
}
