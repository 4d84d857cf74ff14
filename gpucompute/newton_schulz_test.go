package gpucompute

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"burescope/engine"
	"burescope/engine/emds"
)

// TestNewtonSchulzParity compares the Newton-Schulz kernels (above
// JacobiMaxDim always; below it with Options.Roots) with the CPU
// backend's exact eigendecompositions: 1e-9 relative with float64
// buffers, 1e-5 with float32 buffers (the documented accuracy of the
// iteration is 1e-10, below the buffers' rounding).
func TestNewtonSchulzParity(t *testing.T) {
	cases := []struct {
		problemCase
		roots emds.RootMethod
		f32   bool // also run with float32 buffers
	}{
		// n = 70: two row blocks and, on llvmpipe, one dispatch per column.
		{problemCase{name: "d9", n: 70, d: 9, tau: 1, seed: 41}, "", false},
		{problemCase{name: "d16-weighted", n: 10, d: 16, tau: 0.5, weighted: true, seed: 42}, "", false},
		{problemCase{name: "d16-points", n: 20, d: 16, tau: 1, points: true, seed: 44}, "", false},
		{problemCase{name: "d2-ns", n: 70, d: 2, tau: 1, seed: 45}, emds.RootsNewtonSchulz, true},
		{problemCase{name: "d5-ns-weighted", n: 30, d: 5, tau: 1, weighted: true, seed: 46}, emds.RootsNewtonSchulz, false},
	}
	for _, fp64 := range []bool{false, true} {
		tol, prec := 1e-5, "f32"
		if fp64 {
			tol, prec = 1e-9, "f64"
		}
		byRoots := map[emds.RootMethod]*Backend{
			"":                     newBackend(t, Options{FP64: fp64}),
			emds.RootsNewtonSchulz: newBackend(t, Options{FP64: fp64, Roots: emds.RootsNewtonSchulz}),
		}
		for _, c := range cases {
			if !fp64 && !c.f32 {
				continue
			}
			t.Run(prec+"/"+c.name, func(t *testing.T) {
				gl := byRoots[c.roots]
				if gl.RootsAt(c.d) != emds.RootsNewtonSchulz {
					t.Fatalf("d=%d roots %q: the kernels use %q", c.d, c.roots, gl.RootsAt(c.d))
				}
				p, s := makeProblem(c.problemCase)
				cpu := emds.NewCPUBackend(2)
				if err := cpu.Load(p); err != nil {
					t.Fatal(err)
				}
				if err := gl.Load(p); err != nil {
					t.Fatal(err)
				}
				want, wg := evalAll(t, cpu, s, c.n, c.d)
				got, gg := evalAll(t, gl, s, c.n, c.d)
				if e := relDiff(got, want); !(e <= tol) {
					t.Errorf("stress %.12g, cpu %.12g (rel %.2g > %g)", got, want, e, tol)
				}
				for _, x := range []struct {
					name      string
					got, want []float64
				}{{"grad means", gg.Means, wg.Means}, {"grad scales", gg.Scales, wg.Scales}, {"per-point", gg.PerPoint, wg.PerPoint}} {
					if e := vecErr(x.got, x.want); !(e <= tol) {
						t.Errorf("%s: rel err %.2g > %g", x.name, e, tol)
					}
				}
			})
		}
	}
}

// TestNewtonSchulzRootsOption: a fixed 3-iteration Newton-Schulz run
// (docs/newton-schulz.md: about 1e-1 error) moves the GL stress away from
// the CPU's, so Options.Roots and Options.NS reach the kernels.
func TestNewtonSchulzRootsOption(t *testing.T) {
	c := problemCase{n: 30, d: 5, tau: 1, seed: 47}
	p, s := makeProblem(c)
	cpu := emds.NewCPUBackend(2)
	if err := cpu.Load(p); err != nil {
		t.Fatal(err)
	}
	want, _ := evalAll(t, cpu, s, c.n, c.d)
	for _, o := range []struct {
		opts    Options
		farFrom bool
	}{
		{Options{FP64: true, Roots: emds.RootsNewtonSchulz}, false},
		{Options{FP64: true, Roots: emds.RootsNewtonSchulz, NS: engine.NSOptions{MaxIter: 3, Tol: -1}}, true},
	} {
		t.Run(fmt.Sprintf("%s-%d", o.opts.Roots, o.opts.NS.MaxIter), func(t *testing.T) {
			gl := newBackend(t, o.opts)
			if err := gl.Load(p); err != nil {
				t.Fatal(err)
			}
			got, _ := evalAll(t, gl, s, c.n, c.d)
			e := relDiff(got, want)
			if o.farFrom && !(e >= 1e-4) {
				t.Errorf("3 iterations: stress %.12g within %.2g of the CPU's %.12g", got, e, want)
			}
			if !o.farFrom && !(e <= 1e-9) {
				t.Errorf("stress %.12g, cpu %.12g (rel %.2g)", got, want, e)
			}
		})
	}
	if _, err := New(Options{Roots: "qr"}); err == nil {
		t.Error("unknown root method accepted")
	}
}

// TestGeodesicsNewtonSchulz: Geodesics above JacobiMaxDim (Newton-Schulz
// roots) match engine.Geodesic.
func TestGeodesicsNewtonSchulz(t *testing.T) {
	ts := []float64{-0.5, 0, 0.5, 1, 2}
	for _, fp64 := range []bool{false, true} {
		b := newBackend(t, Options{FP64: fp64})
		tol := 1e-5
		if fp64 {
			tol = 1e-9
		}
		for _, d := range []int{12} {
			rng := rand.New(rand.NewPCG(uint64(d), 5))
			s := randomState(rng, problemCase{n: 6, d: d, tau: 1, eps: 0.05})
			var pairs []GeodesicPair
			for p := 0; p < 3; p++ {
				i, j := 2*p, 2*p+1
				pairs = append(pairs, GeodesicPair{
					MeanA: s.Means[i*d : (i+1)*d], ScaleA: s.Scales[i*d*d : (i+1)*d*d],
					MeanB: s.Means[j*d : (j+1)*d], ScaleB: s.Scales[j*d*d : (j+1)*d*d],
				})
			}
			means, scales, err := b.Geodesics(d, pairs, ts)
			if err != nil {
				t.Fatalf("d=%d fp64=%v: %v", d, fp64, err)
			}
			for p, x := range pairs {
				for q, tt := range ts {
					k := p*len(ts) + q
					wm, ws, err := engine.Geodesic(x.MeanA, x.ScaleA, x.MeanB, x.ScaleB, d, tt)
					if err != nil {
						t.Fatal(err)
					}
					if e := vecErr(means[k*d:(k+1)*d], wm); !(e <= tol) {
						t.Errorf("d=%d fp64=%v pair %d t=%g: mean rel err %.2g", d, fp64, p, tt, e)
					}
					if e := vecErr(scales[k*d*d:(k+1)*d*d], ws); !(e <= tol) {
						t.Errorf("d=%d fp64=%v pair %d t=%g: scale rel err %.2g", d, fp64, p, tt, e)
					}
				}
			}
		}
	}
}
