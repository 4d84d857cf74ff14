package emds

import (
	"burescope/engine"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// PairSource gives the target distance of any pair of n objects on demand,
// so that a fit never stores the n(n-1)/2 distances (docs/scale.md).
// Dist must be symmetric, finite and >= 0, and safe to call from several
// goroutines at once.
type PairSource interface {
	// Len is the number of objects n.
	Len() int
	// Dist is the target distance between objects i and j (i != j).
	Dist(i, j int) float64
}

// Neighborer is a PairSource that can list approximate nearest neighbours
// (used for the neighbour stratum of the sampled fit).
type Neighborer interface {
	// Neighbors returns n*k indices (row i: the k nearest other objects of
	// i, nearest first) and their distances, or an error.
	Neighbors(ctx context.Context, k int, seed uint64) ([]int32, []float64, error)
}

// Initializer is a PairSource that can propose initial means (n*d, the
// source's units), e.g. principal components for a feature table.
type Initializer interface {
	InitMeans(d int) ([]float64, error)
}

// Scaled is a PairSource whose Dist is in units of Unit(): the true
// distance is Unit() * Dist(i, j). The feature and embedding sources keep
// data beyond [SafeScaleLow, SafeScaleHigh] in units of its largest
// magnitude, so that no square on the way under- or overflows, and
// FitSampled publishes its snapshots in the true units: a table at 1e-300
// fits exactly like its unit-scale copy.
type Scaled interface {
	Unit() float64
}

// extremeUnit returns m when the largest magnitude m lies outside
// [SafeScaleLow, SafeScaleHigh] (and is finite and positive), else 1.
func extremeUnit(m float64) float64 {
	if m > 0 && !math.IsInf(m, 0) && (m < SafeScaleLow || m > SafeScaleHigh) {
		return m
	}
	return 1
}

// FeatureSource is a feature table (n rows of p numbers, row-major) whose
// pair distances are Euclidean distances between rows, computed when asked.
type FeatureSource struct {
	n, p int
	x    []float64 // in units of unit
	unit float64
}

// NewFeatureSource validates an n x p row-major table (finite values) and
// returns its pair source. x is used in place: do not modify it while the
// source is in use.
func NewFeatureSource(n, p int, x []float64) (*FeatureSource, error) {
	if n < 2 {
		return nil, fmt.Errorf("engine: need at least 2 rows, got %d", n)
	}
	if p < 1 || len(x) != n*p {
		return nil, fmt.Errorf("engine: %d x %d feature table needs %d values, got %d", n, p, n*p, len(x))
	}
	for k, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("engine: feature (%d, %d) is %v (want finite)", k/p, k%p, v)
		}
	}
	var m float64
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	unit := extremeUnit(m)
	if unit != 1 {
		y := make([]float64, len(x))
		for k, v := range x {
			y[k] = v / unit
		}
		x = y
	}
	return &FeatureSource{n: n, p: p, x: x, unit: unit}, nil
}

// Unit returns the unit of Dist: 1, or the table's largest magnitude when
// it lies outside [SafeScaleLow, SafeScaleHigh] (Scaled).
func (f *FeatureSource) Unit() float64 { return f.unit }

// Len returns the number of rows.
func (f *FeatureSource) Len() int { return f.n }

// Dist returns the Euclidean distance between rows i and j, in units of
// Unit().
func (f *FeatureSource) Dist(i, j int) float64 {
	p := f.p
	return math.Sqrt(sqDist(f.x[i*p:(i+1)*p], f.x[j*p:(j+1)*p]))
}

// sqDist is the squared Euclidean distance of two equal-length vectors
// (four independent partial sums so the additions overlap).
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	k := 0
	for ; k+4 <= len(a); k += 4 {
		d0 := a[k] - b[k]
		d1 := a[k+1] - b[k+1]
		d2 := a[k+2] - b[k+2]
		d3 := a[k+3] - b[k+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; k < len(a); k++ {
		d := a[k] - b[k]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// InitMeans returns the rows' scores on their first d principal axes
// (centred rows times the top eigenvectors of X^T X): for Euclidean
// distances this is classical MDS, computed in O(n p^2) without the
// n x n matrix. Axes beyond the rank are zero.
func (f *FeatureSource) InitMeans(d int) ([]float64, error) {
	n, p := f.n, f.p
	mean := make([]float64, p)
	for i := 0; i < n; i++ {
		for k, v := range f.x[i*p : (i+1)*p] {
			mean[k] += v
		}
	}
	for k := range mean {
		mean[k] /= float64(n)
	}
	cov := mat.NewSymDense(p, nil)
	row := make([]float64, p)
	for i := 0; i < n; i++ {
		for k, v := range f.x[i*p : (i+1)*p] {
			row[k] = v - mean[k]
		}
		cov.SymRankOne(cov, 1, mat.NewVecDense(p, row))
	}
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return nil, fmt.Errorf("engine: principal axes: eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	// Values ascend; take the largest d with a positive eigenvalue.
	out := make([]float64, n*d)
	top := vals[p-1]
	for c := 0; c < d && c < p; c++ {
		col := p - 1 - c
		if !(vals[col] > 1e-12*top) {
			break
		}
		ax := mat.Col(nil, col, &vecs)
		for i := 0; i < n; i++ {
			var s float64
			for k, v := range f.x[i*p : (i+1)*p] {
				s += (v - mean[k]) * ax[k]
			}
			out[i*d+c] = s
		}
	}
	return out, nil
}

// Neighbors returns approximate k nearest neighbours of every row by a
// random-projection forest (kNNTrees trees, leaves of at most kNNLeaf
// rows, each split by the hyperplane bisecting two random rows of the
// node) followed by kNNRounds rounds of neighbour-of-neighbour refinement
// (NN-descent's local join). Every reported distance is exact; only the
// set may miss some true neighbours. Deterministic for a seed and
// independent of the number of threads.
func (f *FeatureSource) Neighbors(ctx context.Context, k int, seed uint64) ([]int32, []float64, error) {
	n := f.n
	if k < 1 || k >= n {
		return nil, nil, fmt.Errorf("engine: %d neighbours of %d rows (want 1..%d)", k, n, n-1)
	}
	lists := make([]knnList, n)
	for i := range lists {
		lists[i] = knnList{idx: make([]int32, 0, k), d: make([]float64, 0, k)}
	}
	var mu []sync.Mutex = make([]sync.Mutex, 256)
	// Forest: trees built one after another (each tree's leaves are
	// processed in parallel with locked, order-independent list inserts).
	for t := 0; t < kNNTrees; t++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		rng := rand.New(rand.NewPCG(seed, uint64(t)+1))
		ids := make([]int32, n)
		for i := range ids {
			ids[i] = int32(i)
		}
		var leaves [][]int32
		f.split(rng, ids, &leaves)
		engine.ParallelRanges(len(leaves), func(lo, hi int) {
			for _, leaf := range leaves[lo:hi] {
				for a := 0; a < len(leaf); a++ {
					for b := a + 1; b < len(leaf); b++ {
						i, j := int(leaf[a]), int(leaf[b])
						d := f.Dist(i, j)
						lockedInsert(mu, lists, i, int32(j), d, k)
						lockedInsert(mu, lists, j, int32(i), d, k)
					}
				}
			}
		})
	}
	// Local join: candidates of i are the neighbours of its neighbours.
	for r := 0; r < kNNRounds; r++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		old := make([]knnList, n)
		for i := range lists {
			old[i] = knnList{idx: slices.Clone(lists[i].idx), d: slices.Clone(lists[i].d)}
		}
		engine.ParallelRanges(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				l := &lists[i]
				for _, j := range old[i].idx {
					for _, m := range old[j].idx {
						if int(m) == i || l.has(m) {
							continue
						}
						if d := f.Dist(i, int(m)); len(l.idx) < k || d < l.d[len(l.d)-1] {
							l.insert(m, d, k)
						}
					}
				}
			}
		})
	}
	idx := make([]int32, n*k)
	dist := make([]float64, n*k)
	for i := range lists {
		l := &lists[i]
		if len(l.idx) < k {
			return nil, nil, fmt.Errorf("engine: row %d found only %d of %d neighbours", i, len(l.idx), k)
		}
		copy(idx[i*k:], l.idx)
		copy(dist[i*k:], l.d)
	}
	return idx, dist, nil
}

// Parameters of the neighbour search (docs/scale.md has the recall they give).
const (
	kNNTrees  = 6
	kNNLeaf   = 48
	kNNRounds = 1
)

// split partitions ids recursively until each part has at most kNNLeaf
// rows, appending the leaves in a deterministic order.
func (f *FeatureSource) split(rng *rand.Rand, ids []int32, leaves *[][]int32) {
	if len(ids) <= kNNLeaf {
		*leaves = append(*leaves, ids)
		return
	}
	p := f.p
	a := int(ids[rng.IntN(len(ids))])
	b := int(ids[rng.IntN(len(ids))])
	for try := 0; try < 8 && f.Dist(a, b) == 0; try++ {
		b = int(ids[rng.IntN(len(ids))])
	}
	xa, xb := f.x[a*p:(a+1)*p], f.x[b*p:(b+1)*p]
	// side(x) = (x - (xa+xb)/2) . (xa - xb)
	var off float64
	dir := make([]float64, p)
	for k := range dir {
		dir[k] = xa[k] - xb[k]
		off += dir[k] * 0.5 * (xa[k] + xb[k])
	}
	lo, hi := 0, len(ids)-1
	for lo <= hi {
		xi := f.x[int(ids[lo])*p : (int(ids[lo])+1)*p]
		var s float64
		for k, v := range xi {
			s += v * dir[k]
		}
		if s-off > 0 || (s-off == 0 && rng.IntN(2) == 0) {
			lo++
		} else {
			ids[lo], ids[hi] = ids[hi], ids[lo]
			hi--
		}
	}
	if lo == 0 || lo == len(ids) {
		// Degenerate split (duplicates): halve arbitrarily.
		lo = len(ids) / 2
	}
	f.split(rng, ids[:lo], leaves)
	f.split(rng, ids[lo:], leaves)
}

// knnList is one row's current neighbours, sorted by (distance, index).
type knnList struct {
	idx []int32
	d   []float64
}

func (l *knnList) has(j int32) bool { return slices.Contains(l.idx, j) }

// insert adds (j, d) keeping at most k entries sorted by (distance,
// index), so the final list does not depend on insertion order.
func (l *knnList) insert(j int32, d float64, k int) {
	if l.has(j) {
		return
	}
	pos := len(l.idx)
	for pos > 0 && (l.d[pos-1] > d || (l.d[pos-1] == d && l.idx[pos-1] > j)) {
		pos--
	}
	if pos >= k {
		return
	}
	if len(l.idx) < k {
		l.idx = append(l.idx, 0)
		l.d = append(l.d, 0)
	}
	copy(l.idx[pos+1:], l.idx[pos:len(l.idx)-1])
	copy(l.d[pos+1:], l.d[pos:len(l.d)-1])
	l.idx[pos], l.d[pos] = j, d
}

func lockedInsert(mu []sync.Mutex, lists []knnList, i int, j int32, d float64, k int) {
	m := &mu[i%len(mu)]
	m.Lock()
	lists[i].insert(j, d, k)
	m.Unlock()
}

// EmbeddingSource is an elliptical embedding (e.g. trained word
// embeddings) whose pair distances are the W2 distances between its
// measures, computed when asked: the sampled fit then draws a
// lower-dimensional picture of it without the n x n matrix.
type EmbeddingSource struct {
	e    *engine.Embedding // in units of unit
	unit float64
}

// NewEmbeddingSource checks e (at least 2 measures, consistent lengths)
// and returns its pair source. e is used in place.
func NewEmbeddingSource(e *engine.Embedding) (*EmbeddingSource, error) {
	if e == nil || e.Len() < 2 || e.Dim < 1 || len(e.Means) != e.Len()*e.Dim || len(e.Scales) != e.Len()*e.Dim*e.Dim {
		return nil, fmt.Errorf("engine: embedding source needs at least 2 measures with consistent means and scales")
	}
	scaled, unit := engine.ScaledEmbedding(e)
	if extremeUnit(unit) == 1 {
		scaled, unit = e, 1
	}
	return &EmbeddingSource{e: scaled, unit: unit}, nil
}

// Unit returns the unit of Dist: 1, or the embedding's largest magnitude
// when it lies outside [SafeScaleLow, SafeScaleHigh] (Scaled).
func (s *EmbeddingSource) Unit() float64 { return s.unit }

// Len returns the number of measures.
func (s *EmbeddingSource) Len() int { return s.e.Len() }

// Dist returns W2 between measures i and j, as DistanceMatrix does, in
// units of Unit().
func (s *EmbeddingSource) Dist(i, j int) float64 {
	e := s.e
	b2 := engine.Bures2Fast(e.Scale(i), e.Scale(j), e.Dim)
	return math.Sqrt(engine.SqDist(e.Mean(i), e.Mean(j)) + e.Family.Tau*b2)
}

// InitMeans returns the measures' means when d is their dimension, else
// their first d principal components.
func (s *EmbeddingSource) InitMeans(d int) ([]float64, error) {
	if d == s.e.Dim {
		return append([]float64(nil), s.e.Means...), nil
	}
	fs, err := NewFeatureSource(s.e.Len(), s.e.Dim, s.e.Means)
	if err != nil {
		return nil, err
	}
	return fs.InitMeans(d)
}
