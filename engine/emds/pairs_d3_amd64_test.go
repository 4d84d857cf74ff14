//go:build amd64 && !purego

package emds

import (
	"burescope/engine"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestD3ArgsLayout checks the d3Args offsets that pairs_d3_amd64.s
// hard-codes.
func TestD3ArgsLayout(t *testing.T) {
	var a d3Args
	var b d3Args512
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"pt", unsafe.Offsetof(a.pt), 0},
		{"ptStride", unsafe.Offsetof(a.ptStride), 8},
		{"dist", unsafe.Offsetof(a.dist), 16},
		{"wts", unsafe.Offsetof(a.wts), 24},
		{"acc", unsafe.Offsetof(a.acc), 32},
		{"accStride", unsafe.Offsetof(a.accStride), 40},
		{"groups", unsafe.Offsetof(a.groups), 48},
		{"done", unsafe.Offsetof(a.done), 56},
		{"skip", unsafe.Offsetof(a.skip), 64},
		{"chunk", unsafe.Offsetof(a.chunk), 72},
		{"c", unsafe.Offsetof(a.c), d3ArgsC},
		{"st", unsafe.Offsetof(a.st), d3ArgsSt},
		{"out", unsafe.Offsetof(a.out), d3ArgsOut},
		{"size", unsafe.Sizeof(a), d3ArgsOut + 12*32},
		// The AVX-512 frame: same header, 8-lane arrays.
		{"512 pt", unsafe.Offsetof(b.pt), 0},
		{"512 ptStride", unsafe.Offsetof(b.ptStride), 8},
		{"512 dist", unsafe.Offsetof(b.dist), 16},
		{"512 wts", unsafe.Offsetof(b.wts), 24},
		{"512 acc", unsafe.Offsetof(b.acc), 32},
		{"512 accStride", unsafe.Offsetof(b.accStride), 40},
		{"512 groups", unsafe.Offsetof(b.groups), 48},
		{"512 done", unsafe.Offsetof(b.done), 56},
		{"512 skip", unsafe.Offsetof(b.skip), 64},
		{"512 chunk", unsafe.Offsetof(b.chunk), 72},
		{"512 c", unsafe.Offsetof(b.c), d3Args512C},
		{"512 st", unsafe.Offsetof(b.st), d3Args512St},
		{"512 out", unsafe.Offsetof(b.out), d3Args512Out},
		{"512 size", unsafe.Sizeof(b), d3Args512Out + 12*64},
	} {
		if c.got != c.want {
			t.Errorf("%s at %d, the assembly expects %d", c.name, c.got, c.want)
		}
	}
}

// d3MixedScale returns scale number i of a mix that sends some groups of 4
// pairs off the vector path: zero (tr AB = 0), rank 2, rank 1 (the fast
// maps' cancellation bound fails), badly conditioned, and ordinary ones.
func d3MixedScale(rng *rand.Rand, i int) []float64 {
	switch i % 11 {
	case 3:
		return make([]float64, 9)
	case 5:
		return rank2SPD3(rng)
	case 7:
		u := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		c := make([]float64, 9)
		for r := 0; r < 3; r++ {
			for q := 0; q < 3; q++ {
				c[r*3+q] = u[r] * u[q]
			}
		}
		return c
	case 9:
		return randSPD3(rng, 1e5)
	}
	return randSPD3(rng, 10)
}

// d3LevelName names a kernel level in test output.
func d3LevelName(l int) string {
	return [...]string{d3Scalar: "scalar", d3AVX2: "avx2", d3AVX512: "avx512"}[l]
}

// evalD3 evaluates stress and full gradient with the kernel of the given
// level (d3Scalar, d3AVX2: AVX2 only, d3AVX512: AVX-512 with AVX2 for a
// row's last group of 4).
func evalD3(t *testing.T, p *Problem, s State, threads int, level int) (float64, Gradient) {
	t.Helper()
	defer d3SetLevel(d3SetLevel(level))
	b := NewCPUBackend(threads)
	if err := b.Load(p); err != nil {
		t.Fatal(err)
	}
	n := p.N
	g := Gradient{Means: make([]float64, 3*n), Scales: make([]float64, 9*n), PerPoint: make([]float64, n)}
	v, err := b.Evaluate(context.Background(), s, &g)
	if err != nil {
		t.Fatal(err)
	}
	return v, g
}

// TestD3AVX2MatchesScalar runs the same problems through the AVX2 kernel
// and the scalar kernel (the reference it must reproduce). They differ
// only by rounding: the assembly fuses multiply-adds, evaluates the
// quartic in Horner form, stops Newton on a chunk-wide round count and
// gets 1/(pq - r) and 1/W from one division. p is converged to ~1e-15
// relative in both; the transport maps amplify its rounding by at most
// p^3/(pq - r) <= d3FastCond = 1e3 (the vector path's gate), so a map
// entry agrees to ~1e-12 of the map's size, and sums over up to n
// partners of such terms to better than 1e-10 of the largest gradient
// entry (observed: below 1e-14 of it).
func TestD3AVX2MatchesScalar(t *testing.T) {
	levels := d3Levels()[1:]
	if len(levels) == 0 {
		t.Skip("no AVX2+FMA on this CPU")
	}
	random := func(rng *rand.Rand, i int) []float64 { return randSPD3(rng, 10) }
	for _, tc := range []struct {
		name     string
		n        int
		weighted bool
		scale    func(rng *rand.Rand, i int) []float64
	}{
		{"random/n=37", 37, false, random},
		{"random-weighted/n=37", 37, true, random},
		{"mixed-degenerate/n=61", 61, false, d3MixedScale},
		{"mixed-degenerate-weighted/n=61", 61, true, d3MixedScale},
		{"random/n=1100 (two column tiles)", 1100, false, random},
		// A = aI, B = bI: the start sqrt(tr A tr B) is the root itself (an
		// upper bound that is not above it must not stall the iteration).
		{"isotropic/n=45", 45, false, func(rng *rand.Rand, i int) []float64 {
			c := 0.5 + 1.5*rng.Float64()
			if i%3 == 0 {
				c = 1
			}
			return []float64{c, 0, 0, 0, c, 0, 0, 0, c}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, s := d3Problem(tc.n, uint64(tc.n), tc.weighted, tc.scale)
			v0, g0 := evalD3(t, p, s, 2, d3Scalar)
			for _, level := range levels {
				name := d3LevelName(level)
				v1, g1 := evalD3(t, p, s, 2, level)
				if !(math.Abs(v1-v0) <= 1e-12*v0) {
					t.Errorf("stress %s %.16g, scalar %.16g", name, v1, v0)
				}
				for _, c := range []struct {
					name string
					a, b []float64
				}{{"means", g1.Means, g0.Means}, {"scales", g1.Scales, g0.Scales}, {"per-point", g1.PerPoint, g0.PerPoint}} {
					scale := 0.0
					for _, v := range c.b {
						scale = math.Max(scale, math.Abs(v))
					}
					for k := range c.a {
						if !(math.Abs(c.a[k]-c.b[k]) <= 1e-10*scale) {
							t.Errorf("%s[%d]: %s %.16g, scalar %.16g (largest %.3g)", c.name, k, name, c.a[k], c.b[k], scale)
							break
						}
					}
				}
			}
		})
	}
}

// TestD3AVX2SkipsOffPathGroups runs each vector kernel on one row and
// checks which groups (4 pairs for AVX2, 8 for AVX-512) it leaves to the
// scalar code: exactly those with a lane off the fast path, and that
// those pairs' accumulators then hold the scalar kernel's bits.
func TestD3AVX2SkipsOffPathGroups(t *testing.T) {
	levels := d3Levels()[1:]
	if len(levels) == 0 {
		t.Skip("no AVX2+FMA on this CPU")
	}
	const n = 45 // row 0: pairs j = 1..44
	offPath := map[int]string{
		6:  "zero scale (tr AB = 0)",
		13: "rank-1 scale (p^3 > 1e3 (pq - r))",
		39: "nearly rank-1 scale (uu^T + 1e-9 I: p^3 > 1e3 (pq - r))",
	}
	p, s := d3Problem(n, 5, false, func(rng *rand.Rand, i int) []float64 { return randSPD3(rng, 10) })
	clear(s.Scales[9*6 : 9*7])
	u := []float64{1, -0.5, 0.25}
	for r := 0; r < 3; r++ {
		for q := 0; q < 3; q++ {
			s.Scales[9*13+3*r+q] = u[r] * u[q]
			s.Scales[9*39+3*r+q] = 2 * u[q] * u[r]
		}
		s.Scales[9*39+4*r] += 1e-9
	}
	k := &d3Kernel{}
	k.prepare(p, s)
	for j, why := range offPath {
		t.Logf("pair (0, %d): %s", j, why)
	}
	for _, level := range levels {
		t.Run(d3LevelName(level), func(t *testing.T) {
			defer d3SetLevel(d3SetLevel(level))
			// The AVX2 kernel takes 11 groups of 4 (chunks of 8 and 3);
			// the AVX-512 one 5 groups of 8 (pairs 1..40), and d3RowFast
			// gives the last 4 pairs to the AVX2 kernel.
			size, groups := 4, 11
			if level == d3AVX512 {
				size, groups = 8, 5
			}
			// groupOf is the group (size, index) holding pair (0, j) in
			// d3RowFast.
			groupOf := func(j int) (int, int) {
				if j-1 < size*groups {
					return size, (j - 1) / size
				}
				return 4, (j - 1) / 4
			}
			type group struct{ size, g int }
			wantSkip := map[group]bool{}
			for j := range offPath {
				sz, g := groupOf(j)
				wantSkip[group{sz, g}] = true
			}

			// The assembly alone: which groups does it skip?
			acc := make([]float64, soaStride(n)*d3Stride)
			var done, chunk int
			var skip uint64
			call := func() {}
			if level == d3AVX512 {
				a := new(d3Args512)
				a.setConsts(k.pt[0:d3Rec])
				a.pt, a.ptStride = unsafe.Pointer(&k.pk[1]), uintptr(k.ns)*8
				a.dist = unsafe.Pointer(&p.Dist[0])
				a.acc, a.accStride = unsafe.Pointer(&acc[1]), uintptr(n)*8
				a.groups = groups
				call = func() { d3RowAVX512(a); done, chunk, skip = a.done, a.chunk, a.skip; a.skip = 0 }
			} else {
				a := new(d3Args)
				a.setConsts(k.pt[0:d3Rec])
				a.pt, a.ptStride = unsafe.Pointer(&k.pk[1]), uintptr(k.ns)*8
				a.dist = unsafe.Pointer(&p.Dist[0])
				a.acc, a.accStride = unsafe.Pointer(&acc[1]), uintptr(n)*8
				a.groups = groups
				call = func() { d3RowAVX2(a); done, chunk, skip = a.done, a.chunk, a.skip; a.skip = 0 }
			}
			gotSkip := map[int]bool{}
			for calls := 0; done < groups && calls < 20; calls++ {
				call()
				for b := 0; b < 64; b++ {
					if skip&(1<<b) != 0 {
						gotSkip[chunk+b] = true
					}
				}
			}
			if done != groups {
				t.Fatalf("done %d of %d groups", done, groups)
			}
			for g := 0; g < groups; g++ {
				if gotSkip[g] != wantSkip[group{size, g}] {
					t.Errorf("group %d (pairs 0-%d..%d): skipped %v, want %v", g, size*g+1, size*g+size, gotSkip[g], wantSkip[group{size, g}])
				}
			}

			// The whole row (assembly + scalar fix-up) against the scalar row.
			accV := make([]float64, soaStride(n)*d3Stride)
			accS := make([]float64, soaStride(n)*d3Stride)
			var sumsV, sumsS d3Sums
			if got := d3RowFast(k, 0, 1, n, p.Dist[:n-1], nil, accV, 0, &sumsV); got != 44 {
				t.Fatalf("d3RowFast processed %d pairs, want 44", got)
			}
			k.rowScalar(0, 1, n, p.Dist[:n-1], nil, accS, 0, &sumsS)
			// eff is component c of an accumulator with the V term
			// (d3Kernel.finish) applied: the vector kernels sum it apart,
			// the scalar one does not.
			eff := func(a func(c int) float64, pt int, c int) float64 {
				if c < 6 {
					return a(c) + a(10)*k.pt[pt*d3Rec+9+c]
				}
				return a(c)
			}
			for j := 1; j < n; j++ {
				sz, g := groupOf(j)
				skipped := wantSkip[group{sz, g}]
				for c := 0; c < d3Stride; c++ {
					v, w := accV[c*soaStride(n)+j], accS[c*soaStride(n)+j]
					if skipped && math.Float64bits(v) != math.Float64bits(w) {
						t.Errorf("pair (0, %d) in a skipped group, component %d: %.17g, scalar %.17g", j, c, v, w)
					}
					if c == 10 {
						continue
					}
					v = eff(func(c int) float64 { return accV[c*soaStride(n)+j] }, j, c)
					w = eff(func(c int) float64 { return accS[c*soaStride(n)+j] }, j, c)
					if !(math.Abs(v-w) <= 1e-11*(1+math.Abs(w))) {
						t.Errorf("pair (0, %d) component %d: %.17g, scalar %.17g", j, c, v, w)
					}
				}
			}
			for c := 0; c < 10; c++ {
				v := eff(func(c int) float64 { return sumsV[c] }, 0, c)
				w := eff(func(c int) float64 { return sumsS[c] }, 0, c)
				if !(math.Abs(v-w) <= 1e-11*(1+math.Abs(w))) {
					t.Errorf("row sum %d: %.17g, scalar %.17g", c, v, w)
				}
			}
		})
	}
}

// TestD3ThreadIndependent checks that stress and gradients are the same
// bits for any thread count with each kernel (groups off the vector path
// included): the split into blocks, tiles and groups depends only on n.
// n = 600 (over 512 points) also splits the final reduction over the
// threads.
func TestD3ThreadIndependent(t *testing.T) {
	for _, level := range d3Levels() {
		t.Run(d3LevelName(level), func(t *testing.T) {
			p, s := d3Problem(600, 7, true, d3MixedScale)
			v0, g0 := evalD3(t, p, s, 1, level)
			for _, threads := range []int{2, 3, 5} {
				v, g := evalD3(t, p, s, threads, level)
				if math.Float64bits(v) != math.Float64bits(v0) {
					t.Errorf("threads=%d: stress %.17g, 1 thread %.17g", threads, v, v0)
				}
				for _, c := range []struct {
					name string
					a, b []float64
				}{{"means", g.Means, g0.Means}, {"scales", g.Scales, g0.Scales}, {"per-point", g.PerPoint, g0.PerPoint}} {
					for k := range c.a {
						if math.Float64bits(c.a[k]) != math.Float64bits(c.b[k]) {
							t.Errorf("threads=%d %s[%d]: %.17g, 1 thread %.17g", threads, c.name, k, c.a[k], c.b[k])
							break
						}
					}
				}
			}
		})
	}
}

// TestD3DiracsArePointMDS evaluates problems whose measures are all
// Diracs (zero scales: every group leaves the vector path for the scalar
// code) with the vector kernel on and off, against the point-MDS stress
// sum w (D - |a - b|)^2 and its mean gradient
// sum -2 w (D - W) (a - b) / W computed here directly.
func TestD3DiracsArePointMDS(t *testing.T) {
	for _, weighted := range []bool{false, true} {
		t.Run(fmt.Sprintf("weighted=%v", weighted), func(t *testing.T) {
			n := 29
			p, s := d3Problem(n, 13, weighted, func(rng *rand.Rand, i int) []float64 { return make([]float64, 9) })
			var want float64
			gm := make([]float64, 3*n)
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					var d2 float64
					for c := 0; c < 3; c++ {
						v := s.Means[3*i+c] - s.Means[3*j+c]
						d2 += v * v
					}
					q := engine.PairIndex(n, i, j)
					wt := 1.0
					if weighted {
						wt = p.Weights[q]
					}
					w := math.Sqrt(d2)
					r := p.Dist[q] - w
					want += wt * r * r
					if w > 0 {
						for c := 0; c < 3; c++ {
							v := -2 * wt * r * (s.Means[3*i+c] - s.Means[3*j+c]) / w
							gm[3*i+c] += v
							gm[3*j+c] -= v
						}
					}
				}
			}
			for _, level := range d3Levels() {
				got, g := evalD3(t, p, s, 2, level)
				if !(math.Abs(got-want) <= 1e-12*want) {
					t.Errorf("%s: stress %.15g, point MDS %.15g", d3LevelName(level), got, want)
				}
				for k := range gm {
					if !(math.Abs(g.Means[k]-gm[k]) <= 1e-11*(1+math.Abs(gm[k]))) {
						t.Errorf("%s: mean gradient[%d] %.15g, point MDS %.15g", d3LevelName(level), k, g.Means[k], gm[k])
					}
				}
			}
		})
	}
}
