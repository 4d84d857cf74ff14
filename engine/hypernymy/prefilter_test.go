package hypernymy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestPrefilterKernels checks the prefilter's kernels (AVX2 where the
// CPU has it) against their plain loops: the products to float32
// rounding, the masks exactly on values away from the threshold, with
// the NaN of an unusable H term (k = +Inf, h = 0) giving way to s.
func TestPrefilterKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const nf, n = 37, 2 * hypChunk
	y := make([]float32, nf*n)
	for i := range y {
		y[i] = float32(rng.NormFloat64())
	}
	coef := make([]float32, 4*nf)
	for i := range coef {
		coef[i] = float32(rng.NormFloat64())
	}
	got, want := make([]float32, 4*n), make([]float32, 4*n)
	hypGemv4(y, n, coef, got, n, n)
	hypGemv4Scalar(y, n, coef, want, n, n)
	for r := 0; r < 4; r++ {
		for i := 0; i < n; i++ {
			var abs float64
			for k := 0; k < nf; k++ {
				abs += math.Abs(float64(coef[4*k+r]) * float64(y[k*n+i]))
			}
			g, w := got[r*n+i], want[r*n+i]
			if math.Abs(float64(g-w)) > float64(nf+8)*0x1p-23*abs {
				t.Fatalf("gemv4 %d %d: %v, loops %v", r, i, g, w)
			}
		}
	}
	l, s, h := got[:n], got[n:2*n], got[2*n:3*n]
	for i := range h {
		if i%7 == 0 {
			h[i] = -h[i] * h[i] // negative: clamped to 0
		}
	}
	for _, k := range []float32{1.7, float32(math.Inf(1))} {
		const thr = 0.25
		m1, m2 := make([]uint8, n/8), make([]uint8, n/8)
		hypCombine(l, s, h, k, thr, m1)
		hypCombineScalar(l, s, h, k, thr, m2)
		set := 0
		for g := range m1 {
			if m1[g] != m2[g] {
				t.Fatalf("k=%v combine group %d: mask %08b, loops %08b", k, g, m1[g], m2[g])
			}
			for j := 0; j < 8; j++ {
				i := 8*g + j
				r := math.Sqrt(float64(k) * math.Max(float64(h[i]), 0))
				if !(r <= float64(s[i])) {
					r = float64(s[i])
				}
				x := float64(l[i]) + r
				if math.Abs(x-thr) < 1e-4 {
					continue
				}
				if (m1[g]>>j&1 == 1) != (x >= thr) {
					t.Fatalf("k=%v combine item %d: bit %d, value %v", k, i, m1[g]>>j&1, x)
				}
				set += int(m1[g] >> j & 1)
			}
		}
		if set == 0 || set == n {
			t.Fatalf("combine: %d of %d set: the test does not discriminate", set, n)
		}
	}
}

// TestPrefilterBoundContainsScores checks the prefilter's upper bound
// (the dense products of run, then the combination) against the exact
// score s(u, w) for every pair of random items, d = 1 to 12: generic,
// low-rank plus 0.01 I, isotropic (where the spectral pairing is
// attained), scales from 1e-40 to 1e40, and queries whose A is nearly
// singular (the bound then falls back to G = I). No tolerance: the bound
// carries its margins.
func TestPrefilterBoundContainsScores(t *testing.T) {
	for _, tc := range []struct {
		d     int
		kind  string
		scale float64
	}{{1, "generic", 1}, {2, "generic", 1}, {3, "lowrank", 1}, {4, "generic", 1e-40}, {5, "generic", 1}, {7, "isotropic", 1},
		{10, "generic", 1}, {10, "lowrank", 1}, {10, "singular", 1}, {11, "generic", 1e40}, {12, "generic", 1}} {
		t.Run(fmt.Sprintf("d=%d %s %g", tc.d, tc.kind, tc.scale), func(t *testing.T) {
			const n = 150
			d := tc.d
			rng := rand.New(rand.NewPCG(uint64(d), 23))
			means, c := hypTestItems(rng, n, d, tc.kind, tc.scale)
			tree := newHypEvalTree(c, means, 2)
			f := newHypFilter(tree, c)
			fws := newHypFilterWS(d)
			ews := newHypEvalWS(d)
			coef := make([]float32, f.nf)
			inter := make([]float32, 4*f.nf)
			var sc hypFilterScratch
			for u := 0; u < n; u += 5 {
				pu := int(tree.pos[u])
				b := &hypFilterBuf{u: u, coef: coef}
				b.k = f.query(fws, c.a[u*d*d:(u+1)*d*d], tree.itemVec(pu), tree.mean[pu*d:(pu+1)*d], tree.nm[pu], tree.ns[pu], tree.spec[pu*d:(pu+1)*d], coef)
				f.interleave([]*hypFilterBuf{b}, inter)
				nls := f.nL + f.nS
				for ch := 0; ch < f.chunks; ch++ {
					base := f.feat[ch*f.nf*hypChunk : (ch+1)*f.nf*hypChunk]
					hypGemv4(base, hypChunk, inter[:4*f.nL], sc.l[:], hypChunk, hypChunk)
					hypGemv4(base[f.nL*hypChunk:], hypChunk, inter[4*f.nL:4*nls], sc.s[:], hypChunk, hypChunk)
					hypGemv4(base[nls*hypChunk:], hypChunk, inter[4*nls:], sc.h[:], hypChunk, hypChunk)
					for i := 0; i < hypChunk && ch*hypChunk+i < n; i++ {
						w := int(tree.order[ch*hypChunk+i])
						s := c.evalScore(ews, means, u, w)
						// the kernel's test with the threshold at the score
						var l, ss, h [8]float32
						l[0], ss[0], h[0] = sc.l[i], sc.s[i], sc.h[i]
						var m [1]uint8
						hypCombine(l[:], ss[:], h[:], b.k, f.threshold(s), m[:])
						if m[0]&1 == 0 {
							t.Fatalf("u=%d w=%d: score %v above the prefilter's bound (%v + min(%v, sqrt(%v %v)), scaled by %v)", u, w, s, l[0], ss[0], b.k, h[0], f.sigma*f.sigma)
						}
					}
				}
			}
		})
	}
}
