package hypernymy

import (
	"math"
	"math/bits"

	"burescope/engine"
)

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
// The products are dense, in float32: the items' features are stored in
// chunks of hypChunk items, feature-major within a chunk, and a block of
// queries is filtered chunk by chunk, four queries per pass over a
// chunk, so that a chunk is read from memory once per block of queries
// (it fits in the second-level cache). The features are scaled so that
// the largest |a_w| and |S_w|_F is 1 (the bound then is s(u, w) /
// sigma^2; the thresholds are scaled alike), and every product carries a
// slack for float32: with c and y the coefficients and features of one
// of the three sums (nf of them), (nf + 8) 2^-23 |c| |y| bounds the
// error of the rounded inputs and of the accumulation (twice the usual
// bound), and the combination adds 2^-20 of its terms' magnitudes; the
// threshold is rounded down, k_u up. An absolute 1e-35 under the square
// root, and 1e-30 off the threshold, cover values that underflow.

// hypChunk is the number of items per chunk of the prefilter's feature
// store (a multiple of 24, the kernel's step).
const hypChunk = 480

// hypFilter is the prefilter's feature store: per chunk of hypChunk
// items (tree order, the last chunk padded with zeros), nf rows of
// hypChunk float32 values, each sum's features followed by its slack
// feature (the norm of its features): the linear sum (the means, |S_w|_F,
// |a_w|), the spectral sum (the sorted eigenvalues of S_w) and the H sum
// (the A features, then a constant 1), all scaled by 1/sigma per power
// of the measure (means and S by 1/sigma, A by 1/sigma^2).
type hypFilter struct {
	d, q, nf   int
	nL, nS, nH int // the features of the three sums, slack included
	chunks     int
	sigma      float64 // the largest |a_w| and |S_w|_F (1 if none)
	feat       []float32
	abar       []float64 // the mean A (d x d)
}

// newHypFilter builds the prefilter's feature store from the tree's
// features and the cache's A.
func newHypFilter(t *hypEvalTree, c *hypItemCache) *hypFilter {
	d, q := t.d, t.q
	n := len(t.order)
	f := &hypFilter{d: d, q: q, nL: d + 3, nS: d + 1, nH: q + 2}
	f.nf = f.nL + f.nS + f.nH
	f.chunks = (n + hypChunk - 1) / hypChunk
	f.feat = make([]float32, f.chunks*f.nf*hypChunk)
	f.abar = make([]float64, d*d)
	for p := 0; p < n; p++ {
		f.sigma = math.Max(f.sigma, math.Max(t.nm[p], t.ns[p]))
	}
	if !(f.sigma > 0) || math.IsInf(f.sigma, 0) {
		f.sigma = 1
	}
	s1, s2 := 1/f.sigma, 1/(f.sigma*f.sigma)
	buf := make([]float64, f.nf)
	for p := 0; p < n; p++ {
		x := buf
		for i := 0; i < d; i++ {
			x[i] = t.mean[p*d+i] * s1
			x[f.nL+i] = t.spec[p*d+i] * s1
		}
		x[d] = t.ns[p] * s1
		x[d+1] = t.nm[p] * s1
		for i, v := range t.feat[p*t.nf+d+q : (p+1)*t.nf] {
			x[f.nL+f.nS+i] = v * s2
		}
		x[f.nf-1] = 1
		// the slack features: the norms of each sum's features
		x[f.nL-1] = engine.FrobNorm(x[:f.nL-1])
		x[f.nL+f.nS-1] = engine.FrobNorm(x[f.nL : f.nL+f.nS-1])
		x[f.nf-2] = engine.FrobNorm(x[f.nL+f.nS : f.nf-2])
		base := (p/hypChunk)*f.nf*hypChunk + p%hypChunk
		for k, v := range x {
			y := float32(v)
			if k == f.nL-1 || k == f.nL+f.nS-1 || k == f.nf-2 {
				y = hypRoundUp32(v)
			}
			f.feat[base+k*hypChunk] = y
		}
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

// hypConditioned reports whether the smallest of the values x is above
// ratio times the largest, the largest being finite.
func hypConditioned(x []float64, ratio float64) bool {
	hi, lo := math.Inf(-1), math.Inf(1)
	for _, v := range x {
		hi, lo = math.Max(hi, v), math.Min(lo, v)
	}
	return lo > ratio*hi && !math.IsInf(hi, 0)
}

// hypRoundUp32 returns the smallest float32 at or above x (x finite, at
// most the largest float32).
func hypRoundUp32(x float64) float32 {
	y := float32(x)
	if float64(y) < x {
		y = math.Nextafter32(y, float32(math.Inf(1)))
	}
	return y
}

// hypRoundDown32 returns the largest float32 at or below x.
func hypRoundDown32(x float64) float32 {
	y := float32(x)
	if float64(y) > x {
		y = math.Nextafter32(y, float32(math.Inf(-1)))
	}
	return y
}

// hypFilterWS is the scratch space of query: eigendecompositions and
// d x d products.
type hypFilterWS struct {
	cws          *hypCacheWS
	s, m, w, tmp []float64
	mu, r, coef  []float64
}

func newHypFilterWS(d int) *hypFilterWS {
	return &hypFilterWS{cws: newHypCacheWS(d), s: make([]float64, d*d), m: make([]float64, d*d),
		w: make([]float64, d*d), tmp: make([]float64, d*d), mu: make([]float64, d), r: make([]float64, d)}
}

// query writes the float32 coefficients of query u (au: A_u, vr: the
// tree's eigendecomposition of it, mu: a_u, and the tree's norms and
// spectrum of u: nmu, nsu, spec) into coef (nf)
// and returns k_u as the kernel takes it (scaled, rounded up). Where A_u
// or M is too ill-conditioned for the inverse roots (an eigenvalue ratio
// below 1e-12, or a non-finite value), H is the identity and k_u = tr A_u
// (G = I: the Cauchy-Schwarz bound).
func (f *hypFilter) query(ws *hypFilterWS, au, vr, mu []float64, nmu, nsu float64, spec []float64, coef []float32) float32 {
	d := f.d
	if len(ws.coef) < f.nf {
		ws.coef = make([]float64, f.nf)
	}
	x := ws.coef[:f.nf]
	s1 := 1 / f.sigma
	for i := 0; i < d; i++ {
		x[i] = mu[i] * s1
		x[f.nL+i] = spec[i] * s1
	}
	x[d] = 2 * hypBoundRel * nsu * s1
	x[d+1] = 2e-12 * nmu * s1
	h := x[f.nL+f.nS : f.nf-2]
	k, ok := f.transport(ws, vr, d)
	if !ok {
		clear(ws.tmp)
		k = 0
		for i := 0; i < d; i++ {
			ws.tmp[i*d+i] = 1
			k += au[i*d+i]
		}
	}
	hypFeatures(h, ws.tmp, d)
	hn := engine.FrobNorm(h)
	if !(hn > 0) || math.IsInf(hn, 0) || math.IsNaN(k) || math.IsInf(k, 0) {
		// no usable H: the bound's square root term becomes +Inf, so
		// the spectral pairing alone bounds the cross term
		clear(h)
		hn, k = 1, math.Inf(1)
	}
	for i := range h {
		h[i] /= hn
	}
	// slack coefficients: (features + 8) 2^-23 times each sum's
	// coefficient norm; the constant term under the root
	x[f.nL-1] = float64(f.nL+8) * 0x1p-23 * engine.FrobNorm(x[:f.nL-1])
	x[f.nL+f.nS-1] = float64(f.nS+8) * 0x1p-23 * engine.FrobNorm(x[f.nL:f.nL+f.nS-1])
	x[f.nf-2] = float64(f.nH+8) * 0x1p-23 * engine.FrobNorm(h)
	x[f.nf-1] = 1e-35
	for i, v := range x {
		coef[i] = float32(v)
		if i == f.nL-1 || i == f.nL+f.nS-1 || i == f.nf-2 {
			coef[i] = hypRoundUp32(v)
		}
	}
	ks := k * hn / (f.sigma * f.sigma)
	if !(ks < math.MaxFloat32/4) {
		return float32(math.Inf(1))
	}
	return hypRoundUp32(ks)
}

// threshold returns the kernel's threshold for the lowest positive
// score thr of a row: scaled, less 1e-30, rounded down.
func (f *hypFilter) threshold(thr float64) float32 {
	x := thr/(f.sigma*f.sigma) - 1e-30
	if x > math.MaxFloat32 {
		return float32(math.Inf(1))
	}
	if x < -math.MaxFloat32 {
		return float32(math.Inf(-1))
	}
	return hypRoundDown32(x)
}

// transport computes H_u into ws.tmp and returns k_u (1 + 1e-7 times
// sum_j sqrt(mu_j)), or false where the conditioning is too poor. vr is
// the item's eigendecomposition of A_u kept by the tree (eigenvectors as
// columns, then the roots of the eigenvalues).
func (f *hypFilter) transport(ws *hypFilterWS, vr []float64, d int) (float64, bool) {
	v, roots := vr[:d*d], vr[d*d:d*d+d]
	// eigenvalue ratio 1e-12: roots' ratio 1e-6
	if !hypConditioned(roots, 1e-6) {
		return 0, false
	}
	hypSpectral(ws.s, v, roots, d) // S_u
	hypMul(ws.tmp, ws.s, f.abar, d)
	hypMul(ws.m, ws.tmp, ws.s, d) // M = S_u Abar S_u
	engine.Symmetrize(ws.m, d)
	ws.cws.eig.vectors(ws.m, ws.w, ws.mu)
	if !hypConditioned(ws.mu, 1e-12) {
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
	if !engine.Finite(ws.tmp[:d*d]) {
		return 0, false
	}
	return k * (1 + 1e-7), true
}

// hypFilterBuf is one query's part of a block: its coefficients,
// k_u, threshold, the tree positions its filter let through (a bitmap:
// n/8 bytes whatever the filter keeps), and its positives with their
// exact scores.
type hypFilterBuf struct {
	u        int
	coef     []float32
	k, thr32 float32
	thr      float64
	bits     []uint8   // bit p%8 of bits[p/8]: tree position p let through
	pos      []int     // u's positives (over the graphs)
	posScore []float64 // their exact scores
}

// hypFilterScratch holds the products of one chunk for four queries.
type hypFilterScratch struct {
	l, s, h [4 * hypChunk]float32
}

// interleave writes the coefficients of the (at most 4) queries bs into
// coef (4 nf), feature-major: coef[4f+r] is feature f of query r (zero
// for a missing query).
func (f *hypFilter) interleave(bs []*hypFilterBuf, coef []float32) {
	clear(coef)
	for r, b := range bs {
		for k, v := range b.coef[:f.nf] {
			coef[4*k+r] = v
		}
	}
}

// run sets, for each of the (at most 4) queries bs with interleaved
// coefficients coef, the bits of chunk ch of b.bits: those of the tree
// positions whose prefilter bound reaches b.thr32 (and of the padding
// past the last item, which list skips).
func (f *hypFilter) run(sc *hypFilterScratch, bs []*hypFilterBuf, coef []float32, ch int) {
	base := f.feat[ch*f.nf*hypChunk : (ch+1)*f.nf*hypChunk]
	nls := f.nL + f.nS
	hypGemv4(base, hypChunk, coef[:4*f.nL], sc.l[:], hypChunk, hypChunk)
	hypGemv4(base[f.nL*hypChunk:], hypChunk, coef[4*f.nL:4*nls], sc.s[:], hypChunk, hypChunk)
	hypGemv4(base[nls*hypChunk:], hypChunk, coef[4*nls:4*f.nf], sc.h[:], hypChunk, hypChunk)
	const nb = hypChunk / 8
	for r, b := range bs {
		o := r * hypChunk
		hypCombine(sc.l[o:o+hypChunk], sc.s[o:o+hypChunk], sc.h[o:o+hypChunk], b.k, b.thr32, b.bits[ch*nb:(ch+1)*nb])
	}
}

// hypBitList appends to dst the tree positions p < n whose bit is set in bm.
func hypBitList(dst []int32, bm []uint8, n int) []int32 {
	for g, m := range bm {
		for m != 0 {
			p := 8*g + bits.TrailingZeros8(m)
			m &= m - 1
			if p < n {
				dst = append(dst, int32(p))
			}
		}
	}
	return dst
}

// hypGemv4Scalar is hypGemv4's plain loop (each step a float32 FMA,
// through float64: exact product, one rounding to float64, one to
// float32).
func hypGemv4Scalar(y []float32, stride int, coef []float32, out []float32, ostride, n int) {
	nf := len(coef) / 4
	for r := 0; r < 4; r++ {
		o := out[r*ostride : r*ostride+n]
		clear(o)
		for k := 0; k < nf; k++ {
			c := float64(coef[4*k+r])
			for i, v := range y[k*stride : k*stride+n] {
				o[i] = float32(math.FMA(float64(v), c, float64(o[i])))
			}
		}
	}
}

// hypCombineScalar is hypCombine's plain loop.
func hypCombineScalar(l, s, h []float32, k, thr float32, mask []uint8) {
	for g := 0; g < len(l)/8; g++ {
		var m uint8
		for j := 0; j < 8; j++ {
			i := 8*g + j
			hh := h[i]
			if !(hh > 0) {
				hh = 0
			}
			r := float32(math.Sqrt(float64(k * hh)))
			if !(r <= s[i]) { // as VMINPS: s where r is NaN
				r = s[i]
			}
			li := l[i]
			x := li + r
			e := float32(math.Abs(float64(li))) + r
			x = float32(math.FMA(float64(e), 0x1p-20, float64(x)))
			if x >= thr {
				m |= 1 << j
			}
		}
		mask[g] = m
	}
}
