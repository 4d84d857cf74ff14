package emds

import (
	"burescope/engine"
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// Every pair's expected weight per epoch is 1 (neighbour pairs exactly
// once with weight 1, the others through the random stratum), so the
// epoch's weighted stress is an unbiased estimate of the full stress.
func TestSamplerExpectedWeightIsOne(t *testing.T) {
	const n, p, epochs = 40, 3, 20000
	rng := rand.New(rand.NewPCG(4, 4))
	x := make([]float64, n*p)
	for k := range x {
		x[k] = rng.NormFloat64()
	}
	src, err := NewFeatureSource(n, p, x)
	if err != nil {
		t.Fatal(err)
	}
	smp, err := newSampler(context.Background(), src, 3, 4, 9)
	if err != nil {
		t.Fatal(err)
	}
	sum := make([]float64, n*(n-1)/2)
	ps := &PairSet{}
	parts := make([]PairSet, sampleBlocks)
	for e := 0; e < epochs; e++ {
		smp.epoch(e, ps, parts)
		for q := range ps.I {
			i, j := int(ps.I[q]), int(ps.J[q])
			if i > j {
				i, j = j, i
			}
			if ps.D[q] != src.Dist(i, j) {
				t.Fatalf("pair (%d, %d): distance %v, want %v", i, j, ps.D[q], src.Dist(i, j))
			}
			sum[engine.PairIndex(n, i, j)] += ps.W[q]
		}
	}
	// Random-stratum pair: weight w = (n-1)/8 with probability about
	// 8/(n-1) per epoch, so the epoch mean has SD about sqrt(w/epochs).
	w := float64(n-1) / 8
	sd := math.Sqrt(w / epochs)
	var worst, total float64
	for k, s := range sum {
		m := s / epochs
		total += m
		i, j := PairOf(n, k)
		if smp.inKNN(i, j) {
			if m != 1 {
				t.Fatalf("neighbour pair (%d, %d): mean weight %v, want exactly 1", i, j, m)
			}
			continue
		}
		worst = math.Max(worst, math.Abs(m-1)/sd)
	}
	t.Logf("worst deviation %.2f SD; mean weight %.4f", worst, total/float64(len(sum)))
	if !(worst <= 5.5) {
		t.Errorf("a pair's mean weight is %.2f SD from 1", worst)
	}
	if e := math.Abs(total/float64(len(sum)) - 1); !(e <= 0.01) {
		t.Errorf("mean weight over all pairs %v, want 1", total/float64(len(sum)))
	}
}
