package hypernymy

import "math"

// The prefilter of the pruned evaluation (docs/hypernymy.md,
// "Evaluation"). At d = 10 the ball tree settles almost no node (its
// node bounds are too loose when the features have 120 dimensions), so
// every row bounds nearly every item one by one. Most items score far
// below the row's lowest positive (on the 50-epoch noun embedding the
// median gap is half the score), and one upper bound, cheap enough to
// evaluate for all pairs as a dense product, places all but about 1 %
// of them below it: with the fidelity's variational form
//
//	tr (A_u^{1/2} A_w A_u^{1/2})^{1/2} = min_{G > 0} (tr (A_u G) + tr (A_w G^{-1})) / 2
//	                                  <= sqrt(tr (A_u G) tr (A_w G^{-1}))   for every G > 0,
//
// equal at G = T^{A_u -> A_w}, the transport map. Per query u, G is the
// map to the mean scale matrix of all items, Abar: with S_u = A_u^{1/2}
// and M = S_u Abar S_u = W diag(mu) W^T, tr (A_u G) = sum_j sqrt(mu_j)
// =: k_u and G^{-1} = H_u = S_u W diag(mu)^{-1/2} W^T S_u, so the bound is
// sqrt(k_u <H_u, A_w>_F), a dot product with the item's A features. With
// the sorted-spectra pairing (the tree's first item bound) and the
// margins, the prefilter's upper bound of s(u, w) is
//
//	<a_u, a_w> + 2 m(u, w) + min(sum_i l_i(S_u) l_i(S_w),
//	                             sqrt(k_u (<H_u, A_w>_F + 1e-12 |H_u|_F |A_w|_F)))
//
// with m the margin of the item bounds (the margin doubled, and the
// 1e-12 term, cover the rounding of the dense products; k_u is taken
// 1 + 1e-7 larger against the rounding of the eigendecompositions). The
// items whose bound is below the lowest positive score of the row can be
// above no positive: they add nothing to the ranks and are skipped; the
// others go through the item bounds and the exact score as before, so
// the counts, and the ranks, are the same.
//
// The products are dense: the items' features are stored in chunks of
// hypChunk items, feature-major within a chunk, and a block of queries
// is filtered chunk by chunk, so that a chunk is read from memory once
// per block of queries (it fits in the second-level cache).

// hypChunk is the number of items per chunk of the prefilter's feature
// store (a multiple of 32).
const hypChunk = 480

// hypFilter is the prefilter's feature store: per chunk of hypChunk
// items (tree order, the last chunk padded with zeros), nf rows of
// hypChunk values: the means (d), |S_w|_F and |a_w|, the sorted
// eigenvalues of S_w (d), the A features (q) and |A_w|_F.
type hypFilter struct {
	d, q, nf   int
	nL, nS, nH int // the three groups of features: linear, spectral, H
	chunks     int
	feat       []float64
	abar       []float64 // the mean A (d x d)
}

// newHypFilter builds the prefilter's feature store from the tree's
// features and the cache's A.
func newHypFilter(t *hypEvalTree, c *hypItemCache) *hypFilter {
	d, q := t.d, t.q
	n := len(t.order)
	f := &hypFilter{d: d, q: q, nL: d + 2, nS: d, nH: q + 1}
	f.nf = f.nL + f.nS + f.nH
	f.chunks = (n + hypChunk - 1) / hypChunk
	f.feat = make([]float64, f.chunks*f.nf*hypChunk)
	f.abar = make([]float64, d*d)
	for p := 0; p < n; p++ {
		base := (p/hypChunk)*f.nf*hypChunk + p%hypChunk
		col := func(k int) *float64 { return &f.feat[base+k*hypChunk] }
		for i := 0; i < d; i++ {
			*col(i) = t.mean[p*d+i]
			*col(d + 2 + i) = t.spec[p*d+i]
		}
		*col(d) = t.ns[p]
		*col(d + 1) = t.nm[p]
		a := t.feat[p*t.nf+d+q : (p+1)*t.nf]
		for i, v := range a {
			*col(2*d + 2 + i) = v
		}
		*col(2*d + 2 + q) = t.na[p]
		it := int(t.order[p])
		for i, v := range c.a[it*d*d : (it+1)*d*d] {
			f.abar[i] += v
		}
	}
	for i := range f.abar {
		f.abar[i] /= float64(n)
	}
	return f
}

// hypFilterWS is the scratch space of query: eigendecompositions and
// d x d products.
type hypFilterWS struct {
	cws          *hypCacheWS
	s, m, w, tmp []float64
	mu, r        []float64
}

func newHypFilterWS(d int) *hypFilterWS {
	return &hypFilterWS{cws: newHypCacheWS(d), s: make([]float64, d*d), m: make([]float64, d*d),
		w: make([]float64, d*d), tmp: make([]float64, d*d), mu: make([]float64, d), r: make([]float64, d)}
}

// query writes the coefficients of query u (au: A_u, mu: a_u, and the
// tree's norms and spectrum of u: nmu, nsu, spec) into coef (nf) and
// returns k_u. Where A_u or M is too ill-conditioned for the inverse
// roots (an eigenvalue ratio below 1e-12, or a non-finite value), H is
// the identity and k_u = tr A_u (G = I: the Cauchy-Schwarz bound).
func (f *hypFilter) query(ws *hypFilterWS, au, mu []float64, nmu, nsu float64, spec, coef []float64) float64 {
	d, q := f.d, f.q
	copy(coef[:d], mu)
	coef[d] = 2 * hypBoundRel * nsu
	coef[d+1] = 2e-12 * nmu
	copy(coef[d+2:2*d+2], spec)
	h := coef[2*d+2 : 2*d+2+q]
	k, ok := f.transport(ws, au, d)
	if !ok {
		clear(ws.tmp)
		k = 0
		for i := 0; i < d; i++ {
			ws.tmp[i*d+i] = 1
			k += au[i*d+i]
		}
	}
	hypFeatures(h, ws.tmp, d)
	coef[2*d+2+q] = 1e-12 * math.Sqrt(hypDotScalar(h, h))
	return k
}

// transport computes H_u into ws.tmp and returns k_u (1 + 1e-7 times
// sum_j sqrt(mu_j)), or false where the conditioning is too poor.
func (f *hypFilter) transport(ws *hypFilterWS, au []float64, d int) (float64, bool) {
	cw := ws.cws
	copy(cw.m, au)
	cw.eig.vectors(cw.m, cw.v, cw.lam)
	lmax, lmin := math.Inf(-1), math.Inf(1)
	for _, l := range cw.lam {
		lmax, lmin = math.Max(lmax, l), math.Min(lmin, l)
	}
	if !(lmin > 1e-12*lmax) || math.IsInf(lmax, 0) {
		return 0, false
	}
	for i, l := range cw.lam {
		ws.r[i] = math.Sqrt(l)
	}
	hypSpectral(ws.s, cw.v, ws.r, d) // S_u
	hypMul(ws.tmp, ws.s, f.abar, d)
	hypMul(ws.m, ws.tmp, ws.s, d) // M = S_u Abar S_u
	for i := 0; i < d; i++ {
		for j := 0; j < i; j++ {
			x := 0.5 * (ws.m[i*d+j] + ws.m[j*d+i])
			ws.m[i*d+j], ws.m[j*d+i] = x, x
		}
	}
	cw.eig.vectors(ws.m, ws.w, ws.mu)
	mmax, mmin := math.Inf(-1), math.Inf(1)
	for _, m := range ws.mu {
		mmax, mmin = math.Max(mmax, m), math.Min(mmin, m)
	}
	if !(mmin > 1e-12*mmax) || math.IsInf(mmax, 0) {
		return 0, false
	}
	var k float64
	for i, m := range ws.mu {
		r := math.Sqrt(m)
		k += r
		ws.r[i] = 1 / r
	}
	hypSpectral(ws.m, ws.w, ws.r, d) // M^{-1/2}
	hypMul(ws.w, ws.s, ws.m, d)
	hypMul(ws.tmp, ws.w, ws.s, d) // H = S_u M^{-1/2} S_u
	for _, v := range ws.tmp[:d*d] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false
		}
	}
	return k * (1 + 1e-7), true
}

// hypFilterBuf is one query's part of a block: its coefficients,
// k_u, threshold, the tree positions its filter let through, and its
// positives with their exact scores.
type hypFilterBuf struct {
	u        int
	coef     []float64
	k        float64
	thr      float64
	items    []int32
	pos      []int     // u's positives (over the graphs)
	posScore []float64 // their exact scores
}

// hypFilterScratch holds the products of one chunk for four queries
// and one query's masks.
type hypFilterScratch struct {
	l, s, h [4 * hypChunk]float64
	mask    [hypChunk / 4]uint8
}

// interleave writes the coefficients of the (at most 4) queries bs into
// coef (4 nf), feature-major: coef[4f+r] is feature f of query r (zero
// for a missing query).
func (f *hypFilter) interleave(bs []*hypFilterBuf, coef []float64) {
	clear(coef)
	for r, b := range bs {
		for k, v := range b.coef[:f.nf] {
			coef[4*k+r] = v
		}
	}
}

// run appends to b.items, for each of the (at most 4) queries bs with
// interleaved coefficients coef, the tree positions p < n of chunk ch
// whose prefilter bound reaches b.thr.
func (f *hypFilter) run(sc *hypFilterScratch, bs []*hypFilterBuf, coef []float64, ch, n int) {
	base := f.feat[ch*f.nf*hypChunk : (ch+1)*f.nf*hypChunk]
	nls := f.nL + f.nS
	hypGemv4(base, hypChunk, coef[:4*f.nL], sc.l[:], hypChunk, hypChunk)
	hypGemv4(base[f.nL*hypChunk:], hypChunk, coef[4*f.nL:4*nls], sc.s[:], hypChunk, hypChunk)
	hypGemv4(base[nls*hypChunk:], hypChunk, coef[4*nls:4*f.nf], sc.h[:], hypChunk, hypChunk)
	off := ch * hypChunk
	for r, b := range bs {
		o := r * hypChunk
		hypCombine(sc.l[o:o+hypChunk], sc.s[o:o+hypChunk], sc.h[o:o+hypChunk], b.k, b.thr, sc.mask[:])
		for g, m := range sc.mask {
			for m != 0 {
				bit := m & -m
				m ^= bit
				p := off + 4*g + hypBitIndex(bit)
				if p < n {
					b.items = append(b.items, int32(p))
				}
			}
		}
	}
}

// hypBitIndex returns the index of the single set bit of b (1, 2, 4, 8).
func hypBitIndex(b uint8) int {
	switch b {
	case 1:
		return 0
	case 2:
		return 1
	case 4:
		return 2
	}
	return 3
}

// hypGemv4Scalar is hypGemv4's plain loop.
func hypGemv4Scalar(y []float64, stride int, coef []float64, out []float64, ostride, n int) {
	nf := len(coef) / 4
	for r := 0; r < 4; r++ {
		o := out[r*ostride : r*ostride+n]
		clear(o)
		for k := 0; k < nf; k++ {
			c := coef[4*k+r]
			for i, v := range y[k*stride : k*stride+n] {
				o[i] = math.FMA(v, c, o[i])
			}
		}
	}
}

// hypCombineScalar is hypCombine's plain loop.
func hypCombineScalar(l, s, h []float64, k, thr float64, mask []uint8) {
	for g := 0; g < len(l)/4; g++ {
		var m uint8
		for j := 0; j < 4; j++ {
			i := 4*g + j
			x := l[i] + math.Min(s[i], math.Sqrt(k*math.Max(h[i], 0)))
			if x >= thr {
				m |= 1 << j
			}
		}
		mask[g] = m
	}
}
