package hypernymy

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestHypGemmMatchesRef checks hypGemm (AVX2+FMA where built) against the
// plain loops of hypGemmRef for every flag combination, both layouts of
// a and d = 1..33 (tails of every length, one and three 16-column
// blocks), with guard cells after c that must stay untouched.
func TestHypGemmMatchesRef(t *testing.T) {
	if !hypTrainAVX2 {
		t.Skip("no AVX2 kernels on this machine or build")
	}
	rng := rand.New(rand.NewPCG(15, 2))
	for d := 1; d <= 33; d++ {
		dd := d * d
		a, b := make([]float64, dd), make([]float64, dd)
		for i := range a {
			a[i], b[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		for flags := 0; flags < 8; flags++ {
			for _, tr := range []bool{false, true} {
				ars, aps := d, 1
				if tr {
					ars, aps = 1, d
				}
				got, want := make([]float64, dd+5), make([]float64, dd+5)
				for i := range got {
					got[i] = rng.NormFloat64()
					want[i] = got[i]
				}
				if !hypGemm(got, a, b, d, ars, aps, flags) {
					t.Fatal("hypGemm declined with hypTrainAVX2 set")
				}
				hypGemmRef(want, a, b, d, ars, aps, flags)
				for i := range got {
					tol := 1e-13 * (1 + math.Abs(want[i])) * float64(d)
					if i >= dd {
						tol = 0 // guard cells
					}
					if math.Abs(got[i]-want[i]) > tol {
						t.Fatalf("d=%d flags=%d transposed=%v: c[%d] = %v, want %v", d, flags, tr, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestHypGemmRefIsProduct checks the reference itself against a direct
// triple loop with the triangles spelled out.
func TestHypGemmRefIsProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	const d = 7
	a, b, c := make([]float64, d*d), make([]float64, d*d), make([]float64, d*d)
	for i := range a {
		a[i], b[i], c[i] = rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
	}
	got := append([]float64(nil), c...)
	hypGemmRef(got, a, b, d, 1, d, hypGemmLower|hypGemmAcc) // c += tril(a^T) b
	for r := 0; r < d; r++ {
		for q := 0; q < d; q++ {
			want := c[r*d+q]
			for p := 0; p < d; p++ {
				if p <= r {
					want += a[p*d+r] * b[p*d+q]
				}
			}
			if math.Abs(got[r*d+q]-want) > 1e-12 {
				t.Fatalf("c[%d,%d] = %v, want %v", r, q, got[r*d+q], want)
			}
		}
	}
	hypGemmRef(got, a, b, d, d, 1, hypGemmUpper) // c = triu(a) b
	want := make([]float64, d*d)
	hypMulUpper(want, a, b, d)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("upper: c[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}
