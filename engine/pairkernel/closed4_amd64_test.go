//go:build !purego

package pairkernel

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestClosed4Asm checks the AVX-512 and AVX2 passes against the Go ones,
// bit for bit, on random, ill-conditioned, isotropic, rank-deficient,
// huge and unused (zero) lanes, and the struct layout the generator
// assumes.
func TestClosed4Asm(t *testing.T) {
	var c closed4
	if unsafe.Offsetof(c.m) != 640 || unsafe.Offsetof(c.a) != 2560 || unsafe.Offsetof(c.t) != 3840 || unsafe.Offsetof(c.q) != 4224 || unsafe.Offsetof(c.detN) != 4288 || unsafe.Offsetof(c.conv) != 4352 || unsafe.Offsetof(c.ok) != 4416 {
		t.Fatal("closed4's layout changed: rerun closed4_amd64_gen.py and update this test")
	}
	type isa struct {
		name                 string
		has                  bool
		invariants, matrices func(*closed4, *[16]float64)
		laguerre             func(*closed4)
	}
	isas := []isa{
		{"AVX-512", useAVX512, closed4InvariantsAVX512, closed4MatricesAVX512, closed4LaguerreAVX512},
		{"AVX2", useAVX2,
			func(c *closed4, f *[16]float64) { closed4InvariantsAVX2(c, f, 0); closed4InvariantsAVX2(c, f, 32) },
			func(c *closed4, f *[16]float64) { closed4MatricesAVX2(c, f, 0); closed4MatricesAVX2(c, f, 32) },
			func(c *closed4) { closed4LaguerreAVX2(c, 0); closed4LaguerreAVX2(c, 32) }},
	}
	for _, is := range isas {
		if !is.has {
			t.Logf("%s: not on this CPU", is.name)
			continue
		}
		rng := rand.New(rand.NewPCG(4, 37))
		gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), logLam(1e-6, 1), logLam(1e-2, 1), constLam(1.5), rankLam(1), scaled(uniformLam(0.1, 2), 1e100), scaled(uniformLam(0.1, 2), 1e-100)}
		for trial := 0; trial < 300; trial++ {
			var f [16]float64
			for r := 0; r < 4; r++ {
				for q := 0; q <= r; q++ {
					f[r*4+q] = rng.NormFloat64()
				}
			}
			var x closed4
			for l := 0; l < wideLanes; l++ {
				b := spd(rng, gens[(trial+l)%len(gens)](rng, 4))
				if trial%7 == 3 && l == 2 {
					b = make([]float64, 16) // a lane not in use
				}
				for e, k := range upper4 {
					x.bm[e][l] = b[k]
				}
			}
			y := x
			closed4InvariantsGo(&x, &f, wideLanes)
			is.invariants(&y, &f)
			closed4LaguerreGo(&x, wideLanes)
			is.laguerre(&y)
			closed4MatricesGo(&x, &f, wideLanes)
			is.matrices(&y, &f)
			xs := unsafe.Slice((*uint64)(unsafe.Pointer(&x)), unsafe.Offsetof(x.ok)/8)
			ys := unsafe.Slice((*uint64)(unsafe.Pointer(&y)), unsafe.Offsetof(y.ok)/8)
			for k := range xs {
				if xs[k] != ys[k] && !(math.IsNaN(math.Float64frombits(xs[k])) && math.IsNaN(math.Float64frombits(ys[k]))) {
					t.Fatalf("%s trial %d: word %d: Go %v, asm %v", is.name, trial, k, math.Float64frombits(xs[k]), math.Float64frombits(ys[k]))
				}
			}
		}
	}
}

// BenchmarkClosed4Paths is BenchmarkPair's rootw at d = 4 (RootLanesWide,
// Wide pairs per call) with the closed form's passes in AVX-512 (8 lanes
// per register), AVX2 (twice 4 lanes) and Go, and root4 (RootLanes, four
// pairs per call, AVX2: what a CPU without AVX-512 runs).
func BenchmarkClosed4Paths(b *testing.B) {
	const d = 4
	avx512, avx2 := useAVX512, useAVX2
	defer func() { useAVX512, useAVX2 = avx512, avx2 }()
	mats, fs, _, shapes := benchPairs(d)
	s, out := make([]float64, d*d), make([]float64, d*d)
	ws := NewWorkspace(d)
	for _, p := range []struct {
		name         string
		avx512, avx2 bool
		w            int
	}{{"wide-avx512", true, true, ws.Wide()}, {"wide-avx2", false, true, ws.Wide()}, {"wide-go", false, false, ws.Wide()}, {"root4-avx2", false, true, Lanes}} {
		if (p.avx512 && !avx512) || (p.avx2 && !avx2) {
			continue
		}
		useAVX512, useAVX2 = p.avx512, p.avx2
		b.Run(p.name, func(b *testing.B) {
			var bs [WideLanes][]float64
			w := p.w
			cpuMetric(b, func(i int) {
				if i%w != 0 {
					return
				}
				k := i & 63
				for q := 0; q < w; q++ {
					bs[q] = mats[(i+17+q)&63]
				}
				ws.RootLanesWide(fs[k], shapes[k], &bs, w)
				for q := 0; q < w; q++ {
					ws.AddRootLane(q, s, 0.5)
					ws.AddInvMapLane(q, out, fs[k], shapes[k], 0.5)
				}
			})
		})
	}
}
