package hypernymy

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// Bounds and the item order of the pruned reconstruction evaluation
// (prune.go, prefilter.go; docs/hypernymy.md, "Evaluation"). With
// S = A^{1/2}, the cross
// term of the pseudo dot product is the nuclear norm of S_w S_u, so
//
//	max(<S_u, S_w>_F, sqrt(<A_u, A_w>_F)) <= tr (A_u^{1/2} A_w A_u^{1/2})^{1/2}
//	    <= min(|S_u|_F |S_w|_F, sqrt(d <A_u, A_w>_F)),
//
// (trace <= nuclear norm, Frobenius <= nuclear <= sqrt(rank) Frobenius,
// and Cauchy-Schwarz on the singular values), with |S|_F^2 = tr A, and,
// from sigma_i(S_w) lambda_min(S_u) <= sigma_i(S_w S_u) and Hoelder,
//
//	lambda_min(S_u) tr S_w <= tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} <= lambda_max(S_u) tr S_w
//
// and the same with u and w exchanged (both exact for isotropic S_u),
// both implied by the pairings of the sorted spectra (the first item
// bounds, and the prefilter's upper one): with lambda_1 >= ... >= lambda_d
// the eigenvalues of S_u and mu_1 >= ... >= mu_d those of S_w,
//
//	sum_i lambda_i mu_{d+1-i} <= tr S_u S_w <= ||S_w S_u||_* <= sum_i lambda_i mu_i
//
// (von Neumann's trace inequality for the lower bound, and
// sum_i sigma_i(AB) <= sum_i sigma_i(A) sigma_i(B) for the upper one);
// and ||X||_* >= ||X||_F^2 / ||X||_op >= <A_u, A_w>_F / (lambda_max(S_u)
// lambda_max(S_w)). Per query, in the eigenbasis A_u = sum_j lambda_j
// v_j v_j^T: X = S_w V diag(lambda)^{1/2} V^T has the nuclear norm of
// S_w V diag(lambda)^{1/2}, at most the sum of its column norms,
//
//	tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} <= sum_j sqrt(lambda_j v_j^T A_w v_j),
//
// exact when A_w commutes with A_u, never above |S_u|_F |S_w|_F, and
// bilinear too (v_j^T A_w v_j = <A_w, v_j v_j^T>_F): the tightening made
// for the items the first bounds leave ambiguous. The same in the item's
// eigenbasis A_w = sum_i mu_i w_i w_i^T (the eigenvectors kept from the
// tree's construction), sum_i sqrt(mu_i w_i^T A_u w_i), is the last
// bound before the exact score (on the WordNet nouns it places about
// 40 % of the items the other bounds leave ambiguous).
// The Frobenius products are bilinear in per-item feature vectors (the
// mean a, and the upper triangles of S and A with the off-diagonal
// entries scaled by sqrt 2, so that plain dot products are Frobenius
// products). The items are kept in the order of a recursive split (a
// ball tree's order, without its nodes: at d = 10 its node bounds
// settled almost no node, and the prefilter replaced them), so that
// neighbouring queries, taken in this order, let much the same items
// through and find their features in the caches.

// hypBoundRel is the relative margin added to every bound against the
// rounding of the exact score: the eigenvalues of M are exact to about
// 1e-16 |M|, so their square roots to about 1e-8 sqrt|M| <= 1e-8
// |S_u|_F |S_w|_F each; 1e-6 |S_u|_F |S_w|_F covers d <= 100 with room.
const hypBoundRel = 1e-6

// hypSplitA is the weight of the A features relative to the means in the
// distances that choose the splits of the item order (each block
// normalised by its mean square norm; 0.08 was tuned for the ball
// tree's node bounds this order comes from).
const hypSplitA = 0.08

// hypTreeLeaf is the largest number of items the recursive split leaves
// unsplit, and the group size of countList's passes.
const hypTreeLeaf = 16

// hypEvalTree holds the feature vectors of all items in the split order
// ("tree order").
type hypEvalTree struct {
	d, q, nf int       // dimension, d(d+1)/2, features per item (d + 2q)
	order    []int32   // tree position -> item
	pos      []int32   // item -> tree position
	feat     []float64 // nf per item, tree order: mean, S, A
	mean     []float64 // d per item, tree order (the means again, packed for the first bounds)
	sc       []hypItemScalars
	nm, ns   []float64 // |a_w| and |S_w|_F = sqrt(tr A_w), tree order
	na       []float64 // |A_w|_F, tree order
	// spec holds per item (tree order) the eigenvalues of S_w in
	// descending order.
	spec []float64
	// vec holds per item (tree order) the eigenvectors w_i of A_w (as
	// the columns of a d x d matrix) and then the roots sqrt(mu_i) of its
	// eigenvalues.
	vec []float64
}

// hypItemScalars are the per-item norms of the first bounds' margin,
// packed: |a| and |S|_F.
type hypItemScalars struct {
	nm, ns float64
}

// hypFeatures writes the features of the symmetric d x d matrix x (upper
// triangle, off-diagonal entries times sqrt 2) into out (d(d+1)/2).
func hypFeatures(out, x []float64, d int) {
	k := 0
	for i := 0; i < d; i++ {
		out[k] = x[i*d+i]
		k++
		for j := i + 1; j < d; j++ {
			out[k] = math.Sqrt2 * 0.5 * (x[i*d+j] + x[j*d+i])
			k++
		}
	}
}

// newHypEvalTree builds the tree over the n items of the cache (A
// current) and means, computing S = A^{1/2} by an eigendecomposition per
// item, parallel over workers goroutines.
func newHypEvalTree(c *hypItemCache, means []float64, workers int) *hypEvalTree {
	d := c.d
	dd := d * d
	n := len(means) / d
	q := d * (d + 1) / 2
	nf := d + 2*q
	raw := make([]float64, n*nf)
	rawVec := make([]float64, n*(dd+d)) // per item: eigenvectors of A (columns), roots of the eigenvalues
	wss := make([]*hypCacheWS, max(workers, 1))
	hypParallel(len(wss), n, func(w, i int) {
		ws := wss[w]
		if ws == nil {
			ws = newHypCacheWS(d)
			wss[w] = ws
		}
		f := raw[i*nf : (i+1)*nf]
		copy(f[:d], means[i*d:(i+1)*d])
		a := c.a[i*dd : (i+1)*dd]
		copy(ws.m, a)
		ws.eig.vectors(ws.m, ws.v, ws.lam)
		for k, l := range ws.lam {
			ws.f[k] = math.Sqrt(math.Max(l, 0))
		}
		rv := rawVec[i*(dd+d) : (i+1)*(dd+d)]
		copy(rv, ws.v)
		copy(rv[dd:], ws.f)
		hypSpectral(ws.m, ws.v, ws.f, d)
		hypFeatures(f[d:d+q], ws.m, d)
		hypFeatures(f[d+q:], a, d)
	})
	t := &hypEvalTree{d: d, q: q, nf: nf, order: make([]int32, n), pos: make([]int32, n)}
	for i := range t.order {
		t.order[i] = int32(i)
	}
	// Split recursively at the median of the widest coordinate of the
	// mean and S features.
	key := make([]float64, n)
	// Split recursively at the median of the projection on the line
	// through a farthest pair (from the first item, the farthest item
	// x1, then the item x2 farthest from x1), distances weighted per
	// block: the means by 1/E|a|^2 and the A features by hypSplitA/E|A|_F^2
	// (the S features not at all).
	var sm, sa float64
	for i := 0; i < n; i++ {
		f := raw[i*nf : (i+1)*nf]
		sm += hypDotScalar(f[:d], f[:d])
		sa += hypDotScalar(f[d+q:], f[d+q:])
	}
	wm, wa := 0.0, 0.0
	if sm > 0 {
		wm = math.Sqrt(float64(n) / sm)
	}
	if sa > 0 {
		wa = math.Sqrt(hypSplitA * float64(n) / sa)
	}
	// sx holds the weighted split features per item (means, then A) and
	// sn their square norms.
	ns := d + q
	sx := make([]float64, n*ns)
	sn := make([]float64, n)
	for i := 0; i < n; i++ {
		f, x := raw[i*nf:(i+1)*nf], sx[i*ns:(i+1)*ns]
		for k := 0; k < d; k++ {
			x[k] = wm * f[k]
		}
		for k := 0; k < q; k++ {
			x[d+k] = wa * f[d+q+k]
		}
		sn[i] = hypDot(x, x)
	}
	dir := make([]float64, ns)
	var build func(lo, hi int)
	build = func(lo, hi int) {
		if hi-lo <= hypTreeLeaf {
			return
		}
		seg := t.order[lo:hi]
		// far returns the item of seg farthest from item a.
		far := func(a int32) int32 {
			best, bd := a, math.Inf(-1)
			xa := sx[int(a)*ns : int(a+1)*ns]
			for _, it := range seg {
				if x := sn[it] - 2*hypDot(sx[int(it)*ns:int(it+1)*ns], xa); x > bd {
					best, bd = it, x
				}
			}
			return best
		}
		x1 := far(seg[0])
		x2 := far(x1)
		for k := range dir {
			dir[k] = sx[int(x2)*ns+k] - sx[int(x1)*ns+k]
		}
		for _, it := range seg {
			key[it] = hypDot(sx[int(it)*ns:int(it+1)*ns], dir)
		}
		slices.SortFunc(seg, func(x, y int32) int {
			if key[x] < key[y] {
				return -1
			}
			if key[x] > key[y] {
				return 1
			}
			return int(x) - int(y)
		})
		mid := lo + (hi-lo)/2
		build(lo, mid)
		build(mid, hi)
	}
	build(0, n)
	t.feat = make([]float64, n*nf)
	t.vec = make([]float64, n*(dd+d))
	t.spec = make([]float64, n*d)
	t.mean = make([]float64, n*d)
	t.sc = make([]hypItemScalars, n)
	t.nm, t.ns, t.na = make([]float64, n), make([]float64, n), make([]float64, n)
	for p, it := range t.order {
		t.pos[it] = int32(p)
		f := t.feat[p*nf : (p+1)*nf]
		copy(f, raw[int(it)*nf:(int(it)+1)*nf])
		t.nm[p] = math.Sqrt(hypDot(f[:d], f[:d]))
		t.ns[p] = math.Sqrt(math.Max(engineTrace(c.a[int(it)*dd:(int(it)+1)*dd], d), 0))
		t.na[p] = math.Sqrt(hypDot(f[d+q:], f[d+q:]))
		copy(t.vec[p*(dd+d):(p+1)*(dd+d)], rawVec[int(it)*(dd+d):(int(it)+1)*(dd+d)])
		sp := t.spec[p*d : (p+1)*d]
		copy(sp, rawVec[int(it)*(dd+d)+dd:(int(it)+1)*(dd+d)])
		slices.SortFunc(sp, func(x, y float64) int { return cmp.Compare(y, x) })
		copy(t.mean[p*d:(p+1)*d], f[:d])
		t.sc[p] = hypItemScalars{nm: t.nm[p], ns: t.ns[p]}
	}
	return t
}

// engineTrace returns the trace of the d x d matrix a.
func engineTrace(a []float64, d int) float64 {
	var s float64
	for i := 0; i < d; i++ {
		s += a[i*d+i]
	}
	return s
}

// itemBounds returns lower and upper bounds on s(u, w) for the item at
// tree position p.
func (t *hypEvalTree) itemBounds(p, pu int, fu []float64, nmu, nsu float64) (lo, hi, dm, margin float64) {
	d := t.d
	mw := t.mean[p*d : (p+1)*d]
	mu := fu[:d]
	for i, v := range mw {
		dm += mu[i] * v
	}
	w := &t.sc[p]
	margin = hypBoundRel*nsu*w.ns + 1e-12*nmu*w.nm
	su, sw := t.spec[pu*d:(pu+1)*d], t.spec[p*d:(p+1)*d]
	var cl, ch float64
	for i, l := range su {
		ch += l * sw[i]
		cl += l * sw[d-1-i]
	}
	return dm + cl - margin, dm + ch + margin, dm, margin
}

// itemBoundsS tightens the lower bound lo with the Frobenius product of
// the S features: <S_u, S_w> <= cross term.
func (t *hypEvalTree) itemBoundsS(p int, fu []float64, lo, dm, margin float64) float64 {
	d, q, nf := t.d, t.q, t.nf
	ds := hypDot(fu[d:d+q], t.feat[p*nf+d:p*nf+d+q])
	return hypMax(lo, dm+ds-margin)
}

// eigenUpper returns the eigenbasis upper bound above on the cross term
// of the query (its eigenvalues' roots sl and projector features proj, d
// x q) with the item at tree position p.
func (t *hypEvalTree) eigenUpper(p int, sl, proj []float64) float64 {
	d, q, nf := t.d, t.q, t.nf
	return hypEigenSum(sl, proj, q, t.feat[p*nf+d+q:(p+1)*nf])
}

// itemEigenUpper returns the upper bound on the cross term in the item's
// eigenbasis A_w = sum_i mu_i w_i w_i^T: the nuclear norm of
// W^T S_w S_u = diag(sqrt mu) W^T S_u is at most the sum of its row norms,
//
//	tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} <= sum_i sqrt(mu_i w_i^T A_u w_i),
//
// the bound of eigenUpper with u and w exchanged (au: A_u, d x d).
func (t *hypEvalTree) itemEigenUpper(p int, au []float64) float64 {
	d := t.d
	v := t.itemVec(p)
	return hypQuadSum(v[:d*d], v[d*d:], au, d)
}

// itemVec returns the eigendecomposition of A_w kept for the item at
// tree position p: its eigenvectors (the columns of a d x d matrix),
// then the roots of its eigenvalues.
func (t *hypEvalTree) itemVec(p int) []float64 {
	n := t.d*t.d + t.d
	return t.vec[p*n : (p+1)*n]
}

// hypEigenSum returns sum_j sl_j sqrt(max(<proj_j, a>, 0)) over the rows
// proj_j of proj (q features each; sl and proj padded with zeros to a
// multiple of 4 rows).
func hypEigenSum(sl, proj []float64, q int, a []float64) float64 {
	var s float64
	for j := 0; j < len(sl); j += 4 {
		s += hypEigen4(proj[j*q:], q, a, (*[4]float64)(sl[j:j+4]))
	}
	return s
}

// setQuery prepares the eigenbasis bound of query item u: the features
// of the projectors of A_u's eigendecomposition (kept by the tree).
func (t *hypEvalTree) setQuery(ws *hypTreeWS, u int) {
	d, q := t.d, t.q
	if ws.sl == nil {
		ws.sl, ws.proj, ws.vv = make([]float64, (d+3)/4*4), make([]float64, (d+3)/4*4*q), make([]float64, d*d)
	}
	vr := t.itemVec(int(t.pos[u]))
	v := vr[:d*d]
	for j, r := range vr[d*d:] {
		ws.sl[j] = r
		for a := 0; a < d; a++ {
			for k := 0; k < d; k++ {
				ws.vv[a*d+k] = v[a*d+j] * v[k*d+j]
			}
		}
		hypFeatures(ws.proj[j*q:(j+1)*q], ws.vv, d)
	}
}

// hypTreeWS is one worker's scratch space for the tree evaluation.
type hypTreeWS struct {
	sl, proj, vv []float64    // setQuery's eigenbasis bound
	pend         []hypPending // a leaf's items left ambiguous
	marks        []int32      // sorted tree positions of the excluded items
	stamp        []uint32
	cur          uint32
	ex           []int     // items of a group left to the exact score
	exs          []float64 // their scores
}

// hypPending is an item of a leaf whose first bounds left it ambiguous:
// tree position, bounds, <a_u, a_w> and margin.
type hypPending struct {
	q                  int32
	lo, hi, dm, margin float64
}

// hypPlace returns b = #{i : p[i] < lo} for ascending p, and whether
// some p[i] lies in [lo, hi) (then #{i : p[i] < hi} != b).
func hypPlace(p []float64, lo, hi float64) (b int, ambiguous bool) {
	b = hypCountLess(p, lo)
	return b, b < len(p) && p[b] < hi
}

// hypCountLess returns #{i : p[i] < x} for ascending p.
func hypCountLess(p []float64, x float64) int {
	if len(p) <= 16 {
		k := 0
		for k < len(p) && p[k] < x {
			k++
		}
		return k
	}
	return sort.SearchFloat64s(p, x)
}

// hypMax and hypMin are math.Max and math.Min for the finite bounds
// (no NaN or signed-zero handling).
func hypMax(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

func hypMin(a, b float64) float64 {
	if a < b {
		return a
	}
	return b
}

// countList adds to cnt[b] (len(p)+1), for every item at the tree
// positions list (ascending) that is a candidate (not excluded: the
// excluded items carry ws.cur in ws.stamp), 1 where exactly b of the
// ascending positive scores p lie strictly below s(u, w); the items not
// in list must score below p[0] (the prefilter's). exact(w, out) writes
// the exact scores of the items w into out, and pre(w) (if not nil) is called some time
// before it (to prefetch what it reads); setQuery(ws, u) must have
// been called. It returns the item bounds computed, how many of them
// were tightened by the feature products, and the eigenbasis bounds
// computed.
func (t *hypEvalTree) countList(ws *hypTreeWS, u int, au []float64, p []float64, cnt []int64, exact func(w []int, out []float64), pre func(w int), list []int32) (items, full, eig int64) {
	pu := int(t.pos[u])
	fu := t.feat[pu*t.nf : (pu+1)*t.nf]
	nmu, nsu := t.nm[pu], t.ns[pu]
	// Groups of hypTreeLeaf items in three passes, so that the memory
	// each finer bound reads is requested for all the group's items
	// (prefetch) before it is used: the first bounds, then the A
	// product, the eigenbasis bound and the S product, then the exact
	// scores.
	// The items left to the exact score, scored together at the end
	// (Wide() at a time).
	ex := ws.ex[:0]
	for len(list) > 0 {
		grp := list[:min(len(list), hypTreeLeaf)]
		list = list[len(grp):]
		pend := ws.pend[:0]
		for _, q := range grp {
			if ws.stamp[q] == ws.cur {
				continue
			}
			items++
			lo, hi, dm, margin := t.itemBounds(int(q), pu, fu, nmu, nsu)
			b, amb := hypPlace(p, lo, hi)
			if !amb {
				cnt[b]++
				continue
			}
			hypPrefetch(t.feat[int(q)*t.nf+t.d : int(q+1)*t.nf])
			pend = append(pend, hypPending{q: q, lo: lo, hi: hi, dm: dm, margin: margin})
		}
		nex := 0
		for _, it := range pend {
			q := int(it.q)
			lo := it.lo
			eig++
			hi := hypMin(it.hi, it.dm+t.eigenUpper(q, ws.sl, ws.proj)+it.margin)
			b, amb := hypPlace(p, lo, hi)
			if amb {
				full++
				lo = t.itemBoundsS(q, fu, lo, it.dm, it.margin)
				b, amb = hypPlace(p, lo, hi)
			}
			if !amb {
				cnt[b]++
				continue
			}
			if pre != nil {
				pre(int(t.order[q]))
			}
			hypPrefetch(t.vec[q*(t.d*t.d+t.d) : (q+1)*(t.d*t.d+t.d)])
			it.lo, it.hi = lo, hi
			pend[nex] = it
			nex++
		}
		for _, it := range pend[:nex] {
			q := int(it.q)
			eig++
			hi := hypMin(it.hi, it.dm+t.itemEigenUpper(q, au)+it.margin)
			b, amb := hypPlace(p, it.lo, hi)
			if amb {
				ex = append(ex, int(t.order[q]))
				continue
			}
			cnt[b]++
		}
		ws.pend = pend
	}
	if len(ex) > 0 {
		if cap(ws.exs) < len(ex) {
			ws.exs = make([]float64, len(ex), 2*len(ex))
		}
		sc := ws.exs[:len(ex)]
		exact(ex, sc)
		for _, s := range sc {
			cnt[hypCountLess(p, s)]++
		}
	}
	ws.ex = ex
	return items, full, eig
}
