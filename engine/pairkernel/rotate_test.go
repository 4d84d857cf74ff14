package pairkernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRotateMatchesRef checks the selected rotation sweep (AVX2 where the
// CPU has it) against rotateRef bit for bit, for every d up to 21 and
// every (l, m).
func TestRotateMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for d := 1; d <= 21; d++ {
		for l := 0; l < d; l++ {
			for m := l; m < d; m++ {
				w := make([]float64, d*d)
				for k := range w {
					w[k] = rng.NormFloat64()
				}
				cs, ss := make([]float64, d), make([]float64, d)
				for k := range cs {
					a := rng.Float64() * 2 * math.Pi
					cs[k], ss[k] = math.Cos(a), math.Sin(a)
				}
				ref := append([]float64(nil), w...)
				rotateRef(ref, d, l, m, cs, ss)
				rotate(w, d, l, m, cs, ss)
				for k := range w {
					if math.Float64bits(w[k]) != math.Float64bits(ref[k]) {
						t.Fatalf("d=%d l=%d m=%d: w[%d] = %v, reference %v (avx2 %v)", d, l, m, k, w[k], ref[k], useAVX2)
					}
				}
			}
		}
	}
}
