package pairkernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gemmRef sets, for every row r of the d x d row-major c,
//
//	c[r,:] = (flags&GemmAcc ? c[r,:] : 0) + sum_p a[r*ars+p*aps] b[p,:]
//
// over p = p0..p1-1, p0 = r with GemmUpper (else 0), p1 = r+1 with
// GemmLower (else d): ars = d, aps = 1 reads a row-major, ars = 1,
// aps = d transposed. c must not alias a or b.
func gemmRef(c, a, b []float64, d, ars, aps int, flags GemmFlags) {
	for r := 0; r < d; r++ {
		cr := c[r*d : r*d+d]
		if flags&GemmAcc == 0 {
			clear(cr)
		}
		p0, p1 := 0, d
		if flags&GemmUpper != 0 {
			p0 = r
		}
		if flags&GemmLower != 0 {
			p1 = r + 1
		}
		for p := p0; p < p1; p++ {
			x := a[r*ars+p*aps]
			bp := b[p*d : p*d+d]
			for k := range cr {
				cr[k] += x * bp[k]
			}
		}
	}
}

// TestGemmMatchesRef checks Gemm (AVX2+FMA where built) against the
// plain loops of gemmRef for every flag combination, both layouts of
// a and d = 1..33 (tails of every length, one and three 16-column
// blocks), with guard cells after c that must stay untouched.
func TestGemmMatchesRef(t *testing.T) {
	if !GemmAccelerated() {
		t.Skip("no AVX2+FMA kernel on this machine or build")
	}
	rng := rand.New(rand.NewPCG(15, 2))
	for d := 1; d <= 33; d++ {
		dd := d * d
		a, b := make([]float64, dd), make([]float64, dd)
		for i := range a {
			a[i], b[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		for flags := GemmFlags(0); flags < 8; flags++ {
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
				if !Gemm(got, a, b, d, ars, aps, flags) {
					t.Fatal("Gemm declined on a machine with AVX2 and FMA")
				}
				gemmRef(want, a, b, d, ars, aps, flags)
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

// TestGemmRefIsProduct checks the reference itself against a direct
// triple loop with the triangles spelled out.
func TestGemmRefIsProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	const d = 7
	a, b, c := make([]float64, d*d), make([]float64, d*d), make([]float64, d*d)
	for i := range a {
		a[i], b[i], c[i] = rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
	}
	got := append([]float64(nil), c...)
	gemmRef(got, a, b, d, 1, d, GemmLower|GemmAcc) // c += tril(a^T) b
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
	gemmRef(got, a, b, d, d, 1, GemmUpper) // c = triu(a) b
	for r := 0; r < d; r++ {
		for q := 0; q < d; q++ {
			var want float64
			for p := r; p < d; p++ {
				want += a[r*d+p] * b[p*d+q]
			}
			if math.Abs(got[r*d+q]-want) > 1e-12 {
				t.Fatalf("upper: c[%d,%d] = %v, want %v", r, q, got[r*d+q], want)
			}
		}
	}
}
