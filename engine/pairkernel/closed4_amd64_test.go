//go:build !purego

package pairkernel

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestClosed4AVX2 checks the AVX2 passes against the Go ones,
// bit for bit, on random, ill-conditioned and isotropic lanes, and the
// struct layout the generator assumes.
func TestClosed4AVX2(t *testing.T) {
	var c closed4
	if unsafe.Offsetof(c.a) != 960 || unsafe.Offsetof(c.t) != 1600 || unsafe.Offsetof(c.detN) != 1824 || unsafe.Offsetof(c.conv) != 1856 || unsafe.Offsetof(c.ok) != 1888 {
		t.Fatal("closed4's layout changed: rerun closed4_amd64_gen.py and update this test")
	}
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(4, 37))
	gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), logLam(1e-6, 1), constLam(1.5), rankLam(1), scaled(uniformLam(0.1, 2), 1e100)}
	for trial := 0; trial < 200; trial++ {
		var f [16]float64
		for r := 0; r < 4; r++ {
			for q := 0; q <= r; q++ {
				f[r*4+q] = rng.NormFloat64()
			}
		}
		var x, y closed4
		for l := 0; l < Lanes; l++ {
			m := spd(rng, gens[(trial+l)%len(gens)](rng, 4))
			for e, k := range upper4 {
				x.m[e][l] = m[k]
			}
		}
		y = x
		closed4InvariantsGo(&x)
		closed4InvariantsAVX2(&y)
		closed4LaguerreGo(&x)
		closed4LaguerreAVX2(&y)
		closed4MatricesGo(&x, &f)
		closed4MatricesAVX2(&y, &f)
		xs := unsafe.Slice((*uint64)(unsafe.Pointer(&x)), unsafe.Offsetof(x.ok)/8)
		ys := unsafe.Slice((*uint64)(unsafe.Pointer(&y)), unsafe.Offsetof(y.ok)/8)
		for k := range xs {
			if xs[k] != ys[k] && !(math.IsNaN(math.Float64frombits(xs[k])) && math.IsNaN(math.Float64frombits(ys[k]))) {
				t.Fatalf("trial %d: word %d: Go %v, AVX2 %v", trial, k, math.Float64frombits(xs[k]), math.Float64frombits(ys[k]))
			}
		}
	}
}
