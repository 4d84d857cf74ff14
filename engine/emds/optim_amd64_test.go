//go:build amd64 && !purego

package emds

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAdamUpdateAVX2MatchesRef checks that the AVX2 Adam update gives the
// plain loop's bits for lengths 0..19 (masked tails of every length),
// with guard cells after the vectors that must stay untouched.
func TestAdamUpdateAVX2MatchesRef(t *testing.T) {
	if !adamHasAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(15, 5))
	c := [6]float64{0.9, 1 - 0.9, 0.999, 1 - 0.999, 0.01, AdamEps}
	for n := 0; n < 20; n++ {
		mk := func() []float64 {
			s := make([]float64, n+3)
			for i := range s {
				s[i] = rng.NormFloat64()
			}
			return s
		}
		x, g, m, v := mk(), mk(), mk(), mk()
		for i := range v {
			v[i] = math.Abs(v[i])
		}
		x2, m2, v2 := append([]float64(nil), x...), append([]float64(nil), m...), append([]float64(nil), v...)
		adamUpdate(x[:n], g[:n], m[:n], v[:n], &c)
		adamUpdateRef(x2[:n], g[:n], m2[:n], v2[:n], &c)
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(x2[i]) ||
				math.Float64bits(m[i]) != math.Float64bits(m2[i]) ||
				math.Float64bits(v[i]) != math.Float64bits(v2[i]) {
				t.Fatalf("n=%d i=%d: x, m, v = %v %v %v, want %v %v %v", n, i, x[i], m[i], v[i], x2[i], m2[i], v2[i])
			}
		}
	}
}
