//go:build !purego

package pairkernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestClosed5Asm checks the AVX-512 and AVX2 passes against the Go ones,
// bit for bit, on random, ill-conditioned, isotropic and singular lanes,
// and the struct layout the generator assumes.
func TestClosed5Asm(t *testing.T) {
	var c closed5
	if unsafe.Offsetof(c.root) != 1600 || unsafe.Offsetof(c.b) != 4800 || unsafe.Offsetof(c.tr) != 6400 || unsafe.Offsetof(c.e1) != 6784 || unsafe.Offsetof(c.chk) != 6976 || unsafe.Offsetof(c.conv) != 7040 || unsafe.Offsetof(c.ok) != 7104 {
		t.Fatal("closed5's layout changed: rerun closed5_amd64_gen.py and update this test")
	}
	type isa struct {
		name                 string
		has                  bool
		invariants, matrices func(*closed5, *[25]float64)
		laguerre, trace      func(*closed5)
	}
	isas := []isa{
		{"AVX-512", useAVX512, closed5InvariantsAVX512, closed5MatricesAVX512, closed5LaguerreAVX512, closed5TraceAVX512},
		{"AVX2", useAVX2,
			func(c *closed5, f *[25]float64) { closed5InvariantsAVX2(c, f, 0); closed5InvariantsAVX2(c, f, 32) },
			func(c *closed5, f *[25]float64) { closed5MatricesAVX2(c, f, 0); closed5MatricesAVX2(c, f, 32) },
			func(c *closed5) { closed5LaguerreAVX2(c, 0); closed5LaguerreAVX2(c, 32) },
			func(c *closed5) { closed5TraceAVX2(c, 0); closed5TraceAVX2(c, 32) }},
	}
	for _, is := range isas {
		if !is.has {
			t.Logf("%s: not on this CPU", is.name)
			continue
		}
		rng := rand.New(rand.NewPCG(5, 37))
		gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), logLam(1e-6, 1), logLam(1e-2, 1), constLam(1.5), rankLam(1), scaled(uniformLam(0.1, 2), 1e100)}
		for trial := 0; trial < 200; trial++ {
			var f [25]float64
			for r := 0; r < 5; r++ {
				for q := 0; q <= r; q++ {
					f[r*5+q] = rng.NormFloat64()
				}
			}
			var x closed5
			for l := 0; l < wideLanes; l++ {
				b := spd(rng, gens[(trial+l)%len(gens)](rng, 5))
				if trial%7 == 3 && l == 2 {
					b = make([]float64, 25) // a lane not in use
				}
				for e := range b {
					x.b[e][l] = b[e]
				}
			}
			y := x
			closed5InvariantsGo(&x, &f, wideLanes)
			is.invariants(&y, &f)
			closed5LaguerreGo(&x, wideLanes)
			is.laguerre(&y)
			xt, yt := x, y
			closed5TraceGo(&xt, wideLanes)
			is.trace(&yt)
			closed5MatricesGo(&x, &f, wideLanes)
			is.matrices(&y, &f)
			same := func(a, b [wideLanes]float64) bool {
				for l := range a {
					if math.Float64bits(a[l]) != math.Float64bits(b[l]) && !(math.IsNaN(a[l]) && math.IsNaN(b[l])) {
						return false
					}
				}
				return true
			}
			if !same(xt.t, yt.t) || !same(xt.d1, yt.d1) || !same(xt.t, x.t) || !same(xt.d1, x.d1) {
				t.Fatalf("%s trial %d: trace pass: Go %v %v, asm %v %v, matrices pass %v %v", is.name, trial, xt.t, xt.d1, yt.t, yt.d1, x.t, x.d1)
			}
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

// TestClosedISAs runs RootLanes at d = 4 and 5 against gonum (every case
// of TestAgainstGonum, checkRootLanesGonum) with the closed forms' passes
// in AVX-512, AVX2 and Go (the kernels the CPU has), and checks that the
// three give the same bits on a mix of pairs (RootLanesWide, Wide lanes).
func TestClosedISAs(t *testing.T) {
	for _, d := range []int{4, 5} {
		t.Run(fmt.Sprintf("d=%d", d), func(t *testing.T) { checkClosedISAs(t, d) })
	}
}

// checkClosedISAs is TestClosedISAs at one d.
func checkClosedISAs(t *testing.T, d int) {
	avx512, avx2 := useAVX512, useAVX2
	defer func() { useAVX512, useAVX2 = avx512, avx2 }()
	type path struct {
		name         string
		avx512, avx2 bool
	}
	paths := []path{{"Go", false, false}}
	if avx2 {
		paths = append(paths, path{"AVX2", false, true})
	}
	if avx512 {
		paths = append(paths, path{"AVX-512", true, true})
	}
	var ref []uint64
	for _, p := range paths {
		useAVX512, useAVX2 = p.avx512, p.avx2
		t.Run(p.name, func(t *testing.T) { checkRootLanesGonum(t, d) })
		rng := rand.New(rand.NewPCG(uint64(d), 53))
		ws := NewWorkspace(d)
		f, g := make([]float64, d*d), make([]float64, d*d)
		gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), logLam(1e-4, 1), constLam(1.5), rankLam(1), scaled(uniformLam(0.1, 2), 1e-100)}
		var bits []uint64
		for trial := 0; trial < 50; trial++ {
			a := spd(rng, uniformLam(0.1, 2)(rng, d))
			sh := ws.Factor(a, f, g)
			var bs [WideLanes][]float64
			w := ws.Wide()
			for k := 0; k < w; k++ {
				bs[k] = spd(rng, gens[(trial+k)%len(gens)](rng, d))
			}
			got := ws.RootLanesWide(f, sh, &bs, w)
			for k := 0; k < w; k++ {
				s := make([]float64, d*d)
				ws.AddRootLane(k, s, 0.7)
				ws.AddInvMapLane(k, s, f, sh, -0.3)
				bits = append(bits, math.Float64bits(got[k]))
				for _, x := range s {
					bits = append(bits, math.Float64bits(x))
				}
			}
		}
		if ref == nil {
			ref = bits
			continue
		}
		for k := range ref {
			if ref[k] != bits[k] {
				t.Fatalf("%s: word %d differs from the Go passes: %v, %v", p.name, k, math.Float64frombits(bits[k]), math.Float64frombits(ref[k]))
			}
		}
	}
}

// BenchmarkClosed5Paths is BenchmarkPair's root4 at d = 5 (RootLanes,
// four pairs per call, as a CPU without AVX-512 runs it) with the closed
// form's passes in AVX-512, AVX2 and Go, and the eigensolver
// (useClosed5 off: the AVX2 structure-of-arrays solver) for comparison.
func BenchmarkClosed5Paths(b *testing.B) {
	const d = 5
	avx512, avx2, closed := useAVX512, useAVX2, useClosed5
	defer func() { useAVX512, useAVX2, useClosed5 = avx512, avx2, closed }()
	mats, fs, _, shapes := benchPairs(d)
	s, out := make([]float64, d*d), make([]float64, d*d)
	for _, p := range []struct {
		name                 string
		avx512, avx2, closed bool
	}{{"closed-avx512", true, true, true}, {"closed-avx2", false, true, true}, {"closed-go", false, false, true}, {"eigen-avx2", false, true, false}} {
		if (p.avx512 && !avx512) || (p.avx2 && !avx2) {
			continue
		}
		useAVX512, useAVX2, useClosed5 = p.avx512, p.avx2, p.closed
		ws := NewWorkspace(d)
		b.Run(p.name, func(b *testing.B) {
			var bs [Lanes][]float64
			cpuMetric(b, func(i int) {
				if i%Lanes != 0 {
					return
				}
				k := i & 63
				for q := range bs {
					bs[q] = mats[(i+17+q)&63]
				}
				ws.RootLanes(fs[k], shapes[k], &bs, Lanes)
				for q := 0; q < Lanes; q++ {
					ws.AddRootLane(q, s, 0.5)
					ws.AddInvMapLane(q, out, fs[k], shapes[k], 0.5)
				}
			})
		})
	}
}
