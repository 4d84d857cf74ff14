package emds

import (
	"burescope/engine"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// record3 builds a d3Kernel per-point record for the scale c (3x3).
func record3(c []float64) []float64 {
	k := &d3Kernel{}
	k.prepare(&Problem{N: 1, Dim: 3, Tau: 1}, State{Means: make([]float64, 3), Scales: c})
	return k.pt[:d3Rec]
}

// randSPD3 is a random 3 x 3 scale L L^T + I / cond.
func randSPD3(rng *rand.Rand, cond float64) []float64 {
	return engine.RandomPSD(rng, 3, 3, 1, 1/cond)
}

func unpack6(s [6]float64) []float64 {
	return []float64{s[0], s[1], s[2], s[1], s[3], s[4], s[2], s[4], s[5]}
}

func TestD3ClosedFormAgainstEigen(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	type pair struct {
		name string
		a, b []float64
	}
	cases := []pair{
		{"identity", []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}},
		{"diagonal", []float64{4, 0, 0, 0, 1, 0, 0, 0, 0.25}, []float64{1, 0, 0, 0, 9, 0, 0, 0, 16}},
		{"scaled copy", []float64{2, 0.5, 0.1, 0.5, 1, 0.2, 0.1, 0.2, 3}, []float64{8, 2, 0.4, 2, 4, 0.8, 0.4, 0.8, 12}},
		{"equal eigenvalues of AB", []float64{2, 0, 0, 0, 2, 0, 0, 0, 2}, []float64{3, 0, 0, 0, 3, 0, 0, 0, 3}},
	}
	for k := 0; k < 20; k++ {
		cases = append(cases, pair{"random", randSPD3(rng, 10), randSPD3(rng, 10)})
	}
	for k := 0; k < 5; k++ {
		cases = append(cases, pair{"ill-conditioned", randSPD3(rng, 1e5), randSPD3(rng, 1e4)})
	}
	for _, tc := range cases {
		wantP, wantAB := exactBures(t, tc.a, tc.b, 3)
		_, wantBA := exactBures(t, tc.b, tc.a, 3)
		var tab, tba [6]float64
		p := bures3(record3(tc.a), record3(tc.b), true, &tab, &tba)
		if !(math.Abs(p-wantP) <= 1e-11*wantP) {
			t.Errorf("%s: p = %.15g, exact %.15g", tc.name, p, wantP)
		}
		scale := 0.0
		for _, v := range wantAB {
			scale = math.Max(scale, math.Abs(v))
		}
		for k, v := range unpack6(tab) {
			if !(math.Abs(v-wantAB[k]) <= 1e-7*scale) {
				t.Errorf("%s: T^AB[%d] = %.12g, exact %.12g", tc.name, k, v, wantAB[k])
			}
		}
		scale = 0
		for _, v := range wantBA {
			scale = math.Max(scale, math.Abs(v))
		}
		for k, v := range unpack6(tba) {
			if !(math.Abs(v-wantBA[k]) <= 1e-7*scale) {
				t.Errorf("%s: T^BA[%d] = %.12g, exact %.12g", tc.name, k, v, wantBA[k])
			}
		}
	}
}

// TestD3ScaledCopy checks T^{A, cA} = sqrt(c) I (docs/math.md: T A T = B).
func TestD3ScaledCopy(t *testing.T) {
	a := []float64{2, 0.5, 0.1, 0.5, 1, 0.2, 0.1, 0.2, 3}
	b := make([]float64, 9)
	for k := range a {
		b[k] = 4 * a[k]
	}
	var tab, tba [6]float64
	bures3(record3(a), record3(b), true, &tab, &tba)
	want := [6]float64{2, 0, 0, 2, 0, 2}
	for k := range tab {
		if !(math.Abs(tab[k]-want[k]) <= 1e-12) || !(math.Abs(tba[k]-want[k]/4) <= 1e-12) {
			t.Errorf("T^AB = %v, T^BA = %v; want 2 I and I/2", tab, tba)
			break
		}
	}
}

// bures3 returns tr(A^{1/2} B A^{1/2})^{1/2} = p and, when maps is true,
// the symmetric transport maps T^{AB} and T^{BA} (6 unique entries each)
// for the 20-value records x (A) and y (B).
func bures3(x, y []float64, maps bool, tab, tba *[6]float64) float64 {
	var v d3Inv
	v.invariants(x, y)
	p := v.root()
	if maps {
		v.maps(p, tab, tba)
	}
	return p
}

// rank2SPD3 returns a positive semidefinite 3x3 matrix of rank 2.
func rank2SPD3(rng *rand.Rand) []float64 {
	u := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
	v := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
	c := make([]float64, 9)
	for r := 0; r < 3; r++ {
		for q := 0; q < 3; q++ {
			c[r*3+q] = u[r]*u[q] + v[r]*v[q]
		}
	}
	return c
}

// TestD3MapsFastAgainstEigen checks the division-light transport maps
// against the eigendecomposition reference and against the inverse-based
// maps, and that well-conditioned pairs take the fast form (fast = true)
// while ill-conditioned ones may fall back. For a rank-2 B the reference
// itself is only good to about sqrt(machine epsilon) (the square root of
// an eigenvalue that rounding leaves at +-1e-16), so there the 1e-10
// checks are against the inverse-based maps and the identity T A T = B
// (docs/math.md), and the eigen check is 1e-6.
func TestD3MapsFastAgainstEigen(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	type pair struct {
		name string
		a, b []float64
		fast bool    // the fast form must accept it
		ba   bool    // T^{BA} exists (B nonsingular)
		etol float64 // tolerance against the eigen reference
	}
	var cases []pair
	for k := 0; k < 30; k++ {
		cases = append(cases, pair{fmt.Sprintf("random%d", k), randSPD3(rng, 10), randSPD3(rng, 10), true, true, 1e-10})
	}
	for k := 0; k < 10; k++ {
		a := randSPD3(rng, 10)
		b := make([]float64, 9)
		for q := range a {
			b[q] = 2.5*a[q] + 1e-7*rng.NormFloat64()
		}
		b[3], b[6], b[7] = b[1], b[2], b[5]
		cases = append(cases, pair{fmt.Sprintf("near-equal-eigenvalues%d", k), a, b, true, true, 1e-10})
	}
	for k := 0; k < 10; k++ {
		cases = append(cases, pair{fmt.Sprintf("rank2-B%d", k), randSPD3(rng, 10), rank2SPD3(rng), false, false, 1e-6})
	}
	for k := 0; k < 10; k++ {
		cases = append(cases, pair{fmt.Sprintf("ill-conditioned%d", k), randSPD3(rng, 1e5), randSPD3(rng, 1e4), false, true, 1e-10})
	}
	nfast := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var v d3Inv
			v.invariants(record3(tc.a), record3(tc.b))
			p := v.root()
			var fab, fba, rab, rba [6]float64
			ok := v.mapsFast(p, &fab, &fba)
			if tc.fast && !ok {
				t.Fatalf("fast form refused a well-conditioned pair (p = %g)", p)
			}
			if !ok {
				return
			}
			nfast++
			v.maps(p, &rab, &rba)
			check := func(what string, got [6]float64, want []float64, tol float64) {
				scale := 0.0
				for _, w := range want {
					scale = math.Max(scale, math.Abs(w))
				}
				for q, g := range unpack6(got) {
					if !(math.Abs(g-want[q]) <= tol*scale) {
						t.Errorf("%s[%d] = %.15g, want %.15g (|T| %.3g)", what, q, g, want[q], scale)
					}
				}
			}
			_, wab := exactBures(t, tc.a, tc.b, 3)
			check("T^AB vs eigen", fab, wab, tc.etol)
			check("T^AB vs inverse form", fab, unpack6(rab), 1e-10)
			// T^{AB} A T^{AB} = B.
			tm, am := unpack6(fab), tc.a
			tat := make([]float64, 9)
			bscale := 0.0
			for r := 0; r < 3; r++ {
				for c := 0; c < 3; c++ {
					for k := 0; k < 3; k++ {
						for l := 0; l < 3; l++ {
							tat[r*3+c] += tm[r*3+k] * am[k*3+l] * tm[l*3+c]
						}
					}
					bscale = math.Max(bscale, math.Abs(tc.b[r*3+c]))
				}
			}
			for q := range tat {
				if !(math.Abs(tat[q]-tc.b[q]) <= 1e-10*bscale) {
					t.Errorf("(T A T)[%d] = %.15g, B = %.15g", q, tat[q], tc.b[q])
				}
			}
			if tc.ba {
				_, wba := exactBures(t, tc.b, tc.a, 3)
				check("T^BA vs eigen", fba, wba, tc.etol)
			}
		})
	}
	if nfast < 40 {
		t.Errorf("only %d pairs took the fast form", nfast)
	}
}

// TestD3Root4MatchesRoot checks that the four-lane root gives each pair
// the same bits as the one-pair root (the blocking of a row decides which
// one a pair gets, so results would otherwise depend on the thread count).
func TestD3Root4MatchesRoot(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	zero := make([]float64, 9)
	a := randSPD3(rng, 10)
	twice := make([]float64, 9)
	for q := range a {
		twice[q] = 4 * a[q]
	}
	groups := map[string][4][2][]float64{
		"random":            {{randSPD3(rng, 10), randSPD3(rng, 10)}, {randSPD3(rng, 1e5), randSPD3(rng, 10)}, {randSPD3(rng, 10), randSPD3(rng, 1e4)}, {randSPD3(rng, 1), randSPD3(rng, 1)}},
		"degenerate":        {{a, twice}, {a, a}, {zero, a}, {zero, zero}},
		"rank-deficient":    {{rank2SPD3(rng), a}, {a, rank2SPD3(rng)}, {rank2SPD3(rng), rank2SPD3(rng)}, {a, zero}},
		"equal eigenvalues": {{[]float64{2, 0, 0, 0, 2, 0, 0, 0, 2}, []float64{3, 0, 0, 0, 3, 0, 0, 0, 3}}, {a, twice}, {twice, a}, {a, a}},
	}
	for name, g := range groups {
		t.Run(name, func(t *testing.T) {
			var v [4]d3Inv
			var p [4]float64
			for l := range v {
				v[l].invariants(record3(g[l][0]), record3(g[l][1]))
			}
			root4(&v, &p)
			for l := range v {
				var one d3Inv
				one.invariants(record3(g[l][0]), record3(g[l][1]))
				if want := one.root(); math.Float64bits(p[l]) != math.Float64bits(want) {
					t.Errorf("lane %d: root4 %.17g, root %.17g", l, p[l], want)
				}
			}
		})
	}
}

// TestD3KernelAgainstJacobiKernel evaluates stress and gradient of d = 3
// problems with the closed-form kernel and with the exact per-pair
// eigendecomposition kernel (pairs_general.go) on random, near-degenerate
// (scaled copies: all eigenvalues of AB nearly equal) and rank-deficient
// (eps = 0, rank-2 and zero) scales. The scale gradient at a singular
// scale is unbounded (it grows like the inverse square root of the
// smallest eigenvalue), so there only the nonsingular points' scale
// gradients are compared; stress and mean gradients are compared for all.
func TestD3KernelAgainstJacobiKernel(t *testing.T) {
	type gen func(rng *rand.Rand, i int) []float64
	random := func(rng *rand.Rand, i int) []float64 { return randSPD3(rng, 10) }
	base := []float64{2, 0.5, 0.1, 0.5, 1, 0.2, 0.1, 0.2, 3}
	scaled := func(rng *rand.Rand, i int) []float64 {
		c := make([]float64, 9)
		f := 0.5 + rng.Float64()
		for q := range c {
			c[q] = f * base[q]
		}
		c[0] += 1e-9 * rng.Float64()
		return c
	}
	mixed := func(rng *rand.Rand, i int) []float64 {
		switch i % 4 {
		case 0:
			return rank2SPD3(rng)
		case 1:
			return make([]float64, 9)
		case 2:
			return randSPD3(rng, 1e4)
		}
		return randSPD3(rng, 10)
	}
	for _, tc := range []struct {
		name     string
		g        gen
		tol      float64
		singular func(i int) bool // scale i is (numerically) singular
	}{
		{"random", random, 1e-10, nil},
		{"near-degenerate", scaled, 1e-10, nil},
		// Rank-2 scales: the reference's own square roots of eigenvalues
		// rounded near zero limit it to about sqrt(eps).
		{"rank-deficient", mixed, 1e-6, func(i int) bool { return i%4 < 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(17, 19))
			n := 23
			p := &Problem{N: n, Dim: 3, Tau: 0.7, Dist: make([]float64, n*(n-1)/2)}
			for k := range p.Dist {
				p.Dist[k] = 1 + 2*rng.Float64()
			}
			s := State{Means: make([]float64, 3*n), Scales: make([]float64, 9*n)}
			for i := 0; i < n; i++ {
				for k := 0; k < 3; k++ {
					s.Means[3*i+k] = rng.NormFloat64()
				}
				copy(s.Scales[9*i:], tc.g(rng, i))
			}
			eval := func(general bool) (float64, Gradient) {
				d3UseGeneral = general
				defer func() { d3UseGeneral = false }()
				be := NewCPUBackend(1)
				if err := be.Load(p); err != nil {
					t.Fatal(err)
				}
				g := Gradient{Means: make([]float64, 3*n), Scales: make([]float64, 9*n), PerPoint: make([]float64, n)}
				st, err := be.Evaluate(context.Background(), s, &g)
				if err != nil {
					t.Fatal(err)
				}
				return st, g
			}
			got, gg := eval(false)
			want, gw := eval(true)
			if !(math.Abs(got-want) <= tc.tol*want) {
				t.Errorf("stress %.15g, Jacobi kernel %.15g", got, want)
			}
			cmp := func(what string, a, b []float64) {
				scale := 0.0
				for _, v := range b {
					scale = math.Max(scale, math.Abs(v))
				}
				for k := range a {
					if !(math.Abs(a[k]-b[k]) <= tc.tol*scale) {
						t.Errorf("%s[%d] = %.15g, Jacobi kernel %.15g", what, k, a[k], b[k])
					}
				}
			}
			cmp("mean gradient", gg.Means, gw.Means)
			if tc.singular != nil {
				for i := 0; i < n; i++ {
					if tc.singular(i) {
						clear(gg.Scales[9*i : 9*i+9])
						clear(gw.Scales[9*i : 9*i+9])
					}
				}
			}
			cmp("scale gradient", gg.Scales, gw.Scales)
			cmp("per-point stress", gg.PerPoint, gw.PerPoint)
		})
	}
}

// d3Problem builds an n-point d = 3 problem; scale(i) gives the scales,
// weighted adds weights in [0, 2), and points 0 and 1 share their mean.
// (Not their scale too: at W = 0 the stress is not differentiable, and
// W is then rounding noise of order sqrt(eps tr A) in either kernel.)
func d3Problem(n int, seed uint64, weighted bool, scale func(rng *rand.Rand, i int) []float64) (*Problem, State) {
	rng := rand.New(rand.NewPCG(seed, 31))
	p := &Problem{N: n, Dim: 3, Tau: 0.6, Dist: make([]float64, n*(n-1)/2)}
	for k := range p.Dist {
		p.Dist[k] = 0.5 + 2*rng.Float64()
	}
	if weighted {
		p.Weights = make([]float64, len(p.Dist))
		for k := range p.Weights {
			p.Weights[k] = 2 * rng.Float64()
		}
	}
	s := State{Means: make([]float64, 3*n), Scales: make([]float64, 9*n)}
	for i := 0; i < n; i++ {
		for k := 0; k < 3; k++ {
			s.Means[3*i+k] = rng.NormFloat64()
		}
		copy(s.Scales[9*i:], scale(rng, i))
	}
	copy(s.Means[3:6], s.Means[0:3])
	return p, s
}
