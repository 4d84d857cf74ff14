//go:build !purego

package pairkernel

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestSoAAVX2 checks the structure-of-arrays kernels in AVX2 (4 lanes)
// and AVX-512 (8 lanes) against their Go versions: tred2, the QL, the
// scaling of M, the roots and the lane reader to the bit (up to the sign of zeros), the
// products (forming M, M^{1/2}, T^{BA}) to 1e-14 relative (they fuse
// multiply-adds), on random, isotropic, near-singular and rank-deficient
// lanes, and the layout of qlState that the generator assumes.
func TestSoAAVX2(t *testing.T) {
	var st qlState
	if unsafe.Offsetof(st.m) != 408 || unsafe.Offsetof(st.act) != 536 || unsafe.Offsetof(st.iter) != 856 || unsafe.Offsetof(st.rows) != 920 || unsafe.Offsetof(st.tst1) != 936 || unsafe.Offsetof(st.ok) != 1000 {
		t.Fatal("qlState's layout changed: rerun soa_amd64_gen.py and update this test")
	}
	if !useFMA {
		t.Skip("no AVX2+FMA")
	}
	avx512 := useAVX512
	defer func() { useAVX2, useFMA, useAVX512 = true, true, avx512 }()
	widths := []int{4}
	if avx512 {
		widths = append(widths, 8)
	}
	for _, L := range widths {
		testSoAKernels(t, L)
	}
}

// testSoAKernels is TestSoAAVX2 for the kernels of L lanes.
func testSoAKernels(t *testing.T, L int) {
	kernels := func(on bool) {
		if L == 4 {
			useAVX2, useFMA = on, on
		} else {
			useAVX512 = on
		}
	}
	gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), logLam(1e-8, 1), constLam(1.5), rankLam(1)}
	same := func(x, y []float64) int {
		for k := range x {
			if x[k] != y[k] && !(math.IsNaN(x[k]) && math.IsNaN(y[k])) {
				return k
			}
		}
		return -1
	}
	for _, d := range []int{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 32} {
		rng := rand.New(rand.NewPCG(uint64(d), 43))
		x, y := newSoaEig(d, L), newSoaEig(d, L)
		// A full F and its lower triangle (the Cholesky factor's shape).
		fm, flo := make([]float64, d*d), make([]float64, d*d)
		for r := 0; r < d; r++ {
			for q := 0; q < d; q++ {
				fm[r*d+q] = rng.NormFloat64()
			}
			copy(flo[r*d:r*d+r+1], fm[r*d:r*d+r+1])
		}
		for trial := 0; trial < 6; trial++ {
			for k := 0; k < L; k++ {
				m := spd(rng, gens[(trial+k)%len(gens)](rng, d))
				for e := range m {
					x.w[e*L+k] = m[e]
				}
			}
			in := append([]float64(nil), x.w...)
			for _, vectors := range []bool{false, true} {
				copy(x.w, in)
				copy(y.w, in)
				kernels(false)
				tred2L(x, d, vectors)
				kernels(true)
				tred2L(y, d, vectors)
				for _, p := range [][2][]float64{{x.w, y.w}, {x.diag, y.diag}, {x.off, y.off}} {
					if k := same(p[0], p[1]); k >= 0 {
						t.Fatalf("L=%d d=%d trial %d vectors %v: tred2 differs at %d: Go %v, asm %v", L, d, trial, vectors, k, p[0][k], p[1][k])
					}
				}
				var run [wideLanes]bool
				for k := 0; k < L; k++ {
					run[k] = true
				}
				kernels(false)
				okx := tqlSoA(x, d, &run, vectors)
				kernels(true)
				oky := tqlSoA(y, d, &run, vectors)
				if okx != oky {
					t.Fatalf("L=%d d=%d trial %d vectors %v: converged lanes %v (Go), %v (asm)", L, d, trial, vectors, okx, oky)
				}
				for _, p := range [][2][]float64{{x.w, y.w}, {x.diag, y.diag}} {
					if k := same(p[0], p[1]); k >= 0 {
						t.Fatalf("L=%d d=%d trial %d vectors %v: QL differs at %d: Go %v, asm %v", L, d, trial, vectors, k, p[0][k], p[1][k])
					}
				}
			}
			// M = F^T B F from the interleaved B (in: symmetric), F lower
			// (its strict upper triangle zero) or full.
			for _, lower := range []bool{true, false} {
				fl := fm
				if lower {
					fl = flo
				}
				formSoA(L, x.root, x.u, in, fl, d, lower)
				formL(L, y.root, y.u, in, fl, d, lower)
				for r := 0; r < d; r++ {
					for c := r; c < d; c++ {
						for k := 0; k < L; k++ {
							e := (r*d+c)*L + k
							if math.Abs(x.root[e]-y.root[e]) > 1e-13*float64(d)*(1+math.Abs(x.root[e])) {
								t.Fatalf("L=%d d=%d lower %v: M [%d][%d] lane %d: Go %v, asm %v", L, d, lower, r, c, k, x.root[e], y.root[e])
							}
						}
					}
				}
			}
			// The traces and the scaling of M (x.root, just formed), and
			// the roots of eigenvalues (some negative, some below the
			// cut), bit for bit.
			a1, a2 := append([]float64(nil), x.root...), append([]float64(nil), x.root...)
			tr1, tr2 := make([]float64, L), make([]float64, L)
			kernels(false)
			scaleL(L, a1, tr1, d)
			kernels(true)
			scaleL(L, a2, tr2, d)
			if k := same(a1, a2); k >= 0 || same(tr1, tr2) >= 0 {
				t.Fatalf("L=%d d=%d: scale differs at %d", L, d, k)
			}
			lam := make([]float64, d*L)
			for q := range lam {
				lam[q] = rng.Float64() - 0.1
				if q%5 == 0 {
					lam[q] = 1e-17
				}
			}
			f1, h1, t1 := make([]float64, d*L), make([]float64, d*L), make([]float64, L)
			f2, h2, t2 := make([]float64, d*L), make([]float64, d*L), make([]float64, L)
			kernels(false)
			rootsL(L, lam, tr1, f1, h1, t1, d)
			kernels(true)
			rootsL(L, lam, tr1, f2, h2, t2, d)
			for _, p := range [][2][]float64{{f1, f2}, {h1, h2}, {t1, t2}} {
				if k := same(p[0], p[1]); k >= 0 {
					t.Fatalf("L=%d d=%d: roots differ at %d: Go %v, asm %v", L, d, k, p[0][k], p[1][k])
				}
			}
			// A lane's upper triangle added to a plain one, bit for bit.
			for k := 0; k < L; k++ {
				s1, s2 := make([]float64, d*d), make([]float64, d*d)
				for q := range s1 {
					s1[q] = rng.NormFloat64()
				}
				copy(s2, s1)
				addSoALaneGo(s1, x.root, d, L, k, -0.7)
				addSoALane(s2, x.root, d, L, k, -0.7)
				if q := same(s1, s2); q >= 0 {
					t.Fatalf("L=%d d=%d lane %d: addSoALane differs at %d: Go %v, asm %v", L, d, k, q, s1[q], s2[q])
				}
			}
			for k := range x.fv {
				x.fv[k] = rng.Float64()
			}
			for _, lower := range []bool{true, false} {
				spectralSoA(L, x.root, x.w, x.fv, d)
				spectralL(L, y.root, x.w, x.fv, d)
				fl := fm
				if lower {
					fl = flo
				}
				mulFTSoA(L, x.u, x.w, fl, d, lower)
				mulFTL(L, y.u, x.w, fl, d, lower)
				for r := 0; r < d; r++ {
					for c := 0; c < d; c++ {
						for k := 0; k < L; k++ {
							e := (r*d+c)*L + k
							if c >= r && math.Abs(x.root[e]-y.root[e]) > 1e-14*float64(d) {
								t.Fatalf("L=%d d=%d: spectral [%d][%d] lane %d: Go %v, asm %v", L, d, r, c, k, x.root[e], y.root[e])
							}
							if math.Abs(x.u[e]-y.u[e]) > 1e-14*float64(d)*(1+math.Abs(x.u[e])) {
								t.Fatalf("L=%d d=%d lower %v: U [%d][%d] lane %d: Go %v, asm %v", L, d, lower, r, c, k, x.u[e], y.u[e])
							}
						}
					}
				}
			}
		}
	}
}
