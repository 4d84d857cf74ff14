package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestProcrustesRecoversRigidMotion: y = x Q + t built here with a known
// orthogonal Q (random, from a QR decomposition; a plane rotation; a
// reflection) is recovered exactly: R = Q, shift = t, and the aligned x
// equals y.
func TestProcrustesRecoversRigidMotion(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	th := 0.7
	tests := []struct {
		name string
		n, d int
		q    []float64
	}{
		{"rotation 2d", 12, 2, []float64{math.Cos(th), math.Sin(th), -math.Sin(th), math.Cos(th)}},
		{"reflection 2d", 9, 2, []float64{1, 0, 0, -1}},
		{"random 3d", 20, 3, randOrth(rng, 3)},
		{"random 5d", 30, 5, randOrth(rng, 5)},
	}
	for _, tc := range tests {
		n, d := tc.n, tc.d
		x := make([]float64, n*d)
		for k := range x {
			x[k] = rng.NormFloat64() * 3
		}
		shift := make([]float64, d)
		for c := range shift {
			shift[c] = 10 * rng.NormFloat64()
		}
		// y_i = x_i Q + shift, written out.
		y := make([]float64, n*d)
		for i := 0; i < n; i++ {
			for b := 0; b < d; b++ {
				y[i*d+b] = shift[b]
				for a := 0; a < d; a++ {
					y[i*d+b] += x[i*d+a] * tc.q[a*d+b]
				}
			}
		}
		r, tt, err := Procrustes(n, d, x, y)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for k := range r {
			if !(math.Abs(r[k]-tc.q[k]) <= 1e-12) {
				t.Errorf("%s: R[%d] = %v, want %v", tc.name, k, r[k], tc.q[k])
			}
		}
		for c := range tt {
			if !(math.Abs(tt[c]-shift[c]) <= 1e-11) {
				t.Errorf("%s: shift[%d] = %v, want %v", tc.name, c, tt[c], shift[c])
			}
		}
		got := ApplyRigid(n, d, x, r, tt)
		for k := range got {
			if !(math.Abs(got[k]-y[k]) <= 1e-11) {
				t.Errorf("%s: aligned[%d] = %v, want %v", tc.name, k, got[k], y[k])
				break
			}
		}
	}
}

// TestProcrustesOptimal2D: with noise there is no exact fit; the
// alignment's residual must be the least over every rotation and
// reflection of the plane (brute-force search over the angle, with the
// best shift for each, which is the difference of the centroids).
func TestProcrustesOptimal2D(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 15
	x := make([]float64, 2*n)
	y := make([]float64, 2*n)
	for k := range x {
		x[k] = rng.NormFloat64()
		y[k] = rng.NormFloat64()
	}
	resid := func(a []float64) float64 {
		var s float64
		for k := range a {
			s += (a[k] - y[k]) * (a[k] - y[k])
		}
		return s
	}
	r, tt, err := Procrustes(n, 2, x, y)
	if err != nil {
		t.Fatal(err)
	}
	got := resid(ApplyRigid(n, 2, x, r, tt))
	var cx, cy [2]float64
	for i := 0; i < n; i++ {
		for c := 0; c < 2; c++ {
			cx[c] += x[2*i+c] / n
			cy[c] += y[2*i+c] / n
		}
	}
	best := math.Inf(1)
	for k := 0; k < 20000; k++ {
		th := 2 * math.Pi * float64(k) / 20000
		for _, s := range []float64{1, -1} {
			q := []float64{math.Cos(th), s * math.Sin(th), -math.Sin(th), s * math.Cos(th)}
			sh := []float64{cy[0] - cx[0]*q[0] - cx[1]*q[2], cy[1] - cx[0]*q[1] - cx[1]*q[3]}
			best = math.Min(best, resid(ApplyRigid(n, 2, x, q, sh)))
		}
	}
	if got > best*(1+1e-12) {
		t.Errorf("Procrustes residual %v above the brute-force minimum %v", got, best)
	}
	if best-got > 1e-6*best { // the grid is fine enough to come close
		t.Errorf("brute force %v is far below Procrustes %v", best, got)
	}
}

func TestProcrustesErrors(t *testing.T) {
	if _, _, err := Procrustes(2, 2, []float64{1, 2, 3}, []float64{1, 2, 3, 4}); err == nil {
		t.Error("wrong length accepted")
	}
	if _, _, err := Procrustes(0, 2, nil, nil); err == nil {
		t.Error("no points accepted")
	}
	if _, _, err := Procrustes(2, 1, []float64{1, math.NaN()}, []float64{0, 1}); err == nil {
		t.Error("NaN accepted")
	}
}
