package emds

import (
	"burescope/engine"
	"math"
	"math/rand/v2"
	"testing"
)

// planar returns n random points in the plane and their packed distances.
func planar(rng *rand.Rand, n int) ([]float64, []float64) {
	x := make([]float64, 2*n)
	for k := range x {
		x[k] = 10 * rng.NormFloat64()
	}
	var d []float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d = append(d, math.Hypot(x[2*i]-x[2*j], x[2*i+1]-x[2*j+1]))
		}
	}
	return x, d
}

// TestClassicalMDSRecoversEuclidean: on exact planar distances classical
// MDS (gonum Torgerson for small n, landmarks for n > 1000) reproduces
// every distance (the configuration is unique up to rotation).
func TestClassicalMDSRecoversEuclidean(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{3, 40, 1200} {
		_, dist := planar(rng, n)
		x, err := ClassicalMDS(n, 2, dist)
		if err != nil {
			t.Fatal(err)
		}
		var worst float64
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				got := math.Hypot(x[2*i]-x[2*j], x[2*i+1]-x[2*j+1])
				worst = math.Max(worst, math.Abs(got-dist[engine.PairIndex(n, i, j)]))
			}
		}
		if worst > 1e-8 {
			t.Errorf("n=%d: largest distance error %g", n, worst)
		}
	}
	if _, err := ClassicalMDS(4, 2, []float64{1, 2}); err == nil {
		t.Error("wrong length accepted")
	}
	// All distances zero: everything at the origin, no error.
	x, err := ClassicalMDS(3, 2, []float64{0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range x {
		if v != 0 {
			t.Fatalf("zero distances gave %v", x)
		}
	}
}

// TestWishartFactorMoments: L L^T from Bartlett's decomposition has mean
// kappa I and the Wishart variance Var(C_ij) = kappa^2 (1 + delta_ij) / dof.
func TestWishartFactorMoments(t *testing.T) {
	const draws = 20000
	for _, d := range []int{2, 3, 6} {
		rng := rand.New(rand.NewPCG(7, uint64(d)))
		dof := WishartDOF(d)
		kappa := 0.5
		l := make([]float64, d*d)
		mean := make([]float64, d*d)
		for k := 0; k < draws; k++ {
			wishartFactor(rng, l, d, dof, kappa)
			for r := 0; r < d; r++ {
				for c := 0; c < d; c++ {
					var s float64
					for q := 0; q < d; q++ {
						s += l[r*d+q] * l[c*d+q]
					}
					mean[r*d+c] += s / draws
				}
			}
		}
		for r := 0; r < d; r++ {
			for c := 0; c < d; c++ {
				want, v := 0.0, kappa*kappa/float64(dof)
				if r == c {
					want, v = kappa, 2*v
				}
				if se := math.Sqrt(v / draws); !(math.Abs(mean[r*d+c]-want) <= 5*se) {
					t.Errorf("d=%d: E[C_%d%d] = %.4f, want %.4f (5 s.e. = %.4f)", d, r, c, mean[r*d+c], want, 5*se)
				}
			}
		}
	}
}

// TestFactorFromScale: l l^T reproduces C - eps I.
func TestFactorFromScale(t *testing.T) {
	c := []float64{2, 0.3, 0.1, 0.3, 1, -0.2, 0.1, -0.2, 0.5}
	l := make([]float64, 9)
	if err := factorFromScale(l, c, 3, 0.1); err != nil {
		t.Fatal(err)
	}
	for r := 0; r < 3; r++ {
		for q := 0; q < 3; q++ {
			var s float64
			for k := 0; k < 3; k++ {
				s += l[r*3+k] * l[q*3+k]
			}
			want := c[r*3+q]
			if r == q {
				want -= 0.1
			}
			if !(math.Abs(s-want) <= 1e-12) {
				t.Errorf("(L L^T)[%d,%d] = %g, want %g", r, q, s, want)
			}
		}
	}
}
