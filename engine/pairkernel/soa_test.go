package pairkernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSoASettles checks that the structure-of-arrays solver settles the
// lanes it should (random, isotropic, near-singular and badly scaled
// matrices at d = 5..20 and 32, alone or with other lanes) and leaves
// the others (zero, non-finite) with M formed for the per-lane solver,
// with the same traces as the per-lane solver to 1e-12 relative.
func TestSoASettles(t *testing.T) {
	soa := useSoA
	defer func() { useSoA = soa }()
	gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), constLam(1.5), logLam(1e-6, 1), scaled(uniformLam(0.1, 2), 1e-100), scaled(uniformLam(0.1, 2), 1e100)}
	for _, d := range []int{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 32} {
		rng := rand.New(rand.NewPCG(uint64(d), 41))
		ws, ref := NewWorkspace(d), NewWorkspace(d)
		a := spd(rng, uniformLam(0.2, 2)(rng, d))
		f, g := make([]float64, d*d), make([]float64, d*d)
		sh := ws.Factor(a, f, g)
		for trial := 0; trial < 8; trial++ {
			var bs [wideLanes][]float64
			var use [wideLanes]bool
			var want [wideLanes]float64
			for k := 0; k < Lanes; k++ {
				bs[k] = spd(rng, gens[(trial+k)%len(gens)](rng, d))
				use[k] = true
				useSoA = false
				want[k] = ref.Eigen(f, sh, bs[k])
			}
			bad := trial % Lanes
			if trial >= Lanes {
				bs[bad] = make([]float64, d*d) // M = 0: trace 0
				if trial >= Lanes+2 {
					bs[bad][d+1] = math.NaN()
				}
			}
			var tr [wideLanes]float64
			ws.eigenSoA(ws.soa, f, sh, &bs, &use, &tr)
			for k := 0; k < Lanes; k++ {
				if trial >= Lanes && k == bad {
					if !use[k] {
						t.Fatalf("d=%d trial %d: lane %d (zero or NaN M) settled, trace %v", d, trial, k, tr[k])
					}
					continue
				}
				if use[k] {
					t.Fatalf("d=%d trial %d: lane %d not settled", d, trial, k)
				}
				if math.Abs(tr[k]-want[k]) > 1e-12*want[k] {
					t.Fatalf("d=%d trial %d lane %d: trace %v, per-lane solver %v", d, trial, k, tr[k], want[k])
				}
			}
		}
	}
}

// TestRootLanesWide checks every lane of RootLanesWide (n = 1..8 pairs,
// a zero and a non-finite matrix among them) against Eigen on its own:
// on the AVX-512 kernels the same trace to the bit (the kernels of 4 and
// 8 lanes do the same operations), on the Go kernels to 1e-13 (they form
// M without fused multiply-adds, the assembly with); the maps to 1e-13
// (1e-9 on the Go kernels: M's conditioning reaches 1e6 here).
func TestRootLanesWide(t *testing.T) {
	// The structure-of-arrays solver (d = 5 has its closed form in front).
	defer func(c bool) { useClosed5 = c }(useClosed5)
	useClosed5 = false
	soa, wide, avx512 := useSoA, useWide, useAVX512
	defer func() { useSoA, useWide, useAVX512 = soa, wide, avx512 }()
	paths := []bool{false}
	if avx512 {
		paths = append(paths, true)
	}
	for _, asm := range paths {
		useSoA, useWide, useAVX512 = true, true, asm
		for _, d := range []int{5, 6, 10, 17, 20} {
			rng := rand.New(rand.NewPCG(uint64(d), 47))
			ws, ref := NewWorkspace(d), NewWorkspace(d)
			if ws.Wide() != WideLanes {
				t.Fatalf("d=%d: Wide %d", d, ws.Wide())
			}
			a := spd(rng, uniformLam(0.2, 2)(rng, d))
			f, g := make([]float64, d*d), make([]float64, d*d)
			sh := ws.Factor(a, f, g)
			gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), logLam(1e-6, 1), constLam(1.5), rankLam(1), scaled(uniformLam(0.1, 2), 1e100)}
			for n := 1; n <= WideLanes; n++ {
				var bs [WideLanes][]float64
				for k := 0; k < n; k++ {
					bs[k] = spd(rng, gens[(k+n)%len(gens)](rng, d))
				}
				if n >= 6 {
					bs[5] = make([]float64, d*d)
				}
				if n == WideLanes {
					bs[6][1] = math.NaN()
				}
				got := ws.RootLanesWide(f, sh, &bs, n)
				for k := 0; k < n; k++ {
					want := ref.Eigen(f, sh, bs[k])
					same := math.Float64bits(got[k]) == math.Float64bits(want) || (math.IsNaN(got[k]) && math.IsNaN(want))
					if !same && (asm || !(math.Abs(got[k]-want) <= 1e-13*want)) {
						t.Fatalf("asm %v d=%d n=%d lane %d: trace %v, Eigen %v", asm, d, n, k, got[k], want)
					}
					if math.IsNaN(want) {
						continue
					}
					s1, s2 := make([]float64, d*d), make([]float64, d*d)
					ws.AddRootLane(k, s1, 0.7)
					ref.AddRoot(s2, 0.7)
					ws.AddInvMapLane(k, s1, f, sh, -0.3)
					ref.AddInvMap(s2, f, sh, -0.3)
					var top float64
					for _, x := range s2 {
						top = math.Max(top, math.Abs(x))
					}
					tol := 1e-13
					if !asm {
						// M's rounding differs: T^{BA} moves by it times
						// M's conditioning (up to 1e6 here).
						tol = 1e-9
					}
					for q := range s1 {
						if math.Abs(s1[q]-s2[q]) > tol*top {
							t.Fatalf("asm %v d=%d n=%d lane %d: maps differ at %d: %v, %v", asm, d, n, k, q, s1[q], s2[q])
						}
					}
				}
			}
		}
	}
}

// TestSymEigenLanesWide checks every lane of SymEigenLanesWide (n = 1..8,
// a non-finite matrix among them) against SymEigen on its own, bit for
// bit, on the Go kernels and, where the CPU has them, the AVX-512 ones.
func TestSymEigenLanesWide(t *testing.T) {
	soa, wide, avx512 := useSoA, useWide, useAVX512
	defer func() { useSoA, useWide, useAVX512 = soa, wide, avx512 }()
	paths := []bool{false}
	if avx512 {
		paths = append(paths, true)
	}
	for _, asm := range paths {
		useSoA, useWide, useAVX512 = true, true, asm
		for _, d := range []int{5, 9, 16} {
			rng := rand.New(rand.NewPCG(uint64(d), 53))
			ws, ref := NewWorkspace(d), NewWorkspace(d)
			gens := []func(*rand.Rand, int) []float64{uniformLam(-1, 2), constLam(2), logLam(1e-8, 1), rankLam(1), scaled(uniformLam(0.1, 2), 1e-100)}
			for n := 1; n <= WideLanes; n++ {
				var w, lam [WideLanes][]float64
				var want, wl [WideLanes][]float64
				for k := 0; k < n; k++ {
					a := spd(rng, gens[(k+n)%len(gens)](rng, d))
					if n == WideLanes && k == 3 {
						a[2] = math.NaN()
					}
					w[k], want[k] = append([]float64(nil), a...), append([]float64(nil), a...)
					lam[k], wl[k] = make([]float64, d), make([]float64, d)
				}
				ok := ws.SymEigenLanesWide(&w, &lam, n)
				for k := 0; k < n; k++ {
					okRef := ref.SymEigen(want[k], wl[k])
					if ok[k] != okRef {
						t.Fatalf("asm %v d=%d n=%d lane %d: ok %v, SymEigen %v", asm, d, n, k, ok[k], okRef)
					}
					if !ok[k] {
						continue
					}
					for q := range w[k] {
						if math.Float64bits(w[k][q]) != math.Float64bits(want[k][q]) {
							t.Fatalf("asm %v d=%d n=%d lane %d: vectors differ at %d: %v, %v", asm, d, n, k, q, w[k][q], want[k][q])
						}
					}
					for q := range lam[k] {
						if math.Float64bits(lam[k][q]) != math.Float64bits(wl[k][q]) {
							t.Fatalf("asm %v d=%d n=%d lane %d: eigenvalue %d: %v, %v", asm, d, n, k, q, lam[k][q], wl[k][q])
						}
					}
				}
			}
		}
	}
}
