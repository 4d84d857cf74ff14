package words

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"burescope/engine"
	"burescope/engine/pairkernel"
)

func randFactor(rng *rand.Rand, d, k int) []float64 {
	l := make([]float64, d*k)
	for i := range l {
		l[i] = rng.NormFloat64()
	}
	return l
}

func maxAbsDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// TestKernelMatchesEngine checks the Cholesky/eigen kernel against the
// engine's exact references: CrossTrace for the value and TransportMap
// for both gradients T^{AB} L and T^{BA} M.
func TestKernelMatchesEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ d, k int }{{1, 1}, {2, 2}, {3, 3}, {4, 2}, {5, 5}, {12, 12}, {12, 4}} {
		t.Run(fmt.Sprintf("d%d_k%d", c.d, c.k), func(t *testing.T) {
			for trial := 0; trial < 5; trial++ {
				l := randFactor(rng, c.d, c.k)
				m := randFactor(rng, c.d, c.k)
				a := engine.FactorProduct(l, c.d, c.k, Eps)
				b := engine.FactorProduct(m, c.d, c.k, Eps)
				ws := newPairWS(c.d, c.k)
				if !ws.setCenter(l, Eps) {
					t.Fatal("setCenter failed on a positive definite A")
				}
				x := ws.cross(m, Eps, true)
				want := engine.CrossTrace(a, b, c.d)
				if !(math.Abs(x-want) <= 1e-9*math.Max(1, want)) {
					t.Errorf("cross = %v, CrossTrace = %v", x, want)
				}
				tab, err := engine.TransportMap(a, b, c.d)
				if err != nil {
					t.Fatal(err)
				}
				tba, err := engine.TransportMap(b, a, c.d)
				if err != nil {
					t.Fatal(err)
				}
				wl := engine.MatMul(tab, l, c.d, c.d, c.k)
				wm := engine.MatMul(tba, m, c.d, c.d, c.k)
				if e := maxAbsDiff(ws.gl, wl); !(e <= 1e-7*math.Max(1, engine.FrobNorm(wl))) {
					t.Errorf("T^AB L differs by %g", e)
				}
				if e := maxAbsDiff(ws.gm, wm); !(e <= 1e-7*math.Max(1, engine.FrobNorm(wm))) {
					t.Errorf("T^BA M differs by %g", e)
				}
			}
		})
	}
}

// TestCrossDiagMatchesEngine checks the diagonal closed form against
// CrossTrace and TransportMap on the diagonal matrices.
func TestCrossDiagMatchesEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	d := 6
	l, m := randFactor(rng, d, 1), randFactor(rng, d, 1)
	gl, gm := make([]float64, d), make([]float64, d)
	x := crossDiag(l, m, Eps, gl, gm)
	a, b := make([]float64, d*d), make([]float64, d*d)
	for i := 0; i < d; i++ {
		a[i*d+i] = l[i]*l[i] + Eps
		b[i*d+i] = m[i]*m[i] + Eps
	}
	if want := engine.CrossTrace(a, b, d); !(math.Abs(x-want) <= 1e-12*want) {
		t.Errorf("crossDiag = %v, CrossTrace = %v", x, want)
	}
	tab, _ := engine.TransportMap(a, b, d)
	for i := 0; i < d; i++ {
		if want := tab[i*d+i] * l[i]; !(math.Abs(gl[i]-want) <= 1e-12*math.Max(1, math.Abs(want))) {
			t.Errorf("gl[%d] = %v, T L = %v", i, gl[i], want)
		}
	}
	tba, _ := engine.TransportMap(b, a, d)
	for i := 0; i < d; i++ {
		if want := tba[i*d+i] * m[i]; !(math.Abs(gm[i]-want) <= 1e-12*math.Max(1, math.Abs(want))) {
			t.Errorf("gm[%d] = %v, T M = %v", i, gm[i], want)
		}
	}
}

// BenchmarkPairKernel times one pair's value and both gradients.
func BenchmarkPairKernel(b *testing.B) {
	for _, d := range []int{4, 12} {
		b.Run(fmt.Sprintf("d%d", d), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			l, m := randFactor(rng, d, d), randFactor(rng, d, d)
			ws := newPairWS(d, d)
			ws.setCenter(l, Eps)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ws.cross(m, Eps, true)
			}
		})
		b.Run(fmt.Sprintf("lanes/d%d", d), func(b *testing.B) {
			if !ws0(d).crossLanesOK() {
				b.Skip("no lanes kernel here")
			}
			rng := rand.New(rand.NewPCG(1, 2))
			l := randFactor(rng, d, d)
			var ms, gls, gms [pairkernel.WideLanes][]float64
			for q := range ms {
				ms[q] = randFactor(rng, d, d)
				gls[q], gms[q] = make([]float64, d*d), make([]float64, d*d)
			}
			ws := newPairWS(d, d)
			ws.setCenter(l, Eps)
			b.ResetTimer()
			nl := ws.lanes()
			for i := 0; i < b.N; i += nl {
				ws.crossLanes(&ms, nl, Eps, &gls, &gms)
			}
		})
	}
}

func ws0(d int) *pairWS { return newPairWS(d, d) }

// TestCrossLanesMatchesOneByOne checks that the lanes kernel gives every
// pair the bits of the one-pair kernel (cross), for any number of pairs
// per call up to the kernel's width, including a lane whose context
// factor is ill-conditioned (rank one) beside well-conditioned ones: the
// training's blocks of pairs must not change its numbers.
func TestCrossLanesMatchesOneByOne(t *testing.T) {
	for _, d := range []int{4, 5, 12} {
		ws := newPairWS(d, d)
		if !ws.crossLanesOK() {
			t.Skip("no lanes kernel on this machine")
		}
		rng := rand.New(rand.NewPCG(7, uint64(d)))
		l := randFactor(rng, d, d)
		if !ws.setCenter(l, Eps) {
			t.Fatal("setCenter failed")
		}
		for n := 1; n <= ws.lanes(); n++ {
			var ms, gls, gms [pairkernel.WideLanes][]float64
			for q := 0; q < n; q++ {
				ms[q] = randFactor(rng, d, d)
				if q == 2 { // rank one: B = v v^T + eps I
					for i := range ms[q] {
						if i%d != 0 {
							ms[q][i] = 0
						}
					}
				}
				gls[q], gms[q] = make([]float64, d*d), make([]float64, d*d)
			}
			x := ws.crossLanes(&ms, n, Eps, &gls, &gms)
			for q := 0; q < n; q++ {
				want := ws.cross(ms[q], Eps, true)
				if x[q] != want {
					t.Fatalf("d=%d n=%d lane %d: cross term %v, one by one %v", d, n, q, x[q], want)
				}
				for i := range gls[q] {
					if gls[q][i] != ws.gl[i] || gms[q][i] != ws.gm[i] {
						t.Fatalf("d=%d n=%d lane %d: gradient %d differs from one by one", d, n, q, i)
					}
				}
			}
		}
	}
}
