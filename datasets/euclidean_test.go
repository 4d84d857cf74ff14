package datasets

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestEuclideanRowSplit checks the parallel distance computation against
// a plain double loop (bit for bit: each entry is computed the same way),
// for sizes that give one and several row runs and with 1 and 4 threads,
// and its overflow report.
func TestEuclideanRowSplit(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(1, 2))
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{2, 3, 17, 700, 1201} {
			const p = 5
			z := make([]float64, n*p)
			for i := range z {
				z[i] = rng.NormFloat64()
			}
			got, overflow := euclidean(z, n, p, 3)
			if overflow || len(got) != n*(n-1)/2 {
				t.Fatalf("n=%d: %d distances, overflow %v", n, len(got), overflow)
			}
			k := 0
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					var s float64
					for c := 0; c < p; c++ {
						d := z[i*p+c] - z[j*p+c]
						s += d * d
					}
					if want := math.Sqrt(s) * 3; got[k] != want {
						t.Fatalf("procs %d, n=%d: pair (%d, %d) = %v, want %v", procs, n, i, j, got[k], want)
					}
					k++
				}
			}
		}
	}
	z := []float64{0, 0, 1e200, 1e200, -1e200, 0}
	if _, overflow := euclidean(z, 3, 2, 1e200); !overflow {
		t.Error("distances of 1e400 not reported as overflowing")
	}
}
