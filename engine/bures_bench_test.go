package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Benchmarks of Bures^2 per pair: closed forms (d = 2, 3), Newton-Schulz
// with the default options and with the paper's fixed 6 iterations, and the
// exact eigendecomposition. Inputs are L L^T + 1e-2 I with Gaussian L
// (the paper's regularisation).
//
//	go test ./engine -run '^$' -bench Bures2 -benchmem

var benchSink float64

func benchPair(d int) (a, b []float64) {
	rng := rand.New(rand.NewPCG(81, 82))
	return FactorProduct(randGauss(rng, d*d), d, d, 1e-2), FactorProduct(randGauss(rng, d*d), d, d, 1e-2)
}

func BenchmarkBures2(b *testing.B) {
	for _, d := range []int{2, 3, 8} {
		x, y := benchPair(d)
		if d == 2 {
			b.Run("d=2/closed", func(b *testing.B) {
				for b.Loop() {
					benchSink = Bures2x2(x, y)
				}
			})
		}
		if d == 3 {
			b.Run("d=3/closed", func(b *testing.B) {
				for b.Loop() {
					benchSink = Bures2x3(x, y)
				}
			})
		}
		w := NewNSWorkspace(d)
		b.Run(fmt.Sprintf("d=%d/ns-default", d), func(b *testing.B) {
			for b.Loop() {
				benchSink = Bures2NS(x, y, d, NSOptions{}, w)
			}
		})
		b.Run(fmt.Sprintf("d=%d/ns-6iter", d), func(b *testing.B) {
			for b.Loop() {
				benchSink = Bures2NS(x, y, d, NSOptions{MaxIter: 6, Tol: -1}, w)
			}
		})
		b.Run(fmt.Sprintf("d=%d/eigen", d), func(b *testing.B) {
			for b.Loop() {
				benchSink = Bures2(x, y, d)
			}
		})
	}
}

// BenchmarkDistanceMatrix is the stress-style pair loop: all n(n-1)/2 exact
// W2 distances of an embedding (n = 35 as in the paper's PISA example).
func BenchmarkDistanceMatrix(b *testing.B) {
	rng := rand.New(rand.NewPCG(83, 84))
	for _, d := range []int{2, 3, 4, 8} {
		n := 35
		e := &Embedding{Family: Uniform(d), Dim: d}
		for i := 0; i < n; i++ {
			e.Labels = append(e.Labels, fmt.Sprint(i))
			e.Means = append(e.Means, randGauss(rng, d)...)
			e.Scales = append(e.Scales, FactorProduct(randGauss(rng, d*d), d, d, 1e-2)...)
		}
		b.Run(fmt.Sprintf("n=35/d=%d", d), func(b *testing.B) {
			for b.Loop() {
				benchSink = DistanceMatrix(e)[1]
			}
		})
	}
}

// BenchmarkTransportBatchNS times the two-run trick over n x m pairs.
func BenchmarkTransportBatchNS(b *testing.B) {
	rng := rand.New(rand.NewPCG(85, 86))
	d, n, m := 8, 16, 16
	var as, bs []float64
	for i := 0; i < n; i++ {
		as = append(as, FactorProduct(randGauss(rng, d*d), d, d, 1e-2)...)
		bs = append(bs, FactorProduct(randGauss(rng, d*d), d, d, 1e-2)...)
	}
	b.Run("d=8/16x16", func(b *testing.B) {
		for b.Loop() {
			benchSink = TransportBatchNS(as, n, bs, m, d, NSOptions{})[0].Bures2
		}
	})
}
