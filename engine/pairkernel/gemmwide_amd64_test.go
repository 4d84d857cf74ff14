//go:build !purego

package pairkernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// gemmWideKernels are the fully unrolled AVX-512 kernels of Gemm: the
// dimension each takes and the switch that enables it.
var gemmWideKernels = []struct {
	d  int
	on *bool
}{{10, &useGemm10}, {12, &useGemm12}}

// TestGemmWideMatchesAVX2 checks the AVX-512 kernels at d = 10 (gemm10,
// the hypernymy loss kernel's) and d = 12 (gemm12, the word kernel's)
// against gemmAVX2, which each must equal bit for bit, and against the
// plain loops of gemmRef, for every flag combination and both layouts
// of a, on random inputs with exact zeros and negative zeros among them
// (the triangular factors' zeros), with guard cells after c.
func TestGemmWideMatchesAVX2(t *testing.T) {
	for _, k := range gemmWideKernels {
		t.Run(fmt.Sprintf("d=%d", k.d), func(t *testing.T) {
			if !GemmAccelerated() || !*k.on {
				t.Skip("no AVX-512 kernel on this machine or build")
			}
			defer func(u bool) { *k.on = u }(*k.on)
			d := k.d
			dd := d * d
			rng := rand.New(rand.NewPCG(uint64(d), uint64(d)))
			for round := 0; round < 20; round++ {
				a, b := make([]float64, dd), make([]float64, dd)
				for i := range a {
					a[i], b[i] = rng.NormFloat64(), rng.NormFloat64()
					switch rng.IntN(8) {
					case 0:
						a[i] = 0
					case 1:
						b[i] = math.Copysign(0, -1)
					}
				}
				for flags := GemmFlags(0); flags < 8; flags++ {
					for _, tr := range []bool{false, true} {
						ars, aps := d, 1
						if tr {
							ars, aps = 1, d
						}
						got, avx, ref := make([]float64, dd+5), make([]float64, dd+5), make([]float64, dd+5)
						for i := range got {
							got[i] = rng.NormFloat64()
							if i < dd && rng.IntN(8) == 0 {
								got[i] = math.Copysign(0, -1)
							}
							avx[i], ref[i] = got[i], got[i]
						}
						*k.on = true
						if !Gemm(got, a, b, d, ars, aps, flags) {
							t.Fatal("Gemm declined")
						}
						*k.on = false
						Gemm(avx, a, b, d, ars, aps, flags)
						gemmRef(ref, a, b, d, ars, aps, flags)
						for i := range got {
							if math.Float64bits(got[i]) != math.Float64bits(avx[i]) {
								t.Fatalf("flags=%d transposed=%v: c[%d] = %v, gemmAVX2 gives %v", flags, tr, i, got[i], avx[i])
							}
							tol := 1e-13 * (1 + math.Abs(ref[i])) * float64(d)
							if i >= dd {
								tol = 0 // guard cells
							}
							if math.Abs(got[i]-ref[i]) > tol {
								t.Fatalf("flags=%d transposed=%v: c[%d] = %v, want %v", flags, tr, i, got[i], ref[i])
							}
						}
					}
				}
			}
		})
	}
}

// BenchmarkGemmWide times Gemm at d = 10 and 12 in the loss kernels'
// variants (wide: the AVX-512 kernel where the machine has it; avx2:
// gemmAVX2), per call.
func BenchmarkGemmWide(b *testing.B) {
	if !GemmAccelerated() {
		b.Skip("no AVX2+FMA kernel")
	}
	for _, k := range gemmWideKernels {
		d := k.d
		rng := rand.New(rand.NewPCG(uint64(d), 1))
		x, y, c := make([]float64, d*d), make([]float64, d*d), make([]float64, d*d)
		for i := range x {
			x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		saved := *k.on
		for _, v := range []struct {
			name string
			on   bool
		}{{"wide", saved}, {"avx2", false}} {
			*k.on = v.on
			b.Run(fmt.Sprintf("d=%d/%s", d, v.name), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					Gemm(c, x, y, d, d, 1, GemmUpper)
					Gemm(c, x, y, d, d, 1, GemmAcc)
					Gemm(c, x, y, d, 1, d, GemmAcc)
					Gemm(c, x, y, d, 1, d, 0)
					Gemm(c, x, y, d, 1, d, GemmLower)
					Gemm(c, x, y, d, d, 1, GemmAcc)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(6*b.N), "ns/call")
			})
		}
		*k.on = saved
	}
}
