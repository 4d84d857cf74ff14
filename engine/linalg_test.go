package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Test helpers shared by the engine tests: random matrices built from a
// known spectral decomposition, so that their roots are known exactly
// without calling the code under test.

// randOrth returns a random d x d orthogonal matrix (row-major), the Q
// factor of a Gaussian matrix (gonum QR).
func randOrth(rng *rand.Rand, d int) []float64 {
	g := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	out := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			out[i*d+j] = q.At(i, j)
		}
	}
	return out
}

// spectral returns Q diag(f(l)) Q^T, computed naively.
func spectral(q, l []float64, d int, f func(float64) float64) []float64 {
	out := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			var s float64
			for k := 0; k < d; k++ {
				s += q[i*d+k] * f(l[k]) * q[j*d+k]
			}
			out[i*d+j] = s
		}
	}
	return Symmetrize(out, d)
}

// testMatrix is a PSD matrix with its exact eigenvalues and eigenvectors.
type testMatrix struct {
	A    []float64
	Q    []float64
	L    []float64 // eigenvalues
	Name string
}

// sqrtRef returns the exact square root Q diag(sqrt l) Q^T.
func (m testMatrix) sqrtRef(d int) []float64 {
	return spectral(m.Q, m.L, d, math.Sqrt)
}

// randSpectrum returns a PSD matrix Q diag(l) Q^T with eigenvalues
// log-spaced from scale down to scale/cond, the last d-rank set to 0.
func randSpectrum(rng *rand.Rand, d int, cond float64, rank int, scale float64) testMatrix {
	q := randOrth(rng, d)
	l := make([]float64, d)
	for i := 0; i < d; i++ {
		if i >= rank {
			continue
		}
		f := 0.0
		if rank > 1 {
			f = float64(i) / float64(rank-1)
		}
		l[i] = scale * math.Pow(cond, -f)
	}
	return testMatrix{A: spectral(q, l, d, func(x float64) float64 { return x }), Q: q, L: l}
}

// randGauss returns n independent standard normal values.
func randGauss(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// relErr returns |got - want|_F / max(|want|_F, floor).
func relErr(got, want []float64, floor float64) float64 {
	return FrobDist(got, want) / math.Max(FrobNorm(want), floor)
}

func TestMatMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range []struct{ n, k, m int }{{1, 1, 1}, {2, 3, 4}, {5, 1, 3}, {8, 8, 8}} {
		a := randGauss(rng, sh.n*sh.k)
		b := randGauss(rng, sh.k*sh.m)
		got := MatMul(a, b, sh.n, sh.k, sh.m)
		// Reference: gonum's Dense.Mul.
		var want mat.Dense
		want.Mul(mat.NewDense(sh.n, sh.k, a), mat.NewDense(sh.k, sh.m, b))
		if e := FrobDist(got, want.RawMatrix().Data); !(e <= 1e-13) {
			t.Errorf("%v: |MatMul - gonum| = %g", sh, e)
		}
		tt := Transpose(a, sh.n, sh.k)
		for i := 0; i < sh.n; i++ {
			for j := 0; j < sh.k; j++ {
				if tt[j*sh.n+i] != a[i*sh.k+j] {
					t.Fatalf("%v: transpose wrong at %d,%d", sh, i, j)
				}
			}
		}
	}
}

func TestFactorProduct(t *testing.T) {
	// L L^T + eps I written out by hand for a 2 x 3 factor.
	l := []float64{1, 2, 3, -1, 0, 2}
	got := FactorProduct(l, 2, 3, 0.5)
	want := []float64{1 + 4 + 9 + 0.5, -1 + 0 + 6, -1 + 0 + 6, 1 + 0 + 4 + 0.5}
	if FrobDist(got, want) != 0 {
		t.Errorf("FactorProduct = %v, want %v", got, want)
	}
	if tr := Trace(got, 2); tr != 20 {
		t.Errorf("trace = %v, want 20", tr)
	}
}
