package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRandomPSD checks symmetry, the smallest eigenvalue (ridge, or 0 below
// full rank) and the rank against gonum's eigendecomposition.
func TestRandomPSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		d, rank   int
		s, ridge  float64
		wantRank  int
		wantFloor float64
	}{
		{3, 3, 1, 0.5, 3, 0.5},
		{4, 2, 0.3, 0, 2, 0},
		{2, 1, 2, 0.1, 2, 0.1},
		{5, 5, 1, 0, 5, 0},
	} {
		t.Run(fmt.Sprintf("d=%d,rank=%d,ridge=%v", tc.d, tc.rank, tc.ridge), func(t *testing.T) {
			c := RandomPSD(rng, tc.d, tc.rank, tc.s, tc.ridge)
			for r := 0; r < tc.d; r++ {
				for q := 0; q < tc.d; q++ {
					if c[r*tc.d+q] != c[q*tc.d+r] {
						t.Fatalf("not symmetric at (%d, %d)", r, q)
					}
				}
			}
			var eig mat.EigenSym
			if !eig.Factorize(mat.NewSymDense(tc.d, c), false) {
				t.Fatal("eigendecomposition failed")
			}
			ev := eig.Values(nil) // ascending
			if !(math.Abs(ev[0]-tc.wantFloor) <= 1e-9*(1+ev[len(ev)-1])) && tc.rank < tc.d {
				t.Errorf("smallest eigenvalue %v, want %v", ev[0], tc.wantFloor)
			}
			if !(ev[0] >= tc.wantFloor-1e-9*(1+ev[len(ev)-1])) {
				t.Errorf("smallest eigenvalue %v below the ridge %v", ev[0], tc.wantFloor)
			}
			rank := 0
			for _, v := range ev {
				if v > 1e-9*(1+ev[len(ev)-1]) {
					rank++
				}
			}
			if rank != tc.wantRank {
				t.Errorf("rank %d (eigenvalues %v), want %d", rank, ev, tc.wantRank)
			}
		})
	}
}
