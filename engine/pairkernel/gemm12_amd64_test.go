//go:build !purego

package pairkernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGemm12MatchesAVX2 is TestGemm10MatchesAVX2 at d = 12: gemm12 must
// equal gemmAVX2 bit for bit and the plain loops of gemmRef within
// rounding, for every flag combination and both layouts of a, with exact
// zeros, negative zeros and guard cells after c.
func TestGemm12MatchesAVX2(t *testing.T) {
	if !GemmAccelerated() || !useGemm12 {
		t.Skip("no AVX-512 kernel on this machine or build")
	}
	defer func(u bool) { useGemm12 = u }(useGemm12)
	const d, dd = 12, 144
	rng := rand.New(rand.NewPCG(12, 12))
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
				useGemm12 = true
				if !Gemm(got, a, b, d, ars, aps, flags) {
					t.Fatal("Gemm declined")
				}
				useGemm12 = false
				Gemm(avx, a, b, d, ars, aps, flags)
				gemmRef(ref, a, b, d, ars, aps, flags)
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(avx[i]) {
						t.Fatalf("flags=%d transposed=%v: c[%d] = %v, gemmAVX2 gives %v", flags, tr, i, got[i], avx[i])
					}
					tol := 1e-13 * (1 + math.Abs(ref[i])) * d
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
}

// BenchmarkGemm12 times Gemm at d = 12 in the word kernel's variants
// (gemm12: the AVX-512 kernel where the machine has it; avx2: gemmAVX2),
// per call.
func BenchmarkGemm12(b *testing.B) {
	if !GemmAccelerated() {
		b.Skip("no AVX2+FMA kernel")
	}
	const d = 12
	rng := rand.New(rand.NewPCG(12, 1))
	x, y, c := make([]float64, d*d), make([]float64, d*d), make([]float64, d*d)
	for i := range x {
		x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	defer func(u bool) { useGemm12 = u }(useGemm12)
	for _, k := range []struct {
		name string
		on   bool
	}{{"gemm12", useGemm12}, {"avx2", false}} {
		useGemm12 = k.on
		b.Run(k.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Gemm(c, x, y, d, d, 1, GemmUpper)
				Gemm(c, x, y, d, d, 1, GemmAcc)
				Gemm(c, x, y, d, 1, d, 0)
				Gemm(c, x, y, d, d, 1, 0)
				Gemm(c, x, y, d, d, 1, GemmLower)
				Gemm(c, x, y, d, 1, d, GemmAcc)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(6*b.N), "ns/call")
		})
	}
}
