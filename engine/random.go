package engine

import "math/rand/v2"

// Seeded random measures: the problems of `burescope bench` and the random
// inputs of the tests of several packages.

// RandomPSD returns a random d x d positive semi-definite matrix
// (row-major): (s L)(s L)^T + ridge I with L a d x rank matrix of
// standard normal entries drawn row by row from rng. Its rank is
// min(d, rank) when ridge is 0, and it is positive definite when
// ridge > 0.
func RandomPSD(rng *rand.Rand, d, rank int, s, ridge float64) []float64 {
	l := make([]float64, d*rank)
	for i := range l {
		l[i] = s * rng.NormFloat64()
	}
	c := make([]float64, d*d)
	for r := 0; r < d; r++ {
		for q := 0; q < d; q++ {
			var v float64
			for k := 0; k < rank; k++ {
				v += l[r*rank+k] * l[q*rank+k]
			}
			c[r*d+q] = v
		}
		c[r*d+r] += ridge
	}
	return c
}

// RandomMeasures returns the means (n x d, standard normal) and scales
// (n of RandomPSD(rng, d, d, s, ridge)) of n random measures, item by
// item: a mean, then its scale.
func RandomMeasures(rng *rand.Rand, n, d int, s, ridge float64) (means, scales []float64) {
	means = make([]float64, 0, n*d)
	scales = make([]float64, 0, n*d*d)
	for i := 0; i < n; i++ {
		for k := 0; k < d; k++ {
			means = append(means, rng.NormFloat64())
		}
		scales = append(scales, RandomPSD(rng, d, d, s, ridge)...)
	}
	return means, scales
}
