//go:build amd64 && !purego

package hypernymy

import (
	"math"
	"math/rand/v2"
	"testing"

	"burescope/engine/pairkernel"
)

// hypRand10 returns 100 normal entries with a few exact zeros and
// negative zeros among them.
func hypRand10(rng *rand.Rand) []float64 {
	x := make([]float64, 100)
	for i := range x {
		x[i] = rng.NormFloat64()
		switch rng.IntN(10) {
		case 0:
			x[i] = 0
		case 1:
			x[i] = math.Copysign(0, -1)
		}
	}
	return x
}

// hypSameBits fails unless got and want are equal bit for bit.
func hypSameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s[%d] = %v, want %v (bit for bit)", what, i, got[i], want[i])
		}
	}
}

// TestHypGram10 checks hypGram10 bit for bit against the code it
// replaces in hypPairLoss (m = eps K, the written-out Y^T and
// pairkernel.Gemm with GemmAcc).
func TestHypGram10(t *testing.T) {
	if !hypLoss10 {
		t.Skip("no AVX-512 kernel on this machine")
	}
	rng := rand.New(rand.NewPCG(10, 4))
	for round := 0; round < 50; round++ {
		y, k := hypRand10(rng), hypRand10(rng)
		eps := []float64{0.01, 1e-300, 0, 3}[round%4]
		want, yt := make([]float64, 100), make([]float64, 100)
		for r := 0; r < 10; r++ {
			for q := 0; q < 10; q++ {
				yt[q*10+r] = y[r*10+q]
			}
		}
		for i, x := range k {
			want[i] = eps * x
		}
		if !pairkernel.Gemm(want, y, yt, 10, 10, 1, pairkernel.GemmAcc) {
			t.Fatal("no AVX2+FMA product")
		}
		got := make([]float64, 101)
		got[100] = 7 // guard
		hypGram10(got, y, k, eps)
		hypSameBits(t, "m", got, want)
		if got[100] != 7 {
			t.Fatal("hypGram10 wrote past m")
		}
	}
}

// TestHypSpectral10 checks hypSpectral10 bit for bit against the code it
// replaces in hypPairLoss (the scaling loop and the two pairkernel.Gemm
// calls), with some weights 0 (a zero eigenvalue's fs).
func TestHypSpectral10(t *testing.T) {
	if !hypLoss10 {
		t.Skip("no AVX-512 kernel on this machine")
	}
	rng := rand.New(rand.NewPCG(10, 5))
	for round := 0; round < 50; round++ {
		q, g0 := hypRand10(rng), hypRand10(rng)
		var fg, fs [10]float64
		for p := range fg {
			fg[p], fs[p] = rng.NormFloat64(), rng.NormFloat64()
			if rng.IntN(5) == 0 {
				fs[p] = 0
			}
		}
		wg, ws, wqg, wqs := append([]float64(nil), g0...), make([]float64, 100), make([]float64, 100), make([]float64, 100)
		for p := 0; p < 10; p++ {
			for k := 0; k < 10; k++ {
				wqg[p*10+k] = fg[p] * q[p*10+k]
				wqs[p*10+k] = fs[p] * q[p*10+k]
			}
		}
		pairkernel.Gemm(wg, wqg, q, 10, 1, 10, pairkernel.GemmAcc)
		pairkernel.Gemm(ws, wqs, q, 10, 1, 10, 0)
		g, s, qg, qs := append([]float64(nil), g0...), hypRand10(rng), make([]float64, 100), make([]float64, 100)
		hypSpectral10(g, s, q, qg, qs, &fg, &fs)
		hypSameBits(t, "qg", qg, wqg)
		hypSameBits(t, "qs", qs, wqs)
		hypSameBits(t, "g", g, wg)
		hypSameBits(t, "s", s, ws)
	}
}

// TestHypPairLoss10Same checks that hypPairLoss at d = 10 gives the same
// loss and gradient rows, bit for bit, with and without the d = 10
// kernels (hypLoss10), on 20 random items and 51 candidates.
func TestHypPairLoss10Same(t *testing.T) {
	if !hypLoss10 {
		t.Skip("no AVX-512 kernel on this machine")
	}
	defer func(on bool) { hypLoss10 = on }(hypLoss10)
	const n, d, dd, eps = 20, 10, 100, 0.01
	rng := rand.New(rand.NewPCG(10, 6))
	means := make([]float64, n*d)
	for i := range means {
		means[i] = 0.5 * rng.NormFloat64()
	}
	fact := hypRandFactor(rng, n*d, 0.5)[:n*dd]
	c := newHypItemCache(n, d)
	cws := newHypCacheWS(d)
	for i := 0; i < n; i++ {
		c.setFromFactor(cws, i, fact[i*dd:(i+1)*dd], eps)
	}
	cand := make([]int32, 51)
	for i := range cand {
		cand[i] = int32(rng.IntN(n))
	}
	run := func(on bool) (float64, []float64, []float64) {
		hypLoss10 = on
		acc := newHypGradAcc(n, d)
		loss := hypPairLoss(newHypPairWS(d, len(cand)), c, means, fact, eps, 3, cand, acc)
		gm, gf, _ := hypDenseGrad(acc, n)
		return loss, gm, gf
	}
	l1, gm1, gf1 := run(true)
	l0, gm0, gf0 := run(false)
	if math.Float64bits(l1) != math.Float64bits(l0) {
		t.Fatalf("loss %v, without the d = 10 kernels %v", l1, l0)
	}
	hypSameBits(t, "mean gradient", gm1, gm0)
	hypSameBits(t, "factor gradient", gf1, gf0)
}
