package hypernymy

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkHypEigRows times the eigendecomposition with vectors of the
// loss kernel (tred2 + tql2) on random Gram matrices Y Y^T + 1e-3 I, with
// the AVX2 kernels and with the plain loops.
func BenchmarkHypEigRows(b *testing.B) {
	for _, d := range []int{5, 10, 16} {
		rng := rand.New(rand.NewPCG(1, uint64(d)))
		const k = 64
		ms := make([][]float64, k)
		for j := range ms {
			y := make([]float64, d*d)
			for i := range y {
				y[i] = rng.NormFloat64()
			}
			m := make([]float64, d*d)
			hypMul(m, y, y, d) // Y Y (not symmetric)
			for r := 0; r < d; r++ {
				for q := 0; q < r; q++ {
					m[q*d+r] = m[r*d+q]
				}
				m[r*d+r] += float64(d)
			}
			ms[j] = m
		}
		for _, avx := range []bool{false, true} {
			if avx && !hypTrainAVX2 {
				continue
			}
			b.Run(fmt.Sprintf("d=%d/avx=%v", d, avx), func(b *testing.B) {
				old := hypTrainAVX2
				hypTrainAVX2 = avx
				defer func() { hypTrainAVX2 = old }()
				e := newHypEig(d)
				w, lam, m := make([]float64, d*d), make([]float64, d), make([]float64, d*d)
				for i := 0; i < b.N; i++ {
					copy(m, ms[i%k])
					e.rows(m, w, lam)
				}
			})
		}
	}
}
