package pairkernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestRootLanesAgainstGonum checks RootLanes and RootLanesWide (closed
// form or fallback, lane by lane) against gonum on every case of TestAgainstGonum at d = 4
// and 5, with its tolerances, and that well-conditioned pairs take the
// closed form.
func TestRootLanesAgainstGonum(t *testing.T) {
	for _, d := range []int{4, 5} {
		checkRootLanesGonum(t, d)
	}
}

// checkRootLanesGonum is TestRootLanesAgainstGonum at one d.
func checkRootLanesGonum(t *testing.T, d int) {
	for _, kc := range kcases {
		t.Run(fmt.Sprintf("%s/d=%d", kc.name, d), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(d), 23))
			ws := NewWorkspace(d)
			f, g := make([]float64, d*d), make([]float64, d*d)
			closed, pairs, worstT, worstM := 0, 0, 0.0, 0.0
			const trials = 64
			for trial := 0; trial < trials; trial++ {
				a := spd(rng, kc.la(rng, d))
				var bs [WideLanes][]float64
				for k := range bs {
					bs[k] = spd(rng, kc.lb(rng, d))
				}
				shape := ws.Factor(a, f, g)
				// RootLanes (up to Lanes pairs) and RootLanesWide (up
				// to Wide: the 8-lane kernels where the CPU has them).
				var got [WideLanes]float64
				n := 1 + trial%ws.Wide()
				if trial%2 == 0 {
					n = 1 + trial%Lanes
					t4 := ws.RootLanes(f, shape, (*[Lanes][]float64)(bs[:Lanes]), n)
					copy(got[:], t4[:])
				} else {
					got = ws.RootLanesWide(f, shape, &bs, n)
				}
				pairs += n
				for k := 0; k < n; k++ {
					if ws.ln[k].closed {
						closed++
					}
					tr, tab, tba, lam := reference(t, a, bs[k], d)
					var top float64
					for _, l := range lam {
						top = math.Max(top, math.Abs(l))
					}
					delta := 8 * float64(d) * 0x1p-52 * top
					tol := 1e-10 * tr
					for _, l := range lam {
						tol += delta / (math.Sqrt(math.Abs(l)) + math.Sqrt(delta))
						if l <= 2*ZeroCut*top {
							tol += math.Sqrt(math.Max(l, 0))
						}
					}
					if math.Abs(got[k]-tr) > tol {
						t.Fatalf("trial %d lane %d (closed %v): trace %v, gonum %v (tol %g)", trial, k, ws.ln[k].closed, got[k], tr, tol)
					}
					if ws.ln[k].closed {
						worstT = math.Max(worstT, math.Abs(got[k]-tr)/tr)
					}
					if !kc.maps {
						continue
					}
					s, out := make([]float64, d*d), make([]float64, d*d)
					ws.AddRootLane(k, s, 2)
					ws.AddSandwich(out, g, shape, s, 0.5)
					mirror(out, d)
					e1 := relErr(out, tab)
					clear(out)
					ws.AddInvMapLane(k, out, f, shape, 1)
					mirror(out, d)
					e2 := relErr(out, tba)
					if e1 > kc.mapsTol || e2 > kc.mapsTol {
						t.Errorf("trial %d lane %d (closed %v): T^AB error %g, T^BA error %g", trial, k, ws.ln[k].closed, e1, e2)
					}
					if ws.ln[k].closed {
						worstM = math.Max(worstM, math.Max(e1, e2))
					}
				}
			}
			t.Logf("%d of %d pairs closed; worst relative error there: trace %.2g, maps %.2g", closed, pairs, worstT, worstM)
			if (kc.name == "random" || kc.name == "isotropic" || kc.name == "huge" || kc.name == "tiny-huge") && closed == 0 {
				t.Error("no pair took the closed form")
			}
		})
	}
}

// TestRootLanesLanes checks that a lane's RootLanes results do not
// depend on the other lanes or on n (the property that makes the MDS
// results the same for any thread count), at d = 4 and at another d.
func TestRootLanesLanes(t *testing.T) {
	for _, d := range []int{4, 5} {
		rng := rand.New(rand.NewPCG(uint64(d), 29))
		ws, ref := NewWorkspace(d), NewWorkspace(d)
		a := spd(rng, uniformLam(0.2, 2)(rng, d))
		f, g := make([]float64, d*d), make([]float64, d*d)
		sh := ws.Factor(a, f, g)
		gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), logLam(1e-6, 1), constLam(1.5), rankLam(1)}
		for n := 1; n <= Lanes; n++ {
			var bs [Lanes][]float64
			for k := 0; k < n; k++ {
				bs[k] = spd(rng, gens[(k+n)%len(gens)](rng, d))
			}
			got := ws.RootLanes(f, sh, &bs, n)
			for k := 0; k < n; k++ {
				want := ref.RootLanes(f, sh, &[Lanes][]float64{bs[k]}, 1)[0]
				s1, s2 := make([]float64, d*d), make([]float64, d*d)
				ws.AddRootLane(k, s1, 0.7)
				ref.AddRootLane(0, s2, 0.7)
				ws.AddInvMapLane(k, s1, f, sh, -0.3)
				ref.AddInvMapLane(0, s2, f, sh, -0.3)
				if math.Float64bits(got[k]) != math.Float64bits(want) {
					t.Fatalf("d=%d n=%d lane %d: trace %v, alone %v", d, n, k, got[k], want)
				}
				for q := range s1 {
					if math.Float64bits(s1[q]) != math.Float64bits(s2[q]) {
						t.Fatalf("d=%d n=%d lane %d: maps differ at %d: %v, %v", d, n, k, q, s1[q], s2[q])
					}
				}
			}
		}
	}
}

// TestRootLanesFiniteDifferences checks the closed form's maps as
// derivatives: d tr M^{1/2} / dA = T^{AB} / 2, d / dB = T^{BA} / 2, by
// central differences of the closed-form trace itself.
func TestRootLanesFiniteDifferences(t *testing.T) {
	for _, d := range []int{4, 5} {
		rng := rand.New(rand.NewPCG(4, 31))
		ws := NewWorkspace(d)
		f, g := make([]float64, d*d), make([]float64, d*d)
		for trial := 0; trial < 8; trial++ {
			a := spd(rng, uniformLam(0.3, 2)(rng, d))
			b := spd(rng, uniformLam(0.3, 2)(rng, d))
			e := spd(rng, uniformLam(-1, 1)(rng, d))
			trace := func(a, b []float64) float64 {
				sh := ws.Factor(a, f, g)
				t := ws.RootLanes(f, sh, &[Lanes][]float64{b}, 1)
				return t[0]
			}
			shift := func(x []float64, h float64) []float64 {
				y := append([]float64(nil), x...)
				for k := range y {
					y[k] += h * e[k]
				}
				return y
			}
			const h = 1e-5
			da := (trace(shift(a, h), b) - trace(shift(a, -h), b)) / (2 * h)
			db := (trace(a, shift(b, h)) - trace(a, shift(b, -h))) / (2 * h)
			sh := ws.Factor(a, f, g)
			ws.RootLanes(f, sh, &[Lanes][]float64{b}, 1)
			if !ws.ln[0].closed {
				t.Fatalf("trial %d: a well-conditioned pair fell back", trial)
			}
			s, tab, tba := make([]float64, d*d), make([]float64, d*d), make([]float64, d*d)
			ws.AddRootLane(0, s, 1)
			ws.AddSandwich(tab, g, sh, s, 1)
			mirror(tab, d)
			ws.AddInvMapLane(0, tba, f, sh, 1)
			mirror(tba, d)
			var wa, wb float64
			for k := range e {
				wa += 0.5 * tab[k] * e[k]
				wb += 0.5 * tba[k] * e[k]
			}
			if math.Abs(wa-da) > 1e-8*(1+math.Abs(da)) || math.Abs(wb-db) > 1e-8*(1+math.Abs(db)) {
				t.Errorf("trial %d: dA %v vs FD %v, dB %v vs FD %v", trial, wa, da, wb, db)
			}
		}
	}
}

// TestRootLanesNaN checks that a non-finite M falls back (and so gives
// NaN, as EigenLanes does) rather than a silent number.
func TestRootLanesNaN(t *testing.T) {
	for _, d := range []int{4, 5} {
		ws := NewWorkspace(d)
		a := make([]float64, d*d)
		for k := 0; k < d; k++ {
			a[k*d+k] = 1
		}
		f, g := make([]float64, d*d), make([]float64, d*d)
		sh := ws.Factor(a, f, g)
		for _, bad := range []float64{math.NaN(), math.Inf(1)} {
			b := append([]float64(nil), a...)
			b[1], b[4] = bad, bad
			got := ws.RootLanes(f, sh, &[Lanes][]float64{a, b}, 2)
			if ws.ln[1].closed || !math.IsNaN(got[1]) || !ws.ln[0].closed || math.Abs(got[0]-float64(d)) > 1e-15*float64(d) {
				t.Errorf("d=%d %v: got %v (closed %v, %v)", d, bad, got, ws.ln[0].closed, ws.ln[1].closed)
			}
		}
	}
}

// TestRootLanesConditioning checks, across conditionings from well to
// badly conditioned (A and B with eigenvalues spread over 1 to 1e-5),
// that the pairs the closed form takes are within 1e-12 (trace) and
// 1e-10 (T^{BA}) relative of gonum, and that the closed form is taken
// for the well-conditioned ones (all at spread 0.1, M's condition at most
// 1e2; most at 0.01).
func TestRootLanesConditioning(t *testing.T) {
	for _, d := range []int{4, 5} {
		for _, lo := range []float64{1e-1, 1e-2, 1e-3, 1e-4, 1e-5} {
			rng := rand.New(rand.NewPCG(4, 99))
			ws := NewWorkspace(d)
			f, g := make([]float64, d*d), make([]float64, d*d)
			closed := 0
			for trial := 0; trial < 200; trial++ {
				a := spd(rng, logLam(lo, 1)(rng, d))
				b := spd(rng, logLam(lo, 1)(rng, d))
				sh := ws.Factor(a, f, g)
				got := ws.RootLanes(f, sh, &[Lanes][]float64{b}, 1)[0]
				if !ws.ln[0].closed {
					continue
				}
				closed++
				tr, _, tba, _ := reference(t, a, b, d)
				out := make([]float64, d*d)
				ws.AddInvMapLane(0, out, f, sh, 1)
				mirror(out, d)
				if e := math.Abs(got-tr) / tr; e > 1e-12 {
					t.Errorf("d=%d spread %g trial %d: trace relative error %g", d, lo, trial, e)
				}
				if e := relErr(out, tba); e > 1e-10 {
					t.Errorf("d=%d spread %g trial %d: T^BA relative error %g", d, lo, trial, e)
				}
			}
			if (lo == 1e-1 && closed < 200) || (lo == 1e-2 && closed < 150) {
				t.Errorf("d=%d spread %g: only %d of 200 pairs closed", d, lo, closed)
			}
		}
	}
}

// TestAddPairLane checks AddPairLane against AddRootLane, AddInvMapLane
// and the diagonal added after them, bit for bit, on closed and
// fallen-back lanes at d = 4 and 5 and at d = 6 (the eigensolver).
func TestAddPairLane(t *testing.T) {
	for _, d := range []int{4, 5, 6} {
		rng := rand.New(rand.NewPCG(uint64(d), 43))
		ws := NewWorkspace(d)
		f, g := make([]float64, d*d), make([]float64, d*d)
		gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), logLam(1e-7, 1), rankLam(1)}
		seen := map[bool]bool{}
		for trial := 0; trial < 20; trial++ {
			a := spd(rng, uniformLam(0.2, 2)(rng, d))
			sh := ws.Factor(a, f, g)
			var bs [WideLanes][]float64
			w := ws.Wide()
			for k := 0; k < w; k++ {
				bs[k] = spd(rng, gens[(trial+k)%len(gens)](rng, d))
			}
			ws.RootLanesWide(f, sh, &bs, w)
			for k := 0; k < w; k++ {
				seen[ws.ln[k].closed] = true
				c := rng.NormFloat64()
				s1, o1 := make([]float64, d*d), make([]float64, d*d)
				for q := range s1 {
					s1[q], o1[q] = rng.NormFloat64(), rng.NormFloat64()
				}
				s2, o2 := append([]float64(nil), s1...), append([]float64(nil), o1...)
				ws.AddPairLane(k, s1, o1, f, sh, c)
				ws.AddRootLane(k, s2, c)
				ws.AddInvMapLane(k, o2, f, sh, -c)
				for q := 0; q < d; q++ {
					o2[q*d+q] += c
				}
				for q := range s1 {
					if math.Float64bits(s1[q]) != math.Float64bits(s2[q]) || math.Float64bits(o1[q]) != math.Float64bits(o2[q]) {
						t.Fatalf("d=%d trial %d lane %d (closed %v): entry %d: %v %v, separately %v %v", d, trial, k, ws.ln[k].closed, q, s1[q], o1[q], s2[q], o2[q])
					}
				}
			}
		}
		if d <= 5 && !(seen[true] && seen[false]) {
			t.Errorf("d=%d: closed and fallen-back lanes not both seen: %v", d, seen)
		}
	}
}
